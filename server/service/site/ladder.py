"""The ladder: the admitted bots ranked over the last N finished tournaments.

A bot's figure is its per-hand result pooled over every match it played in those tournaments
with the version that plays now (a new version starts its own history): the chips over the
hands of all its units, with the standard error and the Student's t interval of the
tournaments' own standings (:func:`~pokerbots.server.tournament.standings.units` and
:func:`~pokerbots.server.tournament.standings.estimate` on each tournament's own store, each
unit kept apart: a unit of one tournament is never merged with a unit of another). So the
ladder's figure is exactly what one tournament's standings would say had all those matches
been one tournament.

Each finished tournament's units are read once from its ``results.sqlite`` and kept (a
finished tournament never changes). :func:`ladder` gives the lines (in ``standings.json``'s
shape, so that the standings' view and partial show them) and, for the chart, each bot's
figure as it stood after each of the tournaments it played.

The lines rank as a tournament's standings do (per hand, bankroll, name), and say as they do
whether each bot's interval is apart from the next one's
(:func:`~pokerbots.server.tournament.standings.separation`). A bot whose playing version has
no match in those tournaments yet (just admitted, or a new version) has no result: it is
*unranked* (``rank`` null), listed after every bot ranked, never above one that played and
lost. A ladder has no run-off and no bot out.
"""

from __future__ import annotations

import functools
import threading
from collections import Counter
from pathlib import Path

from pokerbots.server.tournament import results_store
from pokerbots.server.tournament import standings as standings_

#: Tournaments on the ladder unless ``pokerbots serve --ladder`` says otherwise.
DEFAULT_TOURNAMENTS = 24
#: One request reads a tournament's store at a time: many pages asked at once wait for the
#: first to fill the cache instead of each reading every store.
_READING = threading.Lock()


@functools.lru_cache(maxsize=256)
def tournament_units(folder: str) -> dict:
    """``(units, unit, matches, faults)`` of the finished tournament in ``folder``: ``{bot
    name: {unit: (chips, hands)}}``, what one unit is, and each bot's played matches and
    faults."""
    path = Path(folder)
    if not results_store.exists(path):
        return {}, "match", Counter(), Counter()
    store = results_store.open_store(path)
    try:
        rules = standings_.rules_of(store.meta("options"))
        rows = store.matches()
    finally:
        store.close()
    found = standings_.units(rows, rules)
    played = [row for row in rows if row["status"] in standings_.COUNTED]
    matches = Counter(name for row in played for name in row["seating"])
    faults = Counter(row["culprit"] for row in played
                     if row["status"] == "failed" and row["culprit"] is not None)
    return ({name: {unit: tuple(cell) for unit, cell in cells.items()}
             for name, cells in found.items()}, rules.unit, matches, faults)


def _key(bot: dict) -> object:
    """What makes one history: the version's id (its name and label in older rows)."""
    return bot.get("version_id") or (bot["name"], bot["version"])


def ladder(store, data: Path, tournaments: int = DEFAULT_TOURNAMENTS) -> dict:
    """The ladder over the last ``tournaments`` finished tournaments of ``store``:
    ``{"tournaments": [ids, oldest first], "unit", "bots": [lines, best first],
    "history": {name: [{"tournament", "per_hand", "stderr", "ci95", "units"}, ...]}}``.
    Every admitted bot whose folder is there has a line, those with no hand yet a per-hand of
    0 and no interval (as in a tournament's standings), those with no match yet unranked."""
    done = list(reversed(store.tournaments("done", limit=tournaments)))
    playing = {b["name"]: b["admitted"] for b in store.bots() if b["present"] and b["admitted"]}
    cells: dict[str, dict] = {name: {} for name in playing}
    played: dict[str, set] = {name: set() for name in playing}
    history: dict[str, list] = {name: [] for name in playing}
    matches: Counter = Counter()
    faults: Counter = Counter()
    unit_word = "match"
    for tournament in done:
        with _READING:
            per_bot, unit_word, counted, culprits = tournament_units(
                str(data / tournament["folder"]))
        for bot in tournament["bots"] or []:
            name = bot["name"]
            version = playing.get(name)
            if version is None or _key(bot) not in (version["id"], (name, version["label"])):
                continue
            for unit, cell in per_bot.get(name, {}).items():
                cells[name][(tournament["id"], unit)] = cell
            played[name].add(tournament["id"])
            matches[name] += counted[name]
            faults[name] += culprits[name]
            history[name].append({"tournament": tournament["id"],
                                  **_figure(cells[name].values())})
    lines = []
    for name, version in playing.items():
        units = list(cells[name].values())
        figure = _figure(units)
        lines.append({"name": name, "version": version["label"], "version_id": version["id"],
                      "rank": None,
                      **figure, "per_hand": figure["per_hand"] or 0.0,
                      "hands": sum(n for _, n in units), "bankroll": sum(x for x, _ in units),
                      "tournaments": len(played[name]), "matches": matches[name],
                      "faults": faults[name]})
    lines.sort(key=lambda b: (not b["matches"], -b["per_hand"], -b["bankroll"], b["name"]))
    for rank, line in enumerate((line for line in lines if line["matches"]), 1):
        line["rank"] = rank
    for better, worse in zip(lines, lines[1:] + [None]):  # no bot is out of a ladder
        better.update(standings_.separation({**better, "out": False},
                                            worse and {**worse, "out": False}))
    return {"tournaments": [t["id"] for t in done], "unit": unit_word, "bots": lines,
            "history": {name: points for name, points in history.items() if points}}


def _figure(cells) -> dict:
    """``{"per_hand", "stderr", "ci95", "units"}`` of a bot's units, as the standings have
    them."""
    per_hand, stderr, k = standings_.estimate(list(cells))
    interval = None
    if stderr is not None:
        half = standings_.t975(k - 1) * stderr
        interval = [round(per_hand - half, 6), round(per_hand + half, 6)]
    return {"per_hand": None if per_hand is None else round(per_hand, 6),
            "stderr": None if stderr is None else round(stderr, 6), "ci95": interval,
            "units": k}

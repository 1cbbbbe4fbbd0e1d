"""Rankings from the store: forfeits, per-hand results, honest standard errors, the run-off.

**What a match counts.** A ``done`` match gives each seat its bankroll over the hands played.
A ``failed`` match (a bot broke a rule, the match stopped there) gives the other seats what they
won in the hands completed; the culprit *forfeits*: it is charged the worst bankroll any seat had
after the completed hands, less the game's largest forced bet (:func:`penalty_per_hand`) for
every hand of the planned match not played, over all the planned hands. So breaking a rule is
never better than folding every remaining hand, and never better than the worst seat at the
table. A ``skipped`` match counts for nobody.

**Standard errors.** A bot's ``per_hand`` is its total chips over its total hands. Its standard
error comes from independent units only: with ``--duplicate`` each deal set of a table, summed
over its seatings (the seatings share cards, so they are not independent of each other);
otherwise each match. With units ``(x_u, n_u)`` (chips, hands), ``R = sum x / sum n`` and

    stderr = sqrt(k / (k - 1) * sum (x_u - R n_u)^2) / sum n

over the bot's ``k`` units (the ratio estimator's standard error; with equal ``n_u`` it is the
sample standard deviation of the units' per-hand results over sqrt(k)). The 95% interval is
``per_hand ± t(0.975, k - 1) * stderr``: Student's t, so that a few units are not trusted more
than they deserve. With one unit there is no interval (``null``).

**Out.** A bot dropped by ``--max-faults`` (its faults reached it), or whose every played match
failed by its own fault, is *out*: it ranks below every bot still in, in the bankroll ranking
and in the run-off, whatever its per-hand result (a forfeit charges the big blind per hand,
which is more than some honest bots lose; breaking the rules must never pay). Among themselves
the bots out rank by per hand. ``out`` and ``out_reason`` say so in each line.

**No hand is not no result.** A bot that played no hand (its opponents failed before hand 0,
or none of its matches is played yet) has won and lost nothing: ``per_hand`` 0, ``units`` 0,
no interval. It ranks by that 0 like any other bot, never first or last by accident.

**Run-off** (the ACPC's instant run-off): the bots out go last, in their bankroll order; rank the
other, surviving bots on the matches whose bots all survive, drop the last, repeat; once no
match is left among the survivors they keep their order from the last ranking. The winner is
the last bot standing; ties drop the bot lower in the total-bankroll ranking.
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from dataclasses import dataclass

from pokerbots.server import games


@functools.lru_cache(maxsize=None)
def t975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom, from scipy.

    Up to 30 degrees of freedom it is rounded to three decimals, as the printed table it
    replaces had it (12.706, 4.303, ..., 2.042), so that no published interval moves; beyond,
    scipy's value as it is. scipy is imported here, on first use: ``scipy.stats`` takes most
    of a second to import, which no ``--help`` should pay."""
    from scipy.stats import t

    quantile = float(t.ppf(0.975, df))
    return round(quantile, 3) if df <= 30 else quantile


def penalty_per_hand(game: str, players: int, game_options: dict) -> int:
    """The game's largest forced bet: what a forfeit costs for each hand not played."""
    table = games.make_game(game, players, **game_options)
    return max(max(table.blinds(button)) for button in range(players))


@dataclass(frozen=True)
class Rules:
    """What the standings need to know of the tournament."""

    hands_per_match: int
    duplicate: bool
    penalty: int
    #: ``--max-faults``: a bot with this many faults is out (none: only a bot whose every
    #: match failed by its fault is).
    max_faults: int | None = None

    @property
    def unit(self) -> str:
        """What one independent unit of the standard errors is."""
        return "deal set" if self.duplicate else "match"


COUNTED = ("done", "failed")


def seat_results(row: dict, rules: Rules, key: str = "bankrolls") -> list[tuple[float, int]]:
    """``(chips, hands)`` each seat of a played match is credited with (``key``:
    ``allin_bankrolls`` for the all-in adjusted figures)."""
    values = row[key]
    played = row["hands"]
    results = [(v, played) for v in values]
    culprit = row["culprit_seat"]
    if row["status"] == "failed" and culprit is not None:
        worst = min(values) if played else 0
        unplayed = max(rules.hands_per_match - played, 0)
        results[culprit] = (worst - rules.penalty * unplayed, max(played, rules.hands_per_match))
    return results


def unit_of(row: dict, rules: Rules):
    return (row["table_no"], row["deal_set"]) if rules.duplicate else row["id"]


def units(rows: list[dict], rules: Rules, key: str = "bankrolls") -> dict:
    """``{bot: {unit: [chips, hands]}}`` over the played matches in ``rows``."""
    found: dict = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for row in rows:
        if row["status"] not in COUNTED or row[key] is None:
            continue
        unit = unit_of(row, rules)
        for name, (chips, hands) in zip(row["seating"], seat_results(row, rules, key)):
            cell = found[name][unit]
            cell[0] += chips
            cell[1] += hands
    return found


def estimate(cells) -> tuple[float | None, float | None, int]:
    """``(per_hand, stderr, units)`` from a bot's units (those with no hand are left out)."""
    cells = [(x, n) for x, n in cells if n > 0]
    total = sum(n for _, n in cells)
    if not total:
        return None, None, 0
    r = sum(x for x, _ in cells) / total
    k = len(cells)
    if k < 2:
        return r, None, k
    spread = sum((x - r * n) ** 2 for x, n in cells)
    return r, math.sqrt(k / (k - 1) * spread) / total, k


def _round(value):
    return None if value is None else round(value, 6)


def out_reason(faults: int, matches: int, rules: Rules) -> str | None:
    """Why a bot with ``faults`` faults in ``matches`` played matches is out, or none."""
    if rules.max_faults is not None and faults >= rules.max_faults:
        return (f"dropped after {faults} fault{'s' if faults != 1 else ''}"
                f" (--max-faults {rules.max_faults})")
    if matches and faults >= matches:
        return ("its only match failed by its fault" if matches == 1 else
                f"all its {matches} matches failed by its fault")
    return None


def table(rows: list[dict], names: list[str], rules: Rules, *, allin: bool = False) -> list[dict]:
    """Each bot's line of the standings, best first (``rank``; ``runoff_rank`` too)."""
    per_bot = units(rows, rules)
    per_bot_allin = units(rows, rules, "allin_bankrolls") if allin else {}
    matches = defaultdict(int)
    faults = defaultdict(int)
    for row in rows:
        if row["status"] in COUNTED:
            for name in row["seating"]:
                matches[name] += 1
            if row["status"] == "failed" and row["culprit"] is not None:
                faults[row["culprit"]] += 1
    lines = []
    for name in names:
        cells = list(per_bot.get(name, {}).values())
        per_hand, stderr, k = estimate(cells)
        reason = out_reason(faults[name], matches[name], rules)
        line = {
            "name": name, "rank": None, "runoff_rank": None, "matches": matches[name],
            "hands": sum(n for _, n in cells), "bankroll": sum(x for x, _ in cells),
            # no hand: nothing won, nothing lost (never a null that sorts it by accident)
            "per_hand": _round(0.0 if per_hand is None else per_hand),
            "stderr": _round(stderr),
            "ci95": (None if stderr is None else
                     [_round(per_hand - t975(k - 1) * stderr),
                      _round(per_hand + t975(k - 1) * stderr)]),
            "units": k, "faults": faults[name],
            "out": reason is not None, "out_reason": reason,
        }
        if allin:
            adjusted, adjusted_se, _ = estimate(per_bot_allin.get(name, {}).values())
            line["allin_adjusted_per_hand"] = _round(0.0 if adjusted is None else adjusted)
            line["allin_adjusted_stderr"] = _round(adjusted_se)
        lines.append(line)
    # The bots out last, whatever their result; then per hand, bankroll, name.
    lines.sort(key=lambda b: (b["out"], -b["per_hand"], -b["bankroll"], b["name"]))
    for i, line in enumerate(lines):
        line["rank"] = i + 1
    order = runoff(rows, [line["name"] for line in lines], rules,
                   out={line["name"] for line in lines if line["out"]})
    for line in lines:
        line["runoff_rank"] = order.index(line["name"]) + 1
    return lines


def runoff(rows: list[dict], ranked: list[str], rules: Rules, *,
           out: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The instant run-off order, winner first (``ranked``: the total-bankroll order; ``out``:
    the bots out, last in their ``ranked`` order, whose matches count for no survivor)."""
    played = [r for r in rows if r["status"] in COUNTED]
    survivors = [name for name in ranked if name not in out]
    dropped: list[str] = []
    last: dict[str, float | None] = {}  # per hand in the latest ranking

    def value(name: str) -> float:
        found = last.get(name)
        return 0.0 if found is None else found  # no hand among the survivors: 0

    while len(survivors) > 1:
        alive = set(survivors)
        among = [r for r in played if alive.issuperset(r["seating"])]
        if not among:
            break
        per_bot = units(among, rules)
        last = {name: estimate(per_bot[name].values())[0] for name in survivors
                if name in per_bot}
        # The weakest: lowest per hand among the survivors; a tie drops the lower ranked.
        weakest = min(survivors, key=lambda n: (value(n), -ranked.index(n)))
        survivors.remove(weakest)
        dropped.append(weakest)
    survivors.sort(key=lambda n: (-value(n), ranked.index(n)))
    return survivors + dropped[::-1] + [name for name in ranked if name in out]


def cross_table(rows: list[dict], names: list[str], rules: Rules) -> dict:
    """``{a: {b: per_hand}}``: a's chips per hand in the matches where b also sat."""
    sums: dict = defaultdict(lambda: [0, 0])
    for row in rows:
        if row["status"] not in COUNTED or row["bankrolls"] is None:
            continue
        results = seat_results(row, rules)
        for a, (chips, hands) in zip(row["seating"], results):
            for b in row["seating"]:
                if b != a:
                    cell = sums[a, b]
                    cell[0] += chips
                    cell[1] += hands
    return {a: {b: (_round(sums[a, b][0] / sums[a, b][1]) if sums[a, b][1] else None)
                for b in names if b != a}
            for a in names}


def separated(lines: list[dict], top: int) -> bool:
    """Whether the 95% intervals of the first ``top`` bots are disjoint, rank by rank."""
    head = lines[:top]
    for better, worse in zip(head, head[1:]):
        if better["ci95"] is None or worse["ci95"] is None:
            return False
        if better["ci95"][0] <= worse["ci95"][1]:
            return False
    return True


def document(store) -> dict:
    """``standings.json``: the whole standings, from the store alone."""
    options = store.meta("options")
    rows = store.matches()
    names = [e.name for e in store.entrants()]
    rules = rules_of(options)
    allin = games.get(options["game"]).allin_equity
    lines = table(rows, names, rules, allin=allin)
    counts = store.counts()
    return {
        "game": options["game"], "players": options["players"],
        "hands_per_match": options["hands"], "duplicate": options["duplicate"],
        "seed": store.meta("seed"), "max_faults": options.get("max_faults"),
        "unit": rules.unit,
        "matches": {"planned": len(rows), "done": counts["done"], "failed": counts["failed"],
                    "skipped": counts["skipped"]},
        "bots": lines,
        "runoff": [line["name"] for line in sorted(lines, key=lambda x: x["runoff_rank"])],
    }


def rules_of(options: dict) -> Rules:
    return Rules(options["hands"], options["duplicate"],
                 penalty_per_hand(options["game"], options["players"],
                                  options["game_options"]),
                 options.get("max_faults"))

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

**Figures.** Each line has the raw figure (``per_hand``, ``stderr``, ``ci95``) and, where the
matches have them, the all-in adjusted (``allin_adjusted_*``: games scored by all-in equity)
and the luck-adjusted (``luck_adjusted_*``: every match has ``luck_bankrolls``) figures, each
computed as above from the same units. ``--no-adjust`` leaves both adjusted figures out.
``--rank-by raw|allin|luck`` chooses the figure the ranking, the run-off and ``--refine`` use
(:data:`FIGURES`); while the matches have no such figure (a store played without it) the raw
one ranks, and the document's ``rank_by`` says which did.

**Crosstable.** For every ordered pair of bots (A, B) that shared a table, A's raw figure in
the matches where both sat: per hand, stderr, 95% interval, units and hands, from the units of
those matches alone (deal sets with ``--duplicate``, matches otherwise), as above.

**How many hands a ranking still needs.** For each bot and the bot ranked just below it, by
the figure ranked by: whether their 95% intervals are disjoint (``separate_from_next``: what
``--refine`` asks of the top T) and, if not, about how many hands each would need for them to
be (``separate_after_hands``, the pair's mean hands ``n`` scaled; ``more_hands`` the
difference). With half-widths ``h_a``, ``h_b`` and difference ``d > 0`` of the two figures the
intervals are disjoint once ``h_a + h_b < d``; at the present variance every half-width
shrinks as ``1 / sqrt(hands)``, so they separate after about

    n * ((h_a + h_b) / d) ** 2

hands (the t quantile taken as it is now: a slight overestimate while units are few). None
when the difference is 0 (no number of hands separates two equal figures), when either
interval is missing, for the last bot, and for a bot out or above one. Two neighbours whose
intervals overlap are *indistinguishable* (``indistinguishable``) when their difference is 0
or far inside the noise: when separating them would take more than :data:`INDISTINGUISHABLE`
(100) times the hands played, that is when the difference is under a tenth of the two
half-widths summed. Identical bots are that (their difference is the cards' luck, or exactly
0 with duplicate deals); a count of hands in the millions says nothing more useful.

**Out.** A bot dropped by ``--max-faults`` (its faults reached it), or whose every played match
failed by its own fault, is *out*: it ranks below every bot still in, in the bankroll ranking
and in the run-off, whatever its per-hand result (a forfeit charges the big blind per hand,
which is more than some honest bots lose; breaking the rules must never pay). Among themselves
the bots out rank by per hand. ``out`` and ``out_reason`` say so in each line.

**No hand is not no result.** A bot that played no hand (its opponents failed before hand 0)
has won and lost nothing: ``per_hand`` 0, ``units`` 0, no interval. It ranks by that 0 like
any other bot, never first or last by accident. A bot that has not *played* yet (none of its
matches is done or failed: the tournament has not reached them, or they were skipped) is
*unranked*: ``rank`` and ``runoff_rank`` null, listed after every bot ranked (its 0 is no
result: it must not rank above a bot that played and lost).

**Run-off** (the ACPC's instant run-off, among the bots ranked): the bots out go last, in
their bankroll order; rank the other, surviving bots on the matches whose bots all survive,
drop the last, repeat; once no match is left among the survivors they keep their order from
the last ranking. The winner is
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
    scipy's value as it is. scipy is imported here, on first use, and only the special
    function behind ``scipy.stats.t.ppf`` (``stdtrit``, the same values: checked for every
    df up to 2,000): ``scipy.stats`` takes 1.3 CPU seconds to import here, ``scipy.special``
    0.5, paid at the end of every tournament, and no ``--help`` should pay either."""
    from scipy.special import stdtrit

    quantile = float(stdtrit(df, 0.975))
    return round(quantile, 3) if df <= 30 else quantile


def penalty_per_hand(game: str, players: int, game_options: dict) -> int:
    """The game's largest forced bet: what a forfeit costs for each hand not played."""
    table = games.make_game(game, players, **game_options)
    return max(max(table.blinds(button)) for button in range(players))


#: The figures a ranking can be made by (``--rank-by``): the prefix of its fields in a line of
#: the standings, and the column of a store row it is summed from.
FIGURES = {"raw": ("", "bankrolls"), "allin": ("allin_adjusted_", "allin_bankrolls"),
           "luck": ("luck_adjusted_", "luck_bankrolls")}


@dataclass(frozen=True)
class Rules:
    """What the standings need to know of the tournament."""

    hands_per_match: int
    duplicate: bool
    penalty: int
    #: ``--max-faults``: a bot with this many faults is out (none: only a bot whose every
    #: match failed by its fault is).
    max_faults: int | None = None
    #: ``--rank-by``: the figure that ranks (a key of :data:`FIGURES`).
    rank_by: str = "raw"
    #: The adjusted figures are wanted (``--no-adjust``: none).
    adjust: bool = True

    @property
    def unit(self) -> str:
        """What one independent unit of the standard errors is."""
        return "deal set" if self.duplicate else "match"


COUNTED = ("done", "failed")
#: Two neighbours are indistinguishable when separating them would take more than this many
#: times the hands played (see the module's docstring).
INDISTINGUISHABLE = 100


def seat_results(row: dict, rules: Rules, key: str = "bankrolls") -> list[tuple[float, int]]:
    """``(chips, hands)`` each seat of a played match is credited with (``key``:
    ``allin_bankrolls`` or ``luck_bankrolls`` for the adjusted figures)."""
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


def _counted(rows: list[dict], key: str = "bankrolls") -> list[dict]:
    """The played matches of ``rows`` that have the column ``key`` (a store older than a
    column lacks it)."""
    return [row for row in rows if row["status"] in COUNTED and row.get(key) is not None]


def units(rows: list[dict], rules: Rules, key: str = "bankrolls") -> dict:
    """``{bot: {unit: [chips, hands]}}`` over the played matches in ``rows``."""
    found: dict = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for row in _counted(rows, key):
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


def interval(cells) -> dict:
    """``per_hand`` (0 with no hand: nothing won, nothing lost), ``stderr``, ``ci95`` and
    ``units`` of a bot's units, rounded as ``standings.json`` has them."""
    per_hand, stderr, k = estimate(cells)
    return {
        # no hand: nothing won, nothing lost (never a null that sorts it by accident)
        "per_hand": _round(0.0 if per_hand is None else per_hand),
        "stderr": _round(stderr),
        "ci95": (None if stderr is None else
                 [_round(per_hand - t975(k - 1) * stderr),
                  _round(per_hand + t975(k - 1) * stderr)]),
        "units": k,
    }


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


def figures_of(rows: list[dict], rules: Rules, *, allin: bool = False) -> list[str]:
    """The figures the standings of ``rows`` show: ``raw``, ``allin`` (``allin``: the game is
    scored by all-in equity) and ``luck`` (every played match has ``luck_bankrolls``), the
    adjusted ones only when ``rules.adjust``."""
    found = ["raw"]
    if rules.adjust and (allin or rules.rank_by == "allin"):
        found.append("allin")
    played = [row for row in rows if row["status"] in COUNTED]
    if rules.adjust and played and all(row.get("luck_bankrolls") is not None
                                       for row in played):
        found.append("luck")
    return found


def ranked_by(rows: list[dict], rules: Rules, *, allin: bool = False) -> str:
    """The figure that ranks: ``rules.rank_by`` if the matches have it (or none is played
    yet), else ``raw``."""
    if not any(row["status"] in COUNTED for row in rows):
        return rules.rank_by
    return rules.rank_by if rules.rank_by in figures_of(rows, rules, allin=allin) else "raw"


def table(rows: list[dict], names: list[str], rules: Rules, *, allin: bool = False) -> list[dict]:
    """Each bot's line of the standings, ranked by :func:`ranked_by` (``rank``, null for a
    bot that has not played yet; ``runoff_rank``, ``separate_from_next``,
    ``separate_after_hands``, ``more_hands`` and ``indistinguishable`` too)."""
    shown = figures_of(rows, rules, allin=allin)
    figure = ranked_by(rows, rules, allin=allin)
    if figure not in shown:  # nothing played yet: every figure is 0, the raw one ranks
        figure = "raw"
    per_figure = {f: units(rows, rules, FIGURES[f][1]) for f in shown}
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
        cells = list(per_figure["raw"].get(name, {}).values())
        reason = out_reason(faults[name], matches[name], rules)
        raw = interval(cells)
        line = {
            "name": name, "rank": None, "runoff_rank": None, "matches": matches[name],
            "hands": sum(n for _, n in cells), "bankroll": sum(x for x, _ in cells),
            "per_hand": raw["per_hand"], "stderr": raw["stderr"], "ci95": raw["ci95"],
            "units": raw["units"], "faults": faults[name],
            "out": reason is not None, "out_reason": reason,
        }
        for f in shown[1:]:
            prefix = FIGURES[f][0]
            adjusted = interval(per_figure[f].get(name, {}).values())
            for field in ("per_hand", "stderr", "ci95"):
                line[prefix + field] = adjusted[field]
        lines.append(line)
    key = FIGURES[figure][0] + "per_hand"
    # The bots out after those still in, whatever their result, and the bots that have not
    # played yet after both (unranked); then per hand, bankroll, name.
    lines.sort(key=lambda b: (not b["matches"], b["out"], -b[key], -b["bankroll"], b["name"]))
    ranked = [line for line in lines if line["matches"]]
    for i, line in enumerate(ranked):
        line["rank"] = i + 1
    order = runoff(rows, [line["name"] for line in ranked], rules,
                   out={line["name"] for line in ranked if line["out"]}, figure=figure)
    for line in ranked:
        line["runoff_rank"] = order.index(line["name"]) + 1
    for better, worse in zip(lines, lines[1:] + [None]):
        better.update(separation(better, worse, figure))
    return lines


def separation(better: dict, worse: dict | None, figure: str = "raw") -> dict:
    """``separate_from_next``, ``separate_after_hands``, ``more_hands`` and
    ``indistinguishable`` of the line ``better`` and the line ranked just below it (see the
    module's docstring)."""
    none = {"separate_from_next": None, "separate_after_hands": None, "more_hands": None,
            "indistinguishable": None}
    if worse is None or better["out"] or worse["out"]:
        return none
    prefix = FIGURES[figure][0]
    a, b = better.get(prefix + "ci95"), worse.get(prefix + "ci95")
    if a is None or b is None:
        return none
    apart = a[0] > b[1]
    found = {**none, "separate_from_next": apart, "indistinguishable": False}
    difference = better[prefix + "per_hand"] - worse[prefix + "per_hand"]
    if apart:
        return found
    if difference <= 0:
        return {**found, "indistinguishable": True}
    halves = (a[1] - a[0]) / 2 + (b[1] - b[0]) / 2
    hands = (better["hands"] + worse["hands"]) / 2
    after = math.ceil(hands * (halves / difference) ** 2)
    return {**found, "separate_after_hands": after,
            "more_hands": max(after - math.ceil(hands), 0),
            "indistinguishable": after > INDISTINGUISHABLE * hands}


def runoff(rows: list[dict], ranked: list[str], rules: Rules, *,
           out: set[str] | frozenset[str] = frozenset(), figure: str = "raw") -> list[str]:
    """The instant run-off order, winner first (``ranked``: the total-bankroll order; ``out``:
    the bots out, last in their ``ranked`` order, whose matches count for no survivor;
    ``figure``: the figure that ranks, see :data:`FIGURES`)."""
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
        per_bot = units(among, rules, FIGURES[figure][1])
        last = {name: estimate(per_bot[name].values())[0] for name in survivors
                if name in per_bot}
        # The weakest: lowest per hand among the survivors; a tie drops the lower ranked.
        weakest = min(survivors, key=lambda n: (value(n), -ranked.index(n)))
        survivors.remove(weakest)
        dropped.append(weakest)
    survivors.sort(key=lambda n: (-value(n), ranked.index(n)))
    return survivors + dropped[::-1] + [name for name in ranked if name in out]


def crosstable(rows: list[dict], names: list[str], rules: Rules) -> dict:
    """``{a: {b: {per_hand, stderr, ci95, units, hands}}}``: a's raw figure in the matches
    where b also sat, over the units of those matches alone, for every ordered pair that
    shared a table (in the order of ``names``)."""
    cells: dict = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for row in _counted(rows):
        unit = unit_of(row, rules)
        for a, (chips, hands) in zip(row["seating"], seat_results(row, rules)):
            for b in row["seating"]:
                if b != a:
                    cell = cells[a, b][unit]
                    cell[0] += chips
                    cell[1] += hands
    found: dict = {}
    for a in names:
        for b in names:
            if (a, b) in cells:
                pair = list(cells[a, b].values())
                found.setdefault(a, {})[b] = {**interval(pair),
                                              "hands": sum(n for _, n in pair)}
    return found


def separated(lines: list[dict], top: int, figure: str = "raw") -> bool:
    """Whether the 95% intervals of the first ``top`` bots are disjoint, rank by rank, in the
    figure ``figure`` (the raw one where the lines lack it, as :func:`table` ranks then)."""
    head = lines[:top]
    prefix = FIGURES[figure][0]
    for better, worse in zip(head, head[1:]):
        key = prefix + "ci95" if prefix + "ci95" in better else "ci95"
        if better[key] is None or worse[key] is None:
            return False
        if better[key][0] <= worse[key][1]:
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
    figure = ranked_by(rows, rules, allin=allin)
    found = {
        "game": options["game"], "players": options["players"],
        "hands_per_match": options["hands"], "duplicate": options["duplicate"],
        "seed": store.meta("seed"), "max_faults": options.get("max_faults"),
        "unit": rules.unit,
        "rank_by": figure, "adjust": rules.adjust,
        "matches": {"planned": len(rows), "done": counts["done"], "failed": counts["failed"],
                    "skipped": counts["skipped"]},
        "bots": lines,
        "runoff": [line["name"] for line in sorted(
            (line for line in lines if line["runoff_rank"] is not None),
            key=lambda x: x["runoff_rank"])],
        "crosstable": crosstable(rows, [line["name"] for line in lines], rules),
    }
    if figure != rules.rank_by:
        found["rank_by_note"] = (f"--rank-by {rules.rank_by}: these matches have no such"
                                 " figure, so the raw figure ranks")
    return found


def rules_of(options: dict) -> Rules:
    """The rules of a tournament's recorded options (a store older than ``rank_by`` and
    ``adjust`` ranks by the raw figure, adjusted)."""
    return Rules(options["hands"], options["duplicate"],
                 penalty_per_hand(options["game"], options["players"],
                                  options["game_options"]),
                 options.get("max_faults"), options.get("rank_by", "raw"),
                 options.get("adjust", True))

"""Luck-adjusted results: each seat's result in a hand, less the luck of the cards it was dealt.

For every hand and seat ``i``::

    adjusted_i = result_i - sum over chance events e of [V_i(after e) - E_e V_i(after e)]

where the chance events are the private deal, then each street's board cards, and ``E_e`` is
the expectation over the true distribution of that event given everything dealt before it
(the server knows every card, folded ones too). Each correction has mean zero whatever ``V``
is, so ``E[adjusted_i] = E[result_i]`` for any bots: the estimator is unbiased by
construction (no bot is asked anything; they stay black boxes). ``V`` only decides how much
noise goes. The choice here, the same for every game, reads only the cards and the chips
(Burch et al.'s AIVAT without strategies):

**Streets.** When street ``k``'s board cards are dealt, with ``L`` the seats still in, ``c_j``
the chips each seat has put in so far (dead antes included; an excess nobody else matched
is not at risk and counts only up to the second largest stake) and ``P`` their sum, ``V_i =
eq_i * P - c_i`` for ``i`` in ``L`` and ``-c_i`` for a folded seat, where ``eq_i`` is seat
``i``'s share of the pot at a showdown of ``L``'s hands (ties split) averaged over every
board that may complete the cards shown (the game's own ``rank`` decides; Hold'em's is
eval7's compiled evaluator). The expectation over the street's cards is the same equity one
street earlier, so the correction is ``(eq_i after - eq_i before) * P``: the board's luck,
weighted by what was at stake when it came.

**The deal.** Before any action the only stake is the forced bets, so ``eq * blinds`` would
leave the luck of the hole cards almost whole. Any ``V`` that depends on nothing dealt later
keeps the estimator unbiased; here ``V_i = K * w_i - c_i`` with ``w_i`` seat ``i``'s equity
against every other seat dealt in and ``K`` the least-squares slope of the earlier hands of
the match: the street-adjusted results regressed on ``w - 1/n`` (pooled over seats, starting
from the forced bets' pot and never below 0), which estimates how much a point of
equity was worth in this match. The deal is exchangeable between seats, so ``E[w_i] = 1/n``
exactly and the correction is ``K * (w_i - 1/n)``, with no enumeration at all. A duplicate
tournament leaves this correction out (see :class:`LuckAdjuster`).

Every ``V`` sums to zero over the seats (the equities sum to 1, the stakes to the pot), so
the adjusted values of a hand sum to zero; they are rounded to multiples of 1/1024 chip (the
rounding remainder to the seat with the largest value) so that every sum of them is exact in
floating point: identical bots in a duplicate tournament score exactly 0. Equities come from
:class:`~.equity.Showdowns`: boards enumerated from the flop on, an unbiased sample of
:data:`~.equity.SAMPLES` boards before it, drawn from a generator the caller seeds
independently of the deal (a tournament: the match seed and the hand number), shared with the
all-in adjustment within a hand and across seatings in a worker.
"""

from __future__ import annotations

from pokerbots.server.games.base import Game
from pokerbots.server.hands.record import HandRecord
from pokerbots.server.scoring.equity import SAMPLES, Orders, Showdowns

#: Adjusted values are whole multiples of 1/SCALE chip (a power of two: sums are exact).
SCALE = 1024
#: Boards are enumerated when there are at most this many, else :data:`~.equity.SAMPLES` are
#: drawn: Hold'em from the turn on (44), its flop sampled (990 heads-up), unless the hand's
#: all-in adjustment enumerated it already. The noise this adds to a street's correction
#: mostly cancels from the next (the same sample is the next street's "before").
EXACT_LIMIT = 2 * SAMPLES
#: Weight of the forced bets' pot in the deal's slope, in units of ``sum (w - 1/n)^2``
#: (about ten hands' worth in heads-up Hold'em).
PRIOR = 1.0


class LuckAdjuster:
    """The luck-adjusted values of one match's hands, in order.

    With ``learn`` the deal's slope ``K`` is learnt from the hands before each one; without,
    the deal's correction is left out (``K = 0``). A duplicate tournament does not learn:
    there every bot holds every seat's cards equally often, so any ``K`` common to the
    seatings cancels out of each deal set's sum (the duplicate has already taken that luck
    out), while slopes learnt apart, match by match, would only add noise."""

    def __init__(self, game: Game, *, learn: bool = True) -> None:
        self.game = game
        self.learn = learn
        self._sxy = 0.0
        self._sxx = 0.0

    def slope(self, forced_pot: int) -> float:
        """The deal's ``K`` for the next hand, whose forced bets make ``forced_pot``."""
        if not self.learn:
            return 0.0
        return max(0.0, (self._sxy + PRIOR * forced_pot) / (self._sxx + PRIOR))

    def adjust(self, record: HandRecord, showdowns: Showdowns) -> list[float]:
        """Each seat's luck-adjusted result for the hand ``record`` (a referee's hand
        record), counting equities with ``showdowns`` (made for this record)."""
        game = self.game
        n = game.players
        deltas = record["deltas"]
        stacks = record.get("stacks_start")
        active = [s for s in range(n) if stacks is None or stacks[s] > 0]
        streets = game.structure.streets
        shown_after = []
        total = 0
        for street in streets:
            total += street.board
            shown_after.append(total)
        board = len(record.get("board", ()))

        street_luck = [0.0] * n
        folded: set[int] = set()
        put_in = list(record.get("antes") or [0] * n)
        front = list(record["forced"])
        forced_pot = sum(_at_risk([a + f for a, f in zip(put_in, front)]))
        street = 0

        def deal_street(k: int) -> None:
            for s in range(n):
                put_in[s] += front[s]
                front[s] = 0
            if streets[k].board == 0:
                return
            live = [s for s in active if s not in folded]
            if len(live) < 2:
                return
            pot = sum(_at_risk(put_in))
            before = shares(showdowns.orders(live, shown_after[k - 1], exact_limit=EXACT_LIMIT),
                            len(live))
            after = shares(showdowns.orders(live, shown_after[k], exact_limit=EXACT_LIMIT),
                           len(live))
            for s, b, a in zip(live, before, after):
                street_luck[s] += (a - b) * pot

        for seat, word, value, on in record["actions"]:
            while on > street:
                street += 1
                deal_street(street)
            front[seat] = value
            if word == "FOLD":
                folded.add(seat)
        while street + 1 < len(streets) and shown_after[street + 1] <= board:
            street += 1  # dealt with no betting left: an all-in run-out
            deal_street(street)

        residual = [d - luck for d, luck in zip(deltas, street_luck)]
        adjusted = list(residual)
        if self.learn and len(active) >= 2:
            w = shares(showdowns.orders(active, 0, exact_limit=EXACT_LIMIT), len(active))
            fair = 1 / len(active)
            slope = self.slope(forced_pot)
            for s, share in zip(active, w):
                x = share - fair
                adjusted[s] -= slope * x
                self._sxy += residual[s] * x
                self._sxx += x * x
        return _exact(adjusted)


def shares(orders: Orders, seats: int) -> list[float]:
    """Each of ``seats`` hands' share of the pot at a showdown, averaged over ``orders``."""
    won = [0.0] * seats
    boards = 0
    for order, times in orders.items():
        boards += times
        top = max(order)
        winners = [i for i, level in enumerate(order) if level == top]
        part = times / len(winners)
        for i in winners:
            won[i] += part
    return [x / boards for x in won]


def _at_risk(put_in: list[int]) -> list[int]:
    """The chips each seat has at risk: the largest stake counts up to the second largest."""
    if len(put_in) < 2:
        return list(put_in)
    order = sorted(put_in)
    top, second = order[-1], order[-2]
    if top == second:
        return list(put_in)
    capped = list(put_in)
    capped[put_in.index(top)] = second
    return capped


def _exact(values: list[float]) -> list[float]:
    """``values`` (summing to about 0) as multiples of 1/:data:`SCALE` summing to exactly 0."""
    units = [round(v * SCALE) for v in values]
    rest = -sum(units)
    if rest:
        units[units.index(max(units))] += rest
    return [u / SCALE for u in units]

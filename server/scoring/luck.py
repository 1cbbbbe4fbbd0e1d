"""Luck-adjusted results: each seat's result in a hand, less the luck of the cards it was dealt
and of the mixes drawn for it.

For every hand and seat ``i``::

    adjusted_i = result_i - sum over chance events e of [V_i(after e) - E_e V_i(after e)]

where the chance events are the private deal, then each street's board cards, and each
mixed reply's draw (PROTOCOL.md, "Mixed replies": the dealer draws an item of the declared
mix), and ``E_e`` is the expectation over the true distribution of that event given
everything before it (the server knows every card, folded ones too, and the mix it drew
from). Each correction has mean zero whatever ``V`` is, so ``E[adjusted_i] = E[result_i]``
for any bots: the estimator is unbiased by construction (nothing a bot says is trusted: a mix
is the distribution the dealer draws from, not a claim). ``V`` only decides how much noise
goes. For the cards it reads only the cards and the chips (Burch et al.'s AIVAT without
strategies):

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

**A mix's draw.** The value after the drawn item less the mix-weighted mean of the values
after each item (``p_j`` = weight / total)::

    V_i(after the drawn item) - sum over items j of p_j * V_i(after item j)

Here ``V`` knows how the seats play, as learnt from the match's earlier hands
(:mod:`.learnt`): the street is played on to its end that way, then valued as a street's
cards value it. The learnt play depends on nothing drawn in the hand, so the mean of the
correction over the draw is zero: a bot gains nothing by declaring another mix than the one
it wants played, since the one declared is the one played. A hand without a mix gets no such
correction; in a match where no hand has had one, every figure is as it was before mixes
existed.

**The deal, by the learnt play.** In a game whose every deal can be valued (at most
:data:`~.learnt.DEALS` deals of hole cards: Kuhn, two-player Leduc), from the hand after the
first mix of the match, the deal's correction is instead the value of the first street
played the learnt way with the cards dealt, less its mean over every deal (counted exactly),
with or without ``learn``: unlike ``K``, it depends on the seats' play, so it does not cancel
out of a duplicate deal set's sum.

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
from pokerbots.server.scoring.equity import SAMPLES, Showdowns
from pokerbots.server.scoring.learnt import (
    Choice,
    LearntPlay,
    Lookahead,
    at_risk,
    coarse_value,
    shares,
    state_key,
    strength,
)

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
    out), while slopes learnt apart, match by match, would only add noise. Once a hand has had
    a mix, the seats' play is learnt (:class:`~.learnt.LearntPlay`: by information state or
    not as ``by_state`` says, by default where states recur) for the draws' values and, in
    the smallest games, the deal's (see the module's docstring)."""

    def __init__(self, game: Game, *, learn: bool = True, by_state: bool | None = None) -> None:
        self.game = game
        self.learn = learn
        self._by_state = by_state
        self._sxy = 0.0
        self._sxx = 0.0
        self._play: LearntPlay | None = None
        self._lookahead: Lookahead | None = None
        self._deal_by_play = False
        self._deal_means: dict[tuple, list[float]] = {}
        shown = 0
        self._shown_after = []
        for street in game.structure.streets:
            shown += street.board
            self._shown_after.append(shown)

    @property
    def play(self) -> LearntPlay | None:
        """The seats' play learnt so far (None until a hand has had a mix)."""
        return self._play

    def slope(self, forced_pot: int) -> float:
        """The deal's ``K`` for the next hand, whose forced bets make ``forced_pot``."""
        if not self.learn:
            return 0.0
        return max(0.0, (self._sxy + PRIOR * forced_pot) / (self._sxx + PRIOR))

    def adjust(self, record: HandRecord, showdowns: Showdowns, *,
               learning: bool = True) -> list[float]:
        """Each seat's luck-adjusted result for the hand ``record`` (a referee's hand
        record), counting equities with ``showdowns`` (made for this record). Without
        ``learning`` the hand is valued by what the hands before it taught and teaches
        nothing: the next hand is valued as if it had not been played."""
        game = self.game
        n = game.players
        deltas = record["deltas"]
        stacks = record.get("stacks_start")
        active = [s for s in range(n) if stacks is None or stacks[s] > 0]
        streets = game.structure.streets
        shown_after = self._shown_after
        board = len(record.get("board", ()))
        mixes = {mix[0]: mix for mix in record.get("mixes", ())}
        if mixes and self._play is None:
            self._play = LearntPlay(game, by_state=self._by_state)
            if self._play.by_state:
                self._lookahead = Lookahead(game, self._play)
        play = self._play
        deciding = _Decisions(self, record) if play is not None else None

        street_luck = [0.0] * n
        folded: set[int] = set()
        put_in = list(record.get("antes") or [0] * n)
        front = list(record["forced"])
        forced_pot = sum(at_risk([a + f for a, f in zip(put_in, front)]))
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
            pot = sum(at_risk(put_in))
            before = shares(showdowns.orders(live, shown_after[k - 1], exact_limit=EXACT_LIMIT),
                            len(live))
            after = shares(showdowns.orders(live, shown_after[k], exact_limit=EXACT_LIMIT),
                           len(live))
            for s, b, a in zip(live, before, after):
                street_luck[s] += (a - b) * pot

        for index, (seat, word, value, on) in enumerate(record["actions"]):
            while on > street:
                street += 1
                deal_street(street)
            if deciding is not None:
                stakes = [p + f for p, f in zip(put_in, front)]
                live = [s for s in active if s not in folded]
                deciding.decide(index, seat, word, value, street, stakes, live,
                                mixes.get(index), put_in[seat], showdowns)
            front[seat] = value
            if word == "FOLD":
                folded.add(seat)
        while street + 1 < len(streets) and shown_after[street + 1] <= board:
            street += 1  # dealt with no betting left: an all-in run-out
            deal_street(street)

        residual = [d - luck for d, luck in zip(deltas, street_luck)]
        if deciding is not None:
            residual = [r - luck for r, luck in zip(residual, deciding.luck)]
        adjusted = list(residual)
        deal_luck = self._deal_luck(record, active) if self._deal_by_play else None
        if deal_luck is not None:
            adjusted = [a - luck for a, luck in zip(adjusted, deal_luck)]
        elif self.learn and len(active) >= 2:
            w = shares(showdowns.orders(active, 0, exact_limit=EXACT_LIMIT), len(active))
            fair = 1 / len(active)
            slope = self.slope(forced_pot)
            for s, share in zip(active, w):
                x = share - fair
                adjusted[s] -= slope * x
                if learning:
                    self._sxy += residual[s] * x
                    self._sxx += x * x
        if deciding is not None and learning:
            deciding.learn()
            self._deal_by_play = self._lookahead is not None
        return _exact(adjusted)

    def _deal_luck(self, record: HandRecord, active: list[int]) -> list[float] | None:
        """The deal's correction by the learnt play, where every deal can be valued: the value
        of the first street played the learnt way with the cards dealt, less its mean over
        every deal."""
        lookahead = self._lookahead
        if lookahead is None or len(active) < self.game.players:
            return None
        deals = lookahead.deals()
        if deals is None:
            return None
        stacks = record.get("stacks_start")
        root = lookahead.node(record["button"], None if stacks is None else tuple(stacks), ())
        key = (root.number, self._play.changes if self._play else 0)
        mean = self._deal_means.get(key)
        if mean is None:
            self._deal_means.clear()
            total = [0.0] * self.game.players
            ways = 0
            for holes, times in deals:
                ways += times
                for s, v in enumerate(lookahead.value(root, holes, (), 0)):
                    total[s] += times * v
            mean = self._deal_means[key] = [t / ways for t in total]
        dealt = lookahead.value(root, _holes(record), (), 0)
        return [d - m for d, m in zip(dealt, mean)]


class _Decisions:
    """One hand's decisions, walked in order with the luck adjuster's state: the luck of each
    mix's draw, and what the learnt play learns once the hand is valued."""

    def __init__(self, adjuster: LuckAdjuster, record: HandRecord) -> None:
        self.adjuster = adjuster
        self.record = record
        self.play: LearntPlay = adjuster._play  # type: ignore[assignment]
        self.lookahead = adjuster._lookahead
        self.luck = [0.0] * adjuster.game.players
        stacks = record.get("stacks_start")
        self.stacks = None if stacks is None else tuple(stacks)
        self.holes = _holes(record)
        self.history: list[tuple] = []
        self.learnt: list[tuple] = []
        self.equities: dict[tuple, list[float]] = {}

    def decide(self, index: int, seat: int, word: str, value: int, street: int,
               stakes: list[int], live: list[int], mix: list | None, put_in: int,
               showdowns: Showdowns) -> None:
        """The action ``index`` (``seat``'s ``word`` ``value`` on ``street``), with ``stakes``
        put in and ``live`` still in before it; ``mix`` its record's mix, if any; ``put_in``
        the seat's chips from the streets before."""
        record = self.record
        shown = self.adjuster._shown_after[street]
        board = tuple(record.get("board", ())[:shown])
        history = tuple(self.history)
        if mix is None:
            choice: Choice = [((word, value), 1)]
            total = 1
        else:
            items = mix[1]
            total = sum(item[0] for item in items)
            choice = [((item[1], item[2]), item[0]) for item in items]
            self._draw(seat, street, stakes, live, items, mix[2], total, put_in, board,
                       history, showdowns)
        key = None
        if self.play.by_state:
            key = state_key(seat, record["button"], record["cards"][seat], board, self.stacks,
                            history)
        facing = stakes[seat] < max(stakes)
        hand_strength = None
        if facing and not self.play.by_state:
            hand_strength = strength(self.equity(tuple(live), shown, showdowns)
                                     [live.index(seat)])
        self.learnt.append((key, seat, street, facing, choice, total, hand_strength))
        self.history.append((seat, word, value))

    def _draw(self, seat: int, street: int, stakes: list[int], live: list[int], items: list,
              drawn: int, total: int, put_in: int, board: tuple, history: tuple,
              showdowns: Showdowns) -> None:
        """The luck of the draw: the value after the drawn item less the mix-weighted mean of
        the values after each."""
        n = len(stakes)
        mean = [0.0] * n
        lookahead = self.lookahead
        if lookahead is not None:
            node = lookahead.node(self.record["button"], self.stacks, history)
            after_drawn = mean
            for i, (weight, word, value) in enumerate(items):
                after = lookahead.value(lookahead.child(node, (word, value)), self.holes,
                                        board, street)
                if i == drawn:
                    after_drawn = after
                for s in range(n):
                    mean[s] += weight * after[s]
        else:
            # The coarse value after a raise to a stake x is, for each set of seats folding
            # to it, affine in x between the chips of the seats that may call: the mean over
            # the raises between two such levels is the value at their weighted mean stake.
            top = max(stakes)
            chips = self.stacks
            levels = sorted({chips[s] for s in live if s != seat and stakes[s] < chips[s]}
                            ) if chips is not None else []
            raises: dict[int, list[int]] = {}
            for weight, word, value in items:
                stake = put_in + value
                if word == "FOLD" or stake <= top:
                    after = self._coarse_after(seat, street, stakes, live, word, stake,
                                               showdowns)
                    for s in range(n):
                        mean[s] += weight * after[s]
                else:
                    level = sum(1 for chip in levels if chip < stake)
                    group = raises.get(level)
                    if group is None:
                        group = raises[level] = [0, 0]
                    group[0] += weight
                    group[1] += weight * stake
            for weight, stakes_sum in raises.values():
                after = self._coarse_after(seat, street, stakes, live, "BET",
                                           stakes_sum / weight, showdowns)
                for s in range(n):
                    mean[s] += weight * after[s]
            _, word, value = items[drawn]
            after_drawn = self._coarse_after(seat, street, stakes, live, word, put_in + value,
                                             showdowns)
        for s in range(n):
            self.luck[s] += after_drawn[s] - mean[s] / total

    def _coarse_after(self, seat: int, street: int, stakes: list[int], live: list[int],
                      word: str, stake: float, showdowns: Showdowns) -> list[float]:
        """The coarse value after ``seat``'s ``word`` leaving ``stake`` put in."""
        if word == "FOLD":
            live = [s for s in live if s != seat]
        else:
            stakes = list(stakes)
            stakes[seat] = stake  # type: ignore[call-overload]
        shown = self.adjuster._shown_after[street]

        def equity(seats: tuple[int, ...]) -> list[float]:
            return self.equity(seats, shown, showdowns)

        facing = tuple(live)
        play = self.play

        def fold_chance(s: int) -> float:
            return play.fold_chance(s, street, strength(equity(facing)[facing.index(s)]))

        return coarse_value(stakes, live, self.stacks, fold_chance, equity)

    def equity(self, seats: tuple[int, ...], shown: int, showdowns: Showdowns) -> list[float]:
        """Each of ``seats``' share of the pot at a showdown, the board shown ``shown``."""
        found = self.equities.get((seats, shown))
        if found is None:
            orders = showdowns.orders(list(seats), shown, exact_limit=EXACT_LIMIT)
            found = self.equities[seats, shown] = shares(orders, len(seats))
        return found

    def learn(self) -> None:
        for decision in self.learnt:
            self.play.learn(*decision)


def _holes(record: HandRecord) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(text.split()) for text in record["cards"])


def _exact(values: list[float]) -> list[float]:
    """``values`` (summing to about 0) as multiples of 1/:data:`SCALE` summing to exactly 0."""
    units = [round(v * SCALE) for v in values]
    rest = -sum(units)
    if rest:
        units[units.index(max(units))] += rest
    return [u / SCALE for u in units]

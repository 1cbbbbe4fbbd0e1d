"""How the seats of one match play, as learnt from its earlier hands, and what a state of a hand
is worth to each seat if it is played on that way: the value function of the luck adjustment's
corrections for a mix's draw and, in the smallest games, for the deal (:mod:`.luck`).

**Learnt play.** Once a match has had a mixed reply, every decision of every seat is learnt
after its hand: what the seat declared (each item's weight over the mix's total) or, for a
single action, that action. What is kept depends on the game:

* where information states recur (at most :data:`RECURRING` possible holdings: Kuhn, Leduc),
  the mean of what each seat declared or did at each state it has been in (its cards, the
  board, the button, the stacks and the actions so far): its strategy there, exact for a seat
  that declares its mixes as soon as it has been there once;
* elsewhere (Hold'em, where a state never comes back), how often each seat folds when facing
  a bet on each street, with a hand of each :func:`strength` (which quarter of the pot it
  would win at a showdown of the seats still in): the mean share of ``FOLD`` in what it
  declared or did. Strength matters: a bot that folds its weak hands and calls with its
  strong ones, valued as folding either as often, would come out noisier than raw.

**The value of a state.** ``V_i(state)`` plays the state's street on to its end with the
learnt play, then values each seat as the chance corrections do: its share of the pot at a
showdown of the hands still in, over every board that may complete the cards shown, less its
stake (:func:`showdown_value`). Where states recur, each seat plays what it was seen to play
in its state, and checks or calls in a state it has not been seen in (it is, soon enough; a
fixed guess until then keeps the seatings of a duplicate deal set alike). Elsewhere each seat
still in that faces a bet folds with its fold frequency on the street for its strength or
calls, independently, and nobody raises (:func:`coarse_value`, a closed form). Nothing here depends
on a hand's own draws: the play is learnt from the hands before it, so every correction made
with ``V`` keeps its mean zero.

:class:`Lookahead` plays the states of a game whose states recur on the one betting engine
(:class:`~pokerbots.server.games.engine.betting.Hand`, cloned at each branch, each action read
as :func:`~pokerbots.server.hands.follow.play_recorded` reads a record's), keeps the states it
has built (they depend on the betting only, not on the cards) and remembers each value until
the learnt play changes.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction

from pokerbots.server.games.base import Deal, Game
from pokerbots.server.games.engine.betting import Hand
from pokerbots.server.hands.follow import play_recorded
from pokerbots.server.scoring.equity import Orders, board_orders

#: Learn the play at each information state in a game with at most this many holdings (Kuhn:
#: 3 or 4, Leduc: 6 or 8; Hold'em has 1,326).
RECURRING = 64
#: Correct the deal with the learnt play where a deal's hole cards can be written in at most
#: this many ways (Kuhn: 6 or 24, two-player Leduc: 9), each valued by playing the first
#: street. Three-player Leduc's 60 would cost about 8 ms a hand while the play is learnt.
DEALS = 32
#: The coarse play lets at most this many seats facing a bet fold (2^k cases); any further
#: seat facing it calls (a table of more than seven).
MOST_FACING = 6
#: Fold frequencies are learnt for each of this many strengths of hand (:func:`strength`).
STRENGTHS = 4
#: Values remembered by a :class:`Lookahead` before it starts again.
REMEMBERED = 200_000

#: An action as a record writes it: ``("BET", money in front after it)`` or ``("FOLD", v)``.
Action = tuple[str, int]
#: What a seat declared or did at one decision: each action and its weight.
Choice = list[tuple[Action, int]]
#: The seats' equity shares for a set of seats still in (a tuple, in seat order).
Equity = Callable[[tuple[int, ...]], list[float]]


def recurring(game: Game) -> bool:
    """Whether ``game``'s information states recur often enough to learn the play at each."""
    return math.comb(len(game.deck), game.hole_cards) <= RECURRING


class LearntPlay:
    """What each seat of one match has declared or done so far (see the module's docstring).

    :attr:`changes` counts the changes of the play learnt at a state (a state seen for the
    first time, or a different mean there): the values worked out before a change may differ
    after it."""

    def __init__(self, game: Game, *, by_state: bool | None = None) -> None:
        self.game = game
        #: Whether the play is learnt at each information state (by default where states
        #: recur: :func:`recurring`); else each seat's fold frequencies are.
        self.by_state = recurring(game) if by_state is None else by_state
        self.changes = 0
        self._states: dict[tuple, _Mean] = {}
        # (seat, street, strength or None for all) -> [sum, count, mean]
        self._folds: dict[tuple[int, int, int | None], list] = {}

    def at(self, state: tuple) -> tuple[tuple[Action, float], ...] | None:
        """What the seat has played at the information state ``state`` (see
        :func:`state_key`): each action and its probability, or None where it has not been."""
        seen = self._states.get(state)
        return None if seen is None else seen.probabilities

    def fold_chance(self, seat: int, street: int, level: int) -> float:
        """How often ``seat`` has folded when facing a bet on ``street`` with a hand of that
        :func:`strength` ``level`` (of any strength while it has never faced one with it; 0
        while it has never faced one), in a game whose play is not learnt by state."""
        folds = self._folds.get((seat, street, level))
        if folds is None:
            folds = self._folds.get((seat, street, None))
        return 0.0 if folds is None else folds[2]

    def learn(self, state: tuple | None, seat: int, street: int, facing: bool,
              choice: Choice, total: int, level: int | None = None) -> None:
        """Learn one decision: ``choice`` (each action with its weight, out of ``total``) made
        by ``seat`` on ``street`` at the information state ``state`` (see :func:`state_key`;
        None where the play is not learnt by state), facing a bet or not, with a hand of that
        :func:`strength` ``level`` (where the play is not learnt by state)."""
        if self.by_state:
            seen = self._states.get(state)
            if seen is None:
                seen = self._states[state] = _Mean()
            if seen.add(choice, total):
                self.changes += 1
        elif facing:
            folded = sum(weight for (word, _), weight in choice if word == "FOLD")
            for key in ((seat, street, level), (seat, street, None)):
                folds = self._folds.get(key)
                if folds is None:
                    folds = self._folds[key] = [Fraction(0), 0, 0.0]
                if folded:
                    folds[0] += Fraction(folded, total)
                folds[1] += 1
                folds[2] = float(folds[0] / folds[1])


def strength(share: float) -> int:
    """A hand's strength as the fold frequencies are learnt by: which :data:`STRENGTHS`-th
    of the pot it would win at a showdown of the seats still in (the server sees every
    card: it is the seat's equity, not what the seat can know of it)."""
    return min(STRENGTHS - 1, int(share * STRENGTHS))


class _Mean:
    """The mean of the choices made at one information state, exactly."""

    __slots__ = ("sums", "count", "probabilities")

    def __init__(self) -> None:
        self.sums: dict[Action, Fraction] = {}
        self.count = 0
        self.probabilities: tuple[tuple[Action, float], ...] = ()

    def add(self, choice: Choice, total: int) -> bool:
        """Add one choice (each action with its weight, out of ``total``); whether the mean
        changed."""
        for action, weight in choice:
            self.sums[action] = self.sums.get(action, Fraction(0)) + Fraction(weight, total)
        self.count += 1
        mean = tuple((action, float(summed / self.count))
                     for action, summed in sorted(self.sums.items()) if summed)
        if mean == self.probabilities:
            return False
        self.probabilities = mean
        return True


def state_key(seat: int, button: int, cards: str, board: tuple[str, ...],
              stacks: tuple[int, ...] | None, history: tuple) -> tuple:
    """A seat's information state: its cards, the board shown, the button, the stacks as the
    hand started and every action so far (``(seat, word, value)`` each)."""
    return (seat, button, cards, board, stacks, history)


# -- values ------------------------------------------------------------------------------------


def at_risk(stakes: Sequence[int]) -> list[int]:
    """The chips each seat has at risk: the largest stake counts up to the second largest."""
    if len(stakes) < 2:
        return list(stakes)
    order = sorted(stakes)
    top, second = order[-1], order[-2]
    if top == second:
        return list(stakes)
    capped = list(stakes)
    capped[capped.index(top)] = second
    return capped


def showdown_value(stakes: Sequence[int], live: Sequence[int], equity: Equity) -> list[float]:
    """Each seat's share of the at-risk pot at a showdown of ``live`` (``equity`` of them)
    less its at-risk stake; a pot nobody contests goes to the one seat left."""
    risked = at_risk(stakes)
    pot = sum(risked)
    worth = [-float(c) for c in risked]
    if len(live) == 1:
        worth[live[0]] += pot
    elif live:
        for seat, share in zip(live, equity(tuple(live))):
            worth[seat] += share * pot
    return worth


def coarse_value(stakes: Sequence[int], live: Sequence[int], chips: Sequence[int] | None,
                 fold_chance: Callable[[int], float], equity: Equity) -> list[float]:
    """The value of the rest of a street played coarsely: each seat of ``live`` whose stake is
    below the largest and that has chips left (``chips``: each seat's chips as the hand
    started, None: no limit) folds with ``fold_chance(seat)``, independently, or calls up to
    its chips; then :func:`showdown_value`."""
    top = max(stakes[s] for s in live)
    facing = [s for s in live if stakes[s] < top and (chips is None or stakes[s] < chips[s])]
    if not facing:
        return showdown_value(stakes, live, equity)
    called = list(stakes)
    for s in facing:
        called[s] = top if chips is None else min(top, chips[s])
    folding = [(s, fold_chance(s)) for s in facing[:MOST_FACING]]
    folding = [(s, p) for s, p in folding if p > 0]
    if not folding:
        return showdown_value(called, live, equity)
    n = len(stakes)
    total = [0.0] * n
    for pattern in itertools.product((False, True), repeat=len(folding)):
        chance = 1.0
        after = list(called)
        out = set()
        for (seat, p), folds in zip(folding, pattern):
            if folds:
                chance *= p
                after[seat] = stakes[seat]
                out.add(seat)
            else:
                chance *= 1 - p
        if chance == 0:
            continue
        worth = showdown_value(after, [s for s in live if s not in out], equity)
        for s in range(n):
            total[s] += chance * worth[s]
    return total


# -- games whose states recur ------------------------------------------------------------------


class _Node:
    """A betting state on the engine: the hand after ``history``, and the states after each
    action tried from it."""

    __slots__ = ("hand", "history", "children", "seat", "street", "stakes", "live", "number")

    def __init__(self, hand: Hand, history: tuple, number: int) -> None:
        self.hand = hand
        self.history = history
        self.children: dict[Action, _Node] = {}
        self.seat = hand.to_act
        self.street = hand.street
        self.stakes = list(hand.total)
        self.live = tuple(s for s in range(hand.players) if not hand.folded[s])
        self.number = number


class Lookahead:
    """The values of a game's states under a match's :class:`LearntPlay`, for a game whose
    states recur (:attr:`LearntPlay.by_state`)."""

    def __init__(self, game: Game, play: LearntPlay) -> None:
        self.game = game
        self.play = play
        self._roots: dict[tuple, _Node] = {}
        self._nodes = 0
        self._values: dict[tuple, list[float]] = {}
        self._changes = play.changes
        self._equities: dict[tuple, list[float]] = {}
        self._deals: list[tuple[tuple[tuple[str, ...], ...], int]] | None = None
        shown = 0
        self._shown = []
        for street in game.structure.streets:
            shown += street.board
            self._shown.append(shown)

    def node(self, button: int, stacks: tuple[int, ...] | None, history: Sequence) -> _Node:
        """The state after the actions ``history`` (``(seat, word, value)`` each, as a
        record's) from the deal with ``button`` and ``stacks``."""
        root = self._roots.get((button, stacks))
        if root is None:
            root = self._roots[button, stacks] = self._new(
                Hand(self.game, button, _placeholder(self.game), stacks), ())
        node = root
        for _, word, value in history:
            node = self.child(node, (word, value))
        return node

    def child(self, node: _Node, action: Action) -> _Node:
        """The state after ``action`` of the seat to act in ``node``."""
        found = node.children.get(action)
        if found is None:
            hand = node.hand.clone()
            play_recorded(hand, action[0], action[1], [])
            found = node.children[action] = self._new(
                hand, (*node.history, (node.seat, *action)))
        return found

    def value(self, node: _Node, holes: tuple[tuple[str, ...], ...], board: tuple[str, ...],
              street: int) -> list[float]:
        """Each seat's value of ``node`` on ``street`` with the cards ``holes`` and the board
        shown so far ``board``: the street played on with the learnt play."""
        if self.play.changes != self._changes or len(self._values) > REMEMBERED:
            self._values.clear()
            self._changes = self.play.changes
        key = (node.number, holes, board, street)
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = self._work_out(node, holes, board, street)
        return found

    def _work_out(self, node: _Node, holes, board, street: int) -> list[float]:
        def equity(live: tuple[int, ...]) -> list[float]:
            return self.equity(holes, board, live)

        if node.seat is None or node.street != street:  # the street or the hand is over
            return showdown_value(node.stakes, node.live, equity)
        hand = node.hand
        seat = node.seat
        stacks = tuple(hand.stacks_start) if hand.limited else None
        learnt = self.play.at(state_key(seat, hand.button, " ".join(holes[seat]), board,
                                        stacks, node.history))
        if learnt is None:
            learnt = self._coarse(node)
        total = [0.0] * len(node.stakes)
        for action, p in learnt:
            worth = self.value(self.child(node, action), holes, board, street)
            for s, v in enumerate(worth):
                total[s] += p * v
        return total

    def _coarse(self, node: _Node) -> tuple[tuple[Action, float], ...]:
        """The play of a seat never seen in its state, in a game whose states recur: check or
        call."""
        return ((("BET", node.hand.legal().call), 1.0),)

    def equity(self, holes: tuple[tuple[str, ...], ...], board: tuple[str, ...],
               live: tuple[int, ...]) -> list[float]:
        """Each of ``live``'s share of the pot at a showdown, over every board completing
        ``board``."""
        key = (holes, board, live)
        found = self._equities.get(key)
        if found is None:
            if len(self._equities) > REMEMBERED:
                self._equities.clear()
            orders = board_orders(self.game, holes, list(live), board, _no_sample, exact=True)
            found = self._equities[key] = shares(orders, len(live))
        return found

    def deals(self) -> list[tuple[tuple[tuple[str, ...], ...], int]] | None:
        """Every deal of hole cards as the record writes them, each with the number of ways it
        comes (all equally likely), or None when there are more than :data:`DEALS`."""
        if self._deals is None:
            game = self.game
            n, k = game.players, game.hole_cards
            ways = math.perm(len(game.deck), n * k)
            if ways > 50 * DEALS:
                self._deals = []
            else:
                counted: Counter = Counter()
                for cards in itertools.permutations(game.deck, n * k):
                    counted[tuple(tuple(cards[s * k:(s + 1) * k]) for s in range(n))] += 1
                self._deals = list(counted.items()) if len(counted) <= DEALS else []
        return self._deals or None

    def _new(self, hand: Hand, history: tuple) -> _Node:
        self._nodes += 1
        return _Node(hand, history, self._nodes)


def _placeholder(game: Game) -> Deal:
    """Cards for the betting states, which never look at them: the deck in order."""
    n, k = game.players, game.hole_cards
    deck = game.deck
    return Deal(tuple(tuple(deck[s * k:(s + 1) * k]) for s in range(n)),
                tuple(deck[n * k:n * k + game.board_cards]))


def _no_sample():
    raise AssertionError("boards are enumerated here")


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

"""All-in equity: what a hand that ended all-in before the last board card was worth to each
seat on average over every board that could have come, instead of over the one that came.

The ACPC scores no-limit hands this way (a game's registry record says so with
``allin_equity``): most of the luck of no-limit lies in the boards run out after an all-in, and
averaging it away leaves the decisions. A hand qualifies when it reached a showdown (two or more
seats still in) with board cards still to come and no more betting possible: every seat left is
all-in, or all but one and that one has called.

Everything here is read from the game: its deck, its ``rank`` and the one betting engine's pot
rules. Each distinct order of the live seats' hands is paid out once by playing the hand's
record again (:func:`~pokerbots.server.hands.replay.replay`) with a ``rank`` that gives that
order, so side pots, split pots and odd chips follow the engine exactly; each board then only
costs the ranking. The cards dealt to every seat (folded seats too) are out of the deck.
Boards are enumerated exactly when there are at most :data:`EXACT_LIMIT` of them (Hold'em:
from the flop on); otherwise :data:`SAMPLES` boards are drawn uniformly at random (an unbiased
estimate), with a generator the caller seeds (a tournament seeds it from the match seed and
the hand number).
:class:`Showdowns` does the counting for this module and for the luck adjustment
(:mod:`.luck`), which share its counts within a hand and, in a worker, across the seatings of a
deal set.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence

from pokerbots.server.games.base import Deal, Game
from pokerbots.server.hands.record import HandRecord
from pokerbots.server.hands.replay import replay

#: Enumerate every remaining board when there are at most this many (Hold'em flop: 990 heads-up).
EXACT_LIMIT = 20_000
#: Boards drawn when there are more (Hold'em pre-flop: 1,712,304 heads-up).
SAMPLES = 100

#: An order of hands: ``order[i]`` ranks the i-th seat's hand among them (0 lowest; equal
#: hands equal), and how many boards gave it.
Orders = dict[tuple[int, ...], int]


def allin_values(game: Game, record: HandRecord, rng: random.Random | None, *,
                 showdowns: Showdowns | None = None) -> list[float] | None:
    """Each seat's expected result for the hand ``record`` (a referee's hand record), or None
    when the hand does not qualify (folded out, or the betting reached the last street).
    ``showdowns``: the hand's :class:`Showdowns`, when boards counted for it are to be shared
    (then ``rng`` is not used: the Showdowns draws its own samples)."""
    found = allin_showdown(game, record)
    if found is None:
        return None
    live, shown = found
    if showdowns is None:
        showdowns = Showdowns(game, record, lambda: rng, seats=live)
    orders = showdowns.orders(live, shown)
    payout = _Payout(game, record, live)
    totals = [0] * game.players
    for order, times in orders.items():
        for s, delta in enumerate(payout.for_order(order)):
            totals[s] += times * delta
    count = sum(orders.values())
    return [round(t / count, 6) for t in totals]


def allin_showdown(game: Game, record: HandRecord) -> tuple[list[int], int] | None:
    """``(live seats, board cards shown)`` of a hand that qualifies for the all-in
    adjustment, or None."""
    actions = record["actions"]
    folded = {seat for seat, word, _, _ in actions if word == "FOLD"}
    live = [s for s in range(game.players) if s not in folded]
    streets = game.structure.streets
    last = max((street for _, _, _, street in actions), default=0)
    if len(live) < 2 or last >= len(streets) - 1:
        return None
    return live, sum(street.board for street in streets[: last + 1])


class Showdowns:
    """How the hands of one hand's seats order over the boards that may complete its board.

    :meth:`orders` counts, for the first ``shown`` board cards of the record, every order of
    the chosen seats' hands over the remaining boards: enumerated when there are at most the
    caller's limit (:data:`EXACT_LIMIT` unless it says), else :data:`SAMPLES` drawn uniformly
    (with replacement from the list of all boards when it is no longer than
    :data:`EXACT_LIMIT`, else by a partial shuffle per board) with a fresh generator from
    ``rng_for`` (so the sample depends on nothing but that generator's seed and the cards).
    The cards dealt to every seat, folded ones too, are out of the deck. Every seat dealt in
    (``seats``) is ranked at once, and any smaller set's orders are read from that count, so
    the luck adjustment and the all-in adjustment share one count per board prefix.

    With ``key`` (a tournament passes its match seed and the hand number, which fix the cards
    and the sample) counts are also kept in a worker-wide cache of :data:`CACHED` entries:
    the seatings of a deal set played by one worker count each board prefix once.
    """

    def __init__(self, game: Game, record: HandRecord, rng_for: Callable[[], random.Random], *,
                 seats: list[int] | None = None, key: tuple | None = None) -> None:
        self._game = game
        self._holes = tuple(tuple(cards.split()) for cards in record["cards"])
        self._board = tuple(record.get("board", ()))
        self._rng_for = rng_for
        self.seats = list(range(game.players)) if seats is None else list(seats)
        self._key = key
        self._counted: dict[tuple[int, bool], Orders] = {}

    def orders(self, seats: list[int], shown: int, *, exact_limit: int = EXACT_LIMIT) -> Orders:
        """How often each order of ``seats``' hands (a subset of :attr:`seats`, in seat
        order) comes up over the boards completing the first ``shown`` board cards:
        enumerated when there are at most ``exact_limit`` of them (or when this hand's boards
        from there were enumerated already), else sampled."""
        remaining = (len(self._game.deck) - sum(len(h) for h in self._holes) - shown)
        exact = math.comb(remaining, self._game.board_cards - shown) <= exact_limit
        full = self._counted.get((shown, True))
        if full is None:
            full = self._counted.get((shown, exact))
        if full is None:
            full = self._counted[shown, exact] = self._count(shown, exact)
        if seats == self.seats:
            return full
        where = [self.seats.index(s) for s in seats]
        sub: Orders = {}
        for order, times in full.items():
            part = _dense([order[i] for i in where])
            sub[part] = sub.get(part, 0) + times
        return sub

    def _count(self, shown: int, exact: bool) -> Orders:
        known = self._board[:shown]
        cache_key = None
        if self._key is not None:
            cache_key = (self._game.name, self._key, shown, exact, tuple(self.seats))
            hit = _CACHE.get(cache_key)
            if hit is not None and hit[0] == (self._holes, known):
                _CACHE.move_to_end(cache_key)
                return hit[1]
        orders = board_orders(self._game, self._holes, self.seats, known, self._rng_for,
                              exact=exact)
        if cache_key is not None:
            _CACHE[cache_key] = ((self._holes, known), orders)
            if len(_CACHE) > CACHED:
                _CACHE.popitem(last=False)
        return orders


#: Board counts kept per worker process (a few hundred bytes each).
CACHED = 40_000
_CACHE: OrderedDict[tuple, tuple] = OrderedDict()


def board_orders(game: Game, holes: Sequence[tuple[str, ...]], seats: list[int],
                 known: tuple[str, ...], rng_for: Callable[[], random.Random], *,
                 exact: bool) -> Orders:
    """How often each order of ``seats``' hands comes up over the boards that complete
    ``known`` (every seat's ``holes`` out of the deck): all of them (``exact``), or
    :data:`SAMPLES` drawn with a generator from ``rng_for``."""
    dead = Counter(card for hole in holes for card in hole) + Counter(known)
    remaining = list((Counter(game.deck) - dead).elements())
    to_come = game.board_cards - len(known)
    hands = [holes[s] for s in seats]
    rank = game.rank
    if game.ranking is not None:  # the game's own card values: no text on the way
        evaluate, cards = game.ranking()
        remaining = [cards[c] for c in remaining]
        known = [cards[c] for c in known]
        hands = [[cards[c] for c in hole] for hole in hands]

        def rank(hand, full):
            return evaluate(full + hand)

        to_full = list
    else:
        to_full = tuple
    if exact:
        boards = itertools.combinations(remaining, to_come)
    elif math.comb(len(remaining), to_come) <= EXACT_LIMIT:  # few: pick from the list
        boards = _pick(list(itertools.combinations(remaining, to_come)), rng_for())
    else:
        boards = _sample(remaining, to_come, rng_for())
    return _count(rank, hands, (known + to_full(board) for board in boards))


def _count(rank: Callable, hands: list, fulls) -> Orders:
    """How often each order of ``hands`` comes up over the complete boards ``fulls``: the
    outcomes of the pairwise comparisons are counted (cheap), then each made an order."""
    outcomes: dict = {}
    seen = outcomes.get
    if len(hands) == 2:
        first, second = hands
        for full in fulls:
            a, b = rank(first, full), rank(second, full)
            key = (a > b) - (a < b)
            outcomes[key] = seen(key, 0) + 1
        table = {1: (1, 0), -1: (0, 1), 0: (0, 0)}
        return {table[key]: times for key, times in outcomes.items()}
    if len(hands) == 3:
        first, second, third = hands
        examples = {}
        for full in fulls:
            a, b, c = rank(first, full), rank(second, full), rank(third, full)
            key = ((a > b) - (a < b), (a > c) - (a < c), (b > c) - (b < c))
            times = seen(key)
            if times is None:
                examples[key] = (a, b, c)
                outcomes[key] = 1
            else:
                outcomes[key] = times + 1
        return {_dense(examples[key]): times for key, times in outcomes.items()}
    for full in fulls:
        key = _dense([rank(hand, full) for hand in hands])
        outcomes[key] = seen(key, 0) + 1
    return outcomes


def _dense(scores: list) -> tuple[int, ...]:
    """Scores as dense ranks: 0 the lowest, equal scores equal."""
    levels = sorted(set(scores))
    return tuple(levels.index(v) for v in scores)


def _pick(boards: list, rng: random.Random):
    """:data:`SAMPLES` boards drawn uniformly (with replacement) from the list of all."""
    uniform = rng.random
    n = len(boards)
    for _ in range(SAMPLES):
        yield boards[int(uniform() * n)]


def _sample(cards: list, k: int, rng: random.Random):
    """:data:`SAMPLES` uniformly random ``k``-card boards out of ``cards`` (a partial
    Fisher-Yates shuffle per board: each is uniform whatever order the pool was left in)."""
    pool = list(cards)
    n = len(pool)
    uniform = rng.random
    for _ in range(SAMPLES):
        for i in range(k):
            j = i + int(uniform() * (n - i))
            pool[i], pool[j] = pool[j], pool[i]
        yield tuple(pool[:k])


class _Payout:
    """The deltas of the hand for each order of the live seats' hands, by replaying it."""

    def __init__(self, game: Game, record: HandRecord, live: list[int]) -> None:
        self._game = game
        self._record = record
        self._live = live
        self._cache: dict[tuple, list[int]] = {}

    def for_order(self, order: tuple[int, ...]) -> list[int]:
        """``order[i]``: how the i-th live seat's hand ranks (higher wins; equal splits)."""
        deltas = self._cache.get(order)
        if deltas is None:
            strength = [0] * self._game.players
            for seat, value in zip(self._live, order):
                strength[seat] = value
            deltas = self._cache[order] = replay_ranked(self._game, self._record, strength)
        return deltas


def replay_ranked(game: Game, record: HandRecord, strength: list[int]) -> list[int]:
    """The hand's deltas if seat ``s``'s hand ranked ``strength[s]``: the record's actions
    played again on the betting engine (the one replay of a record,
    :func:`~pokerbots.server.hands.replay.replay`; stacks as they started, nothing carried
    over) with placeholder cards that a game ranking by ``strength`` judges."""
    judge = game.ranked_by(lambda hole, board: strength[hole[0]])
    placeholder = Deal(tuple((s,) for s in range(game.players)), tuple(range(game.board_cards)))
    return replay(judge, record, deal=placeholder).hand.deltas

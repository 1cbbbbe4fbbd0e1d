"""All-in equity: what a hand that ended all-in before the last board card was worth to each
seat on average over every board that could have come, instead of over the one that came.

The ACPC scores no-limit hands this way (a game's registry record says so with
``allin_equity``): most of the luck of no-limit lies in the boards run out after an all-in, and
averaging it away leaves the decisions. A hand qualifies when it reached a showdown (two or more
seats still in) with board cards still to come and no more betting possible: every seat left is
all-in, or all but one and that one has called.

Everything here is read from the game: its deck, its ``rank`` and the one betting engine's pot
rules. Each distinct order of the live seats' hands is paid out once by replaying the hand's
actions on :class:`~.betting.Hand` with a ``rank`` that gives that order, so side pots, split
pots and odd chips follow the engine exactly; each board then only costs the ranking. The
cards dealt to every seat (folded seats too) are out of the deck. Boards are enumerated exactly
when there are at most :data:`EXACT_LIMIT` of them (Hold'em: from the flop on); otherwise
:data:`SAMPLES` boards are drawn uniformly at random (an unbiased estimate), with a generator
the caller seeds (a tournament seeds it from the match seed and the hand number).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

from pokerbots.server.games.base import Deal, Game
from pokerbots.server.games.engine.betting import Hand

#: Enumerate every remaining board when there are at most this many (Hold'em flop: 990 heads-up).
EXACT_LIMIT = 20_000
#: Boards drawn when there are more (Hold'em pre-flop: 1,712,304 heads-up).
SAMPLES = 10_000


def allin_values(game: Game, record: dict, rng: random.Random) -> list[float] | None:
    """Each seat's expected result for the hand ``record`` (a referee's hand record), or None
    when the hand does not qualify (folded out, or the betting reached the last street)."""
    actions = record["actions"]
    folded = {seat for seat, word, _, _ in actions if word == "FOLD"}
    live = [s for s in range(game.players) if s not in folded]
    streets = game.structure.streets
    last = max((street for _, _, _, street in actions), default=0)
    if len(live) < 2 or last >= len(streets) - 1:
        return None
    shown = sum(street.board for street in streets[: last + 1])
    known = tuple(record.get("board", ())[:shown])
    holes = [tuple(cards.split()) for cards in record["cards"]]
    dead = Counter(card for hole in holes for card in hole) + Counter(known)
    remaining = list((Counter(game.deck) - dead).elements())
    to_come = game.board_cards - shown
    if math.comb(len(remaining), to_come) <= EXACT_LIMIT:
        boards = itertools.combinations(remaining, to_come)
    else:
        boards = _sample(remaining, to_come, rng)
    rank = game.rank
    orders: dict[tuple, int] = {}  # how often each order of the live hands came up
    seen = orders.get
    if len(live) == 2:  # the common case, quickly: who wins, or a tie
        first, second = (holes[s] for s in live)
        for board in boards:
            full = known + board
            a, b = rank(first, full), rank(second, full)
            order = (1, 0) if a > b else (0, 1) if a < b else (0, 0)
            orders[order] = seen(order, 0) + 1
    else:
        live_holes = [holes[s] for s in live]
        for board in boards:
            full = known + board
            scores = [rank(hole, full) for hole in live_holes]
            levels = sorted(set(scores))
            order = tuple(levels.index(v) for v in scores)
            orders[order] = seen(order, 0) + 1
    payout = _Payout(game, record, live)
    totals = [0] * game.players
    for order, times in orders.items():
        for s, delta in enumerate(payout.for_order(order)):
            totals[s] += times * delta
    count = sum(orders.values())
    return [round(t / count, 6) for t in totals]


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

    def __init__(self, game: Game, record: dict, live: list[int]) -> None:
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
            deltas = self._cache[order] = replay(self._game, self._record, strength)
        return deltas


def replay(game: Game, record: dict, strength: list[int]) -> list[int]:
    """The hand's deltas if seat ``s``'s hand ranked ``strength[s]``: the record's actions
    played again on the betting engine (stacks as they started, nothing carried over)."""
    judge = _Judge(game, strength)
    n = game.players
    placeholder = Deal(tuple((s,) for s in range(n)), tuple(range(game.board_cards)))
    hand = Hand(judge, record["button"], placeholder, record.get("stacks_start"))
    for seat, word, value, _ in record["actions"]:
        if hand.to_act != seat:
            raise ValueError(f"hand {record['hand']}: seat {seat} acts out of turn in the record")
        if word == "FOLD":
            hand.fold()
        elif value == hand.legal().call:
            hand.call()
        else:
            hand.raise_to(value)
    return hand.deltas


class _Judge:
    """The game, with hands ranked as given (seat ``s`` holds the placeholder card ``s``) and
    nothing carried from hand to hand."""

    def __init__(self, game: Game, strength: list[int]) -> None:
        self._game = game
        self._strength = strength

    def __getattr__(self, name):
        return getattr(self._game, name)

    def rank(self, hole, board) -> int:
        return self._strength[hole[0]]

    def hand_over(self, hand) -> None:
        pass

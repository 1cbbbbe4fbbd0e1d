"""The hand follower (server/adapters/follow.py), which the relays use to rebuild every action of
a hand from one seat's messages, against the referee's own record of every action.

Random play at 2, 3 and 6 seats in Kuhn, no-limit and limit Hold'em (antes, short and carried
stacks too): before each of the seat's decisions the rebuilt history must be exactly the
record's so far; at the end of a hand it must be the whole record whenever the follower says it
is complete, and always in Kuhn and heads-up; otherwise it is a true prefix.
"""

from __future__ import annotations

import random

import pytest

from pokerbots.protocol.client import Bot, Client
from pokerbots.server.games import make_game, seat_table
from pokerbots.server.hands.follow import HandFollower
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee


class RandomPlay(Bot):
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def decide(self, state) -> str:
        legal = state.legal
        choices = [legal.check_or_call()] * 2
        if legal.can_fold:
            choices.append(legal.fold())
        if legal.raise_range:
            choices.append(legal.raise_to(self.rng.randint(*legal.raise_range)))
        return self.rng.choice(choices)


class Following(RandomPlay):
    """Seat 0: plays at random and follows every hand."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.client: Client | None = None
        self.hands: list[tuple[HandFollower, list]] = []

    def on_hand_start(self, hand, cards, button) -> None:
        client = self.client
        stacks = client.info.stacks
        if stacks is not None and client.carry:
            stacks = client.stacks
        self.follower = HandFollower(seat_table(client), button, stacks)
        self.checked: list = []

    def decide(self, state) -> str:
        self.follower.before_decision(state)
        self.checked.append(len(self.follower.acts))
        reply = super().decide(state)
        self.follower.mine(reply)
        return reply

    def on_hand_end(self, result) -> None:
        self.follower.at_end(result)
        self.hands.append((self.follower, self.checked))


def follow(game: str, players: int, seed: int, **options) -> tuple[int, int]:
    """Play 60 hands; check the follower against the record; (complete hands, hands)."""
    records: list[dict] = []
    referee = Referee(make_game(game, players, **options), random.Random(seed), hands=60,
                      on_hand=records.append)
    seat = Following(seed)
    client = Client(seat, game=game)
    seat.client = client
    others = [Client(RandomPlay(seed * 7 + s), game=game) for s in range(1, players)]
    play_local(referee, [client, *others])
    complete = 0
    for record, (follower, checked) in zip(records, seat.hands, strict=True):
        truth = [(s, w, v, st) for s, w, v, st in record["actions"]]
        rebuilt = [(a.seat, "FOLD" if a.word == "fold" else "BET", a.front, a.street)
                   for a in follower.acts]
        for known in checked:  # before each decision: exactly the record so far
            assert rebuilt[:known] == truth[:known], record["hand"]
        if follower.complete:
            complete += 1
            assert rebuilt == truth, record["hand"]
        else:
            assert rebuilt == truth[:len(rebuilt)] and len(rebuilt) < len(truth)
    return complete, len(records)


TABLES = [(game, options, players)
          for game, options in [("kuhn", {}), ("holdem-nl", {}), ("holdem-limit", {}),
                                ("holdem-nl", {"stack": 60, "ante": 3}),
                                ("holdem-nl", {"carry": True, "stack": 150})]
          for players in (2, 3, 6)]
TABLES.append(("holdem-nl", {"stack": (200, 35, 900), "big_blind_ante": 10}, 3))


@pytest.mark.parametrize("game, options, players", TABLES)
def test_every_action_is_rebuilt_exactly(game, options, players):
    complete, hands = follow(game, players, seed=players, **options)
    if game == "kuhn" or players == 2:
        assert complete == hands  # after folding or going all-in nothing is hidden there
    else:
        assert complete >= hands // 3  # the rest: someone bet after the seat left the hand

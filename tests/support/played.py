"""Hand records of real rounds, played in-process by the one referee and driver with random
bots of the client library: one short round of every game and of the tables that exercise its
record (antes, uneven stacks and all-ins, carried stacks, an empty seat, six seats)."""

from __future__ import annotations

import random

from pokerbots.protocol.client import Bot, Client
from pokerbots.server.games import make_game
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

#: The tables played: name -> (game, players, game options).
TABLES = {
    "kuhn-2p": ("kuhn", 2, {}),
    "kuhn-3p": ("kuhn", 3, {}),
    "leduc-2p": ("leduc", 2, {}),
    "leduc-3p": ("leduc", 3, {}),
    "holdem-nl-ante-stacks": ("holdem-nl", 3, {"ante": 5, "stack": [300, 250, 80]}),
    "holdem-nl-big-blind-ante": ("holdem-nl", 2, {"stack": 400, "big_blind_ante": 10}),
    "holdem-nl-6p": ("holdem-nl", 6, {}),
    "holdem-nl-carry": ("holdem-nl", 3, {"stack": 60, "carry": True}),
    "holdem-nl-empty-seat": ("holdem-nl", 3, {"stack": [300, 0, 80]}),
    "holdem-limit-2p": ("holdem-limit", 2, {}),
    "holdem-limit-4p-ante": ("holdem-limit", 4, {"ante": 2}),
}


class RandomBot(Bot):
    """Checks or calls, folds when it may, raises (all-in one time in five) at random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, state):
        choices = ["call"]
        if state.raise_range is not None:
            choices.append("raise")
        if state.fold() is not None:
            choices.append("fold")
        choice = self.rng.choice(choices)
        if choice == "call":
            return state.check_or_call()
        if choice == "fold":
            return state.fold()
        low, high = state.raise_range
        return state.raise_to(high if self.rng.random() < 0.2 else self.rng.randint(low, high))


def play(table: str, hands: int = 40, seed: int = 1) -> tuple[object, list[dict]]:
    """Play ``hands`` hands of ``table`` (a name of :data:`TABLES`): (the game, its records)."""
    name, players, options = TABLES[table]
    game = make_game(name, players, **options)
    records: list[dict] = []
    referee = Referee(game, random.Random(seed), hands=hands, on_hand=records.append)
    bots = [Client(RandomBot(random.Random(seed * 100 + s)), game=name) for s in range(players)]
    play_local(referee, bots)
    return make_game(name, players, **options), records

"""The bytes on the wire stay the same: digests of whole rounds recorded before the game registry.

Every byte every seat received and sent, in Kuhn, no-limit and limit Hold'em (reset and carried
stacks, short stacks with all-ins), at 2, 3 and 6 players, 40 hands with random legal play from
fixed seeds. The digests were recorded with the server as it was before games became data for
one betting engine (commit f7c4ce0); a change to any message of any game changes a digest.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from pokerbots.protocol.client import Client
from pokerbots.server.driver import play_local
from pokerbots.server.games import make_game
from pokerbots.server.referee import Referee

TABLES = [("kuhn", {}), ("holdem-nl", {}), ("holdem-limit", {}),
          ("holdem-nl", {"carry": True, "stack": 300}), ("holdem-nl", {"stack": 40})]

RECORDED = {
    "kuhn-2p-seed1": "1745d0ccbf3364a2",
    "kuhn-2p-seed2": "e1ba25bad326fdf1",
    "kuhn-2p-seed3": "c46edab331b65ba0",
    "kuhn-3p-seed1": "3223e7eab80b11b8",
    "kuhn-3p-seed2": "d6b5a605ecc53438",
    "kuhn-3p-seed3": "d2e44e95bf6eb625",
    "kuhn-6p-seed1": "a7bb94a8cc426655",
    "kuhn-6p-seed2": "8101d5dea20f7b0a",
    "kuhn-6p-seed3": "d22b08f148ff855a",
    "holdem-nl-2p-seed1": "49aa5743f86913c6",
    "holdem-nl-2p-seed2": "3a59ad1808a26a98",
    "holdem-nl-2p-seed3": "bcc710fb5c1e647e",
    "holdem-nl-3p-seed1": "ae3e25245406a7a1",
    "holdem-nl-3p-seed2": "32449176c6c40450",
    "holdem-nl-3p-seed3": "ba214c7421713d11",
    "holdem-nl-6p-seed1": "62cd8463a843e169",
    "holdem-nl-6p-seed2": "49ffbc424c957fd5",
    "holdem-nl-6p-seed3": "cc88fc1af0fc0784",
    "holdem-limit-2p-seed1": "f91cb1d31887128a",
    "holdem-limit-2p-seed2": "ba3d19610294d398",
    "holdem-limit-2p-seed3": "8c0440103fb516a5",
    "holdem-limit-3p-seed1": "013c4f1c33bc2781",
    "holdem-limit-3p-seed2": "d125b9cb91260acf",
    "holdem-limit-3p-seed3": "9494a8af5e631d8b",
    "holdem-limit-6p-seed1": "c7be0a7ed1a5dd92",
    "holdem-limit-6p-seed2": "b5e53f20f2d48b40",
    "holdem-limit-6p-seed3": "632a2f27294945eb",
    "holdem-nl-carry-s300-2p-seed1": "fb0e8153f1b2617a",
    "holdem-nl-carry-s300-2p-seed2": "ac4f781ce486282a",
    "holdem-nl-carry-s300-2p-seed3": "6947cc04f7910092",
    "holdem-nl-carry-s300-3p-seed1": "7ff2d9b2401f3b1f",
    "holdem-nl-carry-s300-3p-seed2": "f17461f3c400f041",
    "holdem-nl-carry-s300-3p-seed3": "be1eedb5be541739",
    "holdem-nl-carry-s300-6p-seed1": "231382a3a0c32cca",
    "holdem-nl-carry-s300-6p-seed2": "3c658ece69a904b5",
    "holdem-nl-carry-s300-6p-seed3": "f86c89347b0f2f88",
    "holdem-nl-s40-2p-seed1": "8f7f848343d0f6d4",
    "holdem-nl-s40-2p-seed2": "83bf189b83dab333",
    "holdem-nl-s40-2p-seed3": "07ec412d086113bb",
    "holdem-nl-s40-3p-seed1": "f64ead5361adf576",
    "holdem-nl-s40-3p-seed2": "2a35632289ad0247",
    "holdem-nl-s40-3p-seed3": "8d62c7501f233c0b",
    "holdem-nl-s40-6p-seed1": "7b5ef85a70e43dae",
    "holdem-nl-s40-6p-seed2": "e9baabc0c14dcec1",
    "holdem-nl-s40-6p-seed3": "f89e69c259e5559e",
}


def name(game: str, options: dict, players: int, seed: int) -> str:
    carry = "-carry" if options.get("carry") else ""
    stack = f"-s{options['stack']}" if "stack" in options else ""
    return f"{game}{carry}{stack}-{players}p-seed{seed}"


def random_decider(rng: random.Random):
    def decide(state):
        choices = ["call"]
        if state.raise_range is not None:
            choices.append("raise")
        if state.fold() is not None:
            choices.append("fold")
        choice = rng.choice(choices)
        if choice == "call":
            return state.check_or_call()
        if choice == "fold":
            return state.fold()
        low, high = state.raise_range
        return state.raise_to(high if rng.random() < 0.2 else rng.randint(low, high))

    return decide


@pytest.mark.parametrize("game, options", TABLES)
@pytest.mark.parametrize("players", [2, 3, 6])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_byte_of_a_round_is_what_it_was(game, options, players, seed):
    referee = Referee(make_game(game, players, **options), random.Random(seed), hands=40)
    seats = [Client(random_decider(random.Random(seed * 100 + s)), game=game)
             for s in range(players)]
    transcript: list = []
    play_local(referee, seats, transcript=transcript)
    digest = hashlib.sha256()
    for seat, _, message, reply in transcript:
        digest.update(b"%d|" % seat + message + b"|" + reply + b"\n")
    assert digest.hexdigest()[:16] == RECORDED[name(game, options, players, seed)]

"""The bytes on the wire stay the same: digests of whole rounds recorded before the game registry.

Every byte each seat received and sent, seat by seat in the order that seat saw them, in Kuhn,
no-limit and limit Hold'em (reset and carried stacks, short stacks with all-ins), at 2, 3 and
6 players, 40 hands with random legal play from fixed seeds. The digests were recorded with the
server as it was before games became data for one betting engine (commit f7c4ce0); a change to
any message of any game, or to what a seat is sent in what order, changes a digest.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from pokerbots.protocol.client import Client
from pokerbots.server.games import make_game
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

TABLES = [("kuhn", {}), ("holdem-nl", {}), ("holdem-limit", {}),
          ("holdem-nl", {"carry": True, "stack": 300}), ("holdem-nl", {"stack": 40})]

RECORDED = {
    "kuhn-2p-seed1": "31ae9f4a152a412b",
    "kuhn-2p-seed2": "38e88b8a414c67bb",
    "kuhn-2p-seed3": "f8c5e5f692cc3be4",
    "kuhn-3p-seed1": "1be12023aaa4c74e",
    "kuhn-3p-seed2": "534d162c737b4904",
    "kuhn-3p-seed3": "1f3a1c1292fe653c",
    "kuhn-6p-seed1": "10d9d4b7c3cf5484",
    "kuhn-6p-seed2": "30aa846078fe9529",
    "kuhn-6p-seed3": "91d1e968e0db0230",
    "holdem-nl-2p-seed1": "162aee8da0828217",
    "holdem-nl-2p-seed2": "aadf35facd30f03c",
    "holdem-nl-2p-seed3": "1422f70ad6ed27c4",
    "holdem-nl-3p-seed1": "43f7d032f34599f8",
    "holdem-nl-3p-seed2": "3addbcfbd6a5b86e",
    "holdem-nl-3p-seed3": "14a75fbac29dc899",
    "holdem-nl-6p-seed1": "11180e71a32b44d3",
    "holdem-nl-6p-seed2": "f8141eb85f3306db",
    "holdem-nl-6p-seed3": "f308ce5f0caa3e37",
    "holdem-limit-2p-seed1": "25b79cf325c51746",
    "holdem-limit-2p-seed2": "5602f3a040dd3008",
    "holdem-limit-2p-seed3": "e911d709de5ef09f",
    "holdem-limit-3p-seed1": "1f478a1233e64097",
    "holdem-limit-3p-seed2": "fe57481eb5ad6dda",
    "holdem-limit-3p-seed3": "58ca4367703b76cc",
    "holdem-limit-6p-seed1": "73e112c6bcfa327a",
    "holdem-limit-6p-seed2": "a0bf21a55892c223",
    "holdem-limit-6p-seed3": "e654af64c1e28692",
    "holdem-nl-carry-s300-2p-seed1": "afedac37ffedc06f",
    "holdem-nl-carry-s300-2p-seed2": "6055b189f2afb166",
    "holdem-nl-carry-s300-2p-seed3": "b6c95161b8e72070",
    "holdem-nl-carry-s300-3p-seed1": "18d9ebcfdc7d8e27",
    "holdem-nl-carry-s300-3p-seed2": "4d2d7fd6bac9dfed",
    "holdem-nl-carry-s300-3p-seed3": "43f29f527879d792",
    "holdem-nl-carry-s300-6p-seed1": "b8290a943c335238",
    "holdem-nl-carry-s300-6p-seed2": "ad440dec71bf644d",
    "holdem-nl-carry-s300-6p-seed3": "b1c504fd06a5b1ad",
    "holdem-nl-s40-2p-seed1": "0c947592bec80c30",
    "holdem-nl-s40-2p-seed2": "bc506067f27164cb",
    "holdem-nl-s40-2p-seed3": "1b27824f903e6e7c",
    "holdem-nl-s40-3p-seed1": "e73d835bf615262a",
    "holdem-nl-s40-3p-seed2": "9a81c8b7b155b528",
    "holdem-nl-s40-3p-seed3": "63538d324e463954",
    "holdem-nl-s40-6p-seed1": "29dc55d5cbdb987d",
    "holdem-nl-s40-6p-seed2": "74784b13c6844a55",
    "holdem-nl-s40-6p-seed3": "874d9685d553bf0a",
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
    digest = hashlib.sha256()  # seat by seat: what each received and sent, in order
    for seat in range(players):
        for s, _, message, reply in transcript:
            if s == seat:
                digest.update(b"%d|" % s + message + b"|" + reply + b"\n")
    assert digest.hexdigest()[:16] == RECORDED[name(game, options, players, seed)]

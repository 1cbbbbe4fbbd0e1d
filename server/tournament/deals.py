"""The cards of a tournament: a function of the seed, the table, the deal set and the hand only.

Every match of one deal set at one table shares a *match seed*; hand ``h`` of that match deals
``game.deal(Random("<match seed>:<h>"))`` to the seats. The actions never touch the cards, so
in every seating of a deal set seat ``s`` gets the same cards in hand ``h``, and the button
starts on the same seat; different tables and deal sets get independent cards (their seeds
differ), so their results are independent draws. Python's string seeding hashes the text with
SHA-512: the same on every machine and Python version, so a Dask worker deals what a local
worker deals.

The match seed is the first :data:`MATCH_SEED_BITS` bits (128) of the SHA-256 of the text
``pokerbots tournament SEED table T deal set D`` (the numbers in decimal), read as a big-endian
number: as many bits as a drawn tournament seed has (:mod:`pokerbots.server.seeds`), so that no
match seed is easier to search than the tournament's seed; and anyone who is given a
tournament's seed recomputes every match seed from it. A tournament recorded before match seeds
had 128 bits (its store's format 1) keeps deriving 63 (:data:`FORMAT_1_BITS`: the first 64 bits
shifted right by one), so that it resumes with the cards it started with.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Callable

from pokerbots.server.games.base import Deal, Game

#: The bits of a match seed derived from a tournament's seed.
MATCH_SEED_BITS = 128
#: The bits derived in a tournament whose store has format 1 (written before they were 128).
FORMAT_1_BITS = 63


def match_seed(seed: int, table_no: int, deal_set: int, *, bits: int = MATCH_SEED_BITS) -> int:
    """The seed shared by every seating of ``deal_set`` at ``table_no``: the first ``bits``
    bits of a SHA-256 (at most 256)."""
    text = f"pokerbots tournament {seed} table {table_no} deal set {deal_set}"
    digest = hashlib.sha256(text.encode()).digest()
    whole = -(-bits // 8)
    return int.from_bytes(digest[:whole], "big") >> (whole * 8 - bits)


def deal(game: Game, hand: int, *, seed: int) -> Deal:
    """The cards of hand ``hand`` of every match whose match seed is ``seed``."""
    return game.deal(random.Random(f"{seed}:{hand}"))


def dealer(seed: int) -> Callable[[Game, int], Deal]:
    """``deal`` for one match seed, as :class:`~pokerbots.server.play.match.MatchConfig` takes
    it."""
    return functools.partial(deal, seed=seed)


def first_button(seed: int, players: int) -> int:
    """The seat of the first hand's button, the same in every seating."""
    return random.Random(f"{seed}:button").randrange(players)


def equity_rng(seed: int, hand: int) -> random.Random:
    """The generator of the boards sampled for hand ``hand``'s all-in equity."""
    return random.Random(f"{seed}:{hand}:equity")

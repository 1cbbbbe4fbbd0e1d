"""The deal: the same seed deals the same cards as ``random.Random.sample`` always did."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from pokerbots.server.games import make_game
from pokerbots.server.games.engine.deck import _sample, sample

CARDS = [f"{rank}{suit}" for rank in "23456789TJQKA" for suit in "cdhs"]


@given(seed=st.integers(0, 2**64), n=st.integers(1, 52), data=st.data())
def test_sample_draws_what_the_library_draws(seed, n, data):
    k = data.draw(st.integers(0, n))
    ours, theirs = random.Random(seed), random.Random(seed)
    assert sample(ours, CARDS[:n], k) == theirs.sample(CARDS[:n], k)
    assert ours.getrandbits(64) == theirs.getrandbits(64)  # and leaves the same state


def test_the_compiled_way_is_the_one_in_use_and_every_game_deals_as_before():
    assert sample is _sample  # the self-check at import passed on this Python
    for name, players in [("kuhn", 3), ("leduc", 2), ("holdem-nl", 6), ("holdem-limit", 10)]:
        game = make_game(name, players)
        ours, theirs = random.Random(7), random.Random(7)
        for _ in range(50):
            deal = game.deal(ours)
            k = game.hole_cards
            cards = theirs.sample(game.deck, k * players + game.board_cards)
            assert [c for hole in deal.holes for c in hole] == cards[:k * players]
            assert list(deal.board) == cards[k * players:]

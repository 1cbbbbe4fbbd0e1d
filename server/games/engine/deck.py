"""Dealing: the cards ``random.Random.sample`` draws, drawn without its generic overhead.

Every hand of a match is dealt with ``sample(rng, deck, k)``, and a seed must keep dealing
the same cards. :func:`sample` makes exactly the library's draws (the same ``getrandbits``
calls, in the same order, for the small populations of a deck) but is compiled with the
per-message modules (setup.py): dealing was an eighth of the referee's time in Kuhn. On
import it checks itself against the library, and uses the library should a Python version
ever draw differently.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import ceil, log


def _sample(rng: random.Random, population: Sequence[str], k: int) -> list[str]:
    """``rng.sample(population, k)``, for a ``random.Random`` and a small population."""
    n = len(population)
    setsize = 21  # the library's choice between its two ways of drawing
    if k > 5:
        setsize += 4 ** ceil(log(k * 3, 4))
    if not 0 <= k <= n or n > setsize or type(rng) is not random.Random:
        return rng.sample(population, k)
    getrandbits = rng.getrandbits
    pool = list(population)
    result: list[str] = []
    for i in range(k):
        left = n - i
        bits = left.bit_length()
        j = getrandbits(bits)
        while j >= left:
            j = getrandbits(bits)
        result.append(pool[j])
        pool[j] = pool[left - 1]
    return result


def _library(rng: random.Random, population: Sequence[str], k: int) -> list[str]:
    return rng.sample(population, k)


def _same_as_library() -> bool:
    cards = [f"c{i}" for i in range(52)]
    for seed in range(3):
        for n, k in ((3, 2), (3, 3), (4, 3), (6, 2), (6, 3), (52, 9), (52, 11), (52, 25)):
            ours, theirs = random.Random(seed), random.Random(seed)
            if _sample(ours, cards[:n], k) != theirs.sample(cards[:n], k):
                return False
            if ours.random() != theirs.random():
                return False
    return True


#: ``sample(rng, population, k)``: what ``rng.sample(population, k)`` returns.
sample = _sample if _same_as_library() else _library


def deal(rng: random.Random, deck: Sequence[str], players: int, hole_cards: int,
         board_cards: int) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Each seat's ``hole_cards`` cards and the ``board_cards`` of the board, as one draw of
    ``sample`` (the seat's cards in seat order, then the board): the parts of a ``Deal``."""
    cards = sample(rng, deck, hole_cards * players + board_cards)
    holes = [tuple(cards[hole_cards * s:hole_cards * s + hole_cards]) for s in range(players)]
    return tuple(holes), tuple(cards[hole_cards * players:])

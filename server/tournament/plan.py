"""What a tournament plays: the tables, the seatings of each deal set, and the matches.

Tables are the combinations of K bots out of the field, numbered in the order
``itertools.combinations`` gives for the bots in the order they were given. Each table plays
``rounds`` deal sets. With ``duplicate`` a deal set is played once per seating: both seatings
for two players, all six permutations for three, the K rotations beyond; without it, once, the
bots rotated by the deal set's number so that each bot sits in each seat in turn.

``--refine T`` adds deal sets, numbered after those played, at the tables among the top T bots.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from pokerbots.server.tournament import deals


@dataclass(frozen=True)
class Planned:
    """One match to play: bot names by seat, and the cards it gets (its match seed)."""

    table_no: int
    deal_set: int
    seating_no: int
    seating: tuple[str, ...]
    seed: int
    button: int
    #: 0 for the round robin; n for the n-th step of ``--refine``.
    phase: int = 0

    @property
    def folder(self) -> str:
        """The match's folder under the tournament's ``matches/``."""
        return f"t{self.table_no:05d}-d{self.deal_set:03d}-s{self.seating_no}"


def tables(names: list[str], players: int) -> list[tuple[str, ...]]:
    """Every table: ``C(M, K)`` combinations of the M names, in a fixed order."""
    return list(itertools.combinations(names, players))


def seatings(bots: tuple[str, ...], duplicate: bool, deal_set: int) -> list[tuple[str, ...]]:
    """The seatings a deal set of this table is played in."""
    k = len(bots)
    if not duplicate:
        r = deal_set % k
        return [bots[r:] + bots[:r]]
    if k <= 3:
        return list(itertools.permutations(bots))
    return [bots[r:] + bots[:r] for r in range(k)]


def matches(names: list[str], players: int, *, rounds: int, duplicate: bool, seed: int,
            among: set[str] | None = None, first_deal_set: int = 0,
            phase: int = 0, bits: int = deals.MATCH_SEED_BITS) -> list[Planned]:
    """The matches of ``rounds`` deal sets (numbered from ``first_deal_set``) at every table,
    or only at the tables whose bots are all ``among``; their match seeds have ``bits`` bits
    (:func:`.deals.match_seed`)."""
    planned = []
    for table_no, bots in enumerate(tables(names, players)):
        if among is not None and not among.issuperset(bots):
            continue
        for deal_set in range(first_deal_set, first_deal_set + rounds):
            seed_ = deals.match_seed(seed, table_no, deal_set, bits=bits)
            button = deals.first_button(seed_, players)
            for seating_no, seating in enumerate(seatings(bots, duplicate, deal_set)):
                planned.append(Planned(table_no, deal_set, seating_no, seating, seed_, button,
                                       phase))
    return planned

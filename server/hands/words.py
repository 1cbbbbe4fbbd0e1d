"""A player's action in words, as a poker site's hand history says it: ``folds``, ``checks``,
``calls 10``, ``bets 20``, ``raises to 60``, ``and is all-in``, ``wins 120``.

The one wording of ``hands.txt`` (:mod:`pokerbots.server.logs.history`) and of the site's
replayer. Compiled with the per-message modules (see setup.py): every action of every hand
of a match is worded as its history is written.
"""

from __future__ import annotations

from typing import Final

FOLDS: Final = "folds"
CHECKS: Final = "checks"
#: Said after an action (or a forced bet) that puts a seat's last chip in.
ALL_IN: Final = " and is all-in"


def action(folds: bool, value: int, mine: int, table: int, opening: int) -> str:
    """One action: ``folds`` when it folds, else from ``value``, the seat's money in front
    after it, ``mine`` before it, ``table`` the most money in front of any seat before it and
    ``opening`` the most in front that is not yet a bet (the antes in front on the first
    street, else 0): ``checks`` (nothing added), ``calls N`` (up to the table, N added),
    ``raises to N`` (above a bet), ``bets N`` (the street's first bet, N added)."""
    if folds:
        return FOLDS
    if value == mine:
        return CHECKS
    if value <= table:
        return "calls " + str(value - mine)
    if table > opening:
        return "raises to " + str(value)
    return "bets " + str(value - mine)


def all_in(put: int, stack: int) -> str:
    """:data:`ALL_IN` when a seat that came with ``stack`` chips has put ``put`` in the hand
    (every chip), else nothing."""
    return ALL_IN if put >= stack > 0 else ""


def wins(amount: int) -> str:
    """A pot won: ``wins N``."""
    return "wins " + str(amount)

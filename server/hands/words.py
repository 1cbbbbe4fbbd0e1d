"""A player's action in words, as a poker site's hand history says it: ``folds``, ``checks``,
``calls 10``, ``bets 20``, ``raises to 60``, ``and is all-in``, ``wins 120``.

The one wording of ``hands.txt`` (:mod:`pokerbots.server.logs.history`) and of the site's
replayer. Compiled with the per-message modules (see setup.py): every action of every hand
of a match is said as its history is written, so each line is built in one piece and the
lines that never change (a player folds, checks) are made once per table.
"""

from __future__ import annotations

from typing import Final

FOLDS: Final = "folds"
CHECKS: Final = "checks"
#: Said after an action (or a forced bet) that puts a seat's last chip in.
ALL_IN: Final = " and is all-in"


def all_in(put: int, stack: int) -> str:
    """:data:`ALL_IN` when a seat that came with ``stack`` chips (0: a game without stacks)
    has put ``put`` in the hand: every chip; else nothing."""
    return ALL_IN if put >= stack > 0 else ""


class Phrases:
    """What the players of one table say, each line starting with the player's name as given
    (``"  alice (seat 0)"`` in ``hands.txt``)."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self._folds = [f"{name} {FOLDS}" for name in names]
        self._checks = [f"{name} {CHECKS}" for name in names]

    def action(self, seat: int, folds: bool, value: int, front: list[int], opening: int,
               put: int, stack: int) -> str:
        """``seat``'s action: ``folds`` when it folds; else from ``value``, its money in front
        after it, ``front``, every seat's money in front before it, and ``opening``, the most
        in front that is not yet a bet (the antes in front on the first street, else 0):
        ``checks`` (nothing added), ``calls N`` (N added, up to the most in front),
        ``raises to N`` (above a bet) or ``bets N`` (the street's first bet, N added), then
        :data:`ALL_IN` when that puts in its last chip (:func:`all_in`: ``put`` chips in the
        hand after it, of its ``stack``)."""
        if folds:
            return self._folds[seat]
        mine = front[seat]
        if value == mine:  # a check never puts a seat all-in: it had chips left to act
            return self._checks[seat]
        table = _largest(front)
        end = ALL_IN if put >= stack > 0 else ""
        if value <= table:
            return f"{self.names[seat]} calls {value - mine}{end}"
        if table > opening:
            return f"{self.names[seat]} raises to {value}{end}"
        return f"{self.names[seat]} bets {value - mine}{end}"

    def wins(self, seat: int, amount: int) -> str:
        """``seat`` wins a pot of ``amount``."""
        return f"{self.names[seat]} wins {amount}"


def _largest(chips: list[int]) -> int:
    """``max(chips)`` as native arithmetic (the builtin is a generic call from compiled code,
    once for every action of every hand)."""
    top = chips[0]
    for c in chips:
        if c > top:
            top = c
    return top

"""Each seat's clock: the reply and start-up limits, and the time bank of the round.

A reply is timed from the moment its message was written. When every seat is asked at once,
each stretch of waiting is charged to the one seat the server was waiting for, so a slow bot
never uses up another's bank. The bank (the MIT engine's game clock) is the total reply time a
seat may use after ``init_round``, topped up at every hand. Pure bookkeeping: the table that
waits (:mod:`.seats.runner`) reads the clock and says what a broken limit means.
"""

from __future__ import annotations

import math


class SeatClock:
    """The time one seat has used and may still use."""

    __slots__ = ("used", "budget", "reply_limit")

    def __init__(self, reply_limit: float | None = None) -> None:
        #: Seconds spent waiting for this seat's replies.
        self.used = 0.0
        #: ``used`` may not exceed it: infinite until the bank opens after ``init_round``.
        self.budget = math.inf
        #: This seat's own limit per reply (a person at the terminal), or None.
        self.reply_limit = reply_limit

    def left(self) -> float:
        """Seconds of bank left."""
        return self.budget - self.used


def late_reason(kind: str, limit: float, waited: float, *, writing: bool, partial: bytes,
                startup: bool) -> str:
    """Why a seat that broke its reply (or start-up) limit failed."""
    which = ("start-up limit (--startup-timeout)" if startup else "reply limit (--reply-timeout)")
    if writing:
        return (f"it stopped reading its input: the {kind} message could not be delivered"
                f" within the {limit:g} s {which}")
    got = f"; it had sent {partial[:80]!r} without a newline" if partial else ""
    return (f"no reply within the {limit:g} s time limit: it broke the {which},"
            f" taking more than {waited:.2f} s{got}; if the bot did answer, check that"
            " it ends the line and flushes its output")


def bank_reason(bank: float, per_hand: float, clock: SeatClock, waited: float) -> str:
    """Why a seat that ran out of its time bank failed."""
    return (f"it ran out of its time bank (--time-bank {bank:g} s per round plus"
            f" --time-per-hand {per_hand:g} s per hand): it has used"
            f" {clock.used:.2f} s of the {clock.budget:.2f} s it had, {waited:.2f} s of it on"
            " this reply")

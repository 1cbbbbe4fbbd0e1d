"""The one loop that drives a referee: send each exchange's messages, hand back the replies.

:func:`drive` runs :meth:`Referee.exchanges` against a :class:`Table`, anything that can post a
message to a seat and produce that seat's reply. The process layer's table talks to bot
processes over pipes (:mod:`.seats.runner`); :class:`LocalTable` answers in-process with client
objects, for ``pokerbots deal``, simulations and the tests; :func:`play_local` runs it without
an event loop.

The loop is written for the hot path: a table answers from :meth:`Table.poll` when the reply is
already there, and the loop awaits :meth:`Table.reply` only when it is not. An exchange is one
of two kinds (:mod:`.coalesce`): an :class:`~.coalesce.Ask` of one seat, or a
:class:`~.coalesce.Tell` to every seat, whose messages are all posted before any reply is
awaited, so that the bots work on them at the same time. Either may carry several messages to
a seat in one write, each answered by its own line: one wait loop for each kind.
A table reports a seat that cannot answer (it crashed, timed out...) by raising
:class:`SeatFailure`; the loop first has the referee judge every reply already read of that
exchange (:meth:`Referee.judge_read`: the first rule broken is the fault reported, not the exit
or the silence that followed it) and otherwise turns the failure into the referee's
:class:`~.errors.BotFault`, with every fact (and ``seat_failure`` set).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from pokerbots.protocol.wire import Kind
from pokerbots.server.referee.coalesce import Ask, Exchange
from pokerbots.server.referee.referee import Referee


class SeatFailure(Exception):
    """A seat could not answer: ``reason`` says why, ``received`` is what it sent, if anything.
    ``legal`` overrides the referee's legal line when the table knows better (or ``""``)."""

    def __init__(self, seat: int, reason: str, received: bytes | None = None,
                 legal: str | None = None) -> None:
        super().__init__(reason)
        self.seat = seat
        self.reason = reason
        self.received = received
        self.legal = legal


class Table(Protocol):
    """Where the referee's messages go: one seat per bot."""

    def post(self, exchange: Exchange) -> None:
        """Send the exchange's messages to the seats asked (without waiting for them to
        arrive) and start the clocks of their replies."""

    def poll(self, seat: int) -> bytes | None:
        """``seat``'s reply if it is already there, else None; never waits. Raises
        :class:`SeatFailure` when the seat cannot answer (``post`` never does)."""

    async def reply(self, seat: int) -> bytes:
        """Wait for ``seat``'s reply to the message last posted to it (or raise
        :class:`SeatFailure`)."""

    def answered(self, exchange: Exchange) -> None:
        """Every seat asked in ``exchange`` has replied."""


async def drive(referee: Referee, table: Table) -> None:
    """Play ``referee``'s round on ``table`` to its end (the bots' goodbyes)."""
    exchanges = referee.exchanges()
    send = exchanges.send
    post, poll, answered = table.post, table.poll, table.answered
    exchange: Exchange | None = None
    # Where the exchange under way is, for a failure: seat s's lines read so far (before its
    # message ``part``), and every seat's before s (a tell).
    s = part = 0
    lines: list[bytes] = []
    replies: list[list[bytes]] = []
    try:
        exchange = send(None)
        while True:
            post(exchange)
            if isinstance(exchange, Ask):
                s = exchange.seat
                lines = []
                for part in range(len(exchange.kinds)):  # noqa: B007 (the failure handler reads it)
                    line = poll(s)
                    if line is None:
                        line = await table.reply(s)
                    lines.append(line)
                answered(exchange)
                exchange = send(lines)
                continue
            replies = []
            for s in range(len(exchange.kinds)):
                lines = []
                for part in range(len(exchange.kinds[s])):  # noqa: B007 (as above)
                    line = poll(s)
                    if line is None:
                        line = await table.reply(s)
                    lines.append(line)
                replies.append(lines)
            answered(exchange)
            exchange = send(replies)
    except StopIteration:
        return
    except SeatFailure as failure:
        assert exchange is not None  # a table fails only while an exchange is under way
        if isinstance(exchange, Ask):
            referee.judge_read(exchange, [lines])
            kind, message = exchange.kinds[part], exchange.messages[part]
        else:
            referee.judge_read(exchange, [*replies, lines])
            kind, message = exchange.kinds[s][part], exchange.messages[s][part]
        raise referee.fault(failure.seat, kind, failure.reason, sent=message,
                            received=failure.received, legal=failure.legal, part=part,
                            seat_failure=True) from None


class LocalTable:
    """Seats answered in-process: ``seats[s].receive(message) -> reply`` (a
    :class:`pokerbots.protocol.client.Client`, or any object with that method).

    With ``transcript``, every exchange is appended as ``(seat, kind, message, reply)``.
    """

    def __init__(self, seats: Sequence, transcript: list | None = None) -> None:
        self.seats = seats
        self.transcript = transcript

    def post(self, exchange: Exchange) -> None:
        self._replies: dict[int, list[bytes | None]] = {}
        if isinstance(exchange, Ask):
            self._answer(exchange.seat, exchange.messages, exchange.kinds)
            return
        for s in range(len(exchange.messages)):
            if not self._answer(s, exchange.messages[s], exchange.kinds[s]):
                return  # poll reports it, after the replies before it

    def _answer(self, seat: int, messages: Sequence[bytes], kinds: Sequence[Kind]) -> bool:
        """Have ``seat`` answer each message; False once it did not."""
        replies = self._replies[seat] = []
        for kind, message in zip(kinds, messages):
            reply = self.seats[seat].receive(message)
            replies.append(reply)
            if reply is None:
                return False
            if self.transcript is not None:
                self.transcript.append((seat, kind, message, reply))
        return True

    def poll(self, seat: int) -> bytes:
        reply = self._replies[seat].pop(0)
        if reply is None:
            raise SeatFailure(seat, "it did not reply")
        return reply

    async def reply(self, seat: int) -> bytes:  # pragma: no cover - poll always answers
        raise AssertionError("a local seat always answers at once")

    def answered(self, exchange: Exchange) -> None:
        pass


def play_local(referee: Referee, seats: Sequence, *, transcript: list | None = None) -> None:
    """Play ``referee``'s round in-process with ``seats[s]`` answering for seat ``s``.

    No event loop is needed: a local table never waits. A reply the referee refuses raises its
    :class:`~pokerbots.server.errors.BotFault`.
    """
    coroutine = drive(referee, LocalTable(seats, transcript))
    try:
        coroutine.send(None)
    except StopIteration:
        return
    coroutine.close()
    raise AssertionError("a local table waited")

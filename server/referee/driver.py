"""The one loop that drives a referee: send each exchange's messages, hand back the replies.

:func:`drive` runs :meth:`Referee.exchanges` against a :class:`Table`, anything that can post a
message to a seat and produce that seat's reply. The process layer's table talks to bot
processes over pipes (:mod:`.seats.runner`); :class:`LocalTable` answers in-process with client
objects, for ``pokerbots deal``, simulations and the tests; :func:`play_local` runs it without
an event loop.

The loop is written for the hot path: a table answers from :meth:`Table.poll` when the reply is
already there, and the loop awaits :meth:`Table.reply` only when it is not. Messages for every
seat are all posted before any reply is awaited, so the bots work on them at the same time. A
seat sent several messages in one write (``exchange.kinds``) answers each with its own line.
A table reports a seat that cannot answer (it crashed, timed out...) by raising
:class:`SeatFailure`; the loop first has the referee judge every reply already read of that
exchange (:meth:`Referee.judge_read`: the first rule broken is the fault reported, not the exit
or the silence that followed it) and otherwise turns the failure into the referee's
:class:`~.errors.BotFault`, with every fact (and ``seat_failure`` set).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from pokerbots.server.referee.referee import Exchange, Referee


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
    exchange = None
    s = part = 0
    # What was read of the exchange under way, for a failure: every seat's replies before
    # seat s (all-seat exchanges), and seat s's lines before part (a bundle).
    replies: list = []
    lines: list = []
    try:
        exchange = send(None)
        while True:
            post(exchange)
            seat = exchange.seat
            kinds = exchange.kinds
            if seat is not None:
                s, part = seat, 0
                if kinds is None:  # the hot path: one message, one reply
                    line = poll(seat)
                    if line is None:
                        line = await table.reply(seat)
                    answered(exchange)
                    exchange = send(line)
                    continue
                # One seat's bundle (on one CPU, every seat's first decision of a hand): read
                # here rather than by the loop below, which costs 2-3% of a Kuhn hand more.
                lines = []
                for part in range(len(kinds[seat])):  # noqa: B007 (the failure handler reads it)
                    line = poll(seat)
                    if line is None:
                        line = await table.reply(seat)
                    lines.append(line)
                answered(exchange)
                exchange = send(tuple(lines))
                continue
            replies = []
            for s in range(len(exchange.messages)):
                if kinds is None:
                    part = 0
                    line = poll(s)
                    if line is None:
                        line = await table.reply(s)
                    replies.append(line)
                    continue
                lines = []
                for part in range(len(kinds[s])):  # noqa: B007 (the failure handler reads it)
                    line = poll(s)
                    if line is None:
                        line = await table.reply(s)
                    lines.append(line)
                replies.append(tuple(lines))
            answered(exchange)
            exchange = send(replies)
    except StopIteration:
        return
    except SeatFailure as failure:
        assert exchange is not None  # a table fails only while an exchange is under way
        referee.judge_read(exchange, _read(exchange, replies, lines))
        message = exchange.messages[0] if exchange.seat is not None else exchange.messages[s]
        kind = exchange.kind
        if exchange.kinds is None:
            raise referee.fault(failure.seat, kind, failure.reason, sent=message,
                                received=failure.received, legal=failure.legal,
                                seat_failure=True) from None
        raise referee.fault(failure.seat, exchange.kinds[s][part], failure.reason,
                            sent=message[part], received=failure.received, legal=failure.legal,
                            part=part, seat_failure=True) from None


def _read(exchange: Exchange, replies: list, lines: list) -> list[list[bytes]]:
    """The replies read of ``exchange`` when a seat failed (see :meth:`Referee.judge_read`):
    for each seat asked, in order, its lines read."""
    kinds = exchange.kinds
    if exchange.seat is not None:
        return [[]] if kinds is None else [list(lines)]
    if kinds is None:
        return [[reply] for reply in replies]
    return [*[list(reply) for reply in replies], list(lines)]


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
        seat, kinds = exchange.seat, exchange.kinds
        seats = range(len(exchange.messages)) if seat is None else (seat,)
        for s, message in zip(seats, exchange.messages):
            parts = zip(kinds[s], message) if kinds is not None else ((exchange.kind, message),)
            replies = self._replies[s] = []
            for kind, part in parts:
                reply = self.seats[s].receive(part)
                replies.append(reply)
                if reply is None:
                    return  # poll reports it, after the replies before it
                if self.transcript is not None:
                    self.transcript.append((s, kind, part, reply))

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

"""Play a round in-process: a :class:`~pokerbots.server.referee.Referee` against client objects.

Used by the tests and handy for simulations: no processes, no pipes. Each seat is anything with
``receive(message: bytes) -> bytes | None`` (a :class:`pokerbots.protocol.client.Client`).
"""

from __future__ import annotations


def play_local(referee, seats, *, transcript: list | None = None) -> None:
    """Drive ``referee.exchanges()`` to the end with ``seats[s]`` answering for seat ``s``.

    With ``transcript``, append ``(seat, kind, message, reply)`` for every message. A reply the
    referee refuses raises its :class:`~pokerbots.server.errors.BotFault`.
    """
    exchanges = referee.exchanges()
    exchange = exchanges.send(None)
    try:
        while True:
            seat, kind, payload = exchange
            if seat is None:
                replies = [seats[s].receive(m) for s, m in enumerate(payload)]
                if transcript is not None:
                    transcript.extend((s, kind, m, r)
                                      for s, (m, r) in enumerate(zip(payload, replies)))
            else:
                replies = seats[seat].receive(payload)
                if transcript is not None:
                    transcript.append((seat, kind, payload, replies))
            exchange = exchanges.send(replies)
    except StopIteration:
        pass

"""Drive a Referee in-process, as the process layer would, with scripted bots.

A bot here is a function ``reply(seat, kind, message) -> bytes``; :func:`honest` answers every
bookkeeping message correctly so a test only scripts the decisions it cares about.
"""

from __future__ import annotations

from pokerbots.protocol import GOODBYE
from pokerbots.server.referee import Referee


def money_line(referee: Referee, seat: int) -> bytes:
    b = referee.bankrolls
    return ("Money: " + ",".join(map(str, b[seat:] + b[:seat]))).encode()


def table_bet(message: bytes) -> int:
    """The largest money-in-front value among the Action lines of a play message."""
    return max(int(line.rsplit(b" ", 1)[1]) for line in message.split(b"\n")
               if line.startswith(b"Action: "))


def honest(referee: Referee, decide):
    """A reply function: correct bookkeeping replies, ``decide(seat, message)`` for play."""

    def reply(seat: int, kind: str, message: bytes) -> bytes:
        if kind in ("init_round", "init_hand"):
            return b"READY"
        if kind == "end_hand":
            return b"OK"
        if kind == "end_action":
            return money_line(referee, seat)
        if kind == "end_round":
            return GOODBYE.encode()
        return decide(seat, message)

    return reply


def check_call(seat: int, message: bytes) -> bytes:
    return b"BET %d" % table_bet(message)


def run(referee: Referee, reply) -> list[tuple[int, str, bytes, bytes]]:
    """Play the round; return the transcript as (seat, kind, message, reply) tuples."""
    transcript = []
    exchanges = referee.exchanges()
    exchange = exchanges.send(None)
    try:
        while True:
            seat, kind, payload = exchange
            if seat is not None:
                answer = reply(seat, kind, payload)
                transcript.append((seat, kind, payload, answer))
                exchange = exchanges.send(answer)
            else:
                answers = [reply(s, kind, m) for s, m in enumerate(payload)]
                transcript.extend((s, kind, m, a) for s, (m, a) in enumerate(zip(payload, answers)))
                exchange = exchanges.send(answers)
    except StopIteration:
        pass
    return transcript


def seat_view(transcript, seat: int) -> str:
    """What one seat saw and said, as a protocol transcript."""
    return "".join(m.decode() + a.decode() + "\n" for s, _, m, a in transcript if s == seat)


class Scripted:
    """A random.Random stand-in that returns scripted values from randrange (end draws)."""

    def __init__(self, values):
        self.values = list(values)

    def randrange(self, _stop):
        return self.values.pop(0)

"""Drive a Referee in-process, as the process layer would, with scripted bots.

A bot here is a function ``reply(seat, kind, message) -> bytes``; :func:`honest` answers every
bookkeeping message correctly so a test only scripts the decisions it cares about.
"""

from __future__ import annotations

from pokerbots.protocol import GOODBYE
from pokerbots.protocol.wire import Kind
from pokerbots.server.games import make_game
from pokerbots.server.games.base import Deal
from pokerbots.server.referee.coalesce import Ask
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee


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


class _Scripted:
    """A seat answered by ``reply(seat, kind, message)``, as the driver's local table asks."""

    def __init__(self, seat: int, reply) -> None:
        self.seat = seat
        self.reply = reply
        self.kind = None

    def receive(self, message: bytes) -> bytes:
        return self.reply(self.seat, _kind(message), message)


def _kind(message: bytes) -> str:
    first = message.split(b"\n", 1)[0]
    return "end_action" if first.startswith(b"EndAction") else first.decode()


def run(referee: Referee, reply) -> list[tuple[int, str, bytes, bytes]]:
    """Play the round with the one driver; return the transcript as (seat, kind, message,
    reply) tuples (kind as the message's name)."""
    transcript: list = []
    seats = [_Scripted(s, reply) for s in range(referee.players)]
    try:
        play_local(referee, seats, transcript=transcript)
    finally:
        transcript[:] = [(s, k.value, m, r) for s, k, m, r in transcript]
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


# The protocol document's example, as player 0 sees it. Two of the document's typos are
# corrected on the server's side: lists never have spaces ("-,-,K", not "-, -, K"). The bot's
# own reply "Money: -2, -1, 3" keeps its spaces: the protocol accepts spaces after commas.
SEED_TRANSCRIPT = """\
init_round
Money: 0,0,0
Blinds: 1,1,1
Button: 1
EndProb: 50,100
READY
init_hand
Hand: 0
Cards: Q
READY
play
Action: BLIND 1
Action: BLIND 1
Action: BET 2
BET 2
end_hand
Action: BET 2
Action: FOLD 1
Action: PASS 2
Showdown: -,-,K
Pots: 5,2
OK
EndAction: OK
EndAction: OK
EndAction: OK
Money: -2, -1, 3
init_hand
Hand: 1
Cards: A
READY
play
Action: BLIND 1
Action: BLIND 1
Action: BLIND 1
BET 2
end_hand
Action: BET 2
Action: FOLD 1
Action: FOLD 1
Showdown: -,-,-
Pots: 4,0
OK
EndAction: OK
EndAction: OK
EndAction: OK
Money: 0,-2,2
end_round
Bankrolls: 0,-2,2
NumHands: 2
Thank you dealer, have a nice day!
"""

#: Who does what in the example: seat -> its decisions in order.
SEED_DECISIONS = {0: ["BET 2", "BET 2"], 1: ["FOLD 1", "FOLD 1"], 2: ["BET 2", "FOLD 1"]}


def seed_referee() -> Referee:
    """The example's round: button on seat 1, then seat 2; the round ends after two hands."""
    deals = [Deal((("Q",), ("J",), ("K",))), Deal((("A",), ("K",), ("Q",)))]
    # End draws: 99 >= 50 continues after hand 0, 0 < 50 ends after hand 1.
    return Referee(make_game("kuhn", 3), Scripted([99, 0]), end_prob=(50, 100), button=1,
                   deals=deals)


# -- answering the referee's exchanges directly (no driver) ------------------------------


def good_reply(referee: Referee, seat: int, kind: str, part: int | None) -> bytes:
    if kind == "play":
        return b"BET %d" % referee._hand.legal().call
    if kind == "end_hand":
        return b"OK"
    return referee.expected(seat, Kind(kind), part).encode()


def slots(exchange) -> list[tuple[int, int | None, str]]:
    """Every reply an exchange asks for, as (seat, part of the seat's write, kind name)."""
    if isinstance(exchange, Ask):
        return [(exchange.seat, i, kind.value) for i, kind in enumerate(exchange.kinds)]
    return [(s, i, kind.value) for s, kinds in enumerate(exchange.kinds)
            for i, kind in enumerate(kinds)]


def replies_for(referee: Referee, exchange, bad=None):
    """Good replies to every slot of ``exchange``, except ``bad = ((seat, part), reply)``."""
    answers = {}
    for seat, part, kind in slots(exchange):
        answer = good_reply(referee, seat, kind, part)
        if bad is not None and bad[0] == (seat, part):
            answer = bad[1]
        answers[seat, part] = answer
    if isinstance(exchange, Ask):
        return [answers[exchange.seat, i] for i in range(len(exchange.kinds))]
    return [[answers[s, i] for i in range(len(kinds))] for s, kinds in enumerate(exchange.kinds)]

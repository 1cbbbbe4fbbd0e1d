"""What goes out in each write: the referee's messages gathered into the driver's exchanges.

The referee's rules (:meth:`~.referee.Referee.exchanges`) say what each seat must be told and
asked, one step at a time:

* a :class:`Notice` tells every seat something whose reply decides nothing that follows
  (``init_round``, ``init_hand``, ``end_hand`` when OK is its only answer, the ``EndAction``
  lines, ``end_round``): each seat's message and the one reply it must send;
* a :class:`Question` asks one seat (``play``) or every seat (``end_hand`` when a seat may
  answer REBUY) something whose reply the rules need to go on.

The :class:`Coalescer` decides when each goes out, and turns the steps into the driver's two
exchange kinds: an :class:`Ask` of one seat and a :class:`Tell` to every seat, each carrying
one or several messages to a seat in one write, each message answered by its own line. A
notice waits to go out with the next message to the same seat:

* **deferred** (:attr:`Coalescer.defer`, set for a match on one CPU): until the seat's next
  question, so that a seat hears of a hand when it is first asked to act in it, and a hand of
  three decisions takes three writes, one per decision;
* otherwise: everything that waits goes to every seat as a hand starts (the first decision's
  ``play`` in the same write to the seat that makes it), so that bots doing work there do it
  side by side.

``init_round`` and ``end_round`` go out at once; a game whose hands end with a question to
every seat (REBUY) is never deferred. Each seat receives the same bytes either way; only when
they arrive differs. The coalescer judges the replies to what waited (with the referee's
``judge``), in the order the seats' lines were read, before the rules see the reply they asked
for.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any, Final

from pokerbots.protocol.wire import Kind


class Notice:
    """Messages to every seat whose replies decide nothing that follows: ``messages[s]`` to
    seat ``s``, which must answer ``answers[s]``; ``hand`` is the hand they belong to (None:
    the round's). With ``now`` they go out at once, with whatever waits."""

    __slots__ = ("kind", "messages", "answers", "hand", "now")

    def __init__(self, kind: Kind, messages: Sequence[bytes], answers: Sequence[bytes],
                 hand: int | None, now: bool = False) -> None:
        self.kind = kind
        self.messages = messages
        self.answers = answers
        self.hand = hand
        self.now = now


class Question:
    """A message whose reply the rules need: to ``seat`` (``messages[0]``), answered by its
    reply line, or with ``seat`` None to every seat (``messages[s]``), answered by the list
    of their lines in seat order."""

    __slots__ = ("kind", "seat", "messages")

    def __init__(self, kind: Kind, seat: int | None, messages: Sequence[bytes]) -> None:
        self.kind = kind
        self.seat = seat
        self.messages = messages


class Ask:
    """One write to one seat, ``seat``: ``messages`` sent together, of the kinds ``kinds``,
    each answered by its own line. The driver answers with the list of the seat's lines."""

    # A plain class rather than a NamedTuple: one is made per decision, and a compiled class
    # is built without running Python code.
    __slots__ = ("seat", "messages", "kinds")

    def __init__(self, seat: int, messages: Sequence[bytes], kinds: Sequence[Kind]) -> None:
        self.seat = seat
        self.messages = messages
        self.kinds = kinds


class Tell:
    """One write to every seat: ``messages[s]`` sent together to seat ``s``, of the kinds
    ``kinds[s]``, each answered by its own line. The driver answers with a list, in seat
    order, of each seat's list of lines."""

    __slots__ = ("messages", "kinds")

    def __init__(self, messages: list[Sequence[bytes]], kinds: list[Sequence[Kind]]) -> None:
        self.messages = messages
        self.kinds = kinds

    @property
    def seat(self) -> None:
        """No one seat: every seat is asked."""
        return None


#: What the driver posts.
Exchange = Ask | Tell


class Part:
    """A message to one seat whose reply decides nothing that follows, waiting to go out with
    the next (or gone out in the write in flight): ``hand`` is the hand it belongs to (for a
    fault) and ``answer`` its only right reply."""

    __slots__ = ("kind", "message", "hand", "answer")

    def __init__(self, kind: Kind, message: bytes, hand: int | None, answer: bytes) -> None:
        self.kind = kind
        self.message = message
        self.hand = hand
        self.answer = answer


#: The flight of a write that carried nothing that waited (never added to).
_NOTHING: Final[list[Part]] = []
#: The kinds of a write of one play message.
_PLAY: Final = (Kind.PLAY,)


class Coalescer:
    """Gathers a round's notices and questions into writes (see the module's docstring).

    ``judge(seat, part, reply)`` judges a reply to a :class:`Part` (raising the fault it is).
    ``defer`` may change between hands: it is read as each hand starts. ``rebuy``: the game's
    hands end with a question to every seat, and are never deferred."""

    def __init__(self, players: int, judge: Callable[[int, Part, bytes], None], *,
                 defer: bool = False, rebuy: bool = False) -> None:
        self.players = players
        self.defer = defer
        self._judge = judge
        self._rebuy = rebuy
        #: What waits to go out to each seat.
        self.pending: list[list[Part]] = [[] for _ in range(players)]
        #: What went out to each seat in the write in flight, before the question's message.
        self.flight: list[list[Part]] = [[] for _ in range(players)]
        #: The question of the write in flight, if it holds one.
        self.question: Question | None = None

    def exchanges(self, rules: Generator[Notice | Question, Any, None]
                  ) -> Generator[Exchange, Any, None]:
        """The driver's exchanges for the round ``rules`` plays (see :meth:`Referee.exchanges
        <pokerbots.server.referee.referee.Referee.exchanges>`)."""
        n = self.players
        pending = self.pending
        send = rules.send
        answer: Any = None
        # A hand has started whose messages go out as it starts (not deferred), and have not.
        starting = False
        while True:
            try:
                step = send(answer)
            except StopIteration:
                return
            answer = None
            if isinstance(step, Notice):
                if starting:  # a hand without decisions: it starts now
                    starting = False
                    self._judge_flight((yield self._tell(None)))
                kind = step.kind
                messages, answers, hand = step.messages, step.answers, step.hand
                for v in range(n):
                    pending[v].append(Part(kind, messages[v], hand, answers[v]))
                if step.now:
                    self._judge_flight((yield self._tell(None)))
                elif kind is Kind.INIT_HAND:
                    starting = not self.defer or self._rebuy
                continue
            seat = step.seat
            if seat is None:  # every seat
                if starting:
                    starting = False
                    self._judge_flight((yield self._tell(None)))
                replies = yield self._tell(step)
                self._judge_flight(replies)
                answer = [lines[-1] for lines in replies]
            elif starting:  # the hand's first decision, in the write that starts the hand
                starting = False
                replies = yield self._tell(step)
                self._judge_flight(replies)
                answer = replies[seat][-1]
            else:
                waiting = pending[seat]
                self.question = step
                if not waiting:  # the hot path: one message, one line
                    self.flight[seat] = _NOTHING
                    kinds = _PLAY if step.kind is Kind.PLAY else (step.kind,)
                    lines = yield Ask(seat, step.messages, kinds)
                    answer = lines[0]
                    continue
                self.flight[seat] = waiting
                pending[seat] = []
                lines = yield Ask(seat, [*[p.message for p in waiting], step.messages[0]],
                                  (*[p.kind for p in waiting], step.kind))
                judge = self._judge
                for i in range(len(waiting)):
                    judge(seat, waiting[i], lines[i])
                answer = lines[-1]

    def _tell(self, question: Question | None) -> Tell:
        """One write to every seat: what waits for it, and ``question``'s message to the seat
        or seats it asks."""
        messages: list[Sequence[bytes]] = []
        kinds: list[Sequence[Kind]] = []
        asked = -1 if question is None else (-2 if question.seat is None else question.seat)
        self.question = question
        for v in range(self.players):
            waiting = self.pending[v]
            message = [p.message for p in waiting]
            kind = [p.kind for p in waiting]
            if question is not None and (asked == -2 or asked == v):
                message.append(question.messages[0 if asked == v else v])
                kind.append(question.kind)
            messages.append(message)
            kinds.append(kind)
            self.flight[v] = waiting
            self.pending[v] = []
        return Tell(messages, kinds)

    def _judge_flight(self, replies: list) -> None:
        """Judge the replies to what waited, message by message, every seat's in turn (the
        question's replies are the rules' to judge)."""
        flight = self.flight
        judge = self._judge
        for i in range(max([len(parts) for parts in flight])):
            for v in range(self.players):
                if i < len(flight[v]):
                    judge(v, flight[v][i], replies[v][i])

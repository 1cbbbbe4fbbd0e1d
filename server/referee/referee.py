"""The referee: turns a game into protocol messages and judges every reply. No I/O.

:meth:`Referee.exchanges` is a generator that a driver (:mod:`.driver`) runs. Each value it
yields is an :class:`Exchange`: the messages of one step of the round, for one seat (``play``)
or for every seat at once (everything else). The driver ``send()``s back the reply line (bytes,
without the newline) or, for every seat, the list of reply lines in seat order. A reply that
breaks a rule raises :class:`~pokerbots.server.errors.BotFault` out of ``send()``; the generator
returns once every bot has said goodbye.

The referee knows no game: it asks the game's hand what is legal, and the game's shape which
lines it adds to each message.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Any, Final

from pokerbots.protocol import wire
from pokerbots.protocol.wire import GOODBYE, Kind, Legal, WireError, join, rotate
from pokerbots.server.errors import BotFault
from pokerbots.server.games.base import Game, IllegalMove
from pokerbots.server.games.engine.betting import Hand, start_hand


class Exchange:
    """One step of the round: ``messages[s]`` for each seat asked. ``seat`` is the one seat asked
    (``messages`` then holds its message alone), or ``None`` when every seat is asked.

    When ``kinds`` is given the step is a bundle: ``messages[s]`` is a tuple of messages sent
    together, of the kinds ``kinds[s]``, each answered by its own line, and the reply of seat
    ``s`` is the tuple of those lines (with ``seat`` given: ``messages[0]`` for that seat, and
    ``kinds[seat]`` their kinds). ``kind`` is then the kind of the first message.
    """

    __slots__ = ("kind", "seat", "messages", "kinds")

    # A plain class rather than a NamedTuple: one is made per decision, and a compiled
    # class is built without running Python code.
    def __init__(self, kind: Kind, seat: int | None, messages: Sequence,
                 kinds: Sequence[tuple[Kind, ...]] | None = None) -> None:
        self.kind = kind
        self.seat = seat
        self.messages = messages
        self.kinds = kinds


_READY: Final = b"READY"
_FOLDED: Final = wire.action_line("FOLD", 0)  # a player who folded on an earlier street
_PASS: Final = {chips: wire.action_line("PASS", chips) for chips in range(64)}


class _Part:
    """A message to one seat whose reply decides nothing that follows, waiting to go out with
    the next: ``hand`` is the hand it belongs to (for a fault) and ``answer`` its only legal
    reply."""

    __slots__ = ("kind", "message", "hand", "answer")

    def __init__(self, kind: Kind, message: bytes, hand: int | None, answer: bytes) -> None:
        self.kind = kind
        self.message = message
        self.hand = hand
        self.answer = answer


_CURRENT = -1  # fault(): the hand follows from the kind of message


class Referee:
    """Referee of one round of ``game``.

    ``end_prob`` is the chance ``(a, b)`` = a/b that the round ends after each hand; ``hands``
    instead fixes the number of hands (the bots are then told ``EndProb: 0,1``). ``deals``
    gives the cards of each hand (the round also ends when it runs out); otherwise ``rng`` deals.
    ``rng`` also draws the first button (unless ``button`` is given) and the end of the round.
    ``on_hand`` is called with a JSON-ready record of every hand as soon as it is over.
    ``labels`` name the bots in their faults.

    Messages whose replies decide nothing that follows (``init_hand``, ``end_hand`` when OK is
    its only answer, the ``EndAction`` lines) wait to go out in one write with the next message
    to the same seat: by default the messages that start the next hand, to every seat at once.
    With ``defer``, the seat's next ``play`` (or ``end_round``): a seat hears of a hand when it
    is first asked to act in it, and a hand of three decisions takes three writes, one per
    decision. Each seat receives the same bytes either way; only when they arrive differs.
    ``defer`` may change between hands.
    """

    def __init__(
        self,
        game: Game,
        rng: random.Random,
        *,
        end_prob: tuple[int, int] = (1, 1000),
        hands: int | None = None,
        button: int | None = None,
        deals: Iterable | None = None,
        on_hand: Callable[[dict], None] | None = None,
        labels: Sequence[str] | None = None,
        defer: bool = False,
    ) -> None:
        self.game = game
        self.players = n = game.players
        self.rng = rng
        self.hands = hands
        self.end_prob = (0, 1) if hands is not None else end_prob
        self._deals: Iterator | None = iter(deals) if deals is not None else None
        self.button = rng.randrange(n) if button is None else button
        self.on_hand = on_hand
        self.labels = list(labels) if labels is not None else [None] * n
        self.bankrolls = [0] * n
        #: Hands whose result is settled, credited and logged (a fault after that, in the
        #: end_hand or Money exchange, does not take the hand back).
        self.hands_played = 0
        #: Number of the hand being played (None before the first and after the last).
        self.hand_number: int | None = None
        self._order: list[list[int]] = [rotate(list(range(n)), v) for v in range(n)]
        self._hand: Hand | None = None
        self._ended_hand: int | None = None  # the hand whose end_hand and Money replies are due
        self._end_hands: tuple[int, list[bytes]] | None = None  # its end_hand messages, by seat
        self.defer = defer
        # What waits to go out to each seat, and what went out in the write in flight.
        self._pending: list[list[_Part]] = [[] for _ in range(n)]
        self._flight: list[list[_Part]] = [[] for _ in range(n)]

    # -- the round -------------------------------------------------------------------------

    def exchanges(self) -> Generator[Exchange, Any, None]:
        n = self.players
        game = self.game
        blinds = game.blinds(self.button)
        messages = [
            wire.init_round_message(rotate(self.bankrolls, v), rotate(blinds, v),
                                    (self.button - v) % n, self.end_prob, game.round_lines(v))
            for v in range(n)
        ]
        replies = yield Exchange(Kind.INIT_ROUND, None, messages)
        self._expect_all(Kind.INIT_ROUND, replies, _READY, messages)

        number = 0
        button = self.button
        pending = self._pending
        carry = game.carry
        while True:
            deal = self._next_deal()
            if deal is None:
                break
            defer = self.defer and not carry  # read each hand: a match may move to one CPU
            self.hand_number = number
            self._hand = hand = start_hand(game, button, deal)
            self._start_betting(hand)
            for v in range(n):
                pending[v].append(_Part(Kind.INIT_HAND,
                                        wire.init_hand_message(number, hand.hole_text(v)),
                                        number, _READY))
            first = None
            if not defer:
                # One write per seat: what waits, and for the first to act its play message.
                actor = hand.to_act
                play = self._play_message(hand, actor) if actor is not None else None
                replies = yield self._bundle(actor, play)
                self._judge_bundle(replies)
                if actor is not None and play is not None:
                    first = (play, replies[actor][-1])
            yield from self._betting(hand, first)

            record = self._settle(hand, number, button)
            self.hands_played = number + 1
            if self.on_hand is not None:
                self.on_hand(record)  # before anything else can fail: the hand is played
            messages = [self._end_hand_message(hand, v, record["showdown"]) for v in range(n)]
            self._ended_hand = number
            self._end_hands = (number, messages)
            if game.carry:  # a seat may answer REBUY: the answers make the EndAction lines
                replies = yield Exchange(Kind.END_HAND, None, messages)
                words = [self._end_reply(v, replies[v], messages[v]) for v in range(n)]
            else:  # OK is the only answer: end_hand waits with the EndAction lines
                words = ["OK"] * n
                for v in range(n):
                    pending[v].append(_Part(Kind.END_HAND, messages[v], number, b"OK"))
            actions = self._end_actions(words)
            for v in range(n):
                pending[v].append(_Part(Kind.END_ACTION, actions[v], number,
                                        wire.money_reply(rotate(self.bankrolls, v))))

            number += 1
            button = (button + 1) % n
            if self._round_over():
                break

        self.hand_number = None
        ends = [wire.end_round_message(rotate(self.bankrolls, v), number) for v in range(n)]
        if not any(pending):
            replies = yield Exchange(Kind.END_ROUND, None, ends)
            self._expect_all(Kind.END_ROUND, replies, wire.GOODBYE_BYTES, ends)
            return
        for v in range(n):
            pending[v].append(_Part(Kind.END_ROUND, ends[v], None, wire.GOODBYE_BYTES))
        replies = yield self._bundle(None, None)
        self._judge_bundle(replies)

    def _end_actions(self, words: list[str]) -> list[bytes]:
        """The EndAction lines each seat receives, given every seat's answer to end_hand."""
        return [wire.end_action_message(rotate(words, v)) for v in range(self.players)]

    def _bundle(self, actor: int | None, play: bytes | None) -> Exchange:
        """One exchange sending what waits for every seat (and ``play`` to ``actor``)."""
        parts, kinds = [], []
        for v in range(self.players):
            waiting = self._pending[v]
            part = [p.message for p in waiting]
            kind = [p.kind for p in waiting]
            if v == actor and play is not None:
                part.append(play)
                kind.append(Kind.PLAY)
            parts.append(tuple(part))
            kinds.append(tuple(kind))
            self._flight[v] = waiting
            self._pending[v] = []
        return Exchange(kinds[0][0], None, parts, kinds)

    def _judge_bundle(self, replies: list) -> None:
        """Judge the replies to what waited, message by message, every seat's in turn (a play
        reply is the betting's to judge)."""
        flight = self._flight
        for i in range(max([len(parts) for parts in flight])):
            for v in range(self.players):
                if i < len(flight[v]):
                    self._judge_part(v, flight[v][i], replies[v][i])

    def _with_play(self, seat: int, play: bytes) -> Exchange:
        """One exchange sending what waits for ``seat`` and then its ``play`` message."""
        waiting = self._flight[seat] = self._pending[seat]
        self._pending[seat] = []
        kinds: list[tuple[Kind, ...]] = [()] * self.players
        kinds[seat] = (*[p.kind for p in waiting], Kind.PLAY)
        return Exchange(waiting[0].kind, seat, ((*[p.message for p in waiting], play),), kinds)

    def _judge_part(self, seat: int, part: _Part, reply: bytes) -> None:
        kind = part.kind
        if kind is Kind.END_ACTION:
            self._judge_money(seat, reply, part)
        elif kind is Kind.END_HAND:
            self._end_reply(seat, reply, part.message, part.hand)
        elif reply != part.answer and reply != part.answer + b"\r":
            answer = part.answer.decode()
            raise self.fault(seat, kind, f"expected {answer!r}" + _case(reply, part.answer),
                             sent=part.message, received=reply, legal=answer, hand=part.hand)

    def judge_read(self, exchange: Exchange, read: Sequence[Sequence[bytes]]) -> None:
        """Judge what was read of ``exchange``, which ends before every reply came (a seat
        exited, closed its output, went silent or sent too long a line): ``read[i]`` holds the
        lines read, in order, from the i-th seat asked. Each is judged as the whole exchange
        would have been, in the same order, and the first that breaks a rule raises its
        fault: the fault reported is the first rule broken, not the failure that followed
        it (a wrong Money line, then an exit, is a Money fault of the hand it answers).
        Returns when every reply read is right."""
        seats = (range(len(exchange.messages)) if exchange.seat is None
                 else (exchange.seat,))
        if exchange.kinds is None:  # one message each: other seats' replies, or nothing
            kind = exchange.kind
            for seat, message, lines in zip(seats, exchange.messages, read):
                if not lines:
                    continue
                if kind is Kind.END_HAND:
                    self._end_reply(seat, lines[0], message)
                elif kind is Kind.INIT_ROUND:
                    self._expect(seat, kind, lines[0], _READY, message)
                elif kind is Kind.END_ROUND:
                    self._expect(seat, kind, lines[0], wire.GOODBYE_BYTES, message)
            return
        hand = self._hand
        for i in range(max([len(lines) for lines in read] + [0])):
            for seat, messages, lines in zip(seats, exchange.messages, read):
                if i >= len(lines):
                    continue
                flight = self._flight[seat]
                if i < len(flight):
                    self._judge_part(seat, flight[i], lines[i])
                elif hand is not None and hand.to_act == seat:  # the play that ends a write
                    self._judge_action(hand, seat, lines[i], messages[i])

    def expected(self, seat: int, kind: Kind, part: int | None = None) -> str:
        """What ``seat`` may answer to the ``kind`` message just sent (for error reports);
        ``part`` is its place in a write of several messages, when it was one of them."""
        flight = self._flight[seat]
        if part is not None and part < len(flight):
            return flight[part].answer.decode()
        if kind is Kind.PLAY and self._hand is not None and self._hand.to_act == seat:
            return self._hand.legal().describe()
        if kind is Kind.END_ACTION:
            return f"Money: {join(rotate(self.bankrolls, seat))}"
        if kind is Kind.END_HAND:
            return self.game.end_choices(seat)
        return GOODBYE if kind is Kind.END_ROUND else "READY"

    def fault(self, seat: int, kind: Kind, reason: str, *, sent: bytes | None = None,
              received: bytes | None = None, legal: str | Legal | None = None,
              hand: int | None = _CURRENT, part: int | None = None,
              seat_failure: bool = False) -> BotFault:
        """The one fault of ``seat`` in answer to its ``kind`` message, with every fact filled
        in (the legal replies default to what the referee expected of it). ``part`` is the
        message's place in a write of several, when it was one of them; ``hand`` the hand it
        belongs to, when the kind alone does not say; ``seat_failure`` that the seat could not
        answer (see :class:`BotFault`)."""
        flight = self._flight[seat]
        if hand == _CURRENT and part is not None and part < len(flight):
            hand = flight[part].hand
        if legal is None:
            legal = self.expected(seat, kind, part)
        elif isinstance(legal, Legal):
            legal = legal.describe()
        if hand == _CURRENT:
            ended = kind is Kind.END_ACTION or kind is Kind.END_HAND
            hand = self._ended_hand if ended else self.hand_number
        return BotFault(seat, reason, bot=self.labels[seat], hand=hand, kind=kind.value,
                        sent=None if sent is None else sent.decode(), received=received,
                        legal=legal, seat_failure=seat_failure)

    def _next_deal(self):
        if self._deals is not None:
            if self.hands is not None and self.hands_played >= self.hands:
                return None
            return next(self._deals, None)
        return self.game.deal(self.rng)

    def _round_over(self) -> bool:
        if self.hands is not None:
            return self.hands_played >= self.hands
        a, b = self.end_prob
        return self.rng.randrange(b) < a

    # -- one hand --------------------------------------------------------------------------

    def _start_betting(self, hand: Hand) -> None:
        """Forget the last hand's actions (the Action lines start afresh)."""
        n = self.players
        self._blinds: list[bytes] = [wire.action_line("BLIND", chips) for chips in hand.forced]
        # last[p]: p's latest action this hand as (word, value, street, sequence number);
        # seen[v]: the sequence number of v's own latest decision.
        self._last: list[tuple[bytes, int, int] | None] = [None] * n
        self._seen: list[int] = [-1] * n
        self._fold_street: list[int | None] = [None] * n
        self._actions: list[list] = []
        self._seq: int = 0

    def _play_message(self, hand: Hand, seat: int) -> bytes:
        return wire.play_message(self._action_lines(hand, seat), hand.play_lines(seat))

    def _betting(self, hand: Hand, first: tuple[bytes, bytes] | None
                 ) -> Generator[Exchange, Any, None]:
        """Ask each seat in turn for its decision until the hand is over. ``first`` is the
        first decision's message and reply when they went out with init_hand."""
        while hand.to_act is not None:
            seat = hand.to_act
            if first is not None:
                message, reply = first
                first = None
            else:
                message = self._play_message(hand, seat)
                if self._pending[seat]:
                    replies = yield self._with_play(seat, message)
                    for part, line in zip(self._flight[seat], replies):
                        self._judge_part(seat, part, line)
                    reply = replies[-1]
                else:
                    reply = yield Exchange(Kind.PLAY, seat, (message,))
            street = hand.street
            word, value = self._judge_action(hand, seat, reply, message)
            seq = self._seq
            self._last[seat] = (wire.action_line(word, value), street, seq)
            self._seen[seat] = seq
            self._seq = seq + 1
            if word == "FOLD":
                self._fold_street[seat] = street
            self._actions.append([seat, word, value, street])

    def _action_lines(self, hand: Hand, view: int) -> bytes:
        """One ``Action:`` line per player as ``view`` sees them (the protocol's Action rule)."""
        street = hand.street
        since = self._seen[view]
        last = self._last
        fold_street = self._fold_street
        front = hand.front
        lines = []
        for p in self._order[view]:
            act = last[p]
            if act is not None and act[1] == street and (act[2] > since or p == view):
                lines.append(act[0])
            elif act is None and street == 0:
                lines.append(self._blinds[p])
            else:
                folded = fold_street[p]
                if folded is not None and folded < street:
                    lines.append(_FOLDED)
                else:
                    lines.append(_PASS.get(front[p]) or wire.action_line("PASS", front[p]))
        return b"".join(lines)

    def _judge_action(self, hand: Hand, seat: int, reply: bytes, message: bytes
                      ) -> tuple[str, int]:
        try:
            word, value = wire.read_action(reply)
        except WireError as exc:
            raise self.fault(seat, Kind.PLAY, str(exc), sent=message, received=reply,
                             legal=hand.legal()) from None
        if word == b"BET" and value == hand.call_value():
            hand.call()  # a check or a call, always legal: most replies, judged at once
            return "BET", value
        legal = hand.legal()
        why = legal.refusal(word, value)
        if why is not None:
            raise self.fault(seat, Kind.PLAY, why, sent=message, received=reply, legal=legal)
        try:
            if word == b"FOLD":
                hand.fold()
                return "FOLD", value
            if value == legal.call:
                hand.call()
            else:
                hand.raise_to(value)
        except IllegalMove as exc:
            raise self.fault(seat, Kind.PLAY, str(exc), sent=message, received=reply,
                             legal=legal) from None
        return "BET", value

    def _settle(self, hand: Hand, number: int, button: int) -> dict:
        """Credit the hand's result to the bankrolls; return its record for the logs."""
        n = self.players
        deltas = hand.deltas
        for s in range(n):
            self.bankrolls[s] += deltas[s]
        record = {
            "hand": number,
            "button": button,
            "cards": [hand.hole_text(s) for s in range(n)],
            "forced": list(hand.forced),
            "actions": self._actions,
            "showdown": [hand.showdown_text(s) for s in range(n)],
            "pots": [list(p) for p in hand.pots],
            "deltas": list(deltas),
            "bankrolls": list(self.bankrolls),
        }
        record.update(hand.record())
        return record

    def _end_hand_message(self, hand: Hand, v: int, shown: list[str]) -> bytes:
        n = self.players
        pots = [(amount, (seat - v) % n) for amount, seat in hand.pots]
        return wire.end_hand_message(self._action_lines(hand, v), rotate(shown, v), pots,
                                     hand.end_lines(v))

    # -- end of hand, end of round ---------------------------------------------------------

    def _end_reply(self, seat: int, reply: bytes, message: bytes,
                   hand: int | None = _CURRENT) -> str:
        """Judge an answer to end_hand (of ``hand``, when it waited) and apply a REBUY."""
        line = reply[:-1] if reply.endswith(b"\r") else reply
        if line != b"OK" and line != b"REBUY":
            why = "the answer to end_hand must be OK or REBUY"
            raise self.fault(seat, Kind.END_HAND, why + _case(line, b"OK") + _case(line, b"REBUY"),
                             sent=message, received=reply, hand=hand)
        try:
            self.game.end_reply(seat, line == b"REBUY")
        except IllegalMove as exc:  # a refused answer leaves the seat's stack as it was
            raise self.fault(seat, Kind.END_HAND, str(exc), sent=message,
                             received=reply, hand=hand) from None
        return "REBUY" if line == b"REBUY" else "OK"

    def _judge_money(self, seat: int, reply: bytes, part: _Part) -> None:
        if reply == part.answer:
            return
        answer = part.answer.decode()
        try:
            values = wire.read_money(reply, self.players)
        except WireError as exc:
            raise self.fault(seat, Kind.END_ACTION, str(exc), sent=part.message,
                             received=reply, legal=answer, hand=part.hand) from None
        if values != wire.read_money(part.answer, self.players):
            raise self.fault(seat, Kind.END_ACTION, "the Money totals are wrong",
                             sent=self._money_sent(seat, part), received=reply, legal=answer,
                             hand=part.hand)

    def _money_sent(self, seat: int, part: _Part) -> bytes:
        """What a wrong Money reply answered, for its fault: the hand's whole end_hand message
        (the Stacks and Pots the totals come from), then its EndAction lines."""
        for sent in self._flight[seat]:
            if sent.kind is Kind.END_HAND and sent.hand == part.hand:
                return sent.message + part.message
        if self._end_hands is not None and self._end_hands[0] == part.hand:
            return self._end_hands[1][seat] + part.message  # it went out alone (REBUY)
        return part.message

    def _expect_all(self, kind: Kind, replies: list, word: bytes, messages: list) -> None:
        for seat, reply in enumerate(replies):
            if reply != word and reply != word + b"\r":
                self._expect(seat, kind, reply, word, messages[seat])

    def _expect(self, seat: int, kind: Kind, reply: bytes, word: bytes, message: bytes) -> None:
        """Refuse ``reply`` unless it is ``word`` (a trailing ``\\r`` forgiven)."""
        if reply != word and reply != word + b"\r":
            raise self.fault(seat, kind, f"expected {word.decode()!r}" + _case(reply, word),
                             sent=message, received=reply, legal=word.decode())


def _case(reply: bytes, word: bytes) -> str:
    """Said of a refused ``reply`` that is ``word`` in another case: that case matters."""
    if reply.rstrip(b"\r").upper() == word.upper():
        return f" (the protocol's words are case-sensitive: {word.decode()!r})"
    return ""

"""The referee: the rules of a round, turned into what each seat is told and asked. No I/O.

:meth:`Referee.exchanges` is a generator that a driver (:mod:`.driver`) runs. Each value it
yields is an exchange (:mod:`.coalesce`): an :class:`~.coalesce.Ask` of one seat or a
:class:`~.coalesce.Tell` to every seat, each carrying one or several messages to a seat, each
answered by its own line. The driver ``send()``s back the lines read: for an ask, the seat's
list; for a tell, every seat's list in seat order. A reply that breaks a rule raises
:class:`~pokerbots.server.errors.BotFault` out of ``send()``; the generator returns once every
bot has said goodbye.

The referee knows no game: it asks the game's hand what is legal and plays each reply on it.
Its rules yield notices and questions; the coalescer (:mod:`.coalesce`) decides which write
each goes out in, and the render (:mod:`.render`) writes every message from the rules'
numbers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Any, Final

from pokerbots.protocol import wire
from pokerbots.protocol.wire import GOODBYE, GOODBYE_BYTES, Kind, Legal, WireError
from pokerbots.server.errors import BotFault
from pokerbots.server.games.base import Game, IllegalMove
from pokerbots.server.games.engine.betting import Hand, start_hand
from pokerbots.server.hands.record import HandRecord
from pokerbots.server.referee.coalesce import (
    Ask,
    Coalescer,
    Exchange,
    Notice,
    Part,
    Question,
)
from pokerbots.server.referee.render import Render, cards_text, shown_texts

_READY: Final = b"READY"
_OK: Final = b"OK"

_CURRENT = -1  # fault(): the hand follows from the kind of message


class Referee:
    """Referee of one round of ``game``.

    ``end_prob`` is the chance ``(a, b)`` = a/b that the round ends after each hand; ``hands``
    instead fixes the number of hands (the bots are then told ``EndProb: 0,1``). ``deals``
    gives the cards of each hand (the round also ends when it runs out); otherwise ``rng`` deals.
    ``rng`` also draws the first button (unless ``button`` is given) and the end of the round.
    ``on_hand`` is called with the record of every hand
    (:class:`~pokerbots.server.hands.record.HandRecord`) as soon as it is over.
    ``labels`` name the bots in their faults. ``seed`` is the match's seed: a mixed reply
    (``MIX``, PROTOCOL.md) is drawn from a generator of each hand's own,
    ``random.Random(f"{seed}:{hand}:mix")``, never from ``rng``, so that a round deals the
    same cards whether or not its bots mix, and replays exactly from its seed.

    Messages whose replies decide nothing that follows wait to go out with the next message
    to the same seat, as the :attr:`coalescer` decides: ``defer`` is its one switch (see
    :mod:`.coalesce`: with it, a seat's messages wait for its next ``play``; it may change
    between hands).
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
        on_hand: Callable[[HandRecord], None] | None = None,
        labels: Sequence[str] | None = None,
        defer: bool = False,
        seed: int = 0,
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
        self.seed = seed
        self.bankrolls = [0] * n
        #: Hands whose result is settled, credited and logged (a fault after that, in the
        #: end_hand or Money exchange, does not take the hand back).
        self.hands_played = 0
        #: Number of the hand being played (None before the first and after the last).
        self.hand_number: int | None = None
        self._hand: Hand | None = None
        #: Each action of the hand in progress, for its record: [seat, word, value, street].
        self._actions: list[list] = []
        #: The mixed replies of the latest hand that had one (None before the first).
        self._mixes: _Mixes | None = None
        self._ended_hand: int | None = None  # the hand whose end_hand and Money replies are due
        self._end_hands: tuple[int, list[bytes]] | None = None  # its end_hand messages, by seat
        self._render = Render(game)
        #: What goes out in each write (its ``defer`` is the match's switch).
        self.coalescer = Coalescer(n, self._judge_part, defer=defer, rebuy=game.carry)

    # -- the round -------------------------------------------------------------------------

    def exchanges(self) -> Generator[Exchange, Any, None]:
        """The round, as the driver's exchanges (see the module's docstring)."""
        return self.coalescer.exchanges(self._rules())

    def _rules(self) -> Generator[Notice | Question, Any, None]:
        """The round as what each seat must be told (a :class:`Notice`) and asked (a
        :class:`Question`, answered by its reply line, or every seat's)."""
        n = self.players
        game = self.game
        render = self._render
        yield Notice(Kind.INIT_ROUND, [render.init_round(self.bankrolls, self.button,
                                                         self.end_prob, v) for v in range(n)],
                     [_READY] * n, None, now=True)
        number = 0
        button = self.button
        while True:
            deal = self._next_deal()
            if deal is None:
                break
            self.hand_number = number
            self._hand = hand = start_hand(game, button, deal)
            render.start_hand(hand)
            actions: list[list] = []
            self._actions = actions
            yield Notice(Kind.INIT_HAND, [render.init_hand(number, hand, v) for v in range(n)],
                         [_READY] * n, number)
            while hand.to_act is not None:
                seat = hand.to_act
                message = render.play(hand, seat)
                reply = yield Question(Kind.PLAY, seat, (message,))
                street = hand.street
                word, value = self._judge_action(hand, seat, reply, message)
                render.acted(seat, word, value, street)
                actions.append([seat, word, value, street])

            record = self._settle(hand, number, button)
            self.hands_played = number + 1
            if self.on_hand is not None:
                self.on_hand(record)  # before anything else can fail: the hand is played
            shown = record["showdown"]
            messages = [render.end_hand(hand, v, shown) for v in range(n)]
            self._ended_hand = number
            self._end_hands = (number, messages)
            if game.carry:  # a seat may answer REBUY: the answers make the EndAction lines
                replies = yield Question(Kind.END_HAND, None, messages)
                words = [self._end_reply(v, replies[v], messages[v]) for v in range(n)]
            else:  # OK is the only answer: end_hand waits with the EndAction lines
                words = ["OK"] * n
                yield Notice(Kind.END_HAND, messages, [_OK] * n, number)
            yield Notice(Kind.END_ACTION, render.end_actions(words),
                         [render.money(self.bankrolls, v) for v in range(n)], number)

            number += 1
            button = (button + 1) % n
            if self._round_over():
                break

        self.hand_number = None
        yield Notice(Kind.END_ROUND, [render.end_round(self.bankrolls, number, v)
                                      for v in range(n)], [GOODBYE_BYTES] * n, None, now=True)

    def _judge_part(self, seat: int, part: Part, reply: bytes) -> None:
        """Judge ``seat``'s reply to a message that waited (its answer known beforehand)."""
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
        seats = [exchange.seat] if isinstance(exchange, Ask) else range(self.players)
        flight = self.coalescer.flight
        question = self.coalescer.question
        hand = self._hand
        for i in range(max([len(lines) for lines in read] + [0])):
            for seat, lines in zip(seats, read):
                if i >= len(lines):
                    continue
                if i < len(flight[seat]):
                    self._judge_part(seat, flight[seat][i], lines[i])
                    continue
                if question is None:
                    continue
                message = question.messages[0 if question.seat is not None else seat]
                if question.kind is Kind.END_HAND:
                    self._end_reply(seat, lines[i], message)
                elif hand is not None and hand.to_act == seat:  # the play that ends a write
                    self._judge_action(hand, seat, lines[i], message)

    def expected(self, seat: int, kind: Kind, part: int | None = None) -> str:
        """What ``seat`` may answer to the ``kind`` message just sent (for error reports);
        ``part`` is its place in a write of several messages, when it was one of them."""
        flight = self.coalescer.flight[seat]
        if part is not None and part < len(flight):
            return flight[part].answer.decode()
        if kind is Kind.PLAY and self._hand is not None and self._hand.to_act == seat:
            return self._hand.legal().describe()
        if kind is Kind.END_ACTION:
            return self._render.money(self.bankrolls, seat).decode()
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
        flight = self.coalescer.flight[seat]
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

    def _judge_action(self, hand: Hand, seat: int, reply: bytes, message: bytes
                      ) -> tuple[str, int]:
        try:
            word, value = wire.read_action(reply)
        except WireError as exc:
            if wire.is_mix(reply):  # not a single action: a mixed reply
                return self._judge_mix(hand, seat, reply, message)
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

    def _judge_mix(self, hand: Hand, seat: int, reply: bytes, message: bytes
                   ) -> tuple[str, int]:
        """Judge a mixed reply, draw its action and play it (see :class:`_Mixes`). Every item
        is judged before the draw: a mix with one item that breaks a rule is a fault, whether
        or not that item would have been drawn."""
        legal = hand.legal()
        try:
            items = wire.read_mix(reply, legal)
        except WireError as exc:
            raise self.fault(seat, Kind.PLAY, str(exc), sent=message, received=reply,
                             legal=legal) from None
        number = self.hand_number
        mixes = self._mixes
        if mixes is None or mixes.hand != number:
            mixes = self._mixes = _Mixes(number, self.seed)
        drawn = mixes.draw(items, len(self._actions))
        weight, word, value = items[drawn]
        try:
            if word == b"FOLD":
                hand.fold()
                return "FOLD", value
            if value == legal.call:
                hand.call()
            else:
                hand.raise_to(value)
        except IllegalMove as exc:
            item = f"{weight} {word.decode()} {value}"
            raise self.fault(seat, Kind.PLAY, f"item {drawn + 1} of the mix, {item!r}, was"
                             f" drawn and is not legal here: {exc}", sent=message,
                             received=reply, legal=legal) from None
        return "BET", value

    def _settle(self, hand: Hand, number: int, button: int) -> HandRecord:
        """Credit the hand's result to the bankrolls; return its record for the logs."""
        n = self.players
        deltas = hand.deltas
        for s in range(n):
            self.bankrolls[s] += deltas[s]
        record: HandRecord = {
            "hand": number,
            "button": button,
            "cards": [cards_text(hand.holes[s]) for s in range(n)],
            "forced": list(hand.forced),
            "actions": self._actions,
            "showdown": shown_texts(hand),
            "pots": [list(p) for p in hand.pots],
            "deltas": list(deltas),
            "bankrolls": list(self.bankrolls),
        }
        record.update(hand.record())  # type: ignore[typeddict-item]
        mixes = self._mixes
        if mixes is not None and mixes.hand == number:
            record["mixes"] = mixes.decided
        return record

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

    def _judge_money(self, seat: int, reply: bytes, part: Part) -> None:
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

    def _money_sent(self, seat: int, part: Part) -> bytes:
        """What a wrong Money reply answered, for its fault: the hand's whole end_hand message
        (the Stacks and Pots the totals come from), then its EndAction lines."""
        for sent in self.coalescer.flight[seat]:
            if sent.kind is Kind.END_HAND and sent.hand == part.hand:
                return sent.message + part.message
        if self._end_hands is not None and self._end_hands[0] == part.hand:
            return self._end_hands[1][seat] + part.message  # it went out alone (REBUY)
        return part.message


class _Mixes:
    """The mixed replies of hand ``hand`` and the generator that draws them,
    ``random.Random(f"{seed}:{hand}:mix")`` (made at the hand's first mix: a hand without one
    costs nothing). Each mix draws ``point = randrange(total weight)`` and plays the first item
    whose running total of weights exceeds it, so item ``i`` is drawn with probability
    ``weight_i / total``, exactly."""

    __slots__ = ("hand", "rng", "decided")

    def __init__(self, hand: int | None, seed: int) -> None:
        self.hand = hand
        self.rng = random.Random(f"{seed}:{hand}:mix")
        #: The record's ``mixes``: ``[action index, [[weight, word, value], ...], drawn]``.
        self.decided: list[list] = []

    def draw(self, items: list[tuple[int, bytes, int]], action: int) -> int:
        """Draw one of ``items`` (``(weight, word, value)``), the mix that decides the hand's
        action number ``action``; return its index, and keep the mix for the record."""
        total = 0
        for item in items:
            total += item[0]
        point = self.rng.randrange(total)
        drawn = 0
        while point >= items[drawn][0]:
            point -= items[drawn][0]
            drawn += 1
        self.decided.append([action, [[w, word.decode(), value] for w, word, value in items],
                             drawn])
        return drawn


def _case(reply: bytes, word: bytes) -> str:
    """Said of a refused ``reply`` that is ``word`` in another case: that case matters."""
    if reply.rstrip(b"\r").upper() == word.upper():
        return f" (the protocol's words are case-sensitive: {word.decode()!r})"
    return ""

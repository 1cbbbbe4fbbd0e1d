"""The referee: turns a game into protocol messages and judges every reply. No I/O.

:meth:`Referee.exchanges` is a generator that the process layer drives. Each value it yields
is one exchange:

* ``(seat, kind, message)`` -- send ``message`` (bytes) to that one seat, then ``send()`` back
  its reply line (bytes, without the newline);
* ``(None, kind, messages)`` -- send ``messages[seat]`` to every seat at once, then ``send()``
  back the list of reply lines in seat order.

``kind`` is the message name (``init_round``, ``init_hand``, ``play``, ``end_hand``,
``end_action``, ``end_round``), for time limits and error reports. A reply that breaks a rule
raises :class:`~pokerbots.server.errors.BotFault` out of ``send()``; the generator returns once
every bot has said goodbye.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Generator, Iterable, Iterator

from pokerbots.protocol import GOODBYE

from .errors import BotFault
from .games.base import Game, Hand, IllegalMove, Legal, join, rotate

Exchange = tuple  # (seat | None, kind, bytes | list[bytes])

_MAX_DIGITS = 15  # longer numbers are never a legal amount; refusing them keeps int() cheap
_MONEY = re.compile(rb"Money: -?[0-9]{1,15}(?:, *-?[0-9]{1,15})*")
_NUMBER = re.compile(rb"-?[0-9]+")


class Referee:
    """Referee of one round of ``game``.

    ``end_prob`` is the chance ``(a, b)`` = a/b that the round ends after each hand; ``hands``
    instead fixes the number of hands (the bots are then told ``EndProb: 0,1``). ``deals``
    gives the cards of each hand (the round also ends when it runs out); otherwise ``rng`` deals.
    ``rng`` also draws the first button (unless ``button`` is given) and the end of the round.
    ``on_hand`` is called with a JSON-ready record of every hand as soon as it is over.
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
    ) -> None:
        self.game = game
        self.players = n = game.players
        self.rng = rng
        self.hands = hands
        self.end_prob = (0, 1) if hands is not None else end_prob
        self._deals: Iterator | None = iter(deals) if deals is not None else None
        self.button = rng.randrange(n) if button is None else button
        self.on_hand = on_hand
        self.bankrolls = [0] * n
        #: Hands whose result is settled, credited and logged (a fault after that, in the
        #: end_hand or Money exchange, does not take the hand back).
        self.hands_played = 0
        #: Number of the hand being played (None before the first and after the last).
        self.hand_number: int | None = None
        self._order = [rotate(list(range(n)), v) for v in range(n)]
        self._hand: Hand | None = None

    # -- the round -------------------------------------------------------------------------

    def exchanges(self) -> Generator[Exchange, object, None]:
        n = self.players
        game = self.game
        blinds = game.blinds(self.button)
        a, b = self.end_prob
        messages = [
            (
                f"init_round\nMoney: {join(rotate(self.bankrolls, v))}\n"
                f"Blinds: {join(rotate(blinds, v))}\nButton: {(self.button - v) % n}\n"
                f"EndProb: {a},{b}\n{game.round_lines(v)}"
            ).encode()
            for v in range(n)
        ]
        replies = yield None, "init_round", messages
        self._expect_all(replies, b"READY", messages)

        number = 0
        button = self.button
        while True:
            deal = self._next_deal()
            if deal is None:
                break
            self.hand_number = number
            self._hand = hand = game.new_hand(button, deal)
            messages = [
                f"init_hand\nHand: {number}\nCards: {hand.hole_text(v)}\n".encode()
                for v in range(n)
            ]
            replies = yield None, "init_hand", messages
            self._expect_all(replies, b"READY", messages)

            yield from self._betting(hand)

            record = self._settle(hand, number, button)
            self.hands_played = number + 1
            if self.on_hand is not None:
                self.on_hand(record)  # before anything else can fail: the hand is played
            shown = [hand.showdown_text(s) for s in range(n)]
            messages = [self._end_hand_message(hand, v, shown).encode() for v in range(n)]
            replies = yield None, "end_hand", messages
            words = [self._end_reply(v, replies[v], messages[v]) for v in range(n)]

            messages = [
                "".join(f"EndAction: {words[s]}\n" for s in self._order[v]).encode()
                for v in range(n)
            ]
            replies = yield None, "end_action", messages
            for v in range(n):
                self._judge_money(v, replies[v], messages[v])

            number += 1
            button = (button + 1) % n
            if self._round_over():
                break

        self.hand_number = None
        messages = [
            f"end_round\nBankrolls: {join(rotate(self.bankrolls, v))}\nNumHands: {number}\n"
            .encode()
            for v in range(n)
        ]
        replies = yield None, "end_round", messages
        self._expect_all(replies, GOODBYE.encode(), messages)

    def expected(self, seat: int, kind: str) -> str:
        """What ``seat`` may answer to the ``kind`` message just sent (for error reports)."""
        if kind == "play" and self._hand is not None and self._hand.to_act == seat:
            return self._hand.legal().describe()
        if kind == "end_action":
            return f"Money: {join(rotate(self.bankrolls, seat))}"
        if kind == "end_hand":
            return self.game.end_choices(seat)
        return GOODBYE if kind == "end_round" else "READY"

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

    def _betting(self, hand: Hand) -> Generator[Exchange, object, None]:
        """Ask each seat in turn for its decision until the hand is over."""
        n = self.players
        # last[p]: p's latest action this hand as (word, value, street, sequence number);
        # seen[v]: the sequence number of v's own latest decision.
        last: list[tuple | None] = [None] * n
        seen = [-1] * n
        fold_street: list[int | None] = [None] * n
        self._last, self._seen, self._fold_street = last, seen, fold_street
        self._actions = actions = []
        seq = 0
        while hand.to_act is not None:
            seat = hand.to_act
            message = ("play\n" + self._action_lines(hand, seat) + hand.state_lines(seat)).encode()
            reply = yield seat, "play", message
            street = hand.street
            word, value = self._judge_action(hand, seat, reply, message)
            last[seat] = (word, value, street, seq)
            seen[seat] = seq
            seq += 1
            if word == "FOLD":
                fold_street[seat] = street
            actions.append([seat, word, value, street])

    def _action_lines(self, hand: Hand, view: int) -> str:
        """One ``Action:`` line per player as ``view`` sees them (the protocol's Action rule)."""
        street = hand.street
        since = self._seen[view]
        last = self._last
        lines = []
        for p in self._order[view]:
            act = last[p]
            if act is not None and act[2] == street and (act[3] > since or p == view):
                lines.append(f"Action: {act[0]} {act[1]}\n")
            elif act is None and street == 0:
                lines.append(f"Action: BLIND {hand.forced[p]}\n")
            elif self._fold_street[p] is not None and self._fold_street[p] < street:
                lines.append("Action: FOLD 0\n")
            else:
                lines.append(f"Action: PASS {hand.front[p]}\n")
        return "".join(lines)

    def _judge_action(self, hand: Hand, seat: int, reply: bytes, message: bytes):
        legal = hand.legal()
        line = reply[:-1] if reply.endswith(b"\r") else reply
        word, _, number = line.partition(b" ")
        if word != b"BET" and word != b"FOLD":
            raise self._fault(seat, self._bad_word(word, line), message, reply, legal)
        if not (number.isdigit() and len(number) <= _MAX_DIGITS) or (
            number[:1] == b"0" and len(number) > 1
        ):
            why = (f"{number.decode('utf-8', 'replace')!r} is not a whole number of chips"
                   if number else f"{word.decode()} needs a value: the money in front")
            raise self._fault(seat, why, message, reply, legal)
        value = int(number)
        try:
            if word == b"BET":
                if value == legal.call:
                    hand.call()
                elif legal.raise_min is not None and legal.raise_min <= value <= legal.raise_max:
                    hand.raise_to(value)
                else:
                    raise IllegalMove(self._bad_bet(value, legal))
                return "BET", value
            if not legal.fold:
                raise IllegalMove("folding is not allowed when checking is free")
            if value != legal.front:
                raise IllegalMove(f"FOLD must state the money in front, {legal.front}, not {value}")
            hand.fold()
            return "FOLD", value
        except IllegalMove as exc:
            raise self._fault(seat, str(exc), message, reply, legal) from None

    @staticmethod
    def _bad_word(word: bytes, line: bytes) -> str:
        if word == b"PASS":
            return "PASS is only for a player who cannot act, and this bot was asked to act"
        if not line:
            return "an empty line where an action was due"
        if not word:
            return "the reply starts with a space"
        why = f"unknown action {word.decode('utf-8', 'replace')!r}"
        if word.upper() in (b"BET", b"FOLD", b"PASS"):
            return why + " (actions are in capitals: BET, FOLD)"
        return why + "; the reply must be BET <value> or FOLD <value>"

    @staticmethod
    def _bad_bet(value: int, legal: Legal) -> str:
        if legal.raise_min is None or value < legal.call:
            if value < legal.call:
                return (
                    f"BET {value} leaves less than the {legal.call} needed to "
                    + ("check" if legal.call == legal.front else "call")
                    + " (the value is the money in front after the action)"
                )
            return f"BET {value} is a raise, and no raise is allowed here"
        if value < legal.raise_min:
            return f"BET {value} raises less than the minimum, BET {legal.raise_min}"
        return f"BET {value} is more than the maximum, BET {legal.raise_max}"

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

    def _end_hand_message(self, hand: Hand, v: int, shown: list[str]) -> str:
        n = self.players
        pots = " ".join(f"{amount},{(seat - v) % n}" for amount, seat in hand.pots)
        return (
            f"end_hand\n{self._action_lines(hand, v)}Showdown: {','.join(rotate(shown, v))}\n"
            f"Pots: {pots}\n{hand.end_lines(v)}"
        )

    # -- end of hand, end of round ---------------------------------------------------------

    def _end_reply(self, seat: int, reply: bytes, message: bytes) -> str:
        line = reply[:-1] if reply.endswith(b"\r") else reply
        if line not in (b"OK", b"REBUY"):
            raise self._fault(seat, "the answer to end_hand must be OK or REBUY", message, reply,
                              self.game.end_choices(seat))
        try:
            self.game.end_reply(seat, line == b"REBUY")
        except IllegalMove as exc:  # a refused answer leaves the seat's stack as it was
            raise self._fault(seat, str(exc), message, reply,
                              self.game.end_choices(seat)) from None
        return line.decode()

    def _judge_money(self, seat: int, reply: bytes, message: bytes) -> None:
        expected = rotate(self.bankrolls, seat)
        exact = f"Money: {join(expected)}".encode()
        if reply == exact:
            return
        line = reply[:-1] if reply.endswith(b"\r") else reply
        if _MONEY.fullmatch(line):
            if [int(v) for v in _NUMBER.findall(line)] == expected:
                return
            if len(_NUMBER.findall(line)) == self.players:
                raise self._fault(seat, "the Money totals are wrong", message, reply,
                                  f"Money: {join(expected)}")
        raise self._fault(seat, f"the reply must be 'Money: ' and {self.players} whole numbers",
                          message, reply, f"Money: {join(expected)}")

    def _expect_all(self, replies: list, word: bytes, messages: list) -> None:
        for seat, reply in enumerate(replies):
            if reply != word and reply != word + b"\r":
                raise self._fault(seat, f"expected {word.decode()!r}", messages[seat], reply,
                                  word.decode())

    def _fault(self, seat, why, message, reply, legal) -> BotFault:
        if isinstance(legal, Legal):
            legal = legal.describe()
        return BotFault(seat, why, hand=self.hand_number, sent=message.decode(),
                        received=reply, legal=legal)

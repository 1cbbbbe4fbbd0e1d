"""Every message the server sends, written from the rules' numbers, and the memos of its texts.

The rules give numbers: the betting engine (:class:`~pokerbots.server.games.engine.betting.Hand`)
chips, seats, streets and cards, the game the lines of its table, the referee each action and
the bankrolls. :class:`Render` writes each message of PROTOCOL.md from them, as one seat sees
it (rotated: the seat is player 0), and the ``Money`` line each seat owes after a hand. Nothing
else in the server writes a message's text.

A round has one :class:`Render`. Its state is what the protocol's Action rule needs (each
seat's latest action this hand, and which of them each seat has seen) and the texts it made
last, kept while the numbers they were made from hold (the board, the pot, the stacks and the
totals change only when chips or cards move, and go out in every Hold'em ``play`` message).

Performance: a ``play`` message is one join of its pieces. The texts that recur from hand to
hand (Action lines, the raise range, the stacks as every seat reads them) are kept in
:class:`~pokerbots.protocol.memo.Memo` tables, named ``render.*``; the performance page says
what each saves.
"""

from __future__ import annotations

from typing import Final

from pokerbots.protocol.memo import Memo
from pokerbots.protocol.wire import join, rotate
from pokerbots.server.games.base import BySeat, Game
from pokerbots.server.games.engine.betting import Hand

#: Every line a game's shape may name in ``play`` and ``end_hand``; :meth:`Render._field`
#: writes each, by its place here (a native call on an int, where a table of functions would
#: cost a generic call per line of every message).
FIELDS: Final = ("Board", "Pot", "Stacks", "Raise", "Totals")

#: ``Action: BET <value>`` lines by value, one a decision (most of them). 4096: the amounts
#: one match's bots bet (a few hundred in no-limit).
_BETS: Final[Memo[int, bytes]] = Memo("render.bets", 4096)
#: ``Action: PASS <chips>`` lines by chips, several in every play message. 4096, as above.
_PASSES: Final[Memo[int, bytes]] = Memo("render.passes", 4096)
#: Each seat's ``Action: BLIND`` line by the forced bets of a hand: one set per button (and
#: per short stack). 1024: the buttons of tables with short stacks over a few hands.
_BLINDS: Final[Memo[tuple[int, ...], list[bytes]]] = Memo("render.blinds", 1024)
#: Every seat's ``EndAction`` lines by the seats' answers to end_hand: all OK but where a
#: seat REBUYs. 1024: every pattern of answers at ten seats.
_END_ACTIONS: Final[Memo[tuple[str, ...], list[bytes]]] = Memo("render.end_actions", 1024)
#: The ``Raise:`` value by (min, max): the same ranges recur (a big blind's raise, all-in).
#: 4096: the ranges of one match's hands, bounded by its stacks and bets.
_RAISES: Final[Memo[tuple[int, int], str]] = Memo("render.raises", 4096)
#: The ``Stacks:`` and ``Totals:`` values for every view at once, by the chips they show: the
#: same stacks recur after the same calls. 4096: a table's chip counts within a few hands.
_CHIPS: Final[Memo[tuple[int, ...], tuple[str, tuple[int, ...], int]]] = Memo("render.chips",
                                                                             4096)

#: A player who folded on an earlier street.
_FOLDED: Final = b"Action: FOLD 0\n"

_Lines = list[tuple[str, int]]


def action_line(word: str, value: int) -> bytes:
    """``Action: FOLD 1\\n`` (a blind, a fold: the lines made once a hand or less)."""
    return f"Action: {word} {value}\n".encode()


def cards_text(cards: tuple[str, ...]) -> str:
    """A seat's cards as a message (and the hand record) writes them: ``Ah Kd``; ``Q``."""
    return " ".join(cards)


def shown_texts(hand: Hand) -> list[str]:
    """Once a hand is over: the cards each seat shows (only winners of a contested pot show),
    or ``-``, by seat."""
    return [cards_text(hand.holes[s]) if hand.shows(s) else "-" for s in range(hand.players)]


class Render:
    """The messages of one round of ``game``."""

    def __init__(self, game: Game) -> None:
        n = game.players
        self.players = n
        self._game = game
        shape = game.type.shape
        self._play: _Lines = _lines_of(shape.play)
        self._end: _Lines = _lines_of(shape.end)
        self._facts = game.round_facts()
        # The Action rule (see start_hand and acted).
        self._blinds: list[bytes] = []
        self._last: list[tuple[bytes, int, int] | None] = [None] * n
        self._seen: list[int] = [-1] * n
        self._fold_street: list[int] = [-1] * n
        self._seq = 0
        # The texts made last, kept while they hold.
        self._board: tuple[str, ...] = ()
        self._revealed = -1
        self._board_text = "-"
        self._pot = -1
        self._pot_text = ""
        self._stacks = _Ring()
        self._totals = _Ring()
        self._bankrolls = _Ring(keep=False)  # new every hand: not worth a memo

    # -- a round -------------------------------------------------------------------------

    def init_round(self, bankrolls: list[int], button: int, end_prob: tuple[int, int],
                   view: int) -> bytes:
        """``init_round`` for seat ``view``; ``button`` is the first hand's (absolute)."""
        n = self.players
        game = self._game
        facts = "".join([f"{name}: {_fact(value, view)}\n" for name, value in self._facts])
        return (f"init_round\nMoney: {join(rotate(bankrolls, view))}\n"
                f"Blinds: {join(rotate(game.blinds(button), view))}\n"
                f"Button: {(button - view) % n}\nEndProb: {end_prob[0]},{end_prob[1]}\n"
                f"{facts}").encode()

    def end_round(self, bankrolls: list[int], hands: int, view: int) -> bytes:
        return (f"end_round\nBankrolls: {join(rotate(bankrolls, view))}\n"
                f"NumHands: {hands}\n").encode()

    def money(self, bankrolls: list[int], view: int) -> bytes:
        """The ``Money`` line seat ``view`` owes after a hand: the bankrolls, itself first
        (:func:`~pokerbots.protocol.wire.money_reply`'s text, made once for every view)."""
        return b"Money: " + self._bankrolls.view(bankrolls, view).encode()

    # -- a hand --------------------------------------------------------------------------

    def start_hand(self, hand: Hand) -> None:
        """A new hand: the Action lines start afresh, with each seat's forced bet."""
        n = self.players
        forced = tuple(hand.forced)
        blinds = _BLINDS.get(forced)
        if blinds is None:
            blinds = _BLINDS.keep(forced, [action_line("BLIND", chips) for chips in forced])
        self._blinds = blinds
        self._last = [None] * n
        self._seen = [-1] * n
        self._fold_street = [-1] * n
        self._seq = 0

    def acted(self, seat: int, word: str, value: int, street: int) -> None:
        """``seat`` played ``word value`` (``BET`` or ``FOLD``) on ``street``."""
        seq = self._seq
        if word == "BET":
            line = _BETS.get(value)
            if line is None:
                line = _BETS.keep(value, b"Action: BET %d\n" % value)
        else:
            line = action_line(word, value)
        self._last[seat] = (line, street, seq)
        self._seen[seat] = seq
        self._seq = seq + 1
        if word == "FOLD":
            self._fold_street[seat] = street

    def init_hand(self, number: int, hand: Hand, view: int) -> bytes:
        return f"init_hand\nHand: {number}\nCards: {cards_text(hand.holes[view])}\n".encode()

    def play(self, hand: Hand, view: int) -> bytes:
        """``play`` for the seat to act, ``view``."""
        parts = [b"play\n"]
        self._actions(parts, hand, view)
        if self._play:
            parts.append(self._fields(hand, self._play, view).encode())
        return b"".join(parts)

    def end_hand(self, hand: Hand, view: int, shown: list[str]) -> bytes:
        """``end_hand`` for seat ``view``; ``shown`` is each seat's :func:`shown_texts`."""
        n = self.players
        parts = [b"end_hand\n"]
        self._actions(parts, hand, view)
        pots = " ".join([f"{amount},{(seat - view) % n}" for amount, seat in hand.pots])
        parts.append(f"Showdown: {','.join(rotate(shown, view))}\nPots: {pots}\n".encode())
        if self._end:
            parts.append(self._fields(hand, self._end, view).encode())
        return b"".join(parts)

    def end_actions(self, words: list[str]) -> list[bytes]:
        """The EndAction lines each seat receives, given every seat's answer to end_hand."""
        key = tuple(words)
        lines = _END_ACTIONS.get(key)
        if lines is None:
            lines = _END_ACTIONS.keep(key, [
                "".join([f"EndAction: {w}\n" for w in rotate(words, v)]).encode()
                for v in range(self.players)])
        return lines

    def _actions(self, parts: list[bytes], hand: Hand, view: int) -> None:
        """One ``Action:`` line per player as ``view`` sees them (the protocol's Action rule):
        its latest action this street if ``view`` has not seen it (its own always shows),
        else its blind before any action, ``FOLD 0`` after folding on an earlier street, else
        ``PASS`` with its money in front."""
        street = hand.street
        since = self._seen[view]
        last = self._last
        fold_street = self._fold_street
        front = hand.front
        blinds = self._blinds
        n = self.players
        for i in range(n):
            p = view + i
            if p >= n:
                p -= n
            act = last[p]
            if act is not None and act[1] == street and (act[2] > since or p == view):
                parts.append(act[0])
            elif act is None and street == 0:
                parts.append(blinds[p])
            else:
                folded = fold_street[p]
                if 0 <= folded < street:
                    parts.append(_FOLDED)
                else:
                    chips = front[p]
                    line = _PASSES.get(chips)
                    if line is None:
                        line = _PASSES.keep(chips, b"Action: PASS %d\n" % chips)
                    parts.append(line)

    # -- the lines a game adds (its shape's) ---------------------------------------------

    def _fields(self, hand: Hand, lines: _Lines, view: int) -> str:
        # One join of every piece (each heading but the first starts with the newline that
        # ends the line before): an f-string per line and a join of the lines cost twice as
        # much, in every play message.
        parts: list[str] = []
        for head, number in lines:
            parts.append(head)
            parts.append(self._field(hand, number, view))
        parts.append("\n")
        return "".join(parts)

    def _field(self, hand: Hand, number: int, view: int) -> str:
        if number == 0:  # Board
            revealed = hand.revealed
            if revealed != self._revealed or hand.board is not self._board:
                self._board, self._revealed = hand.board, revealed
                self._board_text = " ".join(hand.board[:revealed]) or "-"
            return self._board_text
        if number == 1:  # Pot
            pot = hand.pot
            if pot != self._pot:
                self._pot = pot
                self._pot_text = str(pot)
            return self._pot_text
        if number == 2:  # Stacks
            return self._stacks.view(hand.stack, view)
        if number == 3:  # Raise
            rr = hand.raise_range()
            if rr is None:
                return "-"
            text = _RAISES.get(rr)
            if text is None:
                text = _RAISES.keep(rr, f"{rr[0]},{rr[1]}")
            return text
        return self._totals.view(hand.total, view)  # Totals

    def field(self, hand: Hand, name: str, view: int) -> str:
        """The value of the named line of a ``play`` or ``end_hand`` message, as seat ``view``
        sees it (the names a game's :class:`~pokerbots.protocol.wire.Shape` lists)."""
        return self._field(hand, FIELDS.index(name), view)


def _lines_of(names: tuple[str, ...]) -> _Lines:
    """(heading, field number) for each named line."""
    return [(("\n" if k else "") + f"{name}: ", FIELDS.index(name))
            for k, name in enumerate(names)]


def _fact(value: str | int | tuple[int, ...] | BySeat, view: int) -> str:
    """A game's init_round value as seat ``view`` reads it (see
    :data:`~pokerbots.server.games.base.RoundFact`)."""
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, BySeat):
        return join(rotate(list(value.values), view))
    return join(value)


class _Ring:
    """The chips of every seat as a line's value, ``chips`` from seat ``view`` on,
    comma-separated (``"19900,19950,20150"``), as each seat sees them.

    Stacks go out in every Hold'em play message and change only when chips move: the text
    is made once for every view (the seats' chips written twice around the table, cut at the
    view) and made again only when the chips differ from those it was made from; with
    ``keep``, texts are kept by the chips they show (chips that recur)."""

    def __init__(self, keep: bool = True) -> None:
        self.keep = keep
        self.chips: list[int] = []
        self.text = ""
        self.cuts: tuple[int, ...] = ()
        self.width = 0

    def view(self, chips: list[int], view: int) -> str:
        made = self.chips
        n = len(chips)
        if len(made) != n:
            self._make(chips)
        else:
            for s in range(n):
                if chips[s] != made[s]:
                    self._make(chips)
                    break
        start = self.cuts[view]
        return self.text[start:start + self.width]

    def _make(self, chips: list[int]) -> None:
        self.chips = list(chips)
        key = tuple(chips)
        made = _CHIPS.get(key) if self.keep else None
        if made is None:
            texts = [str(c) for c in chips]
            cuts: list[int] = []
            at = 0
            for text in texts:
                cuts.append(at)
                at += len(text) + 1
            once = ",".join(texts)
            # (Tuples of texts and ints only: the collector stops looking at them.)
            made = (once + "," + once, tuple(cuts), len(once))
            if self.keep:
                _CHIPS.keep(key, made)
        self.text, self.cuts, self.width = made

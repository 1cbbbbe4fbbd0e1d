"""A small client library for poker bots written in Python.

The library answers every bookkeeping message itself (``READY``, ``OK``, ``Money: ...``, the
goodbye line) and keeps everyone's bankroll from the ``end_hand`` messages. Your code only
decides what to play::

    from pokerbots.protocol.client import run

    def decide(state):
        return state.check_or_call()      # 'BET 1', 'BET 2', ...

    run(decide)

``state`` is a :class:`State`: the game, your cards, the board, the pot, the money in front of
everyone (you are always player 0), the stacks (Hold'em), the bankrolls, the hand number, the
button, and :attr:`State.legal`, the legal replies as exact strings (``state.check_or_call()``,
``state.fold()`` (``None`` when folding is not allowed), ``state.raise_to(v)``,
``state.raise_range``).

For hooks (start and end of round and hand), subclass :class:`Bot` and pass an instance to
:func:`run`. The protocol machinery itself is :class:`Client`, a sans-I/O object: feed it the
server's lines (:meth:`Client.feed`) or whole messages (:meth:`Client.receive`) and it returns
the reply to send, so a bot can also be driven in-process (tests, simulations).

The protocol is described in PROTOCOL.md beside this file.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from . import GOODBYE

__all__ = [
    "Bot", "Client", "HandResult", "Legal", "ProtocolError", "RoundInfo", "State", "run",
    "format_money", "parse_action", "parse_cards", "parse_list", "parse_pots", "kuhn_history",
    "GAMES",
]

#: The games the server deals (the values of ``POKERBOTS_GAME``).
GAMES = ("kuhn", "holdem-nl", "holdem-limit")
STREETS = ("preflop", "flop", "turn", "river")


class ProtocolError(Exception):
    """A message the client cannot understand, or a reply from ``decide`` that is not legal."""


# -- parse and format helpers --------------------------------------------------------------------


def parse_list(text: str | bytes) -> list[int]:
    """``'1,-2, 3'`` -> ``[1, -2, 3]``."""
    return [int(v) for v in text.split("," if isinstance(text, str) else b",")]


def parse_action(text: str | bytes) -> tuple[str, int]:
    """``'BET 2'`` -> ``('BET', 2)`` (the value is the money in front)."""
    if isinstance(text, bytes):
        text = text.decode()
    word, _, value = text.partition(" ")
    return word, int(value)


def parse_cards(text: str | bytes) -> tuple[str, ...]:
    """``'Ah Kd'`` -> ``('Ah', 'Kd')``; ``'-'`` or ``''`` -> ``()``."""
    if isinstance(text, bytes):
        text = text.decode()
    text = text.strip()
    return () if text in ("-", "") else tuple(text.split())


def parse_pots(text: str | bytes) -> list[tuple[int, int]]:
    """``'30,0 15,2'`` -> ``[(30, 0), (15, 2)]``: (amount, winner) per pot share."""
    if isinstance(text, bytes):
        text = text.decode()
    pots = []
    for share in text.split():
        amount, _, winner = share.partition(",")
        pots.append((int(amount), int(winner)))
    return pots


def format_money(values) -> str:
    """``[0, -2, 2]`` -> ``'Money: 0,-2,2'``."""
    return "Money: " + ",".join(map(str, values))


# -- what a bot sees -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Legal:
    """The legal replies to a ``play`` message, as money-in-front values.

    ``call`` is the ``BET`` value that checks or calls (``call == front`` when checking is
    free; when calling would take more than your stack it is your all-in amount).
    ``raise_min``/``raise_max`` bound a bet or raise (``None`` when none is allowed).
    """

    front: int
    call: int
    can_fold: bool
    raise_min: int | None = None
    raise_max: int | None = None

    @property
    def can_check(self) -> bool:
        return self.call == self.front

    @property
    def can_raise(self) -> bool:
        return self.raise_min is not None

    @property
    def raise_range(self) -> tuple[int, int] | None:
        """``(min, max)`` money in front after a bet or raise, or ``None``."""
        return None if self.raise_min is None else (self.raise_min, self.raise_max)

    def check_or_call(self) -> str:
        return f"BET {self.call}"

    def fold(self) -> str | None:
        """``FOLD <front>``, or ``None`` when folding is not allowed (checking is free)."""
        return f"FOLD {self.front}" if self.can_fold else None

    def raise_to(self, value: int) -> str:
        """``BET <value>``: bet or raise to ``value`` in front; ValueError if not allowed."""
        if self.raise_min is None:
            raise ValueError("no bet or raise is allowed here")
        value = int(value)
        if not self.raise_min <= value <= self.raise_max:
            raise ValueError(f"a raise must be to {self.raise_min}..{self.raise_max}, not {value}")
        return f"BET {value}"

    def all_in(self) -> str | None:
        """The largest legal raise (all-in in no-limit), or ``None`` when no raise is allowed."""
        return None if self.raise_max is None else f"BET {self.raise_max}"

    def is_legal(self, reply: str) -> bool:
        word, _, number = reply.partition(" ")
        if not number.isdigit() or (number[0] == "0" and len(number) > 1):
            return False
        value = int(number)
        if word == "BET":
            return value == self.call or (
                self.raise_min is not None and self.raise_min <= value <= self.raise_max)
        return word == "FOLD" and self.can_fold and value == self.front

    def describe(self) -> str:
        """Every legal reply in words, e.g. ``BET 2 (call) or FOLD 1``."""
        parts = [f"BET {self.call} ({'check' if self.can_check else 'call'})"]
        if self.raise_min is not None:
            if self.raise_min == self.raise_max:
                parts.append(f"BET {self.raise_min}")
            else:
                parts.append(f"BET {self.raise_min} to BET {self.raise_max}")
        if self.can_fold:
            parts.append(f"FOLD {self.front}")
        return " or ".join(parts)


@dataclass(slots=True)
class RoundInfo:
    """What ``init_round`` said (lists rotated: you are player 0)."""

    game: str
    players: int
    money: list[int]
    blinds: list[int]
    button: int  # the first hand's button, relative to you
    end_prob: tuple[int, int]
    stack: int | None = None  # Hold'em: chips each player starts a hand with
    bet_sizes: tuple[int, int] | None = None  # limit Hold'em: small and big bet


@dataclass(slots=True)
class State:
    """A ``play`` message: everything needed to decide. Lists are rotated: you are index 0."""

    game: str
    players: int
    hand: int  # hand number, from 0
    button: int  # this hand's button, relative to you
    cards: tuple[str, ...]
    board: tuple[str, ...]
    pot: int  # chips collected from earlier streets (0 in Kuhn)
    fronts: list[int]  # everyone's money in front on this street
    stacks: list[int] | None  # Hold'em: everyone's chips behind; None in Kuhn
    bankrolls: list[int]  # everyone's bankroll before this hand
    actions: list[tuple[str, str | int]]  # this message's Action lines, e.g. ('BET', 2)
    legal: Legal
    round: RoundInfo = field(repr=False)

    @property
    def front(self) -> int:
        """Your money in front."""
        return self.fronts[0]

    @property
    def stack(self) -> int | None:
        """Your chips behind (Hold'em)."""
        return None if self.stacks is None else self.stacks[0]

    @property
    def table_bet(self) -> int:
        """The largest money in front on this street."""
        return max(self.fronts)

    @property
    def to_call(self) -> int:
        """Chips you must add to check or call (0 when checking is free)."""
        return self.legal.call - self.fronts[0]

    @property
    def pot_total(self) -> int:
        """Everything in the middle: earlier streets plus this street's money in front."""
        return self.pot + sum(self.fronts)

    @property
    def position(self) -> int:
        """Seats after the button (0 = left of the button, first to act in Kuhn)."""
        return (-self.button - 1) % self.players

    @property
    def street(self) -> str:
        """``preflop``, ``flop``, ``turn`` or ``river`` (Kuhn: ``preflop``)."""
        return STREETS[max(0, len(self.board) - 2)]

    @property
    def raise_range(self) -> tuple[int, int] | None:
        return self.legal.raise_range

    def check_or_call(self) -> str:
        return self.legal.check_or_call()

    def fold(self) -> str | None:
        return self.legal.fold()

    def raise_to(self, value: int) -> str:
        return self.legal.raise_to(value)

    def all_in(self) -> str | None:
        return self.legal.all_in()


@dataclass(slots=True)
class HandResult:
    """An ``end_hand`` message, plus each player's result for the hand (rotated)."""

    hand: int
    button: int
    cards: tuple[str, ...]  # your cards
    actions: list[tuple[str, int]]
    showdown: list[tuple[str, ...] | None]  # each player's shown cards, None if not shown
    pots: list[tuple[int, int]]  # (amount, winner)
    board: tuple[str, ...]
    stacks: list[int] | None  # Hold'em: stacks after the payout
    deltas: list[int]  # each player's bankroll change in this hand


def kuhn_history(state: State) -> str:
    """The Kuhn betting history before your decision, in order of play from the player left of
    the button: ``k`` check, ``b`` bet, ``c`` call, ``f`` fold (e.g. ``'kb'``, ``'bf'``).

    Works from the one ``play`` message: before your first decision the players before you
    acted once; before your second (you checked, someone bet after you) everybody between the
    bettor and you answered the bet.
    """
    n = state.players
    first = (state.button + 1) % n  # the relative seat of the first to act
    order = [(first + i) % n for i in range(n)]  # seats in order of play
    me = order.index(0)
    values = state.fronts
    if max(values) < 2:
        return "k" * me
    if state.actions[0][0] == "BLIND":  # first decision: the bet came before me
        bettor = next(i for i in range(me) if values[order[i]] == 2)
        answers = range(bettor + 1, me)
    else:  # I checked; the bettor is after me, then everybody answered around to me
        bettor = next(i for i in range(me + 1, n) if values[order[i]] == 2)
        answers = [*range(bettor + 1, n), *range(me)]
    return "k" * bettor + "b" + "".join(
        "f" if state.actions[order[i]][0] == "FOLD" else "c" for i in answers)


# -- the bot -------------------------------------------------------------------------------------


class Bot:
    """Subclass and override :meth:`decide`; the ``on_*`` hooks are optional."""

    def decide(self, state: State) -> str:
        raise NotImplementedError

    def on_round_start(self, info: RoundInfo) -> None:
        """After ``init_round`` (``info.game``, ``info.players``, ...)."""

    def on_hand_start(self, hand: int, cards: tuple[str, ...], button: int) -> None:
        """After ``init_hand``: the hand number, your cards, this hand's button."""

    def on_hand_end(self, result: HandResult) -> None:
        """After ``end_hand``: what happened and everyone's result."""

    def on_round_end(self, bankrolls: list[int], hands: int) -> None:
        """After ``end_round``: the final bankrolls and the number of hands played."""

    def rebuy(self, result: HandResult) -> bool:
        """Answer ``REBUY`` instead of ``OK`` after this hand (games with rebuys only)."""
        return False


class _FunctionBot(Bot):
    def __init__(self, decide: Callable[[State], str]) -> None:
        self.decide = decide  # type: ignore[method-assign]


def _game_from_env() -> str | None:
    game = os.environ.get("POKERBOTS_GAME") or None
    return game if game in GAMES else None


class Client:
    """The protocol machine, without any I/O.

    ``bot`` is a :class:`Bot` or a function ``decide(state) -> reply``. ``game`` is the game
    being played (default: ``$POKERBOTS_GAME``, else Kuhn); it tells how many lines the
    messages have. With ``check`` (the default) a reply that is not legal raises
    :class:`ProtocolError` here instead of being sent to the server.

    In Hold'em the bankrolls follow the stacks (a hand's result is the stack at its end minus
    the stack at its start). ``init_round`` says whether stacks reset every hand or carry from
    hand to hand (``StackMode:``); in carry mode the client answers ``REBUY`` when your stack is
    empty (as required) or when :meth:`Bot.rebuy` says so. A rebuy refills the stack and leaves
    the bankroll alone: the bankroll is the net result, which already counts the lost chips.

    :meth:`feed` takes one line at a time, :meth:`receive` a whole message; both return the
    reply to send (bytes, without the newline) once a message is complete, else ``None``.
    """

    def __init__(self, bot: Bot | Callable[[State], str], *, game: str | None = None,
                 check: bool = True) -> None:
        self.bot = bot if isinstance(bot, Bot) else _FunctionBot(bot)
        if game is not None and game not in GAMES:
            raise ValueError(f"unknown game {game!r}; the games are {', '.join(GAMES)}")
        self.game = game or _game_from_env() or "kuhn"
        self._game_known = game is not None or _game_from_env() is not None
        self.check = check
        #: Hold'em: stacks carry from hand to hand (with REBUY) instead of resetting every hand
        #: (Doyle's game, the server's default); from ``init_round``.
        self.carry = False
        self.stacks: list[int] | None = None  # Hold'em: everyone's chips after the last hand
        self._start_stacks: list[int] | None = None  # Hold'em: chips at the hand's start
        self.info: RoundInfo | None = None
        #: Everyone's bankroll (you first), kept up to date after every hand.
        self.bankrolls: list[int] = []
        self.players = 0
        self.hand = -1
        self.button = 0
        self.cards: tuple[str, ...] = ()
        self.done = False  # True once the goodbye line has been returned
        self.hands_played = 0
        self._lines: list[bytes] = []
        self._need = 0  # lines still missing from the message in progress
        self._pending: list[int] | None = None  # deltas of the hand just ended
        self._last_kind = b""
        self._round_started = False
        self._calls: list[tuple] = []  # bot hooks due once the message in progress is read
        self._hand_button = 0

    # -- input ---------------------------------------------------------------------------------

    def receive(self, message: bytes) -> bytes | None:
        """Feed a whole message (several lines); return the reply to its last line."""
        reply = None
        for line in message.splitlines():
            reply = self.feed(line)
        return reply

    def feed(self, line: bytes) -> bytes | None:
        """Feed one line (with or without its newline); return the reply once due."""
        if line.endswith(b"\n"):
            line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
        if self._need:
            self._lines.append(line)
            self._need -= 1
            if self._need:
                return None
            return self._complete()
        return self._start(line)

    def _start(self, line: bytes) -> bytes | None:
        n = self.players
        holdem = self.game != "kuhn"
        if line == b"play":
            need = n + (4 if holdem else 0)
        elif line.startswith(b"EndAction: "):
            need = n - 1
        elif line == b"init_hand":
            need = 2
        elif line == b"end_hand":
            need = n + 2 + (2 if holdem else 0)
        elif line == b"init_round":
            need = {"kuhn": 4, "holdem-nl": 7, "holdem-limit": 8}[self.game]
        elif line == b"end_round":
            need = 2
        elif (self._last_kind == b"init_round" and not self._game_known
              and line.startswith((b"Game: ", b"Stack: ", b"StackMode: ", b"BetSizes: "))):
            # POKERBOTS_GAME was not set, so init_round looked complete after EndProb; the
            # server reads our READY only after this line anyway, so just take the information.
            self._round_line(line)
            return None
        else:
            raise ProtocolError(f"unexpected line from the server: {line!r}")
        if self.info is None and line != b"init_round":
            raise ProtocolError(f"{line.decode('utf-8', 'replace')!r} before init_round")
        self._lines = [line]
        self._need = need
        if need:
            return None
        return self._complete()

    def _complete(self) -> bytes:
        lines = self._lines
        kind = lines[0]
        self._last_kind = kind
        if kind == b"play":
            try:
                state = self._parse_play(lines)
            except (ValueError, IndexError) as exc:
                text = b"\n".join(lines).decode("utf-8", "replace")
                raise ProtocolError(f"cannot read this message ({exc}):\n{text}") from None
            return self._decide(state)
        try:
            if kind.startswith(b"EndAction"):
                return self._end_action(lines)
            if kind == b"init_hand":
                return self._init_hand(lines)
            if kind == b"end_hand":
                return self._end_hand(lines)
            if kind == b"init_round":
                return self._init_round(lines)
            return self._end_round(lines)
        except (ValueError, IndexError, KeyError) as exc:
            text = b"\n".join(lines).decode("utf-8", "replace")
            raise ProtocolError(f"cannot read this message ({exc}):\n{text}") from None
        finally:
            # The bot's hooks run once the message is read, outside the try above, so their own
            # exceptions are not taken for a message the client cannot read.
            calls, self._calls = self._calls, []
            for hook, *args in calls:
                hook(*args)

    # -- messages ------------------------------------------------------------------------------

    @staticmethod
    def _value(line: bytes, key: bytes) -> bytes:
        if not line.startswith(key):
            raise ValueError(f"expected a {key.decode()!r} line, got {line!r}")
        return line[len(key):]

    def _init_round(self, lines: list[bytes]) -> bytes:
        v = self._value
        money = parse_list(v(lines[1], b"Money: "))
        blinds = parse_list(v(lines[2], b"Blinds: "))
        button = int(v(lines[3], b"Button: "))
        a, b = parse_list(v(lines[4], b"EndProb: "))
        self.players = len(money)
        self.bankrolls = list(money)
        self.button = button
        self.hand = -1
        self.hands_played = 0
        self.info = RoundInfo(self.game, len(money), money, blinds, button, (a, b))
        for line in lines[5:]:
            self._round_line(line)
        self._round_started = self._game_known
        if self._game_known:
            self._calls.append((self.bot.on_round_start, self.info))
        return b"READY"

    def _round_line(self, line: bytes) -> None:
        info = self.info
        key, _, value = line.partition(b": ")
        if key == b"Game":
            game = value.decode()
            if game not in GAMES:
                raise ProtocolError(f"unknown game {game!r}")
            self.game = info.game = game
        elif key == b"Stack":
            info.stack = int(value)
        elif key == b"StackMode":
            if value not in (b"reset", b"carry"):
                raise ProtocolError(f"unknown stack mode {value!r}")
            self.carry = value == b"carry"
        elif key == b"BetSizes":
            small, big = parse_list(value)
            info.bet_sizes = (small, big)
        else:
            raise ProtocolError(f"unexpected line in init_round: {line!r}")

    def _init_hand(self, lines: list[bytes]) -> bytes:
        if not self._round_started:  # the game was guessed: tell the bot once it is sure
            self._round_started = True
            self._calls.append((self.bot.on_round_start, self.info))
        self.hand = int(self._value(lines[1], b"Hand: "))
        self.cards = parse_cards(self._value(lines[2], b"Cards: "))
        if self.game != "kuhn":
            stack = self.info.stack
            if self.stacks is None:
                self.stacks = [stack] * self.players
            self._start_stacks = list(self.stacks) if self.carry else [stack] * self.players
        self._hand_button = (self.button + self.hand) % self.players
        self._calls.append((self.bot.on_hand_start, self.hand, self.cards, self._hand_button))
        return b"READY"

    def _actions(self, lines: list[bytes]) -> list[tuple[str, int]]:
        actions = []
        for line in lines:
            if not line.startswith(b"Action: "):
                raise ValueError(f"expected an 'Action: ' line, got {line!r}")
            word, _, value = line[8:].partition(b" ")
            actions.append((word.decode(), int(value)))
        return actions

    def _parse_play(self, lines: list[bytes]) -> State:
        n = self.players
        actions = self._actions(lines[1:n + 1])
        fronts = [a[1] for a in actions]
        front = fronts[0]
        table = max(fronts)
        if self.game == "kuhn":
            board: tuple[str, ...] = ()
            pot = 0
            stacks = None
            if table == front:
                legal = Legal(front, front, False, front + 1, front + 1)
            else:
                legal = Legal(front, table, True)
        else:
            v = self._value
            board = parse_cards(v(lines[n + 1], b"Board: "))
            pot = int(v(lines[n + 2], b"Pot: "))
            stacks = parse_list(v(lines[n + 3], b"Stacks: "))
            raise_text = v(lines[n + 4], b"Raise: ")
            call = min(table, front + stacks[0])
            if raise_text == b"-":
                legal = Legal(front, call, table > front)
            else:
                low, high = parse_list(raise_text)
                legal = Legal(front, call, table > front, low, high)
        return State(self.game, n, self.hand, self._hand_button, self.cards, board, pot,
                     fronts, stacks, list(self.bankrolls), actions, legal, self.info)

    def _decide(self, state: State) -> bytes:
        legal = state.legal
        reply = self.bot.decide(state)
        if isinstance(reply, bytes):
            reply = reply.decode()
        if not isinstance(reply, str):
            raise ProtocolError(f"decide() returned {reply!r}; it must return a reply string "
                                f"such as {legal.check_or_call()!r}")
        if self.check and not legal.is_legal(reply):
            raise ProtocolError(f"decide() returned {reply!r}, which is not legal here; legal:"
                                f" {legal.describe()}")
        return reply.encode()

    def _end_hand(self, lines: list[bytes]) -> bytes:
        n = self.players
        v = self._value
        actions = self._actions(lines[1:n + 1])
        showdown_text = v(lines[n + 1], b"Showdown: ").decode()
        showdown = [parse_cards(c) or None for c in showdown_text.split(",")]
        pots = parse_pots(v(lines[n + 2], b"Pots: "))
        if self.game == "kuhn":
            board: tuple[str, ...] = ()
            stacks = None
            deltas = [-a[1] for a in actions]
            for amount, winner in pots:
                deltas[winner] += amount
        else:
            board = parse_cards(v(lines[n + 3], b"Board: "))
            stacks = parse_list(v(lines[n + 4], b"Stacks: "))
            deltas = [e - s for e, s in zip(stacks, self._start_stacks)]
            self.stacks = list(stacks)
        if len(showdown) != n or len(deltas) != n:
            raise ValueError("the lists do not have one entry per player")
        self._pending = deltas
        result = HandResult(self.hand, self._hand_button, self.cards, actions, showdown, pots,
                            board, stacks, deltas)
        self._calls.append((self.bot.on_hand_end, result))
        return self._rebuy_reply(result)

    def _rebuy_reply(self, result: HandResult) -> bytes:
        if not self.carry or result.stacks is None:
            return b"OK"
        stack = result.stacks[0]
        if stack == 0 or (stack < self.info.stack and self.bot.rebuy(result)):
            return b"REBUY"
        return b"OK"

    def _end_action(self, lines: list[bytes]) -> bytes:
        if self._pending is None:
            raise ProtocolError("EndAction lines without an end_hand before them")
        self.bankrolls = [b + d for b, d in zip(self.bankrolls, self._pending)]
        for i, line in enumerate(lines):
            if line.endswith(b"REBUY") and self.stacks is not None:
                # A rebuy tops the stack up; the bankroll (the net result) does not change.
                self.stacks[i] = self.info.stack
        self._pending = None
        self.hands_played += 1
        return format_money(self.bankrolls).encode()

    def _end_round(self, lines: list[bytes]) -> bytes:
        bankrolls = parse_list(self._value(lines[1], b"Bankrolls: "))
        hands = int(self._value(lines[2], b"NumHands: "))
        self.done = True
        self._calls.append((self.bot.on_round_end, bankrolls, hands))
        return GOODBYE.encode()


def run(bot: Bot | Callable[[State], str], *, stdin=None, stdout=None,
        game: str | None = None, check: bool = True) -> Client:
    """Play one round on ``stdin``/``stdout`` (binary streams; default the process's own).

    Returns the :class:`Client` once the goodbye line is sent (or the input ends).
    """
    stdin = sys.stdin.buffer if stdin is None else stdin
    stdout = sys.stdout.buffer if stdout is None else stdout
    client = Client(bot, game=game, check=check)
    readline = stdin.readline
    write = stdout.write
    flush = stdout.flush
    feed = client.feed
    while True:
        line = readline()
        if not line:
            break
        reply = feed(line)
        if reply is not None:
            write(reply + b"\n")
            flush()
            if client.done:
                break
    return client

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

A bot may also answer with a mix: ``state.mix({reply: weight, ...})`` returns the ``MIX``
line (``'MIX 3 BET 1,1 BET 2'``: check three times in four, bet once); the server draws one
item with probability weight / total and plays it. Weights are whole numbers from 1 to
:data:`MIX_MAX_WEIGHT`, at most :data:`MIX_MAX_ITEMS` items, each a legal reply given once;
:func:`integer_weights` turns exact probabilities (fractions) into such weights, and
:meth:`State.raise_sizes` picks a bounded number of raise sizes from a wide range. The action
drawn reaches every bot in the next message's ``Action`` lines, as any other action does: the
client keeps its bookkeeping from the server's messages, so nothing changes for the bot, which
must not assume which item was played.

For hooks (start and end of round and hand), subclass :class:`Bot` and pass an instance to
:func:`run`. The protocol machinery itself is :class:`Client`, a sans-I/O object: feed it the
server's lines (:meth:`Client.feed`) or whole messages (:meth:`Client.receive`) and it returns
the reply to send, so a bot can also be driven in-process (tests, simulations).

The protocol is described in PROTOCOL.md beside this file.
"""

from __future__ import annotations

import math
import operator
import os
import random
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from pokerbots.protocol import games
from pokerbots.protocol.games import GameRules
from pokerbots.protocol.wire import (
    GOODBYE,
    MIX_MAX_ITEMS,
    MIX_MAX_WEIGHT,
    Framer,
    Legal,
    MixError,
    WireError,
    is_mix,
    money_reply,
    parse_action,
    parse_cards,
    parse_fields,
    parse_list,
    parse_pots,
    read_action,
    read_mix,
)

__all__ = [
    "Bot", "Client", "HandResult", "Legal", "ProtocolError", "RoundInfo", "State", "run",
    "format_money", "parse_action", "parse_cards", "parse_list", "parse_pots", "kuhn_history",
    "seeded_random", "MIX_MAX_ITEMS", "MIX_MAX_WEIGHT", "integer_weights", "mix_reply",
]


class ProtocolError(Exception):
    """A message the client cannot understand, or a reply from ``decide`` that is not legal."""


def format_money(values) -> str:
    """``[0, -2, 2]`` -> ``'Money: 0,-2,2'``."""
    return money_reply(values).decode()


#: The environment variable in which the server gives each bot a seed of its own (see
#: PROTOCOL.md, "Random numbers").
SEED_VARIABLE = "POKERBOTS_SEED"


def seeded_random(seed: int | None = None) -> random.Random:
    """A random number generator for a bot's decisions: seeded with ``seed`` when one is given
    (a ``--seed`` option of the bot), else with the seed the server gives this seat in
    ``$POKERBOTS_SEED``, so that a match replayed with the same seed (its ``Reproduce:``
    line) plays the same again; outside a match, from the system's randomness."""
    if seed is None:
        text = os.environ.get(SEED_VARIABLE, "")
        seed = int(text) if text.isdigit() else None
    return random.Random(seed)


# -- mixed replies -------------------------------------------------------------------------------

def _mix_items(weights) -> list[tuple[str, int]]:
    """``{reply: weight}`` or ``(reply, weight)`` pairs, as a list of pairs."""
    if isinstance(weights, Mapping):
        return list(weights.items())
    try:
        return [(reply, weight) for reply, weight in weights]
    except (TypeError, ValueError):
        raise ProtocolError(f"a mix is a dict {{reply: weight}} or (reply, weight) pairs,"
                            f" not {weights!r}") from None


def _mix_line(legal: Legal, items: list[tuple[str, int]]) -> str:
    """The ``MIX`` line of ``items`` (reply, weight), judged as the server judges it
    (:func:`pokerbots.protocol.wire.read_mix`); ProtocolError naming the item otherwise."""
    if not items:
        raise ProtocolError(f"a mix needs at least one item; legal: {legal.describe()}")
    parts = []
    for place, (reply, weight) in enumerate(items, 1):
        if not isinstance(weight, bool) and hasattr(weight, "__index__"):
            weight = operator.index(weight)  # numpy's integers, for instance
        name = f"item {place} of the mix, {reply!r},"
        why = None
        if not isinstance(reply, str):
            why = (f"{name} is not a reply: give the strings state.check_or_call(),"
                   f" state.fold() or state.raise_to(v) return (state.fold() is None when"
                   f" checking is free)")
        elif type(weight) is not int or not 1 <= weight <= MIX_MAX_WEIGHT:
            why = (f"{name} has the weight {weight!r}: a weight is a whole number from 1 to"
                   f" {MIX_MAX_WEIGHT}")
        else:
            try:
                word, value = read_action(reply.encode())
            except WireError as exc:
                why = f"{name} is not a reply: {exc}"
            else:
                if reply != f"{word.decode()} {value}":
                    why = (f"{name} is not a reply as the protocol writes it:"
                           f" {word.decode()} {value}")
        if why is not None:
            raise ProtocolError(f"{why}; legal: {legal.describe()}")
        parts.append(f"{weight} {reply}")
    line = "MIX " + ",".join(parts)
    try:
        read_mix(line.encode(), legal)
    except MixError as exc:
        raise ProtocolError(f"{exc}; legal: {legal.describe()}") from None
    return line


def mix_reply(legal: Legal, weights) -> str:
    """The reply that plays each of ``weights``' replies with probability weight / total:
    ``{'BET 1': 3, 'BET 2': 1}`` -> ``'MIX 3 BET 1,1 BET 2'`` (in the order given); a mix of
    one item is that reply (``'BET 1'``). ``weights`` is a dict ``{reply: weight}`` or
    ``(reply, weight)`` pairs; each reply a legal one (as :meth:`Legal.check_or_call`,
    :meth:`Legal.fold` and :meth:`Legal.raise_to` write it) given once, each weight a whole
    number from 1 to :data:`MIX_MAX_WEIGHT`, at most :data:`MIX_MAX_ITEMS` items. Anything
    else raises :class:`ProtocolError` with the server's reason, naming the item, and the
    legal replies."""
    items = _mix_items(weights)
    line = _mix_line(legal, items)
    return items[0][0] if len(items) == 1 else line


def integer_weights(shares) -> dict:
    """Exact probabilities (or any non-negative shares: ints, Fractions) as the smallest whole
    weights in the same proportions, for :func:`mix_reply`: ``{'BET 1': Fraction(2, 3),
    'BET 2': Fraction(1, 3)}`` -> ``{'BET 1': 2, 'BET 2': 1}``. Keys keep their order; a share
    of 0 is left out. ValueError when a share is negative or not exact (a float: give
    ``Fraction(x).limit_denominator(...)``), when all are 0, or when the weights would exceed
    :data:`MIX_MAX_WEIGHT`."""
    fractions = {}
    for key, share in shares.items():
        if isinstance(share, float) or not isinstance(share, (int, Fraction)) or share < 0:
            raise ValueError(f"the share of {key!r} must be a non-negative int or Fraction,"
                             f" not {share!r}")
        if share:
            fractions[key] = Fraction(share)
    if not fractions:
        raise ValueError("every share is 0: a mix needs at least one item")
    scale = math.lcm(*[f.denominator for f in fractions.values()])
    whole = {key: int(f * scale) for key, f in fractions.items()}
    common = math.gcd(*whole.values())
    weights = {key: w // common for key, w in whole.items()}
    if max(weights.values()) > MIX_MAX_WEIGHT:
        raise ValueError(f"these shares need weights above {MIX_MAX_WEIGHT}: round them first"
                         f" (Fraction.limit_denominator)")
    return weights


# -- what a bot sees -----------------------------------------------------------------------------


@dataclass(slots=True)
class RoundInfo:
    """What ``init_round`` said (lists rotated: you are player 0)."""

    game: str
    players: int
    money: list[int]
    blinds: list[int]
    button: int  # the first hand's button, relative to you
    end_prob: tuple[int, int]
    stack: int | None = None  # Hold'em: chips you start a hand with
    bet_sizes: tuple[int, int] | None = None  # limit Hold'em: small and big bet
    #: The game's betting rounds: (name, board cards shown once it starts), in order.
    streets: tuple[tuple[str, int], ...] = (("preflop", 0),)
    #: Hold'em: the chips each player starts a hand with (you first): all the same unless the
    #: table gives each seat its own stack.
    stacks: list[int] | None = None
    #: The lines the game added to init_round, name -> text (``{'StackMode': 'reset', ...}``).
    lines: dict[str, str] = field(default_factory=dict)


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
        """The betting round: ``preflop``, ``flop``, ``turn`` or ``river`` in Hold'em (the
        names of the game's streets; a game of one betting round has only ``preflop``)."""
        shown = len(self.board)
        name = self.round.streets[0][0]
        for street, board in self.round.streets:
            if board <= shown:
                name = street
        return name

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

    def mix(self, weights) -> str:
        """A mixed reply: ``{reply: weight, ...}`` (or ``(reply, weight)`` pairs) ->
        ``'MIX 3 BET 1,1 BET 2'``; the server plays each reply with probability weight /
        total. See :func:`mix_reply` (ProtocolError for a mix the server would refuse)."""
        return mix_reply(self.legal, weights)

    def raise_sizes(self, most: int) -> list[int]:
        """The legal bet or raise values, lowest first: all of them when the range holds at
        most ``most``, else ``most`` of them spread evenly from the minimum to the maximum,
        both included (the i-th is ``min + i * (max - min) // (most - 1)``); ``[]`` when no
        raise is allowed. For a mix over a wide no-limit range."""
        if most < 2:
            raise ValueError(f"most must be at least 2, not {most}")
        if self.legal.raise_range is None:
            return []
        low, high = self.legal.raise_range
        if high - low < most:
            return list(range(low, high + 1))
        return [low + i * (high - low) // (most - 1) for i in range(most)]


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


#: The hooks a bot inherits without overriding them: they run no code of the bot's.
_NO_OPS = frozenset({Bot.on_round_start, Bot.on_hand_start, Bot.on_hand_end, Bot.on_round_end})


class _FunctionBot(Bot):
    def __init__(self, decide: Callable[[State], str]) -> None:
        self.decide = decide  # type: ignore[method-assign]


def _game_type(name: str) -> GameRules:
    try:
        return games.get(name)
    except KeyError as exc:
        raise ProtocolError(str(exc.args[0])) from None


def _nothing() -> None:
    pass


class Client:
    """The protocol machine, without any I/O.

    ``bot`` is a :class:`Bot` or a function ``decide(state) -> reply``. ``game`` is the game
    being played (default: ``$POKERBOTS_GAME``, else the server's default game); it tells how
    many lines the messages have. With ``check`` (the default) a reply that is not legal raises
    :class:`ProtocolError` here instead of being sent to the server.

    Bankrolls follow each hand's result: the change of every stack where the game has stacks
    (Hold'em), else the pots won less the chips put in. ``init_round`` says whether stacks reset
    every hand or carry from hand to hand (``StackMode:``); in carry mode the client answers
    ``REBUY`` when your stack is empty (as required) or when :meth:`Bot.rebuy` says so. A rebuy
    refills the stack and leaves the bankroll alone: the bankroll is the net result, which
    already counts the lost chips.

    :meth:`feed` takes one line at a time, :meth:`receive` a whole message; both return the
    reply to send (bytes, without the newline) once a message is complete, else ``None``.
    """

    def __init__(self, bot: Bot | Callable[[State], str], *, game: str | None = None,
                 check: bool = True) -> None:
        self.bot = bot if isinstance(bot, Bot) else _FunctionBot(bot)
        if game is not None:
            try:
                games.get(game)
            except KeyError as exc:
                raise ValueError(exc.args[0]) from None
        from_env = os.environ.get("POKERBOTS_GAME") or None
        if from_env not in games.names():
            from_env = None
        self.game = game or from_env or games.DEFAULT
        self._game_known = game is not None or from_env is not None
        self._type = games.get(self.game)
        self._framer = Framer(self._type.shape)
        self.check = check
        #: Stacks carry from hand to hand (with REBUY) instead of resetting every hand
        #: (Doyle's game, the server's default); from ``init_round``.
        self.carry = False
        self.stacks: list[int] | None = None  # everyone's chips after the last hand
        self._start_stacks: list[int] | None = None  # chips at the hand's start
        self.info: RoundInfo | None = None
        #: Everyone's bankroll (you first), kept up to date after every hand.
        self.bankrolls: list[int] = []
        self.players = 0
        self.hand = -1
        self.button = 0
        self.cards: tuple[str, ...] = ()
        self.done = False  # True once the goodbye line has been returned
        self.hands_played = 0
        self._pending: list[int] | None = None  # deltas of the hand just ended
        self._last_kind = b""
        self._late = 0  # init_round lines still to come after READY (game learnt late)
        self._round_started = False
        self._calls: list[tuple] = []  # bot hooks due once the message in progress is read
        self._hand_button = 0
        self._ante = 0
        self._single_bet = 0
        #: Called just before the bot's own code runs (its decision or a hook): :func:`run`
        #: writes the answers it holds back then, so that a bot that crashes or thinks long
        #: is seen to do so on the right message.
        self.before_bot: Callable[[], None] = _nothing

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
        if self._late:
            if not self._type.shape.is_optional(line):
                self._late -= 1
            self._round_line(line)
            return None
        framer = self._framer
        if not framer.busy:
            if (self._last_kind == b"init_round" and not self._game_known
                    and line.startswith(b"Game: ")):
                # POKERBOTS_GAME was not set, so init_round looked complete after the default
                # game's lines; the server reads our READY only after the rest, so take it in.
                self._late = len(_game_type(line[6:].decode()).shape.round) - 1
                self._round_line(line)
                return None
            if self.info is None and line != b"init_round":
                raise ProtocolError(f"{line.decode('utf-8', 'replace')!r} before init_round")
        try:
            lines = framer.feed(line)
        except WireError as exc:
            raise ProtocolError(str(exc)) from None
        if lines is None:
            return None
        return self._complete(lines)

    def _complete(self, lines: list[bytes]) -> bytes:
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
                if getattr(hook, "__func__", None) not in _NO_OPS:
                    self.before_bot()
                    hook(*args)

    # -- messages ------------------------------------------------------------------------------

    def _init_round(self, lines: list[bytes]) -> bytes:
        f = parse_fields(lines[1:5], ("Money", "Blinds", "Button", "EndProb"))
        money = parse_list(f["Money"])
        blinds = parse_list(f["Blinds"])
        button = int(f["Button"])
        a, b = parse_list(f["EndProb"])
        self.players = len(money)
        self.bankrolls = list(money)
        self.button = button
        self.hand = -1
        self.hands_played = 0
        self.stacks = None
        self.info = RoundInfo(self.game, len(money), money, blinds, button, (a, b))
        self._learn_game(self._type)
        for line in lines[5:]:
            self._round_line(line)
        self._round_started = self._game_known
        if self._game_known:
            self._calls.append((self.bot.on_round_start, self.info))
        return b"READY"

    def _learn_game(self, game_type) -> None:
        """Take in the rules of ``game_type`` that the messages do not spell out."""
        self._type = game_type
        self._framer.set_shape(game_type.shape)
        self.game = self.info.game = game_type.name
        try:
            game_type.check_players(self.players)
        except ValueError as exc:
            raise ProtocolError(f"cannot play {game_type.name}: {exc}") from None
        self._ante = game_type.ante
        self._single_bet = game_type.streets[0][2]
        shown = 0
        streets = []
        for name, board, _ in game_type.streets:
            shown += board
            streets.append((name, shown))
        self.info.streets = tuple(streets)

    def _round_line(self, line: bytes) -> None:
        info = self.info
        key, sep, value = line.partition(b": ")
        if not sep:
            raise ProtocolError(f"unexpected line in init_round: {line!r}")
        info.lines[key.decode("utf-8", "replace")] = value.decode("utf-8", "replace")
        if key == b"Game":
            game = _game_type(value.decode())
            if game.name != self.game:
                self._learn_game(game)
        elif key == b"Stack":
            stacks = parse_list(value)  # one for everyone, or each seat's (you first)
            if len(stacks) == 1:
                stacks *= self.players
            elif len(stacks) != self.players:
                raise ProtocolError(f"the Stack line has {len(stacks)} values for"
                                    f" {self.players} players")
            info.stacks = stacks
            info.stack = stacks[0]
        elif key == b"StackMode":
            if value not in (b"reset", b"carry"):
                raise ProtocolError(f"unknown stack mode {value!r}")
            self.carry = value == b"carry"
        elif key == b"BetSizes":
            small, big = parse_list(value)
            info.bet_sizes = (small, big)

    def _init_hand(self, lines: list[bytes]) -> bytes:
        if not self._round_started:  # the game was guessed: tell the bot once it is sure
            self._round_started = True
            self._calls.append((self.bot.on_round_start, self.info))
        f = parse_fields(lines[1:3], ("Hand", "Cards"))
        self.hand = int(f["Hand"])
        self.cards = parse_cards(f["Cards"])
        start = self.info.stacks
        if start is not None:
            if self.stacks is None:
                self.stacks = list(start)
            self._start_stacks = list(self.stacks) if self.carry else list(start)
        self._hand_button = (self.button + self.hand) % self.players
        self._calls.append((self.bot.on_hand_start, self.hand, self.cards, self._hand_button))
        return b"READY"

    @staticmethod
    def _actions(lines: list[bytes]) -> list[tuple[str, int]]:
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
        fields = parse_fields(lines[n + 1:], self._type.shape.play)
        fronts = [a[1] for a in actions]
        front = fronts[0]
        table = max(fronts)
        board = parse_cards(fields["Board"]) if "Board" in fields else ()
        pot = int(fields["Pot"]) if "Pot" in fields else 0
        stacks = parse_list(fields["Stacks"]) if "Stacks" in fields else None
        call = table if stacks is None else min(table, front + stacks[0])
        opened = table > (self._ante if len(board) == 0 else 0)
        raise_text = fields.get("Raise")
        if raise_text is None:
            # A game without a Raise line allows one bet, while nobody has bet.
            if table == front:
                bet = table + self._single_bet
                legal = Legal(front, call, False, bet, bet, opened=opened)
            else:
                legal = Legal(front, call, True, opened=opened)
        elif raise_text == b"-":
            legal = Legal(front, call, table > front, opened=opened)
        else:
            low, high = parse_list(raise_text)
            legal = Legal(front, call, table > front, low, high, opened=opened)
        return State(self.game, n, self.hand, self._hand_button, self.cards, board, pot,
                     fronts, stacks, list(self.bankrolls), actions, legal, self.info)

    def _decide(self, state: State) -> bytes:
        legal = state.legal
        self.before_bot()
        reply = self.bot.decide(state)
        if isinstance(reply, bytes):
            reply = reply.decode()
        if not isinstance(reply, str):
            raise ProtocolError(f"decide() returned {reply!r}; it must return a reply string "
                                f"such as {legal.check_or_call()!r}")
        if self.check and not legal.is_legal(reply):
            why = "which is not legal here"
            if is_mix(reply.encode()):
                try:
                    read_mix(reply.encode(), legal)  # as the server reads it
                except MixError as exc:
                    why = f"a mix the server would refuse: {exc}"
                else:
                    return reply.encode()
            raise ProtocolError(f"decide() returned {reply!r}, {why}; legal:"
                                f" {legal.describe()}")
        return reply.encode()

    def _end_hand(self, lines: list[bytes]) -> bytes:
        n = self.players
        actions = self._actions(lines[1:n + 1])
        f = parse_fields(lines[n + 1:], ("Showdown", "Pots") + self._type.shape.end)
        showdown = [parse_cards(c) or None for c in f["Showdown"].decode().split(",")]
        pots = parse_pots(f["Pots"])
        board = parse_cards(f["Board"]) if "Board" in f else ()
        stacks = parse_list(f["Stacks"]) if "Stacks" in f else None
        if stacks is not None:
            deltas = [e - s for e, s in zip(stacks, self._start_stacks)]
            self.stacks = list(stacks)
        else:
            # Chips put in: the hand's totals where the game gives them (several betting
            # rounds), else the money in front of its one betting round.
            spent = parse_list(f["Totals"]) if "Totals" in f else [a[1] for a in actions]
            deltas = [-c for c in spent]
            for amount, winner in pots:
                deltas[winner] += amount
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
                self.stacks[i] = self.info.stacks[i]
        self._pending = None
        self.hands_played += 1
        return money_reply(self.bankrolls)

    def _end_round(self, lines: list[bytes]) -> bytes:
        f = parse_fields(lines[1:3], ("Bankrolls", "NumHands"))
        bankrolls = parse_list(f["Bankrolls"])
        hands = int(f["NumHands"])
        self.done = True
        self._calls.append((self.bot.on_round_end, bankrolls, hands))
        return GOODBYE.encode()


def run(bot: Bot | Callable[[State], str], *, stdin=None, stdout=None,
        game: str | None = None, check: bool = True) -> Client:
    """Play one round on ``stdin``/``stdout`` (binary streams; default the process's own).

    Reads whatever the server has sent so far in one call and answers every whole message in
    it. The server sends messages that do not wait for each other's replies together (see
    PROTOCOL.md); the answers the library gives by itself (``READY``, ``OK``, ``Money``) are
    written together, in one write, but always before the bot's own code runs (its decision,
    its hooks), so a bot that crashes or thinks long is seen to do so on the right message.
    Returns the :class:`Client` once the goodbye line is sent (or the input ends).
    """
    stdin = sys.stdin.buffer if stdin is None else stdin
    stdout = sys.stdout.buffer if stdout is None else stdout
    client = Client(bot, game=game, check=check)
    read = getattr(stdin, "read1", None) or stdin.read
    write = stdout.write
    flush = stdout.flush
    feed = client.feed
    replies: list[bytes] = []

    def send_held() -> None:
        if replies:
            write(b"\n".join(replies) + b"\n")
            flush()
            replies.clear()

    client.before_bot = send_held
    pending = b""
    while True:
        chunk = read(65536)
        if not chunk:
            break
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        for line in lines:
            reply = feed(line)
            if reply is not None:
                replies.append(reply)
                if client.done:
                    break
        send_held()
        if client.done:
            break
    return client

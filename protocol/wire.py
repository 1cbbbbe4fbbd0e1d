"""The wire: the protocol's grammar, its replies, and how a client frames the messages.

The server judges replies with :func:`read_action` and :func:`read_money`, and writes its
messages in ``pokerbots.server.referee.render`` (the one place each message's text is made from
the rules' numbers); the client library frames and reads the same messages with
:class:`Framer` and the ``parse_*`` helpers and writes its replies here (:func:`money_reply`).
Both sides share :class:`Legal`, the legal replies to a ``play`` message, and :class:`Shape`,
the extra lines a game adds to three of the messages (a game declares its shape; see
``pokerbots.protocol.games``).

Messages are bytes. Every line ends in ``\\n``; lists are comma-separated without spaces;
seats are rotated by the writer so that the receiving bot is player 0.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Final

from pokerbots.protocol.memo import Memo

#: The exact line a bot sends after ``end_round``.
GOODBYE = "Thank you dealer, have a nice day!"
GOODBYE_BYTES = GOODBYE.encode()


class Kind(enum.Enum):
    """The messages of a round, by the name of their first line (``EndAction`` lines have none:
    their kind is ``end_action``)."""

    INIT_ROUND = "init_round"
    INIT_HAND = "init_hand"
    PLAY = "play"
    END_HAND = "end_hand"
    END_ACTION = "end_action"
    END_ROUND = "end_round"


# -- the legal replies -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Legal:
    """The legal replies to a ``play`` message, as money-in-front values.

    ``call`` is the ``BET`` value that checks or calls (it equals ``front`` when checking is
    free; when calling would take more than the stack it is the all-in amount).
    ``raise_min``/``raise_max`` bound a bet or raise (both ``None`` when none is allowed).
    ``can_fold`` says whether ``FOLD <front>`` is allowed: it is not when checking is free.
    ``opened`` says that a bet (a blind counts, an ante does not) already stands on the street,
    so that a higher ``BET`` is called a raise rather than a bet.
    """

    front: int
    call: int
    can_fold: bool
    raise_min: int | None = None
    raise_max: int | None = None
    opened: bool = field(default=False, compare=False)

    @property
    def can_check(self) -> bool:
        return self.call == self.front

    @property
    def can_raise(self) -> bool:
        return self.raise_min is not None

    @property
    def raise_range(self) -> tuple[int, int] | None:
        """``(min, max)`` money in front after a bet or raise, or ``None``."""
        low, high = self.raise_min, self.raise_max
        return None if low is None or high is None else (low, high)

    def _raises_to(self, value: int) -> bool:
        """Whether ``BET value`` is a legal bet or raise."""
        low, high = self.raise_min, self.raise_max
        return low is not None and high is not None and low <= value <= high

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
        if not self._raises_to(value):
            raise ValueError(f"a raise must be to {self.raise_min}..{self.raise_max}, not {value}")
        return f"BET {value}"

    def all_in(self) -> str | None:
        """The largest legal raise (all-in in no-limit), or ``None`` when no raise is allowed."""
        return None if self.raise_max is None else f"BET {self.raise_max}"

    def is_legal(self, reply: str | bytes) -> bool:
        """Whether the server would accept ``reply`` (without its newline)."""
        if isinstance(reply, str):
            reply = reply.encode()
        try:
            word, value = read_action(reply)
        except WireError:
            return False
        if word == b"BET":
            return value == self.call or self._raises_to(value)
        return self.can_fold and value == self.front

    def verb(self) -> str:
        """What a higher ``BET`` is called here: ``bet`` or ``raise``."""
        return "bet" if self.call == self.front and not self.opened else "raise"

    def describe(self) -> str:
        """Every legal reply in words, e.g. ``BET 1 (check) or BET 2 (bet)``."""
        choices = [f"BET {self.call} ({'check' if self.call == self.front else 'call'})"]
        if self.raise_min is not None:
            if self.raise_min == self.raise_max:
                choices.append(f"BET {self.raise_min} ({self.verb()})")
            else:
                choices.append(f"BET {self.raise_min} to BET {self.raise_max} ({self.verb()})")
        if self.can_fold:
            choices.append(f"FOLD {self.front}")
        return " or ".join(choices)

    def refusal(self, word: bytes, value: int) -> str | None:
        """Why ``<word> <value>`` is not legal here, or ``None`` when it is."""
        if word == b"BET":
            if value == self.call or self._raises_to(value):
                return None
            if value < self.call:
                return (f"BET {value} leaves less than the {self.call} needed to "
                        + ("check" if self.call == self.front else "call")
                        + " (the value is the money in front after the action)")
            if self.raise_min is None:
                return f"BET {value} is a raise, and no raise is allowed here"
            if value < self.raise_min:
                return f"BET {value} raises less than the minimum, BET {self.raise_min}"
            return f"BET {value} is more than the maximum, BET {self.raise_max}"
        if not self.can_fold:
            return "folding is not allowed when checking is free"
        if value != self.front:
            return f"FOLD must state the money in front, {self.front}, not {value}"
        return None


# -- replies ---------------------------------------------------------------------------------


class WireError(ValueError):
    """A line that does not follow the protocol's grammar; ``str()`` says why."""


#: Longer numbers are never a legal amount; refusing them keeps ``int()`` cheap.
MAX_DIGITS = 15


#: Replies read before and what they meant: a bot says ``BET 0`` or ``BET 100`` again and
#: again, and a look-up costs a fifth of reading the line anew. 4096: the amounts one match's
#: bots answer with (a few hundred in no-limit); a bot answering a new amount every time
#: empties it once per 4096 replies.
_REPLIES: Final[Memo[bytes, tuple[bytes, int]]] = Memo("wire.replies", 4096)


def read_action(line: bytes) -> tuple[bytes, int]:
    """``b'BET 20'`` -> ``(b'BET', 20)``; a trailing ``\\r`` is accepted. WireError says why a
    line is not ``BET <value>`` or ``FOLD <value>``."""
    known = _REPLIES.get(line)
    if known is not None:
        return known
    return _REPLIES.keep(line, _read_action(line))


def _read_action(line: bytes) -> tuple[bytes, int]:
    if line.endswith(b"\r"):
        line = line[:-1]
    word, _, number = line.partition(b" ")
    if word != b"BET" and word != b"FOLD":
        raise WireError(_bad_word(word, line))
    if not (number.isdigit() and len(number) <= MAX_DIGITS) or (
            number[:1] == b"0" and len(number) > 1):
        raise WireError(f"{number.decode('utf-8', 'replace')!r} is not a whole number of chips"
                        if number else f"{word.decode()} needs a value: the money in front")
    return word, _digits_value(number)


def _digits_value(digits: bytes) -> int:
    """The value of ASCII ``digits`` (checked already). Worked out here rather than by
    ``int()``, which compiled code reaches through a generic type call: 1.5% of the server's
    time in a Hold'em match, where every reply is parsed."""
    value = 0
    for i in range(len(digits)):
        value = value * 10 + digits[i] - 48
    return value


def _bad_word(word: bytes, line: bytes) -> str:
    if word == b"PASS":
        return "PASS is only for a player who cannot act, and this bot was asked to act"
    if not line:
        return "an empty line where an action was due"
    if not word:
        return "the reply starts with a space"
    why = f"unknown action {word.decode('utf-8', 'replace')!r}"
    if word.upper() == b"MIX" and word != b"MIX":
        return why + " (a mixed reply starts with MIX, in capitals)"
    if word.upper() in (b"BET", b"FOLD", b"PASS"):
        return why + " (actions are in capitals: BET, FOLD)"
    return why + "; the reply must be BET <value> or FOLD <value>"


# -- mixed replies ---------------------------------------------------------------------------

#: The most items a ``MIX`` reply may have, and the largest weight of one (PROTOCOL.md, "Mixed
#: replies"): weights are whole numbers so that each probability, weight / total, is exact.
MIX_MAX_ITEMS: Final = 64
MIX_MAX_WEIGHT: Final = 1_000_000
_WEIGHT_DIGITS: Final = len(str(MIX_MAX_WEIGHT))
#: What a mix looks like, for a fault.
MIX_FORM: Final = "MIX <weight> <reply>,<weight> <reply>,..."


class MixError(WireError):
    """A ``MIX`` reply the server refuses; ``str()`` says why. ``item`` is the place (from 1)
    of the item at fault, 0 when the mix as a whole is; ``text`` that item's text."""

    def __init__(self, why: str, item: int = 0, text: str = "") -> None:
        super().__init__(why)
        self.item = item
        self.text = text


def is_mix(line: bytes) -> bool:
    """Whether ``line`` is meant as a mixed reply: its first word is ``MIX``."""
    return line.startswith(b"MIX ") or line == b"MIX" or line == b"MIX\r"


def read_mix(line: bytes, legal: Legal | None = None) -> list[tuple[int, bytes, int]]:
    """The items of a mixed reply, ``(weight, word, value)`` in the order sent:
    ``b'MIX 1 FOLD 5,2 BET 10'`` -> ``[(1, b'FOLD', 5), (2, b'BET', 10)]``; a trailing
    ``\\r`` is accepted.

    Each item is a weight (a whole number from 1 to :data:`MIX_MAX_WEIGHT`, no leading zero),
    one space and a reply as :func:`read_action` reads it; the items are separated by a comma
    alone; at most :data:`MIX_MAX_ITEMS` of them, no reply twice; with ``legal``, every reply
    is one of those. The items are judged in order, each wholly, and :class:`MixError` names
    the first that breaks a rule (its place and text) and the rule, whether or not it would
    have been drawn."""
    if line.endswith(b"\r"):
        line = line[:-1]
    if not line.startswith(b"MIX "):
        raise MixError(f"a mix needs at least one item: {MIX_FORM}")
    text = line[4:].decode("utf-8", "replace")
    items: list[tuple[int, bytes, int]] = []
    parts = text.split(",")
    for k in range(len(parts)):
        part = parts[k]
        if k == MIX_MAX_ITEMS:
            raise MixError(f"item {k + 1} of the mix, {part!r}, is one too many: a mix has at"
                           f" most {MIX_MAX_ITEMS} items", k + 1, part)
        items.append(_read_item(part, k + 1, items, legal))
    return items


def _read_item(part: str, place: int, before: list[tuple[int, bytes, int]],
               legal: Legal | None) -> tuple[int, bytes, int]:
    """Item ``place`` of a mix, ``part``, judged after the items ``before`` it."""
    name = f"item {place} of the mix, {part!r},"
    weight, space, reply = part.partition(" ")
    if not part:
        raise MixError(f"item {place} of the mix is empty: {MIX_FORM}", place, part)
    if not space or not weight:
        why = "starts with a space: the items are separated by a comma alone" if space else (
            f"is not a weight, a space and a reply: {MIX_FORM}")
        raise MixError(f"{name} {why}", place, part)
    if weight == "BET" or weight == "FOLD":
        raise MixError(f"{name} has no weight: each item is a weight, a space and a reply"
                       f" ('1 {part}')", place, part)
    if not (weight.isascii() and weight.isdigit() and len(weight) <= _WEIGHT_DIGITS) or (
            weight[0] == "0") or int(weight) > MIX_MAX_WEIGHT:
        raise MixError(f"{name} has the weight {weight!r}: a weight is a whole number from 1"
                       f" to {MIX_MAX_WEIGHT}, written without a leading zero", place, part)
    if reply.endswith("\r"):
        raise MixError(f"{name} ends in a carriage return: only the line may", place, part)
    try:
        word, value = read_action(reply.encode())
    except WireError as exc:
        raise MixError(f"{name} is not a weight and a reply: {exc}", place, part) from None
    if legal is not None:
        refusal = legal.refusal(word, value)
        if refusal is not None:
            raise MixError(f"{name} is not legal here: {refusal}", place, part)
    for k in range(len(before)):
        if before[k][1] == word and before[k][2] == value:
            raise MixError(f"{name} repeats the reply of item {k + 1}: each reply may appear"
                           f" once in a mix", place, part)
    return int(weight), word, value


def read_money(line: bytes, players: int) -> list[int]:
    """The values of a ``Money: a,b,...`` reply (spaces after the commas are accepted)."""
    if line.endswith(b"\r"):
        line = line[:-1]
    if not line.startswith(b"Money: "):
        raise WireError(f"the reply must be 'Money: ' and {players} whole numbers")
    values: list[int] = []
    for part in line[7:].split(b","):
        text = part.lstrip(b" ") if values else part
        digits = text[1:] if text[:1] == b"-" else text
        if not (digits.isdigit() and len(digits) <= MAX_DIGITS):
            raise WireError(f"the reply must be 'Money: ' and {players} whole numbers")
        values.append(-_digits_value(digits) if text[:1] == b"-" else _digits_value(digits))
    if len(values) != players:
        raise WireError(f"the reply must be 'Money: ' and {players} whole numbers")
    return values


def money_reply(values) -> bytes:
    """``[0, -2, 2]`` -> ``b'Money: 0,-2,2'``."""
    return b"Money: " + join(values).encode()


# -- message shapes --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shape:
    """The named lines a game adds to three messages, in order (the rest is the same for every
    game). Kuhn adds none; Hold'em adds ``Board``, ``Pot``, ``Stacks`` and ``Raise`` to
    ``play``, for example. A bot reads the shape to know where each message ends.

    ``optional`` names ``init_round`` lines that only some tables of the game have (Hold'em's
    ``Ante``); they come before the last of the ``round`` lines, so that the message still ends
    with a line a bot knows to expect, and they do not count in :meth:`lines`."""

    round: tuple[str, ...] = ()
    play: tuple[str, ...] = ()
    end: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()

    def is_optional(self, line: bytes) -> bool:
        """Whether ``line`` is one of the ``optional`` lines of ``init_round``."""
        return bool(self.optional) and line.partition(b": ")[0].decode(
            "utf-8", "replace") in self.optional

    def last_lines(self) -> tuple[str, str | None, str]:
        """The name of the line that ends ``init_round``, ``play`` and ``end_hand`` (None:
        ``play`` ends with its Action lines): what a client reading a message line by line
        waits for (the starter kits' clients are written with it)."""
        return (self.round[-1] if self.round else "EndProb",
                self.play[-1] if self.play else None,
                self.end[-1] if self.end else "Pots")

    def lines(self, first: bytes, players: int) -> int:
        """How many lines the message starting with line ``first`` has, that line included;
        0 for a line that starts no message."""
        if first == b"play":
            return 1 + players + len(self.play)
        if first.startswith(b"EndAction: "):
            return players
        if first == b"init_hand":
            return 3
        if first == b"end_hand":
            return 3 + players + len(self.end)
        if first == b"init_round":
            return 5 + len(self.round)
        if first == b"end_round":
            return 3
        return 0


# -- lists -----------------------------------------------------------------------------------


def join(values) -> str:
    """A protocol list: comma-separated, no spaces."""
    return ",".join([str(value) for value in values])


def rotate(values: list, view: int) -> list:
    """``values`` (by absolute seat) as seat ``view`` sees them: itself first, then clockwise."""
    return values[view:] + values[:view]


# -- reading messages (client side) ----------------------------------------------------------


def parse_list(text: str | bytes) -> list[int]:
    """``'1,-2, 3'`` -> ``[1, -2, 3]``."""
    if isinstance(text, bytes):
        return [int(v) for v in text.split(b",")]
    return [int(v) for v in text.split(",")]


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


def parse_fields(lines: list[bytes], names: tuple[str, ...]) -> dict[str, bytes]:
    """The values of the named lines ``names`` (in that order) at the start of ``lines``;
    ValueError names the line that is not the one expected."""
    values = {}
    for line, name in zip(lines, names):
        key, sep, value = line.partition(b": ")
        if not sep or key.decode("utf-8", "replace") != name:
            raise ValueError(f"expected a '{name}: ' line, got {line!r}")
        values[name] = value
    if len(lines) < len(names):
        raise ValueError(f"missing the '{names[len(lines)]}: ' line")
    return values


class Framer:
    """Collects the server's lines into whole messages, one line at a time.

    ``players`` is learnt from ``init_round``'s ``Money`` line; the lines a game adds come from
    its :class:`Shape`, which may change once ``init_round`` says which game is played (see
    :meth:`set_shape`).
    """

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.players = 0
        self._lines: list[bytes] = []
        self._need = 0
        self._optional = False  # the message in progress may hold optional lines

    @property
    def busy(self) -> bool:
        """Whether a message is in progress (the next line belongs to it)."""
        return self._need > 0

    def set_shape(self, shape: Shape) -> None:
        """Read the messages that follow with ``shape`` (once the game is known)."""
        self.shape = shape

    def feed(self, line: bytes) -> list[bytes] | None:
        """Take one line (without its newline); return the message's lines once complete."""
        if self._need:
            self._lines.append(line)
            if not (self._optional and self.shape.is_optional(line)):
                self._need -= 1
        else:
            if line == b"init_round":
                count = self.shape.lines(line, 0)
                self._optional = bool(self.shape.optional)
            else:
                count = self.shape.lines(line, self.players)
                self._optional = False
            if not count:
                raise WireError(f"unexpected line from the server: {line!r}")
            self._lines = [line]
            self._need = count - 1
        if self._need:
            if len(self._lines) == 2 and self._lines[0] == b"init_round":
                self.players = len(self._lines[1].split(b","))
            return None
        lines, self._lines = self._lines, []
        return lines

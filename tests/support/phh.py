"""A small reader for PHH (Poker Hand History, the phh-std format) files, for tests only.

PHH is a subset of TOML: one ``key = value`` per line, values being strings, integers, decimals,
booleans, arrays of those (possibly over several lines) and the odd bare TOML time. A ``.phhs``
file holds several hands, each under a ``[N]`` header. This reader handles exactly that subset;
numbers that are not integers come back as :class:`decimal.Decimal` so that chip amounts such as
``200.30`` stay exact.

Facts of the format this project relies on (phh-std):

* ``p1`` is the first seat left of the button and the last player sits on the button, except
  heads-up, where ``p1`` is the big blind and ``p2`` the button (who posts the small blind):
  which is still "p1 left of the button, last player on the button".
* ``blinds_or_straddles`` are listed from ``p1``; heads-up the list is ``[small, big]`` all the
  same (the button, ``p2``, posts the first entry).
* ``cbr N`` completes, bets or raises so that the player's bet on the street totals ``N``;
  ``cc`` checks or calls; ``f`` folds; ``sm [cards]`` shows (or mucks, without cards);
  ``d dh pK cards`` deals hole cards (``??`` = unknown card); ``d db cards`` deals the board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

_SECTION = re.compile(r"^\[([^\]]+)\]\s*(?:#.*)?$")
_KEY = re.compile(r"^([A-Za-z0-9_]+)\s*=\s*(.*)$")
_INT = re.compile(r"^[+-]?[0-9][0-9_]*$")
_DEC = re.compile(r"^[+-]?[0-9][0-9_]*(?:\.[0-9_]+)?(?:[eE][+-]?[0-9]+)?$")


class PHHError(ValueError):
    """A file this reader cannot parse."""


# -- the TOML subset ---------------------------------------------------------------------------


def _strip_comment(text: str) -> str:
    """``text`` without a trailing ``# comment`` (a ``#`` inside a string is kept)."""
    quote = None
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return text[:i]
        i += 1
    return text


def _balance(text: str) -> int:
    """Open brackets minus closed ones, outside strings."""
    depth = 0
    quote = None
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        i += 1
    return depth


class _Values:
    """Recursive-descent parser of one TOML value."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def _ws(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in " \t\r\n":
            self.i += 1

    def parse(self):
        self._ws()
        value = self._value()
        self._ws()
        if self.i != len(self.text):
            raise PHHError(f"unexpected text after a value: {self.text[self.i:]!r}")
        return value

    def _value(self):
        text, i = self.text, self.i
        if i >= len(text):
            raise PHHError("missing value")
        ch = text[i]
        if ch == "[":
            return self._array()
        if text.startswith("'''", i) or text.startswith('"""', i):  # one-line multi-line string
            delim = text[i:i + 3]
            end = text.find(delim, i + 3)
            if end < 0:
                raise PHHError("unterminated string")
            self.i = end + 3
            return text[i + 3:end]
        if ch == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise PHHError("unterminated string")
            self.i = end + 1
            return text[i + 1:end]
        if ch == '"':
            out = []
            j = i + 1
            while j < len(text) and text[j] != '"':
                if text[j] == "\\":
                    esc = text[j + 1]
                    out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(esc, esc))
                    j += 2
                else:
                    out.append(text[j])
                    j += 1
            if j >= len(text):
                raise PHHError("unterminated string")
            self.i = j + 1
            return "".join(out)
        j = i
        while j < len(text) and text[j] not in ",] \t\r\n":
            j += 1
        word = text[i:j]
        self.i = j
        if word == "true":
            return True
        if word == "false":
            return False
        if _INT.match(word):
            return int(word.replace("_", ""))
        if _DEC.match(word):
            return Decimal(word.replace("_", ""))
        if re.match(r"^[0-9:.\-TZ+]+$", word):  # a bare TOML date or time: keep its text
            return word
        raise PHHError(f"cannot parse value {word!r}")

    def _array(self) -> list:
        self.i += 1  # '['
        items = []
        while True:
            self._ws()
            if self.i < len(self.text) and self.text[self.i] == "]":
                self.i += 1
                return items
            items.append(self._value())
            self._ws()
            if self.i < len(self.text) and self.text[self.i] == ",":
                self.i += 1
                continue
            self._ws()
            if self.i < len(self.text) and self.text[self.i] == "]":
                self.i += 1
                return items
            raise PHHError("expected ',' or ']' in an array")


def parse_value(text: str):
    """One TOML value of the PHH subset."""
    return _Values(text).parse()


def parse_tables(text: str) -> list[tuple[str | None, dict]]:
    """The ``(section name, fields)`` of a file: one ``(None, ...)`` for a ``.phh`` file."""
    tables: list[tuple[str | None, dict]] = []
    current: dict | None = None
    pending: tuple[str, str] | None = None  # a multi-line value being gathered
    for number, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw).strip()
        if pending is not None:
            key, acc = pending
            acc += "\n" + line
            if _balance(acc) > 0:
                pending = (key, acc)
                continue
            pending = None
            current[key] = parse_value(acc)
            continue
        if not line:
            continue
        section = _SECTION.match(line)
        if section and "=" not in line:
            current = {}
            tables.append((section.group(1).strip(), current))
            continue
        match = _KEY.match(line)
        if not match:
            raise PHHError(f"line {number}: not 'key = value': {raw!r}")
        if current is None:
            current = {}
            tables.append((None, current))
        key, value = match.group(1), match.group(2).strip()
        if key in current:
            raise PHHError(f"line {number}: {key!r} given twice")
        if _balance(value) > 0:
            pending = (key, value)
            continue
        try:
            current[key] = parse_value(value)
        except PHHError as exc:
            raise PHHError(f"line {number}: {exc}") from None
    if pending is not None:
        raise PHHError(f"unterminated array for {pending[0]!r}")
    return tables


# -- hands -------------------------------------------------------------------------------------


@dataclass
class Action:
    """One entry of ``actions``: ``actor`` is 'd' (the dealer) or a 0-based player index."""

    actor: str | int
    verb: str  # dh, db, f, cc, cbr, sm, sd (stand pat / discard: not in hold'em)
    amount: Decimal | int | None = None
    cards: list[str | None] = field(default_factory=list)  # None = unknown card
    text: str = ""


@dataclass
class PHHHand:
    """One hand: the raw ``fields`` plus its parsed actions."""

    fields: dict
    actions: list[Action]
    section: str | None = None

    @property
    def variant(self) -> str:
        return self.fields["variant"]

    @property
    def players(self) -> int:
        return len(self.fields["starting_stacks"])

    def get(self, key, default=None):
        return self.fields.get(key, default)


def split_cards(text: str) -> list[str | None]:
    """``'AhKd'`` -> ``['Ah', 'Kd']``; ``'????'`` -> ``[None, None]``."""
    text = text.strip()
    if len(text) % 2:
        raise PHHError(f"odd-length card text {text!r}")
    out: list[str | None] = []
    for k in range(0, len(text), 2):
        card = text[k:k + 2]
        if "?" in card:
            out.append(None)
        else:
            rank, suit = card[0].upper(), card[1].lower()
            if rank not in "23456789TJQKA" or suit not in "cdhs":
                raise PHHError(f"bad card {card!r}")
            out.append(rank + suit)
    return out


def _number(word: str):
    if _INT.match(word):
        return int(word)
    if _DEC.match(word):
        return Decimal(word)
    raise PHHError(f"bad amount {word!r}")


def parse_action(text: str) -> Action:
    words = _strip_comment(text).split()
    if not words:
        raise PHHError("empty action")
    if words[0] == "d":
        if len(words) >= 2 and words[1] == "dh":
            if len(words) < 4:
                raise PHHError(f"bad deal {text!r}")
            # the dealt-to player is the actor, so hole cards are indexed by player
            return Action(int(words[2][1:]) - 1, "dh", None, split_cards(words[3]), text)
        if len(words) >= 3 and words[1] == "db":
            return Action("d", "db", None, split_cards("".join(words[2:])), text)
        raise PHHError(f"unknown dealer action {text!r}")
    if not re.match(r"^p[0-9]+$", words[0]) or len(words) < 2:
        raise PHHError(f"unknown action {text!r}")
    player = int(words[0][1:]) - 1
    verb = words[1]
    if verb == "cbr":
        if len(words) != 3:
            raise PHHError(f"cbr needs one amount: {text!r}")
        return Action(player, verb, _number(words[2]), [], text)
    if verb in ("f", "cc"):
        if len(words) != 2:
            raise PHHError(f"unexpected words in {text!r}")
        return Action(player, verb, None, [], text)
    if verb == "sm":
        return Action(player, verb, None, split_cards(words[2]) if len(words) > 2 else [], text)
    if verb == "sd":
        return Action(player, verb, None, split_cards(words[2]) if len(words) > 2 else [], text)
    raise PHHError(f"unknown verb {verb!r} in {text!r}")


def hand_from_fields(fields: dict, section: str | None = None) -> PHHHand:
    for key in ("variant", "starting_stacks", "actions"):
        if key not in fields:
            raise PHHError(f"hand {section or ''}: missing {key!r}")
    return PHHHand(fields, [parse_action(a) for a in fields["actions"]], section)


def loads(text: str) -> list[PHHHand]:
    """Every hand of a ``.phh`` (one hand) or ``.phhs`` (``[N]`` sections) text."""
    return [hand_from_fields(fields, name) for name, fields in parse_tables(text)]


def load(path: str | Path) -> list[PHHHand]:
    return loads(Path(path).read_text(encoding="utf-8"))


def scale_of(*values) -> int:
    """The smallest power of ten that makes every amount in ``values`` (nested) an integer."""
    exponent = 0

    def visit(v):
        nonlocal exponent
        if isinstance(v, (list, tuple)):
            for x in v:
                visit(x)
        elif isinstance(v, Decimal):
            exp = v.normalize().as_tuple().exponent
            if isinstance(exp, int) and exp < 0:
                exponent = max(exponent, -exp)

    visit(values)
    return 10**exponent


def chips(value, scale: int) -> int:
    """``value`` times ``scale``, which must come out a whole number."""
    scaled = Decimal(value) * scale
    if scaled != scaled.to_integral_value():
        raise PHHError(f"{value} * {scale} is not a whole number")
    return int(scaled)

"""The hand record's JSON text, written by compiled code: :func:`encode` gives
``json.dumps(record, separators=(",", ":"))``, byte for byte.

Every hand of every match is encoded once, and json's own encoder, general and written in C,
still spent about 40,000 instructions on a 3-player Kuhn record (a tenth of the server's work
on that hand): most of it turning small ints into strings and gathering the pieces. Compiled
with the per-message modules (see setup.py), :func:`encode` turns the values a record holds
(dicts with string keys, lists, tuples, strings, ints, floats, booleans and None) into the
same text; for anything else it hands the whole record to json, which says what is wrong.
Run as plain Python it is twice as slow as json's C encoder: the record's one encoder,
:func:`pokerbots.server.hands.record.encode`, uses it only where it is compiled.
"""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring_ascii
from typing import Final

_dumps = json.JSONEncoder(separators=(",", ":")).encode


class _Unusual(Exception):
    """A value :func:`encode` leaves to json."""


def encode(record: dict) -> str:
    """``json.dumps(record, separators=(",", ":"))``."""
    parts: list[str] = []
    try:
        _value(record, parts)
    except _Unusual:
        return _dumps(record)
    return "".join(parts)


#: The JSON text of short strings, as they recur (card texts, action words, keys): the
#: escaping function is a generic call from compiled code, a dict lookup is not.
_SHORT: Final[dict[str, str]] = {}


def _string(text: str) -> str:
    encoded = _SHORT.get(text)
    if encoded is None:
        encoded = encode_basestring_ascii(text)
        if len(text) <= 16 and len(_SHORT) < 4096:
            _SHORT[text] = encoded
    return encoded


#: The text of the small ints a record is full of (seats, streets, BET 0): a native index,
#: where str() of an int is a generic call from compiled code.
_SMALL: Final[list[str]] = [str(i) for i in range(1024)]


def _int(value: int) -> str:
    return _SMALL[value] if 0 <= value < 1024 else str(value)


#: Each key's JSON text with its colon (``"hand":``), as the keys recur in every record.
_KEYS: Final[dict[str, str]] = {}


def _key(key: str) -> str:
    text = _KEYS.get(key)
    if text is None:
        text = _string(key) + ":"
        if len(_KEYS) < 4096:
            _KEYS[key] = text
    return text


def _value(value: object, parts: list[str]) -> None:
    if isinstance(value, str):
        parts.append(_string(value))
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif type(value) is int:
        parts.append(_int(value))
    elif type(value) is list or type(value) is tuple:
        _items(value, parts)  # type: ignore[arg-type]
    elif type(value) is dict:
        _object(value, parts)  # type: ignore[arg-type]
    elif type(value) is float and math.isfinite(value):
        parts.append(float.__repr__(value))
    else:  # an int or str subclass, nan, a set...: json's own rules
        raise _Unusual


def _items(items: list | tuple, parts: list[str]) -> None:
    if not items:
        parts.append("[]")
        return
    parts.append("[")
    first = True
    for item in items:
        if not first:
            parts.append(",")
        first = False
        if type(item) is int:  # most of a record: chips, seats, streets
            parts.append(_int(item))
        elif type(item) is str:
            parts.append(_string(item))
        elif type(item) is list:  # an action, a pot
            _items(item, parts)
        else:
            _value(item, parts)
    parts.append("]")


def _object(mapping: dict, parts: list[str]) -> None:
    if not mapping:
        parts.append("{}")
        return
    separator = "{"
    for key, item in mapping.items():
        if type(key) is not str:
            raise _Unusual
        parts.append(separator)
        parts.append(_key(key))
        separator = ","
        if type(item) is int:
            parts.append(_int(item))
        elif type(item) is list:
            _items(item, parts)
        else:
            _value(item, parts)
    parts.append("}")

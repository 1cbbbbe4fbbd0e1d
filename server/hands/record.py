"""A hand's record: what the referee keeps of each finished hand, its JSON text (a line of
``hands.jsonl``) and what of it each viewer may see.

The referee builds one record per hand; the match log writes it (:func:`encode`), the hand
history renders it (``hands.txt``), the relays' hand feed sends its :func:`public_view` to
the seats that ask, the site serves the view each visitor may see, export and the site's
replayer play it again on the engine (:mod:`.replay`), and a tournament scores it (the
all-in and luck adjustments). Records stay plain dicts at run time: :class:`HandRecord`
names their fields for the type checker and documents each, here and only here.

:func:`encode` is the records' one JSON encoder: ``json.dumps(record, separators=(",",
":"))``, byte for byte, by the compiled encoder of :mod:`.encoding` where pokerbots is
compiled, by json's own C encoder (made once) where it runs as plain Python.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from typing import Any, TypedDict

from pokerbots.server.hands import encoding

#: How a record writes a seat's cards that are not shown (the protocol's "no cards").
HIDDEN = "-"


class _Always(TypedDict):
    """The fields every record has (see :class:`HandRecord`)."""

    #: The hand's number in the round, from 0.
    hand: int
    #: The button's seat.
    button: int
    #: Each seat's hole cards, separated by spaces (``"Ah Kd"``; Kuhn ``"Q"``): private.
    cards: list[str]
    #: Each seat's forced bet in front as the hand starts: blinds and antes in front (Kuhn's
    #: and Leduc's ante); the rest of what it posted is in ``antes``.
    forced: list[int]
    #: Every action in order, ``[seat, word, value, street]``: ``word`` is ``"BET"`` or
    #: ``"FOLD"``, ``value`` the seat's money in front after it (a check leaves it as it was,
    #: a call matches the table, anything above raises), ``street`` the street's index in the
    #: game's structure (0 the first).
    actions: list[list[Any]]
    #: The cards each seat showed at the showdown (only a seat that wins a share of a pot two
    #: seats contested shows), :data:`HIDDEN` for the others.
    showdown: list[str]
    #: Every pot as ``[amount, seat]``, one for each winner of a share, in the order paid.
    pots: list[list[int]]
    #: Each seat's result of the hand, in chips.
    deltas: list[int]
    #: Each seat's total result of the round after the hand.
    bankrolls: list[int]


class HandRecord(_Always, total=False):
    """One finished hand, a line of ``hands.jsonl``: the fields every hand has, in that
    order, then those of its game
    (:meth:`~pokerbots.server.games.engine.betting.Hand.record`), then a tournament's
    adjustments."""

    #: The dead antes each seat posted (straight into the pot), in a game that has them.
    antes: list[int]
    #: The board cards dealt (only those dealt: a hand folded out ends before the rest), in
    #: a game with a board.
    board: list[str]
    #: Each seat's chips as the hand starts (0: the seat sits the hand out), in a game with
    #: stacks.
    stacks_start: list[int]
    #: Each seat's chips as the hand ends, in a game with stacks.
    stacks_end: list[int]
    #: A tournament's all-in adjustment: each seat's expected result over every board that
    #: could have come, for a hand that ended all-in before the last board card
    #: (:mod:`pokerbots.server.scoring.equity`).
    allin_adjusted: list[float]
    #: A tournament's luck adjustment: each seat's result less the luck of its cards
    #: (:mod:`pokerbots.server.scoring.luck`).
    luck_adjusted: list[float]


# -- what a viewer may see ---------------------------------------------------------------------

#: The fields every player may know once the hand is over, in the order a view lists them:
#: nobody's hole cards (those shown at the showdown are in ``showdown``).
PUBLIC_FIELDS = ("hand", "button", "forced", "antes", "actions", "showdown", "board", "pots",
                 "deltas", "stacks_start", "stacks_end")


def visible_cards(record: HandRecord, seats: Collection[int]) -> list[str]:
    """Each seat's hole cards as a viewer who may see those of ``seats`` sees them once the
    hand is over: its own, and those shown at the showdown; :data:`HIDDEN` for the rest."""
    shown = record.get("showdown") or [HIDDEN] * len(record["cards"])
    return [cards if seat in seats or shown[seat] != HIDDEN else HIDDEN
            for seat, cards in enumerate(record["cards"])]


def public_view(record: HandRecord, seats: Collection[int] | None = None) -> dict[str, object]:
    """What of ``record`` a viewer may see once the hand is over: the :data:`PUBLIC_FIELDS`
    it has and, for a viewer who may see the hole cards of ``seats`` (none for the public),
    every seat's ``cards`` (:func:`visible_cards`) and the ``bankrolls``. Without ``seats``
    (the hand feed: one line for every seat that asks for it), the public fields alone."""
    fields: Mapping[str, object] = record
    found = {key: fields[key] for key in PUBLIC_FIELDS if key in fields}
    if seats is not None:
        found["cards"] = visible_cards(record, seats)
        if "bankrolls" in record:
            found["bankrolls"] = record["bankrolls"]
    return found


# -- its JSON ----------------------------------------------------------------------------------

_COMPACT_JSON = json.JSONEncoder(separators=(",", ":"))


def plain_encoder() -> Callable[[Any], str]:
    """The encoder for pokerbots run as plain Python: json's C encoder, made once
    (``JSONEncoder.encode`` makes a new one for every call, and checks for cycles, which a
    record cannot have); ``JSONEncoder.encode`` itself where this Python has no C encoder.
    Both write ``json.dumps``'s bytes."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is not None:
        try:
            encoder = make(None, _COMPACT_JSON.default, json.encoder.encode_basestring_ascii,
                           None, ":", ",", False, False, True)
            if "".join(encoder({"a": [1, "b"]}, 0)) == '{"a":[1,"b"]}':
                return lambda record: "".join(encoder(record, 0))
        except TypeError:  # another Python's signature
            pass
    return _COMPACT_JSON.encode


def compiled() -> bool:
    """Whether the compiled encoder (:mod:`.encoding`) is compiled (``pip install .``)."""
    return not (encoding.__file__ or "").endswith(".py")


#: A record's JSON text, ``json.dumps(record, separators=(",", ":"))`` byte for byte: the line
#: of ``hands.jsonl`` without its newline. The encoder of :mod:`.encoding` where it is compiled,
#: else :func:`plain_encoder`'s (the compiled encoder's source run as plain Python is twice as
#: slow as json's C encoder).
encode: Callable[[Any], str] = encoding.encode if compiled() else plain_encoder()

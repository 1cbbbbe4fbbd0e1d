"""The registry of games: every module in this package that declares ``GAMES``.

A game is one file here that lists its :class:`~.base.GameType` records in a module-level
``GAMES`` tuple; nothing else needs to change for every command, the client library, the logs
and the human seat to offer it. Records are read by name (:func:`get`) or all at once
(:func:`all_types`): the default game first, then module by module in the order each module
declares its games.

Internal (a program uses :mod:`pokerbots.api`).
"""

from __future__ import annotations

import importlib
import pkgutil

from pokerbots.protocol import games as protocol_games
from pokerbots.server.games.base import Game, GameType

_REGISTRY: dict[str, GameType] | None = None


def _load() -> dict[str, GameType]:
    global _REGISTRY
    if _REGISTRY is None:
        found: dict[str, GameType] = {}
        for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
            if module.name.startswith("_") or module.name in ("base", "betting"):
                continue
            for game in getattr(importlib.import_module(f"{__name__}.{module.name}"),
                                "GAMES", ()):
                if game.name in found:
                    raise RuntimeError(f"two games are called {game.name!r}")
                found[game.name] = game
        # The first game a newcomer meets comes first; then by module, as each declares them.
        _REGISTRY = {DEFAULT: found.pop(DEFAULT), **found}
    return _REGISTRY


#: The game played when none is named (the protocol's, which a bot assumes too).
DEFAULT = protocol_games.DEFAULT


def names() -> tuple[str, ...]:
    """Every game's name (the default first)."""
    return tuple(_load())


def all_types() -> tuple[GameType, ...]:
    return tuple(_load().values())


def get(name: str) -> GameType:
    """The game called ``name``; KeyError (listing the games) for an unknown name."""
    try:
        return _load()[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; the games are {', '.join(names())}") from None


def make_game(name: str, players: int, **options) -> Game:
    """A table of ``players`` for the game ``name``; ValueError says what is wrong."""
    return get(name).make(players, **options)


#: The last table :func:`seat_table` made, with the round it was made for.
_SEAT_TABLE: tuple[object, Game] | None = None


def seat_table(client) -> Game:
    """The table the ``init_round`` a client read (a :class:`~pokerbots.protocol.client.Client`)
    describes, as that seat sees it (itself seat 0): its ``structure`` has the blinds, antes,
    stacks, bet sizes and streets. Made once a round. The client's ProtocolError says what in
    the message does not make a table of the game (or that no ``init_round`` came yet)."""
    global _SEAT_TABLE
    from pokerbots.protocol.client import ProtocolError

    info = client.info
    if info is None:
        raise ProtocolError("no init_round yet")
    if _SEAT_TABLE is not None and _SEAT_TABLE[0] is info:
        return _SEAT_TABLE[1]
    try:
        table = get(client.game).from_round(info.players, info.blinds, info.button, info.lines)
    except (KeyError, ValueError, TypeError) as exc:
        raise ProtocolError(f"init_round does not describe a table of {client.game}:"
                            f" {exc}") from None
    _SEAT_TABLE = (info, table)
    return table


__all__ = ["DEFAULT", "Game", "GameType", "all_types", "get", "make_game", "names", "seat_table"]

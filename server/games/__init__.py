"""The registry of games: every module in this package that declares ``GAMES``.

A game is one file here that lists its :class:`~.base.GameType` records in a module-level
``GAMES`` tuple; nothing else needs to change for every command, the client library, the logs
and the human seat to offer it. Records are read by name (:func:`get`) or all at once
(:func:`all_types`): the default game first, then module by module in the order each module
declares its games.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import Game, GameType

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


#: The game played when none is named.
DEFAULT = "kuhn"


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


__all__ = ["DEFAULT", "Game", "GameType", "all_types", "get", "make_game", "names"]

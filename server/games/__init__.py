"""The games the server can deal, by the name used on the command line."""

from __future__ import annotations

from .base import Game

#: name -> (module, class name); imported on demand so Kuhn never pays for eval7.
_GAMES = {
    "kuhn": ("kuhn", "Kuhn"),
    "holdem-nl": ("holdem", "HoldemNoLimit"),
    "holdem-limit": ("holdem", "HoldemLimit"),
}

GAME_NAMES = tuple(_GAMES)


def game_class(name: str) -> type[Game]:
    """The Game class called ``name``; KeyError for an unknown name."""
    module, cls = _GAMES[name]
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), cls)


def make_game(name: str, players: int, **options) -> Game:
    """A game for ``players`` players; ValueError says what is wrong with the options."""
    return game_class(name)(players, **options)

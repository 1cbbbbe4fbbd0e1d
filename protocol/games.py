"""What a bot must know of each game to read the server's messages: the protocol's table of games.

The server's registry (``pokerbots.server.games``) holds the rules of every game; a bot needs
only this much of them: the lines each game adds to three messages (its :class:`Shape`), how
many players it takes, and what its messages do not spell out, its streets (with the board
cards each shows and the bet of a fixed-limit street) and the ante every seat posts. It lives
here so that the client library imports nothing of the server. A test checks that this table
and the server's registry agree, game for game and for every table size.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerbots.protocol.wire import Shape

__all__ = ["DEFAULT", "GameRules", "get", "names"]


@dataclass(frozen=True)
class GameRules:
    """A game as its messages show it to a bot (its default table: the ``init_round`` lines say
    what a table changes, such as Hold'em's blinds, stacks and antes)."""

    name: str
    min_players: int
    max_players: int
    #: The lines the game adds to ``init_round``, ``play`` and ``end_hand``.
    shape: Shape
    #: ``(name, board cards shown, bet of a fixed-limit street)`` for every betting round.
    streets: tuple[tuple[str, int, int], ...]
    #: Chips every seat antes before the cards (Kuhn and Leduc: 1).
    ante: int = 0

    def check_players(self, players: int) -> None:
        """ValueError unless ``players`` may play this game."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} is played by {self.min_players} to"
                             f" {self.max_players} players, not {players}")


_HOLDEM_PLAY = ("Board", "Pot", "Stacks", "Raise")
_HOLDEM_END = ("Board", "Stacks")
_HOLDEM_ANTES = ("Ante", "BigBlindAnte")

_GAMES = {game.name: game for game in (
    GameRules("kuhn", 2, 6, Shape(), (("preflop", 0, 1),), ante=1),
    GameRules("holdem-nl", 2, 10,
              Shape(round=("Game", "Stack", "StackMode"), play=_HOLDEM_PLAY, end=_HOLDEM_END,
                    optional=_HOLDEM_ANTES),
              (("preflop", 0, 10), ("flop", 3, 10), ("turn", 1, 10), ("river", 1, 10))),
    GameRules("holdem-limit", 2, 10,
              Shape(round=("Game", "Stack", "StackMode", "BetSizes"), play=_HOLDEM_PLAY,
                    end=_HOLDEM_END, optional=_HOLDEM_ANTES),
              (("preflop", 0, 10), ("flop", 3, 10), ("turn", 1, 20), ("river", 1, 20))),
    GameRules("leduc", 2, 10, Shape(round=("Game",), play=("Board", "Pot", "Raise"),
                                    end=("Board", "Totals")),
              (("preflop", 0, 2), ("flop", 1, 4)), ante=1),
)}

#: The game played when none is named.
DEFAULT = "kuhn"


def names() -> tuple[str, ...]:
    """Every game's name (the default first)."""
    return tuple(_GAMES)


def get(name: str) -> GameRules:
    """The game called ``name``; KeyError (listing the games) for an unknown name."""
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; the games are {', '.join(_GAMES)}") from None

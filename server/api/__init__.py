"""pokerbots as a library: the public surface (``import pokerbots.api``).

Everything a program uses to play poker bots without the command line, and the only names
pokerbots keeps stable; every other module of the package is internal. docs/library.md shows
each part in use.

A match
    :class:`MatchConfig` (the bots, the game and its options, the hands, the seed, the logs
    folder, the :class:`Limits`), :func:`parse_bot` (a bot as typed on a command line: a
    program, a ``.py`` file, a quoted command line), :func:`run_match` (it plays the match and
    returns its :class:`MatchOutcome` and its log folder). A bot breaking a rule is a result
    (``outcome.fault``, a :class:`BotFault`), not an exception.
A tournament
    :class:`TournamentConfig`, :func:`run_tournament` (it returns how it ended: an
    :class:`Ending`; the same config resumes an interrupted one), :func:`read_tournament`
    (the standings and matches of a tournament folder).
A log folder
    :class:`MatchFolder`: the one reader of a match's folder, its summary and its hand
    records (``MatchFolder.hands()``, one dict per hand, as docs/formats.md describes them).
The client library
    :class:`Bot`, :func:`run`, :class:`Client` (the protocol without I/O), :class:`State`,
    :class:`Legal`, :class:`RoundInfo`, :class:`HandResult`: those of
    :mod:`pokerbots.protocol.client`.
The errors a caller catches
    :class:`MatchSetupError` (options that cannot make a match), :class:`BotSpecError` (a bot
    argument that cannot start), :class:`ServerFault` (the server itself cannot go on: a log
    folder that cannot be written), :class:`TournamentError`, :class:`LogFolderError`,
    :class:`ProtocolError` (a message the client cannot read, an illegal reply); and
    :class:`Exit`, the exit codes.

Each name is imported when it is first used (:pep:`562`): ``import pokerbots.api`` loads
nothing else, so a bot that uses only the client library never loads the server's trio,
rich, eval7 or web stack.
"""

from __future__ import annotations

import importlib

#: Each public name and the module that defines it.
_HOMES = {
    # A match.
    "MatchConfig": "pokerbots.server.play.match",
    "run_match": "pokerbots.server.play.match",
    "MatchOutcome": "pokerbots.server.seats.runner",
    "parse_bot": "pokerbots.server.seats.arguments",
    "BotSpec": "pokerbots.server.seats.bots",
    "Limits": "pokerbots.server.seats.limits",
    "ResourceLimits": "pokerbots.server.confine.limits",
    "BotFault": "pokerbots.server.errors",
    # A tournament.
    "TournamentConfig": "pokerbots.server.tournament.run",
    "run_tournament": "pokerbots.server.tournament.run",
    "read_tournament": "pokerbots.server.tournament.run",
    "Ending": "pokerbots.server.tournament.run",
    # A log folder.
    "MatchFolder": "pokerbots.server.logs.folder",
    # The client library.
    "Bot": "pokerbots.protocol.client",
    "Client": "pokerbots.protocol.client",
    "HandResult": "pokerbots.protocol.client",
    "Legal": "pokerbots.protocol.client",
    "RoundInfo": "pokerbots.protocol.client",
    "State": "pokerbots.protocol.client",
    "run": "pokerbots.protocol.client",
    # The errors a caller catches, and the exit codes.
    "BotSpecError": "pokerbots.server.seats.bots",
    "LogFolderError": "pokerbots.server.logs.folder",
    "MatchSetupError": "pokerbots.server.play.options",
    "ProtocolError": "pokerbots.protocol.client",
    "ServerFault": "pokerbots.server.errors",
    "TournamentError": "pokerbots.server.tournament.director",
    "Exit": "pokerbots.server.errors",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # found directly from now on
    return value


def __dir__() -> list[str]:
    return list(__all__)


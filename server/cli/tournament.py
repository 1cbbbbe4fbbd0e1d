"""``pokerbots tournament`` and ``pokerbots standings``: the command line of tournaments.

The commands parse their options into a
:class:`~pokerbots.server.tournament.run.TournamentConfig` and run the library
(:mod:`pokerbots.server.tournament.run`); a
:class:`~pokerbots.server.tournament.run.TournamentError` becomes exit 2 (bad command line, or
options that differ from those recorded in ``--out``) or 3 (the tournament itself could not go
on: disk, store, cluster). Exit 0: the tournament completed (bots breaking rules is a result);
130 Ctrl-C (143 SIGTERM), after which the same command resumes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pokerbots.server.cli.errors import refused
from pokerbots.server.cli.options import bot_limit_options, game_options, timeout_options
from pokerbots.server.errors import Exit
from pokerbots.server.logs.writer import TRANSCRIPTS
from pokerbots.server.tournament.run import (
    TournamentError,
    config_from_options,
    read_tournament,
    run_tournament,
)
from pokerbots.server.tournament.text import matches_text, standings_text


def tournament(**options):
    """Play every table of K bots out of BOTS and rank them.

    BOT is as in `pokerbots run` (a program, a .py file or a quoted command line), optionally
    NAME=BOT. Every combination of --players bots plays --rounds deal sets; with --duplicate
    each deal set is played once per seating (2 players: both, 3: all six, more: the
    rotations) with the same cards per seat. Results go to --out (results.sqlite,
    standings.json, report.html, one folder per match); running the same command again with
    the same --out resumes. Exit code: 0 completed, 2 bad command line, 3 the tournament could
    not go on, 130 Ctrl-C.
    """
    try:
        ending = run_tournament(config_from_options(options))
    except TournamentError as exc:
        raise refused(exc) from None
    sys.exit(Exit[ending.name])


def _read(folder: Path) -> tuple[dict, list[dict]]:
    try:
        return read_tournament(folder)
    except TournamentError as exc:
        raise refused(exc) from None


def standings_cmd(folder, as_json):
    """Print the standings of the tournament in FOLDER, computed again from its store."""
    document, _ = _read(folder)
    click.echo(json.dumps(document, indent=2) if as_json else standings_text(document))


def show_text(folder: Path) -> str:
    """``pokerbots show`` of a tournament folder: the standings, then every match."""
    document, rows = _read(folder)
    return (f"Tournament: {folder}\n" + standings_text(document) + "\n\n" + matches_text(rows)
            + "\n")


def options() -> dict:
    """The tournament's command-line parameters by name, in the order of its ``--help``
    (``pokerbots serve`` takes them too, less those it sets itself)."""
    return {
        "bots": click.argument("bots", nargs=-1, required=True),
        "game": game_options(),
        "players": click.option(
            "--players", "-p", type=click.IntRange(min=2), default=None,
            help="Table size K (default: the number of bots, capped at the game's"
                 " maximum). Every combination of K bots plays."),
        "hands": click.option("--hands", "-n", type=click.IntRange(min=1), default=3000,
                              show_default=True, help="Hands per match."),
        "rounds": click.option("--rounds", "-r", type=click.IntRange(min=1), default=1,
                               show_default=True, help="Deal sets per table."),
        "seed": click.option("--seed", type=int, default=None,
                             help="Seed of every deal (default: 128 random bits, recorded);"
                                  " a small one is guessable."),
        "duplicate": click.option(
            "--duplicate", is_flag=True,
            help="Play each deal set once per seating, same cards per seat."),
        "jobs": click.option(
            "--jobs", "-j", type=click.IntRange(min=1), default=None,
            help="Matches at once, each on a CPU of its own (default: the CPUs this"
                 " process may use)."),
        "out": click.option(
            "--out", "-o", type=click.Path(path_type=Path), default=None,
            help="Tournament folder (default logs/tournament-DATE-TIME); the same"
                 " --out resumes."),
        "scheduler": click.option(
            "--scheduler", metavar="ADDRESS", default=None,
            help="Play on a Dask cluster (tcp://host:port); needs pokerbots[dask]."),
        "max_faults": click.option(
            "--max-faults", type=click.IntRange(min=1), default=3, show_default=True,
            help="Drop a bot from the rest of the tournament after this many faults."),
        "refine": click.option(
            "--refine", type=click.IntRange(min=2), default=None, metavar="T",
            help="After the round robin, more deal sets among the top T bots until"
                 " their intervals separate."),
        "refine_steps": click.option(
            "--refine-steps", type=click.IntRange(min=1), default=5, show_default=True,
            help="With --refine: at most this many extra steps of --rounds deal"
                 " sets per table."),
        "rank_by": click.option(
            "--rank-by", type=click.Choice(["raw", "allin", "luck"]), default="raw",
            show_default=True,
            help="The figure the ranking, the run-off and --refine use: chips per hand as"
                 " won, all-in adjusted (games scored by all-in equity) or luck-adjusted."),
        "adjust": click.option(
            "--no-adjust", "adjust", is_flag=True, flag_value=False, default=True,
            help="Compute neither the all-in nor the luck-adjusted figures (faster; not"
                 " with --rank-by allin or luck)."),
        "transcripts": click.option(
            "--transcripts", type=click.Choice(TRANSCRIPTS), default="full",
            show_default=True,
            help="Keep each seat's transcript (seatN.in): always, only for failed"
                 " matches, or never (a big tournament saves most of its disk)."),
        "timeouts": timeout_options,
        "limits": bot_limit_options,
    }


def command() -> click.Command:
    """The ``tournament`` command (built on each call, as ``show`` is)."""
    def func(**kwargs):  # a fresh function: click keeps its parameters on it
        return tournament(**kwargs)

    func.__doc__ = tournament.__doc__
    for param in reversed(options().values()):
        func = param(func)
    return click.command(name="tournament",
                         short_help="Every table of K bots, duplicate deals, rankings.")(func)


def standings_command() -> click.Command:
    def func(**kwargs):
        return standings_cmd(**kwargs)

    func.__doc__ = standings_cmd.__doc__
    func = click.option("--json", "as_json", is_flag=True,
                        help="Print standings.json.")(func)
    func = click.argument("folder", type=click.Path(path_type=Path))(func)
    return click.command(name="standings",
                         short_help="The standings of a tournament folder.")(func)


__all__ = ["command", "options", "show_text", "standings_command",
           "tournament"]

"""The command-line options shared by every command that plays: the game and its options, read
from the game registry, and the limits every bot runs under.

``@game_options()`` adds ``--game`` and one option per flag that any registered game declares
(``--stack``, ``--blinds``...), with the help text the game gives; the command then receives
``game`` and ``game_texts`` (flag -> text typed) and turns them into the game's keyword
arguments with :func:`parse_game_options`, which refuses a flag the chosen game does not take.
"""

from __future__ import annotations

import functools
from pathlib import Path

import click

from pokerbots.server import games
from pokerbots.server.cli.errors import usage_error


def _flags() -> dict[str, tuple[str, list]]:
    """flag -> (click parameter name, [(game name, Option), ...]) over every game."""
    found: dict[str, tuple[str, list]] = {}
    for game in games.all_types():
        for option in game.options:
            param = option.flag.lstrip("-").replace("-", "_")
            found.setdefault(option.flag, (param, []))[1].append((game.name, option))
    return found


def game_options(*, allow_all: bool = False):
    """Add ``--game`` and every game's options to a click command. With ``allow_all``,
    ``--game all`` means every game (each takes the options that apply to it)."""

    def decorate(func):
        flags = _flags()

        @functools.wraps(func)
        def command(**kwargs):
            texts = {}
            for flag, (param, _) in flags.items():
                value = kwargs.pop(param, None)
                if value is not None:
                    texts[flag] = value
            return func(game_texts=texts, **kwargs)

        choices = [*games.names(), *(["all"] if allow_all else [])]
        params = [click.option("--game", "-g", type=click.Choice(choices), default=games.DEFAULT,
                               show_default=True,
                               help="The game to play" + (", or 'all'." if allow_all else "."))]
        for flag, (param, declared) in flags.items():
            option = declared[0][1]
            names = ", ".join(name for name, _ in declared)
            kind = click.Choice(option.choices) if option.choices else None
            params.append(click.option(flag, param, type=kind, default=None,
                                       metavar=None if option.choices else option.metavar,
                                       help=f"{option.help} [{names}]"))
        for param in reversed(params):
            command = param(command)
        return command

    return decorate


def parse_game_options(game: str, texts: dict[str, str], *, lenient: bool = False) -> dict:
    """The keyword arguments of ``game``'s ``make`` for the flags typed (``texts``); see
    :func:`~pokerbots.server.play.options.game_options_from_texts`.

    A flag the game does not take is a usage error (``lenient``: it is left out, for
    ``--game all``); a value the game refuses is a bad parameter naming the flag.
    """
    from pokerbots.server.play.options import MatchSetupError, game_options_from_texts

    try:
        return game_options_from_texts(game, texts, lenient=lenient)
    except MatchSetupError as exc:
        raise usage_error(str(exc), exc.option) from None


def timeout_options(func):
    """``--reply-timeout`` and ``--startup-timeout``, the same in every command that plays."""
    func = click.option("--startup-timeout", type=click.FloatRange(min=0, min_open=True),
                        default=10.0, show_default=True,
                        help="Seconds a bot has to start and answer init_round.")(func)
    return click.option("--reply-timeout", type=click.FloatRange(min=0, min_open=True),
                        default=5.0, show_default=True,
                        help="Seconds a bot has for each reply.")(func)


def report_options(func):
    """``--logs`` (a temporary folder by default) and ``--junit-xml``, the same in every command
    that tests a bot (``smoke``, ``certify``)."""
    func = click.option("--junit-xml", type=click.Path(dir_okay=False, path_type=Path),
                        default=None, help="Also write a JUnit XML report to this file.")(func)
    return click.option("--logs", type=click.Path(file_okay=False, path_type=Path),
                        default=None,
                        help="Folder for the match logs [default: a new temporary folder]."
                        )(func)


def bot_limit_options(func):
    """Time bank, resource limits and the sandbox (see limits.py and sandbox.py); the command
    turns them, with the time-outs, into Limits with
    :func:`~pokerbots.server.play.options.limits_from_options`."""
    seconds = click.FloatRange(min=0)
    whole = click.IntRange(min=0)
    options = [
        click.option("--time-bank", type=seconds, default=30.0, show_default=True,
                     help="Seconds each bot may spend on all its replies in a round, besides"
                          " --time-per-hand; 0: no bank."),
        click.option("--time-per-hand", type=seconds, default=0.05, show_default=True,
                     help="Seconds added to each bot's time bank at every hand."),
        click.option("--max-memory", type=whole, default=2048, show_default=True,
                     metavar="MIB", help="Memory per bot, in MiB (a memory cgroup as root, else"
                          " RLIMIT_AS); 0: no limit."),
        click.option("--max-cpu", type=whole, default=3600, show_default=True,
                     metavar="SECONDS", help="CPU time per bot for the round; 0: no limit."),
        click.option("--max-files", type=whole, default=256, show_default=True,
                     help="Open files per bot; 0: no limit."),
        click.option("--max-file-size", type=whole, default=100, show_default=True,
                     metavar="MIB", help="Largest file a bot may write, in MiB; 0: no limit."),
        click.option("--max-procs", type=whole, default=64, show_default=True,
                     help="Processes and threads per bot, counted for that bot alone;"
                          " 0: no limit."),
        click.option("--max-scratch", type=whole, default=256, show_default=True,
                     metavar="MIB", help="Size of each bot's scratch folder under --sandbox"
                          " (a tmpfs: memory), in MiB; 0: the kernel's default."),
        click.option("--stderr-cap", type=whole, default=1024, show_default=True,
                     metavar="KIB", help="KiB of each bot's stderr kept in its log file."),
        click.option("--sandbox", is_flag=True,
                     help="Run every bot under bubblewrap: no network, read-only system,"
                          " a copy of its own folder, its own scratch folder and process"
                          " namespace."),
    ]
    for option in reversed(options):
        func = option(func)
    return func

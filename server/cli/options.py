"""The command-line options shared by every command that plays: the game and its options, read
from the game registry, and the limits every bot runs under.

``@game_options()`` adds ``--game`` and one option per flag that any registered game declares
(``--stack``, ``--blinds``...), with the help text the game gives; the command then receives
``game`` and ``game_texts`` (flag -> text typed) and turns them into the game's keyword
arguments with :func:`parse_game_options`, which refuses a flag the chosen game does not take.
"""

from __future__ import annotations

import functools

import click

from pokerbots.server import games


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
    """The keyword arguments of ``game``'s ``make`` for the flags typed (``texts``).

    A flag the game does not take is a usage error (``lenient``: it is left out, for
    ``--game all``); a value the game refuses is a bad parameter naming the flag.
    """
    declared = {option.flag: option for option in games.get(game).options}
    options: dict = {}
    for flag, text in texts.items():
        option = declared.get(flag)
        if option is None:
            if lenient:
                continue
            takers = [name for name, _ in _flags()[flag][1]]
            raise click.UsageError(f"{flag} applies to {' and '.join(takers)}, not to {game}"
                                   f" (choose the game with --game)")
        try:
            options.update(option.parse(text))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint=flag) from None
    return options


def texts_as_flags(texts: dict[str, str]) -> str:
    """The game flags as typed (``' --stack 500 --stacks carry'``), for a command to copy."""
    import shlex

    return "".join(f" {flag} {shlex.quote(text)}" for flag, text in texts.items())


def bot_limit_options(func):
    """Time bank, resource limits and the sandbox (see limits.py and sandbox.py)."""
    seconds = click.FloatRange(min=0)
    whole = click.IntRange(min=0)
    options = [
        click.option("--time-bank", type=seconds, default=30.0, show_default=True,
                     help="Seconds each bot may spend on all its replies in a round, besides"
                          " --time-per-hand; 0: no bank."),
        click.option("--time-per-hand", type=seconds, default=0.05, show_default=True,
                     help="Seconds added to each bot's time bank at every hand."),
        click.option("--max-memory", type=whole, default=2048, show_default=True,
                     metavar="MIB", help="Memory per bot (RLIMIT_DATA), in MiB; 0: no limit."),
        click.option("--max-cpu", type=whole, default=3600, show_default=True,
                     metavar="SECONDS", help="CPU time per bot for the round; 0: no limit."),
        click.option("--max-files", type=whole, default=256, show_default=True,
                     help="Open files per bot; 0: no limit."),
        click.option("--max-file-size", type=whole, default=100, show_default=True,
                     metavar="MIB", help="Largest file a bot may write, in MiB; 0: no limit."),
        click.option("--max-procs", type=whole, default=64, show_default=True,
                     help="Processes and threads per bot, counted for that bot alone;"
                          " 0: no limit."),
        click.option("--stderr-cap", type=whole, default=1024, show_default=True,
                     metavar="KIB", help="KiB of each bot's stderr kept in its log file."),
        click.option("--sandbox", is_flag=True,
                     help="Run every bot under bubblewrap: no network, read-only system,"
                          " own scratch folder and process namespace."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def make_limits(startup, reply, *, time_bank, time_per_hand, max_memory, max_cpu, max_files,
                max_file_size, max_procs, stderr_cap, sandbox):
    """The :class:`~.runner.Limits` the limit options ask for."""
    from pokerbots.server.confine.limits import ResourceLimits
    from pokerbots.server.seats.runner import Limits

    return Limits(
        startup=startup, reply=reply, time_bank=time_bank or None, time_per_hand=time_per_hand,
        resources=ResourceLimits(memory_mib=max_memory, cpu_seconds=max_cpu,
                                 open_files=max_files, file_size_mib=max_file_size,
                                 processes=max_procs),
        sandbox=sandbox, stderr_cap=stderr_cap * 1024,
    )

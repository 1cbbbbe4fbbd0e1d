"""The command-line options shared by every command that plays: the game and its options, read
from the game registry, and the limits every bot runs under; and the one grammar of a time
typed on the command line (:func:`parse_duration`).

``@game_options()`` adds ``--game`` and one option per flag that any registered game declares
(``--stack``, ``--blinds``...), with the help text the game gives; the command then receives
``game`` and ``game_texts`` (flag -> text typed) and turns them into the game's keyword
arguments with :func:`parse_game_options`, which refuses a flag the chosen game does not take.
"""

from __future__ import annotations

import functools
import re
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


#: The limits ``smoke`` and ``certify`` offer too, in the order of every command's ``--help``
#: (the reply's first: the one a bot author changes most).
TIMEOUTS = ("reply_timeout", "startup_timeout")


def limit_option(name: str):
    """The click option of the bot limit ``name``, read from its one declaration
    (:data:`~pokerbots.server.play.options.LIMITS`: flag, help text, unit, default)."""
    from pokerbots.server.play.options import LIMITS

    option = next(o for o in LIMITS if o.name == name)
    how = option.offered
    if isinstance(option.default, bool):
        return click.option(how.flag, is_flag=True, default=option.default, help=how.help)
    if isinstance(option.default, float):
        kind = click.FloatRange(min=0, min_open=how.above_zero)
    else:
        kind = click.IntRange(min=1 if how.above_zero else 0)
    return click.option(how.flag, type=kind, default=option.default, show_default=True,
                        metavar=how.metavar, help=how.help)


def _limit_options(func, names):
    for name in reversed(names):
        func = limit_option(name)(func)
    return func


def timeout_options(func):
    """``--reply-timeout`` and ``--startup-timeout``, the same in every command that plays."""
    return _limit_options(func, TIMEOUTS)


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
    """Time bank, resource limits and the sandbox (see limits.py and sandbox.py): every other
    bot limit, in the order declared; the command turns them, with the time-outs, into Limits
    with :func:`~pokerbots.server.play.options.limits_from_options`."""
    from pokerbots.server.play.options import LIMIT_OPTIONS

    return _limit_options(func, [name for name in LIMIT_OPTIONS if name not in TIMEOUTS])


#: The units of a time (:func:`parse_duration`), in seconds.
DURATION_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
#: What :func:`parse_duration` accepts, as the help texts say it.
DURATION_FORMS = "a number and a unit (s, m, h, d or w), e.g. 90s, 15m, 12h, 7d or 1h30m"
_DURATION_PART = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*")


def parse_duration(text: str) -> float:
    """A time as every option that takes one is typed, in seconds: a number and a unit
    (``s``, ``m``, ``h``, ``d`` or ``w``), or several run together (``1h30m``, also
    ``1h 30m``), each number whole or decimal (``0.5h``). A number without a unit is refused,
    so that ``7`` is never read as 7 seconds where 7 days were meant. ValueError says what to
    type instead."""
    parts = []
    at = 0
    while at < len(text):
        found = _DURATION_PART.match(text, at)
        if found is None or found.end() == at:
            break
        parts.append(found)
        at = found.end()
    if not parts or at != len(text):
        raise ValueError(f"{text!r}: give {DURATION_FORMS}")
    return sum(float(p.group(1)) * DURATION_UNITS[p.group(2)] for p in parts)


def duration(ctx, param, text: str | None) -> float | None:
    """A click callback: the option's time (:func:`parse_duration`) in seconds, or None."""
    if text is None:
        return None
    try:
        return parse_duration(text)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def positive_duration(ctx, param, text: str) -> float:
    """A click callback: as :func:`duration`, and above 0."""
    seconds = duration(ctx, param, text)
    if not seconds:
        raise click.BadParameter(f"{text!r}: give a time above 0")
    return seconds

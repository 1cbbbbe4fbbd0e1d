"""The options of the commands that play, as data a match can use: the game's flags
(:func:`game_options_from_texts`), the bot limits (:func:`limits_from_options`, and as JSON-ready
data for a job another process plays), and :class:`MatchSetupError`, the fault of options that
cannot make a match.

Apart from :mod:`.match` so that what only reads options (the tournament's director, the
command line's checks) does not import the trio layer that plays.
"""

from __future__ import annotations

import dataclasses
import shlex

from pokerbots.server import games
from pokerbots.server.confine.limits import ResourceLimits
from pokerbots.server.seats.limits import Limits


class MatchSetupError(ValueError):
    """Options that cannot make a match; the message says what to type instead, and
    ``option`` names the option whose value is refused (None: no one option)."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


def game_options_from_texts(game: str, texts: dict[str, str], *,
                            lenient: bool = False) -> dict:
    """The keyword arguments of ``game``'s ``make`` for the game's flags as typed (``texts``:
    flag -> text).

    A flag the game does not take is a MatchSetupError (``lenient``: it is left out, for
    ``--game all``); a value the game refuses is one whose ``option`` is the flag.
    """
    declared = {option.flag: option for option in games.get(game).options}
    options: dict = {}
    for flag, text in texts.items():
        option = declared.get(flag)
        if option is None:
            if lenient:
                continue
            takers = [kind.name for kind in games.all_types()
                      if any(o.flag == flag for o in kind.options)]
            raise MatchSetupError(f"{flag} applies to {' and '.join(takers)}, not to {game}"
                                  f" (choose the game with --game)")
        try:
            options.update(option.parse(text))
        except ValueError as exc:
            raise MatchSetupError(str(exc), option=flag) from None
    return options


def texts_as_flags(texts: dict[str, str]) -> str:
    """The game flags as typed (``' --stack 500 --stacks carry'``), for a command to copy."""
    return "".join(f" {flag} {shlex.quote(text)}" for flag, text in texts.items())


#: The bot-limit options of the commands that play, by keyword, in the order of their
#: ``--help`` (each is the flag ``--`` + the name with ``-`` for ``_``).
LIMIT_OPTIONS = ("startup_timeout", "reply_timeout", "time_bank", "time_per_hand",
                 "max_memory", "max_cpu", "max_files", "max_file_size", "max_procs",
                 "max_scratch", "stderr_cap", "sandbox")


def limits_from_options(*, startup_timeout: float = 10.0, reply_timeout: float = 5.0,
                        time_bank: float = 30.0, time_per_hand: float = 0.05,
                        max_memory: int = 2048, max_cpu: int = 3600, max_files: int = 256,
                        max_file_size: int = 100, max_procs: int = 64, max_scratch: int = 256,
                        stderr_cap: int = 1024, sandbox: bool = False) -> Limits:
    """The :class:`~pokerbots.server.seats.limits.Limits` the bot-limit options ask for (the
    defaults are the options' own: a time bank of 0 is none, ``stderr_cap`` is in KiB)."""
    return Limits(
        startup=startup_timeout, reply=reply_timeout, time_bank=time_bank or None,
        time_per_hand=time_per_hand,
        resources=ResourceLimits(memory_mib=max_memory, cpu_seconds=max_cpu,
                                 open_files=max_files, file_size_mib=max_file_size,
                                 processes=max_procs, scratch_mib=max_scratch),
        sandbox=sandbox, stderr_cap=stderr_cap * 1024,
    )


def limits_as_dict(limits: Limits) -> dict:
    """``limits`` as plain JSON-ready data, for a job that another process plays."""
    return dataclasses.asdict(limits)


def limits_from_dict(data: dict) -> Limits:
    """The inverse of :func:`limits_as_dict`."""
    return Limits(**{**data, "resources": ResourceLimits(**data["resources"])})

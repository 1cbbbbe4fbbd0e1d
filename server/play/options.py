"""The options of the commands that play, as data a match can use: the game's flags
(:func:`game_options_from_texts`), the bot limits (:data:`LIMITS`, each read from the one field
that declares it; :func:`limits_from_options`, and as JSON-ready data for a job another process
plays), and :class:`MatchSetupError`, the fault of options that cannot make a match.

Apart from :mod:`.match` so that what only reads options (the tournament's director, the
command line's checks) does not import the trio layer that plays.
"""

from __future__ import annotations

import dataclasses
import shlex
from dataclasses import dataclass

from pokerbots.server import games
from pokerbots.server.confine.limits import OFFERED, Offered, ResourceLimits
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


@dataclass(frozen=True)
class LimitOption:
    """One bot-limit option of the commands that play, as its field declares it (see
    :class:`~pokerbots.server.confine.limits.Offered`): ``default`` is the field's default in
    the option's unit, ``field`` the path to the field in
    :class:`~pokerbots.server.seats.limits.Limits` (``("resources", "memory_mib")``)."""

    name: str
    default: int | float | bool
    offered: Offered
    field: tuple[str, ...]

    @property
    def flag(self) -> str:
        return self.offered.flag

    def value(self, given):
        """The field's value for the option's value ``given``."""
        how = self.offered
        if how.zero_is_none and not given:
            return None
        return given * how.per_unit if how.per_unit != 1 else given


def _declared(kind: type, path: tuple[str, ...] = ()) -> list[LimitOption]:
    """The limits ``kind``'s fields declare, in their order (a field that is itself limits, as
    ``resources``, in its place)."""
    found = []
    defaults = kind()
    for spec in dataclasses.fields(kind):
        value = getattr(defaults, spec.name)
        how = spec.metadata.get(OFFERED)
        if dataclasses.is_dataclass(value):
            found += _declared(type(value), (*path, spec.name))
        elif how is not None:
            default = 0 if value is None else value
            if how.per_unit != 1:
                default //= how.per_unit
            found.append(LimitOption(how.name, default, how, (*path, spec.name)))
    return found


#: Every bot-limit option of the commands that play, in the order of their ``--help`` and of a
#: tournament's recorded options.
LIMITS: tuple[LimitOption, ...] = tuple(_declared(Limits))
#: The options by keyword (each is the flag ``--`` + the name with ``-`` for ``_``).
LIMIT_OPTIONS: tuple[str, ...] = tuple(option.name for option in LIMITS)
#: Each option's default (in the option's unit).
LIMIT_DEFAULTS: dict[str, int | float | bool] = {o.name: o.default for o in LIMITS}


def limits_from_options(**options) -> Limits:
    """The :class:`~pokerbots.server.seats.limits.Limits` the bot-limit options ask for, by
    keyword (see :data:`LIMITS`); those left out take their defaults. A keyword that is no
    bot-limit option is a TypeError."""
    unknown = set(options) - set(LIMIT_DEFAULTS)
    if unknown:
        raise TypeError(f"not bot-limit options: {', '.join(sorted(unknown))}")
    fields: dict[str, dict] = {}
    for option in LIMITS:
        *where, name = option.field
        given = options.get(option.name, option.default)
        fields.setdefault(".".join(where), {})[name] = option.value(given)
    resources = ResourceLimits(**fields.pop("resources", {}))
    return Limits(**fields.get("", {}), resources=resources)


def limits_as_dict(limits: Limits) -> dict:
    """``limits`` as plain JSON-ready data, for a job that another process plays."""
    return dataclasses.asdict(limits)


def limits_from_dict(data: dict) -> Limits:
    """The inverse of :func:`limits_as_dict`."""
    return Limits(**{**data, "resources": ResourceLimits(**data["resources"])})

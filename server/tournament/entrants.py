"""The bots of a tournament: ``NAME=BOT`` arguments, unique names, and what each program is.

A BOT is what ``pokerbots run`` takes (a program path, a ``.py`` file, a quoted command line).
``NAME=BOT`` names it (NAME is letters, digits and ``_.-``, at most 40 characters); otherwise
the name is the program's file stem, made unique with ``-2``, ``-3``... Names come from people
and end up in a web page: they are checked here and escaped wherever they are shown.

Each bot is recorded with the sha256 of its program file, so that a resumed tournament can
refuse bots that changed under it.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from pokerbots.server.seats.arguments import parse_bot
from pokerbots.server.seats.bots import BotSpecError

#: The longest name a bot may have.
MAX_NAME = 40
_NAME = re.compile(r"[A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class Entrant:
    """One bot of the field: its name, the argument typed, and how to start it anywhere.

    ``program`` is the absolute path of the file that runs (the script of a ``.py`` bot, which
    each machine runs under its own Python: ``python``), ``args`` the words after it.
    """

    name: str
    arg: str
    program: str
    args: tuple[str, ...]
    python: bool
    sha256: str

    def as_dict(self) -> dict:
        return {**asdict(self), "args": list(self.args)}

    @classmethod
    def from_dict(cls, data: dict) -> Entrant:
        return cls(**{**data, "args": tuple(data["args"])})


def check_name(name: str) -> None:
    """BotSpecError unless ``name`` can name a bot: letters, digits and ``_.-``, at most
    :data:`MAX_NAME` characters."""
    if not _NAME.fullmatch(name):
        raise BotSpecError(f"the name {name!r} may hold only letters, digits and _.-")
    if len(name) > MAX_NAME:
        raise BotSpecError(f"the name {name!r} is longer than {MAX_NAME} characters")


def split_name(text: str) -> tuple[str | None, str]:
    """``'tight=./tight_bot'`` -> ``('tight', './tight_bot')``; anything else names no bot."""
    name, sep, rest = text.partition("=")
    if sep and rest and _NAME.fullmatch(name) and not os.path.exists(text):
        return name, rest
    return None, text


def parse_entrants(texts: list[str]) -> list[Entrant]:
    """Check every bot argument (BotSpecError says what is wrong) and name each bot."""
    found = []
    for text in texts:
        name, arg = split_name(text)
        spec = parse_bot(arg)
        python = shlex.split(arg)[0].endswith(".py")  # parse_bot runs it under this Python
        program = os.path.abspath(spec.argv[1] if python else spec.argv[0])
        rest = spec.argv[2:] if python else spec.argv[1:]
        if name is not None:
            check_name(name)
        found.append((name, Entrant(name or "", arg, program, tuple(rest), python,
                                    sha256_of(program))))
    taken = {name for name, _ in found if name}
    if len(taken) < sum(1 for name, _ in found if name):
        twice = sorted({n for n, _ in found if n and [m for m, _ in found].count(n) > 1})
        raise BotSpecError(f"two bots are called {twice[0]!r}: give each NAME=BOT a new name")
    entrants = []
    for name, entrant in found:
        if name is None:
            name = unique(default_name(entrant.program), taken)
            taken.add(name)
        entrants.append(replace(entrant, name=name))
    return entrants


def default_name(program: str) -> str:
    """A program's file stem, cut down to the characters a name may have."""
    stem = "".join(c if _NAME.fullmatch(c) else "_" for c in Path(program).stem)
    return (stem or "bot")[:MAX_NAME]


def unique(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    for i in range(2, 10_000):
        candidate = f"{name[:MAX_NAME - len(str(i)) - 1]}-{i}"
        if candidate not in taken:
            return candidate
    raise BotSpecError(f"too many bots called {name!r}")


def sha256_of(path: str) -> str:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError as exc:
        raise BotSpecError(f"cannot read {path}: {exc.strerror}") from None
    return digest.hexdigest()


def argv_here(entrant: Entrant, python: str) -> list[str]:
    """The command that starts ``entrant`` on this machine (``python``: this interpreter)."""
    head = [python, entrant.program] if entrant.python else [entrant.program]
    return head + list(entrant.args)

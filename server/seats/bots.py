"""Turning a bot argument from the command line into a command to start.

A bot argument is a path to an executable (``bots/call_bot``), a Python file (``bots/x.py``,
run under the server's own interpreter so it finds the same packages), a quoted command line
(``"python3 mybot.py --aggressive"``; ``"python3 -m pokerbots.server.play.smoke_random"``, a
module of this package, runs under the server's interpreter too), or a foreign bot that a
relay program plays through (``http://127.0.0.1:9000/``, a Lean Poker player;
``acpc:COMMAND``, an ACPC agent: see ``adapters/``). Everything is checked before any bot
starts, so a typo costs nothing.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass

#: ``python3 -m pokerbots.…`` runs a module of this package under the server's own Python.
PYTHONS = ("python", "python3")
PACKAGE_MODULES = "pokerbots."


class BotSpecError(ValueError):
    """A bot argument that cannot be started; the message says what to do instead."""


@dataclass(frozen=True)
class BotSpec:
    #: What the user typed, used to name the bot in results and errors.
    label: str
    #: The argv to execute.
    argv: tuple[str, ...]
    #: File descriptors the bot inherits besides its pipes (a human seat gets the terminal).
    pass_fds: tuple[int, ...] = ()
    #: Seconds for each reply when this seat has its own limit (a person needs longer).
    reply_limit: float | None = None
    #: The foreign protocol this seat's relay speaks (a kind of ``adapters.KINDS``), if any.
    adapter: str | None = None
    #: The exit code with which this seat leaves the table (a person's Ctrl-D): the round
    #: then ends as "left", not as a broken rule.
    leave_code: int | None = None
    #: Whether the seat's relay reads each finished hand's public record (every action, the
    #: board, the cards shown) from a pipe whose descriptor is in POKERBOTS_HANDS_FD: a foreign
    #: protocol may tell a bot more than ours does (see server/adapters/).
    hand_feed: bool = False
    #: The person at the server's terminal plays this seat (``pokerbots run BOT -``): the one
    #: test of a person's seat (:func:`~pokerbots.server.seats.arguments.human_spec` sets it).
    #: Such a seat is not confined, has a reply limit of its own and may leave the table.
    person: bool = False


def parse_program(arg: str) -> BotSpec:
    """Check the program ``arg`` names (a path, a ``.py`` file or a command line) and return
    the command that starts it; BotSpecError if it cannot start. Foreign bots and the human
    seat are told apart before this (:mod:`.arguments`)."""
    try:
        words = split_command(arg)
    except ValueError as exc:
        raise BotSpecError(f"bot {arg!r}: {exc}") from None
    if not words:
        raise BotSpecError("an empty bot argument: give a path to a bot program")
    program, rest = words[0], words[1:]
    if len(words) > 1 and os.path.isfile(arg) and not os.path.isfile(program):
        quoted = shlex.quote(arg)
        raise BotSpecError(
            f"bot {arg!r}: the path has a space in it, and a bot argument is a command line that"
            f" is split at spaces (into {program!r} and more); quote the path inside the argument,"
            f" as in \"{quoted}\", or rename the file")
    if program.endswith(".py"):
        _check_file(program, arg, need_exec=False)
        return BotSpec(arg, (sys.executable, program, *rest))
    if program in PYTHONS and rest[:1] == ["-m"] and rest[1:2] and \
            rest[1].startswith(PACKAGE_MODULES):
        # A module of pokerbots itself (the smoke test's random opponent) is installed where
        # the server runs: under its own Python, whichever python3 comes first on PATH.
        return BotSpec(arg, (sys.executable, *rest))
    if os.sep in program or os.path.exists(program):
        _check_file(program, arg, need_exec=True)
        _check_interpreter(program, arg)
        return BotSpec(arg, (program, *rest))
    found = shutil.which(program)
    if found is None:
        raise BotSpecError(
            f"bot {arg!r}: {program!r} is neither a file here nor a command on PATH"
        )
    return BotSpec(arg, (found, *rest))


def split_command(text: str) -> list[str]:
    """The words of a command line, as a shell splits them; ValueError says why it cannot."""
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"cannot split the command line ({exc})") from None


def _check_file(path: str, arg: str, *, need_exec: bool) -> None:
    if not os.path.exists(path):
        raise BotSpecError(f"bot {arg!r}: {path} does not exist")
    if os.path.isdir(path):
        raise BotSpecError(f"bot {arg!r}: {path} is a directory, not a program")
    if not os.access(path, os.R_OK):
        raise BotSpecError(f"bot {arg!r}: {path} is not readable")
    if need_exec and not os.access(path, os.X_OK):
        raise BotSpecError(
            f"bot {arg!r}: {path} is not executable (chmod +x {shlex.quote(path)},"
            " or name its interpreter, as in \"python3 mybot.py\")"
        )


def _check_interpreter(path: str, arg: str) -> None:
    """A script whose ``#!`` interpreter is missing would fail only after the match starts."""
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError as exc:
        raise BotSpecError(f"bot {arg!r}: cannot read {path}: {exc.strerror}") from None
    if not head.startswith(b"#!"):
        return
    first = head[2:].split(b"\n", 1)[0]
    if first.endswith(b"\r"):
        raise BotSpecError(
            f"bot {arg!r}: {path} has Windows line endings (CRLF): its #! line ends in a carriage"
            f" return, so the system looks for an interpreter named"
            f" {first[:-1].decode('utf-8', 'replace').split()[-1] + chr(13)!r}, which does not"
            f" exist; convert the file to Unix line endings (dos2unix {shlex.quote(path)},"
            f" or sed -i 's/\\r$//' {shlex.quote(path)})")
    words = first.decode("utf-8", "replace").split()
    if not words:
        raise BotSpecError(f"bot {arg!r}: {path} has an empty #! line")
    interpreter = words[0]
    if os.path.basename(interpreter) == "env" and len(words) > 1:
        name = next((w for w in words[1:] if not w.startswith("-")), None)
        if name and shutil.which(name) is None:
            raise BotSpecError(
                f"bot {arg!r}: its #! line asks for {name!r}, which is not on PATH"
            )
    elif not os.access(interpreter, os.X_OK):
        raise BotSpecError(
            f"bot {arg!r}: its #! interpreter {interpreter} does not exist or is not executable"
        )

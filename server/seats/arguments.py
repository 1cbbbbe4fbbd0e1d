"""Bot arguments as typed on a command line, turned into seats.

A bot argument is a program (a path, a ``.py`` file, a command line: :mod:`.bots`), a foreign
bot reached through a relay (``http://...``, ``acpc:...``: :mod:`.relays`), or, for
``pokerbots run``, the person at this terminal (``-`` or ``human``: :mod:`.relays.human`).
This module is the one place that tells them apart.
"""

from __future__ import annotations

import os
import sys

from pokerbots.server.errors import PERSON
from pokerbots.server.seats import relays
from pokerbots.server.seats.bots import BotSpec, BotSpecError, parse_program


def parse_bot(arg: str) -> BotSpec:
    """Check ``arg`` and return the command that starts it; BotSpecError if it cannot start."""
    foreign = relays.parse(arg)
    return foreign if foreign is not None else parse_program(arg)


#: What a person types on the command line for their own seat.
HUMAN_ARGS = ("-", "human")
#: How the seat is named in results and errors.
HUMAN_LABEL = PERSON
#: Seconds a person has for each reply: a day, so in practice no limit.
HUMAN_REPLY_LIMIT = 24 * 3600.0
#: The relay's exit code after Ctrl-D (end of input): the person left the table.
EXIT_EOF = 3


def is_human_arg(arg: str) -> bool:
    return arg.strip() in HUMAN_ARGS


def human_spec() -> BotSpec:
    """The seat of the person at this process's terminal (its stdin, stdout and stderr)."""
    fds = [os.dup(0), os.dup(1), os.dup(2)]
    argv = (sys.executable, "-m", "pokerbots.server.seats.relays.human",
            "--in", str(fds[0]), "--out", str(fds[1]), "--err", str(fds[2]))
    return BotSpec(HUMAN_LABEL, argv, pass_fds=tuple(fds), reply_limit=HUMAN_REPLY_LIMIT,
                   leave_code=EXIT_EOF, person=True)


def parse_seats(args) -> list[BotSpec]:
    """Every seat of ``pokerbots run``: bots, and at most one person (``-`` or ``human``)."""
    specs: list[BotSpec] = []
    for arg in args:
        if is_human_arg(arg):
            if any(spec.person for spec in specs):
                raise BotSpecError("only one seat can be the terminal ('-' or 'human')")
            specs.append(human_spec())
        else:
            specs.append(parse_bot(arg))
    return specs

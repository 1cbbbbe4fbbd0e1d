"""Bots from the rest of the poker world as seats: Lean Poker HTTP players and ACPC agents.

An adapter is a relay program inside this package, like the human seat (``server/human.py``):
the server starts it as the seat's bot, it speaks our protocol on stdin/stdout through the
client library, and the foreign protocol on the other side (:mod:`.leanpoker` over HTTP,
:mod:`.acpc` over TCP). So the server's time limits, fault paragraphs, stderr capture and
process clean-up apply to it unchanged. Adding a kind of foreign bot is one module here and
one entry in :data:`KINDS`; :func:`parse` is how ``bots.py`` turns a bot argument into the
relay's command line, and :func:`check_table` refuses, before anything starts, a table an
adapter cannot play. A relay module is imported only when a seat is of its kind: a match of
ordinary bots starts without loading HTTP and socket code it does not use.

Internal (a program uses :mod:`pokerbots.api`).
"""

from __future__ import annotations

import contextvars
import importlib
import sys
from types import ModuleType

from pokerbots.server.seats.bots import BotSpec, BotSpecError, parse_program

#: Whether an http:// player may be on another host (``pokerbots run --allow-remote-bots``).
allow_remote = contextvars.ContextVar("allow_remote_bots", default=False)

#: The kinds of adapter, by the name a BotSpec carries, with the start of a bot argument
#: that names one; the relay module of each is ``pokerbots.server.seats.relays.<kind>``.
KINDS = {"leanpoker": ("http://", "https://"), "acpc": ("acpc:",)}


def relay_module(kind: str) -> ModuleType:
    """The relay module of the adapter ``kind`` (imported on first use)."""
    return importlib.import_module(f"{__name__}.{kind}")


def _relay(kind: str, label: str, *args: str) -> BotSpec:
    return BotSpec(label, (sys.executable, "-m", f"pokerbots.server.seats.relays.{kind}", *args),
                   adapter=kind, hand_feed=getattr(relay_module(kind), "HAND_FEED", False))


def parse(arg: str) -> BotSpec | None:
    """The seat for ``arg`` when it names a foreign bot (``http://...``, ``acpc:COMMAND``),
    else None. BotSpecError says what is wrong with it."""
    kind = next((k for k, starts in KINDS.items() if arg.startswith(starts)), None)
    if kind == "leanpoker":
        leanpoker = relay_module(kind)
        try:
            leanpoker.check_url(arg, allow_remote.get())
        except ValueError as exc:
            raise BotSpecError(f"bot {arg!r}: {exc}") from None
        version = leanpoker.version_of(arg)
        label = f"{arg} ({version})" if version else arg
        return _relay("leanpoker", label, arg)
    if kind == "acpc":
        try:
            words = relay_module(kind).check_command(arg[len("acpc:"):])
        except ValueError as exc:
            raise BotSpecError(f"bot {arg!r}: {exc}") from None
        program = parse_program(words[0])  # a path, a .py file or a command on PATH, checked
        return _relay("acpc", arg, "--", *program.argv, *words[1:])
    return None


def check_table(specs: list[BotSpec], game, *, sandbox: bool = False) -> None:
    """Refuse (BotSpecError) a seat whose adapter cannot play ``game`` (a table of the
    registry, as the match makes it)."""
    for seat, spec in enumerate(specs):
        if spec.adapter == "leanpoker":
            if not game.structure.no_limit or game.hole_cards != 2:
                raise BotSpecError(f"seat {seat} ({spec.label}) is a Lean Poker player, which"
                                   f" plays no-limit Hold'em, not {game.name}")
            if sandbox:
                raise BotSpecError(f"seat {seat} ({spec.label}) is a Lean Poker player: the"
                                   " sandbox has no network to reach it; run without --sandbox")
        elif spec.adapter == "acpc":
            why = relay_module("acpc").unsupported(game)
            if why:
                raise BotSpecError(f"seat {seat} ({spec.label}) is an ACPC agent, which cannot"
                                   f" play this table: {why}")


__all__ = ["KINDS", "allow_remote", "check_table", "parse", "relay_module"]

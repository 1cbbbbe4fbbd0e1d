"""``pokerbots new NAME --lang LANG``: start a bot from a kit (:mod:`pokerbots.protocol.kits`).

Exit code: 0 the folder was written (or the languages listed), 2 a bad command line: an
unknown language, or a NAME that is a file or a folder that is not empty (nothing is written).
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import click

from pokerbots.protocol import kits
from pokerbots.server.cli.errors import BadInput, usage_error

#: The one-line help, also in the command line's table of commands.
SHORT_HELP = "Start a bot from a kit: a small, complete bot in the language of your choice."


def list_kits() -> None:
    """One line per language: its name, what builds or runs it, and whether that is here."""
    width = max(len(kit.name) for kit in kits.KITS)
    for kit in kits.KITS:
        also = f" (also {', '.join(kit.aliases)})" if kit.aliases else ""
        missing = "" if shutil.which(kit.tool) else f"  [{kit.tool} is not on this machine]"
        click.echo(f"{kit.name:<{width}}  {kit.title}{also}{missing}")


def new(name: Path | None, lang: str | None, list_: bool) -> None:
    """Write the folder NAME: a complete, small bot in the language LANG.

    The bot plays every game (Kuhn, Leduc, no-limit and limit Hold'em) at any table size with
    a simple strategy; a client library of its own in that language (standard library only)
    reads the messages, keeps the hand's state and lists the legal replies. Where the language
    needs building, NAME/build builds it with the machine's compiler, downloading nothing.
    Then:

        cd NAME && ./build && cd .. && pokerbots smoke NAME/bot --game all

    (A Python bot needs no build, and its entry point is NAME/bot.py.) NAME/README.md says
    where the strategy goes. `pokerbots new --list` lists the languages.
    """
    if list_:
        list_kits()
        return
    if name is None:
        raise usage_error("give the name of the new folder: pokerbots new NAME --lang LANG")
    if lang is None:
        languages = "|".join(kit.name for kit in kits.KITS)
        raise usage_error(f"say which language: --lang {languages}", "--lang")
    try:
        kit = kits.find(lang)
    except kits.KitError as exc:
        raise usage_error(str(exc), "--lang") from None
    try:
        kits.write(kit, name)
    except kits.KitError as exc:
        raise BadInput(str(exc)) from None
    except OSError as exc:
        raise BadInput(f"cannot write {name}: {exc.strerror or exc}") from None
    entry = name / kit.entry
    click.echo(f"Wrote {name}/: a bot in {kit.title.split(',')[0]}"
               f" (strategy and client library; {name}/README.md says where the strategy"
               " goes).")
    steps = []
    if kit.built:
        steps.append(f"cd {_quoted(name)} && ./build && cd ..")
    steps.append(f"pokerbots smoke {_quoted(entry)} --game all")
    click.echo("Next:\n" + "".join(f"    {step}\n" for step in steps), nl=False)
    if not shutil.which(kit.tool):
        click.echo(f"Note: {kit.tool} is not on this machine's PATH; the bot needs it.",
                   err=True)


def _quoted(path: Path) -> str:
    return shlex.quote(str(path))


def command() -> click.Command:
    """The ``new`` command, built when the command line registers it."""
    options = [
        click.argument("name", required=False, type=click.Path(path_type=Path)),
        click.option("--lang", "-l", metavar="LANG", default=None,
                     help="The bot's language (see --list)."),
        click.option("--list", "list_", is_flag=True, help="List the languages and exit."),
    ]
    func = new
    for option in reversed(options):
        func = option(func)
    return click.command(name="new", short_help=SHORT_HELP)(func)

"""``pokerbots export LOGDIR --format phh|acpc [-o OUT]`` (:mod:`pokerbots.server.logs.export`)."""

from __future__ import annotations

from pathlib import Path

import click

from pokerbots.server.cli.errors import BadInput
from pokerbots.server.logs.export import FORMATS, ExportError


def command() -> click.Command:
    """The ``export`` command (built on each call, as the other commands' modules do)."""
    options = [
        click.argument("logdir", type=click.Path(path_type=Path)),
        click.option("--format", "fmt", type=click.Choice(list(FORMATS)), required=True,
                     help="phh: one PHH file per hand; acpc: the ACPC dealer's log."),
        click.option("--output", "-o", type=click.Path(path_type=Path), default=None,
                     help="Where to write (default: LOGDIR/export-phh/ or"
                          " LOGDIR/match.acpc.log)."),
    ]
    func = export
    for option in reversed(options):
        func = option(func)
    return click.command(name="export",
                         short_help="Write a match's hands as PHH files or an ACPC log.")(func)


def export(logdir, fmt, output):
    """Write the hands of the match in LOGDIR as PHH files (--format phh, one per hand) or as
    the ACPC dealer's log (--format acpc), for the tools of the PokerKit and ACPC communities.

    Exit code: 0 written, 2 LOGDIR is not a match that can be exported (the reason is given).
    """
    try:
        click.echo(FORMATS[fmt](logdir, output))
    except ExportError as exc:
        raise BadInput(str(exc)) from None


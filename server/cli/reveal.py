"""``pokerbots reveal [ID]... | --all``: publish the seeds of a competition's finished
tournaments (:func:`pokerbots.server.service.data.commitments.reveal`), in its data folder; the
service may be running. Each tournament's page then shows its seed and salt, and how anyone
checks them against the commitment it showed from the start."""

from __future__ import annotations

import time
from pathlib import Path

import click

from pokerbots.server.cli.errors import refused
from pokerbots.server.cli.team import DATA, service_store


def reveal(ids: tuple[int, ...], every: bool, data: Path) -> None:
    """Publish the seed and salt of the finished tournaments ID... (or of every finished one
    with --all): their pages and the API show them from now on, with the command that checks
    them against the commitment the page showed since the tournament started, and anyone can
    recompute every match seed and card from them. Do it when the season is over: a revealed
    tournament's folded hands are no longer secret. A tournament still playing (or waiting
    to resume) is refused: its seed would tell the cards still to come."""
    from pokerbots.server.service.data.commitments import RevealRefused, check_command
    from pokerbots.server.service.data.commitments import reveal as reveal_seeds

    if bool(ids) == every:
        raise click.UsageError("give the ids of the tournaments to reveal, or --all")
    with service_store(data) as store:
        try:
            done = reveal_seeds(store, None if every else list(ids))
        except RevealRefused as exc:
            raise refused(exc) from None
    for row in done.tournaments:
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(row["revealed"]))
        click.echo(f"Tournament {row['id']} ({row['status']}), revealed {when}: seed"
                   f" {row['seed']}")
        if row["salt"] is None:
            click.echo("    (it started before seeds had a commitment: it has no salt)")
            continue
        click.echo(f"    salt {row['salt']}, commitment {row['commitment']}")
        click.echo(f"    check: {check_command(row['seed'], row['salt'])}")
    if done.unfinished:
        click.echo(f"Not revealed, not finished: {', '.join(map(str, done.unfinished))}.",
                   err=True)


def command() -> click.Command:
    """The ``reveal`` command, built when the command line runs it."""
    func = click.argument("ids", nargs=-1, type=click.IntRange(min=1), metavar="[ID]...")(
        click.option("--all", "every", is_flag=True,
                     help="Every finished tournament.")(DATA(reveal)))
    return click.command(name="reveal", short_help="Publish the seeds of finished"
                         " tournaments, to be checked against their commitments.")(func)

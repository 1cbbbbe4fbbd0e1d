"""``pokerbots submit FOLDER --to URL``: upload a bot to a competition
(:mod:`pokerbots.server.service.uploads.client`); exit codes a team's CI can gate on."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pokerbots.server.errors import Exit, printable


def submit(folder: Path, to: str, token: str, wait: bool, timeout: float) -> None:
    """Pack the bot FOLDER (an executable bot or a bot.py at its top, an optional VERSION)
    and upload it to the service at --to with the team's --token; print the version's status
    URL. The bot plays as the team's name once it passes its smoke test.

    With --wait, follow the smoke test: exit 0 when the version is admitted, 1 when it is
    quarantined or rejected (the reason is printed). Exit 2: the upload was refused (a wrong
    token, no entry point, an archive too large); 3: the service cannot be reached, or asks
    to wait (it takes one upload per team every --upload-interval).
    """
    from pokerbots.server.service.uploads.client import Service, SubmitError
    from pokerbots.server.service.uploads.client import submit as upload
    from pokerbots.server.service.uploads.client import wait as follow

    service = Service(to, token)
    try:
        uploaded = upload(service, folder)
        click.echo(f"Uploaded {uploaded['team']} version {uploaded['version']}:"
                   f" {uploaded['status']}")
        click.echo(uploaded["url"])
        final = uploaded
        if wait:
            final = follow(service, uploaded, timeout,
                           on_change=lambda d: click.echo(f"{d['status']}"))
    except SubmitError as exc:
        click.echo(f"Error: {exc.message}", err=True)
        sys.exit(exc.code)
    if final["status"] in ("quarantined", "rejected", "superseded"):
        # The reason and the report quote the bot's replies and stderr: escaped.
        click.echo(printable(f"Version {final['version']} is {final['status']}:"
                             f" {final['reason']}"))
        if final.get("report"):
            click.echo(printable(final["report"]))
        sys.exit(Exit.FAULT)
    if final["status"] == "admitted":
        click.echo(f"Version {final['version']} is admitted: it plays the next tournament.")
    sys.exit(Exit.DONE)


def command() -> click.Command:
    """The ``submit`` command (built when the command line runs it)."""
    params = [
        click.argument("folder", type=click.Path(exists=True, file_okay=False,
                                                 path_type=Path)),
        click.option("--to", "to", required=True, metavar="URL",
                     help="The service's address, e.g. http://pokerbots.example:8000."),
        click.option("--token", required=True, envvar="POKERBOTS_TOKEN",
                     help="The team's token (pokerbots team add printed it); or set"
                          " POKERBOTS_TOKEN."),
        click.option("--wait", is_flag=True,
                     help="Follow the smoke test: exit 0 admitted, 1 quarantined or"
                          " rejected."),
        click.option("--timeout", type=click.FloatRange(min=1), default=600.0,
                     show_default=True, metavar="SECONDS",
                     help="How long --wait waits for the verdict (then exit 3)."),
    ]
    func = submit
    for param in reversed(params):
        func = param(func)
    return click.command(name="submit", short_help="Upload a bot folder to a competition;"
                         " --wait for its verdict.")(func)

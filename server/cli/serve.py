"""``pokerbots serve SUBMISSIONS``: the competition service, from the command line.

The command parses its options (those of ``pokerbots tournament`` among them) into a
:class:`~pokerbots.server.service.serve.ServeConfig` and runs
:func:`~pokerbots.server.service.serve.serve`, which checks everything before anything starts
(exit 2 with the reason), then runs until SIGTERM or Ctrl-C (exit 0). Exit 3: the service
itself could not go on (its store could not be written).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click

from pokerbots.server.cli import tournament as tournament_command
from pokerbots.server.cli.errors import refused
from pokerbots.server.cli.options import positive_duration
from pokerbots.server.errors import Exit

#: The tournament options the service sets itself, or takes in its own way.
_OWN = ("bots", "seed", "out", "scheduler", "players")

#: ``--every`` and the other times of the service: the one grammar of a time
#: (:func:`~pokerbots.server.cli.options.parse_duration`), above 0, in seconds.
parse_every = positive_duration


def parse_size(ctx, param, text: str) -> int:
    """``50M``, ``512K``, ``1G`` or a number of bytes."""
    match = re.fullmatch(r"(\d+)([KMG]?)(?:i?B)?", text.strip(), re.IGNORECASE)
    if not match or int(match[1]) <= 0:
        raise click.BadParameter(f"{text!r}: give a size such as 50M, 512K or 1G")
    return int(match[1]) << {"": 0, "K": 10, "M": 20, "G": 30}[match[2].upper()]


def serve(submissions: Path, data: Path, every: float, host: str, port: int, players: int,
          no_sandbox: bool, max_upload: int, upload_interval: float, scheduler: str | None,
          ladder: int, head_timeout: float, body_timeout: float, max_connections: int,
          behind_proxy: bool, **options) -> None:
    """Run a competition: every bot in SUBMISSIONS (one folder per bot) is smoke-tested, then
    plays a tournament at start-up and every --every; the results are on a web site.

    SUBMISSIONS/NAME/ is the bot NAME: its entry point is an executable file named bot, or
    a bot.py; an optional VERSION file names its version (else a sha256 of its files does).
    A new version plays only after passing `pokerbots smoke` for this game and table size;
    until then the bot's previous admitted version plays. Every result is kept in --data;
    restarting resumes an unfinished tournament. Bots run under --sandbox (bubblewrap): where
    it cannot confine them the service is refused, unless --no-sandbox runs them unconfined
    (every page then says so). SIGTERM or Ctrl-C stops cleanly (exit 0).
    """
    from pokerbots.server.service.serve import ServeConfig, ServiceError
    from pokerbots.server.service.serve import serve as run_service

    if options["sandbox"] and no_sandbox:
        raise click.UsageError("give --sandbox or --no-sandbox, not both")
    wanted = False if no_sandbox else (True if options["sandbox"] else None)
    config = ServeConfig(submissions=submissions, data=data, every=every, host=host,
                         port=port, players=players, sandbox=wanted, tournament=options,
                         max_upload=max_upload, upload_interval=upload_interval,
                         scheduler=scheduler, ladder=ladder, head_timeout=head_timeout,
                         body_timeout=body_timeout, max_connections=max_connections,
                         behind_proxy=behind_proxy)
    try:
        run_service(config)
    except ServiceError as exc:
        raise refused(exc) from None
    sys.exit(Exit.DONE)


def command() -> click.Command:
    """The ``serve`` command (built when the command line runs it)."""
    shared = {name: param for name, param in tournament_command.options().items()
              if name not in _OWN}
    params = [
        click.argument("submissions", type=click.Path(exists=True, file_okay=False,
                                                      path_type=Path)),
        click.option("--data", type=click.Path(file_okay=False, path_type=Path),
                     default=Path("pokerbots-data"), show_default=True,
                     help="Folder of the service's store, bot copies, tournaments and logs;"
                          " a restart with the same --data carries on."),
        click.option("--every", default="1h", show_default=True, callback=parse_every,
                     metavar="TIME",
                     help="Time from the start of a tournament to the start of the next:"
                          " a number and a unit (s, m, h, d, w): 90s, 15m, 1h, 1h30m."),
        click.option("--host", default="127.0.0.1", show_default=True,
                     help="Address the web site listens on."),
        click.option("--port", type=click.IntRange(0, 65535), default=8000,
                     show_default=True, help="Port of the web site (0: any free one)."),
        click.option("--players", "-p", type=click.IntRange(min=2), default=2,
                     show_default=True,
                     help="Table size K: every combination of K admitted bots plays; the"
                          " smoke test uses tables of K too."),
        click.option("--no-sandbox", is_flag=True,
                     help="Run bots unconfined, without bubblewrap (every page says so);"
                          " without it the service is refused where bubblewrap cannot"
                          " confine them."),
        click.option("--max-upload", default="50M", show_default=True, callback=parse_size,
                     metavar="SIZE",
                     help="Longest bot archive a team may upload, and most bytes its files"
                          " may unpack to (K, M, G: 512K, 50M)."),
        click.option("--upload-interval", default="60s", show_default=True,
                     callback=parse_every, metavar="TIME",
                     help="Shortest time between two uploads of a team, accepted or refused"
                          " (a number and a unit: s, m, h, d, w)."),
        click.option("--scheduler", metavar="ADDRESS", default=None,
                     help="Play the tournaments' matches on the Dask cluster of this scheduler"
                          " (tcp://host:port); its workers must see --data at the same path."),
        click.option("--ladder", type=click.IntRange(min=1), default=24, show_default=True,
                     metavar="N",
                     help="The home page's ladder ranks the admitted bots over the last N"
                          " finished tournaments."),
        # The site's connections (server/service/site/connections.py, whose defaults these are).
        click.option("--head-timeout", default="10s", show_default=True,
                     callback=parse_every, metavar="TIME",
                     help="A request's head must arrive whole within this time of the"
                          " connection's start (or of the previous answer); else the"
                          " connection is closed."),
        click.option("--body-timeout", default="120s", show_default=True,
                     callback=parse_every, metavar="TIME",
                     help="A request's body must arrive whole within this time of its head"
                          " (else 408 and closed), and each block of an answer be taken by"
                          " the client within it. 120s takes a 50M upload at 3.5 Mbit/s."),
        click.option("--max-connections", type=click.IntRange(min=1), default=1000,
                     show_default=True, metavar="N",
                     help="Most connections open at once (lowered to fit the open-file"
                          " limit); at the cap a new one closes the connection that has"
                          " waited longest for its client."),
        click.option("--behind-proxy", is_flag=True,
                     help="The site is reached through one reverse proxy (TLS): trust its"
                          " X-Forwarded-Proto, -For and -Host headers (the login cookie is"
                          " then Secure over https). Without it they are ignored."),
        *shared.values(),
    ]

    def func(**kwargs):
        return serve(**kwargs)

    func.__doc__ = serve.__doc__
    for param in reversed(params):
        func = param(func)
    return click.command(name="serve", short_help="Run a competition: submissions,"
                         " quarantine, a tournament every hour, a web site.")(func)

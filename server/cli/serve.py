"""``pokerbots serve SUBMISSIONS``: the competition service, from the command line.

Everything is checked before anything starts (exit 2 with the reason): the submissions
folder, the tournament options (those of ``pokerbots tournament``, checked by its own code),
``--every``, the address (the port is bound here, so that a port in use is said at once), the
sandbox, and that no other service uses the data folder. Then one trio loop runs the
scheduler (:mod:`.scheduler`) and hypercorn serving the site (:mod:`.web`) until SIGTERM or
Ctrl-C: the running tournament stops cleanly (every bot ended) and the command exits 0. Exit
3: the service itself could not go on (its store could not be written).
"""

from __future__ import annotations

import fcntl
import inspect
import re
import signal
import socket
import sys
from functools import partial
from pathlib import Path

import click
import trio

from pokerbots.server import games
from pokerbots.server.cli import tournament as tournament_command
from pokerbots.server.cli.options import make_limits, parse_game_options
from pokerbots.server.confine import sandbox
from pokerbots.server.service import scheduler, store
from pokerbots.server.service.pages import Now, every_text
from pokerbots.server.tournament.job import limits_as_dict

EXIT_INTERNAL = 3
#: The tournament options the service sets itself, or takes in its own way.
_OWN = ("bots", "seed", "out", "scheduler", "players")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600}
#: The keyword arguments of make_limits beyond the two time-outs.
_LIMITS = [p.name for p in inspect.signature(make_limits).parameters.values()
           if p.kind is p.KEYWORD_ONLY]


def parse_every(ctx, param, text: str) -> float:
    """``1h``, ``15m``, ``90s``, ``90`` or ``1h30m``, in seconds."""
    parts = re.findall(r"(\d+(?:\.\d*)?)([smh]?)", text.strip())
    if not parts or "".join(a + b for a, b in parts) != text.strip():
        raise click.BadParameter(f"{text!r}: give a time such as 1h, 15m, 90s or 1h30m")
    seconds = sum(float(number) * _UNITS[unit] for number, unit in parts)
    if seconds <= 0:
        raise click.BadParameter(f"{text!r}: the time between tournaments must be above 0")
    return seconds


def serve(submissions: Path, data: Path, every: float, host: str, port: int, players: int,
          no_sandbox: bool, **options) -> None:
    """Run a competition: every bot in SUBMISSIONS (one folder per bot) is smoke-tested, then
    plays a tournament at start-up and every --every; the results are on a web site.

    SUBMISSIONS/NAME/ is the bot NAME: its entry point is an executable file named bot, or
    a bot.py; an optional VERSION file names its version (else a sha256 of its files does).
    A new version plays only after passing `pokerbots smoke` for this game and table size;
    until then the bot's previous admitted version plays. Every result is kept in --data;
    restarting resumes an unfinished tournament. Bots run under --sandbox when bubblewrap is
    installed (--no-sandbox to turn it off). SIGTERM or Ctrl-C stops cleanly (exit 0).
    """
    game = options["game"]
    given = parse_game_options(game, options["game_texts"])
    kind = games.get(game)
    if not kind.min_players <= players <= kind.max_players:
        raise click.BadParameter(f"{game} is played by {kind.min_players} to"
                                 f" {kind.max_players} players, not {players}",
                                 param_hint="--players")
    tournament_command.check_table(game, players, given, options["refine"])
    options = {**options, "players": players,
               "sandbox": _sandbox(options["sandbox"], no_sandbox)}
    limits = limits_as_dict(make_limits(options["startup_timeout"], options["reply_timeout"],
                                        **{k: options[k] for k in _LIMITS}))
    settings = scheduler.Settings(submissions=submissions.resolve(), data=data.resolve(),
                                  every=every, players=players, options=options,
                                  limits=limits)
    lock = _lock(data)
    listener = _listen(host, port)
    try:
        results = store.open_store(settings.data)
    except store.StoreError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(EXIT_INTERNAL)
    _check_smoke(results, settings)
    service = scheduler.Service(settings, results)
    click.echo(f"pokerbots serve: bots from {settings.submissions}, data in {settings.data}")
    click.echo(f"{kind.title}, tables of {players}, {options['hands']:,} hands per match;"
               f" a tournament at start-up, then every {every_text(every)}; bots run"
               + (" in the sandbox (bubblewrap)" if settings.sandbox else " without a sandbox"))
    try:
        failure = trio.run(_main, service, listener, host)
    finally:
        results.close()
        lock.close()
    if failure:
        click.echo(f"Error: the service cannot go on: {failure}", err=True)
        sys.exit(EXIT_INTERNAL)
    click.echo("Stopped.")
    sys.exit(0)


def _sandbox(asked: bool, refused: bool) -> bool:
    """``--sandbox`` (must be possible), ``--no-sandbox``, or neither: on if bwrap is here."""
    if asked and refused:
        raise click.UsageError("give --sandbox or --no-sandbox, not both")
    if refused:
        return False
    if asked:
        try:
            sandbox.check()
        except sandbox.SandboxUnavailable as exc:
            raise click.UsageError(str(exc)) from None
        return True
    return sandbox.bwrap_path() is not None


def _lock(data: Path):
    """Hold ``data/service.lock`` while the service runs: two services cannot share data."""
    try:
        data.mkdir(parents=True, exist_ok=True)
        held = open(data / "service.lock", "w")
    except OSError as exc:
        raise click.BadParameter(f"cannot use {data}: {exc.strerror}",
                                 param_hint="--data") from None
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        held.close()
        raise click.BadParameter(f"another pokerbots serve is using {data}: stop it, or give"
                                 " another --data", param_hint="--data") from None
    return held


def _listen(host: str, port: int) -> socket.socket:
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family)
    except OSError as exc:
        raise click.BadParameter(f"cannot listen on {host} port {port}:"
                                 f" {exc.strerror or exc}", param_hint="--host/--port") from None


def _check_smoke(results: store.Store, settings: scheduler.Settings) -> None:
    """Versions were tested for one game and table size: another one tests them again."""
    options = settings.options
    smoke = {"game": options["game"], "game_texts": options["game_texts"],
             "players": settings.players}
    before = results.meta("smoke")
    if before is not None and before != smoke:
        count = results.test_again()
        click.echo(f"The game or table size changed since the last run: {count} versions"
                   " are smoke-tested again")
    results.set_meta("smoke", smoke)
    results.set_meta("options", {**options, "every": settings.every})


async def _main(service: scheduler.Service, listener: socket.socket, host: str) -> str | None:
    """Serve until SIGTERM or Ctrl-C; what stopped the service if it was not that."""
    from hypercorn.config import Config
    from hypercorn.trio import serve as hypercorn_serve

    from pokerbots.server.service.web import create_app

    def now() -> Now:
        return Now(service.settings, service.playing, service.testing, service.next_at)

    config = Config()
    port = listener.getsockname()[1]
    config.bind = [f"fd://{listener.detach()}"]
    config.loglevel = "WARNING"  # the address is printed here, once
    stop = trio.Event()
    failure: list[str] = []

    async def run_service() -> None:
        found = await service.run()
        if found is not None:
            failure.append(found)
            stop.set()

    async def signals() -> None:
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as received:
            async for signum in received:
                if not stop.is_set():
                    click.echo(f"{signal.Signals(signum).name}: stopping (the running"
                               " tournament ends its matches first)")
                stop.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(signals)
        await nursery.start(partial(hypercorn_serve, create_app(service.settings.data, now),
                                    config, shutdown_trigger=stop.wait))
        shown = f"[{host}]" if ":" in host else host
        click.echo(f"The site: http://{shown}:{port}/ (Ctrl-C stops)")
        async with trio.open_nursery() as work:
            work.start_soon(run_service)
            await stop.wait()
            work.cancel_scope.cancel()
        nursery.cancel_scope.cancel()
    return failure[0] if failure else None


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
                     help="Time from the start of a tournament to the start of the next"
                          " (s, m, h: 90s, 15m, 1h, 1h30m)."),
        click.option("--host", default="127.0.0.1", show_default=True,
                     help="Address the web site listens on."),
        click.option("--port", type=click.IntRange(0, 65535), default=8000,
                     show_default=True, help="Port of the web site (0: any free one)."),
        click.option("--players", "-p", type=click.IntRange(min=2), default=2,
                     show_default=True,
                     help="Table size K: every combination of K admitted bots plays; the"
                          " smoke test uses tables of K too."),
        click.option("--no-sandbox", is_flag=True,
                     help="Run bots without bubblewrap (the default is --sandbox when bwrap"
                          " is installed)."),
        *shared.values(),
    ]

    def func(**kwargs):
        return serve(**kwargs)

    func.__doc__ = serve.__doc__
    for param in reversed(params):
        func = param(func)
    return click.command(name="serve", short_help="Run a competition: submissions,"
                         " quarantine, a tournament every hour, a web site.")(func)

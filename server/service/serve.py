"""The competition service from start to stop, as a library: :func:`serve` of a
:class:`ServeConfig`, a :class:`ServiceError` when it cannot start or cannot go on.

Everything is checked before anything starts (a usage ServiceError with the reason): the
tournament options (by the tournament's own code), the table size, the sandbox (bots are
confined unless ``sandbox`` is False: where bubblewrap cannot confine them the service is
refused, saying how to install it), the address (the port is bound here, so that a port in use
is said at once), and that no other service uses the data folder. A refused service leaves
nothing behind: the data folder (and its lock) is made only once the address is bound, and
removed again if the service is refused after that. Then one trio loop runs the scheduler
(:mod:`.jobs.scheduler`) and hypercorn serving the site (:mod:`.site.app`), its connections timed
and capped (:mod:`.site.connections`), until SIGTERM or Ctrl-C: the running tournament stops cleanly
(every bot ended) and :func:`serve` returns. Behind a reverse proxy (``behind_proxy``) the
proxy's ``X-Forwarded-Proto``, ``-For`` and ``-Host`` are the request's (hypercorn's
``ProxyFixMiddleware``); otherwise they are ignored.
``pokerbots serve`` (server/cli/serve.py) parses its options into the config.
"""

from __future__ import annotations

import fcntl
import resource
import shutil
import signal
import socket
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import trio

from pokerbots.server import games
from pokerbots.server.confine import sandbox
from pokerbots.server.errors import Refusal
from pokerbots.server.play.options import (
    LIMIT_OPTIONS,
    MatchSetupError,
    game_options_from_texts,
    limits_as_dict,
    limits_from_options,
)
from pokerbots.server.service.data import store
from pokerbots.server.service.jobs import scheduler
from pokerbots.server.service.site import connections
from pokerbots.server.service.site.pages import Now, every_text
from pokerbots.server.service.uploads.routes import Uploads
from pokerbots.server.tournament.run import TournamentError, check_game_fits


class ServiceError(Refusal):
    """The service cannot start (``usage``: its options are wrong, ``option`` the one to
    change, exit 2) or cannot go on (its store cannot be written: exit 3); ``message`` says
    what a person does about it."""


@dataclass(frozen=True)
class ServeConfig:
    """The service, as ``pokerbots serve`` takes it (see its ``--help``)."""

    #: The folder of bot folders.
    submissions: Path
    #: The folder of the service's store, bot copies, tournaments and logs.
    data: Path = Path("pokerbots-data")
    #: Seconds from the start of one tournament to the start of the next.
    every: float = 3600.0
    host: str = "127.0.0.1"
    port: int = 8000
    #: Table size K, of the tournaments and of the smoke test.
    players: int = 2
    #: Bots under bubblewrap: True or None (it must be possible), or False (unconfined).
    sandbox: bool | None = None
    #: The tournaments' options, as ``pokerbots tournament``'s keyword arguments (less bots,
    #: seed, out, scheduler and players; ``sandbox`` is the field above).
    tournament: dict = field(default_factory=dict)
    #: The longest upload, in bytes (also its files unpacked), and the shortest time between
    #: two uploads of a team, in seconds (:mod:`.uploads`).
    max_upload: int = 50 << 20
    upload_interval: float = 60.0
    #: A Dask scheduler's address (``tcp://HOST:PORT``): the tournaments' matches are played
    #: on its cluster, whose workers see the data folder at the same path.
    scheduler: str | None = None
    #: Finished tournaments the home page's ladder spans.
    ladder: int = 24
    #: Seconds a request's head, and then its body, may take to arrive; the most connections
    #: open at once (:mod:`.site.connections`).
    head_timeout: float = connections.HEAD_TIMEOUT
    body_timeout: float = connections.BODY_TIMEOUT
    max_connections: int = connections.MAX_CONNECTIONS
    #: The site is reached through one reverse proxy: trust its X-Forwarded-* headers.
    behind_proxy: bool = False


#: The file held while a service uses the data folder.
LOCK = "service.lock"


def _say(text: str) -> None:
    print(text, flush=True)


def serve(config: ServeConfig) -> None:
    """Check ``config``, then run the service until SIGTERM or Ctrl-C (a clean stop: this
    returns). ServiceError when it cannot start or cannot go on."""
    options = config.tournament
    game = options["game"]
    players = config.players
    try:
        given = game_options_from_texts(game, options["game_texts"])
    except MatchSetupError as exc:
        raise ServiceError(str(exc), usage=True, option=exc.option) from None
    kind = games.get(game)
    if not kind.min_players <= players <= kind.max_players:
        raise ServiceError(f"{game} is played by {kind.min_players} to {kind.max_players}"
                           f" players, not {players}", usage=True, option="--players")
    try:
        check_game_fits(game, players, given, options["refine"])
    except TournamentError as exc:
        raise ServiceError(exc.message, usage=True, option=exc.option) from None
    options = {**options, "players": players, "sandbox": _sandbox(config.sandbox)}
    limits = limits_as_dict(limits_from_options(**{k: options[k] for k in LIMIT_OPTIONS}))
    if config.scheduler is not None:
        _check_cluster(config.scheduler)
    settings = scheduler.Settings(submissions=config.submissions.resolve(),
                                  data=config.data.resolve(), every=config.every,
                                  players=players, options=options, limits=limits,
                                  scheduler=config.scheduler)
    listener = _listen(config.host, config.port)
    made = [path for path in (config.data, config.data / LOCK) if not path.exists()]

    def leave_nothing() -> None:
        listener.close()
        for path in made:
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)

    try:
        lock = _lock(config.data)
    except ServiceError:
        leave_nothing()
        raise
    results = None
    try:
        results = store.open_store(settings.data)
        _check_smoke(results, settings)
    except store.StoreError as exc:
        if results is not None:
            results.close()
        lock.close()
        leave_nothing()
        raise ServiceError(str(exc)) from None
    service = scheduler.Service(settings, results)
    uploads = Uploads(service, max_upload=config.max_upload, interval=config.upload_interval)
    uploads.clear()
    _say(f"pokerbots serve: bots from {settings.submissions}, data in {settings.data}")
    _say(f"{kind.title}, tables of {players}, {options['hands']:,} hands per match;"
         f" a tournament at start-up, then every {every_text(config.every)}; bots run"
         + (" in the sandbox (bubblewrap)" if settings.sandbox
            else " UNCONFINED (--no-sandbox): they can do whatever this user can"))
    if config.scheduler is not None:
        _say(f"The tournaments' matches are played on the Dask cluster of {config.scheduler}")
    limits = connections.Limits(head_timeout=config.head_timeout,
                                body_timeout=config.body_timeout,
                                max_connections=config.max_connections)
    cap = connections.connection_cap(limits.max_connections)
    if cap < limits.max_connections:
        _say(f"The site keeps at most {cap} connections open (--max-connections"
             f" {limits.max_connections} is more than the open-file limit of"
             f" {_open_file_limit()} leaves room for: raise it with ulimit -n)")
    if config.behind_proxy:
        _say("Behind a proxy: the site trusts its X-Forwarded-Proto, -For and -Host headers")
    try:
        failure = trio.run(_main, service, uploads, listener, config.host, config.ladder,
                           limits, config.behind_proxy)
    finally:
        results.close()
        lock.close()
    if failure:
        raise ServiceError(f"the service cannot go on: {failure}")
    _say("Stopped.")


def _sandbox(wanted: bool | None) -> bool:
    """Whether the bots run in the sandbox: unless ``wanted`` is False, they must, and a
    machine where bubblewrap cannot confine them refuses the service (a competition runs
    other people's code: running it unconfined is said on the command line, never chosen
    for it)."""
    if wanted is False:
        return False
    problem = sandbox.isolation_problem()
    if problem is not None:
        raise ServiceError(
            f"the bots cannot be sandboxed here: {problem}. Install bubblewrap"
            " (apt-get install bubblewrap), or give --no-sandbox to run them unconfined",
            usage=True, option="--no-sandbox")
    return True


def _check_cluster(address: str) -> None:
    """Refuse a Dask scheduler that cannot be reached now (or Dask not installed)."""
    from pokerbots.server.tournament.cluster import ClusterPool, ClusterUnavailable

    try:
        ClusterPool(address).close()
    except ClusterUnavailable as exc:
        raise ServiceError(str(exc), usage=True, option="--scheduler") from None


def _lock(data: Path):
    """Hold ``data/service.lock`` while the service runs: two services cannot share data."""
    try:
        data.mkdir(parents=True, exist_ok=True)
        held = open(data / LOCK, "w")
    except OSError as exc:
        raise ServiceError(f"cannot use {data}: {exc.strerror}", usage=True,
                           option="--data") from None
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        held.close()  # the folder and its lock are the other service's
        raise ServiceError(f"another pokerbots serve is using {data}: stop it, or give"
                           " another --data", usage=True, option="--data") from None
    return held


def _listen(host: str, port: int) -> socket.socket:
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family)
    except OSError as exc:
        raise ServiceError(f"cannot listen on {host} port {port}: {exc.strerror or exc}",
                           usage=True, option="--host/--port") from None


def _open_file_limit() -> int:
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def _check_smoke(results: store.Store, settings: scheduler.Settings) -> None:
    """Versions were tested for one game and table size: another one tests them again."""
    options = settings.options
    smoke = {"game": options["game"], "game_texts": options["game_texts"],
             "players": settings.players}
    before = results.meta("smoke")
    if before is not None and before != smoke:
        count = results.test_again()
        _say(f"The game or table size changed since the last run: {count} versions"
             " are smoke-tested again")
    results.set_meta("smoke", smoke)
    results.set_meta("options", {**options, "every": settings.every})


async def _main(service: scheduler.Service, uploads: Uploads, listener: socket.socket,
                host: str, ladder: int = 24, limits: connections.Limits | None = None,
                behind_proxy: bool = False) -> str | None:
    """Serve until SIGTERM or Ctrl-C; what stopped the service if it was not that."""
    from hypercorn.config import Config
    from hypercorn.middleware import ProxyFixMiddleware

    from pokerbots.server.service.site.app import create_app

    def now() -> Now:
        return Now(service.settings, service.playing, service.testing, service.next_at)

    limits = limits or connections.Limits()
    config = Config()
    port = listener.getsockname()[1]
    config.loglevel = "WARNING"  # the address is printed here, once
    # hypercorn's own timer on an idle connection: a second after the door's head deadline,
    # which closes it first and says so when half a head was sent.
    config.keep_alive_timeout = limits.head_timeout + 1.0
    door = connections.Door(limits, service.say)
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
                    _say(f"{signal.Signals(signum).name}: stopping (the running"
                         " tournament ends its matches first)")
                stop.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(signals)
        app = create_app(service.settings.data, now, ladder, uploads=uploads)
        if behind_proxy:  # one proxy: the last value of each X-Forwarded-* header is its
            app = ProxyFixMiddleware(app, mode="legacy", trusted_hops=1)
        await nursery.start(partial(connections.serve, app, config, listener, door,
                                    shutdown_trigger=stop.wait))
        shown = f"[{host}]" if ":" in host else host
        _say(f"The site: http://{shown}:{port}/ (Ctrl-C stops)")
        async with trio.open_nursery() as work:
            work.start_soon(run_service)
            await stop.wait()
            work.cancel_scope.cancel()
        nursery.cancel_scope.cancel()
    return failure[0] if failure else None

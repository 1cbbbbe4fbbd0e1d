"""The web site: a Starlette application, served by hypercorn on trio (:mod:`.serve`).

Starlette rather than Quart-Trio: the site is a dozen routes of server-rendered text and
files, and Starlette is exactly that (routing, responses, files streamed from disk) in a small
library whose only dependency, AnyIO, runs on trio; Quart-Trio would bring Flask's stack
(Werkzeug, Blinker...) for features the site does not use. The pages are Jinja2 templates
(:mod:`.pages`), rendered here as plain text responses of type HTML.

Routes: ``/`` (ladder, standings, chart, quarantine, bots, tournaments), ``/bots/NAME``,
``/teams/NAME`` (a team's own page), ``/tournaments/ID``, ``/matches/ID``,
``/matches/ID/FILE`` (a match's log files as plain text), ``/matches/ID/hands`` (its hand
history) and ``/matches/ID/hands/N`` (a hand's replayer), ``/versions/ID/FILE`` (the logs of a
version's failed smoke match), the JSON API ``/api/standings``, ``/api/ladder``,
``/api/bots``, ``/api/tournaments``, ``/healthz``, and ``/static/`` (the replayer's script).
What a request may see of a match is its viewer's (its token's team: :meth:`Site.viewer`), as
:mod:`.visibility` decides: a seat's transcript and stderr, hidden hole cards and the end of a
fault paragraph are its team's and the organiser's only.
An id in an address is at most 18 digits (:class:`IdConvertor`): any other is a 404, never
a query that overflows SQLite's integers.

A file is served only when its name is one a match writes (``hands.txt``, ``seatN.in``...)
and its real path, links resolved, is inside the data folder: a request can never reach
another file. Every response says ``Content-Security-Policy: default-src 'none';
script-src 'self'`` (no script runs but the site's own files, even if some text were not
escaped) and ``X-Content-Type-Options: nosniff`` (a log is never taken for a page).

A page is made in a worker thread, with a read-only connection to the store of its own, and
kept (:mod:`.cache`) per address and viewer (the public, each team, the organiser) and what
the scheduler is doing (:class:`.pages.Now`), until the store changes: the next request for
it is answered from memory on the event loop, without a thread, and so is the team of a token
it carries. Pages made of files that still grow (a tournament or a match still playing) are
made for every request. A log file is served as it was when it was opened (:class:`Snapshot`):
its length then, and that many bytes, while a match may still be writing it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from collections.abc import Callable
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import BinaryIO

import anyio
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pokerbots.server import games
from pokerbots.server.games import holdem
from pokerbots.server.logs import folder as folder_
from pokerbots.server.service.data.store import FILE, reader, relative_text
from pokerbots.server.service.data.teams import Team, Unchecked
from pokerbots.server.service.site import auth, pages, replay, visibility
from pokerbots.server.service.site import ladder as ladder_
from pokerbots.server.service.site.cache import Generation, Kept
from pokerbots.server.tournament import report, results_store
from pokerbots.server.tournament import standings as standings_

#: The files of a match folder that may be served: those a match writes.
LOG_FILES = folder_.FILE_NAME

HEADERS = [
    (b"content-security-policy",
     b"default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; base-uri 'none';"
     b" form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    # same-origin, not no-referrer: under no-referrer a browser sends "Origin: null" with the
    # site's own forms, which the cross-site check must refuse (no login would ever work).
    (b"referrer-policy", b"same-origin"),
]
TEXT = "text/plain; charset=utf-8"


def iso(seconds: float | None) -> str | None:
    """A time for the JSON API: ISO 8601 in UTC, to the second."""
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="seconds")


def log_file(data: Path, folder: str | None, name: str) -> Path | None:
    """The file ``name`` of the log folder ``folder`` (relative to ``data``), if it may be
    served: a log file's name, a regular file, inside the data folder once links are
    resolved. None otherwise."""
    if not folder or not LOG_FILES.fullmatch(name):
        return None
    root = data.resolve()
    path = (root / folder / name).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        return None
    return path


def log_files(data: Path, folder: str | None) -> list[str]:
    """The files of a log folder that may be served, in a reading order."""
    if not folder:
        return []
    try:
        names = {p.name for p in (data / folder).iterdir()}
    except OSError:
        return []
    seats = sorted((n for n in names if LOG_FILES.fullmatch(n) and n not in folder_.LISTED),
                   key=lambda n: (int(re.sub(r"\D", "", n)), n))
    return [n for n in (*folder_.LISTED, *seats) if n in names and log_file(data, folder, n)]


class IdConvertor(Convertor):
    """A row id in a URL: digits that fit SQLite's integers (at most 18 after leading
    zeros), so that a longer number finds no route (404) instead of overflowing the store's
    query (a 500)."""

    regex = "0*[0-9]{1,18}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(int(value))


register_url_convertor("id", IdConvertor())

#: Bytes read from the end of a transcript for its last lines on a bot's page.
TAIL_BYTES = 65536
#: Hands on one page of a match's hand history.
HANDS_PER_PAGE = 200
#: The site's own scripts (the replayer's), served at ``/static``.
STATIC = Path(__file__).resolve().parent / "static"
#: Pages kept at most, and bytes they take in all; tokens whose team is kept.
PAGES_KEPT = 4096
PAGES_BYTES = 64 << 20
TOKENS_KEPT = 4096
#: The statuses after which a match's files, and a tournament's own store, change no more:
#: their pages are kept; before, they are made for every request.
MATCH_FINAL = frozenset({"done", "failed", "skipped"})
TOURNAMENT_FINAL = frozenset({"done", "failed"})


class SecurityHeaders:
    """ASGI middleware: :data:`HEADERS` on every response."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class KeptPage:
    """A page as it was rendered: status, headers and body."""

    __slots__ = ("status", "headers", "body")

    def __init__(self, response: Response) -> None:
        self.status = response.status_code
        self.headers = tuple(response.raw_headers)
        self.body = bytes(response.body)

    def response(self) -> Response:
        return _KeptResponse(self)


class _KeptResponse(Response):
    def __init__(self, page: KeptPage) -> None:
        self.status_code = page.status
        self.raw_headers = list(page.headers)
        self.body = page.body
        self.background = None


class Snapshot(Response):
    """The file at ``path`` as it was when it was opened (here): ``Content-Length`` its size
    then, and exactly that many bytes sent, however much a match appends meanwhile. OSError
    if it cannot be opened; it is closed once sent."""

    chunk_size = 64 * 1024

    def __init__(self, path: Path, media_type: str) -> None:
        self.path = path
        self.file: BinaryIO = open(path, "rb")
        try:
            self.size = os.fstat(self.file.fileno()).st_size
        except OSError:
            self.file.close()
            raise
        super().__init__(None, headers={"content-length": str(self.size)},
                         media_type=media_type)

    async def __call__(self, scope, receive, send) -> None:
        try:
            await send({"type": "http.response.start", "status": self.status_code,
                        "headers": self.raw_headers})
            if scope.get("method") == "HEAD" or not self.size:
                await send({"type": "http.response.body", "body": b""})
                return
            async with anyio.create_task_group() as group:

                async def stream() -> None:
                    left = self.size
                    while left:
                        chunk = await anyio.to_thread.run_sync(
                            self.file.read, min(self.chunk_size, left))
                        if not chunk:  # cut short: the length sent cannot be kept
                            raise OSError(f"{self.path} shrank while it was sent")
                        left -= len(chunk)
                        await send({"type": "http.response.body", "body": chunk,
                                    "more_body": left > 0})
                    group.cancel_scope.cancel()

                group.start_soon(stream)
                while (await receive())["type"] != "http.disconnect":
                    pass
                group.cancel_scope.cancel()
        finally:
            self.file.close()


class Site:
    """What the site's requests share: the pages kept (:class:`.cache.Kept`) and the team of
    each token, both for the store's current generation (:class:`.cache.Generation`)."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.generation = Generation(data / FILE)
        self.pages = Kept(PAGES_KEPT, PAGES_BYTES, size=lambda page: len(page.body) + 256)
        self.teams = Kept(TOKENS_KEPT)

    async def viewer(self, request: Request, generation: int) -> Team | None:
        """The team whose token ``request`` carries, or None (none, wrong, revoked, not checked
        now), as the store of ``generation`` has it: looked up (:func:`.auth.checked_team_of`)
        in a worker thread once per token and generation, so that a revoked token fails at
        once. A token that could not be checked now (its key or its client failed lately) is
        not remembered: it is looked up again at the next request."""
        token = auth.token_of(request)
        if token is None:
            return None
        key = hashlib.sha256(token.encode()).digest()
        client = request.client.host if request.client is not None else None

        def look_up() -> tuple[Team | None, bool]:
            found = auth.checked_team_of(self.data, token, client)
            return (found if isinstance(found, Team) else None,
                    not isinstance(found, Unchecked))

        return await self.teams.get(key, generation, look_up)


def _page_number(request: Request) -> int:
    """The ``page`` of a hand history's address (1 if there is none, or not a number)."""
    try:
        return min(max(int(request.query_params.get("page", "1")[:12]), 1), 10 ** 9)
    except ValueError:
        return 1


def create_app(data: Path, now: Callable[[], pages.Now],
               ladder_size: int = ladder_.DEFAULT_TOURNAMENTS, *, uploads=None):
    """The site of the service whose data folder is ``data``; ``now()`` tells what the
    scheduler is doing; the home page's ladder spans the last ``ladder_size`` tournaments;
    ``uploads`` (:class:`.uploads.routes.Uploads`) takes the teams' bots. eval7 is loaded here,
    before the site answers (a replay ranks hands)."""
    holdem.ranking()
    site = Site(data)

    def not_found(text: str, viewer=None, state: pages.Now | None = None) -> HTMLResponse:
        return HTMLResponse(pages.not_found(text, state or now(), viewer), status_code=404)

    def kept(render, query: Callable[[Request], object] = lambda request: None):
        """The endpoint of the page ``render(request, viewer, now) -> (response, keep)``
        makes (``keep``: it changes only with the store), kept per address (its path's
        parameters and ``query(request)``), viewer and what the scheduler is doing."""

        async def endpoint(request: Request) -> Response:
            generation = site.generation()
            viewer = await site.viewer(request, generation)
            state = now()
            key = (render.__name__, *request.path_params.values(), query(request), viewer,
                   state.playing, state.testing, state.next_at)

            def make() -> tuple[KeptPage, bool]:
                response, keep = render(request, viewer, state)
                return KeptPage(response), keep

            return (await site.pages.get(key, generation, make)).response()

        endpoint.__name__ = render.__name__
        return endpoint

    def threaded(serve):
        """The endpoint that serves ``serve(request, viewer)`` in a worker thread (a file),
        the viewer known as the pages know it."""

        async def endpoint(request: Request) -> Response:
            viewer = await site.viewer(request, site.generation())
            return await anyio.to_thread.run_sync(serve, request, viewer)

        endpoint.__name__ = serve.__name__
        return endpoint

    def home(request: Request, viewer, state):
        with reading(data) as store:
            board = ladder_.ladder(store, data, ladder_size)
            return HTMLResponse(pages.home(store, state, board, viewer)), True

    def api_ladder(request: Request, viewer, state):
        with reading(data) as store:
            board = ladder_.ladder(store, data, ladder_size)
        return JSONResponse({**board, "size": ladder_size}), True

    def transcript(version: dict) -> str | None:
        path = log_file(data, version["smoke_logs"], version["transcript"] or "")
        return (None if path is None
                else folder_.tail(path, pages.TRANSCRIPT_LINES, max_bytes=TAIL_BYTES))

    def bot(request: Request, viewer, state):
        name = request.path_params["name"]
        with reading(data) as store:
            page = pages.bot(store, name, state, transcript, viewer)
        if page is None:
            return not_found(f"There is no bot called {name}.", viewer, state), True
        return HTMLResponse(page), True

    def tournament(request: Request, viewer, state):
        tournament_id = request.path_params["tournament_id"]
        with reading(data) as store:
            row = store.tournament(tournament_id)
            if row is None:
                return not_found(f"There is no tournament {tournament_id}.", viewer,
                                 state), True
            numbers = {m["match_no"]: m["id"] for m in store.matches(tournament_id)}
            body = report_body(data, data / row["folder"], row, numbers, viewer)
            seen = visibility.sight(viewer).tournament(row)
            return (HTMLResponse(pages.tournament(store, seen, body, state, viewer)),
                    row["status"] in TOURNAMENT_FINAL)

    def the_match(request: Request, viewer):
        """``(match row or None, its sight, whether its files change no more)``."""
        with reading(data) as store:
            row = store.match(request.path_params["match_id"])
        if row is None:
            return None, None, True
        return row, visibility.sight(viewer, row["seating"]), row["status"] in MATCH_FINAL

    def match(request: Request, viewer, state):
        row, sight, final = the_match(request, viewer)
        if row is None:
            return not_found(f"There is no match {request.path_params['match_id']}.", viewer,
                             state), True
        files = [f for f in log_files(data, row["log_dir"]) if sight.file(f) != visibility.NONE]
        count = folder_.MatchFolder(data / row["log_dir"]).hand_count() if row["log_dir"] else 0
        return HTMLResponse(pages.match(row, files, state, sight, count, viewer)), final

    def text_file(folder: str | None, name: str, what: str, viewer=None) -> Response:
        path = log_file(data, folder, name)
        if path is not None:
            try:
                return Snapshot(path, TEXT)
            except OSError:  # gone since
                pass
        return not_found(f"{what} has no log file {name}.", viewer)

    def match_file(request: Request, viewer) -> Response:
        row, sight, _ = the_match(request, viewer)
        name = request.path_params["name"]
        what = f"Match {request.path_params['match_id']}"
        folder = row and row["log_dir"]
        how = sight.file(name) if row else visibility.NONE
        if how == visibility.WHOLE:
            return text_file(folder, name, what, viewer)
        if how == visibility.NONE or log_file(data, folder, name) is None:
            return not_found(f"{what} has no log file {name}.", viewer)
        match_folder = folder_.MatchFolder(data / row["log_dir"])
        if name == folder_.SUMMARY:
            return JSONResponse(sight.summary(match_folder.summary() or {}))
        records = match_folder.hands()
        if name == folder_.HANDS:
            return Response(sight.jsonl(records), media_type=TEXT)
        return Response("".join(_history(data, row, records, sight)), media_type=TEXT)

    def match_hands(request: Request, viewer, state):
        row, sight, final = the_match(request, viewer)
        if row is None or not row["log_dir"]:
            return not_found(f"Match {request.path_params['match_id']} has no hands.", viewer,
                             state), final
        match_folder = folder_.MatchFolder(data / row["log_dir"])
        pages_ = max(1, -(-match_folder.hand_count() // HANDS_PER_PAGE))
        number = min(_page_number(request), pages_)
        shown = match_folder.hands((number - 1) * HANDS_PER_PAGE, number * HANDS_PER_PAGE)
        blocks = list(zip([r["hand"] for r in shown], _history(data, row, shown, sight)))
        return HTMLResponse(pages.hands(row, blocks, state, sight,
                                        {"page": number, "pages": pages_}, viewer)), final

    def hand_replay(request: Request, viewer, state):
        row, sight, final = the_match(request, viewer)
        number = request.path_params["number"]
        what = f"Match {request.path_params['match_id']}"
        match_folder = folder_.MatchFolder(data / row["log_dir"]) if row and row["log_dir"] \
            else None
        # Hands are numbered from 0, one line each: hand N is line N.
        records = match_folder.hands(number, number + 1) if match_folder else []
        record = records[0] if records and records[0]["hand"] == number else None
        if record is None and records:  # numbered otherwise: look for it
            record = next((r for r in match_folder.hands() if r["hand"] == number), None)
        if record is None:
            return not_found(f"{what} has no hand {number}.", viewer, state), final
        count = match_folder.hand_count()
        summary = match_folder.summary() or {}
        try:
            steps = replay.steps(record, summary, row["seating"], sight)
        except replay.NoReplay as exc:
            return not_found(f"{what}'s hand {number} cannot be replayed: {exc}", viewer,
                             state), final
        return HTMLResponse(pages.replayer(row, number, count, steps, state, sight,
                                           viewer)), final

    def version_file(request: Request, viewer) -> Response:
        version_id = request.path_params["version_id"]
        with reading(data) as store:
            row = store.version(version_id)
        what = f"Version {version_id}'s smoke test"
        if row is None or not visibility.sees_team(viewer, row["name"]):
            return not_found(f"{what} has no log file {request.path_params['name']}"
                             " you may read (its team's token shows it).", viewer)
        return text_file(row["smoke_logs"], request.path_params["name"], what, viewer)

    def team(request: Request, viewer, state):
        name = request.path_params["name"]
        if viewer is None:
            return HTMLResponse(pages.login(name, state), status_code=401), True
        if not visibility.sees_team(viewer, name):
            return HTMLResponse(pages.forbidden(
                f"This is team {name}'s page; your token is team {viewer.name}'s.", state,
                viewer), status_code=403), True
        with reading(data) as store:
            return HTMLResponse(pages.team(store, name, state, transcript, viewer)), True

    def api_standings(request: Request, viewer, state):
        with reading(data) as store:
            done = store.tournaments("done", limit=1)
        if not done:
            return JSONResponse({"error": "no tournament has finished yet"},
                                status_code=404), True
        latest = visibility.sight(viewer).tournament(done[0])
        return JSONResponse({**latest["standings"], "tournament_id": latest["id"],
                             "started": iso(latest["started"]),
                             "finished": iso(latest["finished"])}), True

    def api_bots(request: Request, viewer, state):
        with reading(data) as store:
            bots = store.bots()
        found = []
        for row in bots:
            status, reason, admitted = pages.describe(row)
            found.append({"name": row["name"], "version": row["version"]["label"],
                          "status": status, "reason": reason, "admitted_version": admitted})
        return JSONResponse(found), True

    def api_tournaments(request: Request, viewer, state):
        sight = visibility.sight(viewer)
        with reading(data) as store:
            rows = [sight.tournament(t) for t in store.tournaments()]
        return JSONResponse([
            {"id": t["id"], "started": iso(t["started"]), "finished": iso(t["finished"]),
             "bots": [{"name": b["name"], "version": b["version"]} for b in t["bots"]],
             "status": t["status"], "commitment": t["commitment"],
             "revealed": iso(t["revealed"]),
             # As text: a seed has more digits than a JSON reader's numbers may keep.
             **{key: None if t[key] is None else str(t[key])
                for key in visibility.SECRET_TOURNAMENT if key in t}}
            for t in rows]), True

    def healthz(request: Request) -> Response:
        with reading(data) as store:
            store.meta("options")  # the store answers
        state = now()
        return JSONResponse({"status": "ok", "playing": state.playing,
                             "testing": state.testing})

    routes = [
        Route("/", kept(home)),
        Route("/bots/{name}", kept(bot)),
        Route("/tournaments/{tournament_id:id}", kept(tournament)),
        Route("/matches/{match_id:id}", kept(match)),
        Route("/matches/{match_id:id}/hands", kept(match_hands, _page_number)),
        Route("/matches/{match_id:id}/hands/{number:id}", kept(hand_replay)),
        Route("/matches/{match_id:id}/{name}", threaded(match_file)),
        Route("/teams/{name}", kept(team)),
        Route("/api/ladder", kept(api_ladder)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/versions/{version_id:id}/{name}", threaded(version_file)),
        Route("/api/standings", kept(api_standings)),
        Route("/api/bots", kept(api_bots)),
        Route("/api/tournaments", kept(api_tournaments)),
        Route("/healthz", healthz),
        *auth.routes(now),
        *(uploads.routes() if uploads is not None else ()),
    ]

    async def missing(request: Request, exc) -> Response:
        viewer = await site.viewer(request, site.generation())  # the header's log out
        return not_found(f"Nothing is at {request.url.path}.", viewer)

    app = Starlette(routes=routes, exception_handlers={404: missing})
    app.state.data = data  # for auth.viewer_of
    app.state.site = site
    return SecurityHeaders(app)


@contextmanager
def reading(data: Path):
    """``with reading(data) as store``: a read-only store for one request, closed after."""
    store = reader(data)
    try:
        yield store
    finally:
        store.close()


def _history(data: Path, row: dict, records: list[dict], sight) -> list[str]:
    """Each hand of ``records`` as ``hands.txt`` has it, as ``sight`` may see it."""
    summary = folder_.MatchFolder(data / row["log_dir"]).summary() or {}
    streets, ante = (), 0
    try:
        game = games.make_game(summary["game"], len(row["seating"]),
                               **(summary.get("game_options") or {}))
        streets, ante = game.structure.streets, game.structure.ante
    except (KeyError, TypeError, ValueError):
        pass
    return sight.history(records, row["seating"], streets, ante)


class _Seen:
    """A tournament's results store as ``sight`` may read its failed matches: each error
    paragraph as :meth:`.visibility.Sight.error` gives it (the report quotes them); the paths
    in them and in the bots' commands relative to the data folder ``data``."""

    def __init__(self, results, viewer, data: Path) -> None:
        self.results = results
        self.viewer = viewer
        self.data = data

    def __getattr__(self, name):
        return getattr(self.results, name)

    def matches(self, *statuses: str) -> list[dict]:
        rows = self.results.matches(*statuses)
        return [{**r, "error": visibility.sight(self.viewer, r["seating"]).error(
                    relative_text(r["error"], self.data), r["culprit_seat"])} for r in rows]

    def entrants(self) -> list:
        return [dataclasses.replace(e, arg=relative_text(e.arg, self.data))
                for e in self.results.entrants()]


def report_body(data: Path, folder: Path, row: dict, numbers: dict[int, int], viewer=None
                ) -> Markup | None:
    """The content of the tournament's ``report.html``, made from its own store (in
    ``folder`` of the data folder ``data``), each failed match linked to its page here
    (``numbers``: its id there -> its id here), its error paragraphs as ``viewer`` may read
    them."""
    if not results_store.exists(folder):
        return None
    results = _Seen(results_store.open_store(folder), viewer, data)
    try:
        document = row["standings"] if row["status"] == "done" else None
        document = visibility.sight(viewer).standings(document or standings_.document(results))

        def link(match: dict) -> report.Link:
            number = numbers.get(match["id"])
            return (None, "-") if number is None else (f"/matches/{number}", f"match {number}")

        return report.body(results, document, link)
    finally:
        results.results.close()

"""The web site: a Starlette application, served by hypercorn on trio (:mod:`.command`).

Starlette rather than Quart-Trio: the site is a dozen routes of server-rendered text and
files, and Starlette is exactly that (routing, responses, files streamed from disk) in a small
library whose only dependency, AnyIO, runs on trio; Quart-Trio would bring Flask's stack
(Werkzeug, Blinker...) for features the site does not use. The pages are Jinja2 templates
(:mod:`.pages`), rendered here as plain text responses of type HTML.

Routes: ``/`` (standings, chart, quarantine, bots, tournaments), ``/bots/NAME``,
``/tournaments/ID``, ``/matches/ID`` and ``/matches/ID/FILE`` (a match's log files as plain
text), ``/versions/ID/FILE`` (the logs of a version's failed smoke match), the JSON API
``/api/standings``, ``/api/bots``, ``/api/tournaments``, and ``/healthz``.
An id in an address is at most 18 digits (:class:`IdConvertor`): any other is a 404, never
a query that overflows SQLite's integers.

A file is served only when its name is one a match writes (``hands.txt``, ``seatN.in``...)
and its real path, links resolved, is inside the data folder: a request can never reach
another file. Every response says ``Content-Security-Policy: default-src 'none'`` (no script
runs, even if some text were not escaped) and ``X-Content-Type-Options: nosniff`` (a log is
never taken for a page). Handlers are plain functions, which Starlette runs in worker
threads, each with its own read-only connection to the store.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from markupsafe import Markup
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from pokerbots.server.logs import folder as folder_
from pokerbots.server.service import auth, pages
from pokerbots.server.service.store import reader
from pokerbots.server.tournament import report, results_store
from pokerbots.server.tournament import standings as standings_

#: The files of a match folder that may be served: those a match writes.
LOG_FILES = folder_.FILE_NAME

HEADERS = [
    (b"content-security-policy",
     b"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self';"
     b" frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
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


def create_app(data: Path, now: Callable[[], pages.Now], *, uploads=None):
    """The site of the service whose data folder is ``data``; ``now()`` tells what the
    scheduler is doing; ``uploads`` (:class:`.uploads.Uploads`) takes the teams' bots."""

    def not_found(text: str) -> HTMLResponse:
        return HTMLResponse(pages.not_found(text, now()), status_code=404)

    def home(request: Request) -> Response:
        with reading(data) as store:
            return HTMLResponse(pages.home(store, now()))

    def bot(request: Request) -> Response:
        name = request.path_params["name"]

        def transcript(version: dict) -> str | None:
            path = log_file(data, version["smoke_logs"], version["transcript"] or "")
            return (None if path is None
                    else folder_.tail(path, pages.TRANSCRIPT_LINES, max_bytes=TAIL_BYTES))

        with reading(data) as store:
            page = pages.bot(store, name, now(), transcript)
        return not_found(f"There is no bot called {name}.") if page is None else HTMLResponse(page)

    def tournament(request: Request) -> Response:
        tournament_id = request.path_params["tournament_id"]
        with reading(data) as store:
            row = store.tournament(tournament_id)
            if row is None:
                return not_found(f"There is no tournament {tournament_id}.")
            numbers = {m["match_no"]: m["id"] for m in store.matches(tournament_id)}
            body = report_body(data / row["folder"], row, numbers)
            return HTMLResponse(pages.tournament(store, row, body, now()))

    def match(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        with reading(data) as store:
            row = store.match(match_id)
        if row is None:
            return not_found(f"There is no match {match_id}.")
        return HTMLResponse(pages.match(row, log_files(data, row["log_dir"]), now()))

    def text_file(folder: str | None, name: str, what: str) -> Response:
        path = log_file(data, folder, name)
        if path is None:
            return not_found(f"{what} has no log file {name}.")
        return FileResponse(path, media_type=TEXT)

    def match_file(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        with reading(data) as store:
            row = store.match(match_id)
        return text_file(row and row["log_dir"], request.path_params["name"],
                         f"Match {match_id}")

    def version_file(request: Request) -> Response:
        version_id = request.path_params["version_id"]
        with reading(data) as store:
            row = store.version(version_id)
        return text_file(row and row["smoke_logs"], request.path_params["name"],
                         f"Version {version_id}'s smoke test")

    def api_standings(request: Request) -> Response:
        with reading(data) as store:
            done = store.tournaments("done", limit=1)
        if not done:
            return JSONResponse({"error": "no tournament has finished yet"}, status_code=404)
        latest = done[0]
        return JSONResponse({**latest["standings"], "tournament_id": latest["id"],
                             "started": iso(latest["started"]),
                             "finished": iso(latest["finished"])})

    def api_bots(request: Request) -> Response:
        with reading(data) as store:
            bots = store.bots()
        found = []
        for row in bots:
            status, reason, admitted = pages.describe(row)
            found.append({"name": row["name"], "version": row["version"]["label"],
                          "status": status, "reason": reason, "admitted_version": admitted})
        return JSONResponse(found)

    def api_tournaments(request: Request) -> Response:
        with reading(data) as store:
            rows = store.tournaments()
        return JSONResponse([
            {"id": t["id"], "started": iso(t["started"]), "finished": iso(t["finished"]),
             "bots": [{"name": b["name"], "version": b["version"]} for b in t["bots"]],
             "status": t["status"]} for t in rows])

    def healthz(request: Request) -> Response:
        with reading(data) as store:
            store.meta("options")  # the store answers
        state = now()
        return JSONResponse({"status": "ok", "playing": state.playing,
                             "testing": state.testing})

    routes = [
        Route("/", home),
        Route("/bots/{name}", bot),
        Route("/tournaments/{tournament_id:id}", tournament),
        Route("/matches/{match_id:id}", match),
        Route("/matches/{match_id:id}/{name}", match_file),
        Route("/versions/{version_id:id}/{name}", version_file),
        Route("/api/standings", api_standings),
        Route("/api/bots", api_bots),
        Route("/api/tournaments", api_tournaments),
        Route("/healthz", healthz),
        *auth.routes(now),
        *(uploads.routes() if uploads is not None else ()),
    ]

    async def missing(request: Request, exc) -> Response:
        return not_found(f"Nothing is at {request.url.path}.")

    app = Starlette(routes=routes, exception_handlers={404: missing})
    app.state.data = data  # for auth.viewer_of
    return SecurityHeaders(app)


@contextmanager
def reading(data: Path):
    """``with reading(data) as store``: a read-only store for one request, closed after."""
    store = reader(data)
    try:
        yield store
    finally:
        store.close()


def report_body(folder: Path, row: dict, numbers: dict[int, int]) -> Markup | None:
    """The content of the tournament's ``report.html``, made from its own store, each failed
    match linked to its page here (``numbers``: its id there -> its id here)."""
    if not results_store.exists(folder):
        return None
    results = results_store.open_store(folder)
    try:
        document = row["standings"] if row["status"] == "done" else None
        document = document or standings_.document(results)

        def link(match: dict) -> report.Link:
            number = numbers.get(match["id"])
            return (None, "-") if number is None else (f"/matches/{number}", f"match {number}")

        return report.body(results, document, link)
    finally:
        results.close()

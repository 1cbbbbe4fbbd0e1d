"""The web site: a Starlette application, served by hypercorn on trio (:mod:`.command`).

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
What a request may see of a match is its viewer's (:func:`.auth.viewer_of`), as
:mod:`.visibility` decides: a seat's transcript and stderr, hidden hole cards and the end of a
fault paragraph are its team's and the organiser's only.
An id in an address is at most 18 digits (:class:`IdConvertor`): any other is a 404, never
a query that overflows SQLite's integers.

A file is served only when its name is one a match writes (``hands.txt``, ``seatN.in``...)
and its real path, links resolved, is inside the data folder: a request can never reach
another file. Every response says ``Content-Security-Policy: default-src 'none';
script-src 'self'`` (no script runs but the site's own files, even if some text were not
escaped) and ``X-Content-Type-Options: nosniff`` (a log is never taken for a page).
Handlers are plain functions, which Starlette runs in worker threads, each with its own
read-only connection to the store.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

import anyio
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pokerbots.server import games
from pokerbots.server.logs import folder as folder_
from pokerbots.server.service import auth, pages, replay, visibility
from pokerbots.server.service import ladder as ladder_
from pokerbots.server.service.auth import viewer_of
from pokerbots.server.service.store import reader, relative_text
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


def create_app(data: Path, now: Callable[[], pages.Now],
               ladder_size: int = ladder_.DEFAULT_TOURNAMENTS, *, uploads=None):
    """The site of the service whose data folder is ``data``; ``now()`` tells what the
    scheduler is doing; the home page's ladder spans the last ``ladder_size`` tournaments;
    ``uploads`` (:class:`.uploads.Uploads`) takes the teams' bots."""

    def not_found(text: str, viewer=None) -> HTMLResponse:
        return HTMLResponse(pages.not_found(text, now(), viewer), status_code=404)

    def home(request: Request) -> Response:
        viewer = viewer_of(request)
        with reading(data) as store:
            board = ladder_.ladder(store, data, ladder_size)
            return HTMLResponse(pages.home(store, now(), board, viewer))

    def api_ladder(request: Request) -> Response:
        with reading(data) as store:
            board = ladder_.ladder(store, data, ladder_size)
        return JSONResponse({**board, "size": ladder_size})

    def bot(request: Request) -> Response:
        name = request.path_params["name"]
        viewer = viewer_of(request)

        def transcript(version: dict) -> str | None:
            path = log_file(data, version["smoke_logs"], version["transcript"] or "")
            return (None if path is None
                    else folder_.tail(path, pages.TRANSCRIPT_LINES, max_bytes=TAIL_BYTES))

        with reading(data) as store:
            page = pages.bot(store, name, now(), transcript, viewer)
        if page is None:
            return not_found(f"There is no bot called {name}.", viewer)
        return HTMLResponse(page)

    def tournament(request: Request) -> Response:
        tournament_id = request.path_params["tournament_id"]
        viewer = viewer_of(request)
        with reading(data) as store:
            row = store.tournament(tournament_id)
            if row is None:
                return not_found(f"There is no tournament {tournament_id}.", viewer)
            numbers = {m["match_no"]: m["id"] for m in store.matches(tournament_id)}
            body = report_body(data, data / row["folder"], row, numbers, viewer)
            seen = visibility.sight(viewer).tournament(row)
            return HTMLResponse(pages.tournament(store, seen, body, now(), viewer))

    def the_match(request: Request):
        """``(viewer, match row or None, its sight)`` of a request for a match."""
        viewer = viewer_of(request)
        with reading(data) as store:
            row = store.match(request.path_params["match_id"])
        return viewer, row, row and visibility.sight(viewer, row["seating"])

    def match(request: Request) -> Response:
        viewer, row, sight = the_match(request)
        if row is None:
            return not_found(f"There is no match {request.path_params['match_id']}.", viewer)
        files = [f for f in log_files(data, row["log_dir"]) if sight.file(f) != visibility.NONE]
        count = folder_.MatchFolder(data / row["log_dir"]).hand_count() if row["log_dir"] else 0
        return HTMLResponse(pages.match(row, files, now(), sight, count, viewer))

    def text_file(folder: str | None, name: str, what: str, viewer=None) -> Response:
        path = log_file(data, folder, name)
        if path is None:
            return not_found(f"{what} has no log file {name}.", viewer)
        return FileResponse(path, media_type=TEXT)

    def match_file(request: Request) -> Response:
        viewer, row, sight = the_match(request)
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

    def match_hands(request: Request) -> Response:
        viewer, row, sight = the_match(request)
        if row is None or not row["log_dir"]:
            return not_found(f"Match {request.path_params['match_id']} has no hands.", viewer)
        match_folder = folder_.MatchFolder(data / row["log_dir"])
        pages_ = max(1, -(-match_folder.hand_count() // HANDS_PER_PAGE))
        try:
            number = min(max(int(request.query_params.get("page", "1")), 1), pages_)
        except ValueError:
            number = 1
        shown = match_folder.hands((number - 1) * HANDS_PER_PAGE, number * HANDS_PER_PAGE)
        blocks = list(zip([r["hand"] for r in shown], _history(data, row, shown, sight)))
        return HTMLResponse(pages.hands(row, blocks, now(), sight,
                                        {"page": number, "pages": pages_}, viewer))

    def hand_replay(request: Request) -> Response:
        viewer, row, sight = the_match(request)
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
            return not_found(f"{what} has no hand {number}.", viewer)
        count = match_folder.hand_count()
        summary = match_folder.summary() or {}
        try:
            steps = replay.steps(record, summary, row["seating"], sight)
        except replay.NoReplay as exc:
            return not_found(f"{what}'s hand {number} cannot be replayed: {exc}", viewer)
        return HTMLResponse(pages.replayer(row, number, count, steps, now(), sight, viewer))

    def version_file(request: Request) -> Response:
        viewer = viewer_of(request)
        version_id = request.path_params["version_id"]
        with reading(data) as store:
            row = store.version(version_id)
        what = f"Version {version_id}'s smoke test"
        if row is None or not visibility.sees_team(viewer, row["name"]):
            return not_found(f"{what} has no log file {request.path_params['name']}"
                             " you may read (its team's token shows it).", viewer)
        return text_file(row["smoke_logs"], request.path_params["name"], what, viewer)

    def team(request: Request) -> Response:
        name = request.path_params["name"]
        viewer = viewer_of(request)
        if viewer is None:
            return HTMLResponse(pages.login(name, now()), status_code=401)
        if not visibility.sees_team(viewer, name):
            return HTMLResponse(pages.forbidden(
                f"This is team {name}'s page; your token is team {viewer.name}'s.", now(),
                viewer), status_code=403)

        def transcript(version: dict) -> str | None:
            path = log_file(data, version["smoke_logs"], version["transcript"] or "")
            return (None if path is None
                    else folder_.tail(path, pages.TRANSCRIPT_LINES, max_bytes=TAIL_BYTES))

        with reading(data) as store:
            return HTMLResponse(pages.team(store, name, now(), transcript, viewer))

    def api_standings(request: Request) -> Response:
        with reading(data) as store:
            done = store.tournaments("done", limit=1)
        if not done:
            return JSONResponse({"error": "no tournament has finished yet"}, status_code=404)
        latest = visibility.sight(viewer_of(request)).tournament(done[0])
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
        sight = visibility.sight(viewer_of(request))
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
            for t in rows])

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
        Route("/matches/{match_id:id}/hands", match_hands),
        Route("/matches/{match_id:id}/hands/{number:id}", hand_replay),
        Route("/matches/{match_id:id}/{name}", match_file),
        Route("/teams/{name}", team),
        Route("/api/ladder", api_ladder),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/versions/{version_id:id}/{name}", version_file),
        Route("/api/standings", api_standings),
        Route("/api/bots", api_bots),
        Route("/api/tournaments", api_tournaments),
        Route("/healthz", healthz),
        *auth.routes(now),
        *(uploads.routes() if uploads is not None else ()),
    ]

    async def missing(request: Request, exc) -> Response:
        viewer = await anyio.to_thread.run_sync(viewer_of, request)  # the header's log out
        return not_found(f"Nothing is at {request.url.path}.", viewer)

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

"""A match's pages: ``/matches/ID`` (its row and log files), ``/matches/ID/FILE`` (a log file
as plain text, as the viewer may read it), ``/matches/ID/hands`` (its hand history, a page at
a time) and ``/matches/ID/hands/N`` (a hand's replayer).

A file is served only when its name is one a match writes (``hands.txt``, ``seatN.in``...)
and its real path, links resolved, is inside the data folder: a request can never reach
another file. A log file is served as it was when it was opened
(:class:`~pokerbots.server.service.site.responses.Snapshot`)."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from pokerbots.server import games
from pokerbots.server.logs import folder as folder_
from pokerbots.server.service.site import pages, replay, visibility
from pokerbots.server.service.site.responses import TEXT, Snapshot
from pokerbots.server.service.site.shared import Site

#: The files of a match folder that may be served: those a match writes.
LOG_FILES = folder_.FILE_NAME
#: Hands on one page of a match's hand history.
HANDS_PER_PAGE = 200
#: The statuses after which a match's files change no more: its pages are kept; before,
#: they are made for every request.
MATCH_FINAL = frozenset({"done", "failed", "skipped"})


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


def text_file(site: Site, folder: str | None, name: str, what: str, viewer=None) -> Response:
    """The log file ``name`` of ``folder`` whole, as plain text; a 404 saying that ``what``
    has no such file if it may not be served."""
    path = log_file(site.data, folder, name)
    if path is not None:
        try:
            return Snapshot(path, TEXT)
        except OSError:  # gone since
            pass
    return site.not_found(f"{what} has no log file {name}.", viewer)


def _the_match(site: Site, request: Request, viewer):
    """``(match row or None, its sight, whether its files change no more)``."""
    with site.reading() as store:
        row = store.match(request.path_params["match_id"])
    if row is None:
        return None, None, True
    return row, visibility.sight(viewer, row["seating"]), row["status"] in MATCH_FINAL


def match(site: Site, request: Request, viewer, state):
    row, sight, final = _the_match(site, request, viewer)
    if row is None:
        return site.not_found(f"There is no match {request.path_params['match_id']}.", viewer,
                              state), True
    files = [f for f in log_files(site.data, row["log_dir"])
             if sight.file(f) != visibility.NONE]
    count = (folder_.MatchFolder(site.data / row["log_dir"]).hand_count() if row["log_dir"]
             else 0)
    return HTMLResponse(pages.match(row, files, state, sight, count, viewer)), final


def match_file(site: Site, request: Request, viewer) -> Response:
    row, sight, _ = _the_match(site, request, viewer)
    name = request.path_params["name"]
    what = f"Match {request.path_params['match_id']}"
    folder = row and row["log_dir"]
    how = sight.file(name) if row else visibility.NONE
    if how == visibility.WHOLE:
        return text_file(site, folder, name, what, viewer)
    if how == visibility.NONE or log_file(site.data, folder, name) is None:
        return site.not_found(f"{what} has no log file {name}.", viewer)
    match_folder = folder_.MatchFolder(site.data / row["log_dir"])
    if name == folder_.SUMMARY:
        return JSONResponse(sight.summary(match_folder.summary() or {}))
    records = match_folder.hands()
    if name == folder_.HANDS:
        return Response(sight.jsonl(records), media_type=TEXT)
    return Response("".join(_history(site.data, row, records, sight)), media_type=TEXT)


def page_number(request: Request) -> int:
    """The ``page`` of a hand history's address (1 if there is none, or not a number)."""
    try:
        return min(max(int(request.query_params.get("page", "1")[:12]), 1), 10 ** 9)
    except ValueError:
        return 1


def match_hands(site: Site, request: Request, viewer, state):
    row, sight, final = _the_match(site, request, viewer)
    if row is None or not row["log_dir"]:
        return site.not_found(f"Match {request.path_params['match_id']} has no hands.", viewer,
                              state), final
    match_folder = folder_.MatchFolder(site.data / row["log_dir"])
    count = max(1, -(-match_folder.hand_count() // HANDS_PER_PAGE))
    number = min(page_number(request), count)
    shown = match_folder.hands((number - 1) * HANDS_PER_PAGE, number * HANDS_PER_PAGE)
    blocks = list(zip([r["hand"] for r in shown], _history(site.data, row, shown, sight)))
    return HTMLResponse(pages.hands(row, blocks, state, sight,
                                    {"page": number, "pages": count}, viewer)), final


def hand_replay(site: Site, request: Request, viewer, state):
    row, sight, final = _the_match(site, request, viewer)
    number = request.path_params["number"]
    what = f"Match {request.path_params['match_id']}"
    match_folder = (folder_.MatchFolder(site.data / row["log_dir"]) if row and row["log_dir"]
                    else None)
    # Hands are numbered from 0, one line each: hand N is line N.
    records = match_folder.hands(number, number + 1) if match_folder else []
    record = records[0] if records and records[0]["hand"] == number else None
    if record is None and records:  # numbered otherwise: look for it
        record = next((r for r in match_folder.hands() if r["hand"] == number), None)
    if record is None:
        return site.not_found(f"{what} has no hand {number}.", viewer, state), final
    count = match_folder.hand_count()
    summary = match_folder.summary() or {}
    try:
        steps = replay.steps(record, summary, row["seating"], sight)
    except replay.NoReplay as exc:
        return site.not_found(f"{what}'s hand {number} cannot be replayed: {exc}", viewer,
                              state), final
    return HTMLResponse(pages.replayer(row, number, count, steps, state, sight,
                                       viewer)), final


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


def routes(site: Site) -> list[Route]:
    return [Route("/matches/{match_id:id}", site.kept(match)),
            Route("/matches/{match_id:id}/hands", site.kept(match_hands, page_number)),
            Route("/matches/{match_id:id}/hands/{number:id}", site.kept(hand_replay)),
            Route("/matches/{match_id:id}/{name}", site.threaded(match_file))]

"""The JSON API: ``/api/ladder``, ``/api/standings`` (the latest finished tournament's),
``/api/bots``, ``/api/tournaments``; and ``/healthz``, which answers while the store does.
Times are ISO 8601 in UTC, to the second; seeds are text (more digits than a JSON reader's
numbers may keep)."""

from __future__ import annotations

from datetime import datetime, timezone

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pokerbots.server.service.site import ladder, pages, visibility
from pokerbots.server.service.site.shared import Site


def iso(seconds: float | None) -> str | None:
    """A time for the JSON API: ISO 8601 in UTC, to the second."""
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="seconds")


def api_ladder(site: Site, request: Request, viewer, state):
    with site.reading() as store:
        board = ladder.ladder(store, site.data, site.ladder_size)
    return JSONResponse({**board, "size": site.ladder_size}), True


def api_standings(site: Site, request: Request, viewer, state):
    with site.reading() as store:
        done = store.tournaments("done", limit=1)
    if not done:
        return JSONResponse({"error": "no tournament has finished yet"}, status_code=404), True
    latest = visibility.sight(viewer).tournament(done[0])
    return JSONResponse({**latest["standings"], "tournament_id": latest["id"],
                         "started": iso(latest["started"]),
                         "finished": iso(latest["finished"])}), True


def api_bots(site: Site, request: Request, viewer, state):
    with site.reading() as store:
        bots = store.bots()
    found = []
    for row in bots:
        status, reason, admitted = pages.describe(row)
        found.append({"name": row["name"], "version": row["version"]["label"],
                      "status": status, "reason": reason, "admitted_version": admitted})
    return JSONResponse(found), True


def api_tournaments(site: Site, request: Request, viewer, state):
    sight = visibility.sight(viewer)
    with site.reading() as store:
        rows = [sight.tournament(t) for t in store.tournaments()]
    return JSONResponse([
        {"id": t["id"], "started": iso(t["started"]), "finished": iso(t["finished"]),
         "bots": [{"name": b["name"], "version": b["version"]} for b in t["bots"]],
         "status": t["status"], "commitment": t["commitment"],
         "revealed": iso(t["revealed"]),
         **{key: None if t[key] is None else str(t[key])
            for key in visibility.SECRET_TOURNAMENT if key in t}}
        for t in rows]), True


def routes(site: Site) -> list[Route]:
    def healthz(request: Request) -> Response:
        with site.reading() as store:
            store.meta("options")  # the store answers
        state = site.now()
        return JSONResponse({"status": "ok", "playing": state.playing,
                             "testing": state.testing})

    return [Route("/api/ladder", site.kept(api_ladder)),
            Route("/api/standings", site.kept(api_standings)),
            Route("/api/bots", site.kept(api_bots)),
            Route("/api/tournaments", site.kept(api_tournaments)),
            Route("/healthz", healthz)]

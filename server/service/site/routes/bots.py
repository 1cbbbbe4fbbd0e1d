"""A bot's and a team's pages: ``/bots/NAME`` (public), ``/teams/NAME`` (the team's own, for
its token and the organiser's) and ``/versions/ID/FILE`` (the logs of a version's failed
smoke match, for its team)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from pokerbots.server.logs import folder as folder_
from pokerbots.server.service.site import pages, visibility
from pokerbots.server.service.site.routes.matches import log_file, text_file
from pokerbots.server.service.site.shared import Site

#: Bytes read from the end of a transcript for its last lines on a bot's page.
TAIL_BYTES = 65536


def _transcript(site: Site):
    """``transcript(version)``: the last lines of a version's smoke transcript, or None."""

    def transcript(version: dict) -> str | None:
        path = log_file(site.data, version["smoke_logs"], version["transcript"] or "")
        return (None if path is None
                else folder_.tail(path, pages.TRANSCRIPT_LINES, max_bytes=TAIL_BYTES))

    return transcript


def bot(site: Site, request: Request, viewer, state):
    name = request.path_params["name"]
    with site.reading() as store:
        page = pages.bot(store, name, state, _transcript(site), viewer)
    if page is None:
        return site.not_found(f"There is no bot called {name}.", viewer, state), True
    return HTMLResponse(page), True


def team(site: Site, request: Request, viewer, state):
    name = request.path_params["name"]
    if viewer is None:
        return HTMLResponse(pages.login(name, state), status_code=401), True
    if not visibility.sees_team(viewer, name):
        return HTMLResponse(pages.forbidden(
            f"This is team {name}'s page; your token is team {viewer.name}'s.", state,
            viewer), status_code=403), True
    with site.reading() as store:
        return HTMLResponse(pages.team(store, name, state, _transcript(site), viewer)), True


def version_file(site: Site, request: Request, viewer) -> Response:
    version_id = request.path_params["version_id"]
    with site.reading() as store:
        row = store.version(version_id)
    what = f"Version {version_id}'s smoke test"
    if row is None or not visibility.sees_team(viewer, row["name"]):
        return site.not_found(f"{what} has no log file {request.path_params['name']}"
                              " you may read (its team's token shows it).", viewer)
    return text_file(site, row["smoke_logs"], request.path_params["name"], what, viewer)


def routes(site: Site) -> list[Route]:
    return [Route("/bots/{name}", site.kept(bot)),
            Route("/teams/{name}", site.kept(team)),
            Route("/versions/{version_id:id}/{name}", site.threaded(version_file))]

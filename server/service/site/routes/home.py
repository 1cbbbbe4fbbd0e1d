"""``/``: the ladder over the last tournaments, the latest standings, the chart, the bots in
quarantine, every bot and every tournament."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from pokerbots.server.service.site import ladder, pages
from pokerbots.server.service.site.shared import Site


def home(site: Site, request: Request, viewer, state):
    with site.reading() as store:
        board = ladder.ladder(store, site.data, site.ladder_size)
        return HTMLResponse(pages.home(store, state, board, viewer)), True


def routes(site: Site) -> list[Route]:
    return [Route("/", site.kept(home))]

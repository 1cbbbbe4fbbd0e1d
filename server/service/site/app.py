"""The web site: a Starlette application, served by hypercorn on trio
(:mod:`pokerbots.server.service.serve`).

Starlette rather than Quart-Trio: the site is a dozen routes of server-rendered text and
files, and Starlette is exactly that (routing, responses, files streamed from disk) in a small
library whose only dependency, AnyIO, runs on trio; Quart-Trio would bring Flask's stack
(Werkzeug, Blinker...) for features the site does not use. The pages are Jinja2 templates
(:mod:`.pages`), rendered as plain text responses of type HTML.

:func:`create_app` puts together the routes (:mod:`.routes`, one module per kind of page), the
login routes (:mod:`.auth`) and the uploads' (:mod:`pokerbots.server.service.uploads.routes`).
What a request may see of a match is its viewer's (its token's team:
:meth:`.shared.Site.viewer`), as :mod:`.visibility` decides: a seat's transcript and stderr,
hidden hole cards and the end of a fault paragraph are its team's and the organiser's only. An
id in an address is at most 18 digits (:class:`IdConvertor`): any other is a 404, never a query
that overflows SQLite's integers. Every response says ``Content-Security-Policy: default-src
'none'; script-src 'self'`` (no script runs but the site's own files, even if some text were
not escaped) and ``X-Content-Type-Options: nosniff`` (a log is never taken for a page)
(:class:`.responses.SecurityHeaders`).

A page is made in a worker thread, with a read-only connection to the store of its own, and
kept (:mod:`.cache`) per address and viewer (the public, each team, the organiser) and what
the scheduler is doing (:class:`.pages.Now`), until the store changes: the next request for
it is answered from memory on the event loop, without a thread, and so is the team of a token
it carries. Pages made of files that still grow (a tournament or a match still playing) are
made for every request.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from pokerbots.server.games import holdem
from pokerbots.server.service.site import auth, pages
from pokerbots.server.service.site import ladder as ladder_
from pokerbots.server.service.site.responses import SecurityHeaders
from pokerbots.server.service.site.routes import api, bots, home, matches, tournaments
from pokerbots.server.service.site.shared import Site

#: The site's own scripts (the replayer's), served at ``/static``.
STATIC = Path(__file__).resolve().parent / "static"


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


def create_app(data: Path, now: Callable[[], pages.Now],
               ladder_size: int = ladder_.DEFAULT_TOURNAMENTS, *, uploads=None):
    """The site of the service whose data folder is ``data``; ``now()`` tells what the
    scheduler is doing; the home page's ladder spans the last ``ladder_size`` tournaments;
    ``uploads`` (:class:`pokerbots.server.service.uploads.routes.Uploads`) takes the teams'
    bots. eval7 is loaded here, before the site answers (a replay ranks hands)."""
    holdem.ranking()
    site = Site(data, now, ladder_size)
    routes = [
        *home.routes(site),
        *bots.routes(site),
        *tournaments.routes(site),
        *matches.routes(site),
        *api.routes(site),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        *auth.routes(now),
        *(uploads.routes() if uploads is not None else ()),
    ]

    async def missing(request: Request, exc) -> Response:
        viewer = await site.viewer(request, site.generation())  # the header's log out
        return site.not_found(f"Nothing is at {request.url.path}.", viewer)

    app = Starlette(routes=routes, exception_handlers={404: missing})
    app.state.data = data  # for auth.viewer_of
    return SecurityHeaders(app)

"""What every route of the site shares (:class:`Site`): the data folder, what the scheduler is
doing, the pages kept until the store changes, the team of each token, and the two ways a
route is served (a page kept, a file in a worker thread)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from pokerbots.server.service.data.store import FILE, Store, reader
from pokerbots.server.service.data.teams import Team, Unchecked
from pokerbots.server.service.site import auth, pages
from pokerbots.server.service.site.cache import Generation, Kept
from pokerbots.server.service.site.responses import KeptPage

#: Pages kept at most, and bytes they take in all; tokens whose team is kept.
PAGES_KEPT = 4096
PAGES_BYTES = 64 << 20
TOKENS_KEPT = 4096

#: A page: ``render(site, request, viewer, state) -> (response, keep)``; ``keep`` says that
#: it changes only with the store.
Render = Callable[["Site", Request, "Team | None", pages.Now], tuple[Response, bool]]
#: A file: ``serve(site, request, viewer) -> response``, in a worker thread.
Serve = Callable[["Site", Request, "Team | None"], Response]


class Site:
    """What the site's requests share: the data folder ``data``, ``now()`` (what the
    scheduler is doing), the home page's ladder size, the pages kept (:class:`.cache.Kept`)
    and the team of each token, both for the store's current generation
    (:class:`.cache.Generation`)."""

    def __init__(self, data: Path, now: Callable[[], pages.Now], ladder_size: int) -> None:
        self.data = data
        self.now = now
        self.ladder_size = ladder_size
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

    @contextmanager
    def reading(self) -> Iterator[Store]:
        """``with site.reading() as store``: a read-only store for one request, closed
        after."""
        store = reader(self.data)
        try:
            yield store
        finally:
            store.close()

    def not_found(self, text: str, viewer: Team | None = None,
                  state: pages.Now | None = None) -> HTMLResponse:
        """The 404 page saying ``text``."""
        return HTMLResponse(pages.not_found(text, state or self.now(), viewer),
                            status_code=404)

    def kept(self, render: Render, query: Callable[[Request], object] = lambda request: None):
        """The endpoint of the page ``render`` makes, kept per address (its path's parameters
        and ``query(request)``), viewer and what the scheduler is doing."""
        name = f"{render.__module__}.{render.__qualname__}"

        async def endpoint(request: Request) -> Response:
            generation = self.generation()
            viewer = await self.viewer(request, generation)
            state = self.now()
            key = (name, *request.path_params.values(), query(request), viewer,
                   state.playing, state.testing, state.next_at)

            def make() -> tuple[KeptPage, bool]:
                response, keep = render(self, request, viewer, state)
                return KeptPage(response), keep

            return (await self.pages.get(key, generation, make)).response()

        endpoint.__name__ = render.__name__
        return endpoint

    def threaded(self, serve: Serve):
        """The endpoint that serves ``serve`` in a worker thread (a file), the viewer known
        as the pages know it."""

        async def endpoint(request: Request) -> Response:
            viewer = await self.viewer(request, self.generation())
            return await anyio.to_thread.run_sync(serve, self, request, viewer)

        endpoint.__name__ = serve.__name__
        return endpoint

"""Who is asking: a request's team, from its token (:mod:`.teams`).

A request carries a token in ``Authorization: Bearer TOKEN`` (a script, ``pokerbots submit``)
or in the cookie ``pokerbots_token`` that ``POST /login`` sets (a browser): HTTP-only (no
script reads it), ``SameSite=Strict`` (no other site's page sends it), ``Secure`` when the site
is reached over HTTPS. :func:`viewer_of` gives the team or None; ``POST /logout`` clears the
cookie. The login form (``GET /login?next=/teams/NAME``) is ``templates/login.html``; after
the login the browser goes to ``next`` (an address on this site), else to the team's page.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs

import anyio
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from pokerbots.server.service import pages
from pokerbots.server.service.store import Store, reader
from pokerbots.server.service.teams import Team, Unchecked, authenticate, check

COOKIE = "pokerbots_token"
#: The most bytes of a login form read (a token is about 100).
_FORM_BYTES = 4096


def token_of(request: Request) -> str | None:
    """The token a request carries (the header's first, else the cookie's), or None."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return request.cookies.get(COOKIE) or None


def viewer_of(request: Request, store: Store | None = None) -> Team | None:
    """The team whose token the request carries, or None (none, wrong, revoked, not checked
    now). ``store``: the request's store, else one is opened (the site's data folder is
    ``app.state.data``). Blocking (a scrypt the first time a token is seen): call it from a
    worker thread, as Starlette runs plain function handlers."""
    found = checked_viewer(request, store)
    return found if isinstance(found, Team) else None


def checked_viewer(request: Request, store: Store | None = None) -> Team | Unchecked | None:
    """As :func:`viewer_of`, telling a token that was not checked (:class:`.teams.Unchecked`:
    its key or its client failed lately) from a wrong one (None)."""
    token = token_of(request)
    if token is None:
        return None
    client = request.client.host if request.client is not None else None
    if store is not None:
        return check(store, token, client)
    opened = reader(request.app.state.data)
    try:
        return check(opened, token, client)
    finally:
        opened.close()


def _local(path: str) -> str:
    """``path`` if it is an address on this site (``/teams/x``), else "" (no open redirect
    to another site: ``//evil.example``, ``https://...``)."""
    return path if path.startswith("/") and not path.startswith(("//", "/\\")) else ""


def team_of(data: Path, token: str, client: str | None = None) -> Team | None:
    """The team of ``token`` (sent from the address ``client``) in the service whose data
    folder is ``data``, or None."""
    opened = reader(data)
    try:
        return authenticate(opened, token, client)
    finally:
        opened.close()


def routes(now: Callable[[], pages.Now]) -> list[Route]:
    """``GET`` and ``POST /login``, ``POST /logout``."""

    def form(error: str | None = None, status: int = 200, target: str = "") -> Response:
        return HTMLResponse(pages.page("login.html", "Log in", now(), error=error,
                                       next=target), status_code=status)

    async def login_page(request: Request) -> Response:
        return form(target=_local(request.query_params.get("next", "")))

    async def login(request: Request) -> Response:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > _FORM_BYTES:
                return form("That form is too long: paste the token alone.", 413)
        fields = parse_qs(body.decode("latin-1"))
        token = fields.get("token", [""])[0].strip()
        target = _local(fields.get("next", [""])[0])
        client = request.client.host if request.client is not None else None
        team = (await anyio.to_thread.run_sync(team_of, request.app.state.data, token, client)
                if token else None)
        if team is None:
            return form("That token is not a team's token (or it was revoked).", 401, target)
        answer = RedirectResponse(target or ("/" if team.organiser else f"/teams/{team.name}"),
                                  status_code=303)
        answer.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/",
                          secure=request.url.scheme == "https")
        return answer

    async def logout(request: Request) -> Response:
        answer = RedirectResponse("/", status_code=303)
        answer.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return answer

    return [Route("/login", login_page, methods=["GET"]),
            Route("/login", login, methods=["POST"]),
            Route("/logout", logout, methods=["POST"])]


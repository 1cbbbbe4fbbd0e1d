"""Who is asking: a request's team, from its token (:mod:`.data.teams`).

A request carries a token in ``Authorization: Bearer TOKEN`` (a script, ``pokerbots submit``)
or in the cookie ``pokerbots_token`` that ``POST /login`` sets (a browser): HTTP-only (no
script reads it), ``SameSite=Strict`` (no other site's page sends it), ``Secure`` when the site
is reached over HTTPS. :func:`viewer_of` gives the team or None; ``POST /logout`` clears the
cookie. The login form (``GET /login?next=/teams/NAME``) is ``templates/login.html``; after
the login the browser goes to ``next`` (an address on this site), else to the team's page.

A form posted from another site's page is refused (403, nothing done): :func:`cross_site`
decides it, from the ``Origin`` and ``Sec-Fetch-Site`` headers a browser sends, for the
login, the logout and the upload form alike. A request with neither (a script, ``pokerbots
submit``) is not a browser's and goes on. ``POST /login`` checks that and its
``Content-Length`` (at most 4 KiB) before it reads a byte of the body.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import anyio
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from pokerbots.server.service.data.store import Store, reader
from pokerbots.server.service.data.teams import Team, Unchecked, check
from pokerbots.server.service.site import pages

COOKIE = "pokerbots_token"
#: The most bytes of a login form read (a token is about 100).
_FORM_BYTES = 4096
#: What ``Sec-Fetch-Site`` says of a request the site's own page (or the person, typing an
#: address) made.
_OWN_FETCH = ("same-origin", "none")
#: Default ports, left out of an origin.
_PORTS = {"http": 80, "https": 443}


def _origin(scheme: str, host: str | None, port: int | None) -> tuple[str, str, int] | None:
    scheme = scheme.lower()
    if not host or scheme not in _PORTS:
        return None
    return scheme, host.lower().rstrip("."), port or _PORTS[scheme]


def cross_site(request: Request) -> str | None:
    """Why ``request``, a post to one of the site's forms, comes from another site's page
    (a sentence for the refusal), or None when it does not: its ``Sec-Fetch-Site`` (where the
    browser sends one) is ``same-origin`` or ``none``, and its ``Origin`` (where sent) is the
    site's own: the scheme and host the request was made to (those a proxy forwarded, with
    ``--behind-proxy``). A request with neither header is not a browser's form and goes on."""
    fetched = request.headers.get("sec-fetch-site")
    if fetched is not None and fetched.strip().lower() not in _OWN_FETCH:
        return (f"this was posted from another site's page (Sec-Fetch-Site:"
                f" {fetched.strip()[:40]}), not from this site: nothing was done")
    origin = request.headers.get("origin")
    if origin is None:
        return None
    try:
        parts = urlsplit(origin.strip())
        theirs = _origin(parts.scheme, parts.hostname, parts.port)
        ours = _origin(request.url.scheme, request.url.hostname, request.url.port)
    except ValueError:  # a port that is not a number
        theirs = ours = None
    if theirs is None or theirs != ours:
        return (f"this was posted from another site's page (Origin: {origin.strip()[:100]}),"
                " not from this site: nothing was done")
    return None


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
    """As :func:`viewer_of`, telling a token that was not checked (:class:`.data.teams.Unchecked`:
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
    found = checked_team_of(data, token, client)
    return found if isinstance(found, Team) else None


def checked_team_of(data: Path, token: str, client: str | None = None
                    ) -> Team | Unchecked | None:
    """As :func:`team_of`, telling a token that was not checked now (:class:`.data.teams.Unchecked`)
    from a wrong one (None)."""
    opened = reader(data)
    try:
        return check(opened, token, client)
    finally:
        opened.close()


def routes(now: Callable[[], pages.Now]) -> list[Route]:
    """``GET`` and ``POST /login``, ``POST /logout``."""

    def form(error: str | None = None, status: int = 200, target: str = "",
             viewer: Team | None = None) -> Response:
        return HTMLResponse(pages.page("login.html", "Log in", now(), viewer, error=error,
                                       next=target), status_code=status)

    async def login_page(request: Request) -> Response:
        viewer = await anyio.to_thread.run_sync(viewer_of, request)  # the header's log out
        return form(target=_local(request.query_params.get("next", "")), viewer=viewer)

    async def login(request: Request) -> Response:
        refused = cross_site(request)
        if refused is not None:
            return form(f"Refused: {refused}. The form below is this site's own.", 403)
        declared = request.headers.get("content-length", "")
        if declared.strip().isdigit() and int(declared) > _FORM_BYTES:
            return form("That form is too long: paste the token alone.", 413)
        body = b""
        try:
            async for chunk in request.stream():  # under the site's body deadline
                body += chunk
                if len(body) > _FORM_BYTES:
                    return form("That form is too long: paste the token alone.", 413)
        except ClientDisconnect:
            return Response(status_code=400)  # nobody reads it
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
        refused = cross_site(request)
        if refused is not None:
            return form(f"Refused: {refused}. The form below is this site's own.", 403)
        answer = RedirectResponse("/", status_code=303)
        answer.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return answer

    return [Route("/login", login_page, methods=["GET"]),
            Route("/login", login, methods=["POST"]),
            Route("/logout", logout, methods=["POST"])]


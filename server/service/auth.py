"""STAND-IN for the "teams" helper's module (the lead merges theirs over it): who is asking.

:func:`viewer_of` is the agreed interface: the team of the request's token, from an
``Authorization: Bearer TOKEN`` header or the HttpOnly cookie ``pokerbots_token``; None for
the public.
"""

from __future__ import annotations

from starlette.requests import Request

from pokerbots.server.service import teams

COOKIE = "pokerbots_token"


def viewer_of(request: Request) -> teams.Team | None:
    """The team the request's token belongs to, or None (no token, or an unknown one)."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        token = request.cookies.get(COOKIE, "")
    return teams.authenticate(token.strip(), request.app.state.data)

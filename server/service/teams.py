"""The teams of a competition and their tokens: who may upload a bot, and see its own pages.

A team is a name (its bot's name: as a bot folder's, letters, digits and ``_.-``, at most 40
characters, not starting with a dot) and a token, made by :func:`add_team` and shown once. A
token is 55 URL-safe characters (``secrets.token_urlsafe``: 9 random bytes, then 32): its first
12, the *key*, are kept in the store to find its row, so that checking a token costs one hash
whatever the number of teams; a token is one word (a shell, a header, a cookie, a regular
expression for ``[A-Za-z0-9_-]`` all take it whole). The store keeps the key, a random salt and
the salted ``hashlib.scrypt`` of the whole token, never the token; a token is checked by
hashing it again and comparing in constant time (:func:`hmac.compare_digest`). A token that
checked out is remembered (by its sha256, with the hash it matched) so that a team's every
page does not cost a scrypt; a revoked or replaced token fails at once all the same, since the
row is read on every request.

An organiser (``organiser=True``) is made the same way: it sees every page, and uploads no
bot. :func:`revoke_team` ends a token (and withdraws the team's bot); :func:`add_team` on a
revoked name gives the team a new token, and its bot plays again.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from pokerbots.server.seats.bots import BotSpecError
from pokerbots.server.service.store import Store
from pokerbots.server.tournament.entrants import check_name

__all__ = ["Team", "TeamError", "add_team", "authenticate", "list_teams", "revoke_team"]

#: The characters of a token that find its team's row (``token_urlsafe(9)``: 72 random bits).
KEY = 12
#: scrypt's cost (about 0.1 s and 16 MiB per check), as recommended for interactive logins.
_SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1, "dklen": 32}
#: Tokens remembered as checked (sha256 of the token -> the stored hash it matched).
_CHECKED: dict[bytes, bytes] = {}
_CHECKED_MAX = 4096


@dataclass(frozen=True)
class Team:
    """Who a token belongs to: a team (its bot is ``name``), or an organiser."""

    name: str
    organiser: bool = False


class TeamError(Exception):
    """A team cannot be added or revoked (a bad name, a name in use, no such team); the
    message says why."""


def check_team_name(name: str) -> None:
    """TeamError unless ``name`` can name a team: a bot name that names a visible folder."""
    try:
        check_name(name)
    except BotSpecError as exc:
        raise TeamError(str(exc)) from None
    if name.startswith("."):
        raise TeamError(f"the name {name!r} starts with a dot: a bot's name may not")


def _hash(token: str, salt: bytes) -> bytes:
    return hashlib.scrypt(token.encode(), salt=salt, **_SCRYPT)


def add_team(store: Store, name: str, organiser: bool = False) -> str:
    """Add the team ``name`` (or give a revoked one a new token); its token, which is kept
    nowhere: show it once. TeamError if the name is not a bot's name or is in use."""
    check_team_name(name)
    found = store.team(name)
    if found is not None and found["hash"] is not None:
        raise TeamError(f"there is a team called {name} already: `pokerbots team revoke"
                        f" {name}` first to give it a new token")
    token = secrets.token_urlsafe(9) + secrets.token_urlsafe(32)
    salt = secrets.token_bytes(16)
    store.put_team(name, organiser=organiser, key=token[:KEY], salt=salt,
                   hash_=_hash(token, salt), created=time.time())
    return token


def list_teams(store: Store) -> list[dict]:
    """Every team by name: ``name``, ``organiser``, ``created``, ``revoked`` (None while its
    token works)."""
    return [{"name": row["name"], "organiser": bool(row["organiser"]),
             "created": row["created"], "revoked": row["revoked"]}
            for row in store.teams()]


def revoke_team(store: Store, name: str) -> None:
    """End the token of ``name`` and withdraw its bot (its versions and results are kept).
    TeamError if there is no such team, or it is revoked already."""
    found = store.team(name)
    if found is None:
        raise TeamError(f"there is no team called {name}")
    if found["hash"] is None:
        raise TeamError(f"the team {name} is revoked already")
    store.revoke_team(name, time.time())


def authenticate(store: Store, token: str) -> Team | None:
    """The team whose token is ``token``, or None (no such team, revoked, a wrong token)."""
    if len(token) <= KEY:
        return None
    row = store.team_of_key(token[:KEY])
    if row is None or row["hash"] is None:
        return None
    seen = hashlib.sha256(token.encode()).digest()
    known = _CHECKED.get(seen)
    if known is None or not hmac.compare_digest(known, row["hash"]):
        if not hmac.compare_digest(_hash(token, row["salt"]), row["hash"]):
            return None
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.clear()
        _CHECKED[seen] = row["hash"]
    return Team(row["name"], bool(row["organiser"]))

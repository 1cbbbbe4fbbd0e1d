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

A scrypt costs the service about 0.15 s of CPU and 16 MiB, so a wrong token costs one only
when its key has not failed lately (:class:`Guard`): after a wrong token, further tokens with
its key are not checked for :data:`KEY_PAUSE` seconds, nor, once a client address has given
:data:`CLIENT_FAILURES` wrong tokens within :data:`CLIENT_WINDOW` seconds, any token it sends
until the oldest of them is that old; at most :data:`CHECKS_AT_ONCE` scrypts run at once
(a check waits :data:`CHECK_WAIT` seconds at most for its turn). A token not checked is
:class:`Unchecked` (:func:`check`; :func:`authenticate` takes it for a wrong one). A token
that checked out before is never held up: the right team keeps its pages and uploads while
someone tries its key, and a team whose right token was never seen by this service waits at
most :data:`KEY_PAUSE` seconds after a wrong try from another address.

An organiser (``organiser=True``) is made the same way: it sees every page, and uploads no
bot. :func:`revoke_team` ends a token (and withdraws the team's bot); :func:`add_team` on a
revoked name gives the team a new token, and its bot plays again.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass

from pokerbots.server.seats.bots import BotSpecError
from pokerbots.server.service.data.store import Store
from pokerbots.server.tournament.entrants import check_name

__all__ = ["Guard", "Team", "TeamError", "Unchecked", "add_team", "authenticate", "check",
           "list_teams", "revoke_team"]

#: The characters of a token that find its team's row (``token_urlsafe(9)``: 72 random bits).
KEY = 12
#: scrypt's cost (about 0.1 s and 16 MiB per check), as recommended for interactive logins.
_SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1, "dklen": 32}
#: Tokens remembered as checked (sha256 of the token -> the stored hash it matched), shared
#: by the site's threads: read and written under ``_CHECKED_LOCK``.
_CHECKED: dict[bytes, bytes] = {}
_CHECKED_MAX = 4096
_CHECKED_LOCK = threading.Lock()
#: Seconds a key is not checked after a wrong token with it.
KEY_PAUSE = 2.0
#: Wrong tokens from one client address within ``CLIENT_WINDOW`` seconds after which it is not
#: checked until the oldest of them is ``CLIENT_WINDOW`` seconds old.
CLIENT_FAILURES = 10
CLIENT_WINDOW = 60.0
#: Scrypts that run at once, and the seconds a check waits for its turn.
CHECKS_AT_ONCE = 2
CHECK_WAIT = 0.5
#: Client addresses remembered at most (the oldest forgotten first).
_CLIENTS_MAX = 10_000


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


class Guard:
    """Which wrong tokens may still cost a scrypt: the keys and client addresses that failed
    lately, and the scrypts running. Safe to use from several threads."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._keys: dict[str, float] = {}  # key -> when it may be checked again
        self._clients: dict[str, deque[float]] = {}  # address -> times of its failures
        self._turns = threading.BoundedSemaphore(CHECKS_AT_ONCE)

    def wait(self, key: str, client: str | None) -> float:
        """Seconds before a token with ``key`` from ``client`` may be checked (0: now)."""
        now = self.clock()
        with self._lock:
            wait = self._keys.get(key, now) - now
            failures = self._clients.get(client) if client is not None else None
            if failures is not None:
                while failures and failures[0] <= now - CLIENT_WINDOW:
                    failures.popleft()
                if len(failures) >= CLIENT_FAILURES:
                    wait = max(wait, failures[0] + CLIENT_WINDOW - now)
        return max(wait, 0.0)

    def failed(self, key: str, client: str | None) -> None:
        """A wrong token with ``key`` came from ``client``."""
        now = self.clock()
        with self._lock:
            self._keys[key] = now + KEY_PAUSE
            if client is not None:
                failures = self._clients.pop(client, None) or deque()
                self._clients[client] = failures  # at the end: the latest to fail
                failures.append(now)
                while len(failures) > CLIENT_FAILURES:
                    failures.popleft()
                while len(self._clients) > _CLIENTS_MAX:
                    del self._clients[next(iter(self._clients))]
            if len(self._keys) > _CLIENTS_MAX:
                self._keys = {k: t for k, t in self._keys.items() if t > now}

    def turn(self) -> bool:
        """Wait (at most ``CHECK_WAIT`` seconds) for a scrypt's turn; True if it came:
        :meth:`done` then."""
        return self._turns.acquire(timeout=CHECK_WAIT)

    def done(self) -> None:
        self._turns.release()


#: The service's guard (its tokens are checked by the site's threads).
GUARD = Guard()


@dataclass(frozen=True)
class Unchecked:
    """A token not checked now (its key or its client failed lately, or every scrypt's turn is
    taken): try again in ``retry_after`` seconds."""

    retry_after: float


def check(store: Store, token: str, client: str | None = None,
          guard: Guard = GUARD) -> Team | Unchecked | None:
    """The team whose token is ``token``; :class:`Unchecked` if it cannot be checked now; or
    None (no such team, revoked, a wrong token). ``client``: the address it came from."""
    if len(token) <= KEY:
        return None
    key = token[:KEY]
    row = store.team_of_key(key)
    if row is None or row["hash"] is None:
        return None
    seen = hashlib.sha256(token.encode()).digest()
    with _CHECKED_LOCK:
        known = _CHECKED.get(seen)
    if known is not None and hmac.compare_digest(known, row["hash"]):
        return Team(row["name"], bool(row["organiser"]))
    wait = guard.wait(key, client)
    if wait > 0:
        return Unchecked(wait)
    if not guard.turn():
        return Unchecked(1.0)
    try:
        wait = guard.wait(key, client)  # again: a try of the same key may have failed
        if wait > 0:                    # while this one waited for its turn
            return Unchecked(wait)
        right = hmac.compare_digest(_hash(token, row["salt"]), row["hash"])
    finally:
        guard.done()
    if not right:
        guard.failed(key, client)
        return None
    with _CHECKED_LOCK:
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.clear()
        _CHECKED[seen] = row["hash"]
    return Team(row["name"], bool(row["organiser"]))


def authenticate(store: Store, token: str, client: str | None = None,
                 guard: Guard = GUARD) -> Team | None:
    """The team whose token is ``token``, or None (no such team, revoked, a wrong token, a
    token that cannot be checked now: :func:`check` tells them apart)."""
    found = check(store, token, client, guard)
    return found if isinstance(found, Team) else None

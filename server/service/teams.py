"""STAND-IN for the "teams" helper's module (the lead merges theirs over it): teams and their
tokens. Only :class:`Team` and :func:`authenticate` are the agreed interface; the storage
(``teams.json`` in the data folder, salted scrypt hashes) is this stand-in's own.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from pathlib import Path

FILE = "teams.json"


@dataclass(frozen=True)
class Team:
    """A team: its name (its bot's name) and whether it is the organiser."""

    name: str
    organiser: bool


def _hash(token: str, salt: bytes) -> str:
    return hashlib.scrypt(token.encode(), salt=salt, n=2**14, r=8, p=1).hex()


def add(data: Path, name: str, organiser: bool = False) -> str:
    """Make team ``name`` in ``data``; its token (shown once, stored hashed)."""
    path = data / FILE
    found = json.loads(path.read_text()) if path.exists() else {}
    token = secrets.token_urlsafe(24)
    salt = secrets.token_bytes(16)
    found[name] = {"salt": salt.hex(), "hash": _hash(token, salt), "organiser": organiser}
    data.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(found))
    return token


def authenticate(token: str, data: Path | None = None) -> Team | None:
    """The team whose token is ``token``, or None."""
    if not token or data is None or not (data / FILE).exists():
        return None
    for name, entry in json.loads((data / FILE).read_text()).items():
        if hmac.compare_digest(_hash(token, bytes.fromhex(entry["salt"])), entry["hash"]):
            return Team(name, bool(entry["organiser"]))
    return None

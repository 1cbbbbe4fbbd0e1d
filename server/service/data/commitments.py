"""A tournament's seed, fixed in public before its first card and shown only after its last.

Every tournament the service starts gets a new seed (:func:`pokerbots.server.seeds.draw`: 128
bits) and a new salt (:data:`SALT_BYTES` random bytes, written as hexadecimal digits). Its
*commitment* is the SHA-256 of the ASCII text ``SALT:SEED`` (the salt's hexadecimal digits, a
colon, the seed in decimal), in hexadecimal (:func:`commitment`). The tournament's page and the
API show the commitment from the moment the tournament is created; the seed and the salt are
the organiser's (:mod:`.site.visibility`). When the organiser reveals them (:func:`reveal`, the
command ``pokerbots reveal``), the page shows both with a command that recomputes the
commitment (:func:`check_command`): anyone can then check that the seed was fixed before the
tournament played, and derive every match seed and every card from it
(:func:`pokerbots.server.tournament.deals.match_seed`). The salt makes the commitment say
nothing of the seed, whatever the seed (one given to a test, or a small one).

Only a finished tournament (``done`` or ``failed``) is revealed: the seed of one that plays, or
will be resumed, tells the cards of the hands still to come.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass

from pokerbots.server.errors import Refusal
from pokerbots.server.service.data.store import Store

__all__ = ["FINISHED", "Revealed", "RevealRefused", "check_command", "commitment", "new_salt",
           "reveal"]

#: Random bytes in a salt.
SALT_BYTES = 16
#: The statuses of a tournament that may be revealed.
FINISHED = ("done", "failed")


class RevealRefused(Refusal):
    """A reveal that cannot be done (no such tournament, one not finished): nothing was
    revealed; the message says why."""


@dataclass(frozen=True)
class Revealed:
    """What :func:`reveal` did: the rows of the tournaments now revealed (those revealed
    before among them), and the ids of the tournaments left as they are because they have not
    finished (when every finished one was asked for)."""

    tournaments: list[dict]
    unfinished: list[int]


def new_salt() -> str:
    """A new salt: :data:`SALT_BYTES` random bytes as hexadecimal digits."""
    return secrets.token_hex(SALT_BYTES)


def commitment(seed: int, salt: str) -> str:
    """The commitment to ``seed`` with ``salt``: SHA-256 of ``SALT:SEED``, in hexadecimal."""
    return hashlib.sha256(f"{salt}:{seed}".encode("ascii")).hexdigest()


def check_command(seed: int, salt: str) -> str:
    """A shell command anyone can run to recompute the commitment of ``seed`` and ``salt``
    (``sha256sum`` prints it, then ``-``)."""
    return f"printf '%s' '{salt}:{seed}' | sha256sum"


def reveal(store: Store, tournament_ids: Sequence[int] | None = None,
           now: float | None = None) -> Revealed:
    """Make public the seed and salt of the tournaments ``tournament_ids`` (None: of every
    finished tournament). :class:`RevealRefused` (a usage refusal; nothing is revealed) if one
    of them does not exist or has not finished, or if none has finished."""
    if tournament_ids is None:
        rows = store.tournaments(*FINISHED)
        unfinished = sorted(r["id"] for r in store.tournaments()
                            if r["status"] not in FINISHED)
        if not rows:
            raise RevealRefused("no tournament has finished yet: there is nothing to reveal",
                                usage=True)
    else:
        rows, unfinished = [], []
        for tournament_id in dict.fromkeys(tournament_ids):
            row = store.tournament(tournament_id)
            if row is None:
                raise RevealRefused(f"there is no tournament {tournament_id}", usage=True)
            if row["status"] not in FINISHED:
                raise RevealRefused(
                    f"tournament {tournament_id} is {row['status']}: only a finished"
                    " tournament (done or failed) is revealed, since its seed tells the cards"
                    " of every hand still to play; nothing was revealed", usage=True)
            rows.append(row)
    store.reveal([r["id"] for r in rows], time.time() if now is None else now)
    return Revealed([store.tournament(r["id"]) for r in rows], unfinished)

"""A real ``pokerbots serve`` with teams, as the upload tests use it: :func:`served_site`
starts one and yields a :class:`Site` that sends requests and uploads and reads the store."""

from __future__ import annotations

import http.client
import json
import os
import sqlite3
import stat
import time
from pathlib import Path

from pokerbots.server.service.data.store import open_store
from pokerbots.server.service.data.teams import add_team

from service_site import Served
from waiting import wait_for

#: Uploads a team may make quickly here; archives above 256 KiB are refused.
MAX_UPLOAD = 256 << 10
INTERVAL = 3.0
OPTIONS = ("--hands", "40", "--every", "1h", "--upload-interval", f"{INTERVAL:g}s",
           "--max-upload", "256K")
#: The same, with a short interval: a site where refusals follow each other.
QUICK = 0.05
QUICK_OPTIONS = (*OPTIONS[:4], "--upload-interval", f"{QUICK:g}s", *OPTIONS[6:])


class Site:
    def __init__(self, served: Served, data: Path, tokens: dict[str, str], work: Path) -> None:
        self.served = served
        self.data = data
        self.tokens = tokens
        self.work = work
        #: When each team's last upload was answered (time.monotonic()).
        self.uploaded: dict[str, float] = {}

    def request(self, method: str, path: str, body: bytes | None = None, *,
                token: str | None = None, headers: dict | None = None,
                chunked: bool = False) -> tuple[int, dict, dict]:
        """``(status, headers, JSON document)`` of one request."""
        connection = http.client.HTTPConnection("127.0.0.1", self.served.port, timeout=60)
        sent = dict(headers or {})
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        try:
            try:
                if chunked:
                    blocks = (body[i:i + 8192] for i in range(0, len(body), 8192))
                    connection.request(method, path, body=blocks, headers=sent,
                                       encode_chunked=True)
                else:
                    connection.request(method, path, body=body, headers=sent)
            except (BrokenPipeError, ConnectionResetError):
                pass  # answered before the whole body was read: read the answer
            answer = connection.getresponse()
            raw = answer.read()
            found = {k.lower(): v for k, v in answer.getheaders()}
        finally:
            connection.close()
        try:
            document = json.loads(raw)
        except ValueError:
            document = {"text": raw.decode("utf-8", "replace")}
        return answer.status, found, document

    def upload(self, body: bytes, team: str = "alpha", **kwargs):
        try:
            return self.request("POST", "/api/submissions", body, token=self.tokens[team],
                                **kwargs)
        finally:
            self.uploaded[team] = time.monotonic()

    def upload_when_allowed(self, body: bytes, team: str = "alpha", **kwargs):
        """:meth:`upload`, again while the answer is the team's 429 (a site with a short
        interval: its last upload, accepted or refused, ended moments ago)."""
        def allowed():
            status, headers, answer = self.upload(body, team, **kwargs)
            if status == 429 and "last upload" in answer.get("error", ""):
                return None
            return status, headers, answer

        return wait_for(f"{team}'s upload allowed", allowed, every=QUICK)

    def after_the_interval(self, team: str, interval: float = INTERVAL) -> None:
        """Wait until the team may upload again: ``interval`` seconds after its last upload
        ended (``uploaded``), as the service counts them."""
        since = self.uploaded.get(team)
        if since is not None:
            time.sleep(max(0.0, since + interval + 0.05 - time.monotonic()))

    def versions(self) -> list[tuple]:
        db = sqlite3.connect(f"file:{self.data / 'service.sqlite'}?mode=ro", uri=True)
        try:
            return db.execute("SELECT id, name, status FROM versions ORDER BY id").fetchall()
        finally:
            db.close()

    def present(self, bot: str) -> int | None:
        """Whether the bot may play (the store's ``bots.present``)."""
        db = sqlite3.connect(f"file:{self.data / 'service.sqlite'}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT present FROM bots WHERE name = ?", (bot,)).fetchone()
        finally:
            db.close()
        return None if row is None else row[0]

    def tree(self) -> dict[str, tuple]:
        """Every file and folder of the data folder but the store's own files."""
        found = {}
        for root, dirs, files in os.walk(self.data):
            for name in dirs + files:
                path = Path(root, name)
                rel = str(path.relative_to(self.data))
                if rel.startswith(("service.sqlite", "service.lock")):
                    continue
                info = path.lstat()
                found[rel] = (stat.S_IFMT(info.st_mode), info.st_size, info.st_mtime_ns)
        return found


def served_site(work: Path, options, teams=("alpha", "beta", "boss")):
    """A service of the submissions folder ``work/submissions`` (made if missing), with
    ``teams`` (``boss`` an organiser), as a :class:`Site`; stopped (exit 0) on exit."""
    (work / "submissions").mkdir(exist_ok=True)
    data = work / "data"
    store = open_store(data)  # the library `pokerbots team add` runs (tested below)
    try:
        tokens = {name: add_team(store, name, organiser=name == "boss") for name in teams}
    finally:
        store.close()
    with Served(work / "submissions", data, *options) as served:
        yield Site(served, data, tokens, work)
        assert served.stop() == 0, served.log()

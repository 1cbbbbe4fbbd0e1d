"""The team's side of an upload (``pokerbots submit``): pack a bot folder, send it to a
service, and follow its smoke test.

Standard library HTTP (:mod:`http.client`): one request to upload, one per second to follow.
Every failure is a :class:`SubmitError` whose ``code`` is the command's exit code: 2 the
request itself is refused (a folder without an entry point, a wrong token, an archive the
service will not take), 3 the service cannot be reached or cannot take it now (429, a 5xx,
no verdict within the time given).
"""

from __future__ import annotations

import http.client
import json
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from pokerbots.server.errors import Exit
from pokerbots.server.service.data.submissions import entry_point
from pokerbots.server.service.uploads import archives

#: The statuses a version keeps once its test is over.
FINAL = ("admitted", "quarantined", "rejected", "superseded")
#: Seconds between two looks at a version's status.
POLL = 1.0


class SubmitError(Exception):
    """An upload that did not happen, or whose verdict did not come: ``code`` (an
    :class:`~pokerbots.server.errors.Exit`) and what to do about it."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class Service:
    """A service's address (``http://host:port``, a path prefix allowed) and a team's token."""

    url: str
    token: str
    timeout: float = 60.0

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, dict]:
        """``(status, JSON document)`` of one request; SubmitError (3) when unreachable."""
        address = urljoin(self.url.rstrip("/") + "/", path.lstrip("/"))
        parts = urlsplit(address)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SubmitError(f"{self.url!r} is not a service's address: give"
                              " http://HOST:PORT", Exit.USAGE)
        kind = http.client.HTTPSConnection if parts.scheme == "https" else \
            http.client.HTTPConnection
        connection = kind(parts.hostname, parts.port, timeout=self.timeout)
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/gzip"
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        try:
            try:
                connection.request(method, target, body=body, headers=headers)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the service answered before it read it all (a 413): read the answer
            answer = connection.getresponse()
            raw = answer.read()
        except (OSError, http.client.HTTPException) as exc:
            raise SubmitError(f"cannot reach the service at {self.url}: {exc}",
                              Exit.SERVER) from None
        finally:
            connection.close()
        try:
            document = json.loads(raw)
        except ValueError:
            document = {"error": raw.decode("utf-8", "replace").strip()[:500]}
        return answer.status, document if isinstance(document, dict) else {}

    def absolute(self, path: str) -> str:
        return urljoin(self.url.rstrip("/") + "/", path.lstrip("/"))


def submit(service: Service, folder: Path) -> dict:
    """Pack ``folder`` and upload it; the service's answer (``id``, ``team``, ``version``,
    ``status``, ``reason``, ``url``, the last made absolute)."""
    _, problem = entry_point(folder)
    if problem is not None:
        raise SubmitError(f"{folder}: {problem}", Exit.USAGE)
    status, document = service.request("POST", "/api/submissions", archives.pack(folder))
    if status != 201:
        raise SubmitError(f"the service refused the upload ({status}):"
                          f" {document.get('error', document)}",
                          Exit.SERVER if status == 429 or status >= 500 else Exit.USAGE)
    return {**document, "url": service.absolute(document["url"])}


def wait(service: Service, uploaded: dict, timeout: float, on_change=None) -> dict:
    """Poll the version's status until its test is over; its last document. SubmitError (3)
    after ``timeout`` seconds. ``on_change(document)`` is called when the status changes."""
    deadline = time.monotonic() + timeout
    document, seen = uploaded, uploaded["status"]
    while document["status"] not in FINAL:
        if time.monotonic() > deadline:
            raise SubmitError(f"no verdict within {timeout:g} s (the version is still"
                              f" {document['status']}): see {uploaded['url']}", Exit.SERVER)
        time.sleep(POLL)
        status, document = service.request("GET", uploaded["url"])
        if status != 200:
            raise SubmitError(f"the service answered {status} for {uploaded['url']}:"
                              f" {document.get('error', document)}", Exit.SERVER)
        if document["status"] != seen and on_change is not None:
            on_change(document)
        seen = document["status"]
    return document

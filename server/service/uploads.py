"""A team's bot, uploaded: ``POST /api/submissions`` and ``GET /api/submissions/ID``.

``POST /api/submissions`` with the team's token (``Authorization: Bearer TOKEN``, or the login
cookie) and the bot's folder as a ``.tar.gz`` or ``.zip`` body answers ``201`` with
``{"id", "team", "version", "status", "reason", "url"}`` (``url``: the version's status, also
in ``Location``). The upload then goes the way of a bot folder dropped in the submissions
folder (:mod:`.scheduler`): the archive is unpacked into a new folder in ``data/bots``
(:func:`.archives.unpack`), read and moved to its version's place
(:meth:`.Service.place`), and recorded (:meth:`.Service.record`): a new version waits for its
smoke test (``testing``), one without an entry point is ``rejected``, the same files as a
version seen before are that version. Only a whole folder is ever moved into place: an upload
cut short, refused, or a service stopped meanwhile leaves the versions as they were.

Refusals write nothing and say why, as ``{"error": ...}``: no token or a wrong or revoked one
401 (before the body is read); an organiser's token 403 (an organiser has no bot); a body
longer than ``max_upload`` bytes 413 (a ``Content-Length`` above it is refused before
reading, and reading stops as soon as a body passes it), too many entries or too many bytes
unpacked 413; an unsafe entry or a corrupt archive 400, naming the entry; a second upload of
the team less than ``interval`` seconds after its last accepted one, or while one is being
unpacked, 429 with ``Retry-After``. The body is held in memory up to 1 MiB, then in an
unnamed temporary file of the system's (never in the data folder).

A browser's form does the same: a form posted to ``/api/submissions`` as
``multipart/form-data``, with the archive in a file field named ``archive`` (the login
cookie is the token; ``SameSite=Strict`` keeps other sites' pages from sending it); it is
answered with a redirection to the team's page (``/teams/NAME``) instead of the document.

``GET /api/submissions/ID`` (the team's token, or an organiser's) gives the version ``ID``'s
state as the same document plus ``report`` (the failing smoke match's paragraph) and
``tested``: ``pokerbots submit --wait`` polls it.
"""

from __future__ import annotations

import email.policy
import io
import math
import secrets
import shutil
import tempfile
import time
from email.parser import BytesParser

import anyio
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from pokerbots.server.service import archives
from pokerbots.server.service.auth import cross_site, token_of, viewer_of
from pokerbots.server.service.scheduler import BOTS, Service
from pokerbots.server.service.store import reader
from pokerbots.server.service.submissions import Examined

#: ``--max-upload`` and ``--upload-interval``'s defaults: 50 MiB, a minute.
MAX_UPLOAD = 50 << 20
UPLOAD_INTERVAL = 60.0
#: The most entries (files, folders, links) an uploaded archive may have.
MAX_FILES = 10_000
#: Bytes of a body kept in memory before it goes to a temporary file.
_SPOOL = 1 << 20
#: The field of a browser's form (``multipart/form-data``) that holds the archive.
FORM_FIELD = "archive"
#: The prefix of an upload's folder in data/bots until it is whole.
INCOMING = ".upload-"


def _refuse(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _unauthorised(request: Request) -> JSONResponse:
    message = ("this token is not a team's token, or it was revoked" if token_of(request)
               else "this needs a team's token: Authorization: Bearer TOKEN (pokerbots team"
                    " add prints it)")
    return _refuse(401, message, **{"WWW-Authenticate": 'Bearer realm="pokerbots"'})


class Uploads:
    """The upload routes of one service: its scheduler ``service`` records the versions."""

    def __init__(self, service: Service, *, max_upload: int = MAX_UPLOAD,
                 interval: float = UPLOAD_INTERVAL, max_files: int = MAX_FILES,
                 clock=time.monotonic) -> None:
        self.service = service
        self.data = service.settings.data
        self.max_upload = max_upload
        self.interval = interval
        self.max_files = max_files
        self.clock = clock
        #: When each team's last upload was accepted; the teams whose upload is under way.
        self._last: dict[str, float] = {}
        self._busy: set[str] = set()

    def routes(self) -> list[Route]:
        return [Route("/api/submissions", self.upload, methods=["POST"]),
                Route("/api/submissions/{version_id:id}", self.status, methods=["GET"])]

    def clear(self) -> None:
        """Remove what uploads cut short by a crash left in ``data/bots`` (at start-up)."""
        bots = self.data / BOTS
        bots.mkdir(parents=True, exist_ok=True)
        for left in bots.glob(INCOMING + "*"):
            shutil.rmtree(left, ignore_errors=True)

    def _retry_after(self, name: str) -> float:
        """Seconds before the team may upload again (0: now)."""
        if name in self._busy:
            return 1.0
        last = self._last.get(name)
        return 0.0 if last is None else max(0.0, last + self.interval - self.clock())

    async def upload(self, request: Request) -> Response:
        refused = cross_site(request)  # a browser's form from another site's page
        if refused is not None:
            return _refuse(403, refused)
        team = await anyio.to_thread.run_sync(viewer_of, request)
        if team is None:
            return _unauthorised(request)
        if team.organiser:
            return _refuse(403, f"{team.name} is an organiser's token: an organiser has no"
                                " bot; upload with a team's token")
        wait = self._retry_after(team.name)
        if wait > 0:
            seconds = math.ceil(wait)
            return _refuse(429, f"{team.name} uploaded less than {self.interval:g} s ago:"
                                f" try again in {seconds} s", **{"Retry-After": str(seconds)})
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_upload:
            return self._too_long()
        self._busy.add(team.name)
        try:
            with tempfile.SpooledTemporaryFile(max_size=_SPOOL) as body:
                size = 0
                async for chunk in request.stream():
                    size += len(chunk)
                    if size > self.max_upload:
                        return self._too_long()
                    body.write(chunk)
                body.seek(0)
                kind = request.headers.get("content-type", "")
                examined = await anyio.to_thread.run_sync(self._unpack, team.name, body, kind)
            version = self.service.record(examined)
        except archives.ArchiveError as exc:
            return _refuse(exc.status, exc.message)
        except ClientDisconnect:
            return Response(status_code=400)  # nobody reads it
        except OSError as exc:  # the service's own disk (archives.SERVER_ERRNOS)
            self.service.say(f"{team.name}: an upload could not be stored: {exc}")
            return _refuse(500, f"the service cannot store the upload now: {exc.strerror}")
        finally:
            self._busy.discard(team.name)
        self._last[team.name] = self.clock()
        document = _document(version)
        if _is_form(kind):  # a browser: back to the team's page, which shows the version
            return RedirectResponse(f"/teams/{team.name}", status_code=303)
        return JSONResponse(document, status_code=201, headers={"Location": document["url"]})

    def _too_long(self) -> JSONResponse:
        return _refuse(413, f"the archive is longer than this service's --max-upload"
                            f" ({self.max_upload:,} bytes)")

    def _unpack(self, name: str, body, kind: str) -> Examined:
        """Unpack ``body`` (of content type ``kind``) into a new folder of data/bots and place
        it (a worker thread)."""
        if _is_form(kind):
            body = _form_file(body, kind)
        incoming = self.data / BOTS / f"{INCOMING}{secrets.token_hex(6)}"
        archives.unpack(body, incoming, max_files=self.max_files, max_bytes=self.max_upload)
        try:
            return self.service.place(name, incoming)
        finally:
            shutil.rmtree(incoming, ignore_errors=True)  # when it was not moved

    def status(self, request: Request) -> Response:
        version_id = request.path_params["version_id"]
        store = reader(self.data)
        try:
            team = viewer_of(request, store)
            version = store.version(version_id)
        finally:
            store.close()
        if team is None:
            return _unauthorised(request)
        if version is None or not (team.organiser or version["name"] == team.name):
            return _refuse(404, f"{team.name} has no version {version_id}")
        return JSONResponse({**_document(version), "report": version["report"],
                             "tested": version["tested"]})


def _is_form(kind: str) -> bool:
    return kind.split(";", 1)[0].strip().lower() == "multipart/form-data"


def _form_file(body, kind: str) -> io.BytesIO:
    """The archive of a browser's form: its ``archive`` field's file (ArchiveError 400
    without one). The standard library's MIME parser reads the body, which is at most
    ``max_upload`` bytes."""
    head = f"Content-Type: {kind}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1", "replace")
    message = BytesParser(policy=email.policy.HTTP).parsebytes(head + body.read())
    for part in message.iter_parts() if message.is_multipart() else ():
        if part.get_param("name", header="content-disposition") == FORM_FIELD:
            return io.BytesIO(part.get_payload(decode=True) or b"")
    raise archives.ArchiveError(400, f"the form has no file in its {FORM_FIELD!r} field")


def _document(version: dict) -> dict:
    return {"id": version["id"], "team": version["name"], "version": version["label"],
            "status": version["status"], "reason": version["reason"],
            "url": f"/api/submissions/{version['id']}"}


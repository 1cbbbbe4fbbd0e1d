"""A team's bot, uploaded: ``POST /api/submissions`` and ``GET /api/submissions/ID``.

``POST /api/submissions`` with the team's token (``Authorization: Bearer TOKEN``, or the login
cookie) and the bot's folder as a ``.tar.gz`` or ``.zip`` body answers ``201`` with
``{"id", "team", "version", "status", "reason", "url"}`` (``url``: the version's status, also
in ``Location``). The upload then goes the way of a bot folder dropped in the submissions
folder (:mod:`.jobs.scheduler`): the archive is unpacked into a new folder in ``data/bots``
(:func:`.archives.unpack`), read and moved to its version's place
(:meth:`.Service.place`), and recorded (:meth:`.Service.record`): a new version waits for its
smoke test (``testing``), one without an entry point is ``rejected``, the same files as a
version seen before are that version. Only a whole folder is ever moved into place: an upload
cut short, refused, or a service stopped meanwhile leaves the versions as they were.

Refusals write nothing and say why, as ``{"error": ...}`` (at most a few hundred characters:
a long name is shortened, saying so): no token or a wrong or revoked one 401 (before the body
is read), a token that is not checked now because its key or its client address gave wrong
tokens lately (:mod:`.data.teams`) 429 with ``Retry-After``; an organiser's token 403 (an
organiser has no bot); a body longer than ``max_upload`` bytes 413 (a ``Content-Length``
above it is refused before reading, and reading stops as soon as a body passes it), too many
entries or too many bytes unpacked 413; an unsafe entry or a corrupt archive 400, naming the
entry; an upload of the team less than ``interval`` seconds after its last one ended,
accepted or refused (so that refusals cannot be sent back to back either), or while one is
being unpacked, 429 with ``Retry-After``. The body is held in memory up to 1 MiB, then in an
unnamed temporary file of the system's (never in the data folder).

A browser's form does the same: a form posted to ``/api/submissions`` as
``multipart/form-data``, with the archive in a file field named ``archive`` (the login
cookie is the token; ``SameSite=Strict`` keeps other sites' pages from sending it); it is
answered with a redirection to the team's page (``/teams/NAME``) instead of the document.
The form is read by one scan for its boundaries (:func:`_form_file`): at most
:data:`MAX_PARTS` parts, each with at most :data:`MAX_PART_HEAD` bytes of headers.

``GET /api/submissions/ID`` (the team's token, or an organiser's) gives the version ``ID``'s
state as the same document plus ``report`` (the failing smoke match's paragraph) and
``tested``: ``pokerbots submit --wait`` polls it.
"""

from __future__ import annotations

import io
import math
import secrets
import shutil
import tempfile
import time
from email.message import Message

import anyio
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from pokerbots.server.service.data.store import reader
from pokerbots.server.service.data.submissions import Examined
from pokerbots.server.service.data.teams import Unchecked
from pokerbots.server.service.jobs.scheduler import BOTS, Service
from pokerbots.server.service.site.auth import checked_viewer, cross_site, token_of
from pokerbots.server.service.uploads import archives

#: ``--max-upload`` and ``--upload-interval``'s defaults: 50 MiB, a minute.
MAX_UPLOAD = 50 << 20
UPLOAD_INTERVAL = 60.0
#: The most entries (files, folders, links) an uploaded archive may have.
MAX_FILES = 10_000
#: Bytes of a body kept in memory before it goes to a temporary file.
_SPOOL = 1 << 20
#: The field of a browser's form (``multipart/form-data``) that holds the archive.
FORM_FIELD = "archive"
#: The most parts of a browser's form, and bytes of headers of one part.
MAX_PARTS = 16
MAX_PART_HEAD = 8192
#: The prefix of an upload's folder in data/bots until it is whole.
INCOMING = ".upload-"
#: The longest message of a refusal.
_MESSAGE = 400


def _refuse(status: int, message: str, **headers: str) -> JSONResponse:
    if len(message) > _MESSAGE:
        message = message[:_MESSAGE - 40] + f"... ({len(message):,} characters, shortened)"
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _unchecked(found: Unchecked) -> JSONResponse:
    seconds = max(1, math.ceil(found.retry_after))
    return _refuse(429, f"this token cannot be checked now: its key or this address gave"
                        f" wrong tokens moments ago; try again in {seconds} s",
                   **{"Retry-After": str(seconds)})


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
        #: When each team's last upload ended (accepted or refused); the teams whose upload
        #: is under way.
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
        team = await anyio.to_thread.run_sync(checked_viewer, request)
        if isinstance(team, Unchecked):
            return _unchecked(team)
        if team is None:
            return _unauthorised(request)
        if team.organiser:
            return _refuse(403, f"{team.name} is an organiser's token: an organiser has no"
                                " bot; upload with a team's token")
        wait = self._retry_after(team.name)
        if wait > 0:
            seconds = math.ceil(wait)
            return _refuse(429, f"{team.name}'s last upload (accepted or refused) was less than"
                                f" {self.interval:g} s ago: try again in {seconds} s",
                           **{"Retry-After": str(seconds)})
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_upload:
            self._last[team.name] = self.clock()  # a refusal counts
            return self._too_long()
        self._busy.add(team.name)
        counted = True  # everything but the service's own failure starts the interval
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
            counted = False
            self.service.say(f"{team.name}: an upload could not be stored: {exc}")
            return _refuse(500, f"the service cannot store the upload now: {exc.strerror}")
        finally:
            self._busy.discard(team.name)
            if counted:
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
            team = checked_viewer(request, store)
            version = store.version(version_id)
        finally:
            store.close()
        if isinstance(team, Unchecked):
            return _unchecked(team)
        if team is None:
            return _unauthorised(request)
        if version is None or not (team.organiser or version["name"] == team.name):
            return _refuse(404, f"{team.name} has no version {version_id}")
        return JSONResponse({**_document(version), "report": version["report"],
                             "tested": version["tested"]})


def _is_form(kind: str) -> bool:
    return kind.split(";", 1)[0].strip().lower() == "multipart/form-data"


def _form_file(body, kind: str) -> io.BytesIO:
    """The archive of a browser's form: its ``archive`` field's file. One scan for the
    boundaries (linear in the body's length): ArchiveError 413 past :data:`MAX_PARTS` parts,
    400 for a part whose headers are longer than :data:`MAX_PART_HEAD` bytes, a form that
    is cut short, or one without the field."""
    boundary = _param(f"Content-Type: {kind}", "content-type", "boundary")
    if not boundary or len(boundary) > 200:
        raise archives.ArchiveError(400, "the form's content type gives no boundary (or one"
                                         " of more than 200 characters)")
    data = body.read()
    delimiter = b"--" + boundary.encode("latin-1", "replace")
    at = data.find(delimiter)
    parts = 0
    while at >= 0:
        at += len(delimiter)
        if data.startswith(b"--", at):
            break  # the closing delimiter
        line = data.find(b"\r\n", at, at + 256)  # after the delimiter: padding, then CRLF
        if line < 0:
            break
        parts += 1
        if parts > MAX_PARTS:
            raise archives.ArchiveError(413, f"the form has more than {MAX_PARTS} parts: send"
                                             f" the archive in its {FORM_FIELD!r} field")
        head_end = data.find(b"\r\n\r\n", line, line + 4 + MAX_PART_HEAD)
        if head_end < 0:
            raise archives.ArchiveError(400, f"a part of the form has more than"
                                             f" {MAX_PART_HEAD:,} bytes of headers, or no end")
        start = head_end + 4
        end = data.find(b"\r\n" + delimiter, start)
        if end < 0:
            raise archives.ArchiveError(400, "the form is cut short: a part has no boundary"
                                             " after it")
        head = data[line + 2:head_end].decode("latin-1")
        if _param(head, "content-disposition", "name") == FORM_FIELD:
            return io.BytesIO(data[start:end])
        at = end + 2
    raise archives.ArchiveError(400, f"the form has no file in its {FORM_FIELD!r} field")


def _param(head: str, header: str, name: str) -> str | None:
    """The parameter ``name`` of the header ``header`` in the header lines ``head``."""
    message = Message()
    for line in head.split("\r\n"):
        field, colon, value = line.partition(":")
        if colon and field.strip().lower() == header:
            message[header] = value.strip()
            found = message.get_param(name, header=header)
            return found if isinstance(found, str) else None
    return None


def _document(version: dict) -> dict:
    return {"id": version["id"], "team": version["name"], "version": version["label"],
            "status": version["status"], "reason": version["reason"],
            "url": f"/api/submissions/{version['id']}"}


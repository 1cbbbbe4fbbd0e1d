"""The site's own kinds of response: the headers every answer carries, a page kept in memory
and served again, and a log file served as it was when it was opened."""

from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO

import anyio
from starlette.responses import Response

HEADERS = [
    (b"content-security-policy",
     b"default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; base-uri 'none';"
     b" form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    # same-origin, not no-referrer: under no-referrer a browser sends "Origin: null" with the
    # site's own forms, which the cross-site check must refuse (no login would ever work).
    (b"referrer-policy", b"same-origin"),
]
#: The type of a log file served as text.
TEXT = "text/plain; charset=utf-8"


class SecurityHeaders:
    """ASGI middleware: :data:`HEADERS` on every response."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class KeptPage:
    """A page as it was rendered: status, headers and body."""

    __slots__ = ("status", "headers", "body")

    def __init__(self, response: Response) -> None:
        self.status = response.status_code
        self.headers = tuple(response.raw_headers)
        self.body = bytes(response.body)

    def response(self) -> Response:
        return _KeptResponse(self)


class _KeptResponse(Response):
    def __init__(self, page: KeptPage) -> None:
        self.status_code = page.status
        self.raw_headers = list(page.headers)
        self.body = page.body
        self.background = None


class Snapshot(Response):
    """The file at ``path`` as it was when it was opened (here): ``Content-Length`` its size
    then, and exactly that many bytes sent, however much a match appends meanwhile. OSError
    if it cannot be opened; it is closed once sent."""

    chunk_size = 64 * 1024

    def __init__(self, path: Path, media_type: str) -> None:
        self.path = path
        self.file: BinaryIO = open(path, "rb")
        try:
            self.size = os.fstat(self.file.fileno()).st_size
        except OSError:
            self.file.close()
            raise
        super().__init__(None, headers={"content-length": str(self.size)},
                         media_type=media_type)

    async def __call__(self, scope, receive, send) -> None:
        try:
            await send({"type": "http.response.start", "status": self.status_code,
                        "headers": self.raw_headers})
            if scope.get("method") == "HEAD" or not self.size:
                await send({"type": "http.response.body", "body": b""})
                return
            async with anyio.create_task_group() as group:

                async def stream() -> None:
                    left = self.size
                    while left:
                        chunk = await anyio.to_thread.run_sync(
                            self.file.read, min(self.chunk_size, left))
                        if not chunk:  # cut short: the length sent cannot be kept
                            raise OSError(f"{self.path} shrank while it was sent")
                        left -= len(chunk)
                        await send({"type": "http.response.body", "body": chunk,
                                    "more_body": left > 0})
                    group.cancel_scope.cancel()

                group.start_soon(stream)
                while (await receive())["type"] != "http.disconnect":
                    pass
                group.cancel_scope.cancel()
        finally:
            self.file.close()

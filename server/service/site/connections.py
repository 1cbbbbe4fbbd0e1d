"""The site's connections: each one timed, and never more of them than the process can hold.

hypercorn speaks HTTP on each connection; this module accepts the connections and watches
them, so that nobody can hold the service by opening connections and sending little or
nothing (:func:`serve`, with :class:`Door`, for one listening socket):

* A request's head must arrive whole within ``head_timeout`` seconds of the connection's start,
  or of the end of the previous answer on it (a connection kept alive).
* Its body must arrive whole within ``body_timeout`` seconds of the head's: the time runs from
  when the application starts handling the request until it has read the body. There is no
  deadline while the application computes its answer (the body read, or none to read); each
  block of the answer must be taken by the client within ``body_timeout`` seconds.
* At most ``max_connections`` are open (and never more than the open-file limit leaves room
  for: :func:`connection_cap`). At the cap a new connection closes the one that has waited
  longest for its client (for a head first, else for a body), so that a fresh request is
  still answered; when every open connection is being answered, the new one is closed.

A connection past a deadline is closed (a body's with a ``408`` answer first): the read
raises :class:`trio.TooSlowError`, which hypercorn takes as the end of the stream. The
deadlines are on the connection as a whole, not on each read: a client that sends a byte every
few seconds gains nothing. An idle connection kept alive, or one that never sent a byte, is
closed silently; everything else (deadlines, connections closed at the cap, clients gone
mid-request, the process out of open files) is one line of the service's output for the first
in a quiet minute, then one line a minute that counts them.

The application learns nothing of this; the connection learns the request's phase from
:class:`ConnectionApp`, the outermost layer of the application, one per connection (before
any proxy header rewrites the request's client).

:func:`serve` is hypercorn's own trio worker (``hypercorn.trio.run.worker_serve``) cut down
to one plain-HTTP socket, with this accept loop instead of ``trio.serve_listeners``; it uses
hypercorn's ``TCPServer``, ``Lifespan`` and ``WorkerContext`` as that worker does, which is
why pyproject.toml pins hypercorn's minor version.
"""

from __future__ import annotations

import math
import resource
import socket
import sys
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from itertools import count

import trio
from hypercorn.config import Config
from hypercorn.trio.lifespan import Lifespan
from hypercorn.trio.tcp_server import TCPServer
from hypercorn.trio.worker_context import WorkerContext
from hypercorn.typing import ConnectionState
from hypercorn.utils import ShutdownError, raise_shutdown, wrap_app
from starlette.requests import ClientDisconnect

from pokerbots.server.service.jobs.scheduler import SHORT_OF

if sys.version_info < (3, 11):
    from exceptiongroup import BaseExceptionGroup

#: ``--head-timeout``, ``--body-timeout`` and ``--max-connections``'s defaults.
HEAD_TIMEOUT = 10.0
BODY_TIMEOUT = 120.0
MAX_CONNECTIONS = 1000
#: Open files kept for the rest of the service, beyond the connections: at least this many,
#: and at least a quarter of the open-file limit (the store, each page's reading of it and of
#: a tournament's, files sent, the scheduler's processes and logs).
RESERVE = 64
#: Seconds between two lines that count what the site closed.
REPORT_EVERY = 60.0
#: Seconds an accept waits when the process is out of files and no connection can be closed.
_ACCEPT_PAUSE = 0.1

# What a note counts (:meth:`Door.note`).
HEAD, BODY, SEND, EVICTED, REFUSED, GONE, NO_FILES = (
    "head", "body", "send", "evicted", "refused", "gone", "no-files")


@dataclass(frozen=True)
class Limits:
    """The site's connections, as ``pokerbots serve`` takes them (see its ``--help``)."""

    head_timeout: float = HEAD_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    max_connections: int = MAX_CONNECTIONS


def connection_cap(wanted: int) -> int:
    """``wanted``, lowered to what the process's open-file limit leaves room for once
    :data:`RESERVE` (or a quarter of the limit) is kept for the rest of the service."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - max(RESERVE, soft // 4)))


def has_body(scope: dict) -> bool:
    """Whether the request of ``scope`` has a body to read: a ``Content-Length`` above 0 or a
    ``Transfer-Encoding`` in HTTP/1; over HTTP/2 any request but a GET or HEAD without one."""
    length = None
    for name, value in scope["headers"]:
        if name == b"transfer-encoding":
            return True
        if name == b"content-length":
            length = value
    if length is not None:
        return length.strip() not in (b"0", b"")
    return scope.get("http_version") in ("2", "3") and scope["method"] not in ("GET", "HEAD")


class Connection(trio.abc.HalfCloseableStream):
    """An accepted connection, as hypercorn's ``TCPServer`` uses it: each read under the
    connection's deadline (:meth:`deadline`), each write under ``body_timeout``."""

    def __init__(self, stream: trio.SocketStream, door: Door, address=None) -> None:
        self.stream = stream
        #: The client's address (the TCP peer's).
        self.address = address
        self.socket = stream.socket  # hypercorn reads the addresses from it
        self.door = door
        now = trio.current_time()
        #: When the connection opened, or its last request ended; bytes read since then.
        self._idle_since = now
        self._head_bytes = 0
        #: Requests being handled: when each started, None once its body is read.
        self._requests: dict[int, float | None] = {}
        self._receiving: trio.CancelScope | None = None
        #: Why the service closed the connection (a note's kind), None while it is open.
        self.closed_for: str | None = None
        #: The scope of hypercorn's task for the connection (:meth:`Door._run`).
        self.task: trio.CancelScope | None = None
        self._update()

    # -- what the application tells (ConnectionApp) -------------------------------------------

    def begin(self, key: int, with_body: bool) -> None:
        """A request's head was read: the body deadline runs if it has a body."""
        self._requests[key] = trio.current_time() if with_body else None
        self._head_bytes = 0
        self._update()

    def body_read(self, key: int) -> None:
        if key in self._requests:
            self._requests[key] = None
            self._update()

    def end(self, key: int) -> None:
        """The request was answered: the head deadline runs again if it was the last."""
        self._requests.pop(key, None)
        if not self._requests:
            self._idle_since = trio.current_time()
            self._head_bytes = 0
        self._update()

    # -- the deadlines ----------------------------------------------------------------------

    def _bodies(self) -> list[float]:
        """When each request whose body is still to be read started."""
        return [started for started in self._requests.values() if started is not None]

    def deadline(self) -> float:
        """When the read under way must end (trio's clock): the earliest body's deadline, none
        while requests are being answered, else the next head's."""
        bodies = self._bodies()
        if bodies:
            return min(bodies) + self.door.limits.body_timeout
        if self._requests:
            return math.inf
        return self._idle_since + self.door.limits.head_timeout

    def _update(self) -> None:
        """The state changed: the read under way gets the new deadline, and the door's queue
        of connections waiting for their client (a head, a body) has this one in its place."""
        if self._receiving is not None:
            self._receiving.deadline = self.deadline()
        door = self.door
        if self.closed_for is not None:
            wanted = None
        elif self._bodies():
            wanted = door.waiting_body
        else:
            wanted = None if self._requests else door.waiting_head
        for queue in (door.waiting_head, door.waiting_body):
            if queue is not wanted:
                queue.pop(self, None)
        if wanted is not None and self not in wanted:
            wanted[self] = None  # last: the one waiting longest is first

    # -- the stream hypercorn uses ----------------------------------------------------------

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        with trio.CancelScope(deadline=self.deadline()) as scope:
            self._receiving = scope
            try:
                data = await self.stream.receive_some(max_bytes)
            finally:
                self._receiving = None
            if not self._requests:
                self._head_bytes += len(data)
            return data
        await self._time_out()
        raise trio.TooSlowError

    async def _time_out(self) -> None:
        """The read's deadline passed: note it (unless the connection was merely idle),
        answer 408 to a body that did not arrive, and close the connection."""
        if self._bodies():
            self.door.note(BODY, self)
            text = (f"The request's body did not arrive within {self.door.limits.body_timeout:g}"
                    " s: the connection is closed.\n").encode()
            with trio.move_on_after(1.0):
                try:
                    await self.stream.send_all(
                        b"HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain;"
                        b" charset=utf-8\r\nConnection: close\r\nContent-Length: "
                        + str(len(text)).encode() + b"\r\n\r\n" + text)
                except (trio.BrokenResourceError, trio.ClosedResourceError,
                        trio.BusyResourceError):
                    pass
            self.close_now(BODY)
        else:
            if self._head_bytes:  # an idle connection kept alive is closed silently
                self.door.note(HEAD, self)
            self.close_now(HEAD)

    async def send_all(self, data) -> None:
        if self.closed_for is not None:
            raise trio.BrokenResourceError(f"the connection was closed ({self.closed_for})")
        with trio.move_on_after(self.door.limits.body_timeout) as scope:
            await self.stream.send_all(data)
        if scope.cancelled_caught:
            self.door.note(SEND, self)
            self.close_now(SEND)
            raise trio.BrokenResourceError("the client read nothing for too long")

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def send_eof(self) -> None:
        await self.stream.send_eof()

    def close_now(self, why: str) -> None:
        """Close the connection at once (its file is free when this returns) and end
        hypercorn's task for it (its timers, the request under way if any)."""
        self.closed_for = why
        self.socket.close()
        self.door.forget(self)
        if self.task is not None:
            self.task.cancel()

    async def aclose(self) -> None:
        self.door.forget(self)
        await self.stream.aclose()

    def peer(self) -> str:
        """The client's address, as the service's output shows it."""
        if not isinstance(self.address, tuple) or len(self.address) < 2:
            return "a client"
        host, port = self.address[:2]
        return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"


class ConnectionApp:
    """hypercorn's application for one connection: the site (``app``, already wrapped by
    hypercorn), and the connection told when each request's body has been read and when its
    answer is done. A client gone mid-request is a note, not a traceback."""

    _keys = count()

    def __init__(self, app, connection: Connection) -> None:
        self.app = app
        self.connection = connection

    async def __call__(self, scope, receive, send, sync_spawn, call_soon) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send, sync_spawn, call_soon)
            return
        connection = self.connection
        key = next(self._keys)
        connection.begin(key, has_body(scope))
        body_read = False

        async def receive_and_tell():
            nonlocal body_read
            message = await receive()
            if message["type"] == "http.disconnect":
                if not body_read and connection.closed_for is None:
                    connection.door.note(GONE, connection)
                body_read = True
                connection.body_read(key)
            elif not message.get("more_body", False):
                body_read = True
                connection.body_read(key)
            return message

        try:
            await self.app(scope, receive_and_tell, send, sync_spawn, call_soon)
        except ClientDisconnect:
            pass  # noted above, when the disconnection was received
        except OSError as exc:
            if exc.errno not in SHORT_OF:
                raise
            connection.door.note(NO_FILES, connection)  # the application answered 500
        finally:
            connection.end(key)


class Door:
    """The site's connections: accepted (:meth:`accept_forever`), counted, closed at the cap,
    and what was closed said on the service's output through ``say``."""

    def __init__(self, limits: Limits, say: Callable[[str], None]) -> None:
        self.limits = limits
        self.cap = connection_cap(limits.max_connections)
        self.say = say
        self.open: dict[Connection, None] = {}
        #: The open connections waiting for a request's head, for a body: the one waiting
        #: longest first.
        self.waiting_head: dict[Connection, None] = {}
        self.waiting_body: dict[Connection, None] = {}
        self._counts: Counter[str] = Counter()
        self._quiet = True

    # -- the connections --------------------------------------------------------------------

    async def accept_forever(self, listener: trio.SocketListener,
                             handler: Callable[[Connection], Awaitable[object]],
                             nursery: trio.Nursery) -> None:
        """Accept connections on ``listener`` and run ``handler(connection)`` for each in
        ``nursery``, never more than :attr:`cap` open at once."""
        while True:
            try:
                accepted = await listener.accept()  # trio skips a peer gone meanwhile
            except OSError as exc:
                if exc.errno not in SHORT_OF:
                    raise
                self.note(NO_FILES)
                if not self._make_room():
                    await trio.sleep(_ACCEPT_PAUSE)
                continue
            try:
                address = accepted.socket.getpeername()
            except OSError:  # gone already
                address = None
            connection = Connection(accepted, self, address)
            self.open[connection] = None
            if len(self.open) > self.cap and not self._make_room(besides=connection):
                self.note(REFUSED, connection)
                connection.close_now(REFUSED)
                continue
            nursery.start_soon(self._run, handler, connection)

    async def _run(self, handler, connection: Connection) -> None:
        try:
            with trio.CancelScope() as connection.task:
                await handler(connection)
        finally:
            await trio.aclose_forcefully(connection)

    def _make_room(self, besides: Connection | None = None) -> bool:
        """Close the connection that has waited longest for its client, for a head rather
        than a body (never ``besides``, the one just accepted); False if every one is being
        answered."""
        for queue in (self.waiting_head, self.waiting_body):
            for oldest in queue:
                if oldest is besides:
                    continue
                self.note(EVICTED, oldest)
                oldest.close_now(EVICTED)
                return True
        return False

    def forget(self, connection: Connection) -> None:
        self.open.pop(connection, None)
        self.waiting_head.pop(connection, None)
        self.waiting_body.pop(connection, None)

    # -- what was closed, said ------------------------------------------------------------------

    def describe(self, kind: str, one: bool = True) -> str:
        """What a note of ``kind`` says of one connection, or (``one`` False) of a number."""
        head, body, cap = self.limits.head_timeout, self.limits.body_timeout, self.cap
        if one:
            return {
                HEAD: f"sent no whole request head within {head:g} s: closed",
                BODY: f"sent no whole body within {body:g} s: answered 408 and closed",
                SEND: f"took no part of its answer for {body:g} s: closed",
                EVICTED: f"had waited longest for its client when a connection came with"
                         f" {cap} open: closed to make room",
                REFUSED: f"came with {cap} connections open, all being answered: closed",
                GONE: "went away before its request's body was read",
                NO_FILES: "met the process out of open files",
            }[kind]
        return {
            HEAD: f"connections closed without a whole request head within {head:g} s",
            BODY: f"connections closed (408) without a whole body within {body:g} s",
            SEND: f"connections closed for taking no answer for {body:g} s",
            EVICTED: f"connections closed to make room at the cap of {cap}",
            REFUSED: f"connections closed at once, all {cap} open being answered",
            GONE: "clients gone before their request's body was read",
            NO_FILES: "accepts or requests that met the process out of open files",
        }[kind]

    def note(self, kind: str, connection: Connection | None = None) -> None:
        """Count one thing that happened to a connection; said at once if it is the first in
        a quiet period, else counted in the next :meth:`report_forever` line."""
        self._counts[kind] += 1
        if self._quiet:
            self._quiet = False
            who = connection.peer() if connection is not None else "a connection"
            self.say(f"site: {who} {self.describe(kind)}; more like it are counted in a line"
                     f" a minute")

    async def report_forever(self) -> None:
        """Every :data:`REPORT_EVERY` seconds, one line that counts what was noted."""
        while True:
            await trio.sleep(REPORT_EVERY)
            if not self._counts:
                self._quiet = True
                continue
            parts = [f"{number} {self.describe(kind, one=False)}"
                     for kind, number in sorted(self._counts.items())]
            self._counts.clear()
            self.say(f"site, last {REPORT_EVERY:g} s: " + "; ".join(parts))


async def serve(app, config: Config, sock: socket.socket, door: Door, *,
                shutdown_trigger: Callable[[], Awaitable[object]],
                task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve the ASGI application ``app`` on the listening socket ``sock`` until
    ``shutdown_trigger()`` returns: hypercorn's trio worker, each connection through
    ``door``. Then, as hypercorn does, requests under way get ``config.graceful_timeout``
    seconds to end."""
    wrapped = wrap_app(app, config.wsgi_max_body_size, "asgi")
    lifespan = Lifespan(wrapped, config, {})
    context = WorkerContext(None)
    state = ConnectionState({})

    async def handler(connection: Connection) -> None:
        await TCPServer(ConnectionApp(wrapped, connection), config, context, state, connection)

    async with trio.open_nursery() as lifespan_nursery:
        await lifespan_nursery.start(lifespan.handle_lifespan)
        await lifespan.wait_for_startup()
        async with trio.open_nursery() as server_nursery:
            listener = trio.SocketListener(trio.socket.from_stdlib_socket(sock))
            task_status.started()
            try:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(raise_shutdown, shutdown_trigger)
                    nursery.start_soon(door.accept_forever, listener, handler, server_nursery)
                    nursery.start_soon(door.report_forever)
            except BaseExceptionGroup as error:
                _, other_errors = error.split((ShutdownError, KeyboardInterrupt))
                if other_errors is not None:
                    raise other_errors from None
            finally:
                listener.socket.close()
                await context.terminated.set()
                server_nursery.cancel_scope.deadline = (trio.current_time()
                                                        + config.graceful_timeout)
        await lifespan.wait_for_shutdown()
        lifespan_nursery.cancel_scope.cancel()

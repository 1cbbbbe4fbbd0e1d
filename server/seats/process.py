"""One bot process and the server's ends of its pipes: start it, write, read lines, end it.

Each bot gets raw pipes in non-blocking mode. The server writes with ``os.write`` and reads
with ``os.read``, and awaits (trio) only when a pipe would block: no stream objects, no task
per line. stderr is drained all the time into a size-capped file by :class:`StderrDrain`.

Nothing here knows the protocol or the clock: a failure is raised as :class:`PipeClosed` (the
bot's end is gone) or :class:`TimedOut` (a deadline passed), and the table that uses this
(:mod:`.runner`) says what it means.
"""

from __future__ import annotations

import io
import os
import select
import signal
import subprocess
from pathlib import Path
from typing import Final

import trio

from pokerbots.server.confine import sandbox
from pokerbots.server.confine.limits import ResourceLimits
from pokerbots.server.errors import ServerFault
from pokerbots.server.seats.bots import BotSpec

#: os.write, bound once (compiled code looks a module's attribute up at every call).
_write: Final = os.write

#: A reply longer than this is refused rather than buffered without end.
MAX_LINE: Final = 4096


class PipeClosed(Exception):
    """The bot closed its end of a pipe: its input (``writing``: the server's write failed) or
    its output (it exited, or closed its stdout)."""

    def __init__(self, writing: bool = False) -> None:
        self.writing = writing

    @property
    def what(self) -> str:
        """What the bot did, for a bot that is still running."""
        if self.writing:
            return ("it closed its input (stdin) but did not exit, so the server's message"
                    " could not be delivered")
        return "it closed its output (stdout) but did not exit, instead of replying"


class TimedOut(Exception):
    """A deadline passed while writing to (``writing``) or reading from a bot."""

    def __init__(self, writing: bool) -> None:
        self.writing = writing


class LineTooLong(Exception):
    """The bot sent more than :data:`MAX_LINE` bytes in one line; ``line`` is what came and
    ``ended`` whether a newline came at last."""

    def __init__(self, line: bytes, ended: bool) -> None:
        self.line = line
        self.ended = ended


class StartFailed(Exception):
    """The bot's program could not be started; ``str()`` says why."""


async def _ready(wait, fd: int, deadline: float) -> bool:
    """Wait (``trio.lowlevel.wait_readable`` or ``wait_writable``) for ``fd`` until
    ``deadline``; False when the deadline passed first."""
    with trio.move_on_at(deadline):
        await wait(fd)
        return True
    return False


class BotProcess:
    """A started bot: its process, the write end of its stdin and the read end of its stdout."""

    def __init__(self, process, wfd: int, rfd: int, *, wrapped: bool,
                 resources: ResourceLimits, memory=None) -> None:
        self.process = process
        self.pid = process.pid
        self.wfd = wfd
        self.rfd = rfd
        # The hot path reads through this rather than os.read: on a pipe with nothing in it,
        # FileIO.read returns None where os.read raises BlockingIOError, and in compiled code
        # a raise costs a traceback (a Hold'em hand hit it 3% of the server's time).
        self._reader = io.FileIO(rfd, "r", closefd=False)
        # Waiting for a reply without the event loop (see ``readable``).
        self._poller = select.poll()
        self._poller.register(rfd, select.POLLIN)
        #: What was read and is not yet a whole line (or not yet split into lines).
        self.buffer = bytearray()
        # Whole lines that came together in one read, split at once, last first: a bot answers
        # a write of several messages with several lines, and taking each from the buffer in
        # turn (find, copy, shift) cost 7% of a Kuhn hand.
        self._lines: list[bytes] = []
        #: The bot closed its stdout (a read returned end of file).
        self.ended = False
        #: Started under bubblewrap, which reports a signal as exit code 128 + its number.
        self.wrapped = wrapped
        self.resources = resources
        #: The bot's memory cgroup (a ``cgroup.MemoryGroup``), where there is one: its
        #: out-of-memory kills explain how the bot ended.
        self.memory = memory

    # -- writing ---------------------------------------------------------------------------

    def write_nowait(self, data: bytes) -> bytes:
        """Write what the pipe takes now; return the rest (usually nothing)."""
        try:
            written = _write(self.wfd, data)
        except BlockingIOError:
            return data
        except BrokenPipeError:
            return data  # reported by the read that follows, with the exit status
        return data[written:]

    async def write_rest(self, rest: bytes, deadline: float) -> None:
        """Finish a write the pipe could not take at once, by ``deadline`` (trio time)."""
        view = memoryview(rest)
        while view:
            try:
                view = view[os.write(self.wfd, view):]
            except BlockingIOError:
                if not await _ready(trio.lowlevel.wait_writable, self.wfd, deadline):
                    raise TimedOut(writing=True) from None
            except BrokenPipeError:
                raise PipeClosed(writing=True) from None

    # -- reading ---------------------------------------------------------------------------

    def readable(self, wait_ms: int) -> bool:
        """Whether the bot's output has something to read (or has ended) within ``wait_ms``
        milliseconds: one ``poll`` system call, which sleeps until the bot writes."""
        return bool(self._poller.poll(wait_ms))

    @property
    def pending(self) -> bool:
        """Whether something the bot sent is read and not yet taken."""
        return bool(self._lines) or bool(self.buffer)

    def buffered_line(self) -> bytes | None:
        """The next line if a read already brought it (no system call), else None."""
        lines = self._lines
        if lines:
            return lines.pop()
        buffer = self.buffer
        if not buffer:
            return None
        end = buffer.find(b"\n")
        if end < 0 or end > MAX_LINE:
            return None
        line = bytes(buffer[:end])
        del buffer[: end + 1]
        return line

    def line_nowait(self) -> bytes | None:
        """The next line (without its newline) if it is already here, else None. Never blocks;
        raises :class:`LineTooLong` for a line over :data:`MAX_LINE` bytes."""
        lines = self._lines
        if lines:
            return lines.pop()
        buffer = self.buffer
        end = buffer.find(b"\n") if buffer else -1
        if end < 0:
            if len(buffer) > MAX_LINE:
                raise LineTooLong(bytes(buffer), ended=False)
            chunk: bytes | None = self._reader.read(65536)
            if not chunk:
                if chunk is not None:
                    self.ended = True  # end of file: read_line reports it
                return None
            if not buffer:
                # The usual case: the reply arrives whole, alone or with the other replies to
                # one write, and needs no buffer.
                last = len(chunk) - 1
                if chunk[last] == 10:
                    first = _first_newline(chunk, last)
                    if first == last:
                        if last <= MAX_LINE:
                            return chunk[:last]
                    elif first <= MAX_LINE:
                        parts = chunk[:last].split(b"\n")
                        if max([len(part) for part in parts]) <= MAX_LINE:
                            parts.reverse()
                            line = parts.pop()
                            self._lines = parts
                            return line
            buffer += chunk
            end = buffer.find(b"\n")
            if end < 0:
                if len(buffer) > MAX_LINE:
                    raise LineTooLong(bytes(buffer), ended=False)
                return None
        if end > MAX_LINE:
            raise LineTooLong(bytes(buffer[:end]), ended=True)
        line = bytes(buffer[:end])
        del buffer[: end + 1]
        return line

    async def read_line(self, deadline: float) -> bytes:
        """Wait for the next line (without its newline) until ``deadline`` (trio time)."""
        while True:
            line = self.line_nowait()
            if line is not None:
                return line
            if self.ended:
                raise PipeClosed
            if not await _ready(trio.lowlevel.wait_readable, self.rfd, deadline):
                raise TimedOut(writing=False)

    def next_line_preview(self) -> bytes:
        """What follows the reply already read, up to its newline (at most 200 bytes)."""
        if self._lines:
            return self._lines[-1][:200]
        return bytes(self.buffer.split(b"\n", 1)[0])[:200]

    # -- the end ---------------------------------------------------------------------------

    async def exit_status(self, wait: float) -> int | None:
        """The exit code (negative: the signal), waiting up to ``wait`` s; None if running."""
        with trio.move_on_after(wait):
            await self.process.wait()
        return self.process.returncode

    def exit_text(self, code: int | None) -> str:
        """``it exited with code 1``, ``it was killed by SIGSEGV ...``; '' while running."""
        if code is None:
            return ""
        memory = self.memory
        if memory is not None and memory.oom_kills():
            over = f"more than {memory.mib} MiB of memory (--max-memory)"
            if self.wrapped and code == 128 + signal.SIGKILL or code == -signal.SIGKILL:
                return f"it used {over} and the kernel ended it"
            return (f"{self._exit_text(code)} after the kernel ended a process of it that used"
                    f" {over}")
        return self._exit_text(code)

    def _exit_text(self, code: int) -> str:
        if self.wrapped and code > 128:
            code = -(code - 128)  # bwrap reports a signal as 128 + its number
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"it was killed by {name}" + self.resources.explain_signal(-code)
        return f"it exited with code {code}"

    def close_input(self) -> None:
        """Close the bot's stdin: no message follows (it reads end of file)."""
        close_fds(self.wfd)
        self.wfd = -1

    def kill(self) -> None:
        """End the bot and everything in its process group, now."""
        self._reader.close()  # marks it closed; the descriptor is closed just below
        close_fds(self.wfd, self.rfd)
        self.wfd = self.rfd = -1
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


async def start(spec: BotSpec, *, env: dict, cwd=None, resources: ResourceLimits,
                confinement: sandbox.Confinement | None = None, seat: int = 0,
                stderr_fd: int, extra_fds: tuple[int, ...] = ()) -> BotProcess:
    """Start ``spec`` in a session of its own with its resource limits, confined as
    ``confinement`` says (a PID namespace, the sandbox; None: neither), its stderr going to
    ``stderr_fd`` and ``extra_fds`` open in it too. Raises :class:`StartFailed`."""
    confine = not spec.person  # a person's seat (the terminal) is the server's own helper
    argv = list(spec.argv)
    steps = []
    wrapped = False
    memory = None
    launch = sandbox.Launch(argv)
    if confine and confinement is not None:
        try:
            launch = confinement.command(argv, seat, cwd, memory_mib=resources.memory_mib,
                                         env=env)
        except sandbox.FolderTooLarge as refused:
            raise StartFailed(str(refused)) from None
        except OSError as unlimited:
            raise StartFailed(f"its process or memory limit could not be set up: {unlimited}"
                              ) from None
        argv, env = launch.argv, launch.env or env
        steps.append(launch.preexec)
        wrapped = confinement.wrapped
        memory = confinement.memory.get(seat)
    if confine:
        # Where a cgroup limits the memory, the address space is not limited as well.
        steps.insert(0, resources.preexec(memory=memory is None))
    to_bot_r, to_bot_w = os.pipe()
    from_bot_r, from_bot_w = os.pipe()
    try:
        # Started from this thread, not from a worker thread as trio's open_process does:
        # bubblewrap's --die-with-parent (PR_SET_PDEATHSIG) fires when the *thread* that
        # forked exits, and trio retires idle worker threads after a few seconds.
        process = Child(subprocess.Popen(
            argv, stdin=to_bot_r, stdout=from_bot_w, stderr=stderr_fd,
            start_new_session=True, env=env, cwd=cwd,
            pass_fds=spec.pass_fds + extra_fds + launch.fds,
            preexec_fn=_chain([step for step in steps if step is not None]),
        ))
    except (OSError, subprocess.SubprocessError) as failed:
        for fd in (to_bot_r, to_bot_w, from_bot_r, from_bot_w):
            os.close(fd)
        raise StartFailed(getattr(failed, "strerror", None) or str(failed)) from None
    finally:
        launch.close()
    os.close(to_bot_r)
    os.close(from_bot_w)
    os.set_blocking(to_bot_w, False)
    os.set_blocking(from_bot_r, False)
    return BotProcess(process, to_bot_w, from_bot_r, wrapped=wrapped, resources=resources,
                      memory=memory)


class Child:
    """A started process, awaited without a thread: trio waits on its pidfd (Linux 5.3+; it
    looks every 10 ms where there is none)."""

    def __init__(self, popen: subprocess.Popen) -> None:
        self.popen = popen
        self.pid = popen.pid
        try:
            self._pidfd = os.pidfd_open(popen.pid)
        except (AttributeError, OSError):
            self._pidfd = -1

    @property
    def returncode(self) -> int | None:
        return self.popen.returncode

    def poll(self) -> int | None:
        code = self.popen.poll()
        if code is not None:
            self._close()
        return code

    async def wait(self) -> int:
        while self.poll() is None:
            if self._pidfd >= 0:
                await trio.lowlevel.wait_readable(self._pidfd)
            else:
                await trio.sleep(0.01)
        return self.popen.returncode

    def _close(self) -> None:
        if self._pidfd >= 0:
            trio.lowlevel.notify_closing(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = -1


def _chain(steps):
    """One ``preexec_fn`` doing ``steps`` in order (None when there are none)."""
    if not steps:
        return None
    if len(steps) == 1:
        return steps[0]

    def run() -> None:
        for step in steps:
            step()

    return run


def _first_newline(chunk: bytes, last: int) -> int:
    """Where the first newline of ``chunk`` is, knowing there is one at ``last``: a native
    scan of a short reply, where ``bytes.find`` is a generic method call from compiled
    code."""
    for i in range(last):
        if chunk[i] == 10:
            return i
    return last


class StderrDrain:
    """A bot's stderr: read whenever there is output, kept in ``path`` up to ``cap`` bytes;
    the rest is counted and dropped, and a last line says how much. When the file cannot be
    written (a full disk), the rest is drained and dropped too, so the bot never stalls, and
    :attr:`failure` says why."""

    def __init__(self, path: Path, cap: int) -> None:
        self.read_fd, self.write_fd = os.pipe()
        os.set_blocking(self.read_fd, False)
        self.path = path
        self.cap = cap
        self.file = open(path, "wb", buffering=0)
        self.kept = 0
        self.seen = 0
        #: The log file could not be written: the server's failure, not the bot's.
        self.failure: ServerFault | None = None

    def started(self) -> None:
        """The bot holds the write end now: close ours, so end of file means it is gone."""
        os.close(self.write_fd)
        self.write_fd = -1

    def take(self) -> bool:
        """Move what is in the pipe to the file (up to the cap). False at end of file."""
        while True:
            try:
                chunk = os.read(self.read_fd, 65536)
            except BlockingIOError:
                return True
            except OSError:
                return False
            if not chunk:
                return False
            self.seen += len(chunk)
            room = self.cap - self.kept
            if room > 0 and self.failure is None:
                part = chunk[:room]
                try:
                    self.file.write(part)
                except OSError as exc:
                    self.failure = ServerFault(f"writing {self.path}", exc.strerror or str(exc),
                                               str(self.path))
                    continue
                self.kept += len(part)

    async def run(self) -> None:
        """Runs for the whole round; wakes only when the bot writes to stderr."""
        while self.take():
            await trio.lowlevel.wait_readable(self.read_fd)

    def close(self) -> None:
        if self.read_fd < 0:
            return
        self.take()  # what the killed processes left in the pipe
        close_fds(self.read_fd, self.write_fd)
        self.read_fd = self.write_fd = -1
        dropped = self.seen - self.kept
        try:
            if dropped and self.failure is None:
                self.file.write(
                    f"\n[pokerbots: stderr truncated at {self.kept} bytes;"
                    f" {dropped} more bytes were dropped]\n".encode())
        except OSError:
            pass
        finally:
            self.file.close()


def close_fds(*fds: int) -> None:
    """Close each file descriptor that is open (-1 stands for one already closed)."""
    for fd in fds:
        if fd >= 0:
            try:
                os.close(fd)
            except OSError:
                pass

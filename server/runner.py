"""The thin layer that talks to bot processes (trio), driving the sans-I/O referee.

Each bot gets raw pipes in non-blocking mode. The server writes with ``os.write`` and reads
with ``os.read``, and awaits only when the pipe would block: one wait per reply, no stream
objects, no per-line task. Messages that go to every seat are all written first and the
replies read afterwards, so the bots work on them at the same time; every reply is timed from
the moment its message was written.

Bots are untrusted. Every bot has a reply limit, a start-up limit and a time bank for the
round; its stderr is drained all the time into a size-capped file; it runs in its own process
group with resource limits (and under bubblewrap with ``--sandbox``); and at the end of the
round, on any fault and on Ctrl-C or SIGTERM, every bot and everything it started is killed
and reaped (see :mod:`.reaper`).
"""

from __future__ import annotations

import errno
import math
import os
import secrets
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import trio

from . import reaper, sandbox
from .bots import BotSpec
from .errors import BotFault
from .limits import ResourceLimits
from .referee import Referee

#: A reply longer than this without a newline is refused rather than buffered without end.
MAX_LINE = 4096


@dataclass
class Limits:
    """Time limits (seconds) and how bots are confined."""

    #: From start-up until the reply to ``init_round``.
    startup: float = 10.0
    #: For every other reply.
    reply: float = 5.0
    #: Each bot's time bank for the round (the MIT engine's game clock): the total time it may
    #: spend on its replies after ``init_round``. None: no bank.
    time_bank: float | None = 30.0
    #: Seconds added to every bank at the start of each hand (so long rounds stay playable).
    time_per_hand: float = 0.05
    #: Operating-system limits per bot.
    resources: ResourceLimits = field(default_factory=ResourceLimits)
    #: Run every bot under bubblewrap.
    sandbox: bool = False
    #: Bytes of a bot's stderr kept in its log file; the rest is counted and dropped.
    stderr_cap: int = 1 << 20


class _TimedOut(Exception):
    """Internal: a deadline passed while writing to or reading from a bot."""

    def __init__(self, writing: bool) -> None:
        self.writing = writing


class Seat:
    """One running bot: its process and the server's ends of its pipes."""

    def __init__(self, index: int, spec: BotSpec, process, wfd: int, rfd: int,
                 efd: int | None = None, stderr_path: Path | None = None,
                 limits: Limits | None = None):
        self.index = index
        self.spec = spec
        self.process = process
        self.wfd = wfd
        self.rfd = rfd
        self.buffer = bytearray()
        #: The kind of the last message sent (``play``, ``end_hand``...), for error reports.
        self.kind: str | None = None
        #: Seconds spent waiting for this bot's replies.
        self.time_used = 0.0
        #: The time bank: ``time_used`` may not exceed it (infinite until init_round is done).
        self.budget = math.inf
        self.sent_log = None  # binary file: the exact bytes sent
        self.limits = limits or Limits()
        self.sandboxed = False
        # stderr: the server's end of the pipe, the log file, bytes kept and bytes seen.
        self.efd = efd
        self.stderr_path = stderr_path
        self.stderr_file = open(stderr_path, "wb", buffering=0) if stderr_path else None
        self.stderr_kept = 0
        self.stderr_seen = 0

    def fault(self, reason: str, **kw) -> BotFault:
        fault = BotFault(self.index, reason, bot=self.spec.label, **kw)
        fault.kind = self.kind
        return fault

    def send_nowait(self, data: bytes) -> bytes:
        """Write what the pipe takes now; return the rest (usually nothing)."""
        self.sent_log.write(data)
        try:
            written = os.write(self.wfd, data)
        except BlockingIOError:
            return data
        except BrokenPipeError:
            return data  # reported by the read that follows, with the exit status
        return data[written:]

    async def send_rest(self, rest: bytes, deadline: float, message: bytes) -> None:
        """Finish a write the pipe could not take at once, within the deadline."""
        view = memoryview(rest)
        while view:
            try:
                view = view[os.write(self.wfd, view):]
                continue
            except BlockingIOError:
                pass
            except BrokenPipeError:
                raise await self._ended(message) from None
            with trio.move_on_at(deadline):
                await trio.lowlevel.wait_writable(self.wfd)
                continue
            raise _TimedOut(writing=True)

    def line_nowait(self) -> bytes | None:
        """The reply if it is already here, else None. Never blocks."""
        buffer = self.buffer
        if b"\n" not in buffer:
            try:
                chunk = os.read(self.rfd, 65536)
            except BlockingIOError:
                return None
            if not chunk:
                return None  # end of file: receive() reports it
            buffer += chunk
        end = buffer.find(b"\n")
        if end < 0:
            return None
        line = bytes(buffer[:end])
        del buffer[: end + 1]
        return line

    def check_single(self, line: bytes, message: bytes) -> None:
        """A reply must come alone: anything after it is output nobody asked for."""
        if self.buffer:
            extra = bytes(self.buffer.split(b"\n", 1)[0])[:200]
            raise self.fault(
                "it sent more than one line where one reply was due"
                f" (the next line was {extra.decode('utf-8', 'backslashreplace')!r})",
                sent=message.decode(), received=line,
            )

    async def receive(self, deadline: float, message: bytes) -> bytes:
        """Wait for the reply line (without its newline) until ``deadline``."""
        buffer = self.buffer
        while True:
            line = self.line_nowait()
            if line is not None:
                return line
            if len(buffer) > MAX_LINE:
                raise self.fault(f"it sent a line longer than {MAX_LINE} bytes without a newline",
                                 sent=message.decode(), received=bytes(buffer[:80]) + b"...")
            try:
                chunk = os.read(self.rfd, 65536)
            except BlockingIOError:
                with trio.move_on_at(deadline):
                    await trio.lowlevel.wait_readable(self.rfd)
                    continue
                raise _TimedOut(writing=False) from None
            if not chunk:
                raise await self._ended(message)
            buffer += chunk

    def exit_text(self, code: int | None) -> str:
        if code is None:
            return ""
        if self.sandboxed and code > 128:
            code = -(code - 128)  # bwrap reports a signal as 128 + its number
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"it was killed by {name}" + self.limits.resources.explain_signal(-code)
        return f"it exited with code {code}"

    async def _ended(self, message: bytes) -> BotFault:
        """The bot closed its end: wait a moment for its exit status and say what happened."""
        with trio.move_on_after(1.0):
            await self.process.wait()
        code = self.process.returncode
        how = self.exit_text(code) or "it closed its output but did not exit"
        partial = bytes(self.buffer)
        return self.fault(f"{how} instead of replying", sent=message.decode(),
                          received=partial or None)

    # -- stderr ----------------------------------------------------------------------------

    def take_stderr(self) -> bool:
        """Move what is in the stderr pipe to the file (up to the cap). False at end of file."""
        cap = self.limits.stderr_cap
        while True:
            try:
                chunk = os.read(self.efd, 65536)
            except BlockingIOError:
                return True
            except OSError:
                return False
            if not chunk:
                return False
            self.stderr_seen += len(chunk)
            room = cap - self.stderr_kept
            if room > 0:
                part = chunk[:room]
                self.stderr_file.write(part)
                self.stderr_kept += len(part)

    async def drain_stderr(self) -> None:
        """Runs for the whole round; wakes only when the bot writes to stderr."""
        while self.take_stderr():
            await trio.lowlevel.wait_readable(self.efd)
        # End of file: nothing more will come; stop watching the descriptor.

    def close_stderr(self) -> None:
        if self.efd is None:
            return
        self.take_stderr()  # what the killed processes left in the pipe
        try:
            os.close(self.efd)
        except OSError:
            pass
        self.efd = None
        dropped = self.stderr_seen - self.stderr_kept
        if dropped:
            self.stderr_file.write(
                f"\n[pokerbots: stderr truncated at {self.stderr_kept} bytes;"
                f" {dropped} more bytes were dropped]\n".encode())
        self.stderr_file.close()

    def kill(self) -> None:
        """End the bot and everything in its process group, now."""
        for fd in (self.wfd, self.rfd):
            try:
                os.close(fd)
            except OSError:
                pass
        self.wfd = self.rfd = -1
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


@dataclass
class MatchOutcome:
    hands: int
    bankrolls: list[int]
    fault: BotFault | None = None
    seconds: float = 0.0
    time_used: list[float] = field(default_factory=list)
    #: "SIGINT" or "SIGTERM" when the round was interrupted.
    interrupted: str | None = None


def bot_env(game: str, token: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["POKERBOTS_GAME"] = game
    if token:
        env[reaper.TOKEN_VAR] = token
    # Python bots that forget to flush would otherwise look like bots that never answer.
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


async def start_seat(index: int, spec: BotSpec, stderr_path: Path, env: dict, cwd=None,
                     limits: Limits | None = None, scratch=None, hidden=()) -> Seat:
    limits = limits or Limits()
    confine = not spec.pass_fds  # a person's seat (the terminal) is the server's own helper
    argv = list(spec.argv)
    if confine and limits.sandbox:
        argv = sandbox.wrap(argv, scratch.seat(index), list(hidden), cwd)
    to_bot_r, to_bot_w = os.pipe()
    from_bot_r, from_bot_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        process = await trio.lowlevel.open_process(
            argv, stdin=to_bot_r, stdout=from_bot_w, stderr=err_w,
            start_new_session=True, env=env, cwd=cwd, pass_fds=spec.pass_fds,
            preexec_fn=limits.resources.preexec() if confine else None,
        )
    except (OSError, subprocess_error()) as exc:
        for fd in (to_bot_r, to_bot_w, from_bot_r, from_bot_w, err_r, err_w):
            os.close(fd)
        raise BotFault(index, f"it could not be started: {getattr(exc, 'strerror', None) or exc}",
                       bot=spec.label) from None
    for fd in (to_bot_r, from_bot_w, err_w):
        os.close(fd)
    for fd in (to_bot_w, from_bot_r, err_r):
        os.set_blocking(fd, False)
    seat = Seat(index, spec, process, to_bot_w, from_bot_r, err_r, stderr_path, limits)
    seat.sandboxed = confine and limits.sandbox
    return seat


def subprocess_error():
    import subprocess
    return subprocess.SubprocessError


async def play(referee: Referee, specs: list[BotSpec], log, limits: Limits, *,
               cwd=None) -> MatchOutcome:
    """Start the bots, play the referee's round with them, and always end every bot."""
    token = secrets.token_hex(8)
    env = bot_env(referee.game.name, token)
    seats: list[Seat] = []
    started = time.perf_counter()
    fault = None
    interrupted: list[str] = []
    scratch = sandbox.Scratch() if limits.sandbox else None
    hidden = [log.path] + ([scratch.root] if scratch else [])
    was_subreaper = reaper.set_subreaper(True)
    before = reaper.children_of(os.getpid())
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_watch_signals, nursery.cancel_scope, interrupted)
            try:
                for i, spec in enumerate(specs):
                    seat = await start_seat(i, spec, log.stderr_path(i), env, cwd, limits,
                                            scratch, hidden)
                    seat.sent_log = log.seat_in[i]
                    seats.append(seat)
                    nursery.start_soon(seat.drain_stderr)
                await _drive(referee, seats, limits)
            except BotFault as exc:
                fault = exc
                fault.bot = specs[fault.seat].label
                if fault.hand is None:
                    fault.hand = referee.hand_number
                if fault.legal is None and fault.kind is not None:
                    fault.legal = referee.expected(fault.seat, fault.kind)
            finally:
                nursery.cancel_scope.cancel()
    finally:
        for seat in seats:
            seat.kill()
        reaper.end_strays({s.process.pid for s in seats}, token, before)
        log.flush()
        with trio.CancelScope(shield=True):
            for seat in seats:
                with trio.move_on_after(2.0):
                    await seat.process.wait()
        for seat in seats:
            seat.close_stderr()
        if not was_subreaper:
            reaper.set_subreaper(False)
        if scratch is not None:
            scratch.remove()
    return MatchOutcome(
        hands=referee.hands_played,
        bankrolls=list(referee.bankrolls),
        fault=fault,
        seconds=time.perf_counter() - started,
        time_used=[s.time_used for s in seats],
        interrupted=interrupted[0] if interrupted else None,
    )


async def _watch_signals(scope: trio.CancelScope, interrupted: list[str]) -> None:
    """Ctrl-C or SIGTERM: stop the round; ``play`` then ends the bots and returns."""
    if threading.current_thread() is not threading.main_thread():
        return  # signals reach the main thread only; its owner handles them
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async for signum in signals:
            interrupted.append(signal.Signals(signum).name)
            scope.cancel()
            return


async def _drive(referee: Referee, seats: list[Seat], limits: Limits) -> None:
    exchanges = referee.exchanges()
    send = exchanges.send
    clock = time.perf_counter
    reply_limit = limits.reply
    bank = limits.time_bank
    per_hand = limits.time_per_hand if bank is not None else 0.0
    try:
        target, kind, payload = send(None)
        while True:
            if target is not None:
                # The hot path: one seat, one message. On one CPU the bot usually answers
                # while os.write wakes it, so the reply is read without awaiting at all.
                seat = seats[target]
                limit = seat.spec.reply_limit or reply_limit
                t0 = clock()
                rest = seat.send_nowait(payload)
                line = None if rest else seat.line_nowait()
                if line is None:
                    line = await _wait(seat, rest, payload, kind, t0, limit, t0)
                took = clock() - t0
                used = seat.time_used + took
                seat.time_used = used
                if used > seat.budget:
                    raise _out_of_bank(seat, payload, limits, took)
                if seat.buffer:
                    seat.kind = kind
                    seat.check_single(line, payload)
                target, kind, payload = send(line)
            else:
                if kind == "init_round":
                    limit = limits.startup
                else:
                    limit = reply_limit
                    if kind == "init_hand" and per_hand:
                        for seat in seats:
                            seat.budget += per_hand
                t0 = tprev = clock()
                rests = [seat.send_nowait(m) for seat, m in zip(seats, payload)]
                replies = []
                for seat, message, rest in zip(seats, payload, rests):
                    line = None if rest else seat.line_nowait()
                    if line is None:
                        # A seat with its own limit (a person at the terminal) keeps it here too.
                        line = await _wait(seat, rest, message, kind, t0,
                                           seat.spec.reply_limit or limit, tprev)
                    # Each stretch of waiting is charged to the one seat it waited for.
                    now = clock()
                    used = seat.time_used + (now - tprev)
                    seat.time_used = used
                    if used > seat.budget:
                        raise _out_of_bank(seat, message, limits, now - tprev)
                    tprev = now
                    if seat.buffer:
                        seat.kind = kind
                        seat.check_single(line, message)
                    replies.append(line)
                if kind == "init_round" and bank is not None:
                    for seat in seats:
                        if not seat.spec.reply_limit:
                            seat.budget = seat.time_used + bank
                target, kind, payload = send(replies)
    except StopIteration:
        pass
    # After the goodbye a bot should exit by itself; give it a moment before the kill.
    with trio.move_on_after(1.0):
        for seat in seats:
            await seat.process.wait()


async def _wait(seat: Seat, rest: bytes, message: bytes, kind: str, t0: float,
                limit: float, tstart: float) -> bytes:
    """The slow path: finish the write and wait for the reply, within ``limit`` of ``t0`` and
    within what is left of the seat's time bank (counted from ``tstart``)."""
    seat.kind = kind
    now = time.perf_counter()
    by_limit = limit - (now - t0)
    by_bank = seat.budget - seat.time_used - (now - tstart)
    deadline = trio.current_time() + min(by_limit, by_bank)
    try:
        if rest:
            await seat.send_rest(rest, deadline, message)
        return await seat.receive(deadline, message)
    except _TimedOut as exc:
        waited = time.perf_counter() - t0
        if by_bank < by_limit:
            seat.time_used += time.perf_counter() - tstart
            raise _out_of_bank(seat, message, seat.limits, waited) from None
        raise _late(seat, message, kind, limit, waited, exc.writing) from None


def _late(seat: Seat, message: bytes, kind: str, limit: float, waited: float,
          writing: bool) -> BotFault:
    which = ("start-up limit (--startup-timeout)" if kind == "init_round"
             else "reply limit (--reply-timeout)")
    if writing:
        reason = (f"it stopped reading its input: the {kind} message could not be delivered"
                  f" within the {limit:g} s {which}")
    else:
        got = (f"; it had sent {bytes(seat.buffer[:80])!r} without a newline"
               if seat.buffer else "")
        reason = (f"no reply within the {limit:g} s time limit: it broke the {which},"
                  f" taking more than {waited:.2f} s{got}; if the bot did answer, check that"
                  " it ends the line and flushes its output")
    code = seat.process.poll()
    if code is not None:
        reason += (f" ({seat.exit_text(code)}, but a process it started still holds its"
                   " output open)")
    return seat.fault(reason, sent=message.decode())


def _out_of_bank(seat: Seat, message: bytes, limits: Limits, waited: float) -> BotFault:
    return seat.fault(
        f"it ran out of its time bank (--time-bank {limits.time_bank:g} s per round plus"
        f" --time-per-hand {limits.time_per_hand:g} s per hand): it has used"
        f" {seat.time_used:.2f} s of the {seat.budget:.2f} s it had, {waited:.2f} s of it on"
        " this reply",
        sent=message.decode(),
    )


def stderr_tail(path: Path, lines: int = 10, max_bytes: int = 4096) -> str:
    """The last lines a bot wrote to stderr, for error reports."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - max_bytes))
            data = f.read()
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            return ""
        raise
    return "\n".join(data.decode("utf-8", "backslashreplace").splitlines()[-lines:])

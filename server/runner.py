"""The thin layer that talks to bot processes (trio), driving the sans-I/O referee.

Each bot gets raw pipes in non-blocking mode. The server writes with ``os.write`` and reads
with ``os.read``, and awaits only when the pipe would block: one wait per reply, no stream
objects, no per-line task. Messages that go to every seat are all written first and the
replies read afterwards, so the bots work on them at the same time; every reply is timed from
the moment its message was written.
"""

from __future__ import annotations

import errno
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

import trio

from .bots import BotSpec
from .errors import BotFault
from .referee import Referee

#: A reply longer than this without a newline is refused rather than buffered without end.
MAX_LINE = 4096


@dataclass
class Limits:
    """Time limits, in seconds."""

    #: From start-up until the reply to ``init_round``.
    startup: float = 10.0
    #: For every other reply.
    reply: float = 5.0


class Seat:
    """One running bot: its process and the server's ends of its pipes."""

    def __init__(self, index: int, spec: BotSpec, process, wfd: int, rfd: int):
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
        self.sent_log = None  # binary file: the exact bytes sent

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

    async def send_rest(self, rest: bytes, deadline: float, message: bytes, kind: str) -> None:
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
            raise self.fault(f"it stopped reading its input (the {kind} message could not"
                             " be delivered in time)", sent=message.decode())

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
            extra = bytes(self.buffer.split(b"\n", 1)[0])
            raise self.fault(
                "it sent more than one line where one reply was due"
                f" (the next line was {extra.decode('utf-8', 'backslashreplace')!r})",
                sent=message.decode(), received=line,
            )

    async def receive(self, deadline: float, message: bytes, limit: float) -> bytes:
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
                got = f" (it had sent {bytes(buffer)!r} without a newline)" if buffer else ""
                raise self.fault(
                    f"no reply within the {limit:g} s time limit{got}; if the bot did answer,"
                    " check that it ends the line and flushes its output",
                    sent=message.decode(),
                )
            if not chunk:
                raise await self._ended(message)
            buffer += chunk

    async def _ended(self, message: bytes) -> BotFault:
        """The bot closed its end: wait a moment for its exit status and say what happened."""
        with trio.move_on_after(1.0):
            await self.process.wait()
        code = self.process.returncode
        if code is None:
            how = "it closed its output but did not exit"
        elif code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            how = f"it was killed by {name}"
        else:
            how = f"it exited with code {code}"
        partial = bytes(self.buffer)
        return self.fault(f"{how} instead of replying", sent=message.decode(),
                          received=partial or None)

    def kill(self) -> None:
        """End the bot and everything in its process group, now."""
        for fd in (self.wfd, self.rfd):
            try:
                os.close(fd)
            except OSError:
                pass
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


def bot_env(game: str) -> dict[str, str]:
    env = dict(os.environ)
    env["POKERBOTS_GAME"] = game
    # Python bots that forget to flush would otherwise look like bots that never answer.
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


async def start_seat(index: int, spec: BotSpec, stderr_path: Path, env: dict, cwd=None) -> Seat:
    to_bot_r, to_bot_w = os.pipe()
    from_bot_r, from_bot_w = os.pipe()
    try:
        with open(stderr_path, "wb") as err:
            process = await trio.lowlevel.open_process(
                list(spec.argv), stdin=to_bot_r, stdout=from_bot_w, stderr=err,
                start_new_session=True, env=env, cwd=cwd, pass_fds=spec.pass_fds,
            )
    except OSError as exc:
        for fd in (to_bot_r, to_bot_w, from_bot_r, from_bot_w):
            os.close(fd)
        raise BotFault(index, f"it could not be started: {exc.strerror or exc}",
                       bot=spec.label) from None
    os.close(to_bot_r)
    os.close(from_bot_w)
    os.set_blocking(to_bot_w, False)
    os.set_blocking(from_bot_r, False)
    return Seat(index, spec, process, to_bot_w, from_bot_r)


async def play(referee: Referee, specs: list[BotSpec], log, limits: Limits, *,
               cwd=None) -> MatchOutcome:
    """Start the bots, play the referee's round with them, and always end every bot."""
    env = bot_env(referee.game.name)
    seats: list[Seat] = []
    started = time.perf_counter()
    fault = None
    try:
        for i, spec in enumerate(specs):
            seat = await start_seat(i, spec, log.stderr_path(i), env, cwd)
            seat.sent_log = log.seat_in[i]
            seats.append(seat)
        await _drive(referee, seats, limits)
    except BotFault as exc:
        fault = exc
        fault.bot = specs[fault.seat].label
        if fault.hand is None:
            fault.hand = referee.hand_number
        if fault.legal is None and fault.kind is not None:
            fault.legal = referee.expected(fault.seat, fault.kind)
    finally:
        for seat in seats:
            seat.kill()
        log.flush()
        with trio.CancelScope(shield=True):
            for seat in seats:
                with trio.move_on_after(2.0):
                    await seat.process.wait()
    return MatchOutcome(
        hands=referee.hands_played,
        bankrolls=list(referee.bankrolls),
        fault=fault,
        seconds=time.perf_counter() - started,
        time_used=[s.time_used for s in seats],
    )


async def _drive(referee: Referee, seats: list[Seat], limits: Limits) -> None:
    exchanges = referee.exchanges()
    send = exchanges.send
    clock = time.perf_counter
    reply_limit = limits.reply
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
                    line = await _wait(seat, rest, payload, kind, t0, limit)
                seat.time_used += clock() - t0
                if seat.buffer:
                    seat.kind = kind
                    seat.check_single(line, payload)
                target, kind, payload = send(line)
            else:
                limit = limits.startup if kind == "init_round" else reply_limit
                t0 = clock()
                rests = [seat.send_nowait(m) for seat, m in zip(seats, payload)]
                replies = []
                for seat, message, rest in zip(seats, payload, rests):
                    line = None if rest else seat.line_nowait()
                    if line is None:
                        # A seat with its own limit (a person at the terminal) keeps it here too.
                        line = await _wait(seat, rest, message, kind, t0,
                                           seat.spec.reply_limit or limit)
                    if seat.buffer:
                        seat.kind = kind
                        seat.check_single(line, message)
                    replies.append(line)
                t1 = clock()
                for seat in seats:
                    seat.time_used += t1 - t0
                target, kind, payload = send(replies)
    except StopIteration:
        pass
    # After the goodbye a bot should exit by itself; give it a moment before the kill.
    with trio.move_on_after(1.0):
        for seat in seats:
            await seat.process.wait()


async def _wait(seat: Seat, rest: bytes, message: bytes, kind: str, t0: float,
                limit: float) -> bytes:
    """The slow path: finish the write and wait for the reply, within ``limit`` of ``t0``."""
    seat.kind = kind
    deadline = trio.current_time() + limit - (time.perf_counter() - t0)
    if rest:
        await seat.send_rest(rest, deadline, message, kind)
    return await seat.receive(deadline, message, limit)


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

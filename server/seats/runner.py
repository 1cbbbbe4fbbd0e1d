"""The thin trio layer: bot processes as a table the driver plays a referee on.

:func:`play` starts the bots (:mod:`.process`), plays the referee's round on a
:class:`ProcessTable` with the one driver loop (:mod:`.referee.driver`), and always ends every bot
and everything it started (:mod:`.confine.reaper`), on a fault and on Ctrl-C or SIGTERM too.

The table writes each message to the bot's pipe and its transcript (``seatN.in``), times the
reply on the seat's clock (:mod:`.referee.clock`) and checks that a reply comes alone. It awaits
only when a reply is not there yet: on one CPU the bot usually answers while ``os.write`` wakes it.
Bots are untrusted: each has a reply limit, a start-up limit and a time bank; its stderr is
drained into a size-capped file; it runs in its own process group with resource limits (and
under bubblewrap with ``--sandbox``).
"""

from __future__ import annotations

import hashlib
import math
import os
import secrets
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final, cast

import trio

from pokerbots.protocol.wire import Kind
from pokerbots.server.confine import fairness, reaper, sandbox
from pokerbots.server.errors import BotFault, ServerFault
from pokerbots.server.hands.record import HandRecord, encode, public_view
from pokerbots.server.referee.clock import SeatClock, bank_reason, late_reason
from pokerbots.server.referee.driver import SeatFailure, drive
from pokerbots.server.referee.referee import Exchange, Referee
from pokerbots.server.seats import process
from pokerbots.server.seats.bots import BotSpec
from pokerbots.server.seats.limits import Limits
from pokerbots.server.seats.process import (
    MAX_LINE,
    BotProcess,
    LineTooLong,
    PipeClosed,
    StderrDrain,
    TimedOut,
)

#: How long :meth:`ProcessTable.poll` waits for a reply by itself, in milliseconds, and how
#: many pieces of one reply it reads so, before it leaves the waiting to trio.
_WAIT_MS: Final = 10
_LOOKS: Final = 4
#: Seconds between two turns of trio's loop while the bots answer quickly (see poll).
_TURN: Final = 0.01
#: How many times poll looks again for a reply, yielding the CPU before each look, before it
#: sleeps in poll(). Sleeping at once (one system call fewer when the bot is slow) measured
#: worse on a quiet 2-CPU VM: as each comes 20,000 Kuhn hands took 1.7 times as long (a
#: wake-up across CPUs each reply), and pinned a Kuhn hand made 12 system calls, not 9.
_SPINS: Final = 64
_yield: Final = os.sched_yield
#: The clock of every reply's limit, read twice an exchange: bound once, where
#: ``time.perf_counter`` looked the name up on the module at each reading.
_now: Final = time.perf_counter


@dataclass
class MatchOutcome:
    hands: int
    bankrolls: list[int]
    fault: BotFault | None = None
    seconds: float = 0.0
    time_used: list[float] = field(default_factory=list)
    #: "SIGINT" or "SIGTERM" when the round was interrupted.
    interrupted: str | None = None
    #: The server itself could not go on (a log that cannot be written, a bug): exit code 3.
    failure: ServerFault | None = None
    #: A seat left the table (a person's Ctrl-D): where and when, as the fault it would be.
    left: BotFault | None = None


class ProcessTable:
    """The driver's table (:class:`~.referee.driver.Table`) over bot processes."""

    def __init__(self, bots: list[BotProcess], transcripts: list, clocks: list[SeatClock],
                 limits: Limits) -> None:
        n = len(bots)
        self.bots = bots
        # Each transcript's write, looked up once: a method call from compiled code looks the
        # method up at every message.
        self._record: list[Callable[[bytes], object]] = [t.write for t in transcripts]
        self.clocks = clocks
        self.limits = limits
        self._rest = [b""] * n
        self._kind = Kind.INIT_ROUND
        # A bundle's kinds per seat, else None.
        self._kinds: Sequence[tuple[Kind, ...]] | None = None
        self._read = [0] * n  # lines read from each seat in this exchange
        self._limit = limits.startup  # until init_round is answered; then the reply limit
        self._t0 = [0.0] * n  # when each seat's awaited reply became due
        self._mark = 0.0  # the end of the last stretch of waiting charged to a seat
        self._turn = 0.0  # when trio next gets a turn (see poll)

    def post(self, exchange: Exchange) -> None:
        self._kind = exchange.kind
        seat = exchange.seat
        kinds = self._kinds = exchange.kinds
        if seat is not None:  # one seat: one message (the hot path), or several in one write
            message = exchange.messages[0]
            if kinds is not None:
                message = b"".join(message)
                self._read[seat] = 0
                self._top_up(seat, kinds[seat])
            self._t0[seat] = self._mark = _now()
            self._record[seat](message)
            self._rest[seat] = self.bots[seat].write_nowait(message)
            return
        limits = self.limits
        self._limit = limits.startup if exchange.kind is Kind.INIT_ROUND else limits.reply
        now = self._mark = _now()
        for s, message in enumerate(exchange.messages):
            if kinds is not None:
                message = b"".join(message)
                self._read[s] = 0
                self._top_up(s, kinds[s])
            self._t0[s] = now
            self._record[s](message)
            self._rest[s] = self.bots[s].write_nowait(message)

    def _top_up(self, seat: int, kinds: tuple[Kind, ...]) -> None:
        """Add the bank's allowance for every hand that starts in ``kinds`` to ``seat``'s."""
        limits = self.limits
        if limits.time_bank is not None and limits.time_per_hand:
            for kind in kinds:
                if kind is Kind.INIT_HAND:
                    self.clocks[seat].budget += limits.time_per_hand

    def poll(self, seat: int) -> bytes | None:
        if self._rest[seat]:
            return None
        bot = self.bots[seat]
        line = bot.buffered_line()
        if line is not None:
            return self._got(seat, line)
        if self._mark >= self._turn:
            # Every _TURN seconds the wait goes through trio even when the bot is quick, so
            # that Ctrl-C, the stderr drains and the CPU watch get their turn.
            self._turn = self._mark + _TURN
            return None
        try:
            # Read, and give the CPU away before each new look, up to _SPINS times. On one
            # CPU the reply is usually there at the first look (the bot ran as the write woke
            # it) or after one yield; on several, a bot woken on another CPU answers within
            # tens of microseconds, and sleeping until then costs a wake-up across CPUs, slow
            # on virtual machines.
            line = bot.line_nowait()
            tries = 0
            while line is None and not bot.ended and tries < _SPINS:
                tries += 1
                _yield()
                line = bot.line_nowait()
            looks = 0
            while line is None and not bot.ended and looks < _LOOKS:
                # Sleep in poll() until the bot writes, for at most _WAIT_MS: on one CPU the
                # bot runs at once. Beyond that the reply is late enough for trio's wait
                # (the stderr drains, the CPU watch and Ctrl-C run there).
                looks += 1
                if not bot.readable(_WAIT_MS):
                    return None
                line = bot.line_nowait()
        except LineTooLong as long:
            raise _too_long(seat, long) from None
        if line is None:
            return None
        return self._got(seat, line)

    def _awaited(self, seat: int) -> Kind:
        """The kind of the message whose reply ``seat`` owes."""
        kinds = self._kinds
        return self._kind if kinds is None else kinds[seat][self._read[seat]]

    async def reply(self, seat: int) -> bytes:
        """The slow path: finish the write and wait for the reply, within the seat's limit
        (from the moment the reply became due) and what is left of its bank."""
        await trio.lowlevel.checkpoint()  # Ctrl-C may have come (see poll)
        bot = self.bots[seat]
        clock = self.clocks[seat]
        limit = clock.reply_limit or self._limit
        now = _now()
        t0 = self._t0[seat]
        by_limit = limit - (now - t0)
        by_bank = clock.left() - (now - self._mark)
        deadline = trio.current_time() + min(by_limit, by_bank)
        try:
            rest = self._rest[seat]
            if rest:
                self._rest[seat] = b""
                await bot.write_rest(rest, deadline)
            line = await bot.read_line(deadline)
        except TimedOut as late:
            waited = _now() - t0
            if by_bank < by_limit:
                clock.used += _now() - self._mark
                raise self._out_of_bank(seat, waited) from None
            kind = self._awaited(seat)
            reason = late_reason(kind.value, limit, waited, writing=late.writing,
                                 partial=bytes(bot.buffer), startup=kind is Kind.INIT_ROUND)
            code = bot.process.poll()
            if code is not None:
                reason += (f" ({bot.exit_text(code)}, but a process it started still holds its"
                           " output open)")
            raise SeatFailure(seat, reason) from None
        except PipeClosed as closed:
            how = bot.exit_text(await bot.exit_status(1.0))
            raise SeatFailure(seat, f"{how} instead of replying" if how else closed.what,
                              received=bytes(bot.buffer) or None) from None
        except LineTooLong as long:
            raise _too_long(seat, long) from None
        return self._got(seat, line)

    def _got(self, seat: int, line: bytes) -> bytes:
        now = _now()
        clock = self.clocks[seat]
        waited = now - self._mark
        clock.used += waited
        self._mark = now
        if clock.used > clock.budget:
            raise self._out_of_bank(seat, waited, line)
        kinds = self._kinds
        if kinds is not None:
            read = self._read[seat] = self._read[seat] + 1
            if read < len(kinds[seat]):
                self._t0[seat] = now  # the next reply of the bundle is due from now
                return line
        bot = self.bots[seat]
        if bot.pending:
            extra = bot.next_line_preview().decode("utf-8", "backslashreplace")
            raise SeatFailure(seat, f"it sent an unsolicited line, {extra!r}, with its reply"
                              " where one line was due", received=line)
        return line

    def _out_of_bank(self, seat: int, waited: float, received: bytes | None = None
                     ) -> SeatFailure:
        limits = self.limits
        return SeatFailure(seat, bank_reason(limits.time_bank or 0.0, limits.time_per_hand,
                                             self.clocks[seat], waited), received=received)

    def answered(self, exchange: Exchange) -> None:
        if exchange.kind is Kind.INIT_ROUND and self.limits.time_bank is not None:
            self._limit = self.limits.reply
            for clock in self.clocks:
                if not clock.reply_limit:
                    clock.budget = clock.used + self.limits.time_bank


def _too_long(seat: int, exc: LineTooLong) -> SeatFailure:
    how = "" if exc.ended else " without a newline"
    return SeatFailure(seat, f"it sent a line longer than {MAX_LINE} bytes{how}",
                       received=exc.line)


#: The environment variable naming the descriptor a seat's hand feed arrives on.
HANDS_FD = "POKERBOTS_HANDS_FD"


class HandFeed:
    """Each finished hand's public record, one JSON line, for the seats that ask for it
    (:attr:`BotSpec.hand_feed`): its :func:`~pokerbots.server.hands.record.public_view`, every
    action in order, the board, the cards shown, the pots. Nothing private: no hole card that
    was not shown. Written before the hand's end_hand message goes out, never blocking the
    server (a relay that does not read loses lines)."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.ends: dict[int, int] = {}  # seat -> the write end
        self._read_ends: dict[int, int] = {}

    def open(self, seat: int) -> int:
        """A pipe for ``seat``: returns the read end, for the bot to inherit."""
        read_end, write_end = os.pipe()
        os.set_blocking(write_end, False)
        if not self.ends:
            previous = self.referee.on_hand
            self.referee.on_hand = lambda record: self._hand(record, previous)
        self.ends[seat] = write_end
        self._read_ends[seat] = read_end
        return read_end

    def started(self, seat: int) -> None:
        """The bot holds its read end now (or failed to start): close ours."""
        read_end = self._read_ends.pop(seat, None)
        if read_end is not None:
            os.close(read_end)

    def _hand(self, record: dict, previous) -> None:
        if previous is not None:
            previous(record)
        # A HandRecord, typed as the referee's on_hand passes it: a plain dict.
        line = (encode(public_view(cast(HandRecord, record))) + "\n").encode()
        for write_end in self.ends.values():
            try:
                os.write(write_end, line)
            except OSError:  # full (the relay is not reading) or closed: its loss
                pass

    def close(self) -> None:
        for fd in [*self.ends.values(), *self._read_ends.values()]:
            os.close(fd)
        self.ends.clear()
        self._read_ends.clear()


def bot_env(game: str, token: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["POKERBOTS_GAME"] = game
    if token:
        env[reaper.TOKEN_VAR] = token
    # Python bots that forget to flush would otherwise look like bots that never answer.
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


#: The environment variable that gives each bot a seed of its own for its random numbers
#: (PROTOCOL.md, "Random numbers"): :func:`seat_seed` of the match's seed and its seat.
SEED_VAR = "POKERBOTS_SEED"
#: What the seat seeds are hashed with, so that they are worth nothing anywhere else.
_SEED_DOMAIN = b"POKERBOTS_SEED v1\0"


def seat_seed(match_seed: int, seat: int) -> int:
    """The seed ``seat`` is given (a 64-bit number): the first 8 bytes of the SHA-256 of a
    text of its own, the match's seed and the seat. The same match seed gives every seat the
    same seed again (a match replays); the hash is one-way, so a bot learns nothing of the
    match's seed (which deals the cards) nor of another seat's seed."""
    text = _SEED_DOMAIN + f"{match_seed}\0{seat}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


async def play(referee: Referee, specs: list[BotSpec], log, limits: Limits, *,
               cwd=None, seed: int | None = None) -> MatchOutcome:
    """Start the bots, play the referee's round with them, and always end every bot. With
    ``seed`` (the match's), each bot is given its :func:`seat_seed` in :data:`SEED_VAR`."""
    token = secrets.token_hex(8)
    env = bot_env(referee.game.name, token)
    bots: list[BotProcess] = []
    drains: list[StderrDrain] = []
    started = _now()
    fault = failure = None
    interrupted: list[str] = []
    confinement = sandbox.Confinement(sandbox=limits.sandbox, isolate=limits.isolate,
                                      max_procs=limits.resources.processes,
                                      scratch_mib=limits.resources.scratch_mib,
                                      hidden=[log.path], name=f"pokerbots-{token}")
    was_subreaper = reaper.set_subreaper(True)
    before = reaper.children_of(os.getpid())
    clocks = [SeatClock(spec.reply_limit) for spec in specs]
    watch = None
    feed = HandFeed(referee)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_watch_signals, nursery.cancel_scope, interrupted)
            try:
                for i, spec in enumerate(specs):
                    drain = StderrDrain(log.stderr_path(i), limits.stderr_cap)
                    drains.append(drain)
                    seat_env = env
                    if seed is not None:
                        seat_env = {**env, SEED_VAR: str(seat_seed(seed, i))}
                    extra: tuple[int, ...] = ()
                    if spec.hand_feed:
                        read_end = feed.open(i)
                        seat_env, extra = {**seat_env, HANDS_FD: str(read_end)}, (read_end,)
                    try:
                        bot = await process.start(
                            spec, env=seat_env, cwd=cwd, resources=limits.resources,
                            confinement=confinement, seat=i, stderr_fd=drain.write_fd,
                            extra_fds=extra)
                    except process.StartFailed as unstarted:
                        raise referee.fault(i, Kind.INIT_ROUND,
                                            f"it could not be started: {unstarted}",
                                            legal="") from None
                    finally:
                        feed.started(i)
                    drain.started()
                    bots.append(bot)
                    nursery.start_soon(drain.run)
                watch = fairness.CpuWatch([b.pid for b in bots], clocks, limits.reply)
                nursery.start_soon(watch.run)
                table = ProcessTable(bots, log.seat_in, clocks, limits)
                await drive(referee, table)
                # After the goodbye a bot should exit by itself; give it a moment (and the end
                # of its input, for a bot that waits for it).
                for bot in bots:
                    bot.close_input()
                with trio.move_on_after(1.0):
                    for bot in bots:
                        await bot.process.wait()
            except BotFault as broken:
                fault = fairness.judge(watch, broken, referee)
            except Exception as error:  # the server's own failure, never a bot's: exit code 3
                failure = log.failure(error)
            finally:
                nursery.cancel_scope.cancel()
    finally:
        for bot in bots:
            bot.kill()
        reaper.end_strays({b.pid for b in bots}, token, before)
        try:
            log.flush()
        except ServerFault as unflushed:
            failure = failure or unflushed
        with trio.CancelScope(shield=True):
            for bot in bots:
                with trio.move_on_after(2.0):
                    await bot.process.wait()
        confinement.close()
        feed.close()
        for drain in drains:
            drain.close()
            failure = failure or drain.failure
        if not was_subreaper:
            reaper.set_subreaper(False)
    left = None
    if fault is not None and fault.seat < len(bots) and fault.seat_failure:
        code = specs[fault.seat].leave_code
        if code is not None and bots[fault.seat].process.returncode == code:
            left, fault = fault, None  # a person leaving breaks no rule (a wrong reply does)
    return MatchOutcome(
        hands=referee.hands_played,
        bankrolls=list(referee.bankrolls),
        fault=fault,
        seconds=_now() - started,
        time_used=[c.used if math.isfinite(c.used) else 0.0 for c in clocks[:len(bots)]],
        interrupted=interrupted[0] if interrupted else None,
        failure=failure,
        left=left,
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

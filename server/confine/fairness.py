"""CPU fairness: a bot whose processes use the CPU while it is not its turn is blamed when it
makes another bot run out of time.

The time limits are wall-clock and a match shares one CPU (``--cpu``), so a process that a bot
leaves spinning in the background slows down whichever bot is thinking. The waiting bots are
not stopped (that would cost two system calls per bot and message) and the limits stay
wall-clock; instead the server watches, and judges only when a bot runs out of time:

- every :attr:`CpuWatch.interval` seconds a background task notes, for every bot, the CPU time
  used by all its processes (its PID namespace: the bot and everything it started, found
  through ``/proc/PID/task/TID/children``) and the time they were ready to run but waiting for
  a CPU (``run_delay`` in ``/proc/PID/schedstat``);
- when a bot breaks a time limit, the server looks at the last stretch of time as long as the
  reply limit: if the late bot was kept off the CPU for a tenth of it or more, and another bot
  used a fifth of it or more in CPU time beyond the time it spent on its own turns, that other
  bot is blamed ("it used CPU while waiting", with the figures) and the late bot is not.

A bot that is late on its own (blocked, or thinking too long with the CPU to itself) is blamed
as before. The cost is one look at each bot's processes per interval, none per message (see
docs/untrusted-bots.md for the figures).
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import trio

from pokerbots.protocol.wire import Kind
from pokerbots.server.confine import reaper

_TICK = os.sysconf("SC_CLK_TCK")
#: The beginnings of the reasons a time limit gives (see clock.py).
TIME_FAULTS = ("no reply within", "it ran out of its time bank", "it stopped reading its input")
#: The late bot was kept off the CPU for at least this share of the stretch looked at...
STARVED = 0.1
#: ... and another bot used at least this share of it in CPU time while not its turn.
BUSY = 0.2


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it, through the kernel's lists of children."""
    found = [pid]
    i = 0
    while i < len(found):
        found.extend(reaper.children(found[i]))
        i += 1
    return found


def usage(pid: int) -> tuple[float, float]:
    """(CPU seconds, seconds waiting for a CPU) of ``pid`` and everything below it."""
    cpu = waiting = 0.0
    for p in tree(pid):
        try:
            with open(f"/proc/{p}/stat", "rb") as f:
                stat = f.read()
            with open(f"/proc/{p}/schedstat", "rb") as f:
                sched = f.read().split()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()
        # utime, stime, cutime, cstime: fields 14 to 17 of stat(5), counted after the name.
        cpu += sum(int(v) for v in fields[11:15]) / _TICK
        waiting += int(sched[1]) / 1e9
    return cpu, waiting


@dataclass(frozen=True, slots=True)
class Sample:
    time: float
    cpu: tuple[float, ...]
    waiting: tuple[float, ...]
    turns: tuple[float, ...]  # each seat's clock: time spent on its own replies


class CpuWatch:
    """Notes the bots' CPU use while they play; :meth:`culprit` judges a time fault."""

    def __init__(self, pids: Sequence[int], clocks: Sequence, lookback: float) -> None:
        self.pids = list(pids)
        self.clocks = clocks
        self.lookback = lookback
        self.interval = min(0.5, max(0.05, lookback / 4))
        self.samples: deque[Sample] = deque()

    def sample(self) -> Sample:
        numbers = [usage(pid) for pid in self.pids]
        return Sample(trio.current_time(), tuple(c for c, _ in numbers),
                      tuple(w for _, w in numbers),
                      tuple(clock.used for clock in self.clocks[:len(self.pids)]))

    async def run(self) -> None:
        """Runs for the whole round, one look per interval."""
        keep = self.lookback + 2 * self.interval
        while True:
            try:
                now = self.sample()
            except Exception:  # a watch that cannot look must not end the round: stop looking
                self.samples.clear()
                return
            self.samples.append(now)
            while len(self.samples) > 2 and self.samples[1].time <= now.time - keep:
                self.samples.popleft()
            await trio.sleep(self.interval)

    def culprit(self, late: int) -> tuple[int | None, str] | None:
        """Who is to blame when seat ``late`` broke a time limit: ``(seat, why)`` for another
        seat that kept it off the CPU; ``(None, note)`` when it was kept off the CPU by nothing
        the bots did (the machine is busy); None when it had the CPU it needed."""
        if not self.samples:
            return None
        now = self.sample()
        # The stretch looked at: from the first look inside the last ``lookback`` seconds.
        start = next((s for s in self.samples if s.time >= now.time - self.lookback), None)
        if start is None:
            return None
        span = now.time - start.time
        if span < self.interval:
            return None
        starved = now.waiting[late] - start.waiting[late]
        if starved < STARVED * span:
            return None
        idle = []
        for seat in range(len(self.pids)):
            if seat == late:
                continue
            turns = now.turns[seat] - start.turns[seat]
            turns = turns if math.isfinite(turns) else 0.0
            idle.append((now.cpu[seat] - start.cpu[seat] - max(0.0, turns), seat))
        used, seat = max(idle, default=(0.0, None))
        if seat is None or used < BUSY * span:
            return None, (f"it was kept waiting {starved:.2f} s for the CPU in the last"
                          f" {span:.2f} s by other programs on this machine")
        return seat, (f"it used CPU while waiting: its processes used {used:.2f} s of CPU in"
                      f" the last {span:.2f} s while it was not its turn, and kept seat {late},"
                      f" whose turn it was, waiting {starved:.2f} s for the CPU")


def judge(watch: CpuWatch | None, fault, referee):
    """The fault to report for ``fault``: the fault of the bot that kept the late bot off the
    CPU (see :meth:`CpuWatch.culprit`), else ``fault`` (with a note when the machine was too
    busy for it)."""
    if watch is None or not fault.reason.startswith(TIME_FAULTS):
        return fault
    found = watch.culprit(fault.seat)
    if found is None:
        return fault
    seat, why = found
    if seat is None:
        return dataclasses.replace(fault, reason=f"{fault.reason} (note: {why})")
    return referee.fault(seat, Kind(fault.kind), f"{why}; seat {fault.seat} then failed:"
                         f" {fault.reason}", legal="", hand=fault.hand)

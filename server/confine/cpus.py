"""Choosing the CPU a match runs on (``--cpu auto``).

A match pins itself and its bots to one CPU: they take turns, and waking a process on the same
CPU costs far less than on another (but a match alone on a machine of several CPUs runs on all
of them: :func:`auto_cpu`). Matches started together must not share a CPU while another is
idle, so a match claims its CPU: an exclusive ``flock`` on a slot file in a folder shared by
every pokerbots process of the user. The claim lasts as long as the process (the kernel drops
the lock when it exits, however it exits). Slots spread the load when there are more matches
than CPUs: a CPU's second slot is taken only once every CPU has its first, and so on, so that
five matches on two CPUs run three and two, never four and one. Every process that holds a
claim also holds a shared lock on one presence file: a process is alone when it can turn its
own into an exclusive lock, which no two processes can do at once.

A match alone on a machine of several CPUs does not know which is faster for its bots: one
CPU (each reply wakes a bot where the server runs; quick bots such as the always-call C bots
play twice as fast so) or every CPU (bots that think run beside the server; the bundled Python
bots play 5-10% faster so). It measures instead (:class:`Trial`).
"""

from __future__ import annotations

import fcntl
import os
import tempfile
import time
from pathlib import Path

from pokerbots.server.confine import reaper

_held: dict[int, int] = {}  # cpu -> the open lock file this process holds
_presence: list[int] = []  # the presence file, locked shared while this process holds a claim


def lock_folder() -> Path:
    """Where the CPU claims live: per user, on the local machine."""
    base = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    return Path(base) / f"pokerbots-cpus-{os.getuid()}"


def claim_cpu() -> int:
    """A CPU this process may use, claimed until this process exits: one no other pokerbots
    process has claimed while there is one, else one of those claimed the fewest times."""
    allowed = sorted(os.sched_getaffinity(0))
    for cpu in allowed:
        if cpu in _held:
            return cpu
    folder = lock_folder()
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
    except OSError:
        return allowed[os.getpid() % len(allowed)]
    for slot in range(_SLOTS):
        for cpu in allowed:
            fd = _try_lock(folder / f"cpu{cpu}.{slot}.lock")
            if fd is not None:
                os.set_inheritable(fd, False)  # the bots must not keep the claim alive
                _held[cpu] = fd
                _be_present(folder)
                return cpu
    return allowed[os.getpid() % len(allowed)]


_SLOTS = 64  # claims per CPU counted; beyond that a CPU is picked by process id


def _try_lock(path: Path) -> int | None:
    """An open descriptor holding an exclusive lock on ``path``, or None if another holds it."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def auto_cpu() -> int | Trial:
    """``--cpu auto``: claim a CPU (so that matches started later go elsewhere) and pin the
    match to it, unless it is the only pokerbots match on a machine of several CPUs: then the
    match tries both placements on its first hands and keeps the faster (:class:`Trial`)."""
    cpu = claim_cpu()
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2 or not _alone():
        return cpu
    return Trial(cpu)


class Trial:
    """Which placement is faster for this match's bots, measured on its first hands.

    The match starts on every CPU this process may use. From the end of its first hand (the
    start-up left out) it plays at least :attr:`HANDS` hands and :attr:`SECONDS` seconds so,
    then as long again pinned to :attr:`cpu`, the server and every process below it, and goes
    on in the placement that played more hands a second. :meth:`hand_over` is called as each
    hand ends and says when the placement changes; the caller then changes what depends on it
    (when each seat's messages go out). A match too short to finish the trial stays where the
    trial stands.
    """

    HANDS = 64
    SECONDS = 0.05

    def __init__(self, cpu: int) -> None:
        self.cpu = cpu
        self.allowed = os.sched_getaffinity(0)
        #: Seconds per hand measured spread over every CPU and pinned (None: not yet).
        self.spread: float | None = None
        self.pinned: float | None = None
        self._hand = 0
        self._time = 0.0

    @property
    def on_one_cpu(self) -> bool:
        """Where the match runs now: pinned once the spread hands are timed, and unless the
        pinned ones came out slower."""
        return self.spread is not None and (self.pinned is None or self.pinned <= self.spread)

    def __repr__(self) -> str:
        return f"Trial(cpu={self.cpu})"

    def hand_over(self, hands: int) -> bool | None:
        """``hands`` are played: the new placement (True: pinned to one CPU) when it changes
        now, else None."""
        if self.pinned is not None:
            return None
        now = time.perf_counter()
        if hands == 1:
            self._hand, self._time = hands, now
            return None
        played, took = hands - self._hand, now - self._time
        if not self._hand or played < self.HANDS or took < self.SECONDS:
            return None
        self._hand, self._time = hands, now
        if self.spread is None:
            self.spread = took / played
            place({self.cpu})
            return True
        self.pinned = took / played
        if not self.on_one_cpu:
            place(self.allowed)
            return False
        return None

    def as_dict(self) -> dict:
        """What the trial found, for the match's ``timing.json``."""
        return {
            "cpu": self.cpu if self.on_one_cpu else None,
            "trial_us_per_hand": {
                "spread": None if self.spread is None else round(self.spread * 1e6, 1),
                "pinned": None if self.pinned is None else round(self.pinned * 1e6, 1),
            },
        }


def place(cpus: set[int]) -> None:
    """Run this thread, and every thread of every process below this one, on ``cpus``. A
    process that cannot be moved (gone, or not ours to move) is left where it is: where a bot
    runs changes how fast the match goes, never what it plays."""
    os.sched_setaffinity(0, cpus)
    pids = reaper.children(os.getpid())
    while pids:
        pid = pids.pop()
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                os.sched_setaffinity(int(tid), cpus)
            except (OSError, ValueError):
                pass
        pids.extend(reaper.children(pid))


def _be_present(folder: Path) -> None:
    """Hold the shared lock on the presence file (once per process)."""
    if _presence:
        return
    try:
        fd = os.open(folder / "present.lock", os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return
    os.set_inheritable(fd, False)
    fcntl.flock(fd, fcntl.LOCK_SH)  # waits only while another process checks it is alone
    _presence.append(fd)


def _alone() -> bool:
    """Whether no other pokerbots process holds a claim. Our shared lock becomes exclusive only
    if nobody else holds one (then it goes back to shared); two processes that check together
    cannot both succeed, so at most one of them runs unpinned."""
    if not _presence:
        return False  # no presence file: assume company, and stay pinned
    fd = _presence[0]
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        alone = False
    else:
        alone = True
    fcntl.flock(fd, fcntl.LOCK_SH)
    return alone


def release_cpu(cpu: int) -> None:
    """Give up this process's claim on ``cpu`` (for a process that plays many matches)."""
    fd = _held.pop(cpu, None)
    if fd is not None:
        os.close(fd)
    if not _held and _presence:
        os.close(_presence.pop())

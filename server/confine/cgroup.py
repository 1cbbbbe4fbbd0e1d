"""A ``pids`` cgroup per bot: the kernel refuses the bot's fork beyond ``--max-procs``; and a
``memory`` cgroup per bot (:class:`MemoryGroup`): ``--max-memory`` with no swap, the bot ended
by the kernel beyond it and blamed for it.

Used when the server runs as root, where ``RLIMIT_NPROC`` does not apply (the kernel exempts
root's processes from it, even in a user namespace of their own). The bot's first process
joins its group between ``fork`` and ``exec``, so everything it starts is counted (threads
too, as the kernel counts them). The group also lists every process the bot left behind,
which :meth:`PidsGroup.remove` kills before removing the group. Works with cgroup v2 (the
``pids`` controller enabled at the root of the hierarchy) and with the v1 ``pids`` hierarchy.
"""

from __future__ import annotations

import errno
import functools
import os
import signal
import time
from pathlib import Path

V2_ROOT = Path("/sys/fs/cgroup")
V1_ROOT = Path("/sys/fs/cgroup/pids")


def _writable_root(controller: str, v1: Path, v1_files: tuple[str, ...]) -> Path | None:
    """The folder where this server (as root) may create cgroups of ``controller``: the v2
    root when the controller is enabled there, else the v1 hierarchy ``v1`` (known by one of
    ``v1_files``); None when neither is writable."""
    if os.geteuid() != 0:
        return None
    try:
        if controller in (V2_ROOT / "cgroup.subtree_control").read_text().split():
            return V2_ROOT if os.access(V2_ROOT, os.W_OK) else None
    except OSError:
        pass
    if any((v1 / name).exists() for name in v1_files):
        return v1 if os.access(v1, os.W_OK) else None
    return None


@functools.cache
def root() -> Path | None:
    """The folder where this server may create pids cgroups, or None."""
    return _writable_root("pids", V1_ROOT, ("pids.current", "cgroup.procs"))


def _probe(controller: str, base: Path | None, make) -> str | None:
    """Why cgroups of ``controller`` cannot be used under ``base`` (None: they can), found by
    making one with ``make(name)`` and removing it."""
    if os.geteuid() != 0:
        return f"the server is not root ({controller} cgroups are used only as root)"
    if base is None:
        return f"no writable cgroup hierarchy with the {controller} controller was found"
    try:
        group = make(f"pokerbots-{controller}-probe-{os.getpid()}")
    except OSError as exc:
        return f"a {controller} cgroup cannot be created under {base} ({exc.strerror})"
    group.remove()
    return None


@functools.cache
def problem() -> str | None:
    """Why pids cgroups cannot be used here (None: they can); tried once per process."""
    return _probe("pids", root(), lambda name: PidsGroup.create(name, 64))


class PidsGroup:
    """One bot's pids cgroup."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._procs = str(path / "cgroup.procs")
        # v1 joins through ``tasks`` (see join); v2 has no such file.
        tasks = path / "tasks"
        self._tasks = str(tasks) if tasks.exists() else None

    @classmethod
    def create(cls, name: str, limit: int) -> PidsGroup:
        path = root() / f"{name}-{os.getpid()}"
        path.mkdir(exist_ok=True)
        (path / "pids.max").write_text(str(limit))
        return cls(path)

    def join(self) -> None:
        """Move the calling process into the group (run in the child before ``exec``, where
        it has one thread).

        In v1 the thread moves itself through ``tasks`` ("0": the writer): moving a whole
        process through ``cgroup.procs`` takes the kernel's lock on every thread group, and
        the first taker waits out an RCU grace period, 10-17 ms of an idle CPU at the start
        of every match on a 2-CPU VM; a thread moving itself needs no such lock (0.1 ms).
        A one-thread process that moved its thread has moved, and all it starts follows."""
        if self._tasks is not None:
            fd = os.open(self._tasks, os.O_WRONLY)
            text = b"0"
        else:
            fd = os.open(self._procs, os.O_WRONLY)
            text = str(os.getpid()).encode()
        try:
            os.write(fd, text)
        finally:
            os.close(fd)

    def pids(self) -> list[int]:
        try:
            return [int(p) for p in Path(self._procs).read_text().split()]
        except OSError:
            return []

    def refused(self) -> int:
        """How many forks the limit has refused."""
        try:
            for line in (self.path / "pids.events").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "max":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def remove(self) -> None:
        """Kill every process still in the group, then remove it (waiting a moment for the
        killed ones to leave)."""
        for _ in range(400):
            pids = self.pids()
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError as exc:
                if exc.errno != errno.EBUSY:
                    return
            time.sleep(0.005)


# -- memory ------------------------------------------------------------------------------------

V1_MEMORY = Path("/sys/fs/cgroup/memory")


@functools.cache
def memory_root() -> Path | None:
    """The folder where this server may create memory cgroups (v2: the same as the pids
    groups', with the ``memory`` controller enabled; v1: the ``memory`` hierarchy), or None."""
    return _writable_root("memory", V1_MEMORY, ("memory.limit_in_bytes",))


@functools.cache
def memory_problem() -> str | None:
    """Why memory cgroups cannot be used here (None: they can); tried once per process."""
    return _probe("memory", memory_root(), lambda name: MemoryGroup.create(name, 64))


class MemoryGroup(PidsGroup):
    """One bot's memory cgroup: ``memory.max`` (v1: ``memory.limit_in_bytes``) at the limit
    and no swap, so that a bot over it is ended by the kernel's out-of-memory killer within
    its own group (never another bot or the server), and :meth:`oom_kills` says so."""

    def __init__(self, path: Path, mib: int) -> None:
        super().__init__(path)
        self.mib = mib
        self.v2 = (path / "memory.max").exists()

    @classmethod
    def create(cls, name: str, mib: int) -> MemoryGroup:  # type: ignore[override]
        path = memory_root() / f"{name}-{os.getpid()}"
        path.mkdir(exist_ok=True)
        return cls.limit(path, mib)

    @classmethod
    def limit(cls, path: Path, mib: int) -> MemoryGroup:
        """Limit the memory of the group at ``path`` (v2: a bot's pids group, the one group
        a process may be in)."""
        limit = str(mib << 20)
        if (path / "memory.max").exists():
            (path / "memory.max").write_text(limit)
            swap = path / "memory.swap.max"
            if swap.exists():
                swap.write_text("0")
        else:
            (path / "memory.limit_in_bytes").write_text(limit)
            swap = path / "memory.memsw.limit_in_bytes"  # memory and swap together
            if swap.exists():
                try:
                    swap.write_text(limit)
                except OSError:
                    pass  # swap accounting is off: there is no swap to count
        return cls(path, mib)

    def oom_kills(self) -> int:
        """How many of the group's processes the out-of-memory killer ended."""
        name = "memory.events" if self.v2 else "memory.oom_control"
        try:
            for line in (self.path / name).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

"""Operating-system limits on each bot process: memory, CPU time, open files, file size
(and the number of processes and the size of the scratch folder, which the confinement
enforces: see :mod:`.sandbox`).

They are set in the child between ``fork`` and ``exec`` (``preexec_fn``), so they apply to the
bot and to everything it starts, and never to the server. Zero means "no limit".
"""

from __future__ import annotations

import resource
import signal
from dataclasses import dataclass

MIB = 1 << 20


@dataclass(frozen=True)
class ResourceLimits:
    #: Memory per bot, in MiB: as root, the bot's memory cgroup (``memory.max``, no swap:
    #: :mod:`.cgroup`), where the kernel ends a bot over it and the fault says so; otherwise
    #: its address space (RLIMIT_AS), where an allocation beyond it fails in the bot.
    memory_mib: int = 2048
    #: CPU seconds for the whole round (RLIMIT_CPU); the bot gets SIGXCPU, then SIGKILL.
    cpu_seconds: int = 3600
    #: Open file descriptors (RLIMIT_NOFILE).
    open_files: int = 256
    #: Largest file the bot may write (RLIMIT_FSIZE), in MiB; the bot gets SIGXFSZ beyond it.
    file_size_mib: int = 100
    #: Processes and threads the bot may run at once (``--max-procs``); enforced by the
    #: confinement (:mod:`.sandbox`): a pids cgroup as root, else RLIMIT_NPROC in the bot's
    #: own user namespace. Not an rlimit set here: RLIMIT_NPROC counts every process of the
    #: user, so outside a namespace of its own it would limit the wrong thing.
    processes: int = 64
    #: Size of the scratch folder of a bot under ``--sandbox`` (``--max-scratch``), in MiB:
    #: a tmpfs of its own (:mod:`.sandbox`), where a write beyond it fails with ``ENOSPC``.
    #: Its pages are memory: as root they count against the bot's memory cgroup. 0: the
    #: kernel's default size (half the machine's memory). Not an rlimit set here either.
    scratch_mib: int = 256

    def pairs(self, memory: bool = True) -> list[tuple[int, int]]:
        """(resource, value) for every limit that is set (the memory only if ``memory``: not
        where a cgroup limits it)."""
        wanted = [
            (resource.RLIMIT_AS, self.memory_mib * MIB if memory else 0),
            (resource.RLIMIT_CPU, self.cpu_seconds),
            (resource.RLIMIT_NOFILE, self.open_files),
            (resource.RLIMIT_FSIZE, self.file_size_mib * MIB),
        ]
        return [(res, value) for res, value in wanted if value > 0]

    def preexec(self, memory: bool = True):
        """A function for ``preexec_fn``: applies the limits in the child (the memory only if
        ``memory``)."""
        pairs = self.pairs(memory)
        if not pairs:
            return None

        def apply() -> None:
            for res, value in pairs:
                soft, hard = resource.getrlimit(res)
                if hard != resource.RLIM_INFINITY:
                    value = min(value, hard)
                # CPU: SIGXCPU at the limit (a message), SIGKILL a few seconds later.
                top = value + 5 if res == resource.RLIMIT_CPU else value
                if hard != resource.RLIM_INFINITY:
                    top = min(top, hard)
                resource.setrlimit(res, (value, top))

        return apply

    def explain_signal(self, signum: int) -> str:
        """Why a bot killed by ``signum`` may have been killed, if a limit says so."""
        if signum == signal.SIGXCPU and self.cpu_seconds:
            return f" (it used more than its {self.cpu_seconds} s of CPU time, --max-cpu)"
        if signum == signal.SIGXFSZ and self.file_size_mib:
            return f" (it wrote a file larger than {self.file_size_mib} MiB, --max-file-size)"
        if signum == signal.SIGKILL and self.cpu_seconds:
            return (" (SIGKILL: the CPU-time limit, the kernel's out-of-memory killer or another"
                    " process)")
        return ""

"""Operating-system limits on each bot process: memory, CPU time, open files, file size
(and the number of processes and the size of the scratch folder, which the confinement
enforces: see :mod:`.sandbox`).

They are set in the child between ``fork`` and ``exec`` (``preexec_fn``), so they apply to the
bot and to everything it starts, and never to the server. Zero means "no limit".

Each limit is declared once, on its field: the default is the field's, and its
:class:`Offered` (under :data:`OFFERED` in the field's metadata) says how the command line
offers it (flag, help text, unit). :mod:`pokerbots.server.play.options` reads these
declarations (and those of :class:`~pokerbots.server.seats.limits.Limits`) for the commands,
the tournament and the service.
"""

from __future__ import annotations

import resource
import signal
from dataclasses import dataclass, field

MIB = 1 << 20

#: The key of a limit's :class:`Offered` in its dataclass field's metadata.
OFFERED = "offered"


@dataclass(frozen=True)
class Offered:
    """How a limit is offered as an option of the commands that play (the field it is declared
    on holds its default).

    The option's keyword is ``flag`` without its dashes (``--max-memory``: ``max_memory``). Its
    value is the field's divided by ``per_unit`` (``--stderr-cap`` is in KiB, the field in
    bytes); its type is the default's (int, float, or bool for a flag). ``above_zero``: 0 is
    refused (otherwise 0 means no limit, or as the help says); ``zero_is_none``: the option's 0
    is the field's None.
    """

    flag: str
    help: str
    #: The unit as ``--help`` shows it in place of a value (None: the type's own name).
    metavar: str | None = None
    per_unit: int = 1
    above_zero: bool = False
    zero_is_none: bool = False

    @property
    def name(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")


def offered(flag: str, help: str, **how) -> dict:
    """A limit field's metadata: how the command line offers it (see :class:`Offered`)."""
    return {OFFERED: Offered(flag, help, **how)}


@dataclass(frozen=True)
class ResourceLimits:
    #: Memory per bot, in MiB: as root, the bot's memory cgroup (``memory.max``, no swap:
    #: :mod:`.cgroup`), where the kernel ends a bot over it and the fault says so; otherwise
    #: its address space (RLIMIT_AS), where an allocation beyond it fails in the bot.
    memory_mib: int = field(default=2048, metadata=offered(
        "--max-memory", "Memory per bot, in MiB (a memory cgroup as root, else RLIMIT_AS);"
        " 0: no limit.", metavar="MIB"))
    #: CPU seconds for the whole round (RLIMIT_CPU); the bot gets SIGXCPU, then SIGKILL.
    cpu_seconds: int = field(default=3600, metadata=offered(
        "--max-cpu", "CPU time per bot for the round; 0: no limit.", metavar="SECONDS"))
    #: Open file descriptors (RLIMIT_NOFILE).
    open_files: int = field(default=256, metadata=offered(
        "--max-files", "Open files per bot; 0: no limit."))
    #: Largest file the bot may write (RLIMIT_FSIZE), in MiB; the bot gets SIGXFSZ beyond it.
    file_size_mib: int = field(default=100, metadata=offered(
        "--max-file-size", "Largest file a bot may write, in MiB; 0: no limit.", metavar="MIB"))
    #: Processes and threads the bot may run at once (``--max-procs``); enforced by the
    #: confinement (:mod:`.sandbox`): a pids cgroup as root, else RLIMIT_NPROC in the bot's
    #: own user namespace. Not an rlimit set here: RLIMIT_NPROC counts every process of the
    #: user, so outside a namespace of its own it would limit the wrong thing.
    processes: int = field(default=64, metadata=offered(
        "--max-procs", "Processes and threads per bot, counted for that bot alone;"
        " 0: no limit."))
    #: Size of the scratch folder of a bot under ``--sandbox`` (``--max-scratch``), in MiB:
    #: a tmpfs of its own (:mod:`.sandbox`), where a write beyond it fails with ``ENOSPC``.
    #: Its pages are memory: as root they count against the bot's memory cgroup. 0: the
    #: kernel's default size (half the machine's memory). Not an rlimit set here either.
    scratch_mib: int = field(default=256, metadata=offered(
        "--max-scratch", "Size of each bot's scratch folder under --sandbox (a tmpfs: memory),"
        " in MiB; 0: the kernel's default.", metavar="MIB"))

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

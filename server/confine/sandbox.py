"""How every bot is confined: its own PID namespace by default, the full sandbox with ``--sandbox``.

**By default** every bot runs under bubblewrap (``bwrap``) with ``--unshare-pid`` over the
normal file-system view: it sees and can signal only the processes it started (its ``/proc``
is its own), never the server, the other bots or their children, and when it exits or is
killed the kernel ends everything in its namespace. The process count (``--max-procs``) is
limited by the kernel: as root with a ``pids`` cgroup per bot (:mod:`.cgroup`), otherwise with
``RLIMIT_NPROC`` set inside the bot's own user namespace, where it counts only the bot's own
processes (``prlimit``, from util-linux). Where bubblewrap is missing or cannot make a
namespace, :func:`isolation_problem` says why once per run and bots run as before, in a
process group of their own.

**With --sandbox** the bot also gets a read-only view of the whole file system, a fresh
``/dev``, its own writable scratch folder (``$HOME`` and ``$TMPDIR``, deleted after the round),
no network (only a loopback in its own namespace), its own IPC, UTS and user namespaces, no
capabilities and a new session (no terminal). The match's log folder and the other bots'
scratch folders are hidden. The sandbox does not limit CPU or memory (the resource limits do)
and does not hide files that every user of the machine can read.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from pokerbots.server.confine import cgroup

INSTALL_HINT = "install it (Debian/Ubuntu: apt-get install bubblewrap) or leave out --sandbox"


class SandboxUnavailable(RuntimeError):
    pass


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


def check() -> str:
    """The path of bwrap, or SandboxUnavailable saying how to get it."""
    path = bwrap_path()
    if path is None:
        raise SandboxUnavailable(
            f"--sandbox needs bubblewrap (bwrap), which is not on PATH: {INSTALL_HINT}")
    return path


def _as_root() -> bool:
    return os.geteuid() == 0


def _nproc(max_procs: int) -> list[str]:
    """The command prefix that limits the processes of a bot in its own user namespace (not
    needed as root, where a pids cgroup does it, and where RLIMIT_NPROC would not apply)."""
    if not max_procs or _as_root():
        return []
    return ["prlimit", f"--nproc={max_procs}:{max_procs}", "--"]


def isolate(argv: list[str], cwd: str | None = None, max_procs: int = 0) -> list[str]:
    """The command that runs ``argv`` in a PID namespace of its own, over the normal file
    system, dying with the server."""
    args = [bwrap_path() or "bwrap", "--dev-bind", "/", "/", "--proc", "/proc",
            "--unshare-pid", "--die-with-parent"]
    if not _as_root():
        args.append("--unshare-user")  # the namespace where RLIMIT_NPROC counts this bot only
    args += ["--chdir", os.path.abspath(cwd or os.getcwd())]
    return [*args, "--", *_nproc(max_procs), *argv]


def wrap(argv: list[str], scratch: Path, hidden: list[Path], cwd: str | None = None,
         max_procs: int = 0) -> list[str]:
    """The command that runs ``argv`` in the sandbox, ``scratch`` its only writable place."""
    bwrap = check()
    cwd = os.path.abspath(cwd or os.getcwd())
    args = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for path in hidden:
        args += ["--tmpfs", str(Path(path).resolve())]
    scratch = str(scratch.resolve())
    args += [
        "--bind", scratch, scratch,
        "--setenv", "HOME", scratch, "--setenv", "TMPDIR", scratch,
        "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
        "--chdir", cwd, "--", *_nproc(max_procs), *argv,
    ]
    return args


@functools.cache
def isolation_problem() -> str | None:
    """Why bots cannot get a PID namespace of their own on this machine (None: they can).
    Found out once per process by starting one namespace, which takes a few milliseconds."""
    if bwrap_path() is None:
        return "bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    if not _as_root() and shutil.which("prlimit") is None:
        return "prlimit (util-linux) is not on PATH"
    try:
        probe = subprocess.run(isolate(["true"], max_procs=64), capture_output=True,
                               text=True, timeout=10, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bwrap could not be run ({exc})"
    if probe.returncode != 0:
        said = " ".join(probe.stderr.split()) or f"exit code {probe.returncode}"
        return f"bwrap cannot make a PID namespace here ({said})"
    return None


def process_limit_problem() -> str | None:
    """Why ``--max-procs`` cannot be enforced here (None: it can)."""
    if _as_root():
        return cgroup.problem()
    return isolation_problem()


_said: set[str] = set()


def note_once(limits_sandbox: bool, max_procs: int) -> str | None:
    """What the operator should know about how the bots are confined, the first time it
    applies in this process (then None): one sentence per run, not one per match."""
    notes = []
    if not limits_sandbox:
        why = isolation_problem()
        if why is not None:
            notes.append(f"pokerbots: bots run without a PID namespace of their own, because {why};"
                         " a bot can see and signal the other bots and the server, and what it"
                         " starts is found by the reaper instead of ended with it.")
    if max_procs:
        why = process_limit_problem()
        if why is not None:
            notes.append(f"pokerbots: --max-procs is not enforced, because {why}.")
    text = "\n".join(n for n in notes if n not in _said)
    _said.update(notes)
    return text or None


class Scratch:
    """The scratch folders of one match: one per seat, under one parent that is hidden."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="pokerbots-sandbox-"))

    def seat(self, index: int) -> Path:
        path = self.root / f"seat{index}"
        path.mkdir(exist_ok=True)
        return path

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


class Confinement:
    """How the bots of one match are started and ended: made by the runner before the first
    bot starts, closed after the last one is gone.

    ``sandbox``: the full sandbox; ``isolate``: a PID namespace per bot when the machine
    allows it (see :func:`isolation_problem`); ``max_procs``: the process limit per bot.
    ``hidden`` are folders the sandbox hides (the log folder).
    """

    def __init__(self, *, sandbox: bool = False, isolate: bool = True, max_procs: int = 0,
                 hidden=(), name: str = "pokerbots") -> None:
        self.sandbox = sandbox
        self.wrapped = sandbox or (isolate and isolation_problem() is None)
        self.max_procs = max_procs
        self.scratch = Scratch() if sandbox else None
        self.hidden = [*hidden, *([self.scratch.root] if self.scratch else [])]
        self.name = name
        self.groups: list[cgroup.PidsGroup] = []

    def command(self, argv: list[str], seat: int, cwd=None) -> tuple[list[str], Callable | None]:
        """The argv that starts a bot at ``seat``, and what its child must do before ``exec``
        (join the seat's pids cgroup), or None."""
        join = None
        if self.max_procs and _as_root() and cgroup.problem() is None:
            group = cgroup.PidsGroup.create(f"{self.name}-seat{seat}", self.max_procs)
            self.groups.append(group)
            join = group.join
        if self.sandbox:
            return wrap(argv, self.scratch.seat(seat), self.hidden, cwd, self.max_procs), join
        if self.wrapped:
            return isolate(argv, cwd, self.max_procs), join
        return argv, join

    def close(self) -> None:
        """End whatever is left in the seats' cgroups, remove them and the scratch folders."""
        for group in self.groups:
            group.remove()
        self.groups = []
        if self.scratch is not None:
            self.scratch.remove()

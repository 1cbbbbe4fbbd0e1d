"""``--sandbox``: every bot runs under bubblewrap (``bwrap``).

What the bot gets: a read-only view of the whole file system, a fresh ``/dev`` and ``/proc``,
its own writable scratch folder (``$HOME`` and ``$TMPDIR``, deleted after the round), no
network (only a loopback in its own namespace), its own process, IPC, UTS and user namespaces,
no capabilities, a new session (no terminal), and death when the server dies. The match's log
folder and the other bots' scratch folders are hidden. Killing the sandbox's first process
ends every process inside it, so nothing a bot starts can outlive the round.

It does not limit CPU, memory or the number of processes (the resource limits do the first two),
and it does not hide files that every user of the machine can read.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

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


def wrap(argv: list[str], scratch: Path, hidden: list[Path], cwd: str | None = None) -> list[str]:
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
        "--chdir", cwd, "--", *argv,
    ]
    return args

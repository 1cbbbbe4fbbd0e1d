"""A CPU of its own for each running match, claimed across processes on one machine.

A match (the server loop and its bots, which take turns) runs best on one CPU. Each running
match claims a CPU by taking an exclusive ``flock`` on ``cpuN.lock`` in a folder shared by every
process of this user (local workers and Dask workers alike); the lock goes away with the claim,
or with the process if it dies. So no two matches share a CPU while another is free; when every
CPU is taken (more jobs than CPUs) the match shares one, chosen by the worker's number.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def allowed() -> list[int]:
    """The CPUs this process may run on."""
    return sorted(os.sched_getaffinity(0))


def _folder() -> Path:
    folder = Path(tempfile.gettempdir()) / f"pokerbots-cpus-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


@contextmanager
def claim(hint: int = 0) -> Iterator[int]:
    """Hold a free CPU (trying from the ``hint``-th allowed one) for the ``with`` block."""
    cpus = allowed()
    folder = _folder()
    for i in range(len(cpus)):
        cpu = cpus[(hint + i) % len(cpus)]
        lock = open(folder / f"cpu{cpu}.lock", "w")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            continue
        try:
            yield cpu
        finally:
            lock.close()  # releases the lock
        return
    yield cpus[hint % len(cpus)]

"""The service's worker processes: a smoke test or a tournament, each a process of its own.

A worker runs in a session of its own (the terminal's Ctrl-C reaches the service alone, which
stops each worker once, in its own way), is told the service's process id so that it dies
with it (:func:`.tournament.pool.die_with_parent`, which watches the service's process, not
the thread that started the worker: trio starts processes from worker threads, which it
retires when idle), and when the service cancels it gets
``stop_signal`` and ``grace`` seconds to end its matches cleanly before it is killed.
"""

from __future__ import annotations

import os
import subprocess
import sys

import trio


async def run(module: str, *args: str, stop_signal: int, grace: float,
              **kwargs) -> subprocess.CompletedProcess:
    """``python -m module SERVICE_PID ARGS...`` to its end (``kwargs``: as
    :func:`trio.run_process`, e.g. ``stdin``, ``capture_stdout``, ``stdout``)."""

    async def stop(process) -> None:
        process.send_signal(stop_signal)
        with trio.move_on_after(grace):
            await process.wait()
            return
        process.kill()

    return await trio.run_process(
        [sys.executable, "-m", module, str(os.getpid()), *args], check=False,
        start_new_session=True, deliver_cancel=stop, **kwargs)


def adopt() -> None:
    """In a worker: die with the service (the pid it was given), even if it is killed with
    SIGKILL: SIGINT then stops the worker as Ctrl-C would."""
    from pokerbots.server.tournament.pool import die_with_parent

    die_with_parent(int(sys.argv[1]))

"""Matches at once on this machine: ``--jobs`` worker processes, one match each at a time.

Each worker is ``python -m pokerbots.server.tournament.pool``: it reads one job per line (JSON)
on stdin, plays it with :func:`.job.play_match_job` in its main thread (so a match handles
Ctrl-C as ``pokerbots run`` does: bots ended, logs complete) and writes the result as one JSON
line. Each match claims a CPU of its own (:mod:`pokerbots.server.confine.cpus`). A reader
thread per worker puts the results on :attr:`LocalPool.results`; everything else happens in
the tournament's main thread.

A worker ignores SIGINT between matches; during a match SIGINT (the terminal's Ctrl-C, which
reaches the whole process group, or :meth:`LocalPool.interrupt`) ends that match. If the
tournament process dies (even by SIGKILL) its workers get SIGINT (:func:`die_with_parent`):
the match ends cleanly and the worker exits at the end of its input.
"""

from __future__ import annotations

import json
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

#: Seconds between two looks at the parent's pid where a pidfd cannot be had.
PARENT_POLL = 0.5


class LocalPool:
    """``jobs`` worker processes; :meth:`submit` a job to an idle one, read :attr:`results`."""

    def __init__(self, jobs: int, log: Path) -> None:
        self.capacity = jobs
        self.results: queue.Queue = queue.Queue()
        self._log = open(log, "ab")
        self._lock = threading.Lock()
        self._workers: list[_Worker] = []
        self._idle: list[_Worker] = []
        for number in range(jobs):
            worker = _Worker(number, self)
            self._workers.append(worker)
            self._idle.append(worker)

    def submit(self, job: dict) -> None:
        with self._lock:
            worker = self._idle.pop(0)
        worker.send(job)

    def _finished(self, worker: _Worker, result: dict) -> None:
        with self._lock:
            self._idle.append(worker)
        self.results.put(result)

    def interrupt(self) -> None:
        """Stop the running matches (their results come back ``interrupted``)."""
        for worker in self._workers:
            worker.signal(signal.SIGINT)

    def close(self) -> None:
        """End every worker: at the end of its input, else SIGTERM (a match then ends as on
        Ctrl-C), else SIGKILL."""
        for worker in self._workers:
            worker.end_input()
        for worker in self._workers:
            worker.wait()
        self._log.close()


class _Worker:
    def __init__(self, number: int, pool: LocalPool) -> None:
        self.number = number
        self._pool = pool
        self._job: dict | None = None
        self.process = subprocess.Popen(
            [sys.executable, "-m", __name__, str(os.getpid())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=pool._log)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def send(self, job: dict) -> None:
        self._job = job
        try:
            self.process.stdin.write(json.dumps(job).encode() + b"\n")
            self.process.stdin.flush()
        except OSError:
            pass  # it died: the reader reports it

    def _read(self) -> None:
        for line in self.process.stdout:
            result = json.loads(line)
            self._job = None
            self._pool._finished(self, result)
        code = self.process.wait()
        job = self._job
        if job is not None:  # it died in the middle of a match
            self._pool._finished(self, {
                "id": job["id"], "status": "error", "log_dir": job["folder"],
                "error": f"a worker process died (exit status {code}) while playing match"
                         f" {job['id']}; its output is in {self._pool._log.name}"})

    def signal(self, signum: int) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signum)

    def end_input(self) -> None:
        try:
            self.process.stdin.close()
        except OSError:
            pass

    def wait(self) -> None:
        for action, seconds in ((None, 5.0), (signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
            if action is not None:
                self.signal(action)
            try:
                self.process.wait(seconds)
            except subprocess.TimeoutExpired:
                continue
            break
        self._reader.join(5.0)


def die_with_parent(parent: int, signum: int = signal.SIGINT) -> None:
    """Get ``signum`` when the process ``parent`` dies (exit at once if it is gone already).

    Not ``PR_SET_PDEATHSIG``: Linux sends that signal when the *thread* that forked this
    process exits, not its process, and a trio service starts its workers from a worker
    thread (``trio.to_thread``) that trio retires after 10 idle seconds: its tournaments
    stopped by themselves. A daemon thread here waits for the parent process itself instead:
    on a pidfd of it (readable once the whole process has exited), or, on a kernel without
    pidfds, by looking at :func:`os.getppid` every ``PARENT_POLL`` seconds (the orphan is
    given to another parent)."""
    try:
        pidfd = os.pidfd_open(parent)
    except (AttributeError, OSError):
        pidfd = None
    if os.getppid() != parent:  # it died already (and the pidfd may name another process)
        sys.exit(0)
    threading.Thread(target=_signal_at_death, args=(parent, pidfd, signum), daemon=True,
                     name="die-with-parent").start()


def _signal_at_death(parent: int, pidfd: int | None, signum: int) -> None:
    if pidfd is not None:
        while not select.select([pidfd], [], [])[0]:
            pass
    else:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
    os.kill(os.getpid(), signum)


def main() -> None:
    """A worker: play each job read on stdin, write each result on stdout."""
    from pokerbots.server.tournament.job import play_match_job

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a match in progress takes it over
    die_with_parent(int(sys.argv[1]))
    out = sys.stdout
    for line in sys.stdin:
        result = play_match_job(json.loads(line))
        try:
            out.write(json.dumps(result) + "\n")
            out.flush()
        except BrokenPipeError:
            return


if __name__ == "__main__":
    main()

"""Matches on a Dask distributed cluster (``--scheduler tcp://host:port``).

The tournament process is the Dask client: it submits one task per match
(:func:`.job.play_match_job` with the same JSON-ready job a local worker gets, so the cards and
results are the same) and
writes every result into the store itself; the workers only play. Each worker machine needs
pokerbots installed and the bots at the same paths (a shared file system, or identical copies);
match folders are written by the worker at the path the job names, so on a shared file system
they all end up in the tournament folder. Start workers with one thread each
(``dask worker ADDRESS --nthreads 1 --nworkers N``): a match is a process conversation, not
Python work, and each running match claims a CPU of its own on its machine
(:mod:`pokerbots.server.confine.cpus`).

Dask is an optional extra: ``pip install 'pokerbots[dask]'``.
"""

from __future__ import annotations

import queue
import time
import uuid


class ClusterUnavailable(Exception):
    """Dask is not installed, or the scheduler cannot be reached (the message says which)."""


class ClusterPool:
    """The same interface as :class:`.pool.LocalPool`, over a Dask cluster."""

    def __init__(self, address: str, *, timeout: float = 10.0) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise ClusterUnavailable("--scheduler needs Dask: pip install 'pokerbots[dask]'"
                                     ) from None
        try:
            self._client = Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ClusterUnavailable(f"cannot reach the Dask scheduler at {address}: {exc}"
                                     ) from None
        self.results: queue.Queue = queue.Queue()
        self._futures: dict = {}
        self._ids: dict = {}
        self._asked = 0.0
        self._capacity = 2

    @property
    def capacity(self) -> int:
        """Matches in flight: twice the workers' threads, so a worker never waits for work
        (asked of the scheduler at most every few seconds: workers may come and go)."""
        now = time.monotonic()
        if now >= self._asked:
            self._asked = now + 5.0
            try:
                threads = sum(self._client.nthreads().values())
            except Exception:  # the scheduler went away: the next submit says so
                threads = 1
            self._capacity = 2 * max(threads, 1)
        return self._capacity

    def submit(self, job: dict) -> None:
        from pokerbots.server.tournament.job import play_match_job

        future = self._client.submit(play_match_job, job, pure=False,
                                     key=f"pokerbots-match-{job['id']}-{uuid.uuid4().hex}")
        self._futures[future.key] = future
        self._ids[future.key] = job
        future.add_done_callback(self._done)

    def _done(self, future) -> None:
        job = self._ids.pop(future.key, None)
        self._futures.pop(future.key, None)
        if job is None:
            return
        if future.cancelled():
            result = {"id": job["id"], "status": "interrupted"}
        else:
            try:
                result = future.result()
            except Exception as exc:  # the worker died, or the task could not run there
                result = {"id": job["id"], "status": "error", "log_dir": job["folder"],
                          "error": f"match {job['id']} could not be played on the cluster:"
                                   f" {type(exc).__name__}: {exc}"}
        self.results.put(result)

    def interrupt(self) -> None:
        """Cancel the matches not finished (a match already running on a worker plays to its
        end there; its result is dropped and it is played again on resume)."""
        for future in list(self._futures.values()):
            future.cancel()

    def close(self) -> None:
        self.interrupt()
        self._client.close()

#!/usr/bin/env python3
"""A flood of wrong tokens that each cost the service a scrypt, and ``/healthz`` meanwhile.

A wrong token that starts with a team's 12-character key (the part of a token that finds
its team's row) is checked by hashing it: without a limit, each such request costs the
service a scrypt (about 0.15 s of CPU and 16 MiB) on the site's worker threads. :func:`flood`
sends ``clients`` of them at once, ``rounds`` times over, to pages and to the upload route,
while :func:`Health` asks ``/healthz`` in a loop and keeps its answer times.

Run as a script, it starts ``pokerbots serve`` with one team and prints ``/healthz``'s times
alone and during the flood, and what the flood's requests were answered::

    python tests/programs/attacks/wrong_tokens.py [--clients 40] [--rounds 5]
"""

from __future__ import annotations

import http.client
import os
import statistics
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

#: The routes a wrong token is sent to: pages read it as the viewer, uploads refuse it.
ROUTES = (("GET", "/"), ("GET", "/teams/alpha"), ("POST", "/api/submissions"),
          ("GET", "/api/submissions/1"))


def wrong(token: str, number: int) -> str:
    """A token with ``token``'s key and a wrong rest (a different one for each ``number``)."""
    rest = f"{number:x}".rjust(8, "0")
    return token[:12] + (rest + token[12 + len(rest):])[:len(token) - 12]


def request(port: int, method: str, path: str, token: str | None,
            timeout: float = 60.0) -> tuple[int, float]:
    """``(status, seconds)`` of one request (``token`` as ``Authorization: Bearer``)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    start = time.monotonic()
    try:
        connection.request(method, path, body=b"" if method == "POST" else None,
                           headers=headers)
        answer = connection.getresponse()
        answer.read()
        return answer.status, time.monotonic() - start
    finally:
        connection.close()


class Health(threading.Thread):
    """Asks ``/healthz`` one request after another until :meth:`stop`; ``times`` (seconds)
    and ``statuses`` of its answers."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.times: list[float] = []
        self.statuses: Counter = Counter()
        self._done = threading.Event()

    def run(self) -> None:
        while not self._done.is_set():
            status, seconds = request(self.port, "GET", "/healthz", None)
            self.statuses[status] += 1
            self.times.append(seconds)

    def stop(self) -> Health:
        self._done.set()
        self.join()
        return self

    def summary(self) -> str:
        if not self.times:
            return "no answer"
        ordered = sorted(self.times)
        return (f"{len(ordered)} answers, median {statistics.median(ordered) * 1000:.0f} ms,"
                f" max {ordered[-1] * 1000:.0f} ms")


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) the process ``pid`` has used."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def warm(port: int) -> None:
    """Ask each route of the flood once without a token (a page's first answer compiles its
    template): what the flood costs is then the tokens'."""
    for method, path in ROUTES:
        request(port, method, path, None)


def flood(port: int, token: str, clients: int = 40, rounds: int = 5) -> Counter:
    """``rounds`` times, ``clients`` concurrent requests with wrong tokens of ``token``'s key
    (each round waits for all its answers); how many answers of each status."""
    statuses: Counter = Counter()
    with ThreadPoolExecutor(clients) as pool:
        for round_ in range(rounds):
            jobs = [pool.submit(request, port, *ROUTES[i % len(ROUTES)],
                                wrong(token, round_ * clients + i))
                    for i in range(clients)]
            for job in jobs:
                statuses[job.result()[0]] += 1
    return statuses


def main() -> None:  # pragma: no cover - a script, for the figures
    import argparse
    import sys
    import tempfile
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "support"))
    from pokerbots.server.service.data.store import open_store
    from pokerbots.server.service.data.teams import add_team

    from service_site import Served

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pokerbots-tokens-") as work:
        work = Path(work)
        (work / "submissions").mkdir()
        store = open_store(work / "data")
        try:
            token = add_team(store, "alpha")
        finally:
            store.close()
        with Served(work / "submissions", work / "data", "--every", "1h") as served:
            warm(served.port)
            alone = Health(served.port)
            alone.start()
            time.sleep(3)
            print("/healthz alone:        ", alone.stop().summary())
            during = Health(served.port)
            during.start()
            start, cpu = time.monotonic(), cpu_seconds(served.process.pid)
            statuses = flood(served.port, token, args.clients, args.rounds)
            took, cpu = time.monotonic() - start, cpu_seconds(served.process.pid) - cpu
            print("/healthz during flood: ", during.stop().summary())
            print(f"flood: {args.rounds} x {args.clients} requests in {took:.1f} s, the"
                  f" service's CPU {cpu:.1f} s: {dict(statuses)}")
            status, seconds = request(served.port, "GET", "/api/submissions/999", token)
            print(f"the right token right after: {status} in {seconds * 1000:.0f} ms")
            served.stop()


if __name__ == "__main__":
    main()

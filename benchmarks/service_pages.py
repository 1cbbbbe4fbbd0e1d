#!/usr/bin/env python3
"""The site of ``pokerbots serve`` under a crowd, while tournaments play.

    python benchmarks/service_pages.py [--requests 1500] [--rounds 5] [--concurrency 50]
                                       [--hands 3000] [--close]

Starts the real service on 127.0.0.1 (three bundled bots, no-limit Hold'em tables of two,
--hands per match, tournaments one after the other), waits for its first tournament to finish
(so there are matches, hands and a ladder to show), then for the second to be playing. Then,
page by page, --concurrency visitors at a time each hold one HTTP/1.1 connection (kept alive;
with --close a new one per request, as an old client does) and ask for the page, --requests
answers per page: each page people read (the home page with its ladder, a bot, a tournament,
a match, its hand history, a hand's replay, the JSON of the ladder and of the standings) for
the public, then the same and the team's own page for a logged-in team (its token in
``Authorization``). Beside each page the same crowd asks for ``/healthz``, the cheapest
answer of the site, as many times: in --rounds turns, /healthz then the page, so that both
meet the same load from the rest of the machine.

It prints, side by side, each page's answers a second, p50 and p99, those of ``/healthz``
beside it, and the ratio of the two rates, against the goal: every page at least 0.7 times
the rate of ``/healthz``, at least 250 answers a second, p99 at most 500 ms. On a machine
shared with other work the rates move with the others' load; the CPU time the service's
process spent per answer (``cpu us``, read from ``/proc``: the site is its only busy part,
the tournament plays in processes of its own) is what a page costs, whatever the load. It
then checks that the tournaments playing meanwhile lost nothing to the load: no match of
them failed, none by a time-out.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import h11
import trio

ROOT = Path(__file__).resolve().parent.parent

#: The goal: a page's rate over /healthz's, its answers a second, its p99 in seconds.
RATIO, RATE, P99 = 0.7, 250.0, 0.5


def get(port: int, path: str, token: str | None = None) -> tuple[int, bytes]:
    """A blocking GET, for the set-up."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path, headers={"Authorization": f"Bearer {token}"}
                           if token else {})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


class Visitor:
    """One visitor's connection to the site: HTTP/1.1 kept alive (h11), opened again when
    the server closes it; with ``close``, a new connection for each request."""

    def __init__(self, port: int, close: bool) -> None:
        self.port = port
        self.close = close
        self.stream: trio.SocketStream | None = None
        self.http: h11.Connection | None = None

    async def get(self, path: str, token: str | None) -> tuple[int, int]:
        """``(status, bytes of the body)`` of a GET of ``path``."""
        if self.stream is None:
            self.stream = await trio.open_tcp_stream("127.0.0.1", self.port)
            self.http = h11.Connection(h11.CLIENT)
        headers = [("Host", "127.0.0.1")]
        if token:
            headers.append(("Authorization", f"Bearer {token}"))
        if self.close:
            headers.append(("Connection", "close"))
        http = self.http
        await self.stream.send_all(http.send(h11.Request(method="GET", target=path,
                                                         headers=headers))
                                   + http.send(h11.EndOfMessage()))
        status, size = 0, 0
        while True:
            event = http.next_event()
            if event is h11.NEED_DATA:
                http.receive_data(await self.stream.receive_some(65536))
            elif isinstance(event, h11.Response):
                status = event.status_code
            elif isinstance(event, h11.Data):
                size += len(event.data)
            elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
                break
        if http.our_state is h11.MUST_CLOSE or http.their_state is not h11.DONE:
            await self.shut()
        else:
            http.start_next_cycle()
        return status, size

    async def shut(self) -> None:
        if self.stream is not None:
            await self.stream.aclose()
        self.stream = self.http = None


@dataclass
class Phase:
    """The answers of one page to one kind of visitor."""

    viewer: str
    page: str
    path: str
    seconds: list[float] = field(default_factory=list)
    elapsed: float = 0.0
    cpu: float = 0.0
    bad: int = 0
    size: int = 0

    @property
    def rate(self) -> float:
        return len(self.seconds) / self.elapsed

    def p(self, q: float) -> float:
        values = sorted(self.seconds)
        return values[min(len(values) - 1, int(q * len(values)))]

    @property
    def cpu_per_answer(self) -> float:
        return self.cpu / len(self.seconds)

    def add(self, pid: int, port: int, token: str | None, requests: int, concurrency: int,
            close: bool) -> None:
        """``requests`` answers more, ``concurrency`` visitors at a time, from the service
        whose process is ``pid``."""
        started, cpu = time.perf_counter(), cpu_seconds(pid)
        seconds, bad, size = trio.run(crowd, port, self.path, token, requests, concurrency,
                                      close)
        self.elapsed += time.perf_counter() - started
        self.cpu += cpu_seconds(pid) - cpu
        self.seconds += seconds
        self.bad += bad
        self.size = max(self.size, size)


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) the process ``pid`` has used, from ``/proc``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def crowd(port: int, path: str, token: str | None, requests: int, concurrency: int,
                close: bool) -> tuple[list[float], int, int]:
    """``requests`` GETs of ``path`` by ``concurrency`` visitors at a time: ``(each answer's
    seconds, answers that were not 200, the largest body's bytes)``."""
    seconds: list[float] = []
    bad = size = 0
    left = requests

    async def visit() -> None:
        nonlocal left, bad, size
        visitor = Visitor(port, close)
        try:
            while left > 0:
                left -= 1
                started = time.perf_counter()
                try:
                    status, length = await visitor.get(path, token)
                    size = max(size, length)
                except (OSError, trio.BrokenResourceError, h11.ProtocolError):
                    await visitor.shut()
                    status = 0
                seconds.append(time.perf_counter() - started)
                bad += status != 200
        finally:
            await visitor.shut()

    async with trio.open_nursery() as nursery:
        for _ in range(concurrency):
            nursery.start_soon(visit)
    return seconds, bad, size


def wait(what: str, check, timeout: float = 600.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    sys.exit(f"no {what} within {timeout} s")


def table(pairs: list[tuple[Phase, Phase]]) -> list[str]:
    """Each page beside /healthz, and whether it meets the goal."""
    lines = [f"{'viewer':<6} {'page':<10} {'path':<19} {'bytes':>6} {'answers/s':>9}"
             f" {'p50 ms':>6} {'p99 ms':>6} {'cpu us':>6} {'not 200':>7} | {'/healthz/s':>10}"
             f" {'p50 ms':>6} {'p99 ms':>6} {'cpu us':>6} | {'ratio':>5}  goal"]
    for page, healthz in pairs:
        ratio = page.rate / healthz.rate
        met = ratio >= RATIO and page.rate >= RATE and page.p(.99) <= P99 and not page.bad
        lines.append(f"{page.viewer:<6} {page.page:<10} {page.path:<19} {page.size:6d}"
                     f" {page.rate:9.0f} {page.p(.5) * 1000:6.0f} {page.p(.99) * 1000:6.0f}"
                     f" {page.cpu_per_answer * 1e6:6.0f} {page.bad:7d} | {healthz.rate:10.0f}"
                     f" {healthz.p(.5) * 1000:6.0f} {healthz.p(.99) * 1000:6.0f}"
                     f" {healthz.cpu_per_answer * 1e6:6.0f} | {ratio:5.2f}"
                     f"  {'met' if met else 'MISSED'}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1500, help="answers per page")
    parser.add_argument("--rounds", type=int, default=5,
                        help="turns of /healthz and the page, for each page")
    parser.add_argument("--concurrency", type=int, default=50, help="visitors at a time")
    parser.add_argument("--hands", type=int, default=3000, help="hands per match")
    parser.add_argument("--close", action="store_true",
                        help="a new connection per request (default: one kept alive each)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pokerbots-pages-"))
    submissions = work / "submissions"
    for name, bot in (("caller", "call_bot.py"), ("rand", "random_bot.py"),
                      ("rando", "random_bot.py")):
        (submissions / name).mkdir(parents=True)
        shutil.copy(ROOT / "bots" / bot, submissions / name / "bot.py")
    data = work / "data"
    out = open(work / "serve.out", "wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "pokerbots.server.cli.main", "serve", str(submissions),
         "--data", str(data), "--port", "0", "--game", "holdem-nl", "--hands",
         str(args.hands), "--every", "1s"], stdout=out, stderr=subprocess.STDOUT)
    try:
        port = int(wait("site", lambda: re.findall(
            r"The site: http://127\.0\.0\.1:(\d+)/",
            (work / "serve.out").read_text(errors="replace")))[0])

        def tournaments() -> list[dict]:
            return json.loads(get(port, "/api/tournaments")[1])

        wait("first tournament", lambda: any(t["status"] == "done" for t in tournaments()))
        first_playing = wait("second tournament playing", lambda: next(
            (t["id"] for t in tournaments() if t["status"] == "running"), None))
        token = subprocess.run(
            [sys.executable, "-m", "pokerbots.server.cli.main", "team", "add", "caller",
             "--data", str(data)], capture_output=True, text=True, check=True).stdout
        token = re.findall(r"[A-Za-z0-9_-]{20,}", token)[-1]
        pages = [("home", "/"), ("bot", "/bots/caller"), ("tournament", "/tournaments/1"),
                 ("match", "/matches/1"), ("hands", "/matches/1/hands"),
                 ("replay", "/matches/1/hands/3"), ("ladder", "/api/ladder"),
                 ("standings", "/api/standings")]
        runs = [*(("public", page, path, None) for page, path in pages),
                *(("team", page, path, token)
                  for page, path in [*pages, ("team", "/teams/caller")])]
        for _, _, path, given in [*runs, ("-", "-", "/healthz", None)]:
            status, _ = get(port, path, given)  # each page once before it is timed
            if status != 200:
                sys.exit(f"{path}: {status}")
        pairs = []
        started = time.time()
        per_round = max(1, args.requests // args.rounds)
        for viewer, page, path, given in runs:
            mine, beside = Phase(viewer, page, path), Phase("-", "healthz", "/healthz")
            for _ in range(args.rounds):
                beside.add(process.pid, port, None, per_round, args.concurrency, args.close)
                mine.add(process.pid, port, given, per_round, args.concurrency, args.close)
            pairs.append((mine, beside))
        last_playing = next((t["id"] for t in tournaments() if t["status"] == "running"),
                            None)
        print(f"{len(runs)} pages, each {per_round * args.rounds} answers beside as many of"
              f" /healthz, {args.concurrency} visitors at a time"
              f" ({'a connection per request' if args.close else 'one connection each'}),"
              f" {time.time() - started:.0f} s, while tournaments {first_playing} to"
              f" {last_playing or 'the last one'} played")
        print(f"goal: each page >= {RATIO}x /healthz, >= {RATE:.0f} answers/s,"
              f" p99 <= {P99 * 1000:.0f} ms")
        for line in table(pairs):
            print("  " + line)
        played = range(first_playing, (last_playing or first_playing) + 1)
        wait(f"tournament {played[-1]} done", lambda: all(
            t["status"] in ("done", "failed") for t in tournaments() if t["id"] in played))
        db = sqlite3.connect(data / "service.sqlite")
        for number in played:
            status = db.execute("SELECT status FROM tournaments WHERE id = ?",
                                (number,)).fetchone()[0]
            rows = db.execute("SELECT status, error FROM matches WHERE tournament_id = ?",
                              (number,)).fetchall()
            failed = [error for status_, error in rows if status_ != "done"]
            timeouts = [e for e in failed if e and "time" in e.lower()]
            print(f"tournament {number}: {status}, {len(rows)} matches, {len(failed)} not"
                  f" done, {len(timeouts)} by a time-out")
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(120)
        except subprocess.TimeoutExpired:
            process.kill()
        out.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

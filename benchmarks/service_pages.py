#!/usr/bin/env python3
"""Page latency of ``pokerbots serve`` while a tournament plays.

    python benchmarks/service_pages.py [--requests 2000] [--concurrency 50] [--hands 3000]

Starts the real service on 127.0.0.1 (three bundled bots, no-limit Hold'em tables of two,
--hands per match), waits for its first tournament to finish (so there are matches, hands and
a ladder to show), then for the second to be playing, and sends --requests GETs, at most
--concurrency at a time (trio, one HTTP/1.1 connection per request), over the pages people
read: the home page with its ladder, a tournament, a match, its hand history, a hand's replay,
a team's own page and the ladder's JSON. It prints the p50, p99 and largest latency overall
and per page, the requests per second, and then checks that the tournament playing meanwhile
lost nothing to the load: no match of it failed, none by a time-out.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parent.parent


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


async def fetch(port: int, path: str, token: str | None) -> tuple[int, int]:
    """One GET over its own connection: ``(status, bytes of the body)``."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        await stream.send_all(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}"
                              "Connection: close\r\n\r\n".encode())
        data = bytearray()
        while chunk := await stream.receive_some(65536):
            data += chunk
    head, _, body = bytes(data).partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), len(body)


async def load(port: int, paths: list[tuple[str, str, str | None]], concurrency: int
               ) -> list[tuple[str, float, int]]:
    """Every request of ``paths`` (``(kind, path, token)``), ``concurrency`` at a time:
    ``[(kind, seconds, status)]``."""
    limit = trio.CapacityLimiter(concurrency)
    found: list[tuple[str, float, int]] = []

    async def one(kind: str, path: str, token: str | None) -> None:
        async with limit:
            started = time.perf_counter()
            status, _ = await fetch(port, path, token)
            found.append((kind, time.perf_counter() - started, status))

    async with trio.open_nursery() as nursery:
        for kind, path, token in paths:
            nursery.start_soon(one, kind, path, token)
    return found


def quantile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def wait(what: str, check, timeout: float = 600.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    sys.exit(f"no {what} within {timeout} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--hands", type=int, default=3000)
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
         str(args.hands), "--every", "5s"], stdout=out, stderr=subprocess.STDOUT)
    try:
        port = int(wait("site", lambda: re.findall(
            r"The site: http://127\.0\.0\.1:(\d+)/",
            (work / "serve.out").read_text(errors="replace")))[0])

        def tournaments() -> list[dict]:
            return json.loads(get(port, "/api/tournaments")[1])

        wait("first tournament", lambda: any(t["status"] == "done" for t in tournaments()))
        playing = wait("second tournament playing", lambda: next(
            (t["id"] for t in tournaments() if t["status"] == "running"), None))
        token = subprocess.run(
            [sys.executable, "-m", "pokerbots.server.cli.main", "team", "add", "caller",
             "--data", str(data)], capture_output=True, text=True, check=True).stdout
        token = re.findall(r"[A-Za-z0-9_-]{20,}", token)[-1]
        kinds = [("home", "/", None), ("tournament", "/tournaments/1", None),
                 ("match", "/matches/1", None), ("hands", "/matches/1/hands", None),
                 ("replay", "/matches/1/hands/3", None), ("team", "/teams/caller", token),
                 ("ladder", "/api/ladder", None)]
        paths = [kinds[i % len(kinds)] for i in range(args.requests)]
        started = time.perf_counter()
        found = trio.run(load, port, paths, args.concurrency)
        wall = time.perf_counter() - started
        still = any(t["id"] == playing and t["status"] == "running" for t in tournaments())
        bad = [f for f in found if f[2] != 200]
        seconds = [f[1] for f in found]
        print(f"{len(found)} requests, {args.concurrency} at a time, while tournament"
              f" {playing} played ({'still playing' if still else 'it ended during the run'}):"
              f" {len(found) / wall:.0f} requests/s, {len(bad)} not 200")
        print(f"  all         p50 {quantile(seconds, .5) * 1000:7.1f} ms   p99"
              f" {quantile(seconds, .99) * 1000:7.1f} ms   max {max(seconds) * 1000:7.1f} ms")
        for kind, _, _ in kinds:
            mine = [f[1] for f in found if f[0] == kind]
            print(f"  {kind:<11} p50 {quantile(mine, .5) * 1000:7.1f} ms   p99"
                  f" {quantile(mine, .99) * 1000:7.1f} ms   mean"
                  f" {statistics.mean(mine) * 1000:7.1f} ms")
        wait(f"tournament {playing} done", lambda: any(
            t["id"] == playing and t["status"] in ("done", "failed") for t in tournaments()))
        db = sqlite3.connect(data / "service.sqlite")
        rows = db.execute("SELECT status, error FROM matches WHERE tournament_id = ?",
                          (playing,)).fetchall()
        failed = [error for status, error in rows if status != "done"]
        timeouts = [e for e in failed if e and "time" in e.lower()]
        print(f"tournament {playing}: {len(rows)} matches, {len(failed)} not done,"
              f" {len(timeouts)} by a time-out")
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

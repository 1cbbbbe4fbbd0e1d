#!/usr/bin/env python3
"""Send requests whose body is cut short, and count what they cost the service's log.

    python tests/programs/attacks/cut_bodies.py URL [--requests 1000] [--parallel 20] [--log FILE]
        [--json]

Each request is ``POST /login`` announcing ``Content-Length: 4000``, sends the first 11 bytes
of its body (``token=abcde``) and closes the connection. With ``--log`` (the service's output
file), the bytes it grew by and the tracebacks added are counted once it has stopped growing
for half a second. Printed: the requests sent and the seconds they took; the log's growth.
``--json`` prints the same figures as one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from urllib.parse import urlsplit

import trio

HEAD = (b"POST /login HTTP/1.1\r\nHost: {host}\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\n"
        b"token=abcde")


async def cut_short(host: str, port: int) -> bool:
    """One request cut short; whether it could be sent."""
    try:
        stream = await trio.open_tcp_stream(host, port)
        async with stream:
            await stream.send_all(HEAD.replace(b"{host}", host.encode()))
            await trio.sleep(0.01)  # the server has the head: it now waits for the body
        return True
    except (OSError, trio.BrokenResourceError):
        return False


async def attack(url: str, requests: int, parallel: int) -> int:
    parts = urlsplit(url)
    host, port = parts.hostname, parts.port or 80
    limit = trio.CapacityLimiter(parallel)
    sent = 0

    async def one() -> None:
        nonlocal sent
        async with limit:
            if await cut_short(host, port):
                sent += 1

    async with trio.open_nursery() as nursery:
        for _ in range(requests):
            nursery.start_soon(one)
    return sent


def settled_size(log: Path, quiet: float = 0.5) -> int:
    """The log's size once it has not grown for ``quiet`` seconds (at most 30 s)."""
    size, steady_since, deadline = log.stat().st_size, time.monotonic(), time.monotonic() + 30
    while time.monotonic() - steady_since < quiet and time.monotonic() < deadline:
        time.sleep(0.1)
        now = log.stat().st_size
        if now != size:
            size, steady_since = now, time.monotonic()
    return size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--parallel", type=int, default=20)
    parser.add_argument("--log", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    before = settled_size(args.log) if args.log else 0
    started = time.monotonic()
    sent = trio.run(attack, args.url, args.requests, args.parallel)
    seconds = time.monotonic() - started
    found = {"requests": args.requests, "sent": sent, "seconds": round(seconds, 2)}
    print(f"{sent} of {args.requests} requests cut short in {seconds:.1f} s")
    if args.log:
        after = settled_size(args.log)
        with open(args.log, "rb") as log:
            log.seek(before)
            added = log.read(after - before)
        found.update(log_bytes=after - before, log_lines=added.count(b"\n"),
                     tracebacks=added.count(b"Traceback (most recent call last)"))
        print(f"the log grew by {after - before:,} bytes, {found['log_lines']} lines,"
              f" {found['tracebacks']} tracebacks")
        print("its last lines:\n" + "\n".join(
            "  " + line for line in added.decode("utf-8", "replace").splitlines()[-3:]))
    if args.json:
        print(json.dumps(found))


if __name__ == "__main__":
    main()

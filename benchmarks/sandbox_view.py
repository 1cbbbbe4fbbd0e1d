#!/usr/bin/env python3
"""What the sandbox's allow-list view costs per bot start, against the old whole view.

    python benchmarks/sandbox_view.py [--starts N]

Starts a trivial bot (``/bin/true``, ``python -c pass`` under the server's Python, then a
``bot.py`` that exits, alone in its folder and among 1,000 other files) N times (20) under
the old ``--ro-bind / /`` sandbox (:func:`sandbox.wrap_whole_view`) and under the allow-list
(:func:`sandbox.wrap`), alternating, and prints the median milliseconds of each and the
difference. A start under the allow-list includes the copy of the bot's folder (made once per
match, so once per start here).
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


def once_sandboxed(argv: list[str]) -> float:
    """One start under the allow-list, the copy of the bot's folder (once per match) included."""
    start = time.perf_counter()
    copies = sandbox.Copies()
    launch = sandbox.wrap(argv, copies, [], scratch_mib=256)
    try:
        subprocess.run(launch.argv, check=True, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, env=launch.env, pass_fds=launch.fds)
    finally:
        launch.close()
        copies.remove()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--starts", type=int, default=20)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="pokerbots-bench-"))
    try:
        alone, crowded = scratch / "alone", scratch / "crowded"
        for folder, others in ((alone, 0), (crowded, 1000)):
            folder.mkdir()
            (folder / "bot.py").write_text("pass\n")
            for i in range(others):
                (folder / f"data{i}.txt").write_text(f"{i}\n")
        for name, bot in (("true", [shutil.which("true")]),
                          ("python -c pass", [sys.executable, "-c", "pass"]),
                          ("bot.py", [sys.executable, str(alone / "bot.py")]),
                          ("bot.py + 1,000", [sys.executable, str(crowded / "bot.py")])):
            old, new = [], []
            for _ in range(args.starts):
                old.append(once(sandbox.wrap_whole_view(bot, scratch, [])))
                new.append(once_sandboxed(bot))
            a, b = statistics.median(old), statistics.median(new)
            print(f"{name:>15}: whole view {a:6.1f} ms, allow-list {b:6.1f} ms,"
                  f" difference {b - a:+6.1f} ms per start (median of {args.starts})")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()

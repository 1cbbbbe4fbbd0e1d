#!/usr/bin/env python3
"""Full matches with real bot processes: hands per second and the server's own CPU per hand.

    python benchmarks/match.py [--hands N] [--players P]

Plays 3-player Kuhn (by default) with the minimal C bot built from kuhn_call_bot.c (needs cc)
and with the bundled Python bots, each match pinned to one CPU as `pokerbots run` does by
default. Targets (issue 2): at least 4,000 hands/s with compiled bots, 1,500 with Python bots.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pokerbots.server.bots import parse_bot
from pokerbots.server.match import MatchConfig, pick_cpu, run_match

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def build_c_bot(out: Path) -> Path | None:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    exe = out / "kuhn_call_bot"
    subprocess.run([cc, "-O2", "-o", str(exe), str(HERE / "kuhn_call_bot.c")], check=True)
    return exe


def measure(bots: list[str], hands: int, game: str, logs: Path) -> dict:
    config = MatchConfig(bots=[parse_bot(b) for b in bots], game=game, hands=hands, seed=1,
                         logs=logs, cpu=pick_cpu())
    own0 = resource.getrusage(resource.RUSAGE_SELF)
    kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    outcome, _ = run_match(config)
    seconds = time.perf_counter() - start
    own1 = resource.getrusage(resource.RUSAGE_SELF)
    kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if outcome.fault is not None:
        raise SystemExit(f"benchmark match failed:\n{outcome.fault}")
    server = (own1.ru_utime - own0.ru_utime) + (own1.ru_stime - own0.ru_stime)
    bots_cpu = (kids1.ru_utime - kids0.ru_utime) + (kids1.ru_stime - kids0.ru_stime)
    return {"hands/s": hands / seconds, "server us/hand": server / hands * 1e6,
            "bots us/hand": bots_cpu / hands * 1e6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        exe = build_c_bot(tmp)
        if exe is None:
            print("no C compiler: skipping the compiled bots")
        else:
            rows.append(("kuhn, C check/call bots", measure([str(exe)] * args.players,
                                                             args.hands, "kuhn", tmp / "logs")))
        for name in ("call_bot.py", "random_bot.py"):
            bot = ROOT / "bots" / name
            if bot.exists():
                rows.append((f"kuhn, Python {name}",
                             measure([str(bot)] * args.players, args.hands // 2, "kuhn",
                                     tmp / "logs")))
    print(f"{args.players}-player matches, pinned to one CPU, logs written as usual")
    print(f"{'match':34} {'hands/s':>9} {'server CPU/hand':>16} {'bots CPU/hand':>14}")
    for name, r in rows:
        print(f"{name:34} {r['hands/s']:9,.0f} {r['server us/hand']:13,.1f} us"
              f" {r['bots us/hand']:11,.1f} us")


if __name__ == "__main__":
    sys.exit(main())

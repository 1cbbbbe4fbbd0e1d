#!/usr/bin/env python3
"""What confining the bots costs: the PID namespace per bot and the CPU watch.

    python benchmarks/confinement.py [--hands N] [--players P] [--rounds R]

Plays P-player Kuhn with the minimal C bot (benchmarks/kuhn_call_bot.c, needs cc) pinned to
one CPU, R times with every bot in its own PID namespace (the default) and R times without,
and prints hands per second and the time to start a match; then times one look of the CPU
watch at P running bots (it looks every 0.5 s with the default 5 s reply limit), and what
that costs per hand at the measured rate.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

from pokerbots.server.confine import fairness, sandbox
from pokerbots.server.confine.cpus import claim_cpu
from pokerbots.server.play.match import MatchConfig, run_match
from pokerbots.server.seats.arguments import parse_bot
from pokerbots.server.seats.limits import Limits

sys.path.insert(0, str(Path(__file__).resolve().parent))
from match import build as build_c_bot  # noqa: E402


def rate(bot: Path, players: int, hands: int, logs: Path, isolate: bool) -> tuple[float, float]:
    """(hands per second, seconds for a one-hand match) for one setting."""
    def play(n: int) -> float:
        config = MatchConfig(bots=[parse_bot(str(bot))] * players, hands=n, seed=1, logs=logs,
                             cpu=claim_cpu(), limits=Limits(isolate=isolate))
        start = time.perf_counter()
        outcome, _ = run_match(config)
        if outcome.fault is not None:
            raise SystemExit(f"benchmark match failed:\n{outcome.fault}")
        return time.perf_counter() - start

    small = play(1)
    return hands / (play(hands) - small), small


def look_cost(bot: Path, players: int) -> float:
    """Seconds for one look of the CPU watch at ``players`` running bots."""
    procs = [subprocess.Popen(sandbox.isolate([str(bot)]), stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL) for _ in range(players)]
    try:
        time.sleep(0.2)
        watch = fairness.CpuWatch([p.pid for p in procs], [], 5.0)

        async def looks() -> float:
            start = time.perf_counter()
            for _ in range(200):
                watch.sample()
            return (time.perf_counter() - start) / 200

        return trio.run(looks)
    finally:
        for p in procs:
            p.kill()
            p.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if sandbox.isolation_problem() is not None:
        raise SystemExit(f"no PID namespaces here: {sandbox.isolation_problem()}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        bot = build_c_bot("kuhn_call_bot.c", tmp)
        if bot is None:
            raise SystemExit("needs a C compiler (cc)")
        for isolate in (True, False):
            figures = [rate(bot, args.players, args.hands, tmp / "logs", isolate)
                       for _ in range(args.rounds)]
            hps = statistics.median(f[0] for f in figures)
            start = statistics.median(f[1] for f in figures)
            name = "own PID namespace" if isolate else "no namespace    "
            print(f"{name}: {hps:8,.0f} hands/s   one-hand match {start * 1000:6.1f} ms")
        look = look_cost(bot, args.players)
        print(f"CPU watch: one look at {args.players} bots {look * 1e6:.0f} us; every 0.5 s at"
              f" {hps:,.0f} hands/s that is {look * 2 / hps * 1e6:.3f} us per hand")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A whole tournament with --jobs 1, then --jobs 2 (and optionally a local Dask cluster).

    python benchmarks/tournament.py [--bots M] [--players K] [--hands N] [--rounds R]
                                    [--game G] [--dask] [--c-bots]

Plays the same duplicate tournament (M bundled Python bots: check/call and seeded random bots,
every table of K, R deal sets, N hands a match) through the real ``pokerbots tournament``
command, once per setting, and prints the wall time, matches and hands per second, and the
speed-up over --jobs 1 (the target: on 2 CPUs, --jobs 2 at least 1.7 times as fast).
With --dask it also starts a Dask scheduler and two single-thread workers on 127.0.0.1 and
plays the tournament there (the measured cluster speed-up of docs/tournaments.md).
The standings of every run must be identical: the script checks it. With --c-bots the field is
M always-call C bots (``kuhn_call_bot.c`` or ``holdem_call_bot.c``, built with cc); the
workload of the performance page is ``--c-bots --bots 4 --hands 2000`` (24 matches of about
0.6 s).

Besides the wall time it prints the CPU time per match of everything the tournament ran (the
director, its workers, the bots: user + system of the command's process tree), a figure load
hardly distorts; and, from a second run of the same plan with 1 hand a match, what a match
costs besides its hands (starting and confining the bots, the store, the logs, the director).

The machine may be shared: each setting is played --repeat times, alternating, and the best
time counts; the "others" column is the share of both CPUs that other processes used during
the run (from /proc/stat less this tournament's own CPU time), so a poor speed-up under load
can be told from a poor pool.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def c_field(m: int, game: str, out: Path) -> list[str]:
    """``m`` always-call C bots (one program, built here)."""
    source = HERE / ("kuhn_call_bot.c" if game == "kuhn" else "holdem_call_bot.c")
    exe = out / source.stem
    if not exe.exists():
        subprocess.run(["cc", "-O2", "-o", str(exe), str(source)], check=True)
    return [f"call{i}={exe}" for i in range(m)]


def field(m: int) -> list[str]:
    call = ROOT / "bots" / "call_bot.py"
    rand = ROOT / "bots" / "random_bot.py"
    return [f"call{i}={call}" if i % 2 == 0 else f"random{i}={rand} --seed {i}"
            for i in range(m)]


def busy_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine since boot."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def tournament(args, out: Path, extra: list[str], hands: int | None = None,
               rounds: int | None = None) -> tuple[float, float, float]:
    """Wall seconds, the share of the machine's CPU time that others used meanwhile, and the
    CPU seconds of the tournament's whole process tree."""
    command = [sys.executable, "-m", "pokerbots.server.cli.main", "tournament", *args.field,
               "--players", str(args.players), "--hands", str(hands or args.hands), "--rounds",
               str(rounds or args.rounds), "--duplicate", "--seed", "1", "--game", args.game,
               "--out", str(out), *extra]
    ticks = os.sysconf("SC_CLK_TCK")
    own0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy0, total0 = busy_ticks()
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    busy1, total1 = busy_ticks()
    own1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"the tournament failed ({result.returncode}):\n{result.stderr}")
    cpu = own1.ru_utime - own0.ru_utime + own1.ru_stime - own0.ru_stime
    others = max(0.0, (busy1 - busy0 - cpu * ticks) / max(total1 - total0, 1))
    return seconds, others, cpu


def start_cluster(log) -> tuple[str, list[subprocess.Popen]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dask = str(Path(sys.executable).parent / "dask")
    address = f"tcp://127.0.0.1:{port}"
    started = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                 "--no-dashboard"], stdout=log, stderr=log)]
    for name in ("w1", "w2"):
        started.append(subprocess.Popen([dask, "worker", address, "--nthreads", "1", "--name",
                                         name, "--no-dashboard", "--host", "127.0.0.1"],
                                        stdout=log, stderr=log))
    from distributed import Client

    with Client(address, timeout=60) as client:
        client.wait_for_workers(2, timeout=60)
    return address, started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=6)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--game", default="kuhn")
    parser.add_argument("--dask", action="store_true", help="also on a local Dask cluster")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each setting (best)")
    parser.add_argument("--c-bots", action="store_true", help="always-call C bots")
    args = parser.parse_args()
    seatings = math.factorial(args.players) if args.players <= 3 else args.players
    matches = math.comb(args.bots, args.players) * args.rounds * seatings
    hands = matches * args.hands
    print(f"{args.game}: {args.bots} bots, tables of {args.players}, duplicate, {args.rounds}"
          f" deal set(s): {matches} matches of {args.hands} hands ({hands:,} hands);"
          f" {len(os.sched_getaffinity(0))} CPUs")
    rows = []
    documents = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        args.field = c_field(args.bots, args.game, tmp) if args.c_bots else field(args.bots)
        settings = [("--jobs 1", ["--jobs", "1"]), ("--jobs 2", ["--jobs", "2"])]
        cluster = []
        if args.dask:
            log = open(tmp / "dask.log", "w")
            address, cluster = start_cluster(log)
            settings.append(("Dask, 2 workers", ["--scheduler", address]))
        best: dict[str, tuple[float, float, float]] = {}
        try:
            for attempt in range(args.repeat):
                for name, extra in settings:
                    out = tmp / f"{name.replace(' ', '_').replace(',', '')}-{attempt}"
                    measured = tournament(args, out, extra)
                    if name not in best or measured[0] < best[name][0]:
                        best[name] = measured
                    documents.append(json.loads((out / "standings.json").read_text()))
            rows = [(name, *best[name]) for name, _ in settings]
            bare = [tournament(args, tmp / f"one-hand-{r}", ["--jobs", "1"], hands=1,
                               rounds=r * args.rounds) for r in (1, 2)]
        finally:
            for process in cluster:
                process.terminate()
                process.wait(20)
    print(f"best of {args.repeat} runs each")
    print(f"{'setting':18} {'seconds':>8} {'matches/s':>10} {'hands/s':>9} {'speed-up':>9}"
          f" {'others':>7} {'CPU s/match':>12}")
    base = rows[0][1]
    for name, seconds, others, cpu in rows:
        print(f"{name:18} {seconds:8.1f} {matches / seconds:10.2f} {hands / seconds:9,.0f}"
              f" {base / seconds:8.2f}x {others:6.0%} {cpu / matches:12.3f}")
    # Twice the matches of 1 hand: the difference is what a match costs besides its hands.
    per_match = (bare[1][2] - bare[0][2]) / matches
    print(f"1 hand a match, --jobs 1: {per_match * 1000:.0f} ms of CPU a match besides its hands"
          f" ({(bare[1][0] - bare[0][0]) / matches * 1000:.0f} ms of wall time); the rest,"
          f" paid once: {bare[0][2] - per_match * matches:.2f} CPU s")
    same = all(d == documents[0] for d in documents)
    print("standings identical in every setting:", "yes" if same else "NO")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Full matches with real bot processes: hands per second and the server's own CPU per hand.

    python benchmarks/match.py [--hands N] [--players P] [--holdem-players Q]

Plays P-player Kuhn (3 by default) with the minimal C bot built from kuhn_call_bot.c (needs
cc) and with the bundled Python bots, then Q-player no-limit and limit Hold'em (3 and 6 by
default) with holdem_call_bot.c and the bundled Python bots, each match pinned to one CPU as
`pokerbots run` does by default, logs written as usual. Targets (issue 2): at least 4,000
Kuhn hands/s with compiled bots, 1,500 with Python bots.
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


def build_c_bot(source: str, out: Path) -> Path | None:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    exe = out / Path(source).stem
    subprocess.run([cc, "-O2", "-o", str(exe), str(HERE / source)], check=True)
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
    parser.add_argument("--hands", type=int, default=20000, help="Kuhn hands with C bots")
    parser.add_argument("--players", type=int, default=3, help="Kuhn players")
    parser.add_argument("--holdem-players", type=int, nargs="*", default=[3, 6])
    args = parser.parse_args()
    rows = []
    python_bots = [ROOT / "bots" / name for name in ("call_bot.py", "random_bot.py")]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        logs = tmp / "logs"

        def play(name: str, bot, players: int, hands: int, game: str) -> None:
            rows.append((name, players, measure([str(bot)] * players, hands, game, logs)))

        kuhn_c = build_c_bot("kuhn_call_bot.c", tmp)
        holdem_c = build_c_bot("holdem_call_bot.c", tmp)
        if kuhn_c is None:
            print("no C compiler: skipping the compiled bots")
        else:
            play("kuhn, C check/call bots", kuhn_c, args.players, args.hands, "kuhn")
        for bot in python_bots:
            play(f"kuhn, Python {bot.name}", bot, args.players, args.hands // 2, "kuhn")
        for game in ("holdem-nl", "holdem-limit"):
            for players in args.holdem_players:
                if holdem_c is not None:
                    play(f"{game}, C check/call bots", holdem_c, players, args.hands // 4, game)
                for bot in python_bots:
                    play(f"{game}, Python {bot.name}", bot, players, args.hands // 8, game)
    print("Matches pinned to one CPU, logs written as usual")
    print(f"{'match':38} {'players':>7} {'hands/s':>9} {'server CPU/hand':>16}"
          f" {'bots CPU/hand':>14}")
    for name, players, r in rows:
        print(f"{name:38} {players:7} {r['hands/s']:9,.0f} {r['server us/hand']:13,.1f} us"
              f" {r['bots us/hand']:11,.1f} us")


if __name__ == "__main__":
    sys.exit(main())

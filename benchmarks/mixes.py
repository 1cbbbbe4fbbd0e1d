#!/usr/bin/env python3
"""What mixed replies do for the luck-adjusted figure, and what they cost.

    python benchmarks/mixes.py [--games kuhn,holdem-nl] [--rounds R] [--kuhn-hands N]
                               [--holdem-hands N] [--cost-rounds C] [--jobs J] [--repeat K]
                               [--seed S] [--keep DIR] [--no-cost] [--no-reduction]

For each game it plays real ``pokerbots tournament`` runs, duplicate, 3 players, the field of
``benchmarks/luck.py``: the bundled random and call bots and a third (Kuhn's 3-player
equilibrium in Kuhn, ``random_bot.py --all-in 0.02`` in no-limit Hold'em), twice: the bots
answering single actions, then the random and equilibrium bots answering with their mixes
(``--mix``; the call bot has nothing to mix). It prints side by side, for every bot, its
raw standard error and its luck-adjusted one (from the store, by the standings' own ``units``
and ``estimate``: one unit per deal set) and their ratio, against the goals: at most 0.4 on
Kuhn and 0.5 on no-limit, for the mixing bots. With R deal sets (48 unless ``--rounds``
says) a ratio is itself uncertain by about 1/sqrt(2R): a tenth for 48, a sixth for 16.

Then the cost: the mixing tournament of each game, with C deal sets (8 unless
``--cost-rounds`` says), played with ``--no-adjust`` and with the adjustments, in turn,
``--repeat`` times, the best of each counting: wall time and CPU
time (the tournament's processes and their bots'), and their ratios (the goal: at most 1.5;
on a machine others use too, the CPU ratio is the one to trust).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pokerbots.server.tournament import results_store, standings

ROOT = Path(__file__).resolve().parent.parent
RANDOM = ROOT / "bots" / "random_bot.py"
CALL = ROOT / "bots" / "call_bot.py"
KUHN3 = ROOT / "bots" / "kuhn_3p_equilibrium.py"

GOALS = {"kuhn": 0.4, "holdem-nl": 0.5}


def field(game: str, mix: bool) -> list[str]:
    """The bots: random, call and a third, the random and the third answering with mixes."""
    flag = " --mix" if mix else ""
    third = f"eq={KUHN3}{flag}" if game == "kuhn" else f"careful={RANDOM} --all-in 0.02{flag}"
    return [f"random={RANDOM}{flag}", f"call={CALL}", third]


def tournament(game: str, mix: bool, args, out: Path, rounds: int, adjust: bool = True) -> None:
    hands = args.kuhn_hands if game == "kuhn" else args.holdem_hands
    command = [sys.executable, "-m", "pokerbots.server.cli.main", "tournament",
               *field(game, mix), "--game", game, "--duplicate", "--hands", str(hands),
               "--rounds", str(rounds), "--seed", str(args.seed), "--out", str(out),
               "--jobs", str(args.jobs), "--transcripts", "none"]
    if not adjust:
        command.append("--no-adjust")
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)}\n{done.stderr}")


def errors(out: Path) -> dict[str, tuple[int, float, float]]:
    """Each bot's ``(units, raw standard error, luck-adjusted standard error)``."""
    store = results_store.open_store(out)
    try:
        rows = store.matches()
        rules = standings.rules_of(store.meta("options"))
    finally:
        store.close()
    raw = standings.units(rows, rules, "bankrolls")
    luck = standings.units(rows, rules, "luck_bankrolls")
    found = {}
    for name in raw:
        _, raw_se, units = standings.estimate(raw[name].values())
        _, luck_se, _ = standings.estimate(luck[name].values())
        found[name] = (units, raw_se, luck_se)
    return found


def reduction(game: str, args, keep: Path) -> None:
    hands = args.kuhn_hands if game == "kuhn" else args.holdem_hands
    print(f"duplicate 3-player {game}: {args.rounds} deal sets of {hands:,} hands"
          f" ({6 * args.rounds} matches) per run", flush=True)
    figures = {}
    for mix in (False, True):
        out = keep / f"{game}-{'mixes' if mix else 'single'}"
        tournament(game, mix, args, out, args.rounds)
        figures[mix] = errors(out)
    print(f"  {'bot':8} {'units':>5}   {'single actions: raw se':>22} {'luck se':>9}"
          f" {'luck/raw':>8}   {'mixes: raw se':>13} {'luck se':>9} {'luck/raw':>8}")
    for name in sorted(figures[False]):
        units, raw, luck = figures[False][name]
        _, raw_mix, luck_mix = figures[True][name]
        print(f"  {name:8} {units:5d}   {raw:22.4f} {luck:9.4f} {luck / raw:8.2f}"
              f"   {raw_mix:13.4f} {luck_mix:9.4f} {luck_mix / raw_mix:8.2f}", flush=True)
    print(f"  goal for the mixing bots: luck/raw at most {GOALS[game]}", flush=True)


def cost(game: str, args, keep: Path) -> None:
    hands = args.kuhn_hands if game == "kuhn" else args.holdem_hands
    times: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for repeat in range(args.repeat):
        for adjust in (False, True):
            out = keep / f"{game}-cost-{repeat}-{'adjust' if adjust else 'no-adjust'}"
            before = _children_cpu()
            start = time.perf_counter()
            tournament(game, True, args, out, args.cost_rounds, adjust=adjust)
            times[adjust].append((time.perf_counter() - start, _children_cpu() - before))
    (wall, cpu), (wall_plain, cpu_plain) = min(times[True]), min(times[False])
    print(f"cost, duplicate 3-player {game} of mixing bots, {args.cost_rounds} deal sets of"
          f" {hands:,} hands, --jobs {args.jobs}, best of {args.repeat}:")
    print(f"  --no-adjust:      {wall_plain:7.1f} s wall, {cpu_plain:7.1f} s CPU")
    print(f"  with adjustments: {wall:7.1f} s wall, {cpu:7.1f} s CPU")
    print(f"  ratio: {wall / wall_plain:.2f} wall, {cpu / cpu_plain:.2f} CPU (goal: at most 1.5)",
          flush=True)


def _children_cpu() -> float:
    """CPU seconds (user and system) of this process's ended children and theirs."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="kuhn,holdem-nl")
    parser.add_argument("--rounds", type=int, default=48, help="deal sets per tournament")
    parser.add_argument("--cost-rounds", type=int, default=8,
                        help="deal sets per tournament of the cost runs")
    parser.add_argument("--kuhn-hands", type=int, default=1000)
    parser.add_argument("--holdem-hands", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", default=None, help="keep the tournaments in this folder")
    parser.add_argument("--no-cost", action="store_true", help="skip the cost runs")
    parser.add_argument("--no-reduction", action="store_true",
                        help="skip the standard errors' runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        keep = Path(args.keep or tmp)
        keep.mkdir(parents=True, exist_ok=True)
        if not args.no_reduction:
            for game in args.games.split(","):
                reduction(game, args, keep)
        if not args.no_cost:
            for game in args.games.split(","):
                cost(game, args, keep)


if __name__ == "__main__":
    main()

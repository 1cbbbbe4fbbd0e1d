#!/usr/bin/env python3
"""What the luck adjustment costs, and how much noise it takes away.

    python benchmarks/luck.py cost [--hands N] [--rounds R] [--jobs J] [--repeat K]
    python benchmarks/luck.py reduction [--hands N] [--rounds R] [--games G,...] [--jobs J]
                                        [--modes plain,duplicate] [--keep DIR]

``cost`` plays the same duplicate 3-player no-limit tournament (the bundled random and call
bots and a random bot that rarely goes all-in) twice per repeat, alternating: its jobs with
both adjustments (all-in and luck) and with neither (a job's ``adjust`` false, what
``--no-adjust`` asks for), each through :func:`~pokerbots.server.tournament.job.play_match_job`
in a pool of J worker processes taking the matches in plan order, as the tournament's own pool
does (so a worker plays several seatings of a deal set and shares their equity work). It prints
the best wall time and CPU time (the workers' and their bots') of each and their ratios
(the target: at most 1.5).

``reduction`` plays real ``pokerbots tournament`` runs, 3 players, in each game with and
without ``--duplicate``, and prints for every bot its raw standard error, the all-in adjusted
one (no-limit) and the luck-adjusted one (from the store, by the standings' own ``units`` and
``estimate``: the same honest units), and ``luck / raw``. The target: at most 0.71 on
duplicate no-limit over duplicate alone. Without ``--duplicate`` it plays six times the deal
sets (the same number of hands); ``--keep`` keeps the tournament folders there.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pokerbots.server.play.options import limits_as_dict, limits_from_options
from pokerbots.server.tournament import plan, results_store, standings
from pokerbots.server.tournament.entrants import parse_entrants
from pokerbots.server.tournament.job import job_for, play_match_job

ROOT = Path(__file__).resolve().parent.parent
RANDOM = ROOT / "bots" / "random_bot.py"
CALL = ROOT / "bots" / "call_bot.py"
KUHN3 = ROOT / "bots" / "kuhn_3p_equilibrium.py"


def field(game: str) -> list[str]:
    """Random and call bots and a third bundled bot: Kuhn's 3-player equilibrium in Kuhn, a
    random bot that seldom goes all-in elsewhere."""
    third = f"eq={KUHN3}" if game == "kuhn" else f"careful={RANDOM} --all-in 0.02"
    return [f"random={RANDOM}", f"call={CALL}", third]


def cost(args) -> None:
    entrants = parse_entrants(field("holdem-nl"))
    names = [e.name for e in entrants]
    by_name = {e.name: e for e in entrants}
    options = {"game": "holdem-nl", "game_options": {}, "hands": args.hands}
    limits = limits_as_dict(limits_from_options())
    planned = plan.matches(names, 3, rounds=args.rounds, duplicate=True, seed=1)
    times: dict[bool, list[float]] = {True: [], False: []}
    cpu: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(args.repeat):
        for adjust in (True, False):
            with tempfile.TemporaryDirectory() as tmp:
                jobs = [job_for({"id": i, "seed": p.seed, "button": p.button,
                                 "seating": p.seating},
                                folder=Path(tmp) / p.folder, entrants=by_name,
                                options=options, limits=limits, transcripts="none",
                                adjust=adjust)
                        for i, p in enumerate(planned)]
                before = _children_cpu()
                start = time.perf_counter()
                pool = multiprocessing.get_context("spawn").Pool(args.jobs)
                results = list(pool.imap(play_match_job, jobs, chunksize=1))
                pool.close()
                pool.join()  # the workers' CPU time (their bots' too) counts once they end
                times[adjust].append(time.perf_counter() - start)
                cpu[adjust].append(_children_cpu() - before)
                assert all(r["status"] == "done" for r in results), results
                assert all(("luck_bankrolls" in r) == adjust for r in results)
            print(f"  adjust={adjust}: {times[adjust][-1]:.1f} s,"
                  f" CPU {cpu[adjust][-1]:.1f} s", flush=True)
    hands = len(planned) * args.hands
    both, neither = min(times[True]), min(times[False])
    print(f"duplicate 3-player no-limit, {len(planned)} matches of {args.hands} hands"
          f" ({hands:,} hands), --jobs {args.jobs}, best of {args.repeat}:")
    cpu_both, cpu_neither = min(cpu[True]), min(cpu[False])
    print(f"  neither adjustment: {neither:.1f} s wall, {cpu_neither:.1f} s CPU")
    print(f"  both adjustments:   {both:.1f} s wall, {cpu_both:.1f} s CPU")
    print(f"  ratio: {both / neither:.2f} wall, {cpu_both / cpu_neither:.2f} CPU (goal: at most"
          " 1.5; on a loaded machine the CPU ratio is the one to trust)")


def _children_cpu() -> float:
    """CPU seconds (user and system) of this process's ended children and theirs."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def reduction(args) -> None:
    print(f"{'game':13} {'mode':9} {'bot':8} {'units':>5} {'raw se':>9} {'allin se':>9}"
          f" {'luck se':>9} {'luck/raw':>8}")
    for game in args.games.split(","):
        for mode in args.modes.split(","):
            duplicate = mode == "duplicate"
            rounds = args.rounds if duplicate else args.rounds * 6  # the same hands played
            with tempfile.TemporaryDirectory() as tmp:
                out = Path(args.keep or tmp) / f"{game}-{mode}"
                command = [sys.executable, "-m", "pokerbots.server.cli.main", "tournament",
                           *field(game), "--game", game, "--hands", str(args.hands),
                           "--rounds", str(rounds), "--seed", str(args.seed), "--out",
                           str(out), "--jobs", str(args.jobs), "--transcripts", "none"]
                if duplicate:
                    command.append("--duplicate")
                done = subprocess.run(command, capture_output=True, text=True)
                if done.returncode != 0:
                    sys.exit(done.stderr)
                store = results_store.open_store(out)
                rows = store.matches()
                rules = standings.rules_of(store.meta("options"))
                store.close()
            figures = {key: standings.units(rows, rules, key)
                       for key in ("bankrolls", "allin_bankrolls", "luck_bankrolls")}
            for name in sorted(figures["bankrolls"]):
                raw = standings.estimate(figures["bankrolls"][name].values())
                allin = standings.estimate(figures["allin_bankrolls"].get(name, {}).values())
                luck = standings.estimate(figures["luck_bankrolls"][name].values())
                print(f"{game:13} {mode:9} {name:8}"
                      f" {raw[2]:5d} {raw[1]:9.4f} "
                      + (f"{allin[1]:9.4f}" if allin[1] is not None else f"{'-':>9}")
                      + f" {luck[1]:9.4f} {luck[1] / raw[1]:8.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("cost", "reduction"))
    parser.add_argument("--hands", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="holdem-nl,holdem-limit,leduc,kuhn")
    parser.add_argument("--modes", default="plain,duplicate")
    parser.add_argument("--keep", default=None, help="keep the tournaments in this folder")
    args = parser.parse_args()
    if args.what == "cost":
        args.hands = args.hands or 1000
        args.rounds = args.rounds or 2
        cost(args)
    else:
        args.hands = args.hands or 200
        args.rounds = args.rounds or 15
        reduction(args)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""How close is `pokerbots run` to the limit? Ours over the floor beside ours over ACPC.

    python benchmarks/floor.py [--reps R] [--kuhn-hands N] [--holdem-hands N] [--cpu K]
                               [--acpc ACPC_SOURCE] [--counts] [--budget]
                               [-- POKERBOTS COMMAND...]

The floor is ``floor_dealer.c`` (built here with cc): a dealer that starts the same bots on
pipes and sends them the very bytes `pokerbots run` sends, write for write, reading the
replies each write is owed and nothing else (no checks, no clock, no logs). The writes are
recorded beforehand with the real referee (seed 1, the same hands, each seat answering as the
always-call bots do), for each mode: as each comes (no pinning; the server sends a hand's
first messages to every seat at once; ours runs with ``--cpu auto`` as ``vs_acpc.py`` runs it,
which for a match alone tries both placements on its first hands and keeps the faster: pinned,
for these bots, so ours then sends what the pinned script sends) and pinned to CPU K with
taskset (the server's ``--cpu K``: each seat's messages wait for its next turn). As each comes the
floor never sleeps (``-s``: it yields the CPU until a reply is there, as ours does on several
CPUs, where a wake-up across CPUs is dear); pinned it blocks in read. The bots are this
folder's always-call C bots (``kuhn_call_bot.c``, ``holdem_call_bot.c``).

Each line: hands per second of ours (the whole ``pokerbots run`` command, as ``vs_acpc.py``
times it), of the floor, of the ACPC dealer (with ``--acpc``: a checkout of its source, built
as ``vs_acpc.py`` builds it), and ours ÷ floor, ours ÷ ACPC; medians of --reps runs, the three
interleaved so that load hits them alike.

--counts adds what load hardly distorts, per hand, for ours and the floor: the dealer
process's CPU (user + system), system calls and context switches, counted by ``perf stat
--no-inherit`` (the dealer alone, not its bots); ours less a 1-hand match (start-up and
teardown), the floor whole.

--budget adds what the goals leave for a hand, since the whole command is timed: ours' start-up
(a 1-hand match), the part of it no design that keeps trio, click and rich can avoid (this
Python importing them), the wall time a hand takes ours (less the start-up) and the floor, and
the most a hand may take ours for ours ÷ ACPC to reach the project's targets (1.5 Kuhn, 2.0
no-limit Hold'em, :data:`TARGETS`) with no more start-up than those imports, also as a multiple
of the floor's. Medians of --reps, each run beside the others of its row; it needs ``--acpc``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pokerbots.protocol.client import Client
from pokerbots.server.games import make_game
from pokerbots.server.referee.driver import LocalTable, drive
from pokerbots.server.referee.referee import Referee

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from vs_acpc import Failed, acpc_match, build_acpc, build_c, game_file  # noqa: E402

#: The ratios ours ÷ ACPC the compiled build keeps, in both modes (docs: Performance).
TARGETS = {"kuhn": 1.5, "holdem-nl": 2.0}
#: What a run of ours imports from the libraries the design names (trio for the processes,
#: click for the command line, rich for the results).
LIBRARIES = "import trio, click, rich.console, rich.table"

GAMES = {
    "kuhn": ("kuhn", {}, [], "kuhn_call_bot", "kuhn.limit.3p.game"),
    "holdem-nl": ("holdem-nl", {"stack": 20000, "small_blind": 50, "big_blind": 100},
                  ["--game", "holdem-nl", "--blinds", "50/100", "--stack", "20000"],
                  "holdem_call_bot", "holdem.nolimit.3p.game"),
}


class _Recorder:
    """A local table that also records each step's writes: (seat, bytes, replies owed)."""

    def __init__(self, seats, steps: list) -> None:
        self.table = LocalTable(seats)
        self.poll, self.answered = self.table.poll, self.table.answered
        self.steps = steps

    async def reply(self, seat: int) -> bytes:
        return await self.table.reply(seat)

    def post(self, exchange) -> None:
        self.table.post(exchange)
        seat, kinds = exchange.seat, exchange.kinds
        seats = range(len(exchange.messages)) if seat is None else (seat,)
        step = []
        for s, message in zip(seats, exchange.messages):
            if kinds is None:
                step.append((s, message, 1))
            else:
                step.append((s, b"".join(message), len(kinds[s])))
        self.steps.append(step)


def record_script(game_name: str, options: dict, hands: int, defer: bool, path: Path) -> int:
    """Write the floor's script of a 3-player round; return the bytes it sends."""
    game = make_game(game_name, 3, **options)
    referee = Referee(game, random.Random(1), hands=hands, defer=defer)
    seats = [Client(lambda state: state.check_or_call(), game=game.name) for _ in range(3)]
    steps: list = []
    coroutine = drive(referee, _Recorder(seats, steps))
    try:
        coroutine.send(None)
    except StopIteration:
        pass
    out = [struct.pack("<i", 3)]
    sent = 0
    for step in steps:
        out.append(struct.pack("<i", len(step)))
        for seat, data, owed in step:
            out.append(struct.pack("<iii", seat, owed, len(data)))
            out.append(data)
            sent += len(data)
    out.append(struct.pack("<i", 0))
    path.write_bytes(b"".join(out))
    return sent


def timed(command: list[str], **kwargs) -> tuple[float, str]:
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    seconds = time.perf_counter() - start
    if result.returncode:
        raise SystemExit(f"{command[0]} failed ({result.returncode}): {result.stderr[-600:]}")
    return seconds, result.stdout


def counts(command: list[str]) -> dict:
    """Task clock (us), system calls and context switches of the command's own process."""
    result = subprocess.run(["perf", "stat", "--no-inherit", "-x", ",", "-e",
                             "task-clock,raw_syscalls:sys_enter,context-switches", *command],
                            capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(f"perf stat failed: {result.stderr[-600:]}")
    values = {}
    for line in result.stderr.splitlines():
        fields = line.split(",")
        if len(fields) > 3 and fields[2] in ("task-clock", "raw_syscalls:sys_enter",
                                             "context-switches"):
            values[fields[2]] = float(fields[0])
    return {"cpu": values["task-clock"] * 1000, "syscalls": values["raw_syscalls:sys_enter"],
            "switches": values["context-switches"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--kuhn-hands", type=int, default=20000)
    parser.add_argument("--holdem-hands", type=int, default=5000)
    parser.add_argument("--cpu", type=int, default=1, help="the CPU of the pinned mode")
    parser.add_argument("--acpc", type=Path, metavar="ACPC_SOURCE",
                        help="a checkout of the ACPC dealer's source: its column too")
    parser.add_argument("--counts", action="store_true",
                        help="also CPU, system calls and context switches per hand (perf stat)")
    parser.add_argument("--budget", action="store_true",
                        help="also the start-up, and the time a hand may take for the targets")
    parser.add_argument("--modes", default="free,pinned", help="free, pinned or both")
    parser.add_argument("ours", nargs="*", help="the server command (default: pokerbots beside"
                        " this Python)")
    args = parser.parse_args()
    ours_cmd = args.ours or [str(Path(sys.executable).with_name("pokerbots"))]
    if args.budget and args.acpc is None:
        parser.error("--budget needs the ACPC dealer (--acpc ACPC_SOURCE)")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        floor = build_c("floor_dealer.c", tmp)
        bots = {bot: build_c(f"{bot}.c", tmp) for _, _, _, bot, _ in GAMES.values()}
        binaries = build_acpc(args.acpc, tmp) if args.acpc is not None else None
        python = Path(ours_cmd[0]).with_name("python")
        python_cmd = str(python) if python.exists() else sys.executable
        budgets = []
        print(f"ours: {' '.join(ours_cmd)}; medians of {args.reps}; {os.cpu_count()} CPUs")
        print(f"{'game':10} {'mode':14} {'ours h/s':>9} {'floor h/s':>10} {'ACPC h/s':>9}"
              f" {'ours/floor':>11} {'ours/ACPC':>10}")
        rows = []
        for mode in args.modes.split(","):
            pinned = mode == "pinned"
            pin = ["taskset", "-c", str(args.cpu)] if pinned else []
            # On several CPUs the floor spins as ours does (a wake-up across CPUs is dear).
            dealer = [str(floor)] if pinned else [str(floor), "-s"]
            for label, (game, options, flags, bot, acpc_file) in GAMES.items():
                hands = args.kuhn_hands if game == "kuhn" else args.holdem_hands
                script = tmp / f"{label}-{mode}.script"
                record_script(game, options, hands, pinned, script)
                exe = str(bots[bot])
                ours = [*ours_cmd, "run", exe, exe, exe, "--hands", str(hands), "--seed", "1",
                        *flags, "--cpu", str(args.cpu) if pinned else "auto"]
                one = [*ours[:ours.index("--hands") + 1], "1", *ours[ours.index("--hands") + 2:]]
                times: dict[str, list[float]] = {"ours": [], "floor": [], "acpc": [],
                                                 "start": [], "libraries": []}
                for rep in range(args.reps):
                    if binaries is not None:
                        game_path = game_file(args.acpc, acpc_file, (game, options), tmp)
                        times["acpc"].append(acpc_match(binaries, game_path, hands, pin, tmp,
                                                        timeout=600))
                    times["floor"].append(timed([*pin, *dealer, str(script), exe])[0])
                    logs = tmp / f"logs-{label}-{mode}-{rep}"
                    times["ours"].append(timed([*ours, "--logs", str(logs)],
                                               stdin=subprocess.DEVNULL)[0])
                    if args.budget:
                        times["start"].append(timed([*one, "--logs", str(logs)],
                                                    stdin=subprocess.DEVNULL)[0])
                        times["libraries"].append(timed([*pin, python_cmd, "-c", LIBRARIES])[0])
                    shutil.rmtree(logs, ignore_errors=True)
                took = {k: statistics.median(v) if v else float("nan") for k, v in times.items()}
                med = {k: hands / took[k] for k in ("ours", "floor", "acpc")}
                if args.budget:
                    budgets.append((label, mode, hands, took))
                print(f"{label:10} {mode:14} {med['ours']:9,.0f} {med['floor']:10,.0f}"
                      f" {med['acpc']:9,.0f} {med['ours'] / med['floor']:11.2f}"
                      f" {med['ours'] / med['acpc']:10.2f}", flush=True)
                if args.counts:
                    whole = counts([*ours, "--logs", str(tmp / "c1")])
                    start = counts([*one, "--logs", str(tmp / "c2")])
                    shutil.rmtree(tmp / "c1", ignore_errors=True)
                    shutil.rmtree(tmp / "c2", ignore_errors=True)
                    base = counts([*pin, *dealer, str(script), exe])
                    rows.append((label, mode, {k: (whole[k] - start[k]) / (hands - 1)
                                               for k in whole},
                                 {k: base[k] / hands for k in base}))
        if rows:
            print("\nper hand, the dealer process alone (perf stat --no-inherit):")
            print(f"{'game':10} {'mode':8} {'':6} {'CPU us':>7} {'syscalls':>9} {'switches':>9}")
            for label, mode, ours_row, floor_row in rows:
                for who, row in (("ours", ours_row), ("floor", floor_row)):
                    print(f"{label:10} {mode:8} {who:6} {row['cpu']:7.1f} {row['syscalls']:9.1f}"
                          f" {row['switches']:9.2f}")
        if budgets:
            print_budgets(budgets)


def print_budgets(budgets: list) -> None:
    """The --budget table: milliseconds for the start-up, microseconds of wall time a hand."""
    print("\nwhat the targets leave for a hand (wall time; start-up ms, a hand us):")
    print(f"{'game':10} {'mode':8} {'start-up':>8} {'libraries':>9} {'ours':>7} {'floor':>7}"
          f" {'target':>6} {'allowed':>8} {'÷ floor':>8}")
    for label, mode, hands, took in budgets:
        ours = (took["ours"] - took["start"]) / (hands - 1) * 1e6
        floor = took["floor"] / hands * 1e6
        goal = TARGETS[label]
        allowed = (took["acpc"] / goal - took["libraries"]) / hands * 1e6
        print(f"{label:10} {mode:8} {took['start'] * 1e3:8.0f} {took['libraries'] * 1e3:9.0f}"
              f" {ours:7.1f} {floor:7.1f} {goal:6.1f} {allowed:8.1f} {allowed / floor:8.2f}")


if __name__ == "__main__":
    try:
        main()
    except Failed as failure:
        sys.exit(f"floor.py: {failure}")

#!/usr/bin/env python3
"""Full matches with real bot processes: hands per second, the server's CPU per hand by part,
its memory, and the ratio to the ACPC reference dealer.

    python benchmarks/match.py [--hands N] [--reps R] [--acpc ACPC_SOURCE]

1. Matches as `pokerbots run` plays them (pinned to one CPU, logs written): 3-player Kuhn and
   no-limit Hold'em (stacks 20000, blinds 50/100, as the ACPC comparison plays it) with minimal
   C check/call bots (built from kuhn_call_bot.c and holdem_call_bot.c with cc), limit Hold'em
   and 6-player no-limit, and the bundled Python bots.
2. The server's CPU per hand by part, for the C-bot matches: the referee and the game alone
   (in-process; the scripted replies' own small cost included), writing hands.jsonl, and the
   rest (pipes, scheduling, the driver and the table).
3. The server's peak memory after N and 4N hands (it must not grow with the hands).
4. With --acpc (a checkout of the ACPC dealer's source): ``vs_acpc.py``'s side-by-side ratio to
   the ACPC dealer, as each comes and both pinned to CPU 1.

Figures are medians of --reps runs; CPU times are user + system of this process.
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pokerbots.protocol.wire import GOODBYE_BYTES, money_reply
from pokerbots.server.games import make_game
from pokerbots.server.play.match import MatchConfig, run_match
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee
from pokerbots.server.seats.arguments import parse_bot

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: (label, game, options, players, C bot source)
MATCHES = [
    ("kuhn", "kuhn", {}, 3, "kuhn_call_bot.c"),
    ("holdem-nl", "holdem-nl", {"stack": 20000, "small_blind": 50, "big_blind": 100}, 3,
     "holdem_call_bot.c"),
    ("holdem-limit", "holdem-limit", {}, 3, "holdem_call_bot.c"),
    ("holdem-nl 6p", "holdem-nl", {}, 6, "holdem_call_bot.c"),
]


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def build(source: str, out: Path) -> Path | None:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    exe = out / Path(source).stem
    if not exe.exists():
        subprocess.run([cc, "-O2", "-o", str(exe), str(HERE / source)], check=True)
    return exe


def play(bot, players: int, hands: int, game: str, options: dict, logs: Path) -> dict:
    """One match as `pokerbots run` plays it: hands/s and the server's CPU per hand."""
    config = MatchConfig(bots=[parse_bot(str(bot))] * players, game=game, game_options=options,
                         hands=hands, seed=1, logs=logs, cpu=None)
    from pokerbots.server.confine.cpus import claim_cpu

    config.cpu = claim_cpu()
    cpu0, start = cpu_seconds(), time.perf_counter()
    outcome, _ = run_match(config)
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu0
    if outcome.fault is not None:
        raise SystemExit(f"benchmark match failed:\n{outcome.fault}")
    return {"hands/s": hands / seconds, "server": cpu / hands * 1e6}


class _Scripted:
    """A seat that answers at once with a correct reply: the referee's cost alone."""

    def __init__(self, referee: Referee, seat: int) -> None:
        self.referee, self.seat = referee, seat

    def receive(self, message: bytes) -> bytes:
        head = message[:4]
        if head == b"play":
            return b"BET %d" % self.referee._hand.legal().call
        if head == b"init":
            return b"READY"
        if head == b"end_":
            return b"OK" if message[4:5] == b"h" else GOODBYE_BYTES
        bankrolls, s = self.referee.bankrolls, self.seat
        return money_reply(bankrolls[s:] + bankrolls[:s])


def referee_alone(game: str, options: dict, players: int, hands: int) -> float:
    """CPU per hand of the referee and the game with every reply scripted (no I/O)."""
    referee = Referee(make_game(game, players, **options), random.Random(1), hands=hands)
    cpu0 = cpu_seconds()
    play_local(referee, [_Scripted(referee, s) for s in range(players)])
    return (cpu_seconds() - cpu0) / hands * 1e6


def logging_alone(game: str, options: dict, players: int, hands: int, logs: Path) -> float:
    """CPU per hand of writing hands.jsonl for the hands the referee plays."""
    from pokerbots.server.logs.writer import MatchLog

    records: list[dict] = []
    referee = Referee(make_game(game, players, **options), random.Random(1), hands=hands,
                      on_hand=records.append)
    play_local(referee, [_Scripted(referee, s) for s in range(players)])
    logs.mkdir(parents=True, exist_ok=True)
    log = MatchLog(Path(tempfile.mkdtemp(dir=logs)), [f"bot{s}" for s in range(players)],
                   transcripts="none")
    cpu0 = cpu_seconds()
    for record in records:
        log.hand(record)
    return (cpu_seconds() - cpu0) / hands * 1e6


def peak_memory(bot, hands: int, logs: Path) -> float:
    """The peak RSS (MiB) of a server process that played ``hands`` Kuhn hands."""
    code = ("import resource,sys;from pathlib import Path;"
            "from pokerbots.server.seats.arguments import parse_bot;"
            "from pokerbots.server.play.match import MatchConfig,run_match;"
            f"run_match(MatchConfig(bots=[parse_bot({str(bot)!r})]*3,hands={hands},seed=1,"
            f"logs=Path({str(logs)!r}),transcripts='none'));"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return int(out.stdout.split()[-1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10000, help="Kuhn hands a match (C bots)")
    parser.add_argument("--reps", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--acpc", type=Path, metavar="ACPC_SOURCE",
                        help="a checkout of the ACPC dealer's source: compare with it too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        logs = tmp / "logs"
        print("1. Matches (pinned to one CPU, logs written), medians of", args.reps)
        print(f"   {'match':34} {'players':>7} {'hands/s':>9} {'server CPU/hand':>16}")
        parts = {}
        for label, game, options, players, source in MATCHES:
            hands = args.hands if game == "kuhn" else args.hands // 4
            rows = {"C check/call bots": build(source, tmp)}
            if players == 3:
                rows["Python call_bot.py"] = ROOT / "bots" / "call_bot.py"
            for kind, bot in rows.items():
                if bot is None:
                    continue
                n = hands if kind.startswith("C") else hands // 2
                runs = [play(bot, players, n, game, options, logs) for _ in range(args.reps)]
                rate = statistics.median(r["hands/s"] for r in runs)
                server = statistics.median(r["server"] for r in runs)
                print(f"   {label + ', ' + kind:34} {players:7} {rate:9,.0f} {server:13,.1f} us")
                if kind.startswith("C"):
                    parts[label] = (game, options, players, n, server)
        print("\n2. Server CPU per hand by part (C bots)")
        print(f"   {'match':14} {'referee+game':>13} {'hands.jsonl':>12} {'pipes, rest':>12}"
              f" {'whole':>8}")
        for label, (game, options, players, n, whole) in parts.items():
            referee = statistics.median(referee_alone(game, options, players, n)
                                        for _ in range(args.reps))
            jsonl = statistics.median(logging_alone(game, options, players, n, logs)
                                      for _ in range(args.reps))
            print(f"   {label:14} {referee:10.1f} us {jsonl:9.1f} us"
                  f" {whole - referee - jsonl:9.1f} us {whole:5.0f} us")
        bot = build("kuhn_call_bot.c", tmp)
        if bot is not None:
            small, large = (peak_memory(bot, h, logs) for h in (args.hands, 4 * args.hands))
            print(f"\n3. Server peak memory, Kuhn: {small:.1f} MiB after {args.hands:,} hands,"
                  f" {large:.1f} MiB after {4 * args.hands:,}")
    if args.acpc is None:
        print("\n4. ACPC comparison skipped (give --acpc ACPC_SOURCE)")
        return
    pokerbots = str(Path(sys.executable).with_name("pokerbots"))
    for mode in ([], ["--cpu", "1"]):
        print(f"\n4. vs_acpc.py {' '.join(mode) or '(as each comes)'}")
        result = subprocess.run([sys.executable, str(HERE / "vs_acpc.py"), str(args.acpc),
                                 "--reps", str(args.reps), *mode, "--", pokerbots],
                                capture_output=True, text=True)
        for line in result.stdout.splitlines():
            if "ours ÷ ACPC" in line:
                print("  ", line)
        if result.returncode:
            print("   (a measurement failed)", result.stderr[-400:])


if __name__ == "__main__":
    sys.exit(main())

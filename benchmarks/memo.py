"""What each memo table saves: the server's instructions per hand with it and without it.

Run as ``python benchmarks/memo.py`` (valgrind needed; use the compiled build's python for the
figures of docs/performance.md, "The caches": ``--python <venv>/bin/python``).

Each run plays a 3-player match in-process with the match's own referee and logs (the real
``prepare``, deferred as on one CPU) against clients that check or call (and, in the third
workload, fold or raise at random), under callgrind, with one memo table turned off
(``POKERBOTS_MEMO_OFF``: it keeps nothing) or none. A hand's cost is (a match of N hands less
a match of 1) ÷ (N - 1); a table's saving is its cost off less its cost on. The clients' work
is the same in every run (they receive the same bytes), so the difference is the server's
alone, and callgrind counts alike from run to run (``PYTHONHASHSEED`` and the paths are fixed;
``--check`` shows how alike), unlike a match of processes whose waits vary.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: The workloads: (game, its options, how the seats play). "call": every seat checks or
#: calls (the always-call bots of the other benchmarks); "random": each seat folds, calls or
#: raises to a random size with a generator of its own (the same choices in every run).
GAMES = {
    "kuhn": ("kuhn", {}, "call"),
    "holdem-nl": ("holdem-nl", {"stack": 20000, "small_blind": 50, "big_blind": 100}, "call"),
    "holdem-nl, random": ("holdem-nl", {"stack": 20000, "small_blind": 50, "big_blind": 100},
                          "random"),
}

#: The match, played in the child: argv is the game, its options (repr), the hands, the log
#: folder to make and how the seats play. The clients do not check their own replies (that
#: reads them with the wire's memo too).
PLAY = """
import ast, random, sys
from pathlib import Path
from pokerbots.protocol.client import Client
from pokerbots.server.play.match import MatchConfig, prepare
from pokerbots.server.referee.driver import play_local
from pokerbots.server.seats.bots import BotSpec

game, options, hands = sys.argv[1], ast.literal_eval(sys.argv[2]), int(sys.argv[3])
bots = [BotSpec(label=f"bot{s}", argv=("bot",)) for s in range(3)]
config = MatchConfig(bots=bots, game=game, game_options=options, seed=1, hands=hands,
                     folder=Path(sys.argv[4]), cpu=0, transcripts="none")
match = prepare(config)

def seat(n):
    rng = random.Random(n)
    def decide(state):
        r = rng.random()
        if sys.argv[5] == "random":
            if r < 0.15 and state.fold():
                return state.fold()
            if r > 0.8 and state.raise_range:
                return state.raise_to(rng.randint(*state.raise_range))
        return state.check_or_call()
    return Client(decide, game=game, check=False)

play_local(match.referee, [seat(n) for n in range(3)])
match.log.flush()
match.log.close(completed=True)
"""


def tables(python: str) -> dict[str, int]:
    """Every memo table the server makes, with its bound."""
    code = ("import pokerbots.server.referee.render, pokerbots.server.hands.encoding, "
            "pokerbots.server.scoring.equity, pokerbots.server.confine.sandbox, "
            "pokerbots.server.tournament.standings, pokerbots.server.service.site.ladder\n"
            "from pokerbots.protocol.memo import TABLES\n"
            "for name, memo in TABLES.items(): print(name, memo.bound)")
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
    return {name: int(bound) for name, bound in (line.split() for line in out.stdout.split("\n")
                                                 if line)}


def count(python: str, game: str, hands: int, off: str) -> int:
    """The instructions of one run (the whole process) under callgrind."""
    name, options, policy = GAMES[game]
    # The switch padded to one length (the names' spaces are dropped where it is read), and
    # "none" (no table's name) when every table is on: another environment shifts every
    # allocation after it, and with them when the collector runs, by more than a small table
    # saves.
    env = {**os.environ, "PYTHONHASHSEED": "0", "POKERBOTS_MEMO_OFF": off.ljust(64)}
    # The same paths every run: a name of another length or other letters is other work.
    work = Path(tempfile.gettempdir()) / f"pokerbots-memo-{os.getuid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        out = work / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python,
                        "-c", PLAY, name, repr(options), str(hands), str(work / "match"),
                        policy],
                       env=env, capture_output=True, check=True, cwd=work)
        text = out.read_text(errors="replace")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    found = re.search(r"^(?:summary|totals):\s*(\d+)", text, re.MULTILINE)
    if found is None:
        raise SystemExit("callgrind wrote no total")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter of the build to measure (default: this one)")
    parser.add_argument("--kuhn-hands", type=int, default=2000)
    parser.add_argument("--holdem-hands", type=int, default=500)
    parser.add_argument("--only", default="", help="comma-separated memo names (default: all)")
    parser.add_argument("--check", action="store_true",
                        help="count the same run twice (how alike two counts are), nothing else")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("memo.py needs valgrind (callgrind)")
    bounds = tables(args.python)
    names = [n for n in bounds if not args.only or n in args.only.split(",")]
    hands = {"kuhn": args.kuhn_hands, "holdem-nl": args.holdem_hands,
             "holdem-nl, random": args.holdem_hands}
    if args.check:
        counts = [count(args.python, "kuhn", 200, "none") for _ in range(2)]
        print(f"two runs alike: {counts[0]:,} and {counts[1]:,} instructions")
        return
    per_hand: dict[tuple[str, str], float] = {}
    for game in GAMES:
        one = count(args.python, game, 1, "none")
        for off in ["none", *names, "all"]:
            big = count(args.python, game, hands[game], off)
            per_hand[game, off] = (big - one) / (hands[game] - 1)
            print(f"# {game} off={off}: {per_hand[game, off]:,.0f} a hand",
                  file=sys.stderr, flush=True)
    print("| memo | bound | " + " | ".join(GAMES) + " |")
    print("| --- | --- |" + " --- |" * len(GAMES))
    for off in [*names, "all"]:
        saved = [f"{per_hand[game, off] - per_hand[game, 'none']:,.0f}" for game in GAMES]
        label = "all of them" if off == "all" else f"`{off}`"
        bound = "" if off == "all" else f"{bounds[off]:,}"
        print(f"| {label} | {bound} | " + " | ".join(saved) + " |")
    print("| (a hand, every memo on) | | "
          + " | ".join(f"{per_hand[game, 'none']:,.0f}" for game in GAMES) + " |")


if __name__ == "__main__":
    main()

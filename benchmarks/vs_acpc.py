#!/usr/bin/env python3
"""`pokerbots run` against the ACPC reference dealer: hands per second, as a ratio.

    python benchmarks/vs_acpc.py ACPC_SOURCE [--reps N] [--cpu K] [--kuhn-hands N]
                                 [--holdem-hands N] [--timeout S] [-- POKERBOTS COMMAND...]

ACPC_SOURCE is a checkout of the ACPC dealer's public source, ``project_acpc_server`` (the
folder that holds ``dealer.c``, ``game.c``, ``rng.c`` and ``net.c``, or a folder with
``project_acpc_server/`` in it). The dealer is built from it with cc into a temporary folder,
with the flags of its own Makefile; nothing is written into the checkout.

Both servers play the same games with always-call bots, so that every hand is the same work
whatever the cards: 3-player Kuhn (the ACPC's ``kuhn.limit.3p.game``) and 3-player no-limit
Hold'em (``holdem.nolimit.3p.game``: stacks 20000, blinds 50/100, reset every hand; where the
checkout has no such file, the one ``pokerbots export --format acpc`` writes, byte for byte the
same). The matches are interleaved (ACPC, ours, ACPC, ours...), so that load from elsewhere on
the machine hits both alike, and each figure is the median of --reps matches:

- ACPC: ``dealer MATCH GAMEFILE HANDS SEED p1 p2 p3 -q`` (its log written), and one
  ``acpc_call_player`` (built from this folder's ``acpc_call_player.c`` against the checkout's
  game code) on each port it prints; wall time from the dealer's start until the dealer and
  every player have exited. The log must hold every hand.
- Ours: ``POKERBOTS run BOT BOT BOT --hands N --seed 1 --logs TMP`` (+ ``--game holdem-nl
  --blinds 50/100 --stack 20000`` for Hold'em), BOT being ``kuhn_call_bot.c`` or
  ``holdem_call_bot.c`` built with cc: the command as a user types it, logs written, with the
  default ``--cpu auto``; wall time of the whole command, start-up included. Its
  ``summary.json`` must count every hand.

``--cpu K`` pins both sides to CPU K: ours with ``--cpu K``, the dealer and its players under
``taskset -c K``. Without it ours places itself (``--cpu auto``) and the dealer runs unpinned.
The server command defaults to the ``pokerbots`` beside this Python. It prints one line per
match pair, then ``ours ÷ ACPC`` for each game; exit status 0 whatever the ratio, 1 when a
match failed (or played the wrong number of hands), 2 on a bad command line.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: The dealer's sources, as its Makefile builds it.
DEALER_SOURCES = ("game.c", "rng.c", "net.c", "dealer.c")

#: (label, ACPC game file, our game and its options, our flags, the C bot for ours).
GAMES = [
    ("kuhn 3p", "kuhn.limit.3p.game", ("kuhn", {}), [], "kuhn_call_bot.c"),
    ("holdem-nl 3p", "holdem.nolimit.3p.game",
     ("holdem-nl", {"stack": 20000, "small_blind": 50, "big_blind": 100}),
     ["--game", "holdem-nl", "--blinds", "50/100", "--stack", "20000"], "holdem_call_bot.c"),
]


class Failed(Exception):
    """A measurement that did not measure: a build or a match failed."""


def acpc_source(path: Path) -> Path:
    """The folder of the dealer's sources in a checkout."""
    for folder in (path, path / "project_acpc_server"):
        if all((folder / name).is_file() for name in DEALER_SOURCES):
            return folder
    raise Failed(f"{path} is not a checkout of the ACPC dealer's source (no dealer.c, game.c,"
                 " rng.c and net.c there, nor in project_acpc_server/ under it)")


def compiler() -> str:
    found = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if found is None:
        raise Failed("no C compiler (cc; or set CC)")
    return found


def cc(arguments: list[str], cwd: Path | None = None) -> None:
    result = subprocess.run([compiler(), *arguments], cwd=cwd, capture_output=True, text=True)
    if result.returncode:
        raise Failed(f"cc {' '.join(arguments)} failed:\n{result.stderr[-2000:]}")


def build_acpc(source: Path, out: Path) -> dict[str, Path]:
    """The dealer and the always-call player, built from ``source`` into ``out``."""
    source = acpc_source(source)
    programs = {"dealer": out / "dealer", "acpc_call_player": out / "acpc_call_player"}
    cc(["-O3", "-Wall", "-o", str(programs["dealer"]), *DEALER_SOURCES, "-lm"], cwd=source)
    cc(["-O3", "-Wall", "-I", str(source), "-o", str(programs["acpc_call_player"]),
        str(HERE / "acpc_call_player.c"), *(str(source / n) for n in DEALER_SOURCES[:3]),
        "-lm"])
    return programs


def build_c(name: str, out: Path) -> Path:
    """One of this folder's C programs (the always-call bots, the floor), built into ``out``."""
    exe = out / Path(name).stem
    if not exe.exists():
        cc(["-O2", "-o", str(exe), str(HERE / name)])
    return exe


def game_file(source: Path, name: str, game: tuple[str, dict], out: Path) -> Path:
    """The checkout's game file, or the same one as pokerbots writes it."""
    theirs = acpc_source(source) / name
    if theirs.is_file():
        return theirs
    from pokerbots.server.games import make_game
    from pokerbots.server.logs.acpc_format import AcpcGame

    ours = out / name
    ours.write_text(AcpcGame.of(make_game(game[0], 3, **game[1])).text())
    return ours


def acpc_match(programs: dict[str, Path], game: Path, hands: int, pin: list[str], tmp: Path,
               timeout: float) -> float:
    """Wall seconds of one ACPC match, from the dealer's start until every player is done."""
    seed = random.randrange(1_000_000)  # the dealer draws its ports from its seed
    folder = Path(tempfile.mkdtemp(dir=tmp))
    start = time.perf_counter()
    dealer = subprocess.Popen([*pin, str(programs["dealer"]), "match", str(game), str(hands),
                               str(seed), "p1", "p2", "p3", "-q"], cwd=folder,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    players: list[subprocess.Popen] = []
    try:
        ports = (dealer.stdout.readline() if dealer.stdout else "").split()
        with open(folder / "players.err", "w") as said:
            players = [subprocess.Popen([*pin, str(programs["acpc_call_player"]), str(game),
                                         "127.0.0.1", port], stderr=said) for port in ports]
        _, errors = dealer.communicate(timeout=timeout)
        codes = [dealer.returncode, *(p.wait(timeout=timeout) for p in players)]
    except subprocess.TimeoutExpired:
        raise Failed(f"an ACPC match took over {timeout:g} s") from None
    finally:
        for process in (dealer, *players):
            if process.poll() is None:
                process.kill()
                process.wait()
    seconds = time.perf_counter() - start
    errors += (folder / "players.err").read_text()
    complaint = re.search(r"^(?:WARNING|ERROR).*", errors, re.MULTILINE)
    if any(codes) or len(ports) != 3 or complaint:
        said = complaint.group(0) if complaint else errors.strip()[-300:]
        raise Failed(f"an ACPC match failed (exit codes {codes}): {said}")
    log = (folder / "match.log").read_text().splitlines()
    if sum(line.startswith("STATE:") for line in log) != hands:
        raise Failed(f"an ACPC match's log does not hold {hands} hands")
    shutil.rmtree(folder)
    return seconds


def ours_match(ours: list[str], bot: Path, flags: list[str], hands: int, cpu: list[str],
               tmp: Path, timeout: float) -> float:
    """Wall seconds of one ``pokerbots run``, the whole command."""
    logs = Path(tempfile.mkdtemp(dir=tmp))
    command = [*ours, "run", str(bot), str(bot), str(bot), "--hands", str(hands), "--seed", "1",
               "--logs", str(logs), *cpu, *flags]
    start = time.perf_counter()
    try:
        result = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True,
                                text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failed(f"pokerbots run took over {timeout:g} s") from None
    seconds = time.perf_counter() - start
    if result.returncode:
        raise Failed(f"pokerbots run exited {result.returncode}:\n{result.stderr[-1500:]}")
    played = [m.group(1) for s in logs.glob("*/summary.json")
              for m in [re.search(r'"hands_played": *(\d+)', s.read_text())] if m]
    if played != [str(hands)]:
        raise Failed(f"pokerbots run did not play {hands} hands: {played}")
    shutil.rmtree(logs)
    return seconds


def machine() -> str:
    """The CPU model, the CPUs this process may use and the kernel."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {len(os.sched_getaffinity(0))} CPUs, {platform.system()} {platform.release()}"


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("takes a positive whole number")
    return value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("acpc", type=Path, metavar="ACPC_SOURCE",
                        help="a checkout of the ACPC dealer's source (project_acpc_server)")
    parser.add_argument("--reps", type=positive, default=3,
                        help="matches per side and game; figures are medians (default 3)")
    parser.add_argument("--cpu", type=int, help="pin both sides to this CPU")
    parser.add_argument("--kuhn-hands", type=positive, default=20000)
    parser.add_argument("--holdem-hands", type=positive, default=5000)
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds one match may take (default 300)")
    parser.epilog = ("After --, how to run the server (default: the pokerbots beside this"
                     " Python), e.g. -- .venv/bin/pokerbots")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    beside = Path(sys.executable).with_name("pokerbots")
    ours = argv[cut + 1:] or [str(beside) if beside.exists() else "pokerbots"]
    if shutil.which(ours[0]) is None:
        parser.error(f"cannot run {ours[0]!r}: give the server's command after --")
    pin = [] if args.cpu is None else ["taskset", "-c", str(args.cpu)]
    cpu = [] if args.cpu is None else ["--cpu", str(args.cpu)]
    if pin and shutil.which("taskset") is None:
        parser.error("--cpu needs taskset (util-linux)")
    hands = {"kuhn 3p": args.kuhn_hands, "holdem-nl 3p": args.holdem_hands}
    try:
        with tempfile.TemporaryDirectory(prefix="pokerbots-vs-acpc-") as name:
            tmp = Path(name)
            programs = build_acpc(args.acpc, tmp)
            print(f"machine: {machine()}")
            print(f"ours: {' '.join(ours)} run {' '.join(cpu) or '(--cpu auto)'}; ACPC:"
                  f" {' '.join(pin) or 'unpinned'}; {args.reps} matches of {args.kuhn_hands}"
                  f" Kuhn and {args.holdem_hands} Hold'em hands each", flush=True)
            results = []
            for label, file_name, game, flags, bot_source in GAMES:
                game_path = game_file(args.acpc, file_name, game, tmp)
                bot = build_c(bot_source, tmp)
                n = hands[label]
                theirs_rates, ours_rates = [], []
                for rep in range(1, args.reps + 1):
                    a = acpc_match(programs, game_path, n, pin, tmp, args.timeout)
                    b = ours_match(ours, bot, flags, n, cpu, tmp, args.timeout)
                    theirs_rates.append(n / a)
                    ours_rates.append(n / b)
                    print(f"{label:12} match {rep}: ACPC {n / a:,.0f} hands/s ({a:.3f} s),"
                          f" ours {n / b:,.0f} hands/s ({b:.3f} s)", flush=True)
                results.append((label, statistics.median(ours_rates),
                                statistics.median(theirs_rates)))
    except Failed as failure:
        print(f"vs_acpc.py: {failure}", file=sys.stderr)
        return 1
    print(f"medians of {args.reps}:")
    for label, ours_rate, theirs_rate in results:
        print(f"{label}: ours {ours_rate:,.0f} hands/s, ACPC {theirs_rate:,.0f},"
              f" ours ÷ ACPC {ours_rate / theirs_rate:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Soak: many short rounds back to back, bots drawn at random from the hostile ones and the
good ones. Afterwards: no stray process, no leaked file descriptor in the server, every log
folder complete, every summary naming the right culprit."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import pytest

from pokerbots.server.confine import reaper
from pokerbots.server.confine.limits import ResourceLimits
from pokerbots.server.play.match import MatchConfig, run_match
from pokerbots.server.seats.arguments import parse_bot
from pokerbots.server.seats.limits import Limits

from processes import processes_mentioning

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "programs" / "hostile" / "hostile.py"
GOOD = ROOT / "tests" / "programs" / "bad_bots" / "kuhn_bot.py"

#: Hostile modes that fault, and ones that misbehave without breaking a rule.
FAULTY = ["crash", "segv", "exit-before-init", "no-goodbye", "never-write", "two-lines",
          "long-line", "not-utf8", "empty-line", "fork-exit", "junk-stream", "never-read"]
HARMLESS = ["split --seconds 0.02", "stderr-flood", "setsid-grandchild", "setsid-orphan",
            "linger"]
ROUNDS = int(os.environ.get("POKERBOTS_SOAK_ROUNDS", "40"))


def test_a_short_soak(tmp_path):
    soak(tmp_path, rounds=8)


@pytest.mark.slow
def test_soak(tmp_path):
    soak(tmp_path, rounds=ROUNDS)


def soak(tmp_path, rounds: int) -> None:
    folder = tmp_path / "bots"
    folder.mkdir()
    shutil.copy(HOSTILE, folder / "hostile.py")
    shutil.copy(GOOD, folder / "good.py")
    rng = random.Random(20261122)
    children = reaper.children_of(os.getpid())
    fds = len(os.listdir("/proc/self/fd"))
    limits = Limits(reply=0.3, startup=3.0, stderr_cap=50_000,
                    resources=ResourceLimits(memory_mib=512))
    for number in range(rounds):
        players = rng.choice([2, 3])
        seats = []
        culprit = None
        for seat in range(players):
            roll = rng.random()
            if culprit is None and roll < 0.4:
                mode = rng.choice(FAULTY)
                culprit = seat
                seats.append(f"{folder / 'hostile.py'} {mode} --at-hand {rng.randrange(3)}")
            elif roll < 0.6:
                seats.append(f"{folder / 'hostile.py'} {rng.choice(HARMLESS)}")
            else:
                seats.append(str(folder / "good.py"))
        config = MatchConfig(bots=[parse_bot(s) for s in seats], hands=4, seed=number,
                             logs=tmp_path / "logs", limits=limits, cpu=None)
        outcome, path = run_match(config)
        summary = json.loads((path / "summary.json").read_text())
        hands = (path / "hands.jsonl").read_text().splitlines()
        assert len(hands) >= summary["hands_played"]
        for name in ["hands.txt", "timing.json", *[f"seat{s}.in" for s in range(players)],
                     *[f"seat{s}.stderr" for s in range(players)]]:
            assert (path / name).exists(), (path, name)
        if culprit is None:
            assert summary["result"] == "completed", (seats, summary["error"])
            assert summary["hands_played"] == 4
        else:
            assert summary["result"] == "failed", seats
            assert summary["error"]["seat"] == culprit, (seats, summary["error"])
            assert summary["error"]["bot"] == seats[culprit]
        assert processes_mentioning(str(folder)) == [], seats
    assert reaper.children_of(os.getpid()) <= children
    assert len(os.listdir("/proc/self/fd")) <= fds

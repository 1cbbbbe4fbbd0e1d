"""--cpu auto: matches started together claim distinct CPUs while there are free ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from waiting import wait_for

CLAIM = """
import sys, time
from pokerbots.server.confine.cpus import claim_cpu
print(claim_cpu(), flush=True)
sys.stdin.read()  # hold the claim until told to exit
"""


def test_processes_holding_claims_get_distinct_cpus_then_share_evenly(tmp_path):
    env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path))
    allowed = sorted(os.sched_getaffinity(0))
    holders = []
    try:
        for _ in range(2 * len(allowed) + 1):
            p = subprocess.Popen([sys.executable, "-c", CLAIM], env=env, text=True,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            holders.append((p, int(p.stdout.readline())))
        cpus = [cpu for _, cpu in holders]
        assert sorted(cpus[:len(allowed)]) == allowed  # one each while any is free
        assert sorted(cpus[:2 * len(allowed)]) == sorted(allowed * 2)  # then two each
        assert cpus[-1] in allowed  # then a CPU is shared rather than refused
        # A claim ends with its process: the next match gets that CPU back.
        first, cpu = holders.pop(0)
        first.stdin.close()
        first.wait(10)
        again = subprocess.run([sys.executable, "-c", CLAIM], env=env, input="", text=True,
                               capture_output=True, timeout=30)
        assert int(again.stdout) == cpu
    finally:
        for p, _ in holders:
            p.stdin.close()
            p.wait(10)


AFFINITY_BOT = """
import os, sys, time
from pokerbots.protocol.client import run
print("cpus", sorted(os.sched_getaffinity(0)), file=sys.stderr, flush=True)
hold = os.environ.get("HOLD_UNTIL")  # a file: play only once it exists
while hold and not os.path.exists(hold):
    time.sleep(0.01)
run(lambda state: state.check_or_call())
"""


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs to compare")
def test_two_matches_started_together_run_on_different_cpus(tmp_path):
    """The first match plays only once the second's bots have started, so that it still
    holds its CPU when the second claims one, however busy the machine."""
    bot = tmp_path / "affinity_bot.py"
    bot.write_text(AFFINITY_BOT)
    go = tmp_path / "go"
    runs = []
    for i in range(2):
        env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path))
        if i == 0:
            env["HOLD_UNTIL"] = str(go)
        runs.append(subprocess.Popen(
            [sys.executable, "-m", "pokerbots.server.cli.main", "run", bot, bot, "--hands", "300",
             "--logs", tmp_path / f"logs{i}", "--startup-timeout", "120"], env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
        wait_for(f"the bots of match {i} to start", lambda i=i: list(
            (tmp_path / f"logs{i}").glob("*/seat1.stderr")) and all(
            p.read_text() for p in (tmp_path / f"logs{i}").glob("*/seat?.stderr")),
            timeout=120)
    go.touch()
    for p in runs:
        assert p.wait(120) == 0, p.stderr.read()
    seen = []
    for i in range(2):
        (match,) = (tmp_path / f"logs{i}").iterdir()
        seen.append((match / "seat0.stderr").read_text().split("\n")[0])
    assert seen[0] != seen[1] and all(s.startswith("cpus [") for s in seen), seen


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs to compare")
def test_a_match_alone_runs_on_every_cpu_and_one_started_beside_it_on_a_cpu_of_its_own(
        tmp_path):
    env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path))
    bot = tmp_path / "affinity_bot.py"
    bot.write_text(AFFINITY_BOT)
    allowed = sorted(os.sched_getaffinity(0))

    def affinity(logs) -> str:
        (match,) = logs.iterdir()
        return (match / "seat0.stderr").read_text().split("\n")[0]

    alone = subprocess.run([sys.executable, "-m", "pokerbots.server.cli.main", "run", bot, bot,
                            "--hands", "5", "--logs", tmp_path / "alone"], env=env,
                           capture_output=True, timeout=60)
    assert alone.returncode == 0, alone.stderr
    assert affinity(tmp_path / "alone") == f"cpus {allowed}"
    holder = subprocess.Popen([sys.executable, "-c", CLAIM], env=env, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        held = int(holder.stdout.readline())
        beside = subprocess.run([sys.executable, "-m", "pokerbots.server.cli.main", "run", bot, bot,
                                 "--hands", "5", "--logs", tmp_path / "beside"], env=env,
                                capture_output=True, timeout=60)
        assert beside.returncode == 0, beside.stderr
        cpus = affinity(tmp_path / "beside")
        assert cpus.startswith("cpus [") and cpus.count(",") == 0 and str(held) not in cpus
    finally:
        holder.stdin.close()
        holder.wait(10)


AUTO = """
import sys
from pokerbots.server.confine.cpus import auto_cpu
sys.stdin.readline()  # all start together
print(auto_cpu(), flush=True)
sys.stdin.readline()  # hold the claim until every one has decided
"""


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs to compare")
def test_of_two_matches_deciding_at_the_same_moment_at_most_one_tries_every_cpu(tmp_path):
    """Each decides whether it is alone; racing, both once decided so (41 times in 150).
    Each holds its claim, as a match does while it plays, until both have answered: however
    late a busy machine runs the second, the first is still there when it decides."""
    for trial in range(30):
        env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path / str(trial)))
        (tmp_path / str(trial)).mkdir()
        pair = [subprocess.Popen([sys.executable, "-c", AUTO], env=env, text=True,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                for _ in range(2)]
        for p in pair:
            p.stdin.write("go\n")
            p.stdin.flush()
        answers = [p.stdout.readline().strip() for p in pair]  # both decided, both claiming
        for p in pair:
            p.stdin.write("done\n")
            p.stdin.flush()
            p.communicate(timeout=30)
        trials = [a for a in answers if a.startswith("Trial(cpu=")]
        assert len(trials) <= 1, answers
        assert all(a in trials or a.isdigit() for a in answers), answers


PLACEMENT_BOT = """
import os, sys
from pokerbots.protocol.client import run

seen = []


def play(state):
    cpus = sorted(os.sched_getaffinity(0))
    if not seen or seen[-1] != cpus:  # one line each time the bot is moved
        seen.append(cpus)
        print("cpus", cpus, file=sys.stderr, flush=True)
    return state.check_or_call()


run(play)
"""


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs to compare")
@pytest.mark.parametrize("game", ["kuhn", pytest.param("holdem-nl", marks=pytest.mark.slow)])
def test_a_match_alone_tries_both_placements_and_plays_on_in_the_faster(tmp_path, game):
    """The trial is timed, so either placement may win; what must hold is that the bots end
    where the match says it chose, after the placement it found faster, and that where the
    messages go out changes nothing in what each seat receives."""
    env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path))
    bot = tmp_path / "placement_bot.py"
    bot.write_text(PLACEMENT_BOT)
    allowed = sorted(os.sched_getaffinity(0))
    runs = {}
    for cpu in ("auto", str(allowed[-1])):
        logs = tmp_path / f"logs-{cpu}"
        done = subprocess.run([sys.executable, "-m", "pokerbots.server.cli.main", "run", bot, bot,
                               bot, "--game", game, "--hands", "600", "--seed", "5",
                               "--cpu", cpu, "--logs", logs], env=env, capture_output=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        (runs[cpu],) = logs.iterdir()
    timing = json.loads((runs["auto"] / "timing.json").read_text())
    placement = timing["placement"]
    tried = placement["trial_us_per_hand"]
    assert tried["spread"] > 0 and tried["pinned"] > 0, placement
    chosen = placement["cpu"]
    assert (chosen is None) == (tried["spread"] < tried["pinned"]), placement
    for seat in range(3):
        moves = (runs["auto"] / f"seat{seat}.stderr").read_text().splitlines()
        assert moves[0] == f"cpus {allowed}", moves  # started on every CPU
        assert moves[-1] == f"cpus {allowed if chosen is None else [chosen]}", (moves, placement)
        assert len(moves) == (3 if chosen is None else 2), moves  # pinned, then back or not
        assert ((runs["auto"] / f"seat{seat}.in").read_bytes()
                == (runs[str(allowed[-1])] / f"seat{seat}.in").read_bytes())
    assert ((runs["auto"] / "hands.jsonl").read_bytes()
            == (runs[str(allowed[-1])] / "hands.jsonl").read_bytes())
    assert "placement" not in json.loads((runs[str(allowed[-1])] / "timing.json").read_text())

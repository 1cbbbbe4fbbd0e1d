"""Hostile and broken bots, each a real misbehaving process (tests/programs/hostile/hostile.py).

Whatever a bot does, the round ends within its time limits with one precise fault, every
completed hand is in the logs, and no process, file descriptor or pipe is left behind.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import trio

from pokerbots.server.confine import cgroup, reaper, sandbox
from pokerbots.server.confine.limits import ResourceLimits
from pokerbots.server.play.match import MatchConfig, prepare, run_match
from pokerbots.server.play.options import MatchSetupError
from pokerbots.server.seats import process
from pokerbots.server.seats.arguments import parse_bot
from pokerbots.server.seats.limits import Limits

from processes import pokerbots, processes_mentioning
from waiting import wait_for

ROOT = Path(__file__).resolve().parents[3]
HOSTILE = ROOT / "tests" / "programs" / "hostile" / "hostile.py"
GOOD = ROOT / "tests" / "programs" / "bad_bots" / "kuhn_bot.py"
needs_bwrap = pytest.mark.skipif(sandbox.bwrap_path() is None,
                                 reason="bubblewrap (bwrap) is not installed:"
                                        " apt-get install bubblewrap")
needs_namespaces = pytest.mark.skipif(
    sandbox.isolation_problem() is not None,
    reason=f"bots cannot get a PID namespace here: {sandbox.isolation_problem()}")


def my_children() -> set[int]:
    return reaper.children_of(os.getpid())


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.fixture
def bots(tmp_path):
    """Private copies of the bots, so every process they start can be found by its path."""
    folder = tmp_path / "bots"
    folder.mkdir()
    shutil.copy(HOSTILE, folder / "hostile.py")
    shutil.copy(GOOD, folder / "good.py")
    return folder


@pytest.fixture
def clean(bots):
    """Checks after the test that no bot process, child or file descriptor is left."""
    children, fds = my_children(), open_fds()
    yield
    assert processes_mentioning(str(bots)) == []
    assert my_children() <= children
    assert open_fds() <= fds


def play(tmp_path, bots, *args, hands=5, cpu=None, **limits):
    limits.setdefault("reply", 0.5)
    limits.setdefault("startup", 3.0)
    specs = []
    for arg in args:
        if arg == "good":
            specs.append(parse_bot(str(bots / "good.py")))
        else:
            specs.append(parse_bot(f"{bots / 'hostile.py'} {arg}"))
    config = MatchConfig(bots=specs, hands=hands, seed=3, logs=tmp_path / "logs",
                         limits=Limits(**limits), cpu=cpu)
    started = time.monotonic()
    outcome, path = run_match(config)
    return outcome, path, time.monotonic() - started


def hands_logged(path: Path) -> list[int]:
    return [json.loads(line)["hand"] for line in (path / "hands.jsonl").read_text().splitlines()]


def summary(path: Path) -> dict:
    return json.loads((path / "summary.json").read_text())


def test_crash_mid_hand_reports_exit_code_and_keeps_the_hands(tmp_path, bots, clean):
    outcome, path, _ = play(tmp_path, bots, "good", "crash --at-hand 2")
    fault = outcome.fault
    assert fault.seat == 1 and fault.hand == 2
    assert "it exited with code 3 instead of replying" in fault.reason
    assert hands_logged(path) == [0, 1]
    assert "ValueError: the bot gave up" in (path / "seat1.stderr").read_text()
    assert summary(path)["error"]["seat"] == 1


def test_crash_by_signal(tmp_path, bots, clean):
    outcome, _, _ = play(tmp_path, bots, "segv --at-hand 1", "good")
    assert outcome.fault.seat == 0
    assert "killed by SIGSEGV" in outcome.fault.reason


def test_exit_before_init_round(tmp_path, bots, clean):
    outcome, path, _ = play(tmp_path, bots, "good", "good", "exit-before-init")
    assert outcome.fault.seat == 2 and outcome.fault.hand is None
    assert "exited with code 4" in outcome.fault.reason
    assert "giving up" in (path / "seat2.stderr").read_text()


def test_exit_after_end_round_without_goodbye(tmp_path, bots, clean):
    outcome, path, _ = play(tmp_path, bots, "no-goodbye", "good", hands=3)
    assert outcome.fault.seat == 0 and outcome.fault.kind == "end_round"
    assert "exited with code 0 instead of replying" in outcome.fault.reason
    assert hands_logged(path) == [0, 1, 2]


def test_never_reading_stdin_times_out(tmp_path, bots, clean):
    outcome, _, took = play(tmp_path, bots, "good", "never-read")
    assert outcome.fault.seat == 1
    assert "no reply within the 0.5 s time limit" in outcome.fault.reason
    assert took < 3


def test_a_write_to_a_bot_that_never_reads_does_not_block(tmp_path):
    """The pipe fills up; the server's write gives up at the deadline with a clear fault."""

    async def main():
        spec = parse_bot("sleep 30")
        drain = process.StderrDrain(tmp_path / "err", 1024)
        bot = await process.start(spec, env=dict(os.environ), resources=ResourceLimits(),
                                  stderr_fd=drain.write_fd)
        drain.started()
        try:
            deadline = trio.current_time() + 0.3
            message = b"x" * (1 << 20)
            with pytest.raises(process.TimedOut) as caught:
                await bot.write_rest(message, deadline)
            return caught.value
        finally:
            bot.kill()
            await bot.process.wait()
            drain.close()

    started = time.monotonic()
    exc = trio.run(main)
    assert exc.writing
    assert time.monotonic() - started < 2


def test_never_writing_times_out_naming_the_limit(tmp_path, bots, clean):
    outcome, path, took = play(tmp_path, bots, "never-write --at-hand 1", "good")
    reason = outcome.fault.reason
    assert "no reply within the 0.5 s time limit" in reason and "--reply-timeout" in reason
    assert "taking more than 0.5" in reason
    assert hands_logged(path) == [0]
    assert took < 3


def test_startup_limit_is_named(tmp_path, bots, clean):
    outcome, _, took = play(tmp_path, bots, "good", "slow-start", startup=0.5)
    assert "start-up limit (--startup-timeout)" in outcome.fault.reason
    assert took < 3


def test_a_reply_split_over_two_writes_is_fine(tmp_path, bots, clean):
    outcome, path, _ = play(tmp_path, bots, "split --seconds 0.1", "good", hands=3)
    assert outcome.fault is None
    assert hands_logged(path) == [0, 1, 2]


def test_two_lines_where_one_was_due(tmp_path, bots, clean):
    outcome, _, _ = play(tmp_path, bots, "good", "two-lines")
    assert outcome.fault.reason == ("it sent an unsolicited line, 'BET 1', with its reply where"
                                    " one line was due")


def test_a_line_over_the_cap_without_newline(tmp_path, bots, clean):
    outcome, _, took = play(tmp_path, bots, "long-line", "good")
    assert "longer than 4096 bytes without a newline" in outcome.fault.reason
    assert took < 3


def test_a_line_over_the_cap_with_a_newline_is_refused_and_quoted_short(tmp_path, bots, clean):
    """A reply line over 4 KiB ending in a newline is refused like one without; the paragraph
    and summary.json quote its first 200 characters only."""
    outcome, path, _ = play(tmp_path, bots, "long-line-ended --count 5000", "good")
    assert outcome.fault.seat == 0
    assert outcome.fault.reason == "it sent a line longer than 4096 bytes"
    # 68 KB in one write: refused after the first 4 KiB, before its newline is even read.
    outcome, path, _ = play(tmp_path, bots, "long-line-ended --count 68000", "good")
    fault = outcome.fault
    assert fault.seat == 0 and "longer than 4096 bytes" in fault.reason
    text = fault.paragraph()
    assert f"The bot replied: {'B' * 200!r} (the first 200 of " in text
    assert "B" * 201 not in text and len(text) < 1000
    error = summary(path)["error"]
    assert error["received"] == "B" * 200 and error["received_length"] > 4096
    assert (path / "summary.json").stat().st_size < 3000


@pytest.mark.slow
def test_a_bot_that_closes_its_input_is_told_so(tmp_path, bots, clean):
    """Without a PID namespace the server's write fails at once. (In a namespace, bubblewrap
    keeps the pipe open: the bot then misses its reply deadline.)"""
    outcome, _, _ = play(tmp_path, bots, "close-stdin", "good", isolate=False)
    assert outcome.fault.seat == 0
    assert outcome.fault.reason == ("it closed its input (stdin) but did not exit, so the"
                                    " server's message could not be delivered")


def test_a_debug_print_on_stdout_gets_the_hint(tmp_path, bots, clean):
    """The debug line is taken for the reply (and the real reply, when it came with it, is an
    unsolicited line); either way the paragraph says where debug output belongs."""
    outcome, path, _ = play(tmp_path, bots, "good", "debug-print")
    fault = outcome.fault
    assert fault.seat == 1
    assert (fault.reason.startswith("unknown action 'thinking'")
            or fault.reason.startswith("it sent an unsolicited line, 'BET 1', with its reply"))
    assert "The bot replied: 'thinking about hand 0: I hold " in fault.paragraph()
    assert ("Hint: if that line is debug output, write it to stderr: stdout is for replies"
            " only.") in fault.paragraph()
    assert summary(path)["error"]["hint"].startswith("if that line is debug output")


def test_junk_without_newline_never_extends_the_time(tmp_path, bots, clean):
    outcome, _, took = play(tmp_path, bots, "junk-stream", "good")
    assert "no reply within the 0.5 s time limit" in outcome.fault.reason
    assert "without a newline" in outcome.fault.reason
    assert took < 3


def test_a_stderr_flood_is_drained_and_capped(tmp_path, bots, clean):
    outcome, path, _ = play(tmp_path, bots, "stderr-flood", "good", hands=20,
                            stderr_cap=100_000)
    assert outcome.fault is None and outcome.hands == 20
    data = (path / "seat0.stderr").read_bytes()
    assert len(data) < 100_000 + 200
    assert b"stderr truncated at 100000 bytes" in data


def test_a_bot_that_forks_and_exits(tmp_path, bots, clean):
    """In its own PID namespace the child ends with the bot: the exit is reported at once."""
    outcome, _, took = play(tmp_path, bots, "good", "fork-exit")
    assert outcome.fault.seat == 1
    if sandbox.isolation_problem() is None:
        assert outcome.fault.reason == "it exited with code 0 instead of replying"
    assert took < 3


def test_a_bot_that_forks_and_exits_without_a_namespace(tmp_path, bots, clean):
    """Without a namespace the child keeps the bot's output open until the deadline."""
    outcome, _, took = play(tmp_path, bots, "good", "fork-exit", isolate=False)
    reason = outcome.fault.reason
    assert "no reply within" in reason
    assert "it exited with code 0, but a process it started still holds its output open" in reason
    assert took < 3


@pytest.mark.parametrize("mode", ["setsid-grandchild", "setsid-orphan"])
def test_a_grandchild_that_calls_setsid_is_ended(tmp_path, bots, clean, mode):
    outcome, _, _ = play(tmp_path, bots, mode, "good", hands=3)
    assert outcome.fault is None
    # The `clean` fixture checks that the detached grandchild is gone.


def test_a_bot_that_lingers_after_goodbye_is_ended(tmp_path, bots, clean):
    outcome, _, _ = play(tmp_path, bots, "linger", "good", hands=2)
    assert outcome.fault is None


def test_time_bank_runs_out(tmp_path, bots, clean):
    outcome, path, _ = play(tmp_path, bots, "slow --seconds 0.12", "good", hands=20,
                            time_bank=0.3, time_per_hand=0.0)
    fault = outcome.fault
    assert fault.seat == 0
    assert "ran out of its time bank (--time-bank 0.3 s" in fault.reason
    assert fault.legal.startswith("BET ")  # the legal replies of the play message it answered
    assert fault.sent.startswith("play\n")
    # The bank opens after init_round (whose wait, the bot's start-up, counts as used time):
    # the bot is stopped as soon as it has used its 0.3 s beyond that.
    used, had = map(float, re.search(r"it has used ([\d.]+) s of the ([\d.]+) s", fault.reason)
                    .groups())
    assert had <= used < had + 0.15 and outcome.time_used[0] > 0.29
    assert 1 <= len(hands_logged(path)) < 5


def test_time_per_hand_keeps_a_steady_bot_alive(tmp_path, bots, clean):
    outcome, _, _ = play(tmp_path, bots, "slow --seconds 0.03", "good", hands=8,
                         time_bank=0.1, time_per_hand=0.1)
    assert outcome.fault is None
    assert outcome.time_used[0] > 0.1  # beyond its bank, and still playing


@pytest.mark.skipif(cgroup.memory_problem() is not None,
                    reason=f"no memory cgroups here: {cgroup.memory_problem()}")
def test_memory_limit_by_cgroup_names_the_limit(tmp_path, bots, clean):
    outcome, _, _ = play(tmp_path, bots, "memory-hog", "good",
                         resources=ResourceLimits(memory_mib=200))
    assert outcome.fault.seat == 0
    assert ("it used more than 200 MiB of memory (--max-memory) and the kernel ended it"
            in outcome.fault.reason)


def test_memory_limit_by_rlimit(tmp_path, bots, clean, monkeypatch):
    """Without a memory cgroup the address space is limited: the allocation fails in the bot
    (Python: MemoryError), and the fault is its exit."""
    monkeypatch.setattr(cgroup, "memory_problem", lambda: "not here")
    outcome, path, _ = play(tmp_path, bots, "memory-hog", "good",
                            resources=ResourceLimits(memory_mib=200))
    assert "exited with code 1" in outcome.fault.reason
    assert "MemoryError" in (path / "seat0.stderr").read_text()


def test_cpu_limit(tmp_path, bots, clean):
    outcome, _, _ = play(tmp_path, bots, "cpu-spin", "good", startup=10,
                         resources=ResourceLimits(cpu_seconds=1))
    assert ("killed by SIGXCPU (it used more than its 1 s of CPU time, --max-cpu)"
            in outcome.fault.reason)


def test_file_size_limit(tmp_path, bots, clean):
    outcome, _, _ = play(tmp_path, bots, "file-hog", "good",
                         resources=ResourceLimits(file_size_mib=1))
    assert "SIGXFSZ" in outcome.fault.reason or "exited with code 1" in outcome.fault.reason


# -- the command line: exit codes, stderr tail, Ctrl-C and SIGTERM -----------------------------

def test_cli_crash_prints_one_paragraph_with_the_stderr_tail(tmp_path, bots, clean):
    result = pokerbots("run", bots / "good.py", f"{bots / 'hostile.py'} crash --at-hand 1",
                       "--hands", 5, "--logs", tmp_path / "logs")
    assert result.returncode == 1
    assert "failed in hand 1: it exited with code 3 instead of replying." in result.stderr
    assert "Last lines of its stderr:\n    Traceback" in result.stderr


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupting_the_server_ends_every_bot(tmp_path, bots, clean, signum, code):
    logs = tmp_path / "logs"
    server = subprocess.Popen(
        [sys.executable, "-m", "pokerbots.server.cli.main", "run", bots / "good.py",
         f"{bots / 'hostile.py'} setsid-orphan", "--end-prob", "0/1", "--hands", "100000000",
         "--logs", logs, "--cpu", "none"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    wait_for("the first hand logged", lambda: any(
        p.stat().st_size > 0 for p in logs.glob("*/hands.jsonl")), timeout=60)
    assert len(processes_mentioning(str(bots))) >= 3  # two bots and the detached grandchild
    server.send_signal(signum)
    _, err = server.communicate(timeout=10)
    assert server.returncode == code, err
    assert "Interrupted" in err
    (folder,) = logs.iterdir()
    data = json.loads((folder / "summary.json").read_text())
    assert data["result"] == "interrupted"
    assert data["interrupted_by"] == signal.Signals(signum).name
    # A hand is logged as soon as it is settled, before its end_hand exchange is over.
    assert len(hands_logged(folder)) - data["hands_played"] in (0, 1)
    assert data["hands_played"] > 0


# -- the sandbox ---------------------------------------------------------------------------------

def test_sandbox_without_bwrap_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "bwrap_path", lambda: None)
    config = MatchConfig(bots=[parse_bot(str(GOOD))] * 2, hands=1, logs=tmp_path / "logs",
                         limits=Limits(sandbox=True))
    with pytest.raises(MatchSetupError, match="bubblewrap.*apt-get install bubblewrap"):
        prepare(config)
    assert not (tmp_path / "logs").exists()


@needs_bwrap
def test_sandbox_blocks_network_and_system_writes(tmp_path, bots, clean):
    outcome, path, _ = play(tmp_path, bots, "sandbox-probe", "good", hands=3, sandbox=True)
    assert outcome.fault is None, outcome.fault
    report = (path / "seat0.stderr").read_text()
    assert "network:blocked" in report
    assert "etc:read-only" in report
    assert "scratch:writable" in report
    pid = int(report.split("pid:")[1].split()[0])
    assert pid < 10  # its own process namespace
    assert not Path("/etc/pokerbots-escape").exists()


@needs_bwrap
def test_sandbox_hides_the_logs_and_ends_detached_processes(tmp_path, bots, clean):
    outcome, _, _ = play(tmp_path, bots, "sandbox-setsid", "good", hands=3, sandbox=True)
    assert outcome.fault is None, outcome.fault


@needs_bwrap
def test_sandbox_reports_crashes_like_outside(tmp_path, bots, clean):
    outcome, path, _ = play(tmp_path, bots, "good", "segv --at-hand 1", sandbox=True)
    assert "killed by SIGSEGV" in outcome.fault.reason
    assert hands_logged(path) == [0]
    outcome, _, _ = play(tmp_path, bots, "good", "crash --at-hand 1", sandbox=True)
    assert "exited with code 3" in outcome.fault.reason


# -- bots apart: each in its own PID namespace, with a process limit and a fair share of CPU ----

@needs_namespaces
def test_a_bot_cannot_see_or_signal_the_other_bots(tmp_path, bots, clean):
    attack = f"kill-others --signal KILL --target {bots / 'good.py'}"
    outcome, path, _ = play(tmp_path, bots, attack, "good", "good", hands=3)
    assert outcome.fault is None, outcome.fault
    assert "signalled 0 processes with SIGKILL" in (path / "seat0.stderr").read_text()


@pytest.mark.slow
def test_without_a_namespace_the_other_bots_are_in_reach(tmp_path, bots, clean):
    """What the namespace prevents (with a harmless signal)."""
    attack = f"kill-others --signal CONT --target {bots / 'good.py'}"
    outcome, path, _ = play(tmp_path, bots, attack, "good", "good", hands=2, isolate=False)
    assert outcome.fault is None, outcome.fault
    assert "signalled 2 processes with SIGCONT" in (path / "seat0.stderr").read_text()


@pytest.mark.slow
@needs_namespaces
@pytest.mark.parametrize("signame", ["STOP", "TERM"])
def test_a_bot_cannot_stop_or_end_the_server(tmp_path, bots, clean, signame):
    attack = (f"{bots / 'hostile.py'} kill-others --signal {signame}"
              " --target pokerbots.server.cli.main")
    result = pokerbots("run", bots / "good.py", attack, "--hands", 3, "--logs", tmp_path / "logs",
                       timeout=30)
    assert result.returncode == 0, result.stderr
    (folder,) = (tmp_path / "logs").iterdir()
    assert summary(folder)["result"] == "completed"
    assert f"signalled 0 processes with SIG{signame}" in (folder / "seat1.stderr").read_text()


@pytest.mark.slow
@needs_namespaces
def test_an_orphan_with_another_match_token_ends_with_its_bot(tmp_path, bots, clean):
    outcome, _, _ = play(tmp_path, bots, "disguised-orphan", "good", hands=2)
    assert outcome.fault is None, outcome.fault
    # The `clean` fixture checks that the disguised sleeper is gone.


@pytest.mark.skipif(sandbox.process_limit_problem() is not None,
                    reason=f"--max-procs cannot be enforced here:"
                           f" {sandbox.process_limit_problem()}")
@pytest.mark.parametrize("limit", [64, 10])
def test_a_bot_that_forks_hundreds_of_sleepers_is_refused(tmp_path, bots, clean, limit):
    outcome, path, _ = play(tmp_path, bots, "fork-many --count 500", "good", hands=2,
                            resources=ResourceLimits(processes=limit))
    assert outcome.fault is None, outcome.fault
    report = (path / "seat0.stderr").read_text()
    refused = int(report.split("fork refused after ")[1].split()[0])
    assert limit - 5 <= refused < limit
    # The `clean` fixture checks that none of the sleepers is left.


@pytest.mark.slow
@needs_namespaces
def test_a_child_burning_cpu_is_blamed_not_the_bot_it_slowed_down(tmp_path, bots, clean):
    """Pinned to one CPU, seat 0's background child halves seat 1's CPU, and seat 1 thinks
    for 0.8 s of CPU time per decision within a 1 s limit: seat 0 is named."""
    outcome, _, _ = play(tmp_path, bots, "spin-child", "busy --seconds 0.8", hands=3, cpu=0,
                         reply=1.0)
    fault = outcome.fault
    assert fault is not None and fault.seat == 0, fault
    assert fault.reason.startswith("it used CPU while waiting: its processes used ")
    assert "kept seat 1, whose turn it was, waiting" in fault.reason


@pytest.mark.slow
def test_a_bot_lives_as_long_as_its_round(tmp_path, bots, clean):
    """bubblewrap's --die-with-parent fires when the *thread* that forked the bot ends; bots
    are started from the match's own thread (trio's worker threads retire after 10 s idle,
    which once killed every bot 10 s into its round)."""
    outcome, _, _ = play(tmp_path, bots, "slow --seconds 12", "good", hands=1, reply=20,
                         time_bank=None)
    assert outcome.fault is None, outcome.fault
    assert outcome.hands == 1

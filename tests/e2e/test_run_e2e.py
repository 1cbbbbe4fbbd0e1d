"""`pokerbots run` end to end, with real bot processes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from processes import only_match_dir, pokerbots, processes_mentioning

ROOT = Path(__file__).resolve().parents[2]
KUHN_BOT = ROOT / "tests" / "programs" / "bad_bots" / "kuhn_bot.py"


@pytest.fixture
def bot(tmp_path):
    """A private copy of the test bot, so its processes can be found by their path."""
    path = tmp_path / "bots" / "kuhn_bot.py"
    path.parent.mkdir()
    shutil.copy(KUHN_BOT, path)
    return path


@pytest.mark.parametrize("players", [2, 3, 6])
def test_a_round_completes_and_writes_every_log(tmp_path, bot, players):
    logs = tmp_path / "logs"
    result = pokerbots("run", *[bot] * players, "--hands", 25, "--seed", 7, "--logs", logs)
    assert result.returncode == 0, result.stderr
    match = only_match_dir(logs)
    hands = [json.loads(line) for line in (match / "hands.jsonl").read_text().splitlines()]
    assert [h["hand"] for h in hands] == list(range(25))
    summary = json.loads((match / "summary.json").read_text())
    assert summary["result"] == "completed" and summary["hands_played"] == 25
    assert summary["bankrolls"] == hands[-1]["bankrolls"] and sum(summary["bankrolls"]) == 0
    for seat in range(players):
        sent = (match / f"seat{seat}.in").read_text()
        assert sent.startswith("init_round\n") and sent.endswith("NumHands: 25\n")
    assert "Hand 24" in (match / "hands.txt").read_text()
    assert str(match) in result.stdout
    assert processes_mentioning(str(bot)) == []


def test_the_same_seed_gives_byte_identical_logs(tmp_path, bot):
    def play(name):
        logs = tmp_path / name
        result = pokerbots("run", bot, bot, bot, "--end-prob", "1/40", "--seed", 11, "--logs", logs)
        assert result.returncode == 0, result.stderr
        return only_match_dir(logs)

    first, second = play("a"), play("b")
    names = ["hands.jsonl", "hands.txt", "summary.json", "seat0.in", "seat1.in", "seat2.in"]
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    third = pokerbots("run", bot, bot, bot, "--end-prob", "1/40", "--seed", 12,
                      "--logs", tmp_path / "c")
    other = (only_match_dir(tmp_path / "c") / "seat0.in").read_bytes()
    assert other != (first / "seat0.in").read_bytes()
    assert third.returncode == 0


def test_seat_input_file_replays_what_the_bot_saw(tmp_path, bot):
    logs = tmp_path / "logs"
    assert pokerbots("run", bot, bot, "--hands", 5, "--seed", 3, "--logs", logs).returncode == 0
    seat1 = only_match_dir(logs) / "seat1.in"
    replay = subprocess.run([sys.executable, bot], stdin=seat1.open("rb"), capture_output=True,
                            timeout=30)
    assert replay.returncode == 0
    assert replay.stdout.decode().splitlines()[-1] == "Thank you dealer, have a nice day!"


FAULTS = [
    ("wrong-value", "BET 3 is more than the maximum, BET 2", "BET 3"),
    ("illegal-fold", "folding is not allowed when checking is free", "FOLD 1"),
    ("garbage", "unknown action 'CHECK'", "CHECK PLEASE"),
    ("crash", "it exited with code 3 instead of replying", None),
]


@pytest.mark.parametrize("fault, reason, reply", FAULTS)
def test_a_bot_that_breaks_a_rule_ends_the_round_with_one_clear_paragraph(tmp_path, bot, fault,
                                                                           reason, reply):
    logs = tmp_path / "logs"
    bad = f"{bot} --fault {fault} --at-hand 3"
    result = pokerbots("run", bot, bad, bot, "--hands", 20, "--seed", 1, "--logs", logs)
    assert result.returncode == 1
    err = result.stderr
    assert f"Bot at seat 1 ({bad}) failed in hand " in err
    assert reason in err
    if reply is not None:
        assert f"The bot replied: {reply!r}" in err
    assert "The server sent:\n    play\n" in err
    assert "Legal replies were: BET " in err
    assert f"about to break the rules: {fault}" in err  # the tail of its stderr
    match = only_match_dir(logs)
    assert f"Logs: {match}" in err
    summary = json.loads((match / "summary.json").read_text())
    assert summary["result"] == "failed"
    assert summary["error"]["seat"] == 1 and reason in summary["error"]["reason"]
    # Every hand before the fault is kept.
    hands = (match / "hands.jsonl").read_text().splitlines()
    assert len(hands) >= 3 and len(hands) == summary["hands_played"]
    assert processes_mentioning(str(bot)) == []


def test_a_bot_that_never_answers_fails_on_the_reply_time_limit(tmp_path, bot):
    logs = tmp_path / "logs"
    result = pokerbots("run", bot, f"{bot} --fault silent", "--hands", 5, "--seed", 1,
                       "--reply-timeout", "0.5", "--logs", logs)
    assert result.returncode == 1
    assert "no reply within the 0.5 s time limit" in result.stderr
    assert "The bot sent no reply." in result.stderr
    assert processes_mentioning(str(bot)) == []


def test_json_summary(tmp_path, bot):
    result = pokerbots("run", bot, bot, "--hands", 4, "--seed", 2, "--json", "--logs",
                       tmp_path / "logs")
    assert result.returncode == 0
    summary = json.loads(result.stdout)
    assert summary["hands_played"] == 4 and summary["result"] == "completed"
    assert Path(summary["logs"]).is_dir()


@pytest.mark.parametrize(
    "args, message",
    [
        (["does/not/exist.py", "X"], "does/not/exist.py does not exist"),
        (["BOT"], "kuhn is played by 2 to 6 players, not 1"),
        (["BOT"] * 7, "kuhn is played by 2 to 6 players, not 7"),
        (["BOT", "BOT", "--end-prob", "3/2"], "is not a probability"),
        (["BOT", "BOT", "--hands", "0"], "must be at least 1"),
        (["BOT", "BOT", "--game", "chess"], "'chess' is not one of"),
        (["BOT", "BOT", "--stack", "100"], "applies to holdem-nl and holdem-limit, not to kuhn"),
    ],
)
def test_bad_command_lines_are_usage_errors_before_any_bot_starts(tmp_path, bot, args, message):
    args = [str(bot) if a == "BOT" else a for a in args]
    result = pokerbots("run", *args, "--logs", tmp_path / "logs")
    assert result.returncode == 2
    assert message in result.stderr
    assert not (tmp_path / "logs").exists() or not any((tmp_path / "logs").iterdir())


def test_a_bot_file_that_is_not_executable_says_how_to_fix_it(tmp_path):
    script = tmp_path / "mybot"
    script.write_text("#!/bin/sh\nexit 0\n")
    result = pokerbots("run", script, script)
    assert result.returncode == 2
    assert "is not executable (chmod +x" in result.stderr


CRASHING_BOT = """
from pokerbots.protocol.client import Bot, run


class Crashing(Bot):
    def decide(self, state):
        if state.hand == 1:
            raise RuntimeError("deciding went wrong")
        return state.check_or_call()


run(Crashing())
"""


def test_a_library_bot_that_crashes_deciding_is_blamed_for_that_decision(tmp_path):
    """Its first decision of hand 1 comes in one write with hand 0's EndAction lines and hand
    1's init_hand: the library writes its Money and READY answers before the bot decides, so
    the fault is the play message it crashed on, not the Money reply it never sent."""
    crashing = tmp_path / "crashing.py"
    crashing.write_text(CRASHING_BOT)
    cards = tmp_path / "cards.txt"
    cards.write_text("button: 1\nJ Q\nQ K\nK J\n")  # hand 1's button is seat 0: seat 1 acts first
    logs = tmp_path / "logs"
    result = pokerbots("run", ROOT / "bots" / "call_bot.py", crashing, "--cards", cards,
                       "--logs", logs)
    assert result.returncode == 1
    assert "Bot at seat 1" in result.stderr and "failed in hand 1:" in result.stderr
    assert "deciding went wrong" in result.stderr  # its stderr's tail
    error = json.loads((only_match_dir(logs) / "summary.json").read_text())["error"]
    assert (error["seat"], error["hand"]) == (1, 1)
    assert error["sent"].startswith("play\n")

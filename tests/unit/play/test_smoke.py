"""pokerbots smoke: good bots pass (exit 0), a rule-breaker fails (exit 1), usage errors exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bot_sources import HOLDEM_ONLY

POKERBOTS = str(Path(sys.executable).with_name("pokerbots"))
RANDOM = f"{sys.executable} -m pokerbots.server.play.smoke_random --seed 5"

# Answers correctly until its third hand, then bets an impossible amount; talks on stderr.
BAD_BOT = '''
import sys
from pokerbots.protocol.client import Bot, run


class Bad(Bot):
    def decide(self, state):
        print("thinking about hand", state.hand + 1, file=sys.stderr)
        return "BET 7" if state.hand >= 2 else state.check_or_call()


run(Bad(), check=False)
'''


def smoke(*args, cwd=None, env=None):
    return subprocess.run([POKERBOTS, "smoke", *args], capture_output=True, text=True,
                          timeout=60, cwd=cwd, env=env)


def test_good_bot_passes_every_seat(tmp_path):
    report = tmp_path / "junit.xml"
    proc = smoke(RANDOM, "--players", "2,3", "--rounds", "1", "--hands", "10",
                 "--logs", str(tmp_path / "logs"), "--junit-xml", str(report))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.startswith("PASS")]
    assert len(lines) == 5  # seats 0-1 of 2 players, 0-2 of 3
    assert "5 matches" in proc.stdout and "5 passed" in proc.stdout
    assert "\x1b[" not in proc.stdout  # no animation or colour when not on a terminal
    root = ET.parse(report).getroot()
    assert root.tag == "testsuites"
    assert root.get("tests") == "5" and root.get("failures") == "0"
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == 5
    assert {c.get("classname") for c in cases} == {"smoke.kuhn.2p", "smoke.kuhn.3p"}
    assert all(c.find("failure") is None for c in cases)
    assert len(list((tmp_path / "logs").iterdir())) == 5


@pytest.mark.slow  # 2.6 s of matches; test_game_all_plays_every_game stays in the default run
def test_default_plan_covers_two_three_and_six_players(tmp_path):
    proc = smoke(RANDOM, "--rounds", "1", "--hands", "3", "--logs", str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("PASS") == 2 + 3 + 6
    assert " 6p  seat 5 " in proc.stdout


def test_bad_bot_fails_with_paragraph_and_transcript(tmp_path):
    bot = tmp_path / "bad_bot.py"
    bot.write_text(BAD_BOT)
    report = tmp_path / "junit.xml"
    proc = smoke(str(bot), "--players", "2", "--rounds", "1", "--hands", "10",
                 "--logs", str(tmp_path / "logs"), "--junit-xml", str(report))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    assert out.count("FAIL  kuhn") == 2
    assert "failed in hand 2: " in out
    assert "The bot replied: 'BET 7'" in out
    assert "Legal replies were: BET" in out
    transcript = [line.split(": ", 1)[1] for line in out.splitlines()
                  if "Transcript of seat" in line]
    assert len(transcript) == 2
    assert all(Path(t).is_file() and Path(t).name.startswith("seat") for t in transcript)
    assert Path(transcript[0]).read_text().startswith("init_round\n")
    assert "thinking about hand 3" in out  # the tail of its stderr
    assert "Reproduce: pokerbots run " in out
    assert "2 failed" in out
    root = ET.parse(report).getroot()
    assert root.get("failures") == "2"
    failures = root.findall("./testsuite/testcase/failure")
    assert len(failures) == 2
    assert failures[0].get("type") == "BotFault"
    assert "BET 7" in failures[0].text and "seat" in failures[0].text


def test_exitfirst_stops_at_the_first_failure(tmp_path):
    bot = tmp_path / "bad_bot.py"
    bot.write_text(BAD_BOT)
    proc = smoke(str(bot), "-x", "--players", "2", "--hands", "5", "--logs", str(tmp_path))
    assert proc.returncode == 1
    assert proc.stdout.count("FAIL") == 1
    assert "not played (--exitfirst)" in proc.stdout


@pytest.mark.parametrize("args, message", [
    (["no_such_bot.py"], "does not exist"),
    ([RANDOM, "--players", "9"], "kuhn is played by 2 to 6 players, not 9"),
    ([RANDOM, "--players", "two"], "give table sizes as numbers"),
    ([RANDOM, "--game", "chess"], "Invalid value for '--game'"),
    ([RANDOM, "--stack", "100"], "applies to holdem-nl and holdem-limit, not to kuhn"),
    ([], "Missing argument 'BOT'"),
])
def test_usage_errors_exit_2(tmp_path, args, message):
    proc = smoke(*args, "--logs", str(tmp_path))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert message in proc.stderr


@pytest.mark.slow  # test_game_all_plays_every_game smokes Hold'em by default; CI runs it
def test_holdem_smoke(tmp_path):
    pytest.importorskip("eval7")
    proc = smoke(RANDOM, "--game", "holdem-nl", "--players", "3", "--rounds", "1",
                 "--hands", "10", "--logs", str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("PASS  holdem-nl") == 3


def test_holdem_smoke_with_carried_short_stacks_rebuys_and_keeps_the_score(tmp_path):
    """The random opponents go broke, answer REBUY, and their Money lines still pass the
    referee: a rebuy refills the stack and leaves the bankroll alone."""
    import json

    proc = smoke(RANDOM, "--game", "holdem-nl", "--players", "3", "--rounds", "1",
                 "--hands", "30", "--stacks", "carry", "--stack", "30", "--logs", str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("PASS  holdem-nl") == 3
    summaries = [json.loads(p.read_text()) for p in tmp_path.glob("*/summary.json")]
    assert len(summaries) == 3 and sum(sum(s["rebuys"]) for s in summaries) > 0


def test_game_all_plays_every_game(tmp_path):
    pytest.importorskip("eval7")
    proc = smoke(RANDOM, "--game", "all", "--players", "2", "--rounds", "1", "--hands", "5",
                 "--logs", str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for game in ("kuhn", "holdem-nl", "holdem-limit"):
        assert proc.stdout.count(f"PASS  {game} ") == 2


@pytest.mark.slow
def test_a_holdem_bot_without_game_gets_one_paragraph_a_count_and_the_game_to_try(tmp_path):
    bot = tmp_path / "holdem_only.py"
    bot.write_text(HOLDEM_ONLY)
    env = dict(os.environ, TMPDIR=str(tmp_path))
    proc = smoke(str(bot), "--players", "2,3", "--rounds", "1", "--hands", "3", env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    assert out.count("FAIL  kuhn") == 3  # then the other two are not played
    assert out.count("IndexError: tuple index out of range\n") == 1  # one paragraph
    assert out.count("Reproduce: ") == 1
    assert out.count("(the same failure as kuhn 2p seat 0 seed 1, above)") == 2
    assert "3 matches in " in out and "2 not played (the same failure at the start of kuhn)" in out
    assert ("1 kind of failure (the same message answered and the same reason, whatever the"
            " numbers in it):\n  3 x it exited with code 1 instead of replying (answering"
            " init_hand) (its stderr ended: IndexError: tuple index out of range); first in"
            " kuhn 2p seat 0 seed 1") in out
    assert ("Every kuhn match failed in its first hand, and " in out
            and "passes a short match of holdem-nl and holdem-limit: it is probably written for"
                " one of those. Try --game holdem-nl or --game holdem-limit." in out)
    (kept,) = [line for line in out.splitlines() if line.startswith("Logs kept in ")]
    folder = Path(kept.split("Logs kept in ", 1)[1])
    assert folder.parent == tmp_path and any(folder.iterdir())


@pytest.mark.slow
def test_temporary_logs_are_deleted_when_every_match_passes(tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    proc = smoke(RANDOM, "--players", "2", "--rounds", "1", "--hands", "3", env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Every match passed: the temporary logs are deleted" in proc.stdout
    assert not list(tmp_path.glob("pokerbots-smoke-*"))


def test_one_bug_is_one_kind_of_failure_counted_and_reproduced_by_a_short_command(tmp_path):
    """The bad bot's raise falls short by a different amount in each match: the failures are
    told apart by the message they answer and the reason's shape, not by its numbers; the
    Reproduce line names the bot as typed and the opponents by a short command, and replays
    the failure."""
    import re
    import shlex

    pytest.importorskip("eval7")
    bot = tmp_path / "bad_bot.py"
    bot.write_text(BAD_BOT)
    proc = smoke(str(bot), "--game", "holdem-nl", "--players", "2,3", "--rounds", "2",
                 "--hands", "6", "--logs", str(tmp_path / "logs"))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    failed = int(re.search(r"(\d+) failed", out).group(1))
    head = re.search(r"^(\d+) kinds? of failure", out, re.MULTILINE)
    assert head, out
    groups = re.findall(r"^  (\d+) x (.+); first in ", out, re.MULTILINE)
    assert len(groups) == int(head.group(1)) and sum(int(n) for n, _ in groups) == failed
    shapes = [re.sub(r"\d+", "#", text) for _, text in groups]
    assert len(set(shapes)) == len(shapes), groups  # no two differ by their numbers only
    assert len(groups) <= 2, groups  # a call or a check fallen short
    lines = [line.strip()[len("Reproduce: "):] for line in out.splitlines()
             if line.strip().startswith("Reproduce: ")]
    assert lines and all(sys.executable not in line for line in lines), lines
    assert all(len(line) < 250 + len(str(bot)) for line in lines), lines
    words = shlex.split(lines[0])
    assert str(bot) in words
    again = subprocess.run([POKERBOTS, *words[1:], "--logs", str(tmp_path / "again")],
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 1, again.stderr
    first = next(line for line in out.splitlines() if "Bot at seat" in line).strip()
    assert next(line for line in again.stderr.splitlines() if "Bot at seat" in line) == first


def test_a_module_of_pokerbots_named_with_python3_runs_under_the_servers_python(tmp_path):
    """The Reproduce line's short command for the random opponent starts it under the
    server's own Python, whichever python3 is first on PATH; another module stays a command."""
    from pokerbots.server.seats.arguments import parse_bot

    spec = parse_bot("python3 -m pokerbots.server.play.smoke_random --seed 3")
    assert spec.argv == (sys.executable, "-m", "pokerbots.server.play.smoke_random", "--seed",
                         "3")
    assert spec.label == "python3 -m pokerbots.server.play.smoke_random --seed 3"
    import shutil

    other = parse_bot("python3 -m http.server")
    assert other.argv == (shutil.which("python3"), "-m", "http.server")  # the python3 on PATH

"""pokerbots certify: the bundled bots pass every case (and a bot that checks and calls meets
every case's situation), each planted-bug bot fails exactly the case that names its bug, the
JUnit report is written, and the exit codes are those of the Exit table."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pokerbots.server.play.certify import cases_for

from certifying import LINE, ROOT, certify, outcomes

PLANTED = ROOT / "tests" / "programs" / "certify_bots" / "planted.py"
STEADY = ROOT / "tests" / "programs" / "certify_bots" / "steady.py"

#: Each planted bug, and the games it is certified on (those where its case exists; the
#: cheaper ones where it exists in several).
PLANTED_GAMES = {
    "heads-up": ["kuhn", "leduc"],
    "8 players": ["leduc"],
    "odd chip": ["leduc", "holdem-nl"],
    "two side pots": ["holdem-nl"],
    "three side pots": ["holdem-limit"],
    "short all-in does not reopen": ["holdem-limit"],
    "short all-ins that reopen": ["holdem-nl"],
    "run-out before the flop": ["holdem-nl"],
    "run-out on the flop": ["holdem-limit"],
    "run-out on the turn": ["holdem-nl"],
    "fold to the big blind": ["holdem-nl"],
    "raise cap": ["holdem-limit", "leduc"],
    "carry with a rebuy": ["holdem-nl"],
    "antes and per-seat stacks": ["holdem-limit"],
    "init_round with every field": ["holdem-nl"],
    "largest stacks": ["holdem-limit"],
    "end of round while waiting": ["holdem-nl"],
}


def test_a_bot_that_checks_and_calls_passes_and_meets_every_kuhn_case(tmp_path):
    report = tmp_path / "certify.xml"
    proc = certify("bots/call_bot.py", "--game", "kuhn", "--junit-xml", str(report))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    names = [c.name for c in cases_for("kuhn")]
    assert outcomes(proc.stdout) == {("kuhn", name): "PASS" for name in names}
    assert "not reached" not in proc.stdout
    assert f"{len(names)} cases" in proc.stdout and f"{len(names)} passed" in proc.stdout
    root = ET.parse(report).getroot()
    assert root.get("name") == "pokerbots certify bots/call_bot.py"
    assert root.get("tests") == str(len(names)) and root.get("failures") == "0"
    cases = root.findall("./testsuite/testcase")
    assert [(c.get("classname"), c.get("name")) for c in cases] == [
        ("certify.kuhn", name) for name in names]


def test_a_planted_bug_fails_its_case_with_the_servers_paragraph(tmp_path):
    report = tmp_path / "certify.xml"
    proc = certify(f"{PLANTED} heads-up", "--game", "kuhn", "--case", "heads-up", "--case",
                   "3 players", "--junit-xml", str(report), "--logs", str(tmp_path / "logs"))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert outcomes(proc.stdout) == {("kuhn", "heads-up"): "FAIL", ("kuhn", "3 players"): "PASS"}
    # The server's paragraph, the transcript to replay, and the command that plays it again.
    assert "BET 1 leaves less than the 2 needed to call" in proc.stdout
    assert "Legal replies were:" in proc.stdout and "Transcript of seat 0:" in proc.stdout
    assert "Reproduce: pokerbots run" in proc.stdout and "--cards" in proc.stdout
    root = ET.parse(report).getroot()
    assert root.get("failures") == "1"
    failed = root.find("./testsuite/testcase[@name='heads-up']/failure")
    assert failed is not None and "leaves less than" in failed.get("message")


@pytest.mark.slow
def test_a_bot_that_plays_no_game_is_certified_for_none(tmp_path):
    bot = tmp_path / "mute.py"
    bot.write_text("import sys\nsys.exit(4)\n")
    proc = certify(str(bot))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.count("SKIP") == 4
    assert "certified for none" in proc.stdout


@pytest.mark.parametrize("args, words", [
    ([], "give the BOT to certify"),
    (["bots/call_bot.py", "--case", "no such case"], "no case is called 'no such case'"),
])
def test_a_bad_command_line_exits_2(args, words):
    proc = certify(*args, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert words in proc.stderr


@pytest.mark.slow
def test_list_names_every_case_of_every_game():
    proc = certify("--list", timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "holdem-limit: heads-up, 3 players" in proc.stdout and "raise cap" in proc.stdout


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["bots/random_bot.py", "bots/call_bot.py"])
def test_the_bundled_bots_pass_every_case_of_every_game(bot, tmp_path):
    proc = certify(bot, "--junit-xml", str(tmp_path / "c.xml"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    seen = outcomes(proc.stdout)
    assert set(seen.values()) <= {"PASS", "SKIP"}  # SKIP: not reached (a random bet went around)
    assert len(seen) == sum(len(cases_for(g)) for g in ("kuhn", "holdem-nl", "holdem-limit",
                                                         "leduc"))
    if bot.endswith("call_bot.py"):  # checking and calling meets every situation
        assert "not reached" not in proc.stdout


@pytest.mark.slow
@pytest.mark.parametrize("bug", list(PLANTED_GAMES))
def test_each_planted_bug_fails_exactly_its_case(bug):
    args = [arg for game in PLANTED_GAMES[bug] for arg in ("--game", game)]
    proc = certify(f"{PLANTED} {bug}", *args)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    seen = outcomes(proc.stdout)
    failed = {key for key, word in seen.items() if word != "PASS"}
    assert failed == {(game, bug) for game in PLANTED_GAMES[bug]}, proc.stdout
    assert len(seen) == sum(len(cases_for(g)) for g in PLANTED_GAMES[bug])


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["fold", "raise", "shove"])
def test_the_scripted_seats_steer_whatever_legal_reply_the_bot_gives(mode):
    # Folding, raising as little or as much as allowed at every decision: no scripted seat
    # fails, and a bot that never bets (it folds or checks) meets every situation.
    proc = certify(f"{STEADY} {mode}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert set(outcomes(proc.stdout).values()) <= {"PASS", "SKIP"}  # SKIP: not reached
    if mode == "fold":
        assert "not reached" not in proc.stdout


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None or shutil.which("make") is None:
        pytest.skip("no C compiler or no make on PATH: cannot build bots/c/call_bot.c")
    build = tmp_path_factory.mktemp("cbot")
    for name in ("call_bot.c", "Makefile"):
        shutil.copy(ROOT / "bots" / "c" / name, build / name)
    result = subprocess.run(["make", "-C", str(build), f"CC={cc}"], capture_output=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr.decode() + result.stdout.decode()
    return build / "call_bot"


@pytest.mark.slow
@pytest.mark.parametrize("language", ["c", "sh"])
def test_the_c_and_shell_bots_pass_every_case_of_the_games_they_play(language, request):
    bot = request.getfixturevalue("c_bot") if language == "c" else ROOT / "bots/sh/call_bot.sh"
    proc = certify(str(bot))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    seen = outcomes(proc.stdout)
    played = {game for game, _ in seen}
    assert "kuhn" in played and set(seen.values()) == {"PASS"}
    assert len(seen) == sum(len(cases_for(g)) for g in played)


def test_a_case_the_bots_own_play_went_around_is_reported_apart_from_the_passed(tmp_path):
    """Going all-in first, the bot never sees the flop run out: that case is not reached,
    counted apart from the passed ones (and skipped in the JUnit report); the exit code stays
    0, since no rule was broken."""
    report = tmp_path / "certify.xml"
    proc = certify(f"{STEADY} shove", "--game", "holdem-nl", "--case", "run-out on the flop",
                   "--case", "fold to the big blind", "--junit-xml", str(report))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = {m.group(3): m.group(1) for m in map(LINE.match, proc.stdout.splitlines()) if m}
    assert lines == {"run-out on the flop": "SKIP", "fold to the big blind": "PASS"}
    assert "2 cases in " in proc.stdout and ": 1 passed, 1 not reached" in proc.stdout
    root = ET.parse(report).getroot()
    assert root.get("tests") == "2" and root.get("skipped") == "1"
    skipped = root.find("./testsuite/testcase[@name='run-out on the flop']/skipped")
    assert skipped is not None and "not reached" in skipped.get("message")

"""pokerbots certify: the bundled bots pass every case (and a bot that checks and calls meets
every case's situation), each planted-bug bot fails exactly the case that names its bug, the
JUnit report is written, and the exit codes are those of the Exit table.

The command is played end to end (the bot and the scripted opponents as processes) on Kuhn's
cases in the default run and on a case of each other game in the slow run; the whole table of
cases is checked in-process (tests/support/certify_local.py) in the slow run. .ci/run certifies
every bundled bot and every kit with the command, every case of every game."""

from __future__ import annotations

import importlib.util
import random
import xml.etree.ElementTree as ET

import pytest

from pokerbots.protocol.client import Client
from pokerbots.server.play.certify import cases_for

import certify_local
from certify_bots import planted, steady
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


# -- the case table, in-process -------------------------------------------------------------
# The cases of every game played on the referee with client-library seats (certify_local): what
# these tests check is the table (each case's situation reached, each planted bug caught by its
# case and no other), not the processes. The command plays every bundled bot and every kit with
# processes in .ci/run, and a case of each game below.

ALL_GAMES = ("kuhn", "holdem-nl", "holdem-limit", "leduc")


def verdicts(games, bot) -> dict[tuple[str, str], str]:
    """(game, case) -> PASS, SKIP, FAIL or ERROR: every case of ``games`` played in-process
    with ``bot()`` (a new Client) in the bot's seat."""
    return {(case.game, case.name): certify_local.verdict(case, bot)
            for game in games for case in cases_for(game)}


def bundled(name: str):
    """The module of bots/NAME.py, imported."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bots" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["random_bot", "call_bot"])
def test_the_bundled_bots_pass_every_case_of_every_game(bot):
    module = bundled(bot)
    if bot == "random_bot":
        seen = verdicts(ALL_GAMES, lambda: Client(module.RandomBot(random.Random(1))))
    else:
        seen = verdicts(ALL_GAMES, lambda: Client(module.decide))
    assert set(seen.values()) <= {"PASS", "SKIP"}  # SKIP: not reached (a random bet went around)
    if bot == "call_bot":  # checking and calling meets every situation
        assert "SKIP" not in seen.values(), seen


@pytest.mark.slow
@pytest.mark.parametrize("bug", list(PLANTED_GAMES))
def test_each_planted_bug_fails_exactly_its_case(bug):
    seen = verdicts(PLANTED_GAMES[bug], lambda: planted.PlantedClient(planted.Planted(bug)))
    failed = {key for key, word in seen.items() if word != "PASS"}
    assert failed == {(game, bug) for game in PLANTED_GAMES[bug]}, seen


@pytest.mark.slow
@pytest.mark.parametrize("mode", steady.MODES)
def test_the_scripted_seats_steer_whatever_legal_reply_the_bot_gives(mode):
    # Folding, raising as little or as much as allowed at every decision: no scripted seat
    # fails, and a bot that never bets (it folds or checks) meets every situation.
    seen = verdicts(ALL_GAMES, lambda: Client(steady.decide(mode)))
    assert set(seen.values()) <= {"PASS", "SKIP"}, seen  # SKIP: not reached
    if mode == "fold":
        assert "SKIP" not in seen.values(), seen


# -- the command end to end, a case of each game ----------------------------------------------

#: For each game but Kuhn (the default run certifies Kuhn): a planted bug, and a case that the
#: planted bot passes, played by the command with the bot and its scripted opponents as
#: processes.
END_TO_END = {
    "leduc": ("raise cap", "heads-up"),
    "holdem-nl": ("carry with a rebuy", "end of round while waiting"),
    "holdem-limit": ("three side pots", "antes and per-seat stacks"),
}


@pytest.mark.slow
@pytest.mark.parametrize("game", list(END_TO_END))
def test_a_case_of_each_game_fails_or_passes_end_to_end(game, tmp_path):
    bug, passed = END_TO_END[game]
    report = tmp_path / "certify.xml"
    proc = certify(f"{PLANTED} {bug}", "--game", game, "--case", bug, "--case", passed,
                   "--junit-xml", str(report))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert outcomes(proc.stdout) == {(game, bug): "FAIL", (game, passed): "PASS"}, proc.stdout
    assert "Reproduce: pokerbots run" in proc.stdout
    assert ET.parse(report).getroot().get("failures") == "1"


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

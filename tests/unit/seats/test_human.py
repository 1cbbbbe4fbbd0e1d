"""A person as a seat (`pokerbots run BOT -`), played through a pseudo-terminal with pexpect."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

POKERBOTS = str(Path(sys.executable).with_name("pokerbots"))
OPPONENT = f"{sys.executable} -m pokerbots.server.play.smoke_random --seed 4"

# The relay's hints (on the terminal's stderr) end with the exact reply to type.
REPLY = r"# Reply: ([^\r\n\x1b]+)"
CHOICE = r"# Reply one of: ([A-Z]+ \d+)"


def spawn(tmp_path: Path, *args: str, hands: int = 3, opponent: str = OPPONENT):
    command = [POKERBOTS, "run", opponent, "-", "--hands", str(hands), "--seed", "11",
               "--logs", str(tmp_path), *args]
    child = pexpect.spawn(shlex.join(command), encoding="utf-8", timeout=10,
                          dimensions=(50, 120))
    return child


def only_log(tmp_path: Path) -> Path:
    (path,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    return path


def play_through(child, answer=None) -> int:
    """Answer every hint with the reply it gives (or ``answer(reply)``, when that is not None)
    until the round ends; returns how many decisions (play messages) there were."""
    plays = 0
    while True:
        i = child.expect([REPLY, CHOICE, pexpect.EOF])
        if i == 2:
            break
        reply = child.match.group(1)
        if i == 1:
            plays += 1
            # The server's own lines are shown verbatim before the hint.
            assert "play\r\nAction: " in child.before
        typed = answer(reply) if answer is not None else None
        child.sendline(reply if typed is None else typed)
    child.close()
    return plays


def test_person_plays_whole_hands(tmp_path):
    child = spawn(tmp_path, hands=3)
    seen_play = play_through(child)
    assert child.exitstatus == 0, child.before
    assert seen_play >= 3
    assert "you, at the terminal" in child.before
    summary = json.loads((only_log(tmp_path) / "summary.json").read_text())
    assert summary["result"] == "completed"
    assert summary["hands_played"] == 3
    # The seat's transcript is exactly what the person was shown.
    transcript = (only_log(tmp_path) / "seat1.in").read_text()
    assert transcript.startswith("init_round\nMoney: 0,0\n")
    assert transcript.count("init_hand\n") == 3


@pytest.mark.slow  # Kuhn and Leduc people play in the default run; CI runs it (-m slow)
def test_person_plays_holdem(tmp_path):
    pytest.importorskip("eval7")
    child = spawn(tmp_path, "--game", "holdem-nl", hands=2, opponent=f"{OPPONENT} --seed 1")
    plays = 0
    while True:
        i = child.expect([REPLY, r"# Reply one of: (BET \d+) \((?:check|call)\)", pexpect.EOF])
        if i == 2:
            break
        if i == 1:
            plays += 1
            assert "Raise: " in child.before and "Stacks: " in child.before
        child.sendline(child.match.group(1).split(" (")[0])
    child.close()
    assert child.exitstatus == 0, child.before
    assert plays >= 2
    summary = json.loads((only_log(tmp_path) / "summary.json").read_text())
    assert summary["result"] == "completed" and summary["hands_played"] == 2


def test_hints_describe_the_hand(tmp_path):
    child = spawn(tmp_path, hands=1)
    child.expect(REPLY)
    assert "init_round\r\nMoney: 0,0\r\nBlinds: 1,1\r\n" in child.before
    assert "you are player 0" in child.before
    child.sendline("READY")
    child.expect(r"you hold ([JQK])\.")
    card = child.match.group(1)
    child.expect(REPLY)
    child.sendline("READY")
    child.expect(CHOICE)
    assert f"You hold {card}; pot " in child.before
    assert "to call" in child.before
    child.sendintr()  # Ctrl-C: the server stops the round and keeps the logs
    child.expect("Interrupted. Logs: ")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_lowercase_reply_is_refused_like_a_bots(tmp_path):
    child = spawn(tmp_path)
    child.expect(REPLY)
    for _ in range(3):
        child.sendline("ready")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert "failed before the first hand: expected 'READY'" in child.before


def test_ctrl_d_leaves_the_table(tmp_path):
    """Leaving is no broken rule: exit code 0, and the summary says who left; the results
    follow, with the Logs line once."""
    child = spawn(tmp_path)
    while child.expect([REPLY, CHOICE, r"# Hand 1: "]) != 2:  # play hand 0 through
        child.sendline(child.match.group(1))
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = child.before.replace("\r\n", "\n")
    assert "end of input: you leave the table" in text
    assert ("Seat 1 (you, at the terminal) left the table in hand 1, after 1 complete hand.\n"
            in text)
    assert text.count("Logs: ") == 1 and "hands/s  bankrolls" not in text  # no progress line
    assert "failed" not in text and "Traceback" not in text
    summary = json.loads((only_log(tmp_path) / "summary.json").read_text())
    assert summary["result"] == "left" and summary["error"] is None
    assert summary["left"] == {"seat": 1, "bot": "you, at the terminal", "hand": 1}


def test_a_third_bad_try_is_reported_at_once_and_a_trailing_space_is_forgiven(tmp_path):
    """The Money line goes out with the next hand's first messages, in one write: the third
    refused Money reply is said at once to be refused, and the server's paragraph follows
    without the next hand's messages being asked."""
    child = spawn(tmp_path, hands=2)
    child.expect(REPLY)
    child.sendline("READY ")  # a space the person does not see
    shown = []
    while True:
        child.expect([REPLY, CHOICE])
        shown.append(child.before)
        if child.match.group(1).startswith("Money: "):
            break
        child.sendline(child.match.group(1))
    assert "is refused" not in "".join(shown)
    for typed in ("Money: 5,5", "Money 0,0"):
        child.sendline(typed)
        child.expect("Type it again")
    child.sendline("money please")
    child.expect(r"'money please' is refused: [^\r\n]*\. That was the last of 3 tries: it goes"
                 r" to the server, which ends the round\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    text = child.before.replace("\r\n", "\n")
    assert "Hand 1" not in text and "Reply" not in text  # the next hand is not asked
    assert "Bot at seat 1 (you, at the terminal) failed in hand 0: " in text
    assert "The bot replied: 'money please'" in text
    assert "Hint:" not in text and "debug output" not in text  # a person, not a program


def test_a_typo_is_refused_and_asked_again_three_times_in_all(tmp_path):
    child = spawn(tmp_path, hands=1)
    child.expect(REPLY)
    child.sendline("REDY")
    child.expect("'REDY' is refused: expected 'READY'. Type it again \\(2 more tries\\).")
    child.sendline("READY")
    child.expect(REPLY)
    child.sendline("READY")
    child.expect(CHOICE)
    child.sendline("BET 7")
    child.expect(r"'BET 7' is refused: BET 7 [^.]+\. Type it again \(2 more tries\)\.")
    child.sendline("bet 1")
    child.expect(r"'bet 1' is refused: unknown action 'bet' \(actions are in capitals: BET,"
                 r" FOLD\)\. Type it again \(1 more try\)\.")
    child.sendline("BET 9")  # the third try goes to the server, which judges it as a bot's
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    text = child.before.replace("\r\n", "\n")
    assert "Bot at seat 1 (you, at the terminal) failed in hand 0: BET 9 " in text
    assert "The bot replied: 'BET 9'" in text
    assert "Legal replies were: BET " in text
    summary = json.loads((only_log(tmp_path) / "summary.json").read_text())
    assert summary["result"] == "failed"
    assert summary["error"]["seat"] == 1


@pytest.mark.slow
def test_enter_sends_the_money_totals_and_the_goodbye(tmp_path):
    child = spawn(tmp_path, hands=2)
    offered = []

    def enter(reply: str) -> str | None:
        if reply.startswith("Money: ") or reply.startswith("Thank you"):
            offered.append(reply)
            return ""  # Enter
        return None

    play_through(child, enter)
    assert child.exitstatus == 0, child.before
    assert len(offered) == 3  # two Money lines and the goodbye
    summary = json.loads((only_log(tmp_path) / "summary.json").read_text())
    assert summary["result"] == "completed" and summary["hands_played"] == 2


def test_only_one_seat_can_be_the_terminal(tmp_path):
    child = pexpect.spawn(shlex.join([POKERBOTS, "run", "-", "human", "--logs", str(tmp_path)]),
                          encoding="utf-8", timeout=10)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert "only one seat can be the terminal" in child.before


def test_piped_replies_work_without_hints(tmp_path):
    """With stdin a pipe the seat reads scripted replies; no hints when stderr is not a tty."""
    import subprocess

    replies = "READY\nREADY\n"
    proc = subprocess.run([POKERBOTS, "run", OPPONENT, "-", "--hands", "1", "--seed", "11",
                           "--logs", str(tmp_path)], input=replies, capture_output=True,
                          text=True, timeout=20)
    assert proc.stdout.startswith("init_round\nMoney: 0,0\n")
    assert "# Reply" not in proc.stdout + proc.stderr
    # The scripted replies run out at the first decision: the seat leaves the table.
    assert proc.returncode == 0, proc.stderr
    assert "Seat 1 (you, at the terminal) left the table in hand 0" in proc.stderr
    summary = json.loads((only_log(tmp_path) / "summary.json").read_text())
    assert summary["result"] == "left" and summary["left"]["seat"] == 1


def test_enter_sends_every_reply_that_is_not_a_decision_and_the_results_say_1_hand(tmp_path):
    """READY, OK, the Money totals and the goodbye are offered: Enter sends them (shown as if
    typed); only the decisions are typed. The results speak of "1 hand", not "1 hands"."""
    child = spawn(tmp_path, hands=1)
    offered = []
    while True:
        i = child.expect([REPLY, CHOICE, pexpect.EOF])
        if i == 2:
            break
        if i == 1:
            child.sendline(child.match.group(1))
            continue
        reply = child.match.group(1)
        child.expect(r"\(Enter sends that reply\)")
        offered.append(reply)
        child.sendline("")
    child.close()
    assert child.exitstatus == 0, child.before
    assert offered[:2] == ["READY", "READY"] and "OK" in offered
    assert offered[-1] == "Thank you dealer, have a nice day!"
    text = child.before.replace("\r\n", "\n")
    assert "kuhn: 1 hand in " in text and "(0 hands/s)" not in text
    transcript = (only_log(tmp_path) / "seat1.in").read_text()
    assert transcript.count("init_hand\n") == 1


def test_a_reply_in_the_wrong_case_is_refused_saying_that_case_matters(tmp_path):
    child = spawn(tmp_path, hands=1)
    child.expect(REPLY)
    child.sendline("ready")
    child.expect(r"'ready' is refused: expected 'READY' \(the protocol's words are"
                 r" case-sensitive: type 'READY'\)\. Type it again")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()


def test_the_results_title_counts_hands_and_rates_below_one_a_second():
    from pokerbots.server.cli.run import results_title

    assert results_title("kuhn", 1, 2.5) == "kuhn: 1 hand in 2.50 s (0.4 hands/s)"
    assert results_title("kuhn", 3, 0.5) == "kuhn: 3 hands in 0.50 s (6 hands/s)"
    assert results_title("kuhn", 20000, 2.0) == "kuhn: 20,000 hands in 2.00 s (10,000 hands/s)"
    assert results_title("kuhn", 0, 0.0) == "kuhn: 0 hands"

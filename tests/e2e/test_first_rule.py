"""Fail fast names the first broken rule, not the last symptom: every reply a bot sent before
it exited, closed its output or went silent is judged first, in order, so a wrong ``Money``
line followed by an exit is a Money fault of the hand it answers, not "it exited"."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from processes import only_match_dir, pokerbots

#: Plays check/call with the client library, answers the first EndAction with a wrong Money
#: line (the right one with ``right`` after the mode), then exits (``exit``) or goes silent
#: (``silent``) or closes its output (``close``).
#: Each reply is written as soon as it is made, so the wrong Money line is in the server's
#: pipe before the bot ends.
WRONG_MONEY_THEN = """
import os, sys, time
from pokerbots.protocol.client import Client

then = sys.argv[1]
right = sys.argv[2:] == ["right"]
client = Client(lambda state: state.check_or_call(), check=False)
for line in sys.stdin.buffer:
    reply = client.feed(line)
    if reply is None:
        continue
    if reply.startswith(b"Money:"):
        sys.stdout.buffer.write((reply if right else b"Money: 5,-5") + b"\\n")
        sys.stdout.buffer.flush()
        if then == "exit":
            sys.exit(0)
        if then == "close":
            os.close(1)
            sys.stdin.read()
        time.sleep(60)
    sys.stdout.buffer.write(reply + b"\\n")
    sys.stdout.buffer.flush()
"""


@pytest.mark.parametrize("cpu, then", [
    ("0", "exit"), ("none", "exit"), ("none", "silent"),  # pinned, the Money line waits
    pytest.param("0", "silent", marks=pytest.mark.slow),   # for the next play; else not
    pytest.param("0", "close", marks=pytest.mark.slow),
    pytest.param("none", "close", marks=pytest.mark.slow),
])
def test_a_wrong_money_line_before_the_bot_ends_is_the_fault_reported(tmp_path, cpu, then):
    bot = tmp_path / "wrong_money.py"
    bot.write_text(WRONG_MONEY_THEN)
    logs = tmp_path / "logs"
    result = pokerbots("run", "bots/call_bot.py", f"{bot} {then}", "--hands", 5, "--seed", 1,
                       "--cpu", cpu, "--reply-timeout", 1, "--logs", logs,
                       cwd=_root())
    assert result.returncode == 1, result.stderr
    text = result.stderr
    assert "Bot at seat 1" in text and "failed in hand 0: the Money totals are wrong." in text
    assert "The bot replied: 'Money: 5,-5'" in text
    assert "Legal replies were: Money: -1,1." in text
    assert "instead of replying" not in text and "in time" not in text
    error = json.loads((only_match_dir(logs) / "summary.json").read_text())["error"]
    assert error["hand"] == 0 and error["received"] == "Money: 5,-5"


def test_a_piped_person_who_sends_a_wrong_money_line_and_ends_the_input_broke_a_rule(tmp_path):
    """The person's replies are forwarded as a bot's: the wrong Money line is judged before
    the end of the input is taken as leaving the table."""
    logs = tmp_path / "logs"
    replies = "READY\nREADY\nBET 1\nOK\nMoney: 0,0\n"  # the totals after hand 0 are -1,1
    proc = subprocess.run([sys.executable, "-m", "pokerbots.server.cli.main", "run",
                           "bots/call_bot.py", "-", "--hands", "3", "--seed", "1", "--logs",
                           str(logs)], input=replies, capture_output=True, text=True,
                          timeout=60, cwd=_root())
    assert proc.returncode == 1, proc.stderr
    assert ("Bot at seat 1 (you, at the terminal) failed in hand 0: the Money totals are"
            " wrong." in proc.stderr)
    assert "left the table" not in proc.stderr
    summary = json.loads((only_match_dir(logs) / "summary.json").read_text())
    assert summary["result"] == "failed" and summary["error"]["hand"] == 0


def test_a_piped_person_whose_replies_are_right_still_leaves_at_the_end_of_the_input(tmp_path):
    logs = tmp_path / "logs"
    replies = "READY\nREADY\nBET 1\nOK\nMoney: -1,1\n"
    proc = subprocess.run([sys.executable, "-m", "pokerbots.server.cli.main", "run",
                           "bots/call_bot.py", "-", "--hands", "3", "--seed", "1", "--logs",
                           str(logs)], input=replies, capture_output=True, text=True,
                          timeout=60, cwd=_root())
    assert proc.returncode == 0, proc.stderr
    assert "Seat 1 (you, at the terminal) left the table in hand 1, after 1 complete hand." \
        in proc.stderr
    assert json.loads((only_match_dir(logs) / "summary.json").read_text())["result"] == "left"


def test_a_bot_that_exits_after_right_replies_is_still_reported_as_exiting(tmp_path):
    """Judging the replies first changes nothing when they are right."""
    bot = tmp_path / "exits.py"
    bot.write_text(WRONG_MONEY_THEN)
    result = pokerbots("run", "bots/call_bot.py", f"{bot} exit right", "--hands", 5, "--seed", 1,
                       "--cpu", "none", "--logs", tmp_path / "logs", cwd=_root())
    assert result.returncode == 1, result.stderr
    assert "failed in hand 1: it exited with code 0 instead of replying." in result.stderr


def _root():
    from pathlib import Path

    return Path(__file__).resolve().parents[2]


# -- in-process, with the one driver: every shape of exchange -----------------------------


@pytest.mark.parametrize("defer", [False, True])
@pytest.mark.parametrize("players", [2, 3])
def test_the_replies_read_before_a_seat_stops_answering_are_judged_first(defer, players):
    """The last seat answers the first EndAction with wrong totals and then nothing: the
    fault is its Money fault in hand 0, whichever messages went out in the same write."""
    import random

    from pokerbots.server.errors import BotFault
    from pokerbots.server.games import make_game
    from pokerbots.server.referee.referee import Referee

    from drive import check_call, honest, run

    referee = Referee(make_game("kuhn", players), random.Random(3), hands=4, defer=defer)
    base = honest(referee, check_call)
    last = players - 1
    said = []

    def reply(seat, kind, message):
        if seat == last and said:
            return None  # it stopped answering
        if seat == last and kind == "end_action":
            said.append(message)
            return b"Money: 9," + b",".join([b"0"] * (players - 1))
        return base(seat, kind, message)

    with pytest.raises(BotFault) as caught:
        run(referee, reply)
    fault = caught.value
    assert (fault.seat, fault.hand, fault.kind) == (last, 0, "end_action")
    assert fault.reason == "the Money totals are wrong"


def test_another_seats_wrong_reply_read_before_a_seat_fails_is_judged_first():
    """Every seat's replies to one write are read in seat order: seat 0's wrong Money line
    was read before seat 1 stopped answering, and is the fault reported."""
    import random

    from pokerbots.server.errors import BotFault
    from pokerbots.server.games import make_game
    from pokerbots.server.referee.referee import Referee

    from drive import check_call, honest, run

    referee = Referee(make_game("kuhn", 2), random.Random(3), hands=4)
    base = honest(referee, check_call)

    def reply(seat, kind, message):
        if kind == "end_action":
            return b"Money: 7,-7" if seat == 0 else None
        return base(seat, kind, message)

    with pytest.raises(BotFault) as caught:
        run(referee, reply)
    assert (caught.value.seat, caught.value.hand, caught.value.kind) == (0, 0, "end_action")

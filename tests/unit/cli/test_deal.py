"""pokerbots deal: the exact text of one seat, matching a real match and fed to a real bot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pokerbots.protocol import GOODBYE
from pokerbots.server.games import make_game
from pokerbots.server.referee.transcript import seat_text

ROOT = Path(__file__).resolve().parents[3]
POKERBOTS = str(Path(sys.executable).with_name("pokerbots"))
CALL_BOT = ROOT / "bots" / "call_bot.py"


def deal(*args) -> subprocess.CompletedProcess:
    return subprocess.run([POKERBOTS, "deal", *args], capture_output=True, timeout=30)


def test_prints_one_seats_messages_only():
    proc = deal("--players", "3", "--seed", "7", "--hands", "2", "--seat", "1")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.decode()
    assert text.startswith("init_round\nMoney: 0,0,0\nBlinds: 1,1,1\nButton: ")
    assert text.count("init_hand\n") == 2
    assert text.endswith("end_round\nBankrolls: " + text.rsplit("Bankrolls: ", 1)[1])
    assert "READY" not in text and GOODBYE not in text  # no replies: it is a bot's input


def test_same_cards_as_pokerbots_run(tmp_path):
    """Check/call bots in a real match receive byte for byte what deal prints."""
    if not CALL_BOT.exists():
        pytest.skip("bots/call_bot.py is not in this checkout")
    subprocess.run([POKERBOTS, "run", *[str(CALL_BOT)] * 3, "--seed", "7", "--hands", "4",
                    "--logs", str(tmp_path), "--cpu", "none"], check=True, capture_output=True,
                   timeout=30)
    (log,) = list(tmp_path.iterdir())
    for seat in range(3):
        proc = deal("--players", "3", "--seed", "7", "--hands", "4", "--seat", str(seat))
        assert proc.stdout == (log / f"seat{seat}.in").read_bytes()


def test_a_bot_can_read_it_without_a_server(tmp_path):
    """The debugging loop: ./mybot < that.txt shows the bot's replies."""
    out = tmp_path / "seat0.txt"
    assert deal("--seed", "3", "--hands", "3", "-o", str(out)).returncode == 0
    with open(out, "rb") as f:
        proc = subprocess.run([sys.executable, "-m", "pokerbots.server.play.smoke_random"],
                              stdin=f, capture_output=True, timeout=30)
    replies = proc.stdout.decode().splitlines()
    assert proc.returncode == 0, proc.stderr
    assert replies[:2] == ["READY", "READY"]
    assert replies[-1] == GOODBYE
    assert sum(r.startswith("Money: ") for r in replies) == 3


def test_replies_flag_interleaves_the_check_call_replies():
    proc = deal("--seed", "3", "--hands", "1", "--replies")
    text = proc.stdout.decode()
    assert text.startswith("init_round\n")
    assert "EndProb: 0,1\nREADY\ninit_hand\n" in text
    assert text.endswith(GOODBYE + "\n")


def test_holdem_text():
    pytest.importorskip("eval7")
    game = make_game("holdem-limit", 3)
    text = seat_text(game, 2, seed=5, hands=2).decode()
    assert "Game: holdem-limit\nStack: " in text
    assert "BetSizes: 10,20\n" in text
    assert "Raise: " in text and "Board: " in text
    proc = deal("--game", "holdem-limit", "--players", "3", "--seed", "5", "--hands", "2",
                "--seat", "2")
    assert proc.stdout.decode() == text


@pytest.mark.parametrize("args, message", [
    (["--seat", "2"], "seat 2 does not exist at a table of 2"),
    (["--players", "7"], "kuhn is played by 2 to 6 players, not 7"),
    (["--hands", "0"], "--hands"),
    (["--blinds", "1/2"], "applies to holdem-nl and holdem-limit, not to kuhn"),
])
def test_usage_errors(args, message):
    proc = deal(*args)
    assert proc.returncode == 2
    assert message in proc.stderr.decode()

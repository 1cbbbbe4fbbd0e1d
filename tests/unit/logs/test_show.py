"""pokerbots show: summary, hand history and chart of finished, failed and cut-short matches."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pokerbots.server.logs.show import chart, show_text
from pokerbots.server.play.match import MatchConfig, run_match
from pokerbots.server.seats.bots import BotSpec

POKERBOTS = str(Path(sys.executable).with_name("pokerbots"))


def random_bot(seed: int) -> BotSpec:
    return BotSpec(f"random-{seed}",
                   (sys.executable, "-m", "pokerbots.server.play.smoke_random", "--seed",
                    str(seed)))


def bad_bot(tmp_path: Path) -> BotSpec:
    """Checks or calls for one hand, then answers init_hand with a lowercase ready."""
    script = tmp_path / "bad.py"
    script.write_text(
        "import sys\n"
        "from pokerbots.protocol.client import Client\n"
        "client = Client(lambda state: state.check_or_call())\n"
        "for line in sys.stdin.buffer:\n"
        "    reply = client.feed(line)\n"
        "    if reply is None:\n"
        "        continue\n"
        "    print('bad bot saw', reply, file=sys.stderr)\n"
        "    if reply == b'READY' and client.hand >= 1:\n"
        "        reply = b'ready'\n"
        "    sys.stdout.buffer.write(reply + b'\\n')\n"
        "    sys.stdout.flush()\n"
    )
    return BotSpec("bad.py", (sys.executable, str(script)))


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    logs = tmp_path_factory.mktemp("logs")
    outcome, path = run_match(MatchConfig(bots=[random_bot(1), random_bot(2), random_bot(3)],
                                          seed=5, hands=40, logs=logs))
    assert outcome.fault is None
    return path


def test_finished_match(finished):
    text = show_text(finished, width=80)
    assert f"Match: {finished}" in text
    assert "Game: kuhn, 3 players, seed 5" in text
    assert "Result: completed after 40 hands" in text
    for seat in range(3):
        assert f"random-{seat + 1}" in text
    assert "Hand history (last 10 of 40 hands; --all for every hand)" in text
    assert "Hand 39: the button is " in text and "Hand 29:" not in text
    assert "Bankrolls over the hands:" in text
    assert "0  seat 0: random-1" in text
    assert "hands 40" in text


def test_all_hands_and_leaving_parts_out(finished):
    text = show_text(finished, last=None, chart_shown=False)
    assert "Hand 0: the button is" in text and "Hand 39: the button is" in text
    assert "Bankrolls over the hands" not in text
    text = show_text(finished, hands_shown=False)
    assert "Hand 39" not in text and "Bankrolls over the hands" in text


def test_failed_match_shows_the_error_and_transcript(tmp_path):
    outcome, path = run_match(MatchConfig(bots=[random_bot(1), bad_bot(tmp_path)], seed=2,
                                          hands=5, logs=tmp_path / "logs"))
    assert outcome.fault is not None and outcome.fault.seat == 1
    proc = subprocess.run([POKERBOTS, "show", str(path)], capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Result: FAILED in hand 1 (1 hand completed)" in out
    assert ("Bot at seat 1 (bad.py) failed in hand 1: expected 'READY' (the protocol's words are"
            " case-sensitive: 'READY').") in out
    assert "The bot replied: 'ready'" in out
    assert f"Transcript of seat 1: {path / 'seat1.in'}" in out
    assert "bad bot saw" in out  # the tail of its stderr
    assert "Hand 0: the button is" in out


def test_logs_folder_shows_the_newest_match(finished):
    proc = subprocess.run([POKERBOTS, "show", str(finished.parent), "--no-hands"],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0
    assert f"Match: {finished}" in proc.stdout


def test_match_without_summary(finished, tmp_path):
    """A server killed mid-match leaves hands.jsonl (maybe with a cut line) but no summary."""
    cut = tmp_path / "cut"
    cut.mkdir()
    lines = (finished / "hands.jsonl").read_text().splitlines()
    (cut / "hands.jsonl").write_text("\n".join(lines[:7]) + "\n" + lines[7][:20])
    text = show_text(cut)
    assert "No summary.json" in text
    assert "Hand 6: the button is" in text and "Hand 7:" not in text
    assert "hands 7" in text


def test_usage_errors(tmp_path):
    proc = subprocess.run([POKERBOTS, "show", str(tmp_path / "nope")], capture_output=True,
                          text=True, timeout=30)
    assert proc.returncode == 2 and "does not exist" in proc.stderr
    proc = subprocess.run([POKERBOTS, "show", str(tmp_path)], capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 2 and "holds no match logs" in proc.stderr


def test_chart_scales_and_marks_every_seat():
    series = [[0, 5, 10, 20], [0, -5, -10, -20]]
    text = chart(series, width=12, height=9, labels=["a", "b"])
    rows = text.splitlines()
    assert rows[0].startswith("+20 |") and rows[0].rstrip().endswith("0")
    assert rows[8].startswith("-20 |") and rows[8].rstrip().endswith("1")
    assert rows[4].startswith("  0 |")
    assert "hands 3" in rows[10]
    assert rows[-2:] == ["  0  seat 0: a", "  1  seat 1: b"]
    assert chart([[0]]).startswith("(no hand")

"""What a match leaves on disk: hands.jsonl after every hand, hands.txt rendered from it at the
end, and the seat transcripts kept always, only for a round that did not complete, or never."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from processes import only_match_dir, pokerbots

ROOT = Path(__file__).resolve().parents[3]
CALL = ROOT / "bots" / "call_bot.py"
BAD = ROOT / "tests" / "programs" / "bad_bots" / "kuhn_bot.py"


def run(tmp_path: Path, *bots, transcripts: str | None = None):
    args = [*bots, "--hands", 5, "--seed", 2, "--logs", tmp_path / "logs"]
    if transcripts is not None:
        args += ["--transcripts", transcripts]
    result = pokerbots("run", *args)
    return result, only_match_dir(tmp_path / "logs")


# the default (None) and "none" in the default run; "full" and "failed" are slow (CI runs them)
@pytest.mark.parametrize("transcripts, kept", [
    (None, True), pytest.param("full", True, marks=pytest.mark.slow),
    pytest.param("failed", False, marks=pytest.mark.slow), ("none", False)])
def test_a_completed_round_keeps_its_transcripts_as_asked(tmp_path, transcripts, kept):
    result, match = run(tmp_path, CALL, CALL, transcripts=transcripts)
    assert result.returncode == 0, result.stderr
    assert [p.name for p in sorted(match.glob("seat*.in"))] == (
        ["seat0.in", "seat1.in"] if kept else [])
    assert len((match / "hands.jsonl").read_text().splitlines()) == 5
    history = (match / "hands.txt").read_text()
    assert history.count("Hand ") == 5 and "result:" in history


@pytest.mark.parametrize("transcripts, kept", [("failed", True), ("none", False)])
def test_a_failed_round_keeps_its_transcripts_unless_none_are_wanted(tmp_path, transcripts,
                                                                      kept):
    result, match = run(tmp_path, CALL, f"{sys.executable} {BAD} --fault garbage --at-hand 2",
                        transcripts=transcripts)
    assert result.returncode == 1
    assert (match / "seat1.in").exists() is kept
    if kept:  # the transcript ends with the play message the bot answered wrongly
        last = (match / "seat1.in").read_text().rsplit("init_hand\nHand: ", 1)[1]
        assert last.startswith("2\n") and "\nplay\nAction: " in last
    summary = json.loads((match / "summary.json").read_text())
    assert summary["result"] == "failed" and summary["hands_played"] == 2
    assert (match / "hands.txt").read_text().count("Hand ") == 2

"""Errors that are not a bot's fault: a full disk, a log folder removed during the match, a bug
in the server. Exit code 3, one paragraph naming the path and the error, every hand written
before kept and readable, every bot ended, never a traceback and never exit code 1."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pokerbots.server.logs.show import show_text
from pokerbots.server.play.match import MatchConfig, prepare, run_prepared
from pokerbots.server.seats.arguments import parse_bot
from pokerbots.server.seats.limits import Limits

from processes import processes_mentioning
from waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "tests" / "programs" / "bad_bots" / "kuhn_bot.py"


@pytest.fixture
def bot(tmp_path):
    """A private copy of a good bot, so that its processes can be found by their path."""
    folder = tmp_path / "bots"
    folder.mkdir()
    return Path(shutil.copy(GOOD, folder / "good.py"))


def server(args, *, file_size: int | None = None, **kwargs) -> subprocess.Popen:
    def limit():
        if file_size is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    return subprocess.Popen([sys.executable, "-m", "pokerbots.server.cli.main", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=limit, **kwargs)


def readable_hands(folder: Path) -> list[dict]:
    """Every line of hands.jsonl, each of which must be a whole hand; hands.txt ends with a
    whole hand too (it may hold fewer: it is flushed after hands.jsonl)."""
    lines = (folder / "hands.jsonl").read_text().splitlines()
    hands = [json.loads(line) for line in lines]
    assert [h["hand"] for h in hands] == list(range(len(hands)))
    text = (folder / "hands.txt").read_text()
    assert text.count("\nHand ") + text.startswith("Hand ") <= len(hands)
    assert text == "" or text.endswith("\n\n")
    return hands


def check_paragraph(err: str, *needles: str) -> None:
    assert "Traceback" not in err
    assert err.startswith("The server could not go on while "), err
    assert "No bot broke a rule; the bots were ended." in err
    for needle in needles:
        assert needle in err, err


@pytest.mark.slow
def test_a_log_file_that_cannot_grow_ends_the_match_with_exit_code_3(tmp_path, bot):
    """RLIMIT_FSIZE makes every log file stop at 20 KB, as a full disk would."""
    logs = tmp_path / "logs"
    proc = server(["run", bot, bot, "--hands", 5000, "--seed", 1, "--logs", logs],
                  file_size=20_000)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 3, err
    (folder,) = logs.iterdir()
    check_paragraph(err, "File too large (errno EFBIG)", str(folder), "Free some space")
    assert "/hands." in err or "/seat" in err  # the file that could not be written
    hands = readable_hands(folder)
    assert 10 < len(hands) < 5000
    assert f"The {len(hands)} hands completed before are kept in {folder}." in err
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["result"] == "server-error" and summary["error"] is None
    assert summary["server_error"]["error"].startswith("File too large")
    assert processes_mentioning(str(bot)) == []


@pytest.mark.slow
def test_a_log_folder_removed_during_the_match(tmp_path, bot):
    logs = tmp_path / "logs"
    proc = server(["run", bot, bot, "--hands", 10_000_000, "--end-prob", "0/1", "--seed", 1,
                   "--logs", logs])
    (logged,) = wait_for("the first hand logged", lambda: [
        p for p in logs.glob("*/hands.jsonl") if p.stat().st_size > 0], timeout=60)
    folder = logged.parent
    shutil.rmtree(folder)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 3, err
    check_paragraph(err, f"writing the match's logs into {folder}",
                    "the log folder was removed during the match (No such file or directory)",
                    "Keep the log folder until the match is over.")
    assert processes_mentioning(str(bot)) == []


def _mount_tmpfs(path: Path, size: str) -> bool:
    path.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                          capture_output=True)
    return done.returncode == 0


@pytest.mark.slow
def test_a_full_disk(tmp_path, bot):
    """A real full file system: a 256 KiB tmpfs (needs root to mount it)."""
    disk = tmp_path / "disk"
    if not _mount_tmpfs(disk, "256k"):
        pytest.skip("mounting a small tmpfs needs root and mount(8)")
    try:
        proc = server(["run", bot, bot, "--hands", 50_000, "--seed", 2, "--logs", disk])
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 3, err
        (folder,) = disk.iterdir()
        check_paragraph(err, "No space left on device (errno ENOSPC)", str(folder))
        assert len(readable_hands(folder)) > 10
        assert processes_mentioning(str(bot)) == []
    finally:
        subprocess.run(["umount", "-l", str(disk)])


def test_a_bug_in_the_server_is_exit_code_3_with_the_traceback_kept(tmp_path, bot):
    """Any exception of the server while playing: the bots are ended, the hands kept, and the
    traceback saved beside the logs instead of printed."""
    config = MatchConfig(bots=[parse_bot(str(bot))] * 2, hands=20, seed=3,
                         logs=tmp_path / "logs", limits=Limits(), cpu=None)
    match = prepare(config)
    record = match.referee.on_hand

    def buggy(hand):
        record(hand)
        if hand["hand"] == 4:
            raise RuntimeError("an invented bug")

    match.referee.on_hand = buggy
    outcome = run_prepared(match)
    failure = outcome.failure
    assert failure is not None and outcome.fault is None
    assert failure.error == "RuntimeError: an invented bug"
    text = failure.paragraph(logs=str(match.log.path), hands=outcome.hands)
    assert "This is a bug in pokerbots: please report it; its traceback is in " in text
    assert "raise RuntimeError" in (match.log.path / "server-error.txt").read_text()
    assert len(readable_hands(match.log.path)) == 5
    summary = json.loads((match.log.path / "summary.json").read_text())
    assert summary["result"] == "server-error"
    shown = show_text(match.log.path, chart_shown=False)
    assert "Result: the SERVER could not go on after 5 hands" in shown
    assert "The server could not go on while playing the round: RuntimeError" in shown
    assert processes_mentioning(str(bot)) == []

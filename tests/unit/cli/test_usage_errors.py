"""Bad options and bad bot paths are usage errors (exit code 2), caught before any bot starts,
with a message that says what to type instead."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from processes import pokerbots

ROOT = Path(__file__).resolve().parents[3]
GOOD = str(ROOT / "tests" / "programs" / "bad_bots" / "kuhn_bot.py")


@pytest.fixture
def marker_bot(tmp_path):
    """A bot that leaves a file behind if it is ever started."""
    path = tmp_path / "marker_bot.py"
    path.write_text(f"open({str(tmp_path / 'STARTED')!r}, 'w').close()\n")
    return path


def check_usage(result, *needles):
    assert result.returncode == 2, (result.returncode, result.stderr)
    for needle in needles:
        assert needle in result.stderr, result.stderr


@pytest.mark.parametrize("args, needles", [
    (["--game", "poker"], ["'poker' is not one of 'kuhn', 'holdem-nl', 'holdem-limit'"]),
    (["--end-prob", "3/2"], ["'3/2' is not a probability", "0 <= a <= b"]),
    (["--end-prob", "half"], ["write it as a/b, e.g. 1/1000"]),
    (["--hands", "-3"], ["--hands", "at least 1"]),
    (["--cards", "/nonexistent/cards.txt"],
     ["cannot read the cards file /nonexistent/cards.txt", "give --cards a readable"]),
    (["--reply-timeout", "0"], ["--reply-timeout"]),
    (["--time-bank", "-1"], ["--time-bank"]),
    (["--max-memory", "lots"], ["--max-memory", "is not a valid integer"]),
])
def test_bad_options(tmp_path, marker_bot, args, needles):
    result = pokerbots("run", marker_bot, marker_bot, "--logs", tmp_path / "logs", *args)
    check_usage(result, *needles)
    assert not (tmp_path / "STARTED").exists()


def test_wrong_player_count(tmp_path, marker_bot):
    result = pokerbots("run", marker_bot, "--logs", tmp_path / "logs")
    check_usage(result, "kuhn is played by 2 to 6 players, not 1")
    assert not (tmp_path / "STARTED").exists()


def test_unwritable_log_folder(tmp_path, marker_bot):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    if os.geteuid() == 0:  # root writes through permissions, but not into sysfs
        locked = Path("/sys")
    result = pokerbots("run", marker_bot, marker_bot, "--logs", locked / "pokerbots-logs")
    check_usage(result, "cannot create a log folder under", "give --logs a folder")
    assert not (tmp_path / "STARTED").exists()


def test_unusable_log_folder(tmp_path, marker_bot):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = pokerbots("run", marker_bot, marker_bot, "--logs", blocker / "logs")
    check_usage(result, "cannot create a log folder under", "give --logs a folder")
    assert not (tmp_path / "STARTED").exists()


def test_bot_paths(tmp_path, marker_bot):
    not_exec = tmp_path / "bot.sh"
    not_exec.write_text("#!/bin/sh\necho READY\n")
    no_interpreter = tmp_path / "bot.rb"
    no_interpreter.write_text("#!/usr/bin/env no-such-interpreter-xyz\n")
    no_interpreter.chmod(0o755)
    abs_interpreter = tmp_path / "bot2"
    abs_interpreter.write_text("#!/opt/missing/bin/python9\n")
    abs_interpreter.chmod(0o755)
    cases = [
        (tmp_path / "missing_bot", "does not exist"),
        (not_exec, "is not executable (chmod +x"),
        (tmp_path, "is a directory, not a program"),
        (no_interpreter, "asks for 'no-such-interpreter-xyz', which is not on PATH"),
        (abs_interpreter, "#! interpreter /opt/missing/bin/python9 does not exist"),
        ("no-such-command-xyz --fast", "is neither a file here nor a command on PATH"),
    ]
    for bot, needle in cases:
        result = pokerbots("run", marker_bot, bot, "--logs", tmp_path / "logs")
        check_usage(result, needle)
    assert not (tmp_path / "STARTED").exists()
    assert not (tmp_path / "logs").exists()


def test_sandbox_without_bubblewrap(tmp_path, marker_bot):
    env = dict(os.environ, PATH=str(tmp_path / "empty-path"))
    result = pokerbots("run", marker_bot, marker_bot, "--sandbox", "--logs", tmp_path / "logs",
                       env=env)
    check_usage(result, "--sandbox needs bubblewrap (bwrap)", "apt-get install bubblewrap")
    assert not (tmp_path / "STARTED").exists()


@pytest.mark.slow
def test_windows_line_endings_and_paths_with_spaces_say_exactly_that(tmp_path, marker_bot):
    crlf = tmp_path / "crlf_bot"
    crlf.write_bytes(b"#!/usr/bin/env python3\r\nprint('READY')\r\n")
    crlf.chmod(0o755)
    result = pokerbots("run", marker_bot, crlf, "--logs", tmp_path / "logs")
    check_usage(result, "has Windows line endings (CRLF)",
                "looks for an interpreter named 'python3\\r'", f"dos2unix {crlf}")
    spaced = tmp_path / "my bots" / "bot.py"
    spaced.parent.mkdir()
    spaced.write_text(marker_bot.read_text())
    result = pokerbots("run", marker_bot, spaced, "--logs", tmp_path / "logs")
    check_usage(result, "the path has a space in it",
                f"quote the path inside the argument, as in \"'{spaced}'\"")
    assert not (tmp_path / "STARTED").exists()


def test_a_cpu_that_does_not_exist(tmp_path, marker_bot):
    allowed = sorted(os.sched_getaffinity(0))
    result = pokerbots("run", marker_bot, marker_bot, "--cpu", max(allowed) + 5,
                       "--logs", tmp_path / "logs")
    check_usage(result, f"there is no CPU {max(allowed) + 5} here: this machine lets pokerbots"
                        f" use CPU")
    assert str(allowed[-1]) in result.stderr.split("use CPU")[1]
    assert not (tmp_path / "STARTED").exists()
    assert not (tmp_path / "logs").exists()


def test_fewer_deals_than_hands(tmp_path, marker_bot):
    cards = tmp_path / "cards.txt"
    cards.write_text("Q J\nK Q\n")
    result = pokerbots("run", marker_bot, marker_bot, "--cards", cards, "--hands", 5,
                       "--logs", tmp_path / "logs")
    check_usage(result, f"the cards file {cards} holds 2 deals, fewer than the 5 hands asked"
                        " for", "--hands 2")
    assert not (tmp_path / "STARTED").exists()

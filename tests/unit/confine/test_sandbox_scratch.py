"""A sandboxed bot's disk is its own: its scratch folder is a tmpfs of ``--max-scratch`` MiB
made for it (server/confine/sandbox.py), never a folder of the server's disk.

A bot that fills it gets ``ENOSPC`` in its own folder, and plays on or dies of it (then it is
blamed by name, its stderr saying why); the match's own logs are complete, and the server's
writes never fail because of a bot. The bot is
``tests/programs/hostile/hostile.py fill-scratch``: it
writes files of 64 MiB (below ``--max-file-size``) into ``$TMPDIR`` and reports on its stderr
how much it wrote, where, the free space of that file system before and after, and the error
that stopped it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pokerbots.server.confine import sandbox
from pokerbots.server.play.options import LIMIT_OPTIONS, limits_from_options

from processes import only_match_dir, pokerbots, processes_mentioning

ROOT = Path(__file__).resolve().parents[3]
HOSTILE = ROOT / "tests" / "programs" / "hostile" / "hostile.py"
GOOD = ROOT / "tests" / "programs" / "bad_bots" / "kuhn_bot.py"

needs_sandbox = pytest.mark.skipif(
    sandbox.bwrap_path() is None or sandbox.isolation_problem() is not None,
    reason=f"bubblewrap cannot make namespaces here: {sandbox.isolation_problem()}")

#: hostile.py's report: MiB written, files, folder, free MiB before and after, how it ended.
FILLED = re.compile(r"FILLED (\d+) MiB in (\d+) files in (\S+) \(free before (\d+) MiB,"
                    r" after (\d+) MiB\), (.*)")


@pytest.fixture
def bots(tmp_path):
    """Private copies of the bots, in a folder of their own."""
    folder = tmp_path / "bots"
    folder.mkdir()
    shutil.copy(HOSTILE, folder / "hostile.py")
    shutil.copy(GOOD, folder / "good.py")
    return folder


def host_tmp(tmp_path: Path) -> tuple[Path, dict]:
    """A temporary folder of the server's own (its TMPDIR), and the environment that says so."""
    folder = tmp_path / "host-tmp"
    folder.mkdir(exist_ok=True)
    return folder, {**os.environ, "TMPDIR": str(folder)}


def left_in(tmp: Path) -> tuple[list[str], int]:
    """What the server's temporary folder holds after a match: the copies of the bots' folders
    left there, and the bytes of every file (the claims on CPUs are empty files)."""
    copies = [p.name for p in tmp.iterdir() if p.name.startswith("pokerbots-bots-")]
    return copies, sum(p.stat().st_size for p in tmp.rglob("*") if p.is_file())


def filled(text: str) -> tuple[int, int, str, int, int, str]:
    found = FILLED.search(text)
    assert found, text
    mib, files, folder, before, after, ending = found.groups()
    return int(mib), int(files), folder, int(before), int(after), ending


def test_max_scratch_is_a_bot_limit_of_every_command_that_plays():
    assert "max_scratch" in LIMIT_OPTIONS
    assert limits_from_options().resources.scratch_mib == 256
    assert limits_from_options(max_scratch=16).resources.scratch_mib == 16
    for command in ("run", "tournament", "serve"):
        shown = pokerbots(command, "--help")
        assert shown.returncode == 0, shown.stderr
        assert "--max-scratch" in shown.stdout, command


@needs_sandbox
def test_a_bot_that_fills_its_scratch_gets_enospc_at_the_limit_and_plays_on(tmp_path, bots):
    """16 MiB of scratch: the write beyond them fails with ENOSPC in the bot's own tmpfs (its
    free space before: the limit, not the server's disk), the match completes with every
    hand logged, and the server's temporary folder holds nothing afterwards."""
    tmp, env = host_tmp(tmp_path)
    logs = tmp_path / "logs"
    result = pokerbots("run", "--sandbox", "--max-scratch", 16, "--hands", 10, "--seed", 4,
                       "--logs", logs, f"{bots / 'hostile.py'} fill-scratch --mib 64",
                       bots / "good.py", env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    folder = only_match_dir(logs)
    mib, _, where, before, after, ending = filled((folder / "seat0.stderr").read_text())
    assert where == sandbox.SCRATCH == "/tmp"
    assert 14 <= mib <= 16 and before <= 16 and after == 0  # a 16 MiB file system of its own
    assert "[Errno 28] No space left on device" in ending
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["result"] == "completed" and summary["hands_played"] == 10
    assert len((folder / "hands.jsonl").read_text().splitlines()) == 10
    assert left_in(tmp) == ([], 0)  # the bot folder's copy is gone, and nothing was written
    assert processes_mentioning(str(bots)) == []


@needs_sandbox
def test_a_bot_that_dies_of_its_full_scratch_is_blamed_by_name(tmp_path, bots):
    """It raises the error of the write that did not fit: the fault names it, in the hand it
    failed, and the last lines of its stderr say "No space left on device"."""
    _, env = host_tmp(tmp_path)
    logs = tmp_path / "logs"
    bot = f"{bots / 'hostile.py'} fill-scratch-crash --at-hand 2"
    result = pokerbots("run", "--sandbox", "--max-scratch", 8, "--hands", 10, "--seed", 4,
                       "--logs", logs, bots / "good.py", bot, env=env, timeout=120)
    assert result.returncode == 1, result.stderr
    assert f"Bot at seat 1 ({bot}) failed in hand 2: it exited with code 1" in result.stderr
    assert "Last lines of its stderr:" in result.stderr
    assert "OSError: [Errno 28] No space left on device" in result.stderr
    folder = only_match_dir(logs)
    mib, *_ = filled((folder / "seat1.stderr").read_text())
    assert mib <= 8
    assert [json.loads(line)["hand"] for line in
            (folder / "hands.jsonl").read_text().splitlines()] == [0, 1]
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["error"]["seat"] == 1


def _mount_tmpfs(path: Path, size: str) -> bool:
    path.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                          capture_output=True)
    return done.returncode == 0


@needs_sandbox
def test_a_bot_cannot_fill_the_servers_disk(tmp_path, bots):
    """The failure the scratch folder's limit answers: the server's temporary folder and its
    logs on one small file system (a 24 MiB tmpfs; needs root to mount it), and a bot that
    writes 64 MiB. Its scratch in the host's temporary folder once filled that disk, and the
    match ended with exit code 3 ("could not go on while writing hands.jsonl: No space left
    on device ... No bot broke a rule"). Now the bot writes its 32 MiB of scratch, more than
    the server's disk holds, and the match completes: the server's disk is as before."""
    disk = tmp_path / "disk"
    if not _mount_tmpfs(disk, "24m"):
        pytest.skip("mounting a small tmpfs needs root and mount(8)")
    try:
        tmp = disk / "tmp"
        tmp.mkdir()
        env = {**os.environ, "TMPDIR": str(tmp)}
        used = shutil.disk_usage(disk).used
        result = pokerbots("run", "--sandbox", "--max-scratch", 32, "--hands", 200, "--seed", 4,
                           "--logs", disk / "logs", f"{bots / 'hostile.py'} fill-scratch --mib 64",
                           bots / "good.py", env=env, timeout=120)
        assert result.returncode == 0, result.stderr
        folder = only_match_dir(disk / "logs")
        mib, _, _, before, _, ending = filled((folder / "seat0.stderr").read_text())
        assert 30 <= mib <= 32 and before <= 32 and "No space left on device" in ending
        summary = json.loads((folder / "summary.json").read_text())
        assert summary["result"] == "completed" and summary["hands_played"] == 200
        assert left_in(tmp) == ([], 0)
        assert shutil.disk_usage(disk).used - used < 1 << 20  # the match's logs only
    finally:
        subprocess.run(["umount", "-l", str(disk)])

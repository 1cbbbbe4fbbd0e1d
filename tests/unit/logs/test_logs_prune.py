"""`pokerbots logs prune`: old match folders go, everything else under the logs folder stays."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from pokerbots.server.logs.prune import to_delete

from processes import pokerbots

DAY = 86400.0


def make_logs(root: Path, ages_in_days: list[float]) -> list[Path]:
    """One fake match folder per age (summary.json and hands.jsonl), plus things that are not
    matches: a folder of notes and a file."""
    now = time.time()
    folders = []
    for i, age in enumerate(ages_in_days):
        folder = root / f"match-{i}"
        folder.mkdir(parents=True)
        (folder / "summary.json").write_text("{}\n")
        (folder / "hands.jsonl").write_text("x" * 1000 + "\n")
        for path in (*folder.iterdir(), folder):
            os.utime(path, (now - age * DAY, now - age * DAY))
        folders.append(folder)
    (root / "notes").mkdir()
    (root / "notes" / "todo.txt").write_text("not a match\n")
    os.utime(root / "notes", (now - 100 * DAY, now - 100 * DAY))
    (root / ".gitkeep").write_text("")
    return folders


def test_keep_older_than_and_both(tmp_path):
    folders = make_logs(tmp_path, [0.1, 1, 3, 8, 30])
    doomed, kept = to_delete(tmp_path, keep=2, older_than=None)
    assert doomed == folders[2:] and kept == 2
    doomed, kept = to_delete(tmp_path, keep=None, older_than=7 * DAY)
    assert doomed == folders[3:] and kept == 3
    doomed, kept = to_delete(tmp_path, keep=4, older_than=7 * DAY)  # older AND not in the 4
    assert doomed == folders[4:] and kept == 4


@pytest.mark.slow
def test_the_command_deletes_only_old_matches(tmp_path):
    folders = make_logs(tmp_path, [0.1, 1, 3, 8, 30])
    dry = pokerbots("logs", "prune", tmp_path, "--older-than", "7d", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert f"would delete {folders[3]}" in dry.stdout
    assert "Would delete 2 match folders" in dry.stdout
    assert all(f.exists() for f in folders)
    done = pokerbots("logs", "prune", tmp_path, "--keep", "1")
    assert done.returncode == 0, done.stderr
    assert f"Deleted 4 match folders (0.0 MiB) from {tmp_path}; 1 kept." in done.stdout
    assert [f.exists() for f in folders] == [True, False, False, False, False]
    assert (tmp_path / "notes" / "todo.txt").exists() and (tmp_path / ".gitkeep").exists()


@pytest.mark.slow
def test_usage_errors(tmp_path):
    result = pokerbots("logs", "prune", tmp_path)
    assert result.returncode == 2 and "--keep N" in result.stderr
    result = pokerbots("logs", "prune", tmp_path, "--older-than", "a week")
    assert result.returncode == 2 and "give a number and a unit" in result.stderr
    result = pokerbots("logs", "prune", tmp_path / "missing", "--keep", "1")
    assert result.returncode == 2 and "is not a folder" in result.stderr

"""Helpers for the tests that run the real command and real bot processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def pokerbots(*args, cwd=None, env=None, timeout=60) -> subprocess.CompletedProcess:
    """Run ``pokerbots ARGS`` (under this Python) and capture its output as text."""
    return subprocess.run(
        [sys.executable, "-m", "pokerbots.server.cli.main", *map(str, args)],
        capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout,
    )


def only_match_dir(logs: Path) -> Path:
    """The one match folder under ``logs`` (fails if there is not exactly one)."""
    (path,) = [p for p in logs.iterdir() if p.is_dir()]
    return path


def processes_mentioning(text: str) -> list[int]:
    """Every process whose command line contains ``text``: a stray bot, after a round."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if text.encode() in cmdline:
            found.append(int(pid))
    return found

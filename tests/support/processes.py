"""Helpers for the tests that run the real command and real bot processes."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

#: A mark in the environment of this test run, inherited by every process it starts (the
#: bots, their relays, what they start in turn, also a sandboxed bot: a sandbox keeps the
#: ``POKERBOTS_*`` variables), and by nothing another run starts on the same machine.
RUN_MARK = "POKERBOTS_TEST_RUN"
os.environ.setdefault(RUN_MARK, f"{os.getpid()}-{uuid.uuid4().hex}")
_MARK = f"{RUN_MARK}={os.environ[RUN_MARK]}".encode()


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
    """Every process this test run started (it carries :data:`RUN_MARK`, even one that left
    its parent) whose command line contains ``text``: a stray bot, after a round. Another run's
    processes (a match, a service, another checkout's tests) are not counted."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            if text.encode() not in cmdline:
                continue
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if _MARK in environ.split(b"\0"):
            found.append(int(pid))
    return found

"""Running ``pokerbots certify`` as a user does, and reading its lines."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POKERBOTS = str(Path(sys.executable).with_name("pokerbots"))
#: A case's line: its outcome, game and name.
LINE = re.compile(r"^(PASS|SKIP|FAIL|ERROR) +(\S+) +(.*?) +\d+p seat \d+")


def certify(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """``pokerbots certify ARGS`` from the checkout, its output captured as text."""
    return subprocess.run([POKERBOTS, "certify", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def outcomes(stdout: str) -> dict[tuple[str, str], str]:
    """(game, case) -> PASS, SKIP, FAIL or ERROR, from the lines of a certify run."""
    found = {}
    for line in stdout.splitlines():
        m = LINE.match(line)
        if m:
            found[(m.group(2), m.group(3))] = m.group(1)
    return found

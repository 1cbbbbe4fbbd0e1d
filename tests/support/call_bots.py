"""The bundled check/call bot in C, built once for the test session, and the check/call bot
for the tests that only need one that checks or calls (fixtures; tests/conftest.py offers
them to every test).

``bots/c/call_bot.c`` is built with its own Makefile (``-Wall -Wextra``: a warning fails the
build here) into a folder of the session. It replies as ``bots/call_bot.py`` does, byte for
byte, and starts in a millisecond instead of 50 ms of Python and the client library: a long
tournament of many short matches (the statistics' interval tests play hundreds) spends a
tenth of a second less of CPU a match with it, and its standings are the same.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON_CALL_BOT = ROOT / "bots" / "call_bot.py"


def build_c_call_bot(folder: Path) -> Path | None:
    """``bots/c/call_bot.c`` built with its Makefile in ``folder``: the program's path, or
    None where there is no C compiler or no make."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None or shutil.which("make") is None:
        return None
    for name in ("call_bot.c", "Makefile"):
        shutil.copy(ROOT / "bots" / "c" / name, folder / name)
    result = subprocess.run(["make", "-C", str(folder), f"CC={cc}"], capture_output=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr.decode() + result.stdout.decode()
    assert b"warning" not in result.stderr, result.stderr.decode()
    return folder / "call_bot"


@pytest.fixture(scope="session")
def built_c_call_bot(tmp_path_factory) -> Path | None:
    """:func:`build_c_call_bot`, once for the session."""
    return build_c_call_bot(tmp_path_factory.mktemp("c-call-bot"))


@pytest.fixture(scope="session")
def c_call_bot(built_c_call_bot) -> Path:
    """The C check/call bot (the test is skipped, saying why, without a compiler)."""
    if built_c_call_bot is None:
        pytest.skip("no C compiler or no make on PATH: cannot build bots/c/call_bot.c")
    return built_c_call_bot


@pytest.fixture(scope="session")
def call_bot(built_c_call_bot) -> Path:
    """A bot that checks or calls: the C one where it can be built, else bots/call_bot.py
    (the same replies, so the same results)."""
    return built_c_call_bot or PYTHON_CALL_BOT

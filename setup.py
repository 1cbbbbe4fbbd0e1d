"""Builds pokerbots. The modules on the per-message path are compiled with mypyc when it can.

`pip install .` compiles them (mypyc is a build requirement; the C compiler and the Python
headers are those any package that compiles needs) and installs the compiled modules beside
the Python files, which stay importable: Python prefers the compiled module. An editable
install (`pip install -e .`, the test command) keeps pure Python, so that an edit takes effect
at once; so does POKERBOTS_PURE_PYTHON=1, and any build where mypyc is missing or fails.

The package directories do not carry their import names (server/ is pokerbots.server,
server/api/ is pokerbots.api), and mypyc names a module after its folders, so the sources are
staged under build/mypyc/pokerbots first, each under its import name. Everything else about
the package is in pyproject.toml.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent

#: The modules every message passes through (see docs, "Performance"), named one by one: the
#: protocol's wire format (the one module of the bot authors' package on that path), the
#: betting engine and the deck, the referee and its driver and clock, the hand record's JSON
#: encoder and the words of its actions, the match log's writer and history, the process table
#: and the bot processes, and every game of the registry (:func:`game_modules`: each hand is
#: dealt, judged and ended there).
COMPILED = [
    "protocol/wire.py",
    "server/games/base.py",
    "server/games/engine/__init__.py",
    "server/games/engine/betting.py",
    "server/games/engine/deck.py",
    "server/hands/encoding.py",
    "server/hands/words.py",
    "server/referee/__init__.py",
    "server/referee/clock.py",
    "server/referee/driver.py",
    "server/referee/referee.py",
    "server/referee/transcript.py",
    "server/logs/history.py",
    "server/logs/writer.py",
    "server/seats/__init__.py",
    "server/seats/arguments.py",
    "server/seats/bots.py",
    "server/seats/limits.py",
    "server/seats/process.py",
    "server/seats/runner.py",
]


def game_modules() -> list[str]:
    """Every game of the registry: a module of server/games that declares ``GAMES`` (see
    server/games/__init__.py)."""
    return sorted(str(p.relative_to(HERE)) for p in (HERE / "server" / "games").glob("*.py")
                  if re.search(r"^GAMES\b", p.read_text(encoding="utf-8"), re.MULTILINE))


def compiled() -> list[str]:
    """Every source mypyc compiles, relative to the staged root."""
    return [*COMPILED, *game_modules()]


def _editable() -> bool:
    return any(arg in ("editable_wheel", "develop") for arg in sys.argv)


def _stage() -> Path:
    """A copy of the sources under their import names, for mypyc."""
    root = HERE / "build" / "mypyc"
    shutil.rmtree(root, ignore_errors=True)
    # What an earlier build left in build/lib* would ship too: a module that has since moved
    # or gone would still be installed (and, compiled, preferred to the new source).
    for old in (HERE / "build").glob("lib.*"):
        shutil.rmtree(old, ignore_errors=True)
    package = root / "pokerbots"
    # Each package where its import name puts it (pyproject.toml's package-dir): server/api is
    # pokerbots.api, not pokerbots.server.api.
    for folder, target in (("server", "server"), ("protocol", "protocol"), ("server/api", "api")):
        shutil.copytree(HERE / folder, package / target,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so",
                                                      *(["api"] if folder == "server" else [])))
    (package / "__init__.py").write_text("")
    return root


def extensions() -> list:
    if os.environ.get("POKERBOTS_PURE_PYTHON") or _editable():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("pokerbots: mypyc is missing; installing pure Python", file=sys.stderr)
        return []
    root = _stage()
    previous = os.getcwd()
    os.chdir(root)  # mypyc names modules after the folders from here: pokerbots.server...
    try:
        return mypycify(["--ignore-missing-imports", "--follow-imports=silent",
                         *(f"pokerbots/{path}" for path in compiled())],
                        opt_level="3", target_dir=str(root / "c"))
    except (Exception, SystemExit) as exc:  # a build never fails for want of the fast path
        # (mypyc exits when a module does not type-check)
        print(f"pokerbots: compiling with mypyc failed ({exc}); installing pure Python",
              file=sys.stderr)
        return []
    finally:
        os.chdir(previous)


setup(ext_modules=extensions())

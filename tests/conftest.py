"""Test-session settings: where the suite's helpers are, and how the processes it starts run.

The tests are in folders by kind: ``unit/LAYER`` (each layer of ``server/`` and the protocol),
``e2e`` (a person's journeys through the real commands), ``oracles`` (against the ACPC dealer,
PokerKit and the PHH corpus), ``statistics`` (estimators against exactly known values) and
``project`` (the shape of the code and the docs). What they share is in ``support/`` (helper
modules, importable by name from every test: this file puts the folder on ``sys.path``) and
``programs/`` (the bots and attack scripts the tests run as processes); the fixtures of
``support/call_bots.py`` (the C check/call bot, built once) are offered here to every test.
The oracles' data lives outside the repository: ``support/oracle_data.py`` says where, and
what a test that needs it does without it.

Most tests start real processes (the server, Python bots, relays), each importing pokerbots
afresh. Where the environment says not to write bytecode next to the sources
(``PYTHONDONTWRITEBYTECODE``, as on a read-only or shared checkout), every one of those
processes compiled every module again: about 0.07 s a process, a tenth of the default run.
Their bytecode goes to a cache folder outside the checkout instead (``PYTHONPYCACHEPREFIX``),
so the checkout stays as clean as the setting asked. Nothing the tests check depends on it.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

SUPPORT = Path(__file__).resolve().parent / "support"
PROGRAMS = SUPPORT.parent / "programs"
sys.path[:0] = [str(SUPPORT), str(PROGRAMS)]

# Fixtures every test may ask for (defined in support/):
from call_bots import built_c_call_bot, c_call_bot, call_bot  # noqa: E402, F401

if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    cache = Path(tempfile.gettempdir()) / f"pokerbots-test-pycache-{os.getuid()}"
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = str(cache)


def pytest_runtest_setup(item):
    """A test marked ``oracle`` (``oracle_data.needs``) runs only where its oracle is: it is
    skipped, or in CI fails, saying why it is missing (``oracle_data.need``)."""
    import oracle_data

    for mark in item.iter_markers("oracle"):
        oracle_data.need(mark.args[0])

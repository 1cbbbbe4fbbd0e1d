"""The oracles' data, which the repository does not hold, and what a test does without it.

The ACPC dealer's C source (``shared/perf/acpc``) and the PHH corpus (``shared/corpus/phh``)
are in a folder ``shared`` beside the clone, or beside a folder above it (:func:`shared`).
Where a test's oracle is missing, :func:`need` decides, in one place for the suite: the test
is skipped, saying why and where the data was looked for; or, where POKERBOTS_REQUIRE_ORACLES
is set (``.ci/run`` sets it), it fails with that message, so that CI cannot pass without its
oracles.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Set (to anything but 0) where a missing oracle fails its tests instead of skipping them.
REQUIRE = "POKERBOTS_REQUIRE_ORACLES"


def shared(relative: str, marker: str) -> Path:
    """``shared/RELATIVE`` in the nearest folder above the clone whose ``shared/RELATIVE``
    holds ``marker``; where none does, the one beside the clone (where it is expected)."""
    for folder in ROOT.parents:
        if (folder / "shared" / relative / marker).is_file():
            return folder / "shared" / relative
    return ROOT.parent / "shared" / relative


def required() -> bool:
    """Whether a missing oracle fails its tests (CI) rather than skipping them."""
    return os.environ.get(REQUIRE, "") not in ("", "0")


def need(why_missing: str | None) -> None:
    """In a test or fixture that needs an oracle: nothing when ``why_missing`` is None (it is
    here); otherwise a skip saying why, or, where :func:`required`, a failure saying so."""
    if why_missing is None:
        return
    if required():
        pytest.fail(f"{why_missing} ({REQUIRE} is set: the oracle tests must run here)",
                    pytrace=False)
    pytest.skip(why_missing)


def needs(why_missing: str | None) -> pytest.MarkDecorator:
    """A mark for a test (or, as ``pytestmark``, a module) that needs an oracle: ``why`` it
    is missing here, or None. tests/conftest.py calls :func:`need` with it before each test."""
    return pytest.mark.oracle(why_missing)

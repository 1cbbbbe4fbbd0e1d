"""The ACPC's own code as test oracles: the reference dealer, its always-call player and a log
checker (tests/support/acpc_log_check.c), built from the dealer's C source in ``shared/perf/acpc``
(beside the checkout or a folder above it: :func:`oracle_data.shared`; see
shared/perf/README.md).

:func:`build` compiles them once into a folder named after a hash of the sources (the pytest
cache keeps it between runs) and returns their paths; :func:`missing` says why they cannot be
built here (no C compiler, no ACPC source), and the tests that need them pass that to
:func:`oracle_data.need` (skipped saying why; failed in CI).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import oracle_data

ROOT = Path(__file__).resolve().parents[2]
PERF = oracle_data.shared("perf", "acpc/game.c")
ACPC = PERF / "acpc"
SOURCES = [ACPC / name for name in ("game.c", "game.h", "rng.c", "rng.h", "net.c", "net.h",
                                    "dealer.c", "evalHandTables")]
PROGRAMS = {
    "dealer": ["game.c", "rng.c", "net.c", "dealer.c"],
    "acpc_call_player": [str(PERF / "acpc_call_player.c"), "game.c", "rng.c", "net.c"],
    "acpc_log_check": [str(ROOT / "tests" / "support" / "acpc_log_check.c"), "game.c", "rng.c"],
}


def missing() -> str | None:
    """Why the ACPC programs cannot be built here, or None."""
    if shutil.which("cc") is None:
        return "no C compiler (cc) to build the ACPC dealer's code"
    absent = [str(p) for p in SOURCES + [PERF / "acpc_call_player.c"] if not p.is_file()]
    if absent:
        return f"the ACPC dealer's source is not here ({absent[0]})"
    return None


def build_for(config, tmp_path_factory) -> dict[str, Path]:
    """:func:`build` into the pytest cache (kept between runs), or into a temporary folder when
    the cache is off (``-p no:cacheprovider``)."""
    cache = getattr(config, "cache", None)
    folder = cache.mkdir("acpc-build") if cache is not None else tmp_path_factory.mktemp("acpc")
    return build(Path(folder))


def build(cache: Path) -> dict[str, Path]:
    """Build (or find already built) every program; ``{name: path}``."""
    digest = hashlib.sha256()
    for path in SOURCES + [PERF / "acpc_call_player.c",
                           ROOT / "tests" / "support" / "acpc_log_check.c"]:
        digest.update(path.read_bytes())
    folder = cache / digest.hexdigest()[:16]
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, sources in PROGRAMS.items():
        path = folder / name
        if not path.exists():
            tmp = folder / f".{name}.tmp"
            subprocess.run(["cc", "-O1", "-w", "-I", str(ACPC), "-o", str(tmp), *sources, "-lm"],
                           cwd=ACPC, check=True, capture_output=True)
            tmp.rename(path)
        paths[name] = path
    return paths

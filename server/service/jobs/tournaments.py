"""The service's tournaments: each one the tournament library's, in a process.

:func:`job` is the keyword arguments of ``pokerbots tournament`` (which
:func:`~pokerbots.server.tournament.run.config_from_options` turns into a config): the admitted
versions as ``NAME=ENTRY`` (their copies in the data folder), a new seed, the tournament's own
folder as ``out``, and the service's tournament options. The service records the job before
the tournament starts; after a restart it runs the same job again, and the tournament resumes
the folder (finished matches kept, the others played again).

The process is ``python -m pokerbots.server.service.jobs.tournaments SERVICE_PID JOB`` (see
:mod:`.workers`), its output in the tournament's log file. SIGTERM stops it as it stops
``pokerbots tournament``: every bot ended, the running matches put back, the standings so far
written. Its exit code is the
tournament command's (:class:`~.errors.Exit`): 0 done, 130 or 143 interrupted, 2 the job no
longer fits its folder (a bot's copy was changed), 3 the tournament could not go on.
"""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import sys
from pathlib import Path

from pokerbots.server.errors import STOPPED, Exit
from pokerbots.server.service.jobs import workers
from pokerbots.server.tournament import director, results_store
from pokerbots.server.tournament.run import (
    STANDINGS_FILE,
    TournamentError,
    config_from_options,
    run_tournament,
)

#: Exit codes of the tournament process that mean it was stopped, not that it failed: its own
#: after SIGINT or SIGTERM, or a signal's (negative) before it could handle one, or SIGKILL's
#: (the OOM killer, a person): a resumed tournament keeps its finished matches.
INTERRUPTED = (*STOPPED, -signal.SIGINT, -signal.SIGTERM, -signal.SIGKILL)
#: Seconds a stopped tournament gets to end its matches before it is killed.
GRACE = director.GRACE + 30.0


def entrant(name: str, entry: Path) -> str:
    """The ``NAME=BOT`` argument of a bot's copy."""
    return f"{name}={shlex.quote(str(entry))}"


def job(bots: list[str], out: Path, seed: int, options: dict,
        scheduler: str | None = None) -> dict:
    """The tournament's options (``options``: the service's tournament options; its matches
    on the Dask cluster of ``scheduler`` if given)."""
    return {**options, "bots": bots, "out": str(out), "seed": seed, "scheduler": scheduler}


async def run(job_file: Path, log_file: Path) -> int:
    """Play the tournament of ``job_file``; its exit code. Cancelled, it is stopped with
    SIGTERM (and killed after GRACE seconds) before the cancellation goes on."""
    with open(log_file, "ab") as log:
        done = await workers.run(__name__, str(job_file), stop_signal=signal.SIGTERM,
                                 grace=GRACE, stdin=subprocess.DEVNULL, stdout=log,
                                 stderr=subprocess.STDOUT)
    return done.returncode


def matches(folder: Path) -> list[dict]:
    """The match rows of the tournament in ``folder`` ([] before its store exists)."""
    if not results_store.exists(folder):
        return []
    results = results_store.open_store(folder)
    try:
        return results.matches()
    finally:
        results.close()


def standings(folder: Path) -> dict | None:
    """The tournament's ``standings.json``, if it has written one."""
    try:
        return json.loads((folder / STANDINGS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def main() -> None:
    workers.adopt()
    arguments = json.loads(Path(sys.argv[2]).read_text(encoding="utf-8"))
    try:
        ending = run_tournament(config_from_options(arguments))
    except TournamentError as exc:
        print(f"Error: {exc}", file=sys.stderr, flush=True)
        sys.exit(Exit.USAGE if exc.usage else Exit.SERVER)
    sys.exit(Exit[ending.name])


if __name__ == "__main__":
    main()

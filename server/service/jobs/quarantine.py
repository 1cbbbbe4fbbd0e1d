"""Quarantine: a new version plays ``pokerbots smoke`` before it may play a tournament.

The test is the smoke test's own loop (:class:`pokerbots.server.play.smoke.SmokeRun`, as
``pokerbots smoke --players K --exitfirst`` plays it) for the service's game, its options and
its table size: the bot takes every seat, smoke's default rounds of its default hands each,
against the random bot, under the limits (and the sandbox) the tournaments use. It stops at
the first failure, whose paragraph, reason and transcript become the version's page.

It runs in a process of its own (:mod:`.workers`; a job as JSON on stdin, the verdict as JSON
on stdout), because a match is a ``trio.run`` of its own that owns the process's signals, and
so that nothing a bot does can reach the web server.
SIGINT ends it cleanly (the match running is ended, no verdict): the version is tested again
when the service next starts.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
import signal
import sys
from pathlib import Path

from pokerbots.server.errors import Exit
from pokerbots.server.service.jobs import workers

#: Seconds the test gets to end after SIGINT, before it is killed.
GRACE = 20.0


def job(entry: Path, logs: Path, *, game: str, game_texts: dict, players: int,
        limits: dict) -> dict:
    """What the test process needs (``limits``: as
    :func:`~pokerbots.server.play.options.limits_as_dict`)."""
    return {"entry": str(entry), "logs": str(logs), "game": game, "game_texts": game_texts,
            "players": players, "limits": limits}


def test(job: dict) -> dict:
    """Play the smoke matches of ``job``; the verdict (stops at the first failure)."""
    from pokerbots.server.logs.folder import transcript_name
    from pokerbots.server.play import smoke
    from pokerbots.server.play.options import MatchSetupError, limits_from_dict
    from pokerbots.server.seats.arguments import parse_bot

    entry = Path(job["entry"])
    # Named by its entry point, as its team knows it: the reports, summary.json and the hand
    # history quote no path of the service's.
    spec = dataclasses.replace(parse_bot(shlex.quote(str(entry))), label=entry.name)
    cases = smoke.plan([job["game"]], [job["players"]], smoke.ROUNDS, smoke.SEED)
    run = smoke.SmokeRun(cases, spec, hands=smoke.HANDS, logs=Path(job["logs"]),
                         limits=limits_from_dict(job["limits"]),
                         game_texts={job["game"]: job["game_texts"]}, exitfirst=True)
    try:
        for _ in run:
            pass
    except MatchSetupError as exc:
        return {"passed": False, "cases": len(run.results) + 1, "reason": "the smoke test could"
                f" not start: {exc}", "report": str(exc), "logs": None, "transcript": None}
    result = run.failure
    if result is None:
        return {"passed": True, "cases": len(run.results)}
    case = result.case
    report = _for_the_team(result.report + f"\nReproduce: {result.command}")
    return {"passed": False, "cases": len(run.results),
            "reason": _for_the_team(f"{case.name}: {result.reason}"), "report": report,
            "logs": str(result.logs), "transcript": transcript_name(case.seat)}


def _for_the_team(text: str) -> str:
    """A verdict's text as the bot's team reads it: the server's Python (the random
    opponent's interpreter) as they would type it. (Its paths into the data folder are made
    relative when the store records it.)"""
    return text.replace(sys.executable, "python3")


async def run(job: dict) -> dict | None:
    """The verdict of a test process; None if it was stopped (cancelled) or gave none."""
    done = await workers.run(__name__, stop_signal=signal.SIGINT, grace=GRACE,
                             stdin=json.dumps(job).encode(), capture_stdout=True)
    try:
        return json.loads(done.stdout.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def main() -> None:
    workers.adopt()
    job = json.loads(sys.stdin.read())
    try:
        verdict = test(job)
    except KeyboardInterrupt:
        sys.exit(Exit.INTERRUPTED)
    print(json.dumps(verdict), flush=True)


if __name__ == "__main__":
    main()

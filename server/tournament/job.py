"""One match of a tournament, from a plain job description to a plain result.

:func:`play_match_job` is what a local worker process (:mod:`.pool`) and a Dask worker
(:mod:`.cluster`) run: both hand it the same JSON-ready job and get the same JSON-ready
result, so a match played anywhere gives the same result. The match is an ordinary
``pokerbots run`` match (:func:`~pokerbots.server.play.match.run_match`) with the tournament's
deals and first button, pinned to a CPU claimed for it (:mod:`pokerbots.server.confine.cpus`),
its log folder written where the job says.
In games scored by all-in equity, each qualifying hand's expected values are added to its
record in ``hands.jsonl`` (``"allin_adjusted"``) and summed into ``allin_bankrolls``. In every
game each hand's luck-adjusted values (:mod:`pokerbots.server.scoring.luck`) are added as
``"luck_adjusted"`` and summed into ``luck_bankrolls``. A job with ``"adjust": false`` runs
neither adjustment and writes neither field (for raw speed). Both share one
:class:`~pokerbots.server.scoring.equity.Showdowns` per hand, keyed by the match seed and the hand
number, so a worker that plays several seatings of a deal set counts each board prefix once.

Result ``status``: ``done``, ``failed`` (a bot broke a rule: ``culprit`` and ``error`` say
who and how), ``interrupted`` (Ctrl-C: play it again), or ``error`` (the match could not be
played at all on this machine, e.g. a bot's program is missing there: the tournament stops).
"""

from __future__ import annotations

import os
import shutil
import socket
import sys
import time
from pathlib import Path

from pokerbots.server import games
from pokerbots.server.confine.cpus import claim_cpu, release_cpu
from pokerbots.server.errors import ServerFault, stderr_section
from pokerbots.server.logs.folder import MatchFolder
from pokerbots.server.play.options import MatchSetupError, limits_from_dict
from pokerbots.server.scoring.equity import Showdowns, allin_values
from pokerbots.server.scoring.luck import LuckAdjuster
from pokerbots.server.seats.bots import BotSpec
from pokerbots.server.tournament import deals
from pokerbots.server.tournament.entrants import Entrant, argv_here


def job_for(row: dict, *, folder: Path, entrants: dict[str, Entrant], options: dict,
            limits: dict, transcripts: str = "full", adjust: bool = True) -> dict:
    """The job of a store row (``options``: the tournament's recorded options, ``limits``: as
    :func:`~pokerbots.server.play.options.limits_as_dict`; ``adjust``: run the all-in and luck
    adjustments)."""
    return {
        "id": row["id"], "folder": str(folder), "game": options["game"],
        "game_options": options["game_options"], "hands": options["hands"],
        "seed": row["seed"], "button": row["button"],
        "seating": [entrants[name].as_dict() for name in row["seating"]],
        "limits": limits, "transcripts": transcripts, "adjust": adjust,
        "duplicate": bool(options.get("duplicate")),
    }


def _in_at_the_flop(players: int, record: dict) -> list[int]:
    """The seats that did not fold on the first street: every set of seats whose hands an
    adjustment compares (the all-in one's and each later street's) is among them."""
    folded = {seat for seat, word, _, street in record["actions"]
              if word == "FOLD" and street == 0}
    return [s for s in range(players) if s not in folded]


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def play_match_job(job: dict) -> dict:
    """Play the match ``job`` describes; never raises for anything a bot does."""
    # Here, not at the top: the director builds jobs (job_for) and plays none, and this
    # import brings the trio layer.
    from pokerbots.server.play.match import MatchConfig, run_match

    started = time.time()
    result = {"id": job["id"], "log_dir": job["folder"], "started": started,
              "worker": worker_name(), "hands": 0, "bankrolls": None, "seconds": 0.0}
    seating = [Entrant.from_dict(d) for d in job["seating"]]
    for entrant in seating:
        if not os.path.isfile(entrant.program):
            return {**result, "status": "error",
                    "error": f"bot {entrant.name}: {entrant.program} does not exist on"
                             f" {socket.gethostname()} (the bots must be at the same paths on"
                             " every machine that plays: a shared file system, or copies)"}
    specs = [BotSpec(e.name, tuple(argv_here(e, sys.executable))) for e in seating]
    folder = Path(job["folder"])
    game = games.make_game(job["game"], len(specs), **job["game_options"])
    adjust = job.get("adjust", True)
    scored = adjust and game.type.allin_equity
    allin = [0.0] * len(specs)
    luck = [0.0] * len(specs)
    adjuster = LuckAdjuster(game, learn=not job.get("duplicate", False))
    seed = job["seed"]

    def on_hand(record: dict) -> None:
        number = record["hand"]
        # Without the deal's correction (duplicate) no count needs a seat that folded before
        # the flop, unless a mix was drawn before it folded: ranking only the others draws the
        # same boards and gives the same orders.
        ranked = (None if adjuster.learn or "mixes" in record
                  else _in_at_the_flop(game.players, record))
        showdowns = Showdowns(game, record, lambda: deals.equity_rng(seed, number),
                              seats=ranked, key=(seed, number))
        if scored:
            values = allin_values(game, record, None, showdowns=showdowns)
            if values is None:
                values = record["deltas"]
            else:
                record["allin_adjusted"] = values
            for s, v in enumerate(values):
                allin[s] += v
        adjusted = record["luck_adjusted"] = adjuster.adjust(record, showdowns)
        for s, v in enumerate(adjusted):
            luck[s] += v  # multiples of 1/1024: the sum is exact

    cpu = claim_cpu()  # a CPU no other match holds, while one is free
    # The match's span is the claim's: no two matches' spans overlap on one CPU.
    result["started"] = time.time()
    try:
        if folder.exists():
            shutil.rmtree(folder)  # an earlier, unfinished attempt at this match
        config = MatchConfig(
            bots=specs, game=job["game"], game_options=job["game_options"],
            seed=job["seed"], hands=job["hands"], logs=folder.parent,
            limits=limits_from_dict(job["limits"]), cpu=cpu,
            deals=deals.dealer(job["seed"]), button=job["button"], folder=folder,
            transcripts=job.get("transcripts", "full"))
        outcome, path = run_match(config, on_hand if adjust else None)
        finished = time.time()
    except KeyboardInterrupt:
        return {**result, "status": "interrupted"}
    except (MatchSetupError, OSError, ServerFault) as exc:
        return {**result, "status": "error", "error": f"match {job['id']}: {exc}"}
    finally:
        release_cpu(cpu)  # a worker plays many matches: the next may get another CPU
    result.update(hands=outcome.hands, bankrolls=outcome.bankrolls, cpu=cpu,
                  seconds=round(outcome.seconds, 6), finished=finished)
    if scored:
        result["allin_bankrolls"] = [round(v, 6) for v in allin]
    if adjust:
        result["luck_bankrolls"] = luck
    if outcome.interrupted:
        return {**result, "status": "interrupted"}
    if outcome.failure is not None:  # the server's own failure (a full disk): no bot's fault
        return {**result, "status": "error",
                "error": f"match {job['id']}: {outcome.failure.paragraph(logs=str(path))}"}
    fault = outcome.fault
    if fault is None:
        return {**result, "status": "done"}
    text = fault.paragraph(logs=str(path))
    excerpt = stderr_section(MatchFolder(path).stderr_excerpt(fault.seat))
    if excerpt:
        text += "\n" + excerpt
    return {**result, "status": "failed", "culprit": seating[fault.seat].name,
            "culprit_seat": fault.seat, "error": text}

"""Runs a tournament's plan: hands pending matches to the workers, records every result.

The :class:`Director` is the only writer of the store. It keeps as many matches in flight as
the pool has room for, records each result as it comes (``done``, ``failed``), counts each
bot's faults and drops a bot after ``max_faults`` (its pending matches become ``skipped``;
matches of it already running finish and count), and with ``--refine T`` adds deal sets among
the top T bots until their intervals separate or the budget is spent.

On Ctrl-C (KeyboardInterrupt in this thread) it stops the running matches, records those that
finished anyway, puts the others back to ``pending`` and lets the interrupt go on: the same
command resumes. A match that cannot be played at all (status ``error``) stops the tournament
the same way and raises :class:`TournamentError` (exit 3).
"""

from __future__ import annotations

import queue
import time
from collections import deque
from pathlib import Path

from pokerbots.server.errors import Refusal
from pokerbots.server.tournament import plan, standings
from pokerbots.server.tournament.job import job_for
from pokerbots.server.tournament.results_store import Store

#: Seconds the running matches get to end after Ctrl-C before their workers are ended.
GRACE = 30.0
#: The folder (under the tournament's) that holds one folder per match.
MATCHES = "matches"


class TournamentError(Refusal):
    """A tournament that cannot be played, or cannot go on; ``message`` says what a person
    does about it.

    ``usage``: the command asked for something impossible (a bad option, bots that differ
    from those of the folder resumed): nothing was played (exit 2), and ``option`` names the
    option to change when one is at fault. Otherwise the tournament itself could not go on
    (disk, store, cluster, a match that cannot be played here: exit 3).
    """


class Director:
    def __init__(self, store: Store, folder: Path, pool, progress, *, limits: dict,
                 transcripts: str = "full") -> None:
        self.store = store
        self.folder = folder
        self.pool = pool
        self.progress = progress
        self.limits = limits
        self.transcripts = transcripts
        self.options = store.meta("options")
        entrants = store.entrants()
        self.names = [e.name for e in entrants]
        self.entrants = {e.name: e for e in entrants}
        self.max_faults = self.options["max_faults"]
        self.rules = standings.rules_of(self.options)
        self.faults: dict[str, int] = {}
        for row in store.matches("failed"):
            if row["culprit"] is not None:
                self.faults[row["culprit"]] = self.faults.get(row["culprit"], 0) + 1
        self.dropped = {n for n, f in self.faults.items() if f >= self.max_faults}

    def run(self) -> None:
        """Play every pending match, then refine; returns when the tournament is complete."""
        for name in sorted(self.dropped):
            self.store.skip_bot(name)
        self.play_pending()
        top = self.options.get("refine")
        if not top:
            return
        while self.store.last_phase() < self.options["refine_steps"]:
            lines = standings.table(self.store.matches(), self.names, self.rules)
            contenders = [line["name"] for line in lines[:top] if line["name"] not in
                          self.dropped]
            if (standings.separated(lines, top, self.rules.rank_by)
                    or len(contenders) < self.options["players"]):
                return
            phase = self.store.last_phase() + 1
            extra = plan.matches(self.names, self.options["players"],
                                 rounds=self.options["rounds"],
                                 duplicate=self.options["duplicate"],
                                 seed=self.store.meta("seed"), among=set(contenders),
                                 first_deal_set=self.store.last_deal_set() + 1, phase=phase,
                                 bits=self.store.match_seed_bits())
            self.store.add_matches(extra)
            self.progress.note(f"Refining: {len(extra)} more matches among"
                               f" {', '.join(contenders)} (step {phase} of"
                               f" {self.options['refine_steps']})")
            self.progress.replan(self.store.counts())
            self.play_pending()

    def play_pending(self) -> None:
        pending = deque(self.store.matches("pending"))
        in_flight: dict[int, dict] = {}
        try:
            while True:
                while pending and len(in_flight) < self.pool.capacity:
                    row = pending.popleft()
                    if self.dropped.intersection(row["seating"]):
                        continue  # skipped when its bot was dropped
                    self._start(row)
                    in_flight[row["id"]] = row
                if not in_flight:
                    return
                try:
                    result = self.pool.results.get(timeout=0.25)
                except queue.Empty:
                    self.progress.tick()
                    continue
                row = in_flight.pop(result["id"])
                if result["status"] == "interrupted":  # a worker was stopped on its own
                    self.store.unstart(row["id"])
                    pending.appendleft(row)
                    continue
                self._record(row, result)
        except (KeyboardInterrupt, TournamentError):
            self._stop(in_flight)
            raise

    def _start(self, row: dict) -> None:
        folder = self.folder / MATCHES / plan.Planned(
            row["table_no"], row["deal_set"], row["seating_no"], tuple(row["seating"]),
            row["seed"], row["button"]).folder
        job = job_for(row, folder=folder, entrants=self.entrants, options=self.options,
                      limits=self.limits, transcripts=self.transcripts,
                      adjust=self.options.get("adjust", True))  # a store older than --no-adjust: on
        self.store.start(row["id"], str(folder), time.time())
        self.pool.submit(job)

    def _record(self, row: dict, result: dict) -> None:
        if result["status"] == "error":
            self.store.unstart(row["id"])
            raise TournamentError(result["error"])
        self.store.finish(result)
        self.progress.match_done(row, result)
        culprit = result.get("culprit")
        if result["status"] == "failed" and culprit is not None:
            self.faults[culprit] = self.faults.get(culprit, 0) + 1
            if self.faults[culprit] >= self.max_faults and culprit not in self.dropped:
                self.dropped.add(culprit)
                skipped = self.store.skip_bot(culprit)
                self.progress.note(f"{culprit} broke the rules {self.faults[culprit]} times"
                                   f" (--max-faults {self.max_faults}): it is out of the"
                                   f" tournament; {skipped} of its matches are skipped")

    def _stop(self, in_flight: dict[int, dict]) -> None:
        """Stop the running matches; record those that finish, put back the rest."""
        self.pool.interrupt()
        deadline = time.monotonic() + GRACE
        nudge = time.monotonic() + 1.0
        while in_flight and time.monotonic() < deadline:
            try:
                result = self.pool.results.get(timeout=0.25)
            except queue.Empty:
                if time.monotonic() > nudge:  # a worker may have been starting its match
                    self.pool.interrupt()
                    nudge = time.monotonic() + 1.0
                continue
            except KeyboardInterrupt:
                continue  # a second Ctrl-C: we are stopping already
            row = in_flight.pop(result["id"], None)
            if row is None:
                continue
            if result["status"] in ("done", "failed"):
                self.store.finish(result)
            else:
                self.store.unstart(row["id"])
        for match_id in in_flight:
            self.store.unstart(match_id)

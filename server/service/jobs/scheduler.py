"""What the service does by itself: watch the submissions, test new versions, play tournaments.

Three trio tasks share the store (only they write to it, one at a time: they run in one thread):

``watch``        every ``POLL`` seconds compares each bot folder's fingerprint with the last
                 one seen; a folder that changed is taken once it is *steady*: the same on
                 two looks at least ``STEADY`` seconds apart (a folder still being copied
                 is not tested half-copied), and still the same after its copy. It is
                 copied into the data folder and read (:mod:`.data.submissions`): a new version
                 is ``testing`` (or ``rejected``, with the reason); a folder that went away
                 withdraws its bot (not a team's: its bot is uploaded, :mod:`.uploads`,
                 and takes the same way in, :meth:`Service.place` then
                 :meth:`Service.record`).
``test``         smoke-tests the versions waiting, oldest first, one at a time
                 (:mod:`.quarantine`); a pass admits the version, a failure keeps the bot's
                 previous admitted version playing.
``tournaments``  resumes the tournaments a stopped service left unfinished, then plays one at
                 once and another every ``every`` seconds after each start (right after the
                 last one ends if it took longer; never two at once). A tournament whose
                 process was stopped while the service runs (its exit code says interrupted)
                 is resumed ``RETRY`` seconds later, until it ends. Before each it rescans
                 (until the folders are steady, at most ``SETTLE`` seconds) and waits for
                 the tests under way; it plays among the admitted versions of
                 the bots whose folders are there, when there are at least ``players`` of
                 them (else it waits for them), with a new seed and its commitment
                 (:mod:`.data.commitments`).

Cancelling :meth:`Service.run` stops everything cleanly: the tournament process gets SIGTERM
and ends its matches (every bot ended), the running test is stopped; both are recorded as
unfinished and taken up again when the service next starts.

A task that fails because the process or the system is short of open files or memory for
now (:func:`short_of`: ``EMFILE``, ``ENFILE``...) says so, waits ``SHORT_WAIT`` seconds and
starts again: a test is run again, a tournament stopped by it resumed, one that could not
start is started then. Any other failure of the store or of the service's own files ends
:meth:`Service.run`, with the reason.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import secrets
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import trio

from pokerbots.server import seeds
from pokerbots.server.logs.folder import tail
from pokerbots.server.service.data import commitments, submissions
from pokerbots.server.service.data.store import Store, StoreError
from pokerbots.server.service.jobs import quarantine, tournaments

if sys.version_info < (3, 11):
    from exceptiongroup import BaseExceptionGroup

#: Seconds between two looks at the submissions folder.
POLL = 2.0
#: A changed folder is taken when it is the same on two looks at least this far apart.
STEADY = 2.0
#: Seconds a tournament waits at most for changing folders to become steady.
SETTLE = 30.0
#: Seconds before a tournament stopped while the service runs is resumed.
RETRY = 10.0
#: Seconds between two refreshes of the store's copy of a running tournament's match rows
#: (a cache of its own store: :mod:`pokerbots.server.service.data.store`).
FOLLOW = 3.0
#: Where the data folder keeps each version's copy, smoke logs and tournaments.
BOTS, QUARANTINE, TOURNAMENTS = "bots", "quarantine", "tournaments"
#: Seconds a task waits before it starts again when the process is short of files or memory.
SHORT_WAIT = 5.0
#: Errors that say the process or the system lacks something for now (open files, memory,
#: buffers): wait and try again.
SHORT_OF = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})
#: Open files left below the limit that count as having reached it (SQLite opens up to three).
_FILE_MARGIN = 8
#: What each task does, as its messages say it.
_TASKS = {"watch": "looking at the submissions", "test": "the smoke tests",
          "tournaments": "the tournaments"}


@dataclass(frozen=True)
class Settings:
    """The service's command line, checked."""

    submissions: Path
    data: Path
    #: Seconds from the start of one tournament to the start of the next.
    every: float
    #: Table size: every combination of this many bots plays; also the smoke test's.
    players: int
    #: The tournament's options, as ``pokerbots tournament``'s keyword arguments (less bots,
    #: out, seed and scheduler).
    options: dict
    #: The bots' limits (:func:`~pokerbots.server.play.options.limits_as_dict`), for the smoke
    #: test.
    limits: dict
    #: A Dask scheduler's address: the tournaments' matches are played on its cluster.
    scheduler: str | None = None

    @property
    def sandbox(self) -> bool:
        return bool(self.options["sandbox"])


def short_of(exc: BaseException) -> bool:
    """Whether ``exc`` is the process or the system lacking open files or memory for now:
    an OSError of :data:`SHORT_OF`, or a StoreError (SQLite says only "unable to open
    database file") or a copy's errors (:class:`shutil.Error` keeps their text only) while
    the process is at its open-file limit."""
    if isinstance(exc, OSError):
        return exc.errno in SHORT_OF
    return isinstance(exc, (StoreError, shutil.Error)) and at_file_limit()


def at_file_limit() -> bool:
    """Whether the process has (nearly) as many files open as its limit allows."""
    try:
        probe = os.open(os.devnull, os.O_RDONLY)
    except OSError as exc:
        return exc.errno in SHORT_OF
    os.close(probe)
    try:
        used = len(os.listdir("/proc/self/fd"))
    except OSError as exc:
        return exc.errno in SHORT_OF
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return soft != resource.RLIM_INFINITY and used >= soft - _FILE_MARGIN


def _leaves(exc: BaseException) -> list[BaseException]:
    """The errors of ``exc``: itself, or every one inside it if it is a group."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def say_line(text: str) -> None:
    """Print a line of the service's output at once (it may go to a log file)."""
    print(text, flush=True)


#: The scheduler's clock for steadiness (a test replaces it).
clock = time.monotonic


def stamp(seconds: float | None = None) -> str:
    """A time as the service prints and shows it: ``2026-11-23 20:28:56 UTC``."""
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(seconds))


class Service:
    """The scheduler; its attributes tell the web pages what is happening now."""

    def __init__(self, settings: Settings, store: Store, echo=say_line) -> None:
        self.settings = settings
        self.store = store
        self.echo = echo
        #: The id of the tournament being played, the bot being tested.
        self.playing: int | None = None
        self.testing: str | None = None
        #: When the next tournament is due (None: when enough bots are admitted).
        self.next_at: float | None = time.time()
        self._fingerprints: dict[str, tuple] = {}
        #: Changed folders not yet taken: their fingerprint, and when it was last read.
        self._changing: dict[str, tuple[tuple, float]] = {}
        self._scan_lock = trio.Lock()
        self._work = trio.Event()

    def say(self, text: str) -> None:
        self.echo(f"{time.strftime('%H:%M:%S')} {text}")

    async def run(self) -> str | None:
        """Watch, test and play until cancelled; or until the service cannot go on (its store
        cannot be written...): then the reason."""
        failure: list[str] = []

        async def guarded(task) -> None:
            while True:
                try:
                    await task()
                    return
                except Exception as exc:  # a group too: a task's nursery wraps its errors
                    errors = _leaves(exc)
                    if not all(isinstance(e, (StoreError, OSError)) for e in errors):
                        raise  # a bug: its traceback
                    lasting = [e for e in errors if not short_of(e)]
                    if lasting:  # either store: one StoreError; the service's own files
                        failure.append(str(lasting[0]))
                        nursery.cancel_scope.cancel()
                        return
                    self.say(f"{_TASKS.get(task.__name__, task.__name__)}: the service is"
                             f" short of open files or memory ({errors[0]}); trying again in"
                             f" {SHORT_WAIT:g} s")
                await trio.sleep(SHORT_WAIT)

        async with trio.open_nursery() as nursery:
            for task in (self.watch, self.test, self.tournaments):
                nursery.start_soon(guarded, task)
        return failure[0] if failure else None

    # -- the submissions -------------------------------------------------------------------

    async def watch(self) -> None:
        while True:
            await self.scan()
            await trio.sleep(POLL)

    async def scan(self) -> bool:
        """Take every bot folder that changed since the last scan and is steady; whether
        every folder was (False: a folder is still changing, or being copied)."""
        steady = True
        async with self._scan_lock:
            try:
                folders = await trio.to_thread.run_sync(submissions.bot_folders,
                                                        self.settings.submissions)
            except OSError as exc:
                self.say(f"cannot read {self.settings.submissions}: {exc}")
                return True
            for name, folder in sorted(folders.items()):
                before = clock()
                seen = await trio.to_thread.run_sync(submissions.fingerprint, folder)
                after = clock()
                if self._fingerprints.get(name) == seen:
                    self._changing.pop(name, None)
                    continue
                last = self._changing.get(name)
                if last is None or last[0] != seen or before - last[1] < STEADY:
                    if last is None or last[0] != seen:
                        self._changing[name] = (seen, after)
                    steady = False
                    continue
                examined = await trio.to_thread.run_sync(self._take, name, folder, seen)
                if examined is None:  # it changed while it was copied: look again
                    self._changing.pop(name, None)
                    steady = False
                    continue
                del self._changing[name]
                self.record(examined)
                self._fingerprints[name] = seen
            for gone in set(self._changing) - set(folders):
                del self._changing[gone]
            teams = self.store.active_teams()  # their bots are uploaded, not in a folder
            for bot in self.store.bots():
                if bot["present"] and bot["name"] not in folders and bot["name"] not in teams:
                    self.store.set_absent(bot["name"])
                    self._fingerprints.pop(bot["name"], None)
                    self.say(f"{bot['name']}: its folder is gone; it plays no more")
        return steady

    async def scan_until_steady(self) -> None:
        """Scan until every folder is steady, or ``SETTLE`` seconds have passed."""
        deadline = clock() + SETTLE
        while not await self.scan() and clock() < deadline:
            await trio.sleep(STEADY)

    def _take(self, name: str, folder: Path, seen: tuple) -> submissions.Examined | None:
        """Copy ``folder`` into the data folder and read the copy (in a worker thread); None
        if the folder no longer has the fingerprint ``seen`` once copied."""
        bots = self.settings.data / BOTS
        bots.mkdir(parents=True, exist_ok=True)
        incoming = bots / f".incoming-{secrets.token_hex(6)}"
        try:
            submissions.snapshot(folder, incoming)
        except (OSError, shutil.Error) as exc:
            shutil.rmtree(incoming, ignore_errors=True)
            if short_of(exc):  # not the folder's fault: the watch takes it again later
                raise
            if submissions.fingerprint(folder) != seen:
                return None
            found = submissions.digest(folder)
            return submissions.Examined(name, found, found[:12], None,
                                        f"the folder cannot be copied: {exc}")
        if submissions.fingerprint(folder) != seen:
            shutil.rmtree(incoming, ignore_errors=True)
            return None
        return self.place(name, incoming)

    def place(self, name: str, incoming: Path) -> submissions.Examined:
        """Read the new copy ``incoming`` (a folder in ``data/bots``) of the bot ``name`` and
        move it to its version's place, or remove it (rejected, or the same version was
        copied before). Blocking: call it in a worker thread. OSError (EMFILE) when the
        process was out of files meanwhile (a file read as unreadable would make another
        digest): the copy is removed, to be taken again."""
        examined = submissions.examine(name, incoming)
        if at_file_limit():
            shutil.rmtree(incoming, ignore_errors=True)
            raise OSError(errno.EMFILE, "too many open files while reading a bot's copy")
        if examined.problem is None:  # a valid name: it may name a folder
            target = self._copy_of(name, examined.digest)
            if not target.exists():  # else the same version was copied before
                target.parent.mkdir(exist_ok=True)
                try:
                    incoming.rename(target)
                    return examined
                except OSError:
                    if not target.is_dir():  # else copied meanwhile (another upload)
                        raise
        shutil.rmtree(incoming, ignore_errors=True)
        return examined

    def _copy_of(self, name: str, digest: str) -> Path:
        return self.settings.data / BOTS / name / digest[:12]

    def record(self, examined: submissions.Examined) -> dict:
        """Record a version read by :meth:`place` as the bot's current one (testing, or
        rejected); its row."""
        name = examined.name
        version = self.store.find_version(name, examined.digest)
        now = time.time()
        if version is None:
            if examined.problem is not None:
                version_id = self.store.add_version(
                    name, examined.digest, examined.label, status="rejected", seen=now,
                    reason=examined.problem)
                self.say(f"{name}: version {examined.label} is rejected: {examined.problem}")
            else:
                version_id = self.store.add_version(
                    name, examined.digest, examined.label, status="testing", seen=now,
                    folder=self.store.relative(self._copy_of(name, examined.digest)),
                    entry=examined.entry)
                self.say(f"{name}: new version {examined.label}, in quarantine")
            version = self.store.version(version_id)
        elif version["status"] == "superseded":  # back before it was tested: test it now
            self.store.retest(version["id"])
            self.say(f"{name}: version {examined.label} is back, in quarantine")
        bot = self.store.bot(name)
        if bot is None or bot["version_id"] != version["id"] or not bot["present"]:
            self.store.set_current(name, version["id"], now)
        self._work.set()
        return self.store.version(version["id"])

    # -- quarantine ------------------------------------------------------------------------

    async def test(self) -> None:
        while True:
            waiting = self.store.untested()
            if not waiting:
                self.testing = None
                await self._work.wait()
                self._work = trio.Event()
                continue
            await self._test(waiting[0])

    async def _test(self, version: dict) -> None:
        settings = self.settings
        logs = settings.data / QUARANTINE / str(version["id"])
        shutil.rmtree(logs, ignore_errors=True)  # an attempt the service stopped
        logs.mkdir(parents=True)
        self.testing = version["name"]
        options = settings.options
        verdict = await quarantine.run(quarantine.job(
            settings.data / version["folder"] / version["entry"], logs, game=options["game"],
            game_texts=options["game_texts"], players=settings.players,
            limits=settings.limits))
        if verdict is None:
            verdict = {"passed": False, "cases": 0, "reason": "the smoke test process ended"
                       " without a verdict (see the service's output)", "report": ""}
        smoke_logs = verdict.get("logs")
        self.store.set_verdict(
            version["id"], passed=verdict["passed"], tested=time.time(),
            cases=verdict["cases"], reason=verdict.get("reason"), report=verdict.get("report"),
            smoke_logs=smoke_logs and self.store.relative(smoke_logs),
            transcript=verdict.get("transcript"))
        if verdict["passed"]:
            self.say(f"{version['name']}: version {version['label']} passed its smoke test"
                     f" ({verdict['cases']} matches) and is admitted")
        else:
            self.say(f"{version['name']}: version {version['label']} failed its smoke test:"
                     f" {verdict['reason']}")

    async def settled(self) -> None:
        """Return once no version is waiting for its test."""
        while self.store.untested():
            await trio.sleep(0.2)

    # -- tournaments -----------------------------------------------------------------------

    async def tournaments(self) -> None:
        for row in reversed(self.store.tournaments("running", "interrupted")):
            self.say(f"tournament {row['id']}: resuming")
            await self._to_the_end(row)
        players = self.settings.players
        while True:
            self.next_at = max(self.next_at or 0.0, time.time())
            await trio.sleep(max(0.0, self.next_at - time.time()))
            await self.scan_until_steady()
            await self.settled()
            field = self.store.playing()
            if len(field) < players:
                self.next_at = None
                await trio.sleep(POLL)
                continue
            started = time.time()
            await self._to_the_end(self._new(field, started))
            self.next_at = started + self.settings.every

    async def _to_the_end(self, row: dict) -> None:
        """Play the tournament of ``row``, and resume it every ``RETRY`` seconds while its
        process is stopped by something else than the service (a person's SIGTERM, the
        machine's OOM killer...), until it is done or failed."""
        while await self._play(row) == "interrupted":
            await trio.sleep(RETRY)
            self.say(f"tournament {row['id']}: resuming")
            row = self.store.tournament(row["id"])

    def _new(self, field: list[dict], started: float) -> dict:
        tournament_id = self.store.next_tournament_id()
        folder = self.settings.data / TOURNAMENTS / f"{tournament_id:06d}"
        seed, salt = seeds.draw(), commitments.new_salt()
        bots = [tournaments.entrant(v["name"], self.settings.data / v["folder"] / v["entry"])
                for v in field]
        job = tournaments.job(bots, folder, seed, self.settings.options,
                              scheduler=self.settings.scheduler)
        self.store.add_tournament(
            tournament_id, seed=seed, started=started, folder=self.store.relative(folder),
            job=job,
            bots=[{"name": v["name"], "version": v["label"], "version_id": v["id"]}
                  for v in field],
            salt=salt, commitment=commitments.commitment(seed, salt))
        # The service's own output is the organiser's: the seed is there, as in the store.
        self.say(f"tournament {tournament_id}: {len(field)} bots"
                 f" ({', '.join(v['name'] + ' ' + v['label'] for v in field)}), seed {seed}")
        return self.store.tournament(tournament_id)

    async def _play(self, row: dict) -> str:
        """Play the tournament of ``row`` until its process ends; its status then."""
        folder = self.settings.data / row["folder"]
        folder.parent.mkdir(parents=True, exist_ok=True)
        job_file = folder.with_name(folder.name + ".json")
        job_file.write_text(json_text(row["job"]), encoding="utf-8")
        log_file = folder.with_name(folder.name + ".log")
        self.playing = row["id"]
        self.store.set_tournament(row["id"], "running")
        code = None
        broke = False
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._follow, row["id"], folder)
                code = await tournaments.run(job_file, log_file)
                nursery.cancel_scope.cancel()
        except Exception:
            broke = True  # the service's own error (Service.run says which)
            raise
        finally:
            self.playing = None
            status = self._finish(row["id"], folder, code, log_file, broke)
        return status

    async def _follow(self, tournament_id: int, folder: Path) -> None:
        while True:
            await trio.sleep(FOLLOW)
            try:
                self.store.copy_matches(tournament_id, tournaments.matches(folder))
            except (StoreError, OSError) as exc:
                if not short_of(exc):
                    raise
                # short of files for now: the next look copies them, and the end does

    def _finish(self, tournament_id: int, folder: Path, code: int | None,
                log_file: Path, broke: bool = False) -> str:
        """Record how the tournament ended (``code``: its exit code; None: the service
        stopped it, ``broke``: because of an error of its own); its status."""
        self.store.copy_matches(tournament_id, tournaments.matches(folder))
        standings = tournaments.standings(folder)
        now = time.time()
        if code == 0:
            self.store.set_tournament(tournament_id, "done", finished=now, standings=standings)
            self.say(f"tournament {tournament_id}: done")
            return "done"
        if code is None or code in tournaments.INTERRUPTED:
            self.store.set_tournament(tournament_id, "interrupted", standings=standings)
            if code is None and broke:
                self.say(f"tournament {tournament_id}: stopped by the service's error; it"
                         " resumes when the service can go on")
            elif code is None:
                self.say(f"tournament {tournament_id}: stopped; it resumes when the service"
                         " starts again")
            else:
                self.say(f"tournament {tournament_id}: its process was stopped (exit code"
                         f" {code}); it resumes in {RETRY:g} s")
            return "interrupted"
        error = f"the tournament stopped with exit code {code}:\n" + log_tail(log_file)
        self.store.set_tournament(tournament_id, "failed", finished=now, standings=standings,
                                  error=error)
        self.say(f"tournament {tournament_id}: failed (exit code {code}); see {log_file}")
        return "failed"


def json_text(value) -> str:
    return json.dumps(value, indent=2) + "\n"


def log_tail(path: Path) -> str:
    """The last 20 lines of a tournament's log file ("" when it cannot be read)."""
    try:
        return tail(path, lines=20, max_bytes=1 << 16)
    except OSError:
        return ""

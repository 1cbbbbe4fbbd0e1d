"""``service.sqlite``: the one store of the competition service, its whole history.

Standard library ``sqlite3`` in WAL mode: the service's main task is the only writer; each web
request reads through a connection of its own, and never blocks it. Tables:

``meta``         key/value: the options the service was started with (JSON)
``bots``         one row per bot folder ever seen: ``name``, ``version_id`` (the version now
                 in its folder), ``admitted_id`` (the version that plays), ``present`` (its
                 folder is in SUBMISSIONS), ``first_seen``
``versions``     every version of every bot: ``digest`` (sha256 of its files), ``label``,
                 ``status`` (``testing``, ``admitted``, ``quarantined``, ``rejected``, or
                 ``superseded`` when a newer one came before its test), ``reason`` (one line),
                 ``report`` (the smoke paragraph), ``folder`` and ``entry`` (its copy in the
                 data folder), ``smoke_logs`` and ``transcript`` (the failing smoke match),
                 ``seen``, ``tested``, ``cases`` (smoke matches played)
``tournaments``  ``status`` (``running``, ``interrupted``, ``done``, ``failed``), ``seed``
                 (its decimal text: a drawn seed has 128 bits, more than SQLite's integers
                 hold), ``started``, ``finished``, ``folder`` (the tournament's own folder,
                 with its ``results.sqlite`` and ``report.html``), ``job`` (what it was started
                 with, so that a restart resumes it exactly), ``bots`` (names and versions),
                 ``standings`` (its ``standings.json``), ``error``, ``salt`` and
                 ``commitment`` (:mod:`.commitments`; NULL in a tournament started before
                 there were any), ``revealed`` (when its seed and salt were made public, or
                 NULL)
``matches``      a cache of every tournament's match rows (see below), numbered across all
                 of them (``match_no`` is the row's id in its tournament's store),
                 ``log_dir`` relative to the data folder
``teams``        the teams that upload their bot (:mod:`.teams`): ``name`` (its bot's name),
                 ``organiser`` (1: sees everything, uploads nothing), ``key`` (its token's
                 first characters, which find its row), ``salt`` and ``hash`` (scrypt of its
                 token; all three NULL once revoked), ``created``, ``revoked``

The match rows are the tournament's: its own store (``results.sqlite`` in its folder, written
by its process: :mod:`pokerbots.server.tournament.results_store`) is the truth, and
``matches`` holds a copy of its ``matches`` table, each row as it was when last copied
(status, hands, bankrolls, culprit, error, log folder, times), never written otherwise. The
scheduler refreshes the copy every few seconds while the tournament plays and once when its
process ends (:meth:`Store.copy_matches`); a resumed tournament's rows are refreshed in
place, keeping their numbers. The copy is kept, rather than each page reading every
tournament's store, because the site asks across tournaments (a bot's failed matches, its
latest matches: one indexed query), names a match by one number across them (its address),
and reads only this store, with one read-only connection a request, never a file the
tournament's process is writing.

Paths are stored relative to the data folder, so that the folder can move, and so are the
paths in the texts the workers write (smoke reports, fault paragraphs, a failed tournament's
output: :func:`relative_text`), which pages show: no page names the data folder. Times are
seconds since the epoch (UTC). A store written before seeds were kept as text (its
``tournaments.seed`` an INTEGER column) is brought up to the present table when it is opened
for writing (:func:`open_store`), its seeds and everything else kept.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from pathlib import Path

from pokerbots.server.database import Database, StoreError, connect

FILE = "service.sqlite"
VERSION_STATUSES = ("testing", "admitted", "quarantined", "rejected", "superseded")
TOURNAMENT_STATUSES = ("running", "interrupted", "done", "failed")

#: The columns of ``tournaments``.
_TOURNAMENTS = f"""
    id INTEGER PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN {TOURNAMENT_STATUSES!r}),
    seed TEXT NOT NULL, started REAL NOT NULL, finished REAL, folder TEXT NOT NULL,
    job TEXT NOT NULL, bots TEXT NOT NULL, standings TEXT, error TEXT,
    salt TEXT, commitment TEXT, revealed REAL"""
#: The columns a store written before had in ``tournaments``, in its order.
_TOURNAMENTS_BEFORE = ("id", "status", "seed", "started", "finished", "folder", "job", "bots",
                       "standings", "error")

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS bots (
    name TEXT PRIMARY KEY, version_id INTEGER, admitted_id INTEGER,
    present INTEGER NOT NULL DEFAULT 1, first_seen REAL NOT NULL);
CREATE TABLE IF NOT EXISTS versions (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, digest TEXT NOT NULL, label TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN {VERSION_STATUSES!r}),
    reason TEXT, report TEXT, folder TEXT, entry TEXT, smoke_logs TEXT, transcript TEXT,
    seen REAL NOT NULL, tested REAL, cases INTEGER,
    UNIQUE (name, digest));
CREATE TABLE IF NOT EXISTS tournaments ({_TOURNAMENTS});
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY, tournament_id INTEGER NOT NULL, match_no INTEGER NOT NULL,
    table_no INTEGER, deal_set INTEGER, seating_no INTEGER, seating TEXT NOT NULL,
    status TEXT NOT NULL, hands INTEGER, bankrolls TEXT, culprit TEXT, error TEXT,
    log_dir TEXT, started REAL, finished REAL,
    UNIQUE (tournament_id, match_no));
CREATE INDEX IF NOT EXISTS matches_culprit ON matches (culprit);
CREATE TABLE IF NOT EXISTS teams (
    name TEXT PRIMARY KEY, organiser INTEGER NOT NULL, key TEXT UNIQUE, salt BLOB, hash BLOB,
    created REAL NOT NULL, revoked REAL);
"""



def relative_text(text: str | None, data: Path) -> str | None:
    """``text`` with every path into the data folder ``data`` made relative to it
    (``/srv/data/bots/x/bot.py`` -> ``bots/x/bot.py``, the folder itself -> ``.``)."""
    if not text:
        return text
    for folder in dict.fromkeys((str(data), str(data.resolve()))):
        if folder != os.sep:
            text = re.sub(re.escape(folder) + r"(/+|(?![\w-]|\.[\w.-]))",
                          lambda m: "" if m.group(1) else ".", text)
    return text


class Store(Database):
    """The service's store in a data folder (:func:`open_store`)."""

    JSON_COLUMNS = frozenset({"bots", "standings", "job", "seating", "bankrolls"})

    def __init__(self, data: Path, db: sqlite3.Connection) -> None:
        super().__init__(data / FILE, db)
        self.data = data

    def relative(self, path: Path | str) -> str:
        """``path`` relative to the data folder (absolute if it is outside)."""
        path = Path(path).resolve()
        data = self.data.resolve()
        return os.path.relpath(path, data) if path.is_relative_to(data) else str(path)

    def relative_text(self, text: str | None) -> str | None:
        """:func:`relative_text` in this store's data folder."""
        return relative_text(text, self.data)

    # -- meta ------------------------------------------------------------------------------

    # -- bots and versions -----------------------------------------------------------------

    def bots(self) -> list[dict]:
        """Every bot, by name, with its current (``version``) and admitted (``admitted``)
        version rows, and ``team_revoked``: when its team's token was revoked (else None)."""
        found = self._all("SELECT bots.*, teams.revoked AS team_revoked FROM bots"
                          " LEFT JOIN teams ON teams.name = bots.name ORDER BY bots.name")
        versions = {v["id"]: v for v in self._all("SELECT * FROM versions")}
        for bot in found:
            bot["version"] = versions.get(bot["version_id"])
            bot["admitted"] = versions.get(bot["admitted_id"])
        return found

    def bot(self, name: str) -> dict | None:
        return next((b for b in self.bots() if b["name"] == name), None)

    def versions(self, name: str) -> list[dict]:
        """The bot's versions, newest first."""
        return self._all("SELECT * FROM versions WHERE name = ? ORDER BY id DESC", (name,))

    def version(self, version_id: int) -> dict | None:
        return self._one("SELECT * FROM versions WHERE id = ?", (version_id,))

    def find_version(self, name: str, digest: str) -> dict | None:
        return self._one("SELECT * FROM versions WHERE name = ? AND digest = ?", (name, digest))

    def add_version(self, name: str, digest: str, label: str, *, status: str, seen: float,
                    reason: str | None = None, folder: str | None = None,
                    entry: str | None = None) -> int:
        return self._write(
            "INSERT INTO versions (name, digest, label, status, reason, folder, entry, seen)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (name, digest, label, status, reason, folder, entry, seen))

    def set_current(self, name: str, version_id: int, seen: float) -> None:
        """The bot's folder holds ``version_id`` now (and is there)."""
        self._write(
            "INSERT INTO bots (name, version_id, present, first_seen) VALUES (?, ?, 1, ?)"
            " ON CONFLICT (name) DO UPDATE SET version_id = excluded.version_id, present = 1",
            (name, version_id, seen))
        version = self.version(version_id)
        if version["status"] == "admitted":  # back to a version that passed: it plays again
            self._write("UPDATE bots SET admitted_id = ? WHERE name = ?", (version_id, name))

    def set_absent(self, name: str) -> None:
        self._write("UPDATE bots SET present = 0 WHERE name = ?", (name,))

    def untested(self) -> list[dict]:
        """The versions waiting for their smoke test, oldest first (a version that is no
        longer in its bot's folder is marked superseded instead)."""
        waiting = self._all("SELECT v.*, b.version_id AS current FROM versions v"
                            " JOIN bots b ON b.name = v.name WHERE v.status = 'testing'"
                            " ORDER BY v.id")
        for version in waiting:
            if version["current"] != version["id"]:
                self._write("UPDATE versions SET status = 'superseded', reason = ?"
                            " WHERE id = ?",
                            ("a newer version came before its smoke test", version["id"]))
        return [v for v in waiting if v["current"] == v["id"]]

    def set_verdict(self, version_id: int, *, passed: bool, tested: float, cases: int,
                    reason: str | None = None, report: str | None = None,
                    smoke_logs: str | None = None, transcript: str | None = None) -> None:
        """Record a smoke test: a pass admits the version if its folder still holds it."""
        status = "admitted" if passed else "quarantined"
        self._write("UPDATE versions SET status = ?, reason = ?, report = ?, smoke_logs = ?,"
                    " transcript = ?, tested = ?, cases = ? WHERE id = ?",
                    (status, self.relative_text(reason), self.relative_text(report), smoke_logs,
                     transcript, tested, cases, version_id))
        if passed:
            self._write("UPDATE bots SET admitted_id = ? WHERE version_id = ?",
                        (version_id, version_id))

    def test_again(self) -> int:
        """Every tested version that has a copy waits for its test again, and no bot plays
        until one passes (the game or the table size changed); returns how many."""
        try:
            with self.db:
                count = self.db.execute(
                    "UPDATE versions SET status = 'testing', reason = NULL, report = NULL,"
                    " smoke_logs = NULL, transcript = NULL, tested = NULL, cases = NULL"
                    " WHERE status IN ('admitted', 'quarantined') AND folder IS NOT NULL"
                ).rowcount
                self.db.execute("UPDATE bots SET admitted_id = NULL")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write {self.path}: {exc}") from None
        return count

    def playing(self) -> list[dict]:
        """The admitted version of every bot whose folder is there, by name."""
        return [b["admitted"] for b in self.bots() if b["present"] and b["admitted"]]

    def retest(self, version_id: int) -> None:
        """A superseded version is back in its bot's folder: it waits for its test again."""
        self._write("UPDATE versions SET status = 'testing', reason = NULL"
                    " WHERE id = ? AND status = 'superseded'", (version_id,))

    # -- teams -----------------------------------------------------------------------------

    def teams(self) -> list[dict]:
        """Every team ever added, by name (revoked ones too)."""
        return self._all("SELECT * FROM teams ORDER BY name")

    def team(self, name: str) -> dict | None:
        return self._one("SELECT * FROM teams WHERE name = ?", (name,))

    def team_of_key(self, key: str) -> dict | None:
        """The team whose token starts with ``key`` (a revoked one has none)."""
        return self._one("SELECT * FROM teams WHERE key = ?", (key,))

    def active_teams(self) -> set[str]:
        """The names of the teams whose token works."""
        return {row[0] for row in self.db.execute(
            "SELECT name FROM teams WHERE hash IS NOT NULL")}

    def put_team(self, name: str, *, organiser: bool, key: str, salt: bytes, hash_: bytes,
                 created: float) -> None:
        """Add the team, or give a revoked one a new token; its bot (if any) is present."""
        try:
            with self.db:
                self.db.execute(
                    "INSERT INTO teams (name, organiser, key, salt, hash, created) VALUES"
                    " (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET"
                    " organiser = excluded.organiser, key = excluded.key,"
                    " salt = excluded.salt, hash = excluded.hash,"
                    " created = excluded.created, revoked = NULL",
                    (name, int(organiser), key, salt, hash_, created))
                if not organiser:
                    self.db.execute("UPDATE bots SET present = 1 WHERE name = ?", (name,))
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write {self.path}: {exc}") from None

    def revoke_team(self, name: str, revoked: float) -> None:
        """The team's token no longer works, and its bot plays no more."""
        try:
            with self.db:
                self.db.execute("UPDATE teams SET key = NULL, salt = NULL, hash = NULL,"
                                " revoked = ? WHERE name = ?", (revoked, name))
                self.db.execute("UPDATE bots SET present = 0 WHERE name = ?", (name,))
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write {self.path}: {exc}") from None

    # -- tournaments -----------------------------------------------------------------------

    def next_tournament_id(self) -> int:
        return self.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM tournaments").fetchone()[0]

    def add_tournament(self, tournament_id: int, *, seed: int, started: float, folder: str,
                       job: dict, bots: list[dict], salt: str | None = None,
                       commitment: str | None = None) -> None:
        self._write(
            "INSERT INTO tournaments (id, status, seed, started, folder, job, bots, salt,"
            " commitment) VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?)",
            (tournament_id, str(seed), started, folder, json.dumps(job), json.dumps(bots),
             salt, commitment))

    def tournaments(self, *statuses: str, limit: int | None = None) -> list[dict]:
        """Tournaments (those with one of ``statuses``), newest first."""
        sql = "SELECT * FROM tournaments"
        if statuses:
            sql += f" WHERE status IN ({','.join('?' * len(statuses))})"
        sql += " ORDER BY id DESC"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return _seeds_as_numbers(self._all(sql, statuses))

    def tournament(self, tournament_id: int) -> dict | None:
        found = _seeds_as_numbers(self._all("SELECT * FROM tournaments WHERE id = ?",
                                            (tournament_id,)))
        return found[0] if found else None

    def reveal(self, tournament_ids: list[int], revealed: float) -> None:
        """The seeds and salts of these tournaments are public from ``revealed`` on."""
        self._write_many("UPDATE tournaments SET revealed = ? WHERE id = ? AND revealed IS NULL",
                         [(revealed, t) for t in tournament_ids])

    def set_tournament(self, tournament_id: int, status: str, *, finished: float | None = None,
                       standings: dict | None = None, error: str | None = None) -> None:
        self._write("UPDATE tournaments SET status = ?, finished = ?,"
                    " standings = COALESCE(?, standings), error = ? WHERE id = ?",
                    (status, finished, None if standings is None else json.dumps(standings),
                     self.relative_text(error), tournament_id))

    # -- matches ---------------------------------------------------------------------------

    def copy_matches(self, tournament_id: int, rows: list[dict]) -> None:
        """Refresh the cache of a tournament's match rows from ``rows``, as its own store
        (the truth) has them now: a row new here is added, one seen before is overwritten
        and keeps the number it got the first time."""
        values = [(tournament_id, r["id"], r["table_no"], r["deal_set"], r["seating_no"],
                   json.dumps(r["seating"]), r["status"], r["hands"],
                   None if r["bankrolls"] is None else json.dumps(r["bankrolls"]),
                   r["culprit"], self.relative_text(r["error"]),
                   r["log_dir"] and self.relative(r["log_dir"]),
                   r["started"], r["finished"]) for r in rows]
        try:
            with self.db:
                self.db.executemany(
                    "INSERT INTO matches (tournament_id, match_no, table_no, deal_set,"
                    " seating_no, seating, status, hands, bankrolls, culprit, error, log_dir,"
                    " started, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (tournament_id, match_no) DO UPDATE SET"
                    " status = excluded.status, hands = excluded.hands,"
                    " bankrolls = excluded.bankrolls, culprit = excluded.culprit,"
                    " error = excluded.error, log_dir = excluded.log_dir,"
                    " started = excluded.started, finished = excluded.finished", values)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write {self.path}: {exc}") from None

    def matches(self, tournament_id: int) -> list[dict]:
        return self._all("SELECT * FROM matches WHERE tournament_id = ? ORDER BY id",
                         (tournament_id,))

    def match(self, match_id: int) -> dict | None:
        return self._one("SELECT * FROM matches WHERE id = ?", (match_id,))

    def failed_matches(self, name: str) -> list[dict]:
        """The matches ``name`` broke a rule in, newest first."""
        return self._all("SELECT * FROM matches WHERE culprit = ? AND status = 'failed'"
                         " ORDER BY id DESC", (name,))

    def matches_of(self, name: str, limit: int = 200) -> list[dict]:
        """The latest ``limit`` matches bot ``name`` sat in, newest first."""
        return self._all("SELECT * FROM matches WHERE EXISTS (SELECT 1 FROM"
                         " json_each(matches.seating) WHERE value = ?) ORDER BY id DESC"
                         f" LIMIT {int(limit)}", (name,))


def _seeds_as_numbers(rows: list[dict]) -> list[dict]:
    for row in rows:
        row["seed"] = int(row["seed"])
        for name in ("salt", "commitment", "revealed"):  # read-only, before the upgrade
            row.setdefault(name, None)
    return rows


def open_store(data: Path) -> Store:
    """The store in ``data`` (both created if missing; an earlier version's brought up to
    date)."""
    try:
        data.mkdir(parents=True, exist_ok=True)
        db = connect(data / FILE)
        with db:
            db.executescript(_SCHEMA)
        _upgrade(db)
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(f"cannot open the service's store in {data}: {exc}") from None
    return Store(data, db)


def _upgrade(db: sqlite3.Connection) -> None:
    """Rebuild the ``tournaments`` table of a store whose seeds are INTEGER: SQLite cannot
    change a column's type, and an INTEGER column turns a 128-bit seed given as text into an
    inexact REAL. One transaction: the old table is copied into the new one, seeds as their
    decimal text, and replaced by it."""
    columns = {row[1]: row[2] for row in db.execute("PRAGMA table_info(tournaments)")}
    if columns["seed"].upper() == "TEXT":
        return
    before = ", ".join(_TOURNAMENTS_BEFORE)
    copied = before.replace("seed", "CAST(seed AS TEXT)", 1)
    try:
        db.executescript(f"""
            BEGIN IMMEDIATE;
            CREATE TABLE tournaments_upgraded ({_TOURNAMENTS});
            INSERT INTO tournaments_upgraded ({before}) SELECT {copied} FROM tournaments;
            DROP TABLE tournaments;
            ALTER TABLE tournaments_upgraded RENAME TO tournaments;
            COMMIT;
            """)
    except sqlite3.Error:
        if db.in_transaction:
            db.rollback()
        raise


def reader(data: Path) -> Store:
    """A read-only connection to the store in ``data``, for one web request."""
    try:
        return Store(data, connect(data / FILE, read_only=True))
    except sqlite3.Error as exc:
        raise StoreError(f"cannot read {data / FILE}: {exc}") from None

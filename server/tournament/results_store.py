"""``results.sqlite``: the one source of truth of a tournament.

Standard library ``sqlite3`` in WAL mode (readers such as ``pokerbots standings`` or a web
server never block the writer). Three tables:

``meta``     key/value, each JSON: ``options`` (what the tournament was started with),
             ``seed`` and ``format`` (:data:`FORMAT`)
``bots``     name, position in the field, the argument typed, program path and its sha256
``matches``  one row per planned match: ``id``, ``table_no``, ``deal_set``, ``seating_no``,
             ``seating`` (JSON names by seat), ``seed`` (the match seed: the deals; its
             decimal text, as a seed may be larger than SQLite's integers), ``button``,
             ``phase`` (0 round robin, n: n-th refinement), ``status`` (``pending``,
             ``running``, ``done``, ``failed``, ``skipped``), ``hands``, ``bankrolls`` (JSON by
             seat), ``allin_bankrolls`` (JSON by seat, games scored by all-in equity),
             ``luck_bankrolls`` (JSON by seat, the luck-adjusted sums; null with
             ``--no-adjust``),
             ``culprit`` and ``culprit_seat`` (the bot that broke a rule), ``error`` (its
             paragraph), ``log_dir``, ``seconds``, ``cpu``, ``worker``, ``started``,
             ``finished``

A store of format 1 (written before seeds had 128 bits) has an INTEGER ``seed`` column, and its
tournament keeps deriving 63-bit match seeds (:meth:`Store.match_seed_bits`), which that
column holds exactly: it resumes as it started. Seeds are read back as numbers either way.

Only the tournament process writes (one connection, every change its own transaction), so the
file is consistent whenever the process stops, SIGKILL included; a match still ``running``
then was not finished and is played again on resume.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from pokerbots.server.database import Database, StoreError, connect
from pokerbots.server.tournament import deals
from pokerbots.server.tournament.entrants import Entrant
from pokerbots.server.tournament.plan import Planned

FILE = "results.sqlite"
#: The format of a new store: 2, match seeds of 128 bits kept as text (1: 63 bits, integers).
FORMAT = 2
STATUSES = ("pending", "running", "done", "failed", "skipped")

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS bots (
    name TEXT PRIMARY KEY, position INTEGER NOT NULL, arg TEXT NOT NULL,
    program TEXT NOT NULL, args TEXT NOT NULL, python INTEGER NOT NULL, sha256 TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    table_no INTEGER NOT NULL, deal_set INTEGER NOT NULL, seating_no INTEGER NOT NULL,
    seating TEXT NOT NULL, seed TEXT NOT NULL, button INTEGER NOT NULL,
    phase INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN {STATUSES!r}),
    hands INTEGER, bankrolls TEXT, allin_bankrolls TEXT, culprit TEXT, culprit_seat INTEGER,
    error TEXT, log_dir TEXT, seconds REAL, cpu INTEGER, worker TEXT, started REAL,
    finished REAL, luck_bankrolls TEXT,
    UNIQUE (table_no, deal_set, seating_no));
CREATE INDEX IF NOT EXISTS matches_status ON matches (status);
"""


class Store(Database):
    """A tournament's ``results.sqlite``, opened by :func:`create` or :func:`open_store`."""

    JSON_COLUMNS = frozenset({"seating", "bankrolls", "allin_bankrolls", "luck_bankrolls"})

    # -- reading ---------------------------------------------------------------------------

    def entrants(self) -> list[Entrant]:
        rows = self.db.execute(
            "SELECT name, arg, program, args, python, sha256 FROM bots ORDER BY position")
        return [Entrant(name, arg, program, tuple(json.loads(args)), bool(python), sha)
                for name, arg, program, args, python, sha in rows]

    def matches(self, *statuses: str) -> list[dict]:
        """Every match (or those with one of ``statuses``) in plan order, JSON decoded."""
        sql = "SELECT * FROM matches"
        if statuses:
            sql += f" WHERE status IN ({','.join('?' * len(statuses))})"
        rows = self._all(sql + " ORDER BY id", statuses)
        for row in rows:  # a read-only store of an earlier version lacks the later columns
            for name, _ in _LATER_COLUMNS:
                row.setdefault(name, None)
            row["seed"] = int(row["seed"])
        return rows

    def match_seed_bits(self) -> int:
        """The bits of the match seeds this tournament derives (:func:`.deals.match_seed`):
        128, or 63 in a store of format 1."""
        return deals.FORMAT_1_BITS if (self.meta("format") or 1) < 2 else deals.MATCH_SEED_BITS

    def counts(self) -> dict[str, int]:
        found = dict(self.db.execute("SELECT status, COUNT(*) FROM matches GROUP BY status"))
        return {status: found.get(status, 0) for status in STATUSES}

    def last_deal_set(self) -> int:
        return self.db.execute("SELECT COALESCE(MAX(deal_set), -1) FROM matches").fetchone()[0]

    def last_phase(self) -> int:
        return self.db.execute("SELECT COALESCE(MAX(phase), 0) FROM matches").fetchone()[0]

    # -- writing ---------------------------------------------------------------------------

    def add_matches(self, planned: list[Planned]) -> None:
        self._write_many(
            "INSERT INTO matches (table_no, deal_set, seating_no, seating, seed, button,"
            " phase) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(p.table_no, p.deal_set, p.seating_no, json.dumps(list(p.seating)),
              str(p.seed), p.button, p.phase) for p in planned])

    def start(self, match_id: int, log_dir: str, started: float) -> None:
        self._write("UPDATE matches SET status = 'running', log_dir = ?, started = ?"
                    " WHERE id = ?", (log_dir, started, match_id))

    def finish(self, result: dict) -> None:
        """Record a played match (``done`` or ``failed``) from a worker's result."""
        allin = result.get("allin_bankrolls")
        luck = result.get("luck_bankrolls")
        self._write(
            "UPDATE matches SET status = ?, hands = ?, bankrolls = ?, allin_bankrolls = ?,"
            " luck_bankrolls = ?, culprit = ?, culprit_seat = ?, error = ?, log_dir = ?,"
            " seconds = ?, cpu = ?, worker = ?, started = ?, finished = ? WHERE id = ?",
            (result["status"], result["hands"], json.dumps(result["bankrolls"]),
             None if allin is None else json.dumps(allin),
             None if luck is None else json.dumps(luck), result.get("culprit"),
             result.get("culprit_seat"), result.get("error"), result["log_dir"],
             result["seconds"], result.get("cpu"), result.get("worker"), result["started"],
             result["finished"], result["id"]))

    def unstart(self, match_id: int) -> None:
        """An interrupted match goes back to ``pending`` (played again from scratch)."""
        self._write("UPDATE matches SET status = 'pending', started = NULL WHERE id = ?",
                    (match_id,))

    def reset_running(self) -> list[dict]:
        """Every match left ``running`` by a run that stopped goes back to ``pending``;
        returns those rows (their log folders are incomplete)."""
        rows = self.matches("running")
        self._write("UPDATE matches SET status = 'pending', started = NULL"
                    " WHERE status = 'running'")
        return rows

    def skip_bot(self, name: str) -> int:
        """Mark every pending match of ``name`` ``skipped``; returns how many."""
        rows = [r["id"] for r in self.matches("pending") if name in r["seating"]]
        try:
            with self.db:
                self.db.executemany("UPDATE matches SET status = 'skipped' WHERE id = ?",
                                    [(i,) for i in rows])
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write {self.path}: {exc}") from None
        return len(rows)



def create(folder: Path, options: dict, seed: int, entrants: list[Entrant],
           planned: list[Planned]) -> Store:
    """A new store in ``folder`` (created) with the tournament's options, bots and plan."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / FILE
        db = connect(path)
        with db:
            db.executescript(_SCHEMA)
            db.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                           [("options", json.dumps(options)), ("seed", json.dumps(seed)),
                            ("format", json.dumps(FORMAT))])
            db.executemany(
                "INSERT INTO bots VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(e.name, i, e.arg, e.program, json.dumps(list(e.args)), int(e.python),
                  e.sha256) for i, e in enumerate(entrants)])
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(f"cannot create the results store in {folder}: {exc}") from None
    store = Store(path, db)
    store.add_matches(planned)
    return store


def exists(folder: Path) -> bool:
    return (folder / FILE).is_file()


def open_store(folder: Path) -> Store:
    """The store of an existing tournament folder (StoreError if there is none or it is not a
    tournament's)."""
    path = folder / FILE
    if not path.is_file():
        raise StoreError(f"{folder} holds no tournament ({FILE} is missing)")
    try:
        db = connect(path)
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    except sqlite3.Error as exc:
        raise StoreError(f"cannot read {path}: {exc}") from None
    if not {"meta", "bots", "matches"} <= tables:
        db.close()
        raise StoreError(f"{path} is not a pokerbots tournament's results store")
    _add_missing_columns(db)
    return Store(path, db)


#: Columns added since the first stores were written: ``(name, type)``, added when missing.
_LATER_COLUMNS = (("luck_bankrolls", "TEXT"),)


def _add_missing_columns(db: sqlite3.Connection) -> None:
    """Bring a store written by an earlier version up to the present columns (their values
    null: nothing was measured then), so that an old tournament folder still opens. A store
    that cannot be written (a read-only copy) is read as it is: :meth:`Store.matches` gives
    the missing columns as null."""
    try:
        have = {row[1] for row in db.execute("PRAGMA table_info(matches)")}
        missing = [(name, kind) for name, kind in _LATER_COLUMNS if name not in have]
        if missing:
            with db:
                for name, kind in missing:
                    db.execute(f"ALTER TABLE matches ADD COLUMN {name} {kind}")
    except sqlite3.Error:
        pass

"""The SQLite stores a tournament (``results.sqlite``) and the service (``service.sqlite``) keep:
one way to open them, one error, rows as dicts, and the ``meta`` table both have.

A store is opened in WAL mode with ``synchronous=NORMAL``: a committed transaction survives
the process being killed, and after a power cut the last ones may be missing (a tournament
plays those matches again on resume). Readers that must never write (a web request) open the
file read-only.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

__all__ = ["Database", "StoreError", "connect"]


class StoreError(Exception):
    """A store cannot be read or written (the server cannot go on: exit 3); the message says
    what happened and to which file."""


def connect(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """A connection to the store at ``path``; sqlite3.Error if it cannot be opened."""
    if read_only:
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    db = sqlite3.connect(str(path), timeout=30)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    return db


class Database:
    """What every store does with its connection: read rows as dicts (the columns named in
    :attr:`JSON_COLUMNS` decoded), write in a transaction, keep ``meta`` values as JSON."""

    #: Columns that hold JSON text, decoded when read.
    JSON_COLUMNS: frozenset[str] = frozenset()

    def __init__(self, path: Path, db: sqlite3.Connection) -> None:
        self.path = path
        self.db = db

    def close(self) -> None:
        self.db.close()

    def _rows(self, cursor: sqlite3.Cursor) -> list[dict]:
        names = [d[0] for d in cursor.description]
        decoded = self.JSON_COLUMNS.intersection(names)
        rows = []
        for values in cursor:
            row = dict(zip(names, values))
            for key in decoded:
                if row[key] is not None:
                    row[key] = json.loads(row[key])
            rows.append(row)
        return rows

    def _all(self, sql: str, args=()) -> list[dict]:
        return self._rows(self.db.execute(sql, args))

    def _one(self, sql: str, args=()) -> dict | None:
        found = self._all(sql, args)
        return found[0] if found else None

    def _write(self, sql: str, args=()) -> int | None:
        """Run one statement in a transaction; the new row's id."""
        try:
            with self.db:
                return self.db.execute(sql, args).lastrowid
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write {self.path}: {exc}") from None

    def _write_many(self, sql: str, rows: list[tuple]) -> None:
        """Run one statement for every row, in one transaction."""
        try:
            with self.db:
                self.db.executemany(sql, rows)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write {self.path}: {exc}") from None

    def meta(self, key: str):
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def set_meta(self, key: str, value) -> None:
        self._write("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                    (key, json.dumps(value)))

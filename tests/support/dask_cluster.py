"""A real Dask cluster for the tests (:func:`dask_cluster`, a fixture: a ``dask scheduler`` and
two ``dask worker`` processes on 127.0.0.1), and a tournament's match rows read from its store
(:func:`matches`)."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pokerbots.server.tournament import results_store


def matches(out: Path) -> list[dict]:
    db = sqlite3.connect(f"file:{out / 'results.sqlite'}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    try:
        rows = [dict(r) for r in db.execute("SELECT * FROM matches ORDER BY id")]
    finally:
        db.close()
    for row in rows:  # every JSON column the store keeps, as the store's own reader does
        for column in results_store.Store.JSON_COLUMNS & row.keys():
            if row[column] is not None:
                row[column] = json.loads(row[column])
    return rows


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def dask_cluster(tmp_path):
    """A real ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1."""
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    dask = str(Path(sys.executable).parent / "dask")
    address = f"tcp://127.0.0.1:{free_port()}"
    log = open(tmp_path / "dask.log", "w")
    started = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port",
                                 address.rsplit(":", 1)[1], "--no-dashboard"],
                                stdout=log, stderr=log)]
    try:
        for name in ("w1", "w2"):
            started.append(subprocess.Popen(
                [dask, "worker", address, "--nthreads", "1", "--name", name, "--no-dashboard",
                 "--host", "127.0.0.1"], stdout=log, stderr=log, cwd=tmp_path))
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        for process in reversed(started):
            process.terminate()
        for process in started:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
        log.close()

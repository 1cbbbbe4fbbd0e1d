"""The competition service's parts, without processes: reading bot folders, the store's
rules for admitting versions, which files may be served, escaping, the chart.

The service as a whole, with real processes, is in test_service_e2e.py; in a browser, in
test_service_browser.py (both slow: CI runs them).
"""

from __future__ import annotations

import html
import os
import re
import time
from pathlib import Path

import click
import pytest

from pokerbots.server.cli.serve import parse_every
from pokerbots.server.service.data import store, submissions
from pokerbots.server.service.jobs.scheduler import Settings
from pokerbots.server.service.site import chart, pages
from pokerbots.server.service.site.routes.matches import log_file, log_files

from waiting import wait_for

ROOT = Path(__file__).resolve().parents[3]
XSS = "<script>alert(1)</script>"


def folder_with(tmp_path: Path, files: dict[str, str], name: str = "alice") -> Path:
    folder = tmp_path / name
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


# -- bot folders ------------------------------------------------------------------------


def test_entry_points_and_the_reasons_a_folder_is_rejected(tmp_path):
    script = folder_with(tmp_path, {"bot.py": "print()\n"}, "script")
    assert submissions.examine("script", script).entry == "bot.py"
    program = folder_with(tmp_path, {"bot": "#!/bin/sh\n", "bot.py": ""}, "program")
    (program / "bot").chmod(0o755)
    assert submissions.examine("program", program).entry == "bot"  # bot first
    (program / "bot").chmod(0o644)
    assert submissions.examine("program", program).entry == "bot.py"  # else bot.py
    plain = folder_with(tmp_path, {"bot": "#!/bin/sh\n"}, "plain")
    assert "not executable: chmod +x bot" in submissions.examine("plain", plain).problem
    empty = folder_with(tmp_path, {"README": "soon\n"}, "empty")
    assert submissions.examine("empty", empty).problem.startswith("no entry point")
    nested = folder_with(tmp_path, {"bot/main.py": ""}, "nested")
    assert "bot is a folder" in submissions.examine("nested", nested).problem
    missing = folder_with(tmp_path, {"bot": "#!/usr/bin/env no-such-interpreter\n"}, "gone")
    (missing / "bot").chmod(0o755)
    assert "no-such-interpreter" in submissions.examine("gone", missing).problem
    named = submissions.examine(XSS, script)
    assert named.entry is None and "letters, digits and _.-" in named.problem


def test_any_change_of_a_file_is_a_new_version_but_python_caches_are_not(tmp_path):
    folder = folder_with(tmp_path, {"bot.py": "print(1)\n", "lib/util.py": "X = 1\n"})
    first = submissions.examine("alice", folder)
    assert first.label == first.digest[:12] and len(first.digest) == 64
    before = submissions.fingerprint(folder)
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "bot.cpython-311.pyc").write_bytes(b"\0cache")
    (folder / "lib" / "util.pyc").write_bytes(b"\0cache")
    assert submissions.examine("alice", folder).digest == first.digest
    assert submissions.fingerprint(folder) == before
    (folder / "lib" / "util.py").write_text("X = 2\n")
    second = submissions.examine("alice", folder).digest
    (folder / "lib" / "util.py").chmod(0o755)
    third = submissions.examine("alice", folder).digest
    (folder / "lib" / "util.py").rename(folder / "lib" / "other.py")
    fourth = submissions.examine("alice", folder).digest
    assert len({first.digest, second, third, fourth}) == 4
    assert submissions.fingerprint(folder) != before


def test_a_version_file_names_the_version(tmp_path):
    folder = folder_with(tmp_path, {"bot.py": "", "VERSION": f"  {XSS}\nsecond line\n"})
    assert submissions.examine("alice", folder).label == XSS
    (folder / "VERSION").write_text("x" * 200 + "\x1b[31m")
    assert submissions.examine("alice", folder).label == "x" * submissions.MAX_LABEL
    (folder / "VERSION").write_text("\n")
    examined = submissions.examine("alice", folder)
    assert examined.label == examined.digest[:12]


def test_a_copy_is_the_same_version_with_its_modes_and_links(tmp_path):
    folder = folder_with(tmp_path, {"bot": "#!/bin/sh\n", "data/table.txt": "1 2 3\n"})
    (folder / "bot").chmod(0o755)
    (folder / "link").symlink_to("data/table.txt")
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "x.pyc").write_bytes(b"")
    copy = tmp_path / "copy"
    submissions.snapshot(folder, copy)
    assert submissions.digest(copy) == submissions.digest(folder)
    assert os.access(copy / "bot", os.X_OK) and (copy / "link").is_symlink()
    assert not (copy / "__pycache__").exists()


def test_hidden_folders_and_files_are_not_bots(tmp_path):
    for name in ("alice", ".git", "bob"):
        (tmp_path / name).mkdir()
    (tmp_path / "notes.txt").write_text("")
    assert sorted(submissions.bot_folders(tmp_path)) == ["alice", "bob"]


# -- the store ---------------------------------------------------------------------------


@pytest.fixture
def db(tmp_path):
    opened = store.open_store(tmp_path / "data")
    yield opened
    opened.close()


def test_a_pass_admits_only_the_version_still_in_the_folder(db):
    now = time.time()
    v1 = db.add_version("alice", "a" * 64, "1", status="testing", seen=now, folder="f", entry="bot")
    db.set_current("alice", v1, now)
    db.set_verdict(v1, passed=True, tested=now, cases=4)
    assert db.bot("alice")["admitted_id"] == v1 and [v["id"] for v in db.playing()] == [v1]
    v2 = db.add_version("alice", "b" * 64, "2", status="testing", seen=now, folder="f", entry="bot")
    db.set_current("alice", v2, now)
    db.set_verdict(v2, passed=False, tested=now, cases=1, reason="it crashed", report="...")
    bot = db.bot("alice")
    assert bot["version"]["status"] == "quarantined" and bot["admitted_id"] == v1
    assert pages.describe(bot) == ("quarantined", "it crashed", "1")
    v3 = db.add_version("alice", "c" * 64, "3", status="testing", seen=now, folder="f", entry="bot")
    db.set_current("alice", v3, now)
    v4 = db.add_version("alice", "d" * 64, "4", status="testing", seen=now, folder="f", entry="bot")
    db.set_current("alice", v4, now)
    assert [v["id"] for v in db.untested()] == [v4]  # 3 was replaced before its test
    assert db.version(v3)["status"] == "superseded"
    db.set_verdict(v3, passed=True, tested=now, cases=4)  # too late: 4 is in the folder
    assert db.bot("alice")["admitted_id"] == v1
    db.set_current("alice", v1, now)  # the author went back to version 1: it plays
    assert db.bot("alice")["admitted_id"] == v1
    db.set_absent("alice")
    assert db.playing() == []
    assert pages.describe(db.bot("alice"))[0] == "rejected"


def test_another_game_or_table_size_tests_every_copy_again(db):
    now = time.time()
    passed = db.add_version("alice", "a" * 64, "1", status="testing", seen=now, folder="f",
                            entry="bot")
    db.set_current("alice", passed, now)
    db.set_verdict(passed, passed=True, tested=now, cases=4)
    failed = db.add_version("bob", "b" * 64, "1", status="testing", seen=now, folder="f",
                            entry="bot")
    db.set_current("bob", failed, now)
    db.set_verdict(failed, passed=False, tested=now, cases=1, reason="crash")
    rejected = db.add_version("carol", "c" * 64, "1", status="rejected", seen=now,
                              reason="no entry point")
    db.set_current("carol", rejected, now)
    assert db.test_again() == 2
    assert [v["id"] for v in db.untested()] == [passed, failed]
    assert db.playing() == [] and db.version(rejected)["status"] == "rejected"


def test_matches_keep_their_number_across_copies_and_tournaments(db, tmp_path):
    def row(i, status):
        return {"id": i, "table_no": 0, "deal_set": 0, "seating_no": i, "seating": ["a", "b"],
                "status": status, "hands": None, "bankrolls": None, "culprit": None,
                "error": None, "log_dir": str(tmp_path / "data" / "t" / str(i)),
                "started": None, "finished": None}

    first = db.next_tournament_id()
    db.add_tournament(first, seed=1, started=0.0, folder="t1", job={}, bots=[])
    db.copy_matches(first, [row(1, "pending"), row(2, "pending")])
    second = db.next_tournament_id()
    db.add_tournament(second, seed=2, started=1.0, folder="t2", job={}, bots=[])
    db.copy_matches(second, [row(1, "pending")])
    db.copy_matches(first, [row(1, "done"), row(2, "failed")])
    assert [(m["id"], m["status"]) for m in db.matches(first)] == [(1, "done"), (2, "failed")]
    assert [m["id"] for m in db.matches(second)] == [3]
    assert db.match(1)["log_dir"] == "t/1"  # relative to the data folder


# -- what may be served ------------------------------------------------------------------


def test_only_log_files_inside_the_data_folder_are_served(tmp_path):
    data = tmp_path / "data"
    match = data / "tournaments" / "000001" / "matches" / "t00000-d000-s0"
    match.mkdir(parents=True)
    for name in ("hands.txt", "seat0.in", "seat1.stderr", "summary.json", "notes.txt"):
        (match / name).write_text("x\n")
    (data / "service.sqlite").write_text("")
    (tmp_path / "secret").write_text("secret\n")
    (match / "seat2.in").symlink_to(tmp_path / "secret")
    folder = "tournaments/000001/matches/t00000-d000-s0"
    assert log_file(data, folder, "hands.txt") == (match / "hands.txt").resolve()
    assert log_files(data, folder) == ["hands.txt", "summary.json", "seat0.in",
                                       "seat1.stderr"]
    for name in ("notes.txt", "../../../../service.sqlite", "..", "", "seat2.in",
                 "hands.txt/..", "/etc/passwd", "seat0.in\0"):
        assert log_file(data, folder, name) is None, name
    for outside in ("..", "../..", str(tmp_path), "/etc", None, ""):
        assert log_file(data, outside, "hands.txt") is None, outside


# -- pages -------------------------------------------------------------------------------


def settings(tmp_path, sandbox: bool = True) -> Settings:
    options = {"game": "kuhn", "game_texts": {}, "hands": 100, "duplicate": False,
               "sandbox": sandbox}
    return Settings(tmp_path / "submissions", tmp_path / "data", 3600.0, 2, options, {})


def test_a_bot_named_like_a_script_is_text_on_every_page(db, tmp_path):
    now = time.time()
    for name, label in ((XSS, XSS), ("bob", "1.0")):
        version = db.add_version(name, name.encode().hex().ljust(64, "0"), label,
                                 status="testing", seen=now, folder="f", entry="bot.py")
        db.set_current(name, version, now)
        db.set_verdict(version, passed=name == "bob", tested=now, cases=1, reason=f"{XSS} x",
                       report=f"The bot replied: '{XSS}'", transcript="seat0.in")
    standings = {"bots": [
        {"name": XSS, "rank": 1, "per_hand": 0.5, "ci95": [0.1, 0.9], "faults": 1,
         "matches": 2, "hands": 200, "bankroll": 100},
        {"name": "bob", "rank": 2, "per_hand": -0.5, "ci95": None, "faults": 0,
         "matches": 2, "hands": 200, "bankroll": -100}]}
    tournament = db.next_tournament_id()
    db.add_tournament(tournament, seed=1, started=now, folder="t", job={},
                      bots=[{"name": XSS, "version": XSS, "version_id": 1},
                            {"name": "bob", "version": "1.0", "version_id": 2}])
    db.set_tournament(tournament, "done", finished=now, standings=standings)
    db.copy_matches(tournament, [{
        "id": 1, "table_no": 0, "deal_set": 0, "seating_no": 0, "seating": [XSS, "bob"],
        "status": "failed", "hands": 3, "bankrolls": [1, -1], "culprit": XSS,
        "error": f"Bot {XSS} broke a rule", "log_dir": None, "started": now,
        "finished": now}])
    now_ = pages.Now(settings(tmp_path), None, None, now + 60)
    rendered = {
        "home": pages.home(db, now_),
        "bot": pages.bot(db, XSS, now_, lambda version: f"{XSS}\nREADY"),
        "tournament": pages.tournament(db, db.tournament(tournament), None, now_),
        "match": pages.match(db.match(1), ["hands.txt"], now_),
    }
    for page, text in rendered.items():
        assert "<script" not in text, page
        assert html.escape(XSS) in text, page
    assert 'href="/bots/%253Cscript%253Ealert%25281%2529%253C%252Fscript%253E"' not in (
        rendered["home"])  # quoted once, not twice
    assert 'href="/bots/%3Cscript%3Ealert%281%29%3C%2Fscript%3E"' in rendered["home"]
    assert "Bots run in a sandbox" in rendered["home"]


def test_the_chart_has_a_line_per_bot_and_a_point_per_result(tmp_path):
    tournaments = [  # newest first, as the store gives them
        {"id": 3, "standings": {"bots": [{"name": "bob", "per_hand": 0.2},
                                         {"name": XSS, "per_hand": -0.2}]}},
        {"id": 2, "standings": {"bots": [{"name": XSS, "per_hand": 0.1},
                                         {"name": "bob", "per_hand": None}]}},
        {"id": 1, "standings": {"bots": [{"name": XSS, "per_hand": 0.3},
                                         {"name": "bob", "per_hand": -0.3}]}},
    ]
    drawn = chart.svg(tournaments)
    assert "<script" not in drawn and html.escape(XSS) in drawn
    assert drawn.count('<g class="series"') == 2
    assert drawn.count("<polyline") == 2 and drawn.count("<circle") == 5
    assert [t for t in re.findall(r">#(\d+)<", drawn)] == ["1", "2", "3"]
    assert chart.svg([]) == '<p class="muted">No results yet.</p>'


def test_every_takes_seconds_minutes_and_hours():
    assert [parse_every(None, None, t) for t in ("1h", "15m", "90s", "1d", "1h30m", "0.5h")] \
        == [3600, 900, 90, 86400, 5400, 1800]
    for bad in ("", "h", "90", "-5m", "0", "0s", "1h 30m x", "1.2.3h"):
        with pytest.raises(click.BadParameter):
            parse_every(None, None, bad)


# -- the site's routes -------------------------------------------------------------------


def asgi_get(app, path: str) -> tuple[int, bytes]:
    """GET ``path`` (already decoded, as hypercorn gives it) from the ASGI ``app``: its
    status and body. An exception the app lets out fails the test."""
    import trio

    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": path,
             "raw_path": path.encode("utf-8", "surrogateescape"), "root_path": "",
             "query_string": b"", "headers": [(b"host", b"127.0.0.1")],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    trio.run(app, scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


#: Ids no row has, that a route must answer 404 to: beyond SQLite's integers, past 2**63,
#: zero, negative, not numbers, other digits than ASCII ones, a NUL.
BAD_IDS = ("99999999999999999999", "9223372036854775808", "18446744073709551616", "0",
           "000", "-1", "1e3", "0x10", "abc", " 1", "1.0", "١", "１", "\0", "1\0",
           "9" * 400)


def test_ids_out_of_range_or_malformed_are_not_found_on_every_route(db, tmp_path, caplog):
    from pokerbots.server.service.site.app import create_app

    now = time.time()
    version = db.add_version("bob", "b" * 64, "1.0", status="testing", seen=now,
                             folder="f", entry="bot.py")
    db.set_current("bob", version, now)
    db.add_tournament(db.next_tournament_id(), seed=1, started=now, folder="t", job={},
                      bots=[])
    app = create_app(tmp_path / "data", lambda: pages.Now(settings(tmp_path), None, None, None))
    assert asgi_get(app, "/bots/bob")[0] == 200
    assert asgi_get(app, "/tournaments/1")[0] == 200
    routes = ("/tournaments/{}", "/matches/{}", "/matches/{}/hands.txt",
              "/versions/{}/seat0.in", "/bots/{}")
    for route in routes:
        for bad in BAD_IDS:
            status, body = asgi_get(app, route.format(bad))
            assert status == 404, (route, bad, status)
            assert b"Traceback" not in body
    assert "Traceback" not in caplog.text and "Exception" not in caplog.text


# -- workers die with the service, not with a thread ------------------------------------

#: A parent that starts its worker from a thread which exits once the worker runs (as trio's
#: worker threads do after 10 idle seconds), says so, and waits to be killed.
PARENT = """
import os, subprocess, sys, threading
child = []
def start():
    child.append(subprocess.Popen([sys.executable, "-c", sys.argv[1], str(os.getpid()),
                                   sys.argv[2]], stdout=subprocess.PIPE))
    child[0].stdout.readline()  # the worker watches its parent: end the thread
thread = threading.Thread(target=start)
thread.start()
thread.join()
print(child[0].pid, flush=True)
threading.Event().wait()
"""
#: The worker: dies with its parent (SIGINT), and writes when it got the signal.
CHILD = """
import os, signal, sys, time
from pokerbots.server.tournament.pool import die_with_parent
def got(signum, frame):
    open(sys.argv[2] + ".new", "w").write("stopped")
    os.replace(sys.argv[2] + ".new", sys.argv[2])
    sys.exit(0)
signal.signal(signal.SIGINT, got)
die_with_parent(int(sys.argv[1]))
open(sys.argv[2] + ".new", "w").write("watching")
os.replace(sys.argv[2] + ".new", sys.argv[2])
print("watching", flush=True)
time.sleep(60)
"""


def test_a_worker_outlives_the_thread_that_started_it_but_not_its_parent(tmp_path):
    import signal
    import subprocess
    import sys

    mark = tmp_path / "mark"
    parent = subprocess.Popen([sys.executable, "-c", PARENT, CHILD, str(mark)],
                              stdout=subprocess.PIPE, text=True)
    try:
        child = int(parent.stdout.readline())
        wait_for("the worker to watch its parent", mark.exists, timeout=60)
        time.sleep(1.0)  # PR_SET_PDEATHSIG would have fired as the thread ended
        assert mark.read_text() == "watching"
        assert os.path.exists(f"/proc/{child}")
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        # SIGINT once the parent process is gone
        wait_for("the worker to stop", lambda: mark.read_text() == "stopped", timeout=60)
    finally:
        parent.kill()
        parent.wait()


# -- a folder is taken once it is steady ---------------------------------------------------


def test_a_folder_is_taken_only_when_the_same_on_two_scans_two_seconds_apart(
        db, tmp_path, monkeypatch):
    import trio

    from pokerbots.server.service.jobs import scheduler

    now = [100.0]
    monkeypatch.setattr(scheduler, "clock", lambda: now[0])
    service = scheduler.Service(settings(tmp_path), db, echo=lambda text: None)
    folder = tmp_path / "submissions" / "alice"
    folder.mkdir(parents=True)
    (folder / "bot.py").write_text("import helper\n")  # the copy has just begun

    def scan_at(seconds: float) -> bool:
        now[0] = 100.0 + seconds
        return trio.run(service.scan)

    assert scan_at(0) is False and db.bot("alice") is None  # first seen
    assert scan_at(1.5) is False and db.bot("alice") is None  # the same, too soon
    (folder / "helper.py").write_text("X = 1\n")  # the copy goes on
    assert scan_at(3.6) is False and db.bot("alice") is None  # changed: seen anew
    assert scan_at(5.0) is False and db.bot("alice") is None
    assert scan_at(5.7) is True  # the same for 2 s: taken, complete
    version = db.bot("alice")["version"]
    assert version["digest"] == submissions.examine("alice", folder).digest
    assert (tmp_path / "data" / version["folder"] / "helper.py").exists()
    assert scan_at(8.0) is True  # nothing changed since


# -- a refused service leaves nothing behind; no sandbox, no service unless asked ---------


def serve_command(tmp_path, *args, env=None):
    import subprocess
    import sys

    submissions = tmp_path / "submissions"
    submissions.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "pokerbots.server.cli.main", "serve", str(submissions),
         "--data", str(tmp_path / "data"), *args],
        capture_output=True, text=True, timeout=60, env=env, cwd=ROOT)


def test_a_refused_serve_leaves_no_data_folder_or_lock(tmp_path):
    import socket

    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = str(busy.getsockname()[1])
        refused = serve_command(tmp_path, "--port", port)
        assert refused.returncode == 2, refused.stderr
        assert "cannot listen on 127.0.0.1 port" in refused.stderr
        assert not (tmp_path / "data").exists()
        (tmp_path / "data").mkdir()  # a data folder of its own: no lock left in it
        refused = serve_command(tmp_path, "--port", port)
        assert refused.returncode == 2 and list((tmp_path / "data").iterdir()) == []
    (tmp_path / "data").rmdir()
    for host in ("192.0.2.1", "not an address"):  # not this machine's, not an address
        refused = serve_command(tmp_path, "--host", host, "--port", "0")
        assert refused.returncode == 2, refused.stderr
        assert f"cannot listen on {host}" in refused.stderr
        assert not (tmp_path / "data").exists()


def test_serve_is_refused_where_bots_cannot_be_sandboxed_unless_no_sandbox(tmp_path):
    import sys

    env = {**os.environ, "PATH": str(Path(sys.executable).parent)}  # no bwrap on it
    refused = serve_command(tmp_path, "--port", "0", env=env)
    assert refused.returncode == 2, refused.stderr
    said = " ".join(refused.stderr.split())
    assert "apt-get install bubblewrap" in said and "--no-sandbox" in said, said
    assert not (tmp_path / "data").exists()


def test_every_page_says_when_bots_run_unconfined(db, tmp_path):
    now = time.time()
    version = db.add_version("bob", "b" * 64, "1.0", status="testing", seen=now,
                             folder="f", entry="bot.py")
    db.set_current("bob", version, now)
    tournament = db.next_tournament_id()
    db.add_tournament(tournament, seed=1, started=now, folder="t", job={}, bots=[])
    db.copy_matches(tournament, [{
        "id": 1, "table_no": 0, "deal_set": 0, "seating_no": 0, "seating": ["bob", "bob"],
        "status": "done", "hands": 3, "bankrolls": [1, -1], "culprit": None, "error": None,
        "log_dir": None, "started": now, "finished": now}])
    for sandbox in (False, True):
        now_ = pages.Now(settings(tmp_path, sandbox=sandbox), None, None, None)
        rendered = {
            "home": pages.home(db, now_),
            "bot": pages.bot(db, "bob", now_, lambda version: None),
            "tournament": pages.tournament(db, db.tournament(tournament), None, now_),
            "match": pages.match(db.match(1), [], now_),
            "not found": pages.not_found("Nothing here.", now_),
        }
        for page, text in rendered.items():
            assert ("Bots run unconfined" in text) is not sandbox, (page, sandbox)
            assert ('class="unconfined"' in text) is not sandbox, (page, sandbox)

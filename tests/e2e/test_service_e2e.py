"""The competition service end to end: the real ``pokerbots serve`` on a free port of
127.0.0.1, a submissions folder made here, real bot processes, and plain HTTP requests.

The first tests share one service: they wait through the JSON API for the smoke tests and the
first tournament, and check what a script and a person get: the API's documents, the pages
(every name, label and error shown as text), the match logs as plain text and nothing else
(no path leads out of the data folder), and SIGTERM ending it with exit 0 (about 6 s). The
others change a bot (its new version quarantined, then admitted), restart the service (the
history kept), and stop it in the middle of a tournament (resumed on the next start).

All are marked slow (CI runs them): the default run is at its two-minute budget, and keeps
the service's parts (test_service.py).
"""

from __future__ import annotations

import html
import os
import shutil
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from processes import processes_mentioning
from service_site import BROKEN, EVIL_LABEL, EVIL_NAME, GOOD, Served, make_submissions

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]

#: Short matches: the point is the service, not the poker.
FAST = ("--hands", "40", "--every", "1h")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One service for the default tests: two good bots, a broken one, three rejected."""
    work = tmp_path_factory.mktemp("service")
    submissions = make_submissions(work / "submissions")
    with Served(submissions, work / "data", *FAST) as service:
        service.settled(["call", "eq", "broken", "nothing", "notexec", EVIL_NAME])
        service.tournament_done(1)
        yield service
        assert service.stop() == 0, service.log()
        assert "Stopped." in service.log()


def test_the_api_says_who_was_admitted_who_was_not_and_why(served):
    bots = served.bots()
    assert sorted(bots) == sorted(["call", "eq", "broken", "nothing", "notexec", EVIL_NAME])
    for name in ("call", "eq"):
        assert bots[name]["status"] == "admitted", bots[name]
        assert bots[name]["admitted_version"] == bots[name]["version"]
        assert bots[name]["reason"] is None
    assert bots["eq"]["version"] == EVIL_LABEL  # a VERSION file names the version
    assert len(bots["call"]["version"]) == 12  # else the digest does
    assert bots["broken"]["status"] == "quarantined"
    assert bots["broken"]["admitted_version"] is None
    assert bots["broken"]["reason"] == "kuhn 2p seat 0 seed 1: expected 'READY'"
    assert bots["nothing"]["status"] == "rejected"
    assert "no entry point" in bots["nothing"]["reason"]
    assert bots["notexec"]["status"] == "rejected"
    assert "not executable" in bots["notexec"]["reason"]
    assert bots[EVIL_NAME]["status"] == "rejected"
    assert "letters, digits" in bots[EVIL_NAME]["reason"]


def test_the_first_tournament_is_among_the_admitted_versions(served):
    (first,) = served.api("/api/tournaments")
    assert first["id"] == 1 and first["status"] == "done"
    assert first["started"] <= first["finished"]
    assert sorted(b["name"] for b in first["bots"]) == ["call", "eq"]
    standings = served.api("/api/standings")
    assert standings["tournament_id"] == 1
    assert (standings["started"], standings["finished"]) == (first["started"],
                                                             first["finished"])
    assert standings["game"] == "kuhn" and standings["hands_per_match"] == 40
    assert standings["matches"]["done"] == 1 and standings["matches"]["planned"] == 1
    lines = standings["bots"]
    assert [line["rank"] for line in lines] == [1, 2]
    assert sum(line["bankroll"] for line in lines) == 0  # zero-sum: a real match was played
    assert served.api("/healthz")["status"] == "ok"


def test_pages_show_every_name_label_and_error_as_text(served):
    home = served.get("/")
    assert home.status == 200 and home.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in home.headers["content-security-policy"]
    page = home.text
    for text in (EVIL_NAME, EVIL_LABEL):
        assert text not in page  # never as markup...
        assert html.escape(text) in page  # ...always as text
    assert '<svg class="chart tournaments"' in page
    for external in ("<script", "<link", "<img", "<iframe", 'src="', "http://", "https://"):
        assert external not in page  # nothing loaded from anywhere, no script
    assert "Bots run in a sandbox" in page or "Bots run without a sandbox" in page
    public = served.get("/bots/broken").text  # the smoke report quotes its stderr: the team's
    assert "about to break the rules" not in public and "quarantined" in public
    broken = served.get("/bots/broken", served.token("broken"))
    assert broken.status == 200
    assert "<script>alert(1)</script>" not in broken.text
    assert "The bot replied: &#x27;&lt;script&gt;alert(1)&lt;/script&gt;&#x27;" in broken.text
    assert "&lt;b&gt;about to break the rules&lt;/b&gt;" in broken.text  # its stderr
    assert "quarantined" in broken.text and "seat0.in" in broken.text
    evil = served.get("/bots/" + "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E")
    assert evil.status == 200 and html.escape(EVIL_NAME) in evil.text
    assert EVIL_NAME not in evil.text
    assert served.get("/bots/nobody").status == 404
    tournament = served.get("/tournaments/1")
    assert tournament.status == 200
    assert "Cross-table" in tournament.text  # the report's content
    assert EVIL_LABEL not in tournament.text


def test_match_logs_are_plain_text_and_nothing_else_is_served(served, tmp_path):
    page = served.get("/tournaments/1").text
    assert '<a href="/matches/1">' in page
    hands = served.get("/matches/1/hands.txt")
    assert hands.status == 200
    assert hands.headers["content-type"] == "text/plain; charset=utf-8"
    assert hands.headers["x-content-type-options"] == "nosniff"
    assert "Hand 0" in hands.text or "hand 0" in hands.text.lower()
    assert served.get("/matches/1/seat0.in").status == 404  # a seat's own, not the public's
    organiser = served.token("boss", organiser=True)
    transcript = served.get("/matches/1/seat0.in", organiser)
    assert transcript.status == 200 and transcript.text.startswith("init_round")
    assert served.get("/matches/1/summary.json").json()["hands_played"] == 40
    broken = served.bots()["broken"]
    assert broken["status"] == "quarantined"
    data = served.output.with_name("data")
    version_id = sqlite3.connect(data / "service.sqlite").execute(
        "SELECT id FROM versions WHERE name = 'broken'").fetchone()[0]
    assert served.get(f"/versions/{version_id}/seat0.in").status == 404
    assert served.get(f"/versions/{version_id}/seat0.in",
                      organiser).text.startswith("init_round")
    outside = tmp_path / "secret.txt"
    outside.write_text("secret\n")
    match_dir = next((data / "tournaments" / "000001" / "matches").iterdir())
    (match_dir / "seat7.in").symlink_to(outside)  # a link out of the data folder
    for path in ("/matches/1/../../service.sqlite", "/matches/1/..%2F..%2Fservice.sqlite",
                 "/matches/1/%2e%2e%2f%2e%2e%2fservice.sqlite", "/matches/1/..",
                 "/matches/1/results.sqlite", "/matches/1/seat7.in", "/matches/2/hands.txt",
                 "/matches/1/%2Fetc%2Fpasswd", "/matches/1//etc/passwd",
                 f"/versions/{version_id}/..%2F..%2Fservice.sqlite", "/service.sqlite",
                 "/tournaments/1/results.sqlite", "/matches/1/hands.txt%00.png",
                 "/matches/99999999999999999999", "/tournaments/9223372036854775808",
                 "/matches/99999999999999999999/hands.txt", "/versions/1%00/seat0.in",
                 "/versions/18446744073709551616/seat0.in", "/tournaments/-1"):
        response = served.get(path, organiser)  # who may read every log file
        assert response.status == 404, (path, response.status)
        assert b"secret" not in response.body and b"SQLite" not in response.body
    assert "Traceback" not in served.log()


# -- new versions, restarts, an interrupted tournament ------------------------------------


def wait_for_version(service: Served, name: str, status: str, other_than: str) -> dict:
    def check():
        bot = service.bots()[name]
        return bot if bot["version"] != other_than and bot["status"] == status else None
    return service.wait(f"{name}'s new version {status}", check)


def test_a_changed_bot_is_quarantined_then_admitted_and_a_restart_keeps_the_history(
        tmp_path):
    submissions = make_submissions(tmp_path / "submissions", good=("call", "eq", "random"))
    data = tmp_path / "data"
    with Served(submissions, data, *FAST) as service:
        first = service.settled(["call", "eq", "random", "broken"])
        service.tournament_done(1)
        old = first["call"]["version"]
        # A broken change: quarantined; the admitted version keeps playing.
        (submissions / "call" / "bot.py").write_text(BROKEN)
        broken = wait_for_version(service, "call", "quarantined", other_than=old)
        assert broken["admitted_version"] == old
        # A good change (a new file is a new version too): admitted.
        shutil.copy(GOOD["call"], submissions / "call" / "bot.py")
        (submissions / "call" / "NOTES").write_text("now with notes\n")
        fixed = wait_for_version(service, "call", "admitted", other_than=old)
        assert fixed["version"] not in (old, broken["version"])
        assert fixed["admitted_version"] == fixed["version"]
        page = service.get("/bots/call", service.token("call")).text
        for label in (old, broken["version"], fixed["version"]):
            assert label in page
        assert page.count("quarantined") >= 1 and "Reproduce: pokerbots run" in page
        assert service.stop(signal.SIGINT) == 0  # Ctrl-C
    rows = sqlite3.connect(data / "service.sqlite").execute(
        "SELECT id, status FROM tournaments").fetchall()
    assert rows == [(1, "done")]

    with Served(submissions, data, *FAST) as again:
        tournaments = again.tournament_done(2)  # one at start-up, the first one kept
        assert [t["id"] for t in tournaments] == [2, 1]
        second = next(t for t in tournaments if t["id"] == 2)
        assert {"name": "call", "version": fixed["version"]} in second["bots"]
        assert again.bots()["call"]["version"] == fixed["version"]  # no new test needed
        assert "passed its smoke test" not in again.log().split("The site:")[-1]
        first_page = again.get("/tournaments/1")
        assert first_page.status == 200 and "Cross-table" in first_page.text
        assert again.get("/matches/1/hands.txt").status == 200
        assert again.stop() == 0


def test_a_tournament_stopped_by_sigterm_resumes_when_the_service_starts_again(tmp_path):
    """Stopped with the service, it resumes at the next start; its process stopped alone
    (the service running), it resumes RETRY seconds later; resumed, it outlives the threads
    that started it (bursts of requests, idle periods longer than 10 s) and ends."""
    submissions = lasting_submissions(tmp_path / "submissions")
    data = tmp_path / "data"
    with Served(submissions, data, *LONG) as service:
        service.settled(list(THINKING))
        service.wait("tournament 1 playing its second match", lambda: any(
            m[0] == "done" for m in _matches(data)))
        started = time.monotonic()
        assert service.stop(signal.SIGTERM) == 0
        stopping = time.monotonic() - started
        log = service.log()
    assert "tournament 1: stopped" in log, log
    assert _tournament(data, 1) == "interrupted"
    played = [m for m in _matches(data) if m[0] == "done"]
    assert played and len(played) < 3
    assert not processes_mentioning(str(data / "bots")), "every bot ended"
    restarted = time.time()
    with Served(submissions, data, *LONG) as again:
        (worker,) = again.wait("the tournament's process", lambda: processes_mentioning(
            "pokerbots.server.service.jobs.tournaments"))
        again.wait("a match of tournament 1 under way again",
                   lambda: _started_since(data, restarted))
        os.kill(worker, signal.SIGTERM)  # stopped by something else than the service
        again.wait("tournament 1 stopped", lambda: "its process was stopped" in again.log())
        assert _status(again, 1) == "interrupted"
        busy_until(again, lambda: _status(again, 1) == "done")
        log = again.log().split("The site:")[-1]  # this run's
        assert log.count("tournament 1: resuming") == 2, log
        assert "stopped; it resumes when the service starts" not in log, log
        standings = again.api("/api/standings")
        assert standings["tournament_id"] == 1 and standings["matches"]["done"] == 3
        assert again.stop() == 0
    print(f"stopping mid-tournament took {stopping:.1f} s")


def _matches(data: Path) -> list[tuple]:
    path = data / "tournaments" / "000001" / "results.sqlite"
    if not path.exists():
        return []
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT status, id FROM matches").fetchall()
    except sqlite3.Error:
        return []
    finally:
        db.close()


def _started_since(data: Path, since: float) -> bool:
    """Whether a match of tournament 1 is running, started at ``since`` (time.time()) or
    later."""
    path = data / "tournaments" / "000001" / "results.sqlite"
    if not path.exists():
        return False
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT 1 FROM matches WHERE status = 'running' AND started >= ?",
                          (since,)).fetchone() is not None
    except sqlite3.Error:
        return False
    finally:
        db.close()


def _tournament(data: Path, number: int) -> str:
    db = sqlite3.connect(data / "service.sqlite")
    try:
        return db.execute("SELECT status FROM tournaments WHERE id = ?", (number,)).fetchone()[0]
    finally:
        db.close()


# -- worker processes outlive the threads that started them ------------------------------

#: Bots that take their time (tests/programs/thinking_bot.py: 20 ms asleep at each decision),
#: so that a tournament lasts without using the CPU: about 13 s a match of 250 Kuhn hands,
#: three matches a tournament of about 40 s on one job, several of ``busy_until``'s quiet
#: periods, however loaded the machine. (Three bots playing 50,000 hands a match took as long
#: on a quiet machine, and kept both CPUs busy all along.)
THINKING = ("think1", "think2", "think3")
LONG = ("--hands", "250", "--jobs", "1", "--every", "1h")


def lasting_submissions(folder: Path) -> Path:
    """A submissions folder (make_submissions': the broken bot, those rejected) whose good
    bots are the THINKING ones."""
    submissions = make_submissions(folder, good=())
    for name in THINKING:
        (submissions / name).mkdir()
        shutil.copy(ROOT / "tests" / "programs" / "thinking_bot.py", submissions / name / "bot.py")
    return submissions
#: Concurrent requests in a burst: anyio's thread limit, so that the site starts many worker
#: threads at once, which trio retires after 10 idle seconds.
BURST = 40


def burst(service: Served) -> None:
    """``BURST`` requests at once (pages and the API)."""
    from concurrent.futures import ThreadPoolExecutor

    paths = ["/", "/api/bots", "/api/tournaments", "/healthz", f"/bots/{THINKING[0]}"]
    with ThreadPoolExecutor(BURST) as pool:
        answers = list(pool.map(lambda n: service.get(paths[n % len(paths)]).status,
                                range(BURST)))
    assert set(answers) <= {200}, answers


def busy_until(service: Served, done, *, idle: float = 12.0, timeout: float = 400.0) -> int:
    """Bursts of requests separated by ``idle`` seconds of quiet (longer than trio's 10 s
    before an idle thread exits) until ``done()`` returns something true; how many whole
    quiet periods passed before it did."""
    bursts: list[float] = []  # when each burst ended

    def done_or_burst() -> bool:
        if bursts and done():
            return True
        if not bursts or time.monotonic() >= bursts[-1] + idle:
            burst(service)
            bursts.append(time.monotonic())
        return False

    service.wait("done between bursts of requests", done_or_burst, timeout)
    return len(bursts) - 1


def _status(service: Served, number: int) -> str | None:
    for row in service.api("/api/tournaments"):
        if row["id"] == number:
            return row["status"]
    return None


def test_a_long_tournament_and_a_test_under_load_end_despite_idle_threads(tmp_path):
    """The stall seen in real runs: a worker asked the kernel for a signal when its parent
    *thread* exits (PR_SET_PDEATHSIG), and trio retires an idle thread after 10 s, so a
    tournament started from a thread that a burst of requests left idle stopped by itself."""
    submissions = lasting_submissions(tmp_path / "submissions")
    data = tmp_path / "data"
    with Served(submissions, data, *LONG) as service:
        service.settled([*THINKING, "broken"])
        service.wait("tournament 1 running", lambda: _status(service, 1) == "running")
        late = submissions / "late"
        late.mkdir()
        shutil.copy(GOOD["call"], late / "bot.py")  # tested while the tournament plays

        def finished():
            status = _status(service, 1)
            assert status in ("running", "done"), (status, service.log())
            return status == "done"

        quiet_periods = busy_until(service, finished)
        log = service.log()
        assert "stopped" not in log and "without a verdict" not in log, log
        # The case under test needs the threads of a burst to retire while the tournament
        # plays: at least two quiet periods longer than trio's 10 s, whatever the speed.
        assert quiet_periods >= 2, "the tournament ended too soon to test it; lengthen LONG"
        late_bot = service.wait("the late bot's verdict", lambda: service.bots()["late"]
                                if service.bots().get("late", {}).get("status")
                                not in (None, "testing") else None)
        assert late_bot["status"] == "admitted", (late_bot, service.log())
        assert service.stop() == 0

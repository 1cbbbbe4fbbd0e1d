"""The site under a crowd: pages kept until the store changes, each viewer's its own; log files
served as they were when opened; eval7 loaded before the site answers.

What a visitor would notice if keeping pages went wrong: a page that is not the page (other
bytes than one made afresh), a change that does not show (a finished tournament, an admitted
version, a revoked token still opening its team's page), a team's page shown to another team
or to the public. The fast tests play these on the site's application in this process, with
the store written by another connection (as the scheduler writes it) and, for the store's
generation, by another process (as ``pokerbots team`` does), and the ranking of Hold'em hands
from many threads in fresh interpreters. The slow ones play them on a real ``pokerbots serve``
on 127.0.0.1, tokens made and revoked with the real ``pokerbots team``, requests from many
threads at once; a log file appended to while it is fetched; and the service restarted again
and again with Hold'em replays sent the moment it answers. How fast the kept pages are is
measured by ``benchmarks/service_pages.py``, not here.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import pytest
import trio
import trio.testing

from pokerbots.server.service.data import store
from pokerbots.server.service.data.teams import add_team, revoke_team
from pokerbots.server.service.jobs.scheduler import Settings
from pokerbots.server.service.site import pages
from pokerbots.server.service.site.app import create_app
from pokerbots.server.service.site.cache import Generation, Kept

from processes import pokerbots
from service_site import BOTS, ROOT, Served, make_submissions

# -- ranking from many threads -----------------------------------------------------------

#: Eight threads rank the same 400 hands at once, the first time eval7 is needed in a fresh
#: interpreter; prints the errors and the ranks that differ from one thread's.
RANK_RACE = """
import json, random, sys, threading
from pokerbots.server.games import holdem
deck = list(holdem.DECK)
rng = random.Random(int(sys.argv[1]))
cases = [tuple(rng.sample(deck, 7)) for _ in range(400)]
barrier = threading.Barrier(8)
seen, errors = {}, []
def work(k):
    barrier.wait()
    try:
        for _ in range(20):
            for i, cards in enumerate(cases):
                seen.setdefault(i, set()).add(holdem.rank(cards[:2], cards[2:]))
    except Exception as exc:
        errors.append(repr(exc))
sys.setswitchinterval(1e-6)
threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
for t in threads: t.start()
for t in threads: t.join()
wrong = [i for i, cards in enumerate(cases) if seen.get(i) != {holdem.rank(cards[:2], cards[2:])}]
print(json.dumps({"errors": errors, "wrong": wrong}))
"""


def test_hands_ranked_from_many_threads_at_the_first_showdown_are_ranked_right():
    runs = [subprocess.Popen([sys.executable, "-c", RANK_RACE, str(seed)], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for seed in range(4)]
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        found = json.loads(out)
        assert found == {"errors": [], "wrong": []}, found


# -- the store's generation and what is kept ---------------------------------------------


def test_the_generation_moves_when_another_connection_or_process_commits(tmp_path):
    data = tmp_path / "data"
    writer = store.open_store(data)
    generation = Generation(data / store.FILE)
    try:
        first = generation()
        assert generation() == first  # nothing committed: the same
        writer.set_meta("note", 1)  # this process, another connection (the scheduler's)
        second = generation()
        assert second > first and generation() == second
        made = pokerbots("team", "add", "zed", "--data", str(data))  # another process
        assert made.returncode == 0, made.stderr
        assert generation() > second
    finally:
        writer.close()
        generation.close()


def test_a_value_is_made_once_for_all_who_ask_at_once_and_again_in_a_new_generation():
    made = []
    release = threading.Event()

    def make(value, keep=True):
        def run():
            release.wait(60)
            made.append(value)
            return value, keep
        return run

    async def main():
        kept = Kept(entries=2)
        found = []

        async def ask(key, generation, value, keep=True):
            found.append(await kept.get(key, generation, make(value, keep)))

        async with trio.open_nursery() as nursery:
            for _ in range(10):
                nursery.start_soon(ask, "a", 1, "a1")
            await trio.testing.wait_all_tasks_blocked()  # all asking, one making
            release.set()
        assert found == ["a1"] * 10 and made == ["a1"]
        await ask("a", 1, "other")  # kept
        await ask("a", 2, "a2")  # the store changed: made again
        assert found[-2:] == ["a1", "a2"] and made == ["a1", "a2"]
        # a value that may change while the store does not is made for every request
        async with trio.open_nursery() as nursery:
            for number in range(4):
                nursery.start_soon(ask, "growing", 2, f"g{number}", False)
        assert sorted(found[-4:]) == ["g0", "g1", "g2", "g3"]
        assert len(made) == 6
        # at most two keys: the least recently used goes
        await ask("b", 2, "b2")
        await ask("c", 2, "c2")
        await ask("a", 2, "a2 again")
        assert found[-1] == "a2 again"

    trio.run(main)


# -- the site's pages, in this process ---------------------------------------------------


def asgi(app, path: str, token: str | None = None, cookie: str | None = None
         ) -> tuple[int, list, bytes]:
    """GET ``path`` from the ASGI ``app`` (a trio run of its own): status, headers, body."""
    return trio.run(asgi_async, app, path, token, cookie)


async def asgi_async(app, path: str, token: str | None = None, cookie: str | None = None
                     ) -> tuple[int, list, bytes]:
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    headers = [(b"host", b"127.0.0.1")]
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    if cookie:
        headers.append((b"cookie", f"pokerbots_token={cookie}".encode()))
    route, _, query = path.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": route, "raw_path": route.encode(),
             "root_path": "", "query_string": query.encode(), "headers": headers,
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    return (start["status"], start["headers"],
            b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body"))


def little_competition(data: Path) -> dict[str, str]:
    """A store with two admitted bots and a finished tournament; the tokens of teams alice
    and bob and of the organiser boss."""
    db = store.open_store(data)
    try:
        now = time.time()
        for name in ("alice", "bob"):
            version = db.add_version(name, name.encode().hex().ljust(64, "0"), "1.0",
                                     status="testing", seen=now, folder="f", entry="bot.py")
            db.set_current(name, version, now)
            db.set_verdict(version, passed=True, tested=now, cases=1)
        db.add_tournament(1, seed=7, started=now, folder="t/1", job={},
                          bots=[{"name": "alice", "version": "1.0", "version_id": 1},
                                {"name": "bob", "version": "1.0", "version_id": 2}])
        db.set_tournament(1, "done", finished=now, standings={"bots": [
            {"name": "alice", "rank": 1, "per_hand": 0.5, "ci95": None, "faults": 0,
             "matches": 1, "hands": 10, "bankroll": 5},
            {"name": "bob", "rank": 2, "per_hand": -0.5, "ci95": None, "faults": 0,
             "matches": 1, "hands": 10, "bankroll": -5}]})
        return {name: add_team(db, name, organiser=name == "boss")
                for name in ("alice", "bob", "boss")}
    finally:
        db.close()


PATHS = ("/", "/bots/alice", "/bots/nobody", "/tournaments/1", "/tournaments/99",
         "/teams/alice", "/teams/bob", "/api/bots", "/api/tournaments", "/api/standings",
         "/api/ladder")


def test_each_viewer_gets_its_own_page_as_made_afresh_and_every_change_at_once(tmp_path):
    data = tmp_path / "data"
    tokens = little_competition(data)
    options = {"game": "kuhn", "game_texts": {}, "hands": 100, "duplicate": False,
               "sandbox": True}
    settings = Settings(tmp_path / "submissions", data, 3600.0, 2, options, {})

    def now():
        return pages.Now(settings, None, None, 1e9)

    app = create_app(data, now)
    viewers = {"public": None, **tokens}
    first = {(v, p): asgi(app, p, t) for v, t in viewers.items() for p in PATHS}
    # kept: the same page again, and the same as a site that keeps nothing yet makes it
    fresh = create_app(data, now)
    for (viewer, path), page in first.items():
        assert asgi(app, path, viewers[viewer]) == page, (viewer, path)
        assert asgi(fresh, path, viewers[viewer]) == page, (viewer, path)
    # each viewer its own: the frame names the team, and the team pages differ
    for viewer in tokens:
        assert f"{viewer})" in first[viewer, "/"][2].decode() or \
            f"Team {viewer}<" in first[viewer, "/"][2].decode()
    assert len({first[v, "/"][2] for v in viewers}) == 4
    assert first["public", "/teams/alice"][0] == 401
    assert first["bob", "/teams/alice"][0] == 403
    assert first["alice", "/teams/alice"][0] == first["boss", "/teams/alice"][0] == 200
    # many at once, in any order, each made or kept while the others are: each gets its own
    asks = [(v, p) for v in viewers for p in PATHS] * 3
    random.Random(1).shuffle(asks)

    async def crowd():
        found = {}

        async def one(number, viewer, path):
            found[number] = await asgi_async(app, path, viewers[viewer])

        async with trio.open_nursery() as nursery:
            for number, (viewer, path) in enumerate(asks):
                nursery.start_soon(one, number, viewer, path)
        return found

    db = store.open_store(data)  # another connection, as the scheduler's
    try:
        db.set_meta("anything", 1)  # the store changed: every page is made again, at once
        for number, page in trio.run(crowd).items():
            assert page == first[asks[number]], asks[number]
        # a version quarantined shows at once, to everyone
        now_ = time.time()
        version = db.add_version("bob", "b" * 64, "2.0", status="testing", seen=now_,
                                 folder="f2", entry="bot.py")
        db.set_current("bob", version, now_)
        db.set_verdict(version, passed=False, tested=now_, cases=1, reason="it broke a rule")
        for token in viewers.values():
            bots = json.loads(asgi(app, "/api/bots", token)[2])
            assert {b["name"]: (b["status"], b["version"]) for b in bots}["bob"] == \
                ("quarantined", "2.0")
            assert "it broke a rule" in asgi(app, "/bots/bob", token)[2].decode()
        # a revoked token opens nothing at once: alice is the public again
        revoke_team(db, "alice")
    finally:
        db.close()
    assert asgi(app, "/teams/alice", tokens["alice"])[0] == 401
    assert asgi(app, "/", tokens["alice"]) == asgi(app, "/")
    assert asgi(app, "/", cookie=tokens["bob"]) == asgi(app, "/", tokens["bob"])
    assert asgi(app, "/", tokens["bob"]) != asgi(app, "/")


# -- a real service ----------------------------------------------------------------------


def fetch(port: int, path: str, token: str | None = None, cookie: str | None = None
          ) -> tuple[int, dict[str, str], bytes]:
    """GET ``path``: status, headers (lower-case names), the body read to its length."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        headers = {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if cookie:
            headers["Cookie"] = f"pokerbots_token={cookie}"
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        return (answer.status, {k.lower(): v for k, v in answer.getheaders()},
                answer.read())
    finally:
        connection.close()


def page_of(port: int, path: str, token: str | None = None) -> tuple:
    """What a visitor sees of a page: status, type, length and the bytes."""
    status, headers, body = fetch(port, path, token)
    return (status, headers.get("content-type"), headers.get("content-length"),
            headers.get("content-security-policy"), body)


class Site:
    """The module's service, its data folder and the tokens of its teams."""

    def __init__(self, served: Served, data: Path, submissions: Path) -> None:
        self.served = served
        self.data = data
        self.submissions = submissions
        self.tokens: dict[str | None, str | None] = {"public": None}
        self.changes = 0

    @property
    def port(self) -> int:
        return self.served.port

    def change_the_store(self) -> None:
        """A change another process commits that no page shows: a new team."""
        self.changes += 1
        self.served.token(f"zz{self.changes}")

    def store(self) -> sqlite3.Connection:
        return sqlite3.connect(f"{(self.data / store.FILE).as_uri()}?mode=ro", uri=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    work = tmp_path_factory.mktemp("crowd")
    submissions = make_submissions(work / "submissions")
    with Served(submissions, work / "data", "--hands", "40", "--every", "1h") as served:
        served.settled(["call", "eq", "broken"])
        served.tournament_done(1)
        found = Site(served, work / "data", submissions)
        for team in ("call", "eq", "broken", "nothing"):
            found.tokens[team] = served.token(team)
        found.tokens["boss"] = served.token("boss", organiser=True)
        yield found
        assert served.stop() == 0, served.log()


def site_paths(site: Site) -> list[str]:
    with site.store() as db:
        match, log_dir = db.execute("SELECT id, log_dir FROM matches WHERE status = 'done'"
                                    " AND log_dir IS NOT NULL ORDER BY id").fetchone()
        version = db.execute("SELECT id FROM versions WHERE name = 'broken'").fetchone()[0]
    return ["/", "/bots/call", "/bots/broken", "/bots/nobody", "/tournaments/1",
            f"/matches/{match}", f"/matches/{match}/hands", f"/matches/{match}/hands?page=2",
            f"/matches/{match}/hands/0", f"/matches/{match}/hands/99999", "/matches/99999",
            "/teams/call", "/teams/broken", "/api/standings", "/api/bots",
            "/api/tournaments", "/api/ladder", f"/versions/{version}/hands.txt"]


@pytest.mark.slow
def test_a_kept_page_is_the_page_made_afresh_for_every_viewer(site):
    paths = site_paths(site)
    viewers = ("public", "call", "broken", "boss")
    site.change_the_store()  # nothing kept from before: the first answers are made
    made = {(v, p): page_of(site.port, p, site.tokens[v]) for v in viewers for p in paths}
    again = {(v, p): page_of(site.port, p, site.tokens[v]) for v in viewers for p in paths}
    for key, page in made.items():
        assert again[key] == page, key
        assert page[3] and "default-src 'none'" in page[3], key
        assert page[2] == str(len(page[4])), key
    # what each viewer may see differs, and each got its own
    assert made["public", "/teams/call"][0] == 401
    assert made["broken", "/teams/call"][0] == 403
    assert made["call", "/teams/call"][0] == made["boss", "/teams/call"][0] == 200
    assert len({made[v, "/bots/broken"][4] for v in viewers}) == len(viewers)
    assert b"Team broken" in made["broken", "/"][4] and b"Team " not in made["public", "/"][4]


@pytest.mark.slow
def test_a_team_never_gets_another_teams_page_nor_the_public_a_teams(site):
    paths = site_paths(site)
    viewers = ("public", "call", "eq", "broken", "boss")
    reference = {(v, p): page_of(site.port, p, site.tokens[v]) for v in viewers for p in paths}
    asks = [(v, p) for v in viewers for p in paths] * 4
    random.Random(2).shuffle(asks)
    changed = threading.Event()

    def ask(number: int, viewer: str, path: str):
        if number == len(asks) // 2:
            site.change_the_store()  # everything is made again meanwhile
            changed.set()
        if viewer == "eq" and number % 2:  # a browser: the login cookie
            status, headers, body = fetch(site.port, path, cookie=site.tokens[viewer])
            return (status, headers.get("content-type"), headers.get("content-length"),
                    headers.get("content-security-policy"), body)
        return page_of(site.port, path, site.tokens[viewer])

    with ThreadPoolExecutor(16) as pool:
        found = list(pool.map(lambda a: ask(a[0], *a[1]), enumerate(asks)))
    assert changed.is_set()
    for (viewer, path), page in zip(asks, found):
        assert page == reference[viewer, path], (viewer, path)


@pytest.mark.slow
def test_a_revoked_token_opens_nothing_at_once(site):
    token = site.tokens["nothing"]
    for _ in range(2):  # made, then kept
        assert fetch(site.port, "/teams/nothing", token)[0] == 200
        assert b"Team nothing" in fetch(site.port, "/", token)[2]
    revoked = pokerbots("team", "revoke", "nothing", "--data", str(site.data))
    assert revoked.returncode == 0, revoked.stderr
    assert fetch(site.port, "/teams/nothing", token)[0] == 401
    assert page_of(site.port, "/", token) == page_of(site.port, "/")
    assert b"token was revoked" in fetch(site.port, "/bots/nothing")[2]


class Hammer:
    """Threads that ask for ``paths`` again and again (so that the pages are kept as they
    are) until stopped."""

    def __init__(self, site: Site, paths: list[str]) -> None:
        self.stop = threading.Event()
        self.asked = 0
        self.threads = [threading.Thread(target=self.run, args=(site, paths)) for _ in range(4)]
        for thread in self.threads:
            thread.start()

    def run(self, site: Site, paths: list[str]) -> None:
        while not self.stop.is_set():
            for path in paths:
                fetch(site.port, path)
                self.asked += 1

    def __enter__(self) -> Hammer:
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join()


@pytest.mark.slow
def test_an_admitted_version_shows_at_once(site):
    (site.submissions / "late").mkdir()
    (site.submissions / "late" / "bot.py").write_text((BOTS / "call_bot.py").read_text())
    with Hammer(site, ["/", "/api/bots", "/bots/late"]):
        def admitted():
            with site.store() as db:
                return db.execute("SELECT 1 FROM versions WHERE name = 'late' AND"
                                  " status = 'admitted'").fetchone()
        site.served.wait("late admitted in the store", admitted)
        # the store says so: every page says so
        bots = {b["name"]: b for b in json.loads(fetch(site.port, "/api/bots")[2])}
        assert bots["late"]["status"] == "admitted"
        assert '<b class="status-admitted">admitted</b>' in \
            fetch(site.port, "/bots/late")[2].decode()


@pytest.mark.slow
def test_a_finished_tournament_shows_at_once(site):
    site.served.stop()
    site.served.start()  # a tournament at start-up: number 2
    with Hammer(site, ["/", "/api/tournaments", "/api/standings", "/tournaments/2"]) as hammer:
        def finished():
            with site.store() as db:
                return db.execute("SELECT finished FROM tournaments WHERE id = 2 AND"
                                  " status = 'done'").fetchone()
        site.served.wait("tournament 2 done in the store", finished)
        tournaments = json.loads(fetch(site.port, "/api/tournaments")[2])
        assert {t["id"]: t["status"] for t in tournaments}[2] == "done"
        assert json.loads(fetch(site.port, "/api/standings")[2])["tournament_id"] == 2
        assert "Status: <b>done</b>" in fetch(site.port, "/tournaments/2")[2].decode()
        assert re.search(r"Last tournament: <a href=\"/tournaments/2\">#?2</a>[^.]*done",
                         fetch(site.port, "/")[2].decode())
        assert hammer.asked > 0


@pytest.mark.slow
def test_a_log_file_appended_to_while_it_is_fetched_is_served_as_it_was_opened(site):
    with site.store() as db:
        match, log_dir = db.execute("SELECT id, log_dir FROM matches WHERE log_dir IS NOT"
                                    " NULL ORDER BY id DESC").fetchone()
    folder = site.data / log_dir
    lines = {name: (folder / name).read_bytes().splitlines(keepends=True)
             for name in ("hands.txt", "hands.jsonl")}
    while (folder / "hands.txt").stat().st_size < 1 << 20:  # sent in many pieces
        for name, added in lines.items():
            with open(folder / name, "ab") as out:
                out.writelines(added * 20)
    done = threading.Event()

    def append() -> None:  # a few lines at a time, as a match writes them
        while not done.wait(0.001):
            for name, added in lines.items():
                with open(folder / name, "ab") as out:
                    out.writelines(added[:3])

    writer = threading.Thread(target=append)
    writer.start()
    try:
        found = []
        for number in range(24):
            name = ("hands.txt", "hands.jsonl")[number % 2]
            token = site.tokens["call" if number >= 20 else "boss"]  # whole, or as a seat sees
            found.append((name, token, *fetch(site.port, f"/matches/{match}/{name}", token)))
    finally:
        done.set()
        writer.join()
    for name, token, status, headers, body in found:
        assert status == 200
        assert int(headers["content-length"]) == len(body) > 1 << 19
        if token == site.tokens["boss"]:  # the file as it was: the start of what it is now
            assert (folder / name).read_bytes().startswith(body), name


# -- eval7 loaded before the site answers ------------------------------------------------


def replay(port: int, at_once: threading.Barrier, path: str) -> int:
    """The status of a replay's page, asked for when all the others are."""
    at_once.wait()
    return fetch(port, path)[0]


@pytest.mark.slow
def test_hold_em_replays_right_after_a_start_never_fail(tmp_path):
    submissions = tmp_path / "submissions"
    for name, bot in (("caller", "call_bot.py"), ("caller2", "call_bot.py")):
        (submissions / name).mkdir(parents=True)
        (submissions / name / "bot.py").write_text((BOTS / bot).read_text())
    served = Served(submissions, tmp_path / "data", "--game", "holdem-nl", "--hands", "60",
                    "--every", "1h")
    with served:
        served.tournament_done(1)
        db = sqlite3.connect(tmp_path / "data" / store.FILE)
        matches = [row for row in db.execute("SELECT id, log_dir FROM matches WHERE"
                                             " tournament_id = 1 AND status = 'done'")]
        db.close()
        replays = []
        for match, log_dir in matches:  # two callers: every hand is ranked at a showdown
            for number, line in enumerate((tmp_path / "data" / log_dir / "hands.jsonl")
                                          .read_text().splitlines()):
                if any(shown != "-" for shown in json.loads(line)["showdown"]):
                    replays.append(f"/matches/{match}/hands/{number}")
        assert len(replays) >= 32, replays
        for restart in range(12):
            served.stop()
            served.start()
            at_once = threading.Barrier(32)
            with ThreadPoolExecutor(32) as pool:
                statuses = list(pool.map(partial(replay, served.port, at_once),
                                         random.Random(restart).sample(replays, 32)))
            assert statuses == [200] * 32, (restart, statuses, served.log()[-3000:])

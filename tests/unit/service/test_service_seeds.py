"""No seed before its time: the hidden cards of a real competition cannot be recomputed from
anything a visitor or a team may fetch, while a tournament plays and after; its commitment is
public from the start; the organiser sees the seeds throughout; ``pokerbots reveal`` publishes
a finished tournament's seed and salt, which check out against the commitment and let anyone
recompute every card.

``pokerbots serve`` plays Hold'em among three real bots on 127.0.0.1. One of them (``gate``)
stops at hand 40 of a tournament's match (the smoke test plays 30) until the test opens its
gate: the tournament is then certainly under way, and stays so while the test looks. The
attack is ``tests/programs/attacks/recompute_cards.py``, run as a process of its own against
the site:
it reads every page, API document and match file the viewer may read and tries every number
in them as a match seed and as a tournament seed with the project's dealing code. Its
predictions are checked against the organiser's logs in the data folder.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import shutil
import sqlite3
import subprocess
import sys

import pytest

from pokerbots.server.logs.folder import MatchFolder

from processes import pokerbots
from service_site import BOTS, ROOT, Served

pytestmark = pytest.mark.slow

ATTACK = ROOT / "tests" / "programs" / "attacks" / "recompute_cards.py"
#: The hand of a tournament's match at which the gate bot waits (the smoke test plays 30).
GATE_HAND = 40
#: A bot that calls or folds at random, and at hand GATE_HAND waits for the file GATE
#: (telling WAITING that it does).
GATE_BOT = """import os, random, sys, time
from pokerbots.protocol.client import Bot, run

class Gate(Bot):
    def on_hand_start(self, hand, cards, button):
        if hand == {hand}:
            open({waiting!r}, "a").close()
            while not os.path.exists({gate!r}):
                time.sleep(0.05)

    def decide(self, state):
        if state.fold() is not None and random.random() < 0.3:
            return state.fold()
        return state.check_or_call()

run(Gate())
"""
OPTIONS = ("--game", "holdem-nl", "--hands", "60", "--no-sandbox", "--every", "1h",
           "--reply-timeout", "120", "--time-bank", "300")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    work = tmp_path_factory.mktemp("seeds")
    submissions = work / "submissions"
    for name, source in (("random", BOTS / "random_bot.py"), ("call", BOTS / "call_bot.py")):
        (submissions / name).mkdir(parents=True)
        shutil.copy(source, submissions / name / "bot.py")
    (submissions / "gate").mkdir()
    (submissions / "gate" / "bot.py").write_text(GATE_BOT.format(
        hand=GATE_HAND, waiting=str(work / "waiting"), gate=str(work / "gate")))
    with Served(submissions, work / "data", *OPTIONS) as served:
        served.work = work
        served.data = work / "data"
        served.settled(["random", "call", "gate"])
        yield served
        (work / "gate").touch()  # never leave the gate bot waiting
        assert served.stop() == 0, served.log()


def attack(site: Served, token: str | None = None, team: str | None = None) -> dict:
    """The attack's findings as a viewer (a team with ``token``), with ``right``: how many of
    its predicted hidden cards are the cards dealt, and ``truth``: the cards it had to find."""
    argv = [sys.executable, str(ATTACK), site.url]
    if token:
        argv += ["--token", token, "--team", team]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    truth = {}
    db = sqlite3.connect(site.data / "service.sqlite")
    for match_id, log_dir in db.execute("SELECT id, log_dir FROM matches"
                                        " WHERE log_dir IS NOT NULL"):
        for record in MatchFolder(site.data / log_dir).hands():
            for seat, cards in enumerate(record["cards"]):
                truth[f"{match_id}:{record['hand']}:{seat}"] = cards
    db.close()
    found["right"] = sum(truth.get(key) == cards for key, cards in found["predicted"].items())
    return found


def secrets_of(site: Served, tournament_id: int) -> tuple[int, str, str, list[int]]:
    """The tournament's seed, salt and commitment, and its match seeds, from the organiser's
    data folder."""
    db = sqlite3.connect(site.data / "service.sqlite")
    seed, salt, commitment, folder = db.execute(
        "SELECT seed, salt, commitment, folder FROM tournaments WHERE id = ?",
        (tournament_id,)).fetchone()
    db.close()
    results = sqlite3.connect(site.data / folder / "results.sqlite")
    match_seeds = [int(s) for (s,) in results.execute("SELECT seed FROM matches")]
    results.close()
    return int(seed), salt, commitment, match_seeds


def page_fields(text: str) -> dict[str, str]:
    """The seed paragraph's values on a tournament's page (``commitment``, ``seed``...)."""
    return dict(re.findall(r'<code class="(commitment|seed|salt|check)">([^<]*)</code>', text))


def test_no_seed_reaches_a_visitor_or_a_team_until_the_organiser_reveals_it(site):
    team = site.token("random")
    organiser = site.token("boss", organiser=True)
    site.wait("the gate bot waiting in tournament 1", (site.work / "waiting").exists)
    site.wait("a match of tournament 1 under way on its page", lambda: re.search(
        r'href="/matches/\d+/hands.txt"', site.get("/tournaments/1").text))
    seed, salt, commitment, match_seeds = secrets_of(site, 1)
    assert seed.bit_length() > 64 and all(s.bit_length() > 64 for s in match_seeds)
    assert commitment == hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()

    # While it plays: the commitment for everyone, the seed for the organiser alone.
    assert site.api("/api/tournaments")[0]["status"] == "running"
    for token in (None, team):
        shown = page_fields(site.get("/tournaments/1", token).text)
        assert shown == {"commitment": commitment}, shown
        listed = site.get("/api/tournaments", token).json()[0]
        assert listed["commitment"] == commitment and "seed" not in listed
    own = site.get("/tournaments/1", organiser).text
    assert page_fields(own) == {"commitment": commitment, "seed": str(seed), "salt": salt}
    assert site.get("/api/tournaments", organiser).json()[0]["seed"] == str(seed)
    refused = pokerbots("reveal", "1", "--data", site.data)
    assert refused.returncode == 2 and "tournament 1 is running" in refused.stderr
    playing = [attack(site), attack(site, team, "random")]

    (site.work / "gate").touch()
    site.tournament_done(1)
    after = [attack(site), attack(site, team, "random")]
    secret = {str(seed), *map(str, match_seeds)}
    for found in (*playing, *after):
        assert found["hidden"] > 0 and found["hands"] > 0  # there were cards to find
        assert found["right"] == 0 and found["seeds"] == {}, found["seeds"]
        assert not secret.intersection(found["tried"])  # not one seed anywhere in what it read
    assert after[0]["hands"] == 3 * 60  # every hand of the three matches was read

    # The organiser: every seed, all along.
    db = sqlite3.connect(site.data / "service.sqlite")
    match_id, = db.execute("SELECT id FROM matches WHERE tournament_id = 1 LIMIT 1").fetchone()
    db.close()
    assert site.get(f"/matches/{match_id}/summary.json", organiser).json()["seed"] in match_seeds
    assert "seed" not in site.get(f"/matches/{match_id}/summary.json", team).json()
    assert site.get("/api/standings", organiser).json()["seed"] == seed
    assert "seed" not in site.api("/api/standings")

    # The reveal: seed and salt on the page, with a check that gives the commitment.
    revealed = pokerbots("reveal", "1", "--data", site.data)
    assert revealed.returncode == 0, revealed.stderr
    assert f"seed {seed}" in revealed.stdout and f"salt {salt}" in revealed.stdout
    shown = page_fields(site.get("/tournaments/1").text)
    assert (shown["seed"], shown["salt"], shown["commitment"]) == (str(seed), salt, commitment)
    assert hashlib.sha256(f"{shown['salt']}:{shown['seed']}".encode()).hexdigest() == commitment
    printed = subprocess.run(["sh", "-c", html.unescape(shown["check"])], capture_output=True,
                             text=True, check=True).stdout
    assert printed.split()[0] == commitment
    listed = site.api("/api/tournaments")[0]
    assert (listed["seed"], listed["salt"]) == (str(seed), salt) and listed["revealed"]
    # Anyone now recomputes every hidden card from the revealed seed alone.
    control = attack(site)
    assert set(control["seeds"].values()) == {f"tournament seed {seed}"}
    assert control["right"] == control["hidden"] == after[0]["hidden"]
    print(f"hidden cards recomputed, public/team: while playing"
          f" {playing[0]['right']}/{playing[0]['hidden']}, {playing[1]['right']}/"
          f"{playing[1]['hidden']}; after {after[0]['right']}/{after[0]['hidden']},"
          f" {after[1]['right']}/{after[1]['hidden']}; once revealed"
          f" {control['right']}/{control['hidden']}")

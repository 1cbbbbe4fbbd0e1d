"""Each viewer's pages: a team sees its own seat, the public what a spectator may, the
organiser everything; the ladder is what the store says.

The fast tests read a real match (``pokerbots run``) through the visibility rules and the
replayer's steps. The slow ones start ``pokerbots serve`` on 127.0.0.1 with a team bot that
folds (``random``) and a rival (``canary``) that writes a canary and its hole cards to its
stderr at every decision, then crawl every page a team and the public can reach: the canary,
the rival's transcript and stderr, and every hole card no showdown showed must be nowhere in
them, while the organiser's token reads all of it. The ladder is recomputed from the
tournaments' own ``results.sqlite`` with the ratio estimator's formula written out here.
"""

from __future__ import annotations

import html
import json
import math
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pokerbots.server.logs.folder import MatchFolder
from pokerbots.server.service.data.teams import Team
from pokerbots.server.service.site import replay, visibility

from service_site import BOTS, ROOT, Served

CANARY = "CANARY-7f3e9b1d"
#: The rival: calls everything, and tells its stderr a canary and its hole cards each time.
RIVAL = f"""import sys
from pokerbots.protocol.client import run

def decide(state):
    sys.stderr.write("{CANARY} " + " ".join(state.cards) + "\\n")
    sys.stderr.flush()
    return state.check_or_call()

run(decide)
"""
#: Short Hold'em matches: hands end by folds (random folds) and at showdowns.
FAST = ("--game", "holdem-nl", "--hands", "30", "--no-sandbox")


@pytest.fixture(scope="module")
def match_folder(tmp_path_factory) -> MatchFolder:
    """A real three-player Hold'em match of 12 hands."""
    logs = tmp_path_factory.mktemp("logs")
    done = subprocess.run(
        [sys.executable, "-m", "pokerbots.server.cli.main", "run", "-g", "holdem-nl", "-n",
         "12", "--seed", "5", "--logs", str(logs), str(BOTS / "random_bot.py"),
         str(BOTS / "call_bot.py"), str(BOTS / "random_bot.py")],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return MatchFolder.find(logs)


def hidden_from(sight: visibility.Sight, record: dict) -> list[int]:
    """The seats whose hole cards ``sight`` must not see in ``record``."""
    return [s for s, shown in enumerate(record["showdown"])
            if shown == "-" and not sight.sees_cards(s)]


def test_a_seat_sees_its_own_cards_and_the_shown_ones_only(match_folder):
    records = match_folder.hands()
    folded = [r for r in records if any(w == "FOLD" for _, w, _, _ in r["actions"])]
    assert folded, "no hand with a fold: the test would prove nothing"
    team = visibility.sight(Team("b", False), ["a", "b", "c"])
    assert team.seats == {1}
    for sight in (visibility.PUBLIC, team):
        for record in records:
            seen = sight.hand(record)
            for seat in hidden_from(sight, record):
                assert seen["cards"][seat] == "-"
                assert record["cards"][seat] not in json.dumps(seen["cards"])
            if sight is team:
                assert seen["cards"][1] == record["cards"][1]
            assert set(seen) <= set(record)
    organiser = visibility.sight(Team("boss", True), ["a", "b", "c"])
    assert organiser.hand(records[0]) == records[0]
    files = {name: team.file(name) for name in ("seat1.in", "seat1.stderr", "seat0.in",
                                                "seat2.stderr", "hands.txt", "summary.json")}
    assert files == {"seat1.in": "whole", "seat1.stderr": "whole", "seat0.in": "none",
                     "seat2.stderr": "none", "hands.txt": "filtered",
                     "summary.json": "filtered"}
    summary = {"result": "failed", "error": {"seat": 2, "reason": "it replied 'x'",
                                             "sent": "Cards: Ah Kd\n", "received": "x"}}
    assert team.summary(summary)["error"] == {"seat": 2, "reason": "it replied 'x'"}
    assert visibility.sight(Team("c", False), ["a", "b", "c"]).summary(summary) == summary
    history = "".join(visibility.PUBLIC.history(records, ["a", "b", "c"]))
    for record in records:
        for seat in hidden_from(visibility.PUBLIC, record):
            assert f"holds {record['cards'][seat]}" not in history
    error = "Bot at seat 2 (c) failed in hand 3: it replied 'x'.\nThe server sent:\n  Cards: Ah Kd"
    assert team.error(error, 2) == error.split("\n")[0]
    assert visibility.sight(Team("c", False), ["a", "b", "c"]).error(error, 2) == error
    assert organiser.error(error, 2) == error


def test_the_replayer_steps_follow_the_engine_to_the_recorded_result(match_folder):
    summary = match_folder.summary()
    team = visibility.sight(Team("b", False), ["a", "b", "c"])
    for record in match_folder.hands():
        drawn = replay.steps(record, summary, ["a", "b", "c"], team)
        steps = drawn["steps"]
        # the deal, each action, the chips in front collected (if any are), the result
        collected = any(steps[len(record["actions"])]["front"])
        assert len(steps) == len(record["actions"]) + 2 + collected
        assert steps[0]["pot"] == sum(record["forced"]) + sum(record.get("antes") or [])
        assert steps[-1]["behind"] == record["stacks_end"]
        assert steps[-1]["deltas"] == record["deltas"]
        assert steps[-1]["board"] == record["board"]
        assert steps[-1]["front"] == [0, 0, 0] and steps[-1]["pot"] == 0  # awarded
        before_last = steps[-2]
        assert before_last["pot"] == sum(amount for amount, _ in record["pots"])
        if collected:  # nothing in front, the winnings not yet in the winners' chips
            won = [sum(a for a, w in record["pots"] if w == s) for s in range(3)]
            assert before_last["front"] == [0, 0, 0]
            assert [b + w for b, w in zip(before_last["behind"], won)] == record["stacks_end"]
        for step in steps:
            for seat in hidden_from(team, record):
                assert step["cards"][seat] is None
            assert step["cards"][1] == record["cards"][1]
        for seat, shown in enumerate(record["showdown"]):
            if shown != "-":
                assert steps[-1]["cards"][seat] == shown


# -- the real service --------------------------------------------------------------------


def make_teams(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "random").mkdir()
    (folder / "random" / "bot.py").write_text((BOTS / "random_bot.py").read_text())
    (folder / "canary").mkdir()
    (folder / "canary" / "bot.py").write_text(RIVAL)
    return folder


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    work = tmp_path_factory.mktemp("views")
    with Served(make_teams(work / "submissions"), work / "data", *FAST, "--every", "8s",
                "--ladder", "2") as service:
        service.settled(["random", "canary"])
        service.tournament_done(3)
        yield service
        assert service.stop() == 0, service.log()


def crawl(served: Served, start: str, token: str | None, matches: set[int]
          ) -> dict[str, str]:
    """Every page and file of the site reachable from ``start`` with ``token``, by link,
    leaving out the matches not in ``matches`` (the service plays on meanwhile)."""
    found: dict[str, str] = {}
    queue = [start]
    while queue:
        path = queue.pop()
        number = re.match(r"/(matches|tournaments)/(\d+)", path)
        if path in found or (number and number.group(1) == "matches"
                             and int(number.group(2)) not in matches):
            continue
        if number and number.group(1) == "tournaments" and int(number.group(2)) > 3:
            continue
        answer = served.get(path, token)
        found[path] = answer.text if answer.status == 200 else ""
        for href in re.findall(r'href="(/[^"#?]*)', found[path]):
            href = html.unescape(href)
            if href.startswith(("/matches", "/teams", "/tournaments", "/bots", "/versions")):
                queue.append(href)
    return found


def first_matches(served: Served) -> set[int]:
    """The matches of the first three tournaments."""
    data = Path(served.argv[served.argv.index("--data") + 1])
    db = sqlite3.connect(data / "service.sqlite")
    return {m for (m,) in db.execute("SELECT id FROM matches WHERE tournament_id <= 3")}


def hole_cards_hidden_from(served: Served, seat_of_team: str | None, matches: set[int]
                           ) -> dict:
    """``{match id: [(hand number, cards that viewer must not see)]}`` from the logs."""
    data = Path(served.argv[served.argv.index("--data") + 1])
    db = sqlite3.connect(data / "service.sqlite")
    found = {}
    for match_id, seating, log_dir in db.execute(
            "SELECT id, seating, log_dir FROM matches WHERE log_dir IS NOT NULL"
            f" AND id IN ({','.join(map(str, matches))})"):
        seating = json.loads(seating)
        hidden = []
        for record in MatchFolder(data / log_dir).hands():
            for seat, shown in enumerate(record["showdown"]):
                if shown == "-" and seating[seat] != seat_of_team:
                    hidden.append((record["hand"], record["cards"][seat]))
        found[match_id] = hidden
    return found


@pytest.mark.slow
def test_a_team_never_sees_another_seats_stderr_transcript_or_hidden_cards(served):
    team = served.token("random")
    rival = served.token("canary")
    organiser = served.token("boss", organiser=True)
    assert served.get("/teams/random").status == 401  # the login form
    assert served.get("/teams/random", rival).status == 403
    matches = first_matches(served)
    for token, name in ((team, "random"), (None, None)):
        pages = crawl(served, f"/teams/{name}" if name else "/", token, matches)
        match_pages = [p for p in pages if re.fullmatch(r"/matches/\d+", p)]
        assert match_pages, "no match reachable: the crawl proves nothing"
        for match in match_pages:  # the hand history and every replay of every match
            pages.update(crawl(served, match + "/hands", token, matches))
            pages[match + "/hands.jsonl"] = served.get(match + "/hands.jsonl", token).text
        text = "\n".join(pages.values())
        assert CANARY not in text, [p for p, t in pages.items() if CANARY in t]
        replays = [p for p in pages if re.fullmatch(r"/matches/\d+/hands/\d+", p)]
        assert replays
        sections_checked = 0
        for match_id, hidden in hole_cards_hidden_from(served, name, matches).items():
            served_jsonl = pages.get(f"/matches/{match_id}/hands.jsonl", "")
            served_history = pages.get(f"/matches/{match_id}/hands", "")
            for number, cards in hidden:
                # in that hand's own section: the same two cards may be the viewer's own, or
                # shown, in another hand of the match
                section = re.search(rf'<section class="hand" id="hand-{number}">(.*?)</section>',
                                    served_history, re.S)
                assert section is None or f"holds {cards}" not in section.group(1), number
                sections_checked += section is not None
                for line in served_jsonl.splitlines():
                    record = json.loads(line)
                    if record["hand"] == number:
                        assert cards not in record["cards"]
                replay_page = pages.get(f"/matches/{match_id}/hands/{number}")
                if replay_page:
                    data = re.search(r'id="replay-data">(.*?)</script>', replay_page, re.S)
                    drawn = json.loads(data.group(1))
                    assert all(cards not in step["cards"] for step in drawn["steps"])
        assert sections_checked, "no hand with hidden cards was on a history page"
        if name:
            assert any(p.endswith(".stderr") for p in pages)  # its own stderr it does see
    # The rival's own files: 404 to the team, the public; the organiser reads them.
    data = Path(served.argv[served.argv.index("--data") + 1])
    db = sqlite3.connect(data / "service.sqlite")
    match_id, seating = db.execute("SELECT id, seating FROM matches LIMIT 1").fetchone()
    seat = json.loads(seating).index("canary")
    for name in (f"seat{seat}.stderr", f"seat{seat}.in"):
        assert served.get(f"/matches/{match_id}/{name}", team).status == 404
        assert served.get(f"/matches/{match_id}/{name}").status == 404
    assert CANARY in served.get(f"/matches/{match_id}/seat{seat}.stderr", organiser).text
    assert CANARY in served.get(f"/matches/{match_id}/seat{seat}.stderr", rival).text
    full = served.get(f"/matches/{match_id}/hands.jsonl", organiser).text
    records = [json.loads(line) for line in full.splitlines()]
    assert all("-" not in r["cards"] for r in records)  # the organiser sees every card


def t975(df: int) -> float:
    from scipy.stats import t

    value = float(t.ppf(0.975, df))
    return round(value, 3) if df <= 30 else value


@pytest.mark.slow
def test_the_ladder_is_the_pooled_result_of_the_last_tournaments(served):
    ladder = served.api("/api/ladder")
    assert ladder["size"] == 2
    data = Path(served.argv[served.argv.index("--data") + 1])
    db = sqlite3.connect(data / "service.sqlite")
    ids = ladder["tournaments"]
    assert len(ids) == 2 and ids[1] == ids[0] + 1  # the last two finished then
    done = [db.execute("SELECT id, folder FROM tournaments WHERE id = ? AND status = 'done'",
                       (t,)).fetchone() for t in ids]
    units: dict[str, list] = {}
    for _, folder in done:
        results = sqlite3.connect(data / folder / "results.sqlite")
        for status, seating, bankrolls, hands in results.execute(
                "SELECT status, seating, bankrolls, hands FROM matches"):
            assert status == "done"  # no forfeit to charge: every unit is its match
            for name, chips in zip(json.loads(seating), json.loads(bankrolls)):
                units.setdefault(name, []).append((chips, hands))
    assert {b["name"] for b in ladder["bots"]} == set(units) == {"random", "canary"}
    for line in ladder["bots"]:
        cells = units[line["name"]]
        total = sum(n for _, n in cells)
        r = sum(x for x, _ in cells) / total
        k = len(cells)
        stderr = math.sqrt(k / (k - 1) * sum((x - r * n) ** 2 for x, n in cells)) / total
        assert line["per_hand"] == pytest.approx(r, abs=1e-6)
        assert line["stderr"] == pytest.approx(stderr, abs=1e-6)
        assert line["units"] == k and line["hands"] == total
        half = t975(k - 1) * stderr
        assert line["ci95"] == pytest.approx([r - half, r + half], abs=1e-5)
        assert len(ladder["history"][line["name"]]) == 2
    ranked = sorted(ladder["bots"], key=lambda b: -b["per_hand"])
    assert [b["name"] for b in ranked] == [b["name"] for b in ladder["bots"]]
    home = served.get("/").text
    assert "Ladder" in home and '<svg class="chart ladder"' in home
    for line in ladder["bots"]:
        assert f'data-bot="{line["name"]}"' in home

"""Who sees a mixed reply: a bot's mix is its private decision (its declared strategy, which a
rival could exploit), shown only to a viewer who may see that seat's hole cards, as the cards
are. Read from a real match (``pokerbots run`` with bots sending ``MIX`` lines) through the
visibility rules, the hand history, the replayer's steps and its page."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from pokerbots.server.hands.record import public_view
from pokerbots.server.logs.folder import MatchFolder
from pokerbots.server.service.data.teams import Team
from pokerbots.server.service.jobs.scheduler import Settings
from pokerbots.server.service.site import pages, replay, visibility

from service_site import ROOT

MIXER = str(ROOT / "tests" / "programs" / "mix_bot.py")
SEATING = ["a", "b", "c"]
#: The phrase after an action a mix's draw chose, with its probability.
DRAWN = re.compile(r" \(drawn, (\d+)/(\d+)\)")


@pytest.fixture(scope="module")
def match_folder(tmp_path_factory) -> MatchFolder:
    """A real three-player Hold'em match of 8 hands: seat 1 mixes at every decision, seat 2
    at every other one, seat 0 never."""
    logs = tmp_path_factory.mktemp("logs")
    done = subprocess.run(
        [sys.executable, "-m", "pokerbots.server.cli.main", "run", "-g", "holdem-nl", "-n",
         "8", "--seed", "9", "--logs", str(logs), f"{MIXER} --single", MIXER,
         f"{MIXER} --every 2"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return MatchFolder.find(logs)


def mixing_seats(record: dict) -> set[int]:
    return {record["actions"][index][0] for index, _, _ in record.get("mixes", [])}


def test_each_viewer_sees_the_mixes_of_the_seats_whose_cards_it_sees(match_folder):
    records = match_folder.hands()
    assert {1, 2} <= set().union(*[mixing_seats(r) for r in records])
    team = visibility.sight(Team("b", False), SEATING)
    organiser = visibility.sight(Team("boss", True), SEATING)
    for record in records:
        assert "mixes" not in visibility.PUBLIC.hand(record)
        assert "mixes" not in public_view(record)  # the hand feed: one line for every seat
        own = [mix for mix in record.get("mixes", []) if record["actions"][mix[0]][0] == 1]
        assert team.hand(record).get("mixes") == (own or None)
        assert organiser.hand(record).get("mixes") == record.get("mixes")
    public_history = "".join(visibility.PUBLIC.history(records, SEATING))
    assert not DRAWN.search(public_history)
    team_history = "".join(team.history(records, SEATING))
    for line in team_history.splitlines():
        if DRAWN.search(line):
            assert line.startswith("  b (seat 1) ")
    assert len(DRAWN.findall(team_history)) == sum(
        1 for r in records for mix in r.get("mixes", []) if r["actions"][mix[0]][0] == 1) > 0


def test_the_replayer_shows_the_drawn_item_and_its_probability_to_who_may_see_it(match_folder):
    summary = match_folder.summary()
    team = visibility.sight(Team("b", False), SEATING)
    organiser = visibility.sight(Team("boss", True), SEATING)
    now = pages.Now(Settings(ROOT / "submissions", ROOT / "data", 3600.0, 3,
                             {"game": "holdem-nl", "game_texts": {}, "hands": 8,
                              "duplicate": False, "sandbox": False}, {}), None, None, None)
    row = {"id": 1, "tournament_id": 1, "seating": SEATING}
    told = {sight: 0 for sight in (visibility.PUBLIC, team, organiser)}
    for record in match_folder.hands():
        mixes = {index: (items, drawn) for index, items, drawn in record.get("mixes", [])}
        for sight in (visibility.PUBLIC, team, organiser):
            steps = replay.steps(record, summary, SEATING, sight)["steps"]
            actions = steps[1:1 + len(record["actions"])]
            for index, step in enumerate(actions):
                seat = record["actions"][index][0]
                if index in mixes and sight.sees_cards(seat):
                    items, drawn = mixes[index]
                    weight, total = items[drawn][0], sum(item[0] for item in items)
                    assert step["drawn"] == {"weight": weight, "total": total}
                    assert step["text"].endswith(f" (drawn, {weight}/{total})")
                    told[sight] += 1
                else:
                    assert step["drawn"] is None and not DRAWN.search(step["text"])
            assert all(step["drawn"] is None for step in steps[1 + len(record["actions"]):])
            page = pages.replayer(row, record["hand"], 8, replay.steps(
                record, summary, SEATING, sight), now, sight)
            shown = DRAWN.findall(page)
            seen = [mixes[i] for i in mixes if sight.sees_cards(record["actions"][i][0])]
            # Each in the list of steps, and again in the page's JSON for the script.
            assert len(shown) == 2 * len(seen)
    assert told[visibility.PUBLIC] == 0 < told[team] < told[organiser]

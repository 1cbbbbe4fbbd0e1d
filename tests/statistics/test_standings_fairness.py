"""Breaking the rules never pays: real tournaments with real bots that break them.

A bot dropped by --max-faults, or whose every match failed by its fault, is *out*: it ranks
below every bot still in, in the bankroll ranking and in the run-off, and standings.json, the
text of ``pokerbots standings``, the report and the site say so and why. A bot that played no
hand because its opponents failed has 0 hands and per_hand 0 (not a null that sorts it last).
Every line says how many independent units (matches, or deal sets with --duplicate) stand
behind its interval.

The cases are those that were found ranked unfairly: a random binary that crashes before hand
0 ranked first against call_bot.py, and a Kuhn-only bot in a Hold'em tournament, charged the
big blind per planned hand, ranked above honest bots losing more than that and won the run-off.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from pathlib import Path

import pytest

from processes import pokerbots

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "bots"
CALL = BOTS / "call_bot.py"
RANDOM = BOTS / "random_bot.py"
KUHN_ONLY = BOTS / "kuhn_2p_equilibrium.py"
CHEAT = ROOT / "tests" / "programs" / "bad_bots" / "kuhn_bot.py"


def standings_of(out: Path) -> tuple[dict, dict[str, dict]]:
    """``standings.json`` as a user reads it, and its lines by bot."""
    document = json.loads((out / "standings.json").read_text())
    return document, {line["name"]: line for line in document["bots"]}


def table_lines(text: str) -> dict[str, list[str]]:
    """The text table of ``pokerbots standings`` as a reader splits it into columns (two
    spaces or more apart): ``{"head": headings, bot: cells}``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("rank"))
    found = {"head": re.split(r"\s{2,}", lines[start].strip())}
    for line in lines[start + 1:]:
        if not line.strip():
            break
        cells = re.split(r"\s{2,}", line.strip())
        found[cells[1]] = cells
    return found


def played_rows(out: Path) -> list[dict]:
    db = sqlite3.connect(out / "results.sqlite")
    db.row_factory = sqlite3.Row
    rows = [dict(r) for r in db.execute(
        "SELECT * FROM matches WHERE status IN ('done', 'failed') ORDER BY id")]
    db.close()
    for row in rows:
        row["seating"] = json.loads(row["seating"])
    return rows


def test_a_binary_that_crashes_before_hand_0_ranks_below_the_bot_it_left_without_a_hand(
        tmp_path):
    crash = tmp_path / "random-binary"
    crash.write_bytes(random.Random(0).randbytes(4096))
    crash.chmod(0o755)
    out = tmp_path / "t"
    result = pokerbots("tournament", f"crash={crash}", f"call={CALL}", "--hands", "20",
                       "--seed", "1", "--out", out, "--jobs", "1")
    assert result.returncode == 0, result.stderr
    assert "crash forfeits" in result.stdout
    document, lines = standings_of(out)
    call, bad = lines["call"], lines["crash"]
    # call played no hand, through no fault of its own: it has what it has, 0
    assert (call["rank"], call["runoff_rank"]) == (1, 1)
    assert (call["hands"], call["bankroll"], call["per_hand"]) == (0, 0, 0.0)
    assert (call["units"], call["ci95"], call["out"], call["out_reason"]) == (0, None, False,
                                                                               None)
    assert (bad["rank"], bad["runoff_rank"], bad["faults"], bad["out"]) == (2, 2, 1, True)
    assert bad["out_reason"] == "its only match failed by its fault"
    assert bad["per_hand"] == -1.0 and bad["hands"] == 20 and bad["units"] == 1
    assert document["runoff"] == ["call", "crash"] and document["unit"] == "match"

    shown = pokerbots("standings", out)
    assert shown.returncode == 0, shown.stderr
    table = table_lines(shown.stdout)
    head = table["head"]
    assert table["call"][0] == "1" and table["crash"][0] == "2"
    assert table["crash"][-1] == "out" and table["call"][-1] != "out"
    assert head[:5] == ["rank", "bot", "per hand", "± 95%", "units"] and head[-1] == "out"
    assert table["call"][4] == "0" and table["crash"][4] == "1"
    assert table["call"][2] == "0"  # no hand, no interval: nothing won
    assert "crash is out: its only match failed by its fault" in shown.stdout
    assert "Run-off order: call, crash" in shown.stdout
    assert json.loads(pokerbots("standings", out, "--json").stdout) == document
    page = (out / "report.html").read_text()
    assert "<b>out</b>: its only match failed by its fault" in page


@pytest.mark.slow  # a real tournament of 5 bots; CI runs it (-m slow)
def test_a_kuhn_only_bot_in_holdem_ranks_below_every_honest_bot_and_loses_the_runoff(tmp_path):
    out = tmp_path / "t"
    result = pokerbots("tournament", f"call={CALL}", f"r1={RANDOM} --seed 1",
                       f"r2={RANDOM} --seed 2", f"r3={RANDOM} --seed 3", f"kuhn={KUHN_ONLY}",
                       "--game", "holdem-nl", "--players", "2", "--hands", "50", "--seed", "2",
                       "--out", out, "--jobs", "1", timeout=180)  # one job: kuhn's faults
    # stop at 3 (with two, a fourth match may be under way when the third fails)
    assert result.returncode == 0, result.stderr
    assert "kuhn broke the rules 3 times" in result.stdout
    document, lines = standings_of(out)
    kuhn = lines["kuhn"]
    honest = [line for name, line in lines.items() if name != "kuhn"]
    # The case bites: honest bots lost more per hand than the big blind kuhn is charged (once
    # it ranked third of five and won the run-off).
    assert any(line["per_hand"] < kuhn["per_hand"] for line in honest)
    assert kuhn["out"] and kuhn["out_reason"] == "dropped after 3 faults (--max-faults 3)"
    assert kuhn["rank"] == 5 and kuhn["runoff_rank"] == 5
    assert document["runoff"][-1] == "kuhn" and document["bots"][-1]["name"] == "kuhn"
    assert document["max_faults"] == 3
    assert not any(line["out"] for line in honest)
    assert [line["rank"] for line in document["bots"]] == [1, 2, 3, 4, 5]
    # still in: ranked by per hand among themselves
    per_hand = [line["per_hand"] for line in document["bots"][:4]]
    assert per_hand == sorted(per_hand, reverse=True)
    # one unit per match with a hand played (kuhn failed before hand 0 against some of them)
    rows = played_rows(out)
    for line in honest:
        assert line["units"] == sum(1 for r in rows
                                    if line["name"] in r["seating"] and r["hands"] > 0)
        assert line["units"] >= 3 and line["ci95"] is not None

    shown = pokerbots("standings", out)
    table = table_lines(shown.stdout)
    assert table["kuhn"][0] == "5" and table["kuhn"][-1] == "out"
    assert "kuhn is out: dropped after 3 faults (--max-faults 3)" in shown.stdout
    assert shown.stdout.rstrip().endswith(", kuhn")
    assert "one unit per match" in shown.stdout

    # the site's standings table, from the same view
    from pokerbots.server.service.site import chart
    from pokerbots.server.tournament import view

    site = str(chart.render("standings_table.html", view=view.of(document), versions={}))
    assert ">units</th>" in site and "out</b>: dropped after 3 faults (--max-faults 3)" in site


@pytest.mark.slow  # a real tournament of 5 bots; CI runs it (-m slow)
def test_a_bot_that_breaks_a_rule_every_match_is_out_under_a_high_max_faults(tmp_path):
    out = tmp_path / "t"
    result = pokerbots("tournament", f"call={CALL}", f"random={RANDOM} --seed 4",
                       f"cheat={CHEAT} --fault wrong-value --at-hand 3", "--players", "2",
                       "--duplicate", "--rounds", "2", "--hands", "20", "--max-faults", "20",
                       "--seed", "3", "--out", out, "--jobs", "2", timeout=180)
    assert result.returncode == 0, result.stderr
    assert "out of the tournament" not in result.stdout  # never dropped: 8 faults of 20
    document, lines = standings_of(out)
    cheat = lines["cheat"]
    assert document["matches"]["failed"] == 8 and document["matches"]["skipped"] == 0
    assert cheat["faults"] == cheat["matches"] == 8
    assert cheat["out"] and cheat["out_reason"] == "all its 8 matches failed by its fault"
    assert cheat["rank"] == 3 and document["runoff"][-1] == "cheat"
    # duplicate: one unit per deal set of a table (2 opponents x 2 deal sets), not per match
    assert document["unit"] == "deal set"
    for line in document["bots"]:
        assert line["matches"] == 8 and line["units"] == 4
    assert not lines["call"]["out"] and not lines["random"]["out"]

    shown = pokerbots("standings", out)
    table = table_lines(shown.stdout)
    units = table["head"].index("units")
    assert [table[name][units] for name in ("call", "random", "cheat")] == ["4", "4", "4"]
    assert table["cheat"][0] == "3" and table["cheat"][-1] == "out"
    assert "cheat is out: all its 8 matches failed by its fault" in shown.stdout
    assert "one unit per deal set" in shown.stdout

"""Tournaments: the plan, the deals, the standings' arithmetic, and short real tournaments.

The real ones start the command and real bot processes: three identical check/call bots
playing duplicate must end at exactly 0 each, with the same cards per seat in every seating;
a field with a crashing bot must go on, charge the crasher its forfeit and drop it after
--max-faults; a resume with other options is a usage error naming the option.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import sqlite3
from pathlib import Path

import pytest

from pokerbots.server import games
from pokerbots.server.tournament import deals, plan, standings
from pokerbots.server.tournament.entrants import parse_entrants

from processes import pokerbots

ROOT = Path(__file__).resolve().parents[3]
CALL = str(ROOT / "bots" / "call_bot.py")
RANDOM = str(ROOT / "bots" / "random_bot.py")
BAD = str(ROOT / "tests" / "programs" / "bad_bots" / "kuhn_bot.py")


def rows_of(folder: Path) -> list[dict]:
    """The matches table, read as any SQLite client would."""
    db = sqlite3.connect(folder / "results.sqlite")
    db.row_factory = sqlite3.Row
    rows = [dict(r) for r in db.execute("SELECT * FROM matches ORDER BY id")]
    db.close()
    for row in rows:
        row["seating"] = json.loads(row["seating"])
        row["bankrolls"] = row["bankrolls"] and json.loads(row["bankrolls"])
    return rows


def hands_of(log_dir: str) -> list[dict]:
    return [json.loads(line) for line in (Path(log_dir) / "hands.jsonl").read_text().splitlines()]


# -- the plan and the deals (no process) ----------------------------------------------------


@pytest.mark.parametrize("m, k, seatings", [(5, 3, 6), (4, 2, 2), (6, 4, 4), (5, 5, 5)])
def test_every_combination_is_a_table_and_duplicate_seats_everyone_everywhere(m, k, seatings):
    names = [f"b{i}" for i in range(m)]
    planned = plan.matches(names, k, rounds=2, duplicate=True, seed=7)
    tables = {p.table_no: frozenset(p.seating) for p in planned}
    assert sorted(map(sorted, tables.values())) == sorted(
        map(sorted, itertools.combinations(names, k)))
    assert len(planned) == math.comb(m, k) * 2 * seatings
    for (table, _), group in itertools.groupby(planned, lambda p: (p.table_no,
                                                                          p.deal_set)):
        group = list(group)
        assert len({p.seed for p in group}) == 1 and len({p.button for p in group}) == 1
        for seat in range(k):  # every bot sits in every seat equally often
            counts = {name: sum(p.seating[seat] == name for p in group) for name in tables[table]}
            assert len(set(counts.values())) == 1
    assert len({p.seed for p in planned}) == math.comb(m, k) * 2


def test_without_duplicate_each_deal_set_rotates_the_seats():
    planned = plan.matches(["a", "b", "c"], 3, rounds=3, duplicate=False, seed=1)
    assert [p.seating for p in planned] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]


def test_deals_depend_only_on_seed_table_deal_set_and_hand():
    game = games.make_game("holdem-nl", 3)
    seed = deals.match_seed(5, 2, 1)
    assert seed == deals.match_seed(5, 2, 1)
    assert len({seed, deals.match_seed(5, 2, 0), deals.match_seed(5, 1, 1),
                deals.match_seed(6, 2, 1)}) == 4
    first = [deals.deal(game, h, seed=seed) for h in range(50)]
    assert [deals.deal(game, h, seed=seed) for h in reversed(range(50))] == first[::-1]
    assert deals.deal(game, 3, seed=seed + 1) != first[3]
    assert deals.first_button(seed, 3) == deals.first_button(seed, 3)


def test_names_from_arguments_are_checked_and_made_unique():
    field = parse_entrants([CALL, CALL, f"tight={RANDOM}", f"{RANDOM} --seed 3"])
    assert [e.name for e in field] == ["call_bot", "call_bot-2", "tight", "random_bot"]
    assert field[3].args == ("--seed", "3") and field[3].python
    assert len(field[0].sha256) == 64
    with pytest.raises(ValueError, match="longer than 40"):
        parse_entrants([f"{'x' * 41}={CALL}"])
    with pytest.raises(ValueError, match="two bots are called 'a'"):
        parse_entrants([f"a={CALL}", f"a={RANDOM}"])


# -- the standings' arithmetic (synthetic rows) ----------------------------------------------


def row(id_, table, deal_set, seating, bankrolls, hands=100, status="done", culprit=None):
    return {"id": id_, "table_no": table, "deal_set": deal_set, "seating": seating,
            "status": status, "hands": hands, "bankrolls": bankrolls, "allin_bankrolls": None,
            "culprit": None if culprit is None else seating[culprit], "culprit_seat": culprit}


def test_a_duplicate_unit_is_a_deal_set_summed_over_its_seatings():
    rules = standings.Rules(hands_per_match=100, duplicate=True, penalty=1)
    results = [5, -3, 8, 1, -2]
    rows = []
    for d, x in enumerate(results):  # a's result in a deal set: x, then 2 in the swapped seats
        rows += [row(2 * d, 0, d, ["a", "b"], [x - 2, 2 - x]),
                 row(2 * d + 1, 0, d, ["b", "a"], [-2, 2])]
    lines = {b["name"]: b for b in standings.table(rows, ["a", "b"], rules)}
    k = len(results)
    mean = sum(results) / k
    sd = math.sqrt(sum((x - mean) ** 2 for x in results) / (k - 1))
    assert lines["a"]["per_hand"] == pytest.approx(mean / 200)
    assert lines["a"]["stderr"] == pytest.approx(sd / math.sqrt(k) / 200, abs=1e-6)
    low, high = lines["a"]["ci95"]
    assert (high - low) / 2 == pytest.approx(2.776 * lines["a"]["stderr"], rel=1e-4)
    assert lines["a"]["bankroll"] == -lines["b"]["bankroll"] == sum(results)
    assert lines["a"]["matches"] == 10 and lines["a"]["hands"] == 1000
    nondup = standings.table(rows, ["a", "b"], standings.Rules(100, False, 1))
    assert {b["name"]: b["per_hand"] for b in nondup} == {b: lines[b]["per_hand"] for b in lines}


def test_the_culprit_forfeits_and_the_others_keep_what_they_won():
    rules = standings.Rules(hands_per_match=100, duplicate=False, penalty=10)
    rows = [row(0, 0, 0, ["a", "b", "c"], [30, -50, 20], hands=40, status="failed", culprit=2),
            row(1, 0, 1, ["b", "c", "a"], [0, 0, 0], status="skipped")]
    lines = {b["name"]: b for b in standings.table(rows, ["a", "b", "c"], rules)}
    assert (lines["a"]["bankroll"], lines["a"]["hands"]) == (30, 40)
    assert (lines["b"]["bankroll"], lines["b"]["hands"]) == (-50, 40)
    # the worst seat's result, less the big blind for each of the 60 hands not played
    assert (lines["c"]["bankroll"], lines["c"]["hands"]) == (-50 - 600, 100)
    assert lines["c"]["faults"] == 1 and lines["a"]["faults"] == 0
    assert [lines[n]["matches"] for n in "abc"] == [1, 1, 1]
    assert standings.penalty_per_hand("holdem-nl", 3, {"small_blind": 1, "big_blind": 2}) == 2
    assert standings.penalty_per_hand("kuhn", 3, {}) == 1


def test_instant_runoff_drops_the_weakest_and_reranks_among_the_survivors():
    rules = standings.Rules(100, False, 1)
    # a crushes b, which lifts a's total; once b is out, a is the weakest of a, c and d.
    rows = [row(0, 0, 0, ["a", "b"], [900, -900]), row(1, 1, 0, ["a", "c"], [-100, 100]),
            row(2, 2, 0, ["b", "c"], [-50, 50]), row(3, 3, 0, ["a", "d"], [10, -10]),
            row(4, 4, 0, ["b", "d"], [-10, 10]), row(5, 5, 0, ["c", "d"], [40, -40])]
    lines = standings.table(rows, ["a", "b", "c", "d"], rules)
    assert [b["name"] for b in lines] == ["a", "c", "d", "b"]
    assert standings.runoff(rows, ["a", "c", "d", "b"], rules) == ["c", "d", "a", "b"]
    assert {b["name"]: b["runoff_rank"] for b in lines} == {"c": 1, "d": 2, "a": 3, "b": 4}


def test_a_bot_out_ranks_below_every_bot_still_in_whatever_its_forfeit():
    rules = standings.Rules(100, False, penalty=1, max_faults=2)
    # x breaks a rule at hand 0 twice (charged 1 a hand); b loses 5 a hand honestly: x is out
    # and ranks last in both rankings, and the run-off is decided without its matches.
    rows = [row(0, 0, 0, ["a", "b"], [500, -500]), row(1, 1, 0, ["a", "x"], [0, 0], hands=0,
                                                       status="failed", culprit=1),
            row(2, 2, 0, ["b", "x"], [0, 0], hands=0, status="failed", culprit=1)]
    lines = standings.table(rows, ["a", "b", "x"], rules)
    assert [b["name"] for b in lines] == ["a", "b", "x"]
    assert lines[2]["per_hand"] == -1.0 > lines[1]["per_hand"] == -5.0
    assert lines[2]["out"] and lines[2]["out_reason"] == "dropped after 2 faults (--max-faults 2)"
    assert not lines[0]["out"] and lines[0]["out_reason"] is None
    assert [b["runoff_rank"] for b in lines] == [1, 2, 3]
    assert [b["units"] for b in lines] == [1, 1, 2]
    # without --max-faults reached, every match failed by its fault is out all the same
    lines = standings.table(rows, ["a", "b", "x"], standings.Rules(100, False, 1, 3))
    assert lines[2]["name"] == "x" and lines[2]["out_reason"] == (
        "all its 2 matches failed by its fault")


def test_a_bot_without_a_hand_has_per_hand_0_and_ranks_by_it():
    rules = standings.Rules(100, False, penalty=1, max_faults=3)
    # c fails at hand 0 against v (one fault of three, and a match it played well: not out);
    # v played no hand. It ranks by its 0, in the run-off too, not last by a null.
    rows = [row(0, 0, 0, ["c", "v"], [0, 0], hands=0, status="failed", culprit=0),
            row(1, 1, 0, ["c", "w"], [50, -50]),
            row(2, 2, 0, ["v", "w"], [0, 0], status="skipped")]
    lines = standings.table(rows, ["c", "v", "w"], rules)
    assert [b["name"] for b in lines] == ["v", "c", "w"]
    v = lines[0]
    assert (v["hands"], v["per_hand"], v["units"], v["ci95"], v["out"]) == (0, 0.0, 0, None,
                                                                           False)
    assert lines[1]["per_hand"] == -0.25 and not lines[1]["out"]
    assert [b["runoff_rank"] for b in lines] == [1, 2, 3]
    assert standings.table([], ["a", "b"], rules)[0]["per_hand"] == 0.0  # nothing played yet


# -- real tournaments ---------------------------------------------------------------------------


@pytest.mark.slow  # test_luck's slow run checks the same of the adjusted figures; CI runs both
def test_identical_deterministic_bots_score_exactly_zero_on_the_same_cards(tmp_path):
    out = tmp_path / "t"
    result = pokerbots("tournament", f"a={CALL}", f"b={CALL}", f"c={CALL}", "--duplicate",
                       "--hands", "20", "--seed", "11", "--out", out, "--jobs", "2")
    assert result.returncode == 0, result.stderr
    document = json.loads((out / "standings.json").read_text())
    assert document["matches"] == {"planned": 6, "done": 6, "failed": 0, "skipped": 0}
    assert document["seed"] == 11 and document["players"] == 3 and document["duplicate"]
    for line in document["bots"]:
        assert (line["bankroll"], line["per_hand"], line["hands"]) == (0, 0.0, 120)
    rows = rows_of(out)
    assert sorted(tuple(r["seating"]) for r in rows) == sorted(
        itertools.permutations("abc"))
    records = [hands_of(r["log_dir"]) for r in rows]
    for records_ in records[1:]:  # seat s: the same cards, the same buttons, in every seating
        assert [(h["cards"], h["button"]) for h in records_] == [
            (h["cards"], h["button"]) for h in records[0]]
    assert len({tuple(tuple(h["cards"]) for h in records[0])}) == 1
    assert len({h["cards"][0] for h in records[0]}) > 1  # and the cards change hand to hand

    again = pokerbots("standings", out, "--json")
    assert json.loads(again.stdout) == document
    shown = pokerbots("show", out)
    assert shown.returncode == 0 and "Run-off order" in shown.stdout
    assert "table 0 deal set 0 seating 5" in shown.stdout

    # the same folder with another option: a usage error that names it, nothing played
    changed = pokerbots("tournament", f"a={CALL}", f"b={CALL}", f"c={CALL}", "--duplicate",
                        "--hands", "30", "--out", out)
    assert changed.returncode == 2 and "--hands differs" in changed.stderr
    assert "30 here, 20 there" in changed.stderr
    # --no-adjust is recorded too: a resume without the adjusted figures is another tournament
    changed = pokerbots("tournament", f"a={CALL}", f"b={CALL}", f"c={CALL}", "--duplicate",
                        "--hands", "20", "--no-adjust", "--out", out)
    assert changed.returncode == 2 and "--no-adjust differs" in changed.stderr
    assert "false here, true there" in changed.stderr


def test_a_crashing_bot_forfeits_without_stopping_anything(tmp_path):
    out = tmp_path / "t"
    crash = f"{BAD} --fault crash --at-hand 2"
    result = pokerbots("tournament", f"crash<b>={CALL}", f"x={CALL}", f"crash={crash}",
                       f"r={RANDOM} --seed 4", "--players", "3", "--hands", "12",
                       "--max-faults", "1", "--seed", "2", "--out", out, "--jobs", "2")
    assert result.returncode == 2 and "crash<b>" in result.stderr  # not a name: not a file
    result = pokerbots("tournament", f"c={CALL}", f"x={CALL}", f"crash={crash}",
                       f"r={RANDOM} --seed 4", "--players", "3", "--hands", "12",
                       "--max-faults", "1", "--seed", "2", "--out", out, "--jobs", "1")
    assert result.returncode == 0, result.stderr
    rows = rows_of(out)
    assert sorted(frozenset(r["seating"]) for r in rows) == sorted(
        map(frozenset, itertools.combinations(["c", "x", "crash", "r"], 3)))
    failed = [r for r in rows if r["status"] == "failed"]
    assert len(failed) == 1 and failed[0]["culprit"] == "crash"
    assert failed[0]["hands"] == 2 and "exited with code 3" in failed[0]["error"]
    assert (Path(failed[0]["log_dir"]) / "summary.json").is_file()
    assert sum(r["status"] == "skipped" for r in rows) == 2  # its other tables
    assert [r["status"] for r in rows if "crash" not in r["seating"]] == ["done"]
    document = json.loads((out / "standings.json").read_text())
    lines = {b["name"]: b for b in document["bots"]}
    assert lines["crash"]["faults"] == 1 and lines["crash"]["hands"] == 12
    worst = min(failed[0]["bankrolls"])
    assert lines["crash"]["bankroll"] == worst - 10 * 1
    assert document["bots"][-1]["name"] == "crash"
    assert lines["crash"]["out"] and lines["crash"]["out_reason"] == (
        "dropped after 1 fault (--max-faults 1)")
    assert document["runoff"][-1] == "crash" and document["unit"] == "match"
    for name in ("c", "x", "r"):  # one unit per match in which it played a hand
        assert lines[name]["units"] == sum(name in r["seating"] and bool(r["hands"])
                                           for r in rows)
    assert "crash forfeits" in result.stdout and "out of the tournament" in result.stdout
    page = (out / "report.html").read_text()
    assert "matches/t" in page and "exited with code 3" in page


def test_report_escapes_names_and_errors(tmp_path):
    from pokerbots.server.tournament import report, results_store
    from pokerbots.server.tournament.entrants import Entrant

    options = {"game": "kuhn", "game_options": {}, "players": 2, "hands": 10, "rounds": 1,
               "duplicate": False, "max_faults": 3, "refine": None, "refine_steps": 5,
               "limits": {}}
    field = [Entrant(n, "<script>alert(1)</script>", "/x", (), False, "0" * 64)
             for n in ("a", "b")]
    results = results_store.create(tmp_path, options, 1,
                           field, plan.matches(["a", "b"], 2, rounds=1, duplicate=False, seed=1))
    results.finish({"id": 1, "status": "failed", "hands": 3, "bankrolls": [2, -2],
                    "culprit": "a", "culprit_seat": 0, "error": "<img src=x onerror=alert(1)>",
                    "log_dir": str(tmp_path / "matches" / "m"), "seconds": 0.1,
                    "started": 0, "finished": 1})
    page = report.render(results, tmp_path)
    assert "<script>" not in page and "<img" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page and '<a href="matches/m/">' in page


def test_random_rows_standings_are_finite(tmp_path):
    rng = random.Random(3)
    rules = standings.Rules(50, True, 1)
    rows = []
    for i in range(40):
        x = rng.randint(-20, 20)
        rows.append(row(i, i // 4, i % 4, ["a", "b"], [x, -x], hands=50))
    lines = standings.table(rows, ["a", "b"], rules)
    assert all(math.isfinite(b["stderr"]) for b in lines)
    assert lines[0]["stderr"] == pytest.approx(lines[1]["stderr"])


class FakePool:
    """Plays a match instantly: the first bot of the field wins 3 chips a hand from each other
    seat, the others split the rest by a seeded coin. For the director's logic alone."""

    capacity = 2

    def __init__(self, best: str) -> None:
        import queue

        self.results = queue.Queue()
        self.best = best
        self.rng = random.Random(1)

    def submit(self, job: dict) -> None:
        names = [seat["name"] for seat in job["seating"]]
        hands = job["hands"]
        money = [0] * len(names)
        for s, name in enumerate(names):
            if name == self.best:
                money[s] += 3 * hands * (len(names) - 1)
                for t in range(len(names)):
                    if t != s:
                        money[t] -= 3 * hands
        coin = self.rng.randint(-hands, hands)
        others = [s for s, n in enumerate(names) if n != self.best][:2]
        money[others[0]] += coin
        money[others[1]] -= coin
        self.results.put({"id": job["id"], "status": "done", "hands": hands,
                          "bankrolls": money, "log_dir": job["folder"], "seconds": 0.0,
                          "started": 0.0, "finished": 0.0})

    def interrupt(self) -> None:
        pass


class Quiet:
    def note(self, text):
        pass

    def tick(self):
        pass

    def match_done(self, row, result):
        pass

    def replan(self, counts):
        pass


def test_refine_adds_deal_sets_among_the_top_until_their_intervals_separate(tmp_path):
    from pokerbots.server.tournament import results_store
    from pokerbots.server.tournament.director import Director
    from pokerbots.server.tournament.entrants import Entrant

    names = ["a", "b", "c", "d"]
    options = {"game": "kuhn", "game_options": {}, "players": 3, "hands": 10, "rounds": 1,
               "duplicate": True, "max_faults": 3, "refine": 3, "refine_steps": 4,
               "limits": {}}
    field = [Entrant(n, n, "/x", (), False, "0" * 64) for n in names]
    results = results_store.create(tmp_path, options, 5, field,
                           plan.matches(names, 3, rounds=1, duplicate=True, seed=5))
    Director(results, tmp_path, FakePool("a"), Quiet(), limits={}).run()
    rows = results.matches()
    first = [r for r in rows if r["phase"] == 0]
    extra = [r for r in rows if r["phase"] > 0]
    assert len(first) == 24 and all(r["status"] == "done" for r in rows)
    assert extra, "the top three were separated after the round robin"
    rules = standings.rules_of(options)
    steps = max(r["phase"] for r in rows)
    for phase in range(1, steps + 1):  # each step: the one table of the top three then
        before = [r for r in rows if r["phase"] < phase]
        top = {line["name"] for line in standings.table(before, names, rules)[:3]}
        assert not standings.separated(standings.table(before, names, rules), 3)
        step = [r for r in rows if r["phase"] == phase]
        assert len(step) == 6 and all(set(r["seating"]) == top for r in step)
        assert len({r["deal_set"] for r in step}) == 1
    lines = standings.table(rows, names, rules)
    assert steps == 4 or standings.separated(lines, 3)
    assert lines[0]["name"] == "a"

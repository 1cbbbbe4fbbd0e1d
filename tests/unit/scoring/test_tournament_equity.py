"""All-in equity (games/equity.py) against independent computations with eval7, and in a
real no-limit tournament: each qualifying hand's values in hands.jsonl, the adjusted figures in
the standings.

The oracles here enumerate or sample boards with eval7 directly and split the pots with their
own arithmetic, so a mistake in the replay through the betting engine shows up.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import eval7
import pytest

from pokerbots.server.games import make_game
from pokerbots.server.games.base import Deal
from pokerbots.server.games.engine.betting import Hand
from pokerbots.server.scoring.equity import SAMPLES, allin_values

from processes import pokerbots

ROOT = Path(__file__).resolve().parents[3]


def play_hand(game, deal: Deal, stacks, *, shove_on: int, button: int = 0) -> dict:
    """Everyone checks or calls until street ``shove_on``, where whoever may raise goes all-in;
    returns the hand's record as the referee writes it."""
    hand = Hand(game, button, deal, stacks)
    actions = []
    while hand.to_act is not None:
        seat, street, legal = hand.to_act, hand.street, hand.legal()
        if street == shove_on and legal.raise_max is not None:
            hand.raise_to(legal.raise_max)
            actions.append([seat, "BET", legal.raise_max, street])
        else:
            hand.call()
            actions.append([seat, "BET", legal.call, street])
    return {"hand": 0, "button": button,
            "cards": [" ".join(hand.holes[s]) for s in range(len(stacks))],
            "actions": actions, "board": list(deal.board[:hand.revealed]),
            "stacks_start": list(stacks), "deltas": hand.deltas, "totals": list(hand.total)}


def deal_of(holes: list[str], board: str) -> Deal:
    return Deal(tuple((h[:2], h[2:]) for h in holes), tuple(board.split()))


def oracle_deltas(holes, board, totals) -> list[float]:
    """The pot split by hand: each level of contribution is a pot among those who reached it
    (here nobody folded), shared equally by its best hands (odd chips left out: the engine's
    go one each to the first winners, which the tests avoid by even pots)."""
    scores = [eval7.evaluate([eval7.Card(c) for c in (*hole, *board)]) for hole in holes]
    n = len(holes)
    won = [0.0] * n
    previous = 0
    for level in sorted(set(totals)):
        pot = sum(min(t, level) - min(t, previous) for t in totals)
        eligible = [s for s in range(n) if totals[s] >= level]
        best = max(scores[s] for s in eligible)
        winners = [s for s in eligible if scores[s] == best]
        for s in winners:
            won[s] += pot / len(winners)
        previous = level
    return [won[s] - totals[s] for s in range(n)]


def test_an_all_in_on_the_flop_with_side_pots_is_worth_its_exact_expectation():
    game = make_game("holdem-nl", 3)
    holes = ["AhAs", "KdKc", "7s8s"]
    deal = deal_of(holes, "2s 9s Tc 3d 4h")
    record = play_hand(game, deal, [600, 1000, 2000], shove_on=1)
    assert record["board"] == list(deal.board)  # run out at once: no more decisions
    totals = record["totals"]
    assert totals == [600, 1000, 1000]  # the 2000 stack's uncalled chips went back
    values = allin_values(game, record, random.Random(0))
    known = ("2s", "9s", "Tc")
    dead = {c for h in holes for c in (h[:2], h[2:])} | set(known)
    rest = [c for c in game.deck if c not in dead]
    expected = [0.0, 0.0, 0.0]
    boards = list(itertools.combinations(rest, 2))
    split = [[h[:2], h[2:]] for h in holes]
    for extra in boards:
        for s, d in enumerate(oracle_deltas(split, known + extra, totals)):
            expected[s] += d / len(boards)
    assert values == pytest.approx(expected, abs=1e-4)
    assert sum(values) == pytest.approx(0, abs=1e-4)
    assert values != record["deltas"]


def test_a_hand_that_reaches_the_river_or_is_folded_is_not_adjusted():
    game = make_game("holdem-nl", 2)
    deal = deal_of(["AhAs", "KdKc"], "2c 7d 9h Ts 3s")
    assert allin_values(game, play_hand(game, deal, [2000, 2000], shove_on=3),
                        random.Random(0)) is None
    checked = play_hand(game, deal, [2000, 2000], shove_on=9)
    assert allin_values(game, checked, random.Random(0)) is None
    folded = dict(checked, actions=[[0, "FOLD", 5, 0]])
    assert allin_values(game, folded, random.Random(0)) is None


def test_before_the_flop_an_unbiased_sample_of_boards_is_used():
    game = make_game("holdem-nl", 2)
    deal = deal_of(["AhAs", "KdKc"], "2c 7d 9h Ts 3s")
    record = play_hand(game, deal, [2000, 2000], shove_on=0)
    assert record["totals"] == [2000, 2000]
    values = allin_values(game, record, random.Random(42))
    assert values == allin_values(game, record, random.Random(42))  # seeded: reproducible
    # An independent, larger sample with eval7 alone.
    rng = random.Random(7)
    hole = [[eval7.Card(c) for c in ("Ah", "As")], [eval7.Card(c) for c in ("Kd", "Kc")]]
    rest = [eval7.Card(c) for c in game.deck if c not in ("Ah", "As", "Kd", "Kc")]
    n = 40_000
    margin = 0
    for _ in range(n):
        board = rng.sample(rest, 5)
        a, b = eval7.evaluate(hole[0] + board), eval7.evaluate(hole[1] + board)
        margin += (a > b) - (a < b)
    oracle = 2000 * margin / n
    # Each estimate's standard error is at most 2000 / sqrt(samples).
    tolerance = 4 * 2000 * (1 / SAMPLES + 1 / n) ** 0.5
    assert abs(values[0] - oracle) < tolerance and values[1] == -values[0]
    assert 1200 < oracle < 1400  # aces against kings: about 82% to 18%


@pytest.mark.slow
def test_a_no_limit_tournament_records_adjusted_hands_and_standings(tmp_path):
    out = tmp_path / "t"
    bot = f"{ROOT / 'bots' / 'random_bot.py'} --all-in 1"
    result = pokerbots("tournament", f"a={bot} --seed 1", f"b={bot} --seed 2", "--game",
                       "holdem-nl", "--duplicate", "--hands", "20", "--rounds", "2", "--seed", "3",
                       "--out", out,
                       "--jobs", "2")
    assert result.returncode == 0, result.stderr
    document = json.loads((out / "standings.json").read_text())
    adjusted = 0
    for folder in (out / "matches").iterdir():
        for line in (folder / "hands.jsonl").read_text().splitlines():
            record = json.loads(line)
            if "allin_adjusted" in record:
                adjusted += 1
                assert sum(record["allin_adjusted"]) == pytest.approx(0, abs=1e-3)
    assert adjusted > 0
    for line in document["bots"]:
        assert line["allin_adjusted_per_hand"] is not None
        assert line["allin_adjusted_stderr"] is not None
    a, b = sorted(document["bots"], key=lambda x: x["name"])
    assert a["allin_adjusted_per_hand"] == pytest.approx(-b["allin_adjusted_per_hand"],
                                                         abs=1e-5)
    assert "all-in adjusted per hand" in (out / "report.html").read_text()

"""The luck-adjusted estimator (games/luck.py) and its place in a tournament.

In-process hands on the real betting engine check that every hand's adjusted values sum to
exactly zero in every game, and, by enumerating every deal of Kuhn and Leduc, that each chance
event's correction has mean zero exactly (so E[adjusted] = E[result] for any fixed bots). Real
tournaments check the hands.jsonl field, the store's sums, reruns byte for byte, identical
bots at exactly 0, ``adjust: false``, an old store, and (slow) that the luck-adjusted
intervals cover the exact Kuhn values about 95% of the time.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest

from pokerbots.server.games import make_game
from pokerbots.server.games.base import Deal
from pokerbots.server.games.engine.betting import Hand
from pokerbots.server.scoring.equity import Showdowns
from pokerbots.server.scoring.luck import SCALE, LuckAdjuster
from pokerbots.server.tournament import results_store, standings
from pokerbots.server.tournament.entrants import parse_entrants
from pokerbots.server.tournament.job import job_for, play_match_job
from pokerbots.server.tournament.plan import Planned

from kuhn_exact import caller, position_values, three_player, two_player
from processes import pokerbots

ROOT = Path(__file__).resolve().parents[3]
CALL = ROOT / "bots" / "call_bot.py"
RANDOM = ROOT / "bots" / "random_bot.py"
KUHN2 = ROOT / "bots" / "kuhn_2p_equilibrium.py"
KUHN3 = ROOT / "bots" / "kuhn_3p_equilibrium.py"

GAMES = [("kuhn", 2), ("kuhn", 3), ("leduc", 2), ("leduc", 3), ("holdem-nl", 2),
         ("holdem-nl", 3), ("holdem-limit", 3)]


def play(game, deal: Deal, button: int, policy) -> dict:
    """One hand on the betting engine, each decision ``policy(hand, seat, legal)`` (a word:
    fold, call or raise); its record as the referee writes it."""
    hand = Hand(game, button, deal, game.structure.stacks)
    forced = list(hand.forced)
    actions = []
    while hand.to_act is not None:
        seat, street, legal = hand.to_act, hand.street, hand.legal()
        word = policy(hand, seat, legal)
        if word == "fold" and legal.can_fold:
            hand.fold()
            actions.append([seat, "FOLD", legal.front, street])
        elif word == "raise" and legal.can_raise:
            hand.raise_to(legal.raise_max if game.structure.no_limit else legal.raise_min)
            actions.append([seat, "BET", hand.front[seat], street])
        else:
            hand.call()
            actions.append([seat, "BET", legal.call, street])
    return {"hand": 0, "button": button,
            "cards": [" ".join(hand.holes[s]) for s in range(game.players)],
            "forced": forced, "actions": actions, "deltas": list(hand.deltas), **hand.record()}


def random_policy(rng: random.Random):
    return lambda hand, seat, legal: rng.choice(["fold", "call", "call", "raise"])


def luck_of(game, record: dict, adjuster: LuckAdjuster, salt: str = "") -> list[float]:
    showdowns = Showdowns(game, record, lambda: random.Random(f"{salt}:{record['hand']}"))
    return adjuster.adjust(record, showdowns)


@pytest.mark.parametrize("name, players", GAMES)
def test_every_hand_sums_to_exactly_zero_in_every_game(name, players):
    game = make_game(name, players)
    rng = random.Random(f"{name}{players}")
    adjuster = LuckAdjuster(game)
    moved = 0
    for number in range(30):
        record = play(game, game.deal(rng), number % players, random_policy(rng))
        record["hand"] = number
        values = luck_of(game, record, adjuster)
        assert sum(values) == 0, values
        assert all((v * SCALE).is_integer() for v in values)
        moved += values != [float(d) for d in record["deltas"]]
    assert moved > 10  # the luck is taken out, not left alone



@pytest.mark.parametrize("name", ["holdem-nl", "holdem-limit", "leduc"])
def test_ranking_only_the_seats_in_at_the_flop_changes_no_value(name):
    """A duplicate tournament's worker ranks only the seats still in when the first board
    card comes (job._in_at_the_flop): the same boards, so the same luck and all-in values as
    ranking every seat, whoever folded."""
    from pokerbots.server.scoring.equity import allin_values
    from pokerbots.server.tournament.job import _in_at_the_flop

    game = make_game(name, 4)
    rng = random.Random(name)
    narrowed = 0
    for number in range(40):
        record = play(game, game.deal(rng), number % 4, random_policy(rng))
        record["hand"] = number
        ranked = _in_at_the_flop(4, record)
        narrowed += len(ranked) < 4
        values = []
        for seats in (None, ranked):
            showdowns = Showdowns(game, record, lambda n=number: random.Random(n), seats=seats)
            values.append((LuckAdjuster(game, learn=False).adjust(record, showdowns),
                           allin_values(game, record, None, showdowns=showdowns)))
        assert values[0] == values[1], (number, record["actions"])
    assert narrowed > 10  # seats did fold before the flop

def all_deals(game) -> list[Deal]:
    """Every deal of a small deck, each card position distinct: all equally likely."""
    n, k = game.players, game.board_cards
    found = []
    for cards in itertools.permutations(range(len(game.deck)), n + k):
        found.append(Deal(tuple((game.deck[c],) for c in cards[:n]),
                          tuple(game.deck[c] for c in cards[n:])))
    return found


def strong_policy(game, deal: Deal):
    """Deterministic play that depends on the cards: raise the best hand on the board so far
    (or a high card), call a middle one, fold the rest."""
    def decide(hand, seat, legal):
        board = deal.board[:hand.revealed]
        mine = game.rank(deal.holes[seat], board or deal.holes[seat])
        ranks = sorted(game.rank(h, board or h) for h in deal.holes)
        if mine == ranks[-1]:
            return "raise"
        return "call" if mine >= ranks[len(ranks) // 2] else "fold"
    return decide


@pytest.mark.parametrize("name, players", [
    ("kuhn", 2), ("kuhn", 3), ("leduc", 2),
    pytest.param("leduc", 3, marks=pytest.mark.slow)])  # 1,680 deals x 3 buttons: 10 s
def test_each_correction_has_mean_zero_over_every_deal(name, players):
    """With a learnt slope (after a few hands), the mean over every deal of the adjusted
    result equals the mean result, exactly up to the 1/1024 rounding; and the adjustment does
    take the luck out: the variance falls."""
    game = make_game(name, players)
    rng = random.Random(1)
    warm = LuckAdjuster(game)
    for number in range(20):
        record = play(game, game.deal(rng), number % players, random_policy(rng))
        luck_of(game, record, warm)
    for button in range(players):
        results, adjusted = [], []
        for deal in all_deals(game):
            record = play(game, deal, button, strong_policy(game, deal))
            # a copy of the learnt slope for each deal; the game itself is shared (the
            # compiled build's frozen classes cannot be deep-copied, nor need to be)
            values = luck_of(game, record, copy.deepcopy(warm, {id(game): game}))
            results.append(record["deltas"])
            adjusted.append(values)
        count = len(results)
        for seat in range(players):
            mean = Fraction(sum(r[seat] for r in results), count)
            mean_adjusted = sum(Fraction(a[seat]) for a in adjusted) / count
            assert abs(mean_adjusted - mean) <= Fraction(1, SCALE), (seat, mean, mean_adjusted)
            spread = sum((r[seat] - mean) ** 2 for r in results)
            spread_adjusted = sum((Fraction(a[seat]) - mean) ** 2 for a in adjusted)
            assert spread_adjusted < spread


# -- tournaments --------------------------------------------------------------------------------


def store_rows(out: Path) -> tuple[list[dict], standings.Rules]:
    store = results_store.open_store(out)
    try:
        return store.matches(), standings.rules_of(store.meta("options"))
    finally:
        store.close()


def match_hands(out: Path) -> dict[str, bytes]:
    return {folder.name: (folder / "hands.jsonl").read_bytes()
            for folder in sorted((out / "matches").iterdir())}


@pytest.mark.slow
def test_identical_bots_score_exactly_zero_and_a_rerun_writes_the_same_bytes(tmp_path):
    bot = f"{RANDOM} --seed 4"
    runs = []
    for run in ("first", "second"):
        out = tmp_path / run
        result = pokerbots("tournament", f"a={bot}", f"b={bot}", "--game", "holdem-nl",
                           "--duplicate", "--hands", "25", "--rounds", "2", "--seed", "8",
                           "--out", out, "--jobs", "2", timeout=120)
        assert result.returncode == 0, result.stderr
        runs.append(out)
    first, second = (match_hands(out) for out in runs)
    assert len(first) == 4 and first == second  # byte for byte, whichever worker played
    rows, rules = store_rows(runs[0])
    for row in rows:
        records = [json.loads(line) for line in first[Path(row["log_dir"]).name].splitlines()]
        assert all(sum(r["luck_adjusted"]) == 0 for r in records)
        sums = [sum(r["luck_adjusted"][s] for r in records) for s in range(2)]
        assert row["luck_bankrolls"] == sums
    lucky = standings.units(rows, rules, "luck_bankrolls")
    for name in ("a", "b"):
        cells = list(lucky[name].values())
        assert len(cells) == 2 and all(x == 0 and n == 50 for x, n in cells)
    assert any(v != 0 for row in rows for v in row["luck_bankrolls"])  # each match is not


def job_of(tmp_path: Path, **extra) -> dict:
    entrants = {e.name: e for e in parse_entrants([f"a={CALL}", f"b={RANDOM} --seed 3"])}
    planned = Planned(0, 0, 0, ("a", "b"), 12345, 0)
    job = job_for({"id": 1, "seed": planned.seed, "button": 0, "seating": planned.seating},
                  folder=tmp_path / "m", entrants=entrants,
                  options={"game": "holdem-nl", "game_options": {}, "hands": 15},
                  limits=_limits(), transcripts="none", **extra)
    return job


def _limits() -> dict:
    from pokerbots.server.play.options import limits_as_dict, limits_from_options

    return limits_as_dict(limits_from_options())


def test_a_job_without_adjustment_writes_neither_field(tmp_path):
    job = job_of(tmp_path, adjust=False)
    assert job["adjust"] is False
    result = play_match_job(job)
    assert result["status"] == "done", result
    assert "luck_bankrolls" not in result and "allin_bankrolls" not in result
    text = (tmp_path / "m" / "hands.jsonl").read_text()
    assert "luck_adjusted" not in text and "allin_adjusted" not in text

    old = job_of(tmp_path)  # a job written before the option: adjusted
    del old["adjust"]
    result = play_match_job(old)
    assert result["status"] == "done", result
    records = [json.loads(line) for line in (tmp_path / "m" / "hands.jsonl").open()]
    assert len(records) == 15 and all("luck_adjusted" in r for r in records)
    assert result["luck_bankrolls"] == [sum(r["luck_adjusted"][s] for r in records)
                                        for s in range(2)]
    assert len(result["allin_bankrolls"]) == 2


def test_a_store_written_before_the_luck_column_opens_and_takes_it(tmp_path):
    planned = [Planned(0, 0, 0, ("a", "b"), 7, 0)]
    entrants = parse_entrants([f"a={CALL}", f"b={CALL}"])
    store = results_store.create(tmp_path, {"game": "kuhn"}, 1, entrants, planned)
    store.close()
    db = sqlite3.connect(tmp_path / results_store.FILE)
    db.execute("ALTER TABLE matches DROP COLUMN luck_bankrolls")  # as an old version made it
    db.commit()
    db.close()
    store = results_store.open_store(tmp_path)
    assert store.matches()[0]["luck_bankrolls"] is None
    store.finish({"id": 1, "status": "done", "hands": 3, "bankrolls": [1, -1],
                  "luck_bankrolls": [0.5, -0.5], "log_dir": "x", "seconds": 1.0,
                  "started": 0.0, "finished": 1.0})
    assert store.matches()[0]["luck_bankrolls"] == [0.5, -0.5]
    store.close()


@pytest.mark.slow
@pytest.mark.parametrize("game", ["kuhn", "leduc", "holdem-limit", "holdem-nl"])
def test_identical_bots_at_three_seats_score_exactly_zero_in_every_game(tmp_path, game):
    bot = f"{RANDOM} --seed 6"
    out = tmp_path / "t"
    result = pokerbots("tournament", f"a={bot}", f"b={bot}", f"c={bot}", "--game", game,
                       "--duplicate", "--hands", "40", "--seed", "2", "--out", out,
                       "--jobs", "2", timeout=300)
    assert result.returncode == 0, result.stderr
    rows, rules = store_rows(out)
    lucky = standings.units(rows, rules, "luck_bankrolls")
    for name in "abc":
        assert list(lucky[name].values()) == [[0, 240]]
    assert any(v != 0 for row in rows for v in row["luck_bankrolls"])


# -- honest intervals (slow) --------------------------------------------------------------------


def coverage(out: Path, name: str, value: Fraction,
             groups: int) -> tuple[int, float, bool]:
    """How many of ``groups`` interleaved groups of deal sets have a luck-adjusted 95%
    interval covering ``value``, the spread of their estimates over the claimed variance,
    and whether the whole tournament's luck-adjusted standard error is below the raw one."""
    rows, rules = store_rows(out)
    whole = [standings.estimate(standings.units(rows, rules, key)[name].values())[1]
             for key in ("luck_bankrolls", "bankrolls")]
    covered, spread, claimed = 0, 0.0, 0.0
    for g in range(groups):
        group = [r for r in rows if r["deal_set"] % groups == g]
        per_hand, stderr, k = standings.estimate(
            standings.units(group, rules, "luck_bankrolls")[name].values())
        half = standings.t975(k - 1) * stderr
        covered += per_hand - half <= value <= per_hand + half
        spread += (per_hand - float(value)) ** 2
        claimed += stderr ** 2
    return covered, spread / claimed, whole[0] < whole[1]


@pytest.mark.slow
def test_luck_adjusted_intervals_cover_the_exact_two_player_kuhn_value(tmp_path, call_bot):
    """As the raw intervals' test (test_tournament_slow.py), but without --duplicate, where
    the deal's slope is learnt (in a duplicate Kuhn deal set the deal's correction cancels
    out: the interval is the raw one): the 2-player equilibrium (alpha 1/5) against an
    always-call bot (call_bots': the C one where it builds), 150 matches in 25 groups of 6
    (each group holds each seat 3 times)."""
    alpha = Fraction(1, 5)
    value = (position_values([two_player(alpha), caller])[0]
             + position_values([caller, two_player(alpha)])[1]) / 2
    out = tmp_path / "t"
    result = pokerbots("tournament", f"eq={KUHN2} --alpha 1/5", f"call={call_bot}",
                       "--hands", "200", "--rounds", "150", "--seed", "15", "--out", out,
                       "--jobs", "2", "--transcripts", "none", timeout=900)
    assert result.returncode == 0, result.stderr
    covered, ratio, narrower = coverage(out, "eq", value, 25)
    # 19 or more of 25 cover (binomial, 95%: fails an honest estimator about once in a
    # thousand runs); the spread matches the claimed standard errors.
    assert covered >= 19, covered
    assert 0.2 < ratio < 2.5, ratio
    assert narrower  # and the luck is taken out


@pytest.mark.slow
def test_luck_adjusted_intervals_cover_the_exact_three_player_kuhn_values(tmp_path, call_bot):
    """Two members of the 3-player equilibrium family and an always-call bot, without
    --duplicate (a deal set's seating turns with its number), 198 hands (every seat holds
    the button equally often), 96 matches in 16 groups of 6 (each group sits every bot in
    every seat twice): each bot's exact value is its mean over the seatings and buttons of
    its position values."""
    members = {"p": {}, "q": dict(b11=Fraction(1, 10), b21=Fraction(1, 4), b32=Fraction(1, 2),
                                  c33=Fraction(1, 5), c34=Fraction(1, 3))}
    defaults = {"b11": 0, "b21": 0, "b23": 0, "b32": Fraction(1, 4), "c11": 0,
                "c33": Fraction(1, 4), "c34": 0}
    policies = {"call": caller}
    arguments = [f"call={call_bot}"]
    for name, member in members.items():
        policies[name] = three_player(**{**defaults, **member})
        flags = " ".join(f"--{k} {v}" for k, v in member.items())
        arguments.append(f"{name}={KUHN3} {flags}".strip())
    names = list(policies)
    values = {name: Fraction(0) for name in names}
    for turn in range(3):
        seating = names[turn:] + names[:turn]
        for button in range(3):
            by_position = [seating[(button + 1 + pos) % 3] for pos in range(3)]
            worth = position_values([policies[b] for b in by_position])
            for pos, name in enumerate(by_position):
                values[name] += worth[pos] / 9
    out = tmp_path / "t"
    result = pokerbots("tournament", *arguments, "--hands", "198", "--rounds", "96",
                       "--seed", "16", "--out", out, "--jobs", "2", "--transcripts", "none",
                       timeout=1800)
    assert result.returncode == 0, result.stderr
    for name, value in values.items():
        covered, ratio, _ = coverage(out, name, value, 16)
        assert covered >= 11, (name, covered)  # binomial(16, 0.95): 1 in 10,000 below
        assert 0.2 < ratio < 2.8, (name, ratio)

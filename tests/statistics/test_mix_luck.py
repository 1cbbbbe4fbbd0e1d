"""Mixed replies in the luck-adjusted figure, on real tournaments of the bundled bots answering
with their mixes (``--mix``): identical bots score exactly 0, and a duplicate 3-player Kuhn
tournament of equilibrium and random bots has luck-adjusted intervals that cover each bot's
exactly known value (enumerated in kuhn_exact) as often as they claim, from independent units
(the deal sets: every seating of one shares its cards and, through the match seed, its
draws; different deal sets share nothing, and each match learns its bots' play from its own
hands only). All slow: they run in CI."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from pokerbots.server.tournament import results_store, standings

from kuhn_exact import duplicate_values, three_player, uniform
from processes import pokerbots

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
RANDOM = ROOT / "bots" / "random_bot.py"
KUHN3 = ROOT / "bots" / "kuhn_3p_equilibrium.py"

#: A second member of the 3-player equilibrium family (family A), beside the default one.
MEMBER = {"b11": Fraction(1, 10), "b21": Fraction(1, 4), "b32": Fraction(1, 2),
          "c33": Fraction(1, 5), "c34": Fraction(1, 3)}


def store_rows(out: Path) -> tuple[list[dict], standings.Rules]:
    store = results_store.open_store(out)
    try:
        return store.matches(), standings.rules_of(store.meta("options"))
    finally:
        store.close()


@pytest.mark.parametrize("game, bot", [("kuhn", f"{KUHN3} --mix"),
                                       ("holdem-nl", f"{RANDOM} --mix --seed 4")],
                         ids=["kuhn", "holdem-nl"])
def test_identical_mixing_bots_score_exactly_zero(tmp_path, game, bot):
    """Three copies of one mixing bot: every seating of a deal set plays the same hands (the
    same cards by seat, the same draws), so each bot's luck-adjusted sum over a deal set is
    exactly 0, while single matches are not, and every hand with a mix sums to 0."""
    out = tmp_path / "t"
    result = pokerbots("tournament", f"a={bot}", f"b={bot}", f"c={bot}", "--game", game,
                       "--duplicate", "--hands", "40", "--rounds", "2", "--seed", "5",
                       "--out", out, "--jobs", "2", timeout=300)
    assert result.returncode == 0, result.stderr
    rows, rules = store_rows(out)
    lucky = standings.units(rows, rules, "luck_bankrolls")
    for name in "abc":
        assert sorted(lucky[name].values()) == [[0, 240], [0, 240]]
    assert any(v != 0 for row in rows for v in row["luck_bankrolls"])
    mixed = 0
    for folder in (out / "matches").iterdir():
        for line in (folder / "hands.jsonl").read_text().splitlines():
            record = json.loads(line)
            mixed += "mixes" in record
            assert sum(record["luck_adjusted"]) == 0
    assert mixed > 100


def test_duplicate_kuhn_luck_adjusted_intervals_cover_the_exact_values(tmp_path):
    """The default 3-player equilibrium, a second member of its family and the random bot,
    all answering with their mixes: 48 deal sets of 300 hands (288 matches), in 16 groups of
    3 deal sets. Each bot's luck-adjusted 95% interval of a group covers its exact value in
    11 or more of the 16 groups (binomial: an honest estimator fails this about once in
    ten thousand runs), the groups' estimates spread as their claimed standard errors say,
    the whole tournament's estimate is within 3.3 standard errors of the exact value, and
    its luck-adjusted standard error is at most 0.6 of the raw one."""
    policies = {"eq": three_player(), "member": three_player(**MEMBER), "random": uniform}
    values = duplicate_values(policies)
    flags = " ".join(f"--{k} {v}" for k, v in MEMBER.items())
    out = tmp_path / "t"
    result = pokerbots("tournament", f"eq={KUHN3} --mix", f"member={KUHN3} --mix {flags}",
                       f"random={RANDOM} --mix", "--game", "kuhn", "--duplicate",
                       "--hands", "300", "--rounds", "48", "--seed", "35", "--out", out,
                       "--jobs", "2", "--transcripts", "none", timeout=3600)
    assert result.returncode == 0, result.stderr
    rows, rules = store_rows(out)
    groups = 16
    for name, value in values.items():
        per_hand, stderr, units = standings.estimate(
            standings.units(rows, rules, "luck_bankrolls")[name].values())
        _, raw_stderr, _ = standings.estimate(
            standings.units(rows, rules, "bankrolls")[name].values())
        assert units == 48
        assert abs(per_hand - float(value)) < 3.3 * stderr, (name, per_hand, value, stderr)
        assert stderr < 0.6 * raw_stderr, (name, stderr, raw_stderr)
        covered, spread, claimed = 0, 0.0, 0.0
        for g in range(groups):
            group = [r for r in rows if r["deal_set"] % groups == g]
            estimate, error, k = standings.estimate(
                standings.units(group, rules, "luck_bankrolls")[name].values())
            assert k == 3
            half = standings.t975(k - 1) * error
            covered += estimate - half <= value <= estimate + half
            spread += (estimate - float(value)) ** 2
            claimed += error ** 2
        assert covered >= 11, (name, covered)
        assert 0.2 < spread / claimed < 2.8, (name, spread / claimed)

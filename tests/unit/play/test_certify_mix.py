"""pokerbots certify's mixed-reply cases: each game declares the decisions where a mixed reply
(PROTOCOL.md, "Mixed replies") is most easily got wrong, and each case catches the mistake a
mixing bot makes there (tests/programs/certify_bots/careless_mixer.py plants one), with the server's
paragraph naming the item; a bot that mixes correctly, and the bundled bots with --mix, pass."""

from __future__ import annotations

import pytest

from pokerbots.server.play.certify import cases_for

from certifying import ROOT, certify, outcomes

MIXING = ROOT / "tests" / "programs" / "certify_bots" / "careless_mixer.py"
GAMES = ("kuhn", "leduc", "holdem-nl", "holdem-limit")

#: Each planted bug: the (game, case) that must catch it, and what the server says.
CAUGHT = {
    "repeated item": ({(game, "mix: one raise size") for game in GAMES},
                      "repeats the reply of item"),
    "illegal item": ({("kuhn", "mix: no raise allowed"), ("leduc", "raise cap"),
                      ("holdem-nl", "mix: no raise allowed"), ("holdem-limit", "raise cap")},
                     "is not legal here: BET"),
    "zero weight": ({(game, "mix: a sure answer") for game in GAMES},
                    "has the weight '0': a weight is a whole number from 1 to 1000000"),
    "malformed mix": ({("holdem-nl", "mix: a wide raise range")},
                      "is one too many: a mix has at most 64 items"),
}


def mix_cases(game: str) -> list[str]:
    """The game's cases named after a mixed reply's mistakes, and the raise cap."""
    return [c.name for c in cases_for(game) if c.name.startswith("mix: ") or
            c.name == "raise cap"]


def certify_cases(bot: str, game: str, names) -> dict[tuple[str, str], str]:
    proc = certify(bot, "--game", game, *[arg for name in names for arg in ("--case", name)])
    return proc, outcomes(proc.stdout)


def test_every_game_has_its_mixed_reply_cases():
    for game in GAMES:
        names = mix_cases(game)
        assert {"mix: one raise size", "mix: a sure answer"} <= set(names)
        assert "mix: no raise allowed" in names or "raise cap" in names
    assert "mix: a wide raise range" in mix_cases("holdem-nl")


def test_a_mix_that_repeats_an_item_fails_the_case_of_one_raise_size_naming_it():
    proc, seen = certify_cases(f"{MIXING} repeated item", "kuhn", ["mix: one raise size"])
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert seen == {("kuhn", "mix: one raise size"): "FAIL"}
    assert ("item 3 of the mix, '1 BET 2', repeats the reply of item 2: each reply may appear"
            " once in a mix") in proc.stdout
    assert "The bot replied: 'MIX 2 BET 1,1 BET 2,1 BET 2'" in proc.stdout
    proc, seen = certify_cases(f"{MIXING} none", "kuhn", ["mix: one raise size"])
    assert proc.returncode == 0 and seen == {("kuhn", "mix: one raise size"): "PASS"}


@pytest.mark.slow
@pytest.mark.parametrize("bug", list(CAUGHT))
def test_each_planted_mixing_bug_fails_the_case_named_after_its_situation(bug):
    cases, says = CAUGHT[bug]
    for game in sorted({game for game, _ in cases}):
        names = [name for g, name in cases if g == game]
        proc, seen = certify_cases(f"{MIXING} {bug}", game, names)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert seen == {(game, name): "FAIL" for name in names}, proc.stdout
        assert proc.stdout.count(says) >= len(names), proc.stdout


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_a_bot_that_mixes_correctly_passes_every_mixed_reply_case(game):
    proc, seen = certify_cases(f"{MIXING} none", game, mix_cases(game))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert seen == {(game, name): "PASS" for name in mix_cases(game)}


@pytest.mark.slow
def test_the_bundled_random_bot_mixing_passes_every_case_of_every_game():
    proc = certify("bots/random_bot.py --mix")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    seen = outcomes(proc.stdout)
    assert set(seen.values()) <= {"PASS", "SKIP"}  # SKIP: not reached (its own bet went around)
    assert len(seen) == sum(len(cases_for(g)) for g in GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("bot, cases", [
    ("bots/kuhn_2p_equilibrium.py --mix", ["heads-up"]),
    ("bots/kuhn_3p_equilibrium.py --mix", ["3 players", "end of round while waiting",
                                           "mix: one raise size", "mix: no raise allowed",
                                           "mix: a sure answer"]),
])
def test_the_bundled_kuhn_equilibrium_bots_mixing_pass_the_cases_of_their_tables(bot, cases):
    proc, seen = certify_cases(bot, "kuhn", cases)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert seen == {("kuhn", name): "PASS" for name in cases}

"""Mixed replies end to end: ``pokerbots run`` with real bot processes sending ``MIX`` lines
(tests/programs/mix_bot.py).

A match of mixing bots records every mix, draws each as MIX-SPEC.md says (each hand's own
``random.Random(f"{seed}:{hand}:mix")``), deals the same cards as a match without mixes and
replays exactly from its seed; a mix that breaks a rule ends the match with the usual
paragraph naming the item. A bot that never mixes leaves every byte as before: digests of
whole matches recorded with the server as it was before it took mixed replies.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from processes import only_match_dir, pokerbots

ROOT = Path(__file__).resolve().parents[2]
#: As typed, from the checkout (the labels in hands.txt are the bot arguments).
MIXER = "tests/programs/mix_bot.py"
SINGLE = "tests/programs/mix_bot.py --single"
GAMES = ["kuhn", "leduc", "holdem-nl", "holdem-limit"]
FILES = ["hands.jsonl", "hands.txt", "seat0.in", "seat1.in", "seat2.in"]

#: The first 16 hex digits of the SHA-256 of each file of ``pokerbots run SINGLE SINGLE SINGLE
#: --game G --hands 40 --seed 35``, recorded with the server as it was before mixed replies
#: (compiled; the pure-Python server writes the same bytes). SINGLE draws its single replies
#: from POKERBOTS_SEED; a change to mix_bot.py's single mode changes them too.
BEFORE = {
    ("kuhn", "hands.jsonl"): "b8f1dec5ebd07b54",
    ("kuhn", "hands.txt"): "3effb2a9e4d52f9e",
    ("kuhn", "seat0.in"): "919e50e04d97af01",
    ("kuhn", "seat1.in"): "68ff78392bc82925",
    ("kuhn", "seat2.in"): "ff83f5032e19ef36",
    ("leduc", "hands.jsonl"): "6e75b87152195c86",
    ("leduc", "hands.txt"): "b61cf36faaa1980d",
    ("leduc", "seat0.in"): "5024a565778ce5f4",
    ("leduc", "seat1.in"): "fb55a03387becc24",
    ("leduc", "seat2.in"): "6b1b7f5922d35a3e",
    ("holdem-nl", "hands.jsonl"): "b26a8c31c6d334b0",
    ("holdem-nl", "hands.txt"): "ca0005da184a8c7a",
    ("holdem-nl", "seat0.in"): "b2a345dc49a8803e",
    ("holdem-nl", "seat1.in"): "1e04208045d7e7c7",
    ("holdem-nl", "seat2.in"): "6fdfd56c22cb25ed",
    ("holdem-limit", "hands.jsonl"): "b59753972ab8b54d",
    ("holdem-limit", "hands.txt"): "15856b6f5b670a23",
    ("holdem-limit", "seat0.in"): "3712d6ac037de652",
    ("holdem-limit", "seat1.in"): "a447edb1bc8bd275",
    ("holdem-limit", "seat2.in"): "758e3f1d8e605c72",
}


def match(logs: Path, game: str, *bots: str, seed: int = 35, hands: int = 40) -> Path:
    result = pokerbots("run", *bots, "--game", game, "--hands", hands, "--seed", seed,
                       "--logs", logs, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    return only_match_dir(logs)


def records(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "hands.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_that_never_mixes_leaves_every_byte_as_before(tmp_path, game):
    folder = match(tmp_path, game, SINGLE, SINGLE, SINGLE)
    found = {(game, name): hashlib.sha256((folder / name).read_bytes()).hexdigest()[:16]
             for name in FILES}
    assert found == {key: digest for key, digest in BEFORE.items() if key[0] == game}
    assert "mixes" not in (folder / "hands.jsonl").read_text()


@pytest.mark.parametrize("game", ["kuhn", "holdem-nl", *[
    pytest.param(game, marks=pytest.mark.slow) for game in ("leduc", "holdem-limit")]])
def test_a_match_of_mixing_bots_draws_each_mix_as_declared_and_replays_from_its_seed(
        tmp_path, game):
    folder = match(tmp_path / "a", game, MIXER, MIXER, MIXER)
    played = records(folder)
    assert all(record.get("mixes") for record in played)
    seed = json.loads((folder / "summary.json").read_text())["seed"]
    history = (folder / "hands.txt").read_text()
    for record in played:
        rng = random.Random(f"{seed}:{record['hand']}:mix")
        for index, items, drawn in record["mixes"]:
            weights = [weight for weight, _, _ in items]
            point = rng.randrange(sum(weights))
            expected = next(k for k in range(len(items)) if point < sum(weights[:k + 1]))
            assert drawn == expected
            assert record["actions"][index][1:3] == items[drawn][1:]
            assert f" (drawn, {weights[drawn]}/{sum(weights)})\n" in history
    # The same seed: the same match, byte for byte; the cards are those a match without
    # mixes is dealt.
    again = match(tmp_path / "b", game, MIXER, MIXER, MIXER)
    for name in FILES:
        assert (again / name).read_bytes() == (folder / name).read_bytes(), name
    single = records(match(tmp_path / "c", game, SINGLE, SINGLE, SINGLE))
    assert [r["cards"] for r in single] == [r["cards"] for r in played]


def test_a_mix_that_breaks_a_rule_ends_the_match_with_the_paragraph_naming_the_item(tmp_path):
    # Every seat's first decision folds in its mix: the first to act, where checking is
    # free, breaks the rule (with weight 1 beside 5: it would rarely have been drawn).
    bad = f"{MIXER} --first 'MIX 5 BET 1,1 FOLD 1'"
    result = pokerbots("run", bad, bad, bad, "--game", "kuhn", "--hands", 5, "--seed", 3,
                       "--logs", tmp_path, cwd=ROOT)
    assert result.returncode == 1
    summary = json.loads((only_match_dir(tmp_path) / "summary.json").read_text())
    seat = summary["error"]["seat"]
    assert summary["result"] == "failed" and summary["hands_played"] == 0
    assert summary["error"]["received"] == "MIX 5 BET 1,1 FOLD 1"
    assert (f"Bot at seat {seat} ({bad}) failed in hand 0: item 2 of the mix, '1 FOLD 1', is"
            " not legal here: folding is not allowed when checking is free.") in result.stderr
    assert "The bot replied: 'MIX 5 BET 1,1 FOLD 1'" in result.stderr
    assert "Legal replies were: BET 1 (check) or BET 2 (bet)." in result.stderr

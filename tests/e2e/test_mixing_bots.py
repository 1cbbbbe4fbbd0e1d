"""The bundled bots answering with mixes (``--mix``) in real matches: ``pokerbots run`` starts
them, the server draws each action from their mixes, and the hand record keeps every mix with
its drawn item, which is the action played; the same seed plays the same match again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from processes import only_match_dir, pokerbots

# Real matches in every game, a few seconds: the default run keeps the mixed replies' own
# end-to-end match (tests/e2e/test_mixed_replies_e2e.py); these run with the slow tests.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "bots"
RANDOM_MIX = f"{BOTS / 'random_bot.py'} --mix"
CALL = str(BOTS / "call_bot.py")


def run(logs: Path, *args) -> list[dict]:
    """``pokerbots run ARGS``: the hand records, after checking that the round completed and
    that every mix's drawn item is the action recorded."""
    result = pokerbots("run", *args, "--json", "--logs", logs, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert json.loads(result.stdout)["result"] == "completed"
    records = [json.loads(line) for line in
               (only_match_dir(logs) / "hands.jsonl").read_text().splitlines()]
    for record in records:
        for index, items, drawn in record.get("mixes", []):
            assert record["actions"][index][1:3] == items[drawn][1:], record
    return records


def mixes_by_seat(records: list[dict]) -> dict[int, list[str]]:
    """Each seat's mixes as ``MIX`` lines, in order of play."""
    found: dict[int, list[str]] = {}
    for record in records:
        for index, items, _ in record.get("mixes", []):
            line = "MIX " + ",".join(f"{w} {word} {value}" for w, word, value in items)
            found.setdefault(record["actions"][index][0], []).append(line)
    return found


def test_random_bot_with_mix_plays_a_real_match_in_every_game(tmp_path):
    for number, game in enumerate(["kuhn", "leduc", "holdem-nl", "holdem-limit"]):
        records = run(tmp_path / game, "-g", game, RANDOM_MIX, RANDOM_MIX, CALL,
                      "--hands", 40, "--seed", number)
        mixes = mixes_by_seat(records)
        assert set(mixes) == {0, 1}, game  # the check/call bot never mixes
        if game == "holdem-nl":  # a wide raise range: 62 sizes, check or call and fold
            assert max(line.count(",") + 1 for line in mixes[0] + mixes[1]) == 64


def test_the_equilibrium_bots_with_mix_send_their_strategies_and_replay_from_the_seed(
        tmp_path):
    two = f"{BOTS / 'kuhn_2p_equilibrium.py'} --mix"
    records = run(tmp_path / "two", two, two, "--hands", 300, "--seed", 7)
    lines = {line for seat in mixes_by_seat(records).values() for line in seat}
    # alpha = 1/6: P1 bluffs a jack 1/6 and bets a king 1/2, calls with a queen 1/2; P2 bets
    # a jack after a check 1/3 and calls with a queen 1/3.
    assert lines == {"MIX 1 BET 2,5 BET 1", "MIX 1 BET 2,1 BET 1", "MIX 1 BET 2,1 FOLD 1",
                     "MIX 1 BET 2,2 BET 1", "MIX 1 BET 2,2 FOLD 1"}

    three = f"{BOTS / 'kuhn_3p_equilibrium.py'} --mix"
    records = run(tmp_path / "three", three, three, three, "--hands", 300, "--seed", 7)
    lines = {line for seat in mixes_by_seat(records).values() for line in seat}
    assert lines == {"MIX 1 BET 2,1 FOLD 1", "MIX 1 BET 2,1 BET 1"}  # the default member
    again = run(tmp_path / "again", three, three, three, "--hands", 300, "--seed", 7)
    assert again == records  # the dealer's draws come from the match's seed

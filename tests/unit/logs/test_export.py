"""``pokerbots export LOGDIR --format phh|acpc``: real matches of the bundled bots, written in the
PokerKit community's hand histories and in the ACPC dealer's log, then read back by the tools of
those communities: PokerKit replays every PHH file to the recorded stacks, and the dealer's own
game.c (tests/support/acpc_log_check.c) parses every STATE line to the logged values.
"""

from __future__ import annotations

import json
import subprocess
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from pokerbots.server.cli.main import main

import acpc_build
import oracle_data
import phh
from processes import only_match_dir

ROOT = Path(__file__).resolve().parents[3]
RANDOM_BOT = str(ROOT / "bots" / "random_bot.py")
CALL_BOT = str(ROOT / "bots" / "call_bot.py")

MATCHES = {
    "ante-stacks": (["--game", "holdem-nl", "--ante", "5", "--stack", "300,250,80"],
                    [f"{RANDOM_BOT} --seed 1", CALL_BOT, f"{RANDOM_BOT} --seed 2"]),
    "limit-2p": (["--game", "holdem-limit"], [f"{RANDOM_BOT} --seed 3", CALL_BOT]),
    "kuhn-3p": (["--game", "kuhn"], [RANDOM_BOT] * 3),  # three copies of one bot
}


@pytest.fixture(scope="module")
def matches(tmp_path_factory) -> dict[str, Path]:
    """One log folder per match of :data:`MATCHES` (30 hands each)."""
    folders = {}
    for name, (options, bots) in MATCHES.items():
        logs = tmp_path_factory.mktemp(name)
        result = CliRunner().invoke(main, ["run", *bots, *options, "--hands", "30", "--seed",
                                           "5", "--logs", str(logs)])
        assert result.exit_code == 0, result.output
        folders[name] = only_match_dir(logs)
    return folders


def export(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["export", *map(str, args)])
    return result.exit_code, " ".join(result.output.split())


def phh_fields(path: Path) -> dict:
    """A PHH file's fields, read with the tests' PHH reader (tests/support/phh.py)."""
    (hand,) = phh.load(path)
    return hand.fields


def records(match: Path) -> list[dict]:
    return [json.loads(line) for line in (match / "hands.jsonl").read_text().splitlines()]


# -- PHH -----------------------------------------------------------------------------------------


def strict_replay(path: Path):
    """PokerKit's ``State`` after every action of the PHH file at ``path``, applied one by one
    in the file's order: an action out of the place where PokerKit's state machine expects it
    raises ValueError (the lenient ``HandHistory`` iterator would step over it)."""
    from pokerkit import HandHistory
    from pokerkit.notation import parse_action

    with open(path, "rb") as f:
        history = HandHistory.load(f)
    state = history.create_state()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns about cards it would not deal
        for action in history.actions:
            if action.startswith("d db") and state.can_burn_card():
                state.burn_card("??")
            try:
                parse_action(state, action)
            except ValueError as exc:
                raise AssertionError(f"{path.name}: {action!r} refused: {exc}") from None
    assert not state.status, f"{path.name}: the hand is not over after its last action"
    return state


@pytest.mark.parametrize("name", ["ante-stacks", "limit-2p"])
def test_pokerkit_replays_every_phh_file_to_the_recorded_stacks(matches, name):
    match = matches[name]
    code, output = export(match, "--format", "phh")
    assert code == 0 and f"Wrote 30 PHH files to {match / 'export-phh'}" in output
    run_outs = 0
    for record in records(match):
        path = match / "export-phh" / f"hand{record['hand']:06d}.phh"
        fields = phh_fields(path)
        seats = [s - 1 for s in fields["seats"]]
        assert fields["finishing_stacks"] == [record["stacks_end"][s] for s in seats]
        state = strict_replay(path)
        assert list(state.stacks) == fields["finishing_stacks"], path.name
        actions = fields["actions"]
        shown = [i for i, a in enumerate(actions) if " sm " in a]
        run_outs += bool(shown) and actions[-1].startswith("d db")
    if name == "ante-stacks":  # short stacks: hands go all-in before the river
        assert run_outs >= 3


def test_a_phh_file_says_what_the_hand_was(matches):
    match = matches["ante-stacks"]
    export(match, "--format", "phh")
    record = records(match)[0]
    fields = phh_fields(match / "export-phh" / "hand000000.phh")
    button = record["button"]
    seats = [(button + k) % 3 for k in (1, 2, 3)]  # p1 left of the button, the button last
    summary = json.loads((match / "summary.json").read_text())
    assert fields["variant"] == "NT" and fields["min_bet"] == 10
    assert fields["antes"] == [5, 5, 5] and fields["blinds_or_straddles"] == [5, 10, 0]
    assert fields["ante_trimming_status"] is False
    assert fields["starting_stacks"] == [[300, 250, 80][s] for s in seats]
    assert fields["players"] == [summary["bots"][s] for s in seats]
    assert fields["seats"] == [s + 1 for s in seats] and fields["hand"] == 0
    dealt = [a for a in fields["actions"] if a.startswith("d dh")]
    assert dealt == [f"d dh p{k + 1} {record['cards'][s].replace(' ', '')}"
                     for k, s in enumerate(seats)]


def test_heads_up_blinds_are_listed_reversed(matches):
    match = matches["limit-2p"]
    export(match, "--format", "phh")
    fields = phh_fields(match / "export-phh" / "hand000000.phh")
    assert fields["variant"] == "FT" and fields["blinds_or_straddles"] == [5, 10]
    assert (fields["small_bet"], fields["big_bet"]) == (10, 20)


# -- ACPC ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def log_check(request, tmp_path_factory) -> Path:
    oracle_data.need(acpc_build.missing())
    return acpc_build.build_for(request.config, tmp_path_factory)["acpc_log_check"]


@pytest.mark.parametrize("name", ["limit-2p", "kuhn-3p"])
def test_the_dealers_code_reads_the_acpc_log(matches, log_check, name, tmp_path):
    match = matches[name]
    out = tmp_path / "out" / "m.log"
    code, output = export(match, "--format", "acpc", "-o", out)
    assert code == 0, output
    assert f"Wrote {out} (30 hands) and its game definition {out.with_suffix('.game')}" in output
    checked = subprocess.run([log_check, out.with_suffix(".game"), out], capture_output=True,
                             text=True)
    assert checked.stdout == "ok 30\n", checked.stdout + checked.stderr
    lines = out.read_text().splitlines()
    assert lines[0].startswith("# name/game/hands/seed ") and len(lines) == 32
    summary = json.loads((match / "summary.json").read_text())
    totals, names = lines[-1].split(":")[1:]
    assert [int(v) for v in totals.split("|")] == summary["bankrolls"]
    names = names.split("|")
    words = [b.replace(" ", "_") for b in summary["bots"]]  # a name is one word
    if name == "kuhn-3p":  # the same bot in three seats: named by its seat
        assert names == [f"{w}-seat{s}" for s, w in enumerate(words)]
    else:
        assert names == words
    for line in lines[1:-1]:  # every hand's names are the match's, by position
        assert sorted(line.rsplit(":", 1)[1].split("|")) == sorted(names)


def test_acpc_names_are_one_safe_word_per_seat():
    """Labels with the log's separators (``:`` and ``|``) and spaces, and a label shared by two
    seats, still give every seat its own name of one word."""
    from pokerbots.server.logs import acpc_format

    names = acpc_format.log_names(["a:b|c d", "x.py", "x.py", "a_b_c_d"])
    assert names == ["a_b_c_d-seat0", "x.py-seat1", "x.py-seat2", "a_b_c_d-seat3"]
    assert all(":" not in n and "|" not in n and " " not in n for n in names)


def test_the_acpc_log_by_default_sits_in_the_match_folder(matches):
    match = matches["kuhn-3p"]
    code, _ = export(match, "--format", "acpc")
    assert code == 0
    assert (match / "match.acpc.log").is_file() and (match / "match.acpc.game").is_file()
    state = (match / "match.acpc.log").read_text().splitlines()[1]
    assert state.startswith("STATE:0:")
    assert state.split(":")[4].count("|") == 2  # a value per position


# -- what cannot be exported ---------------------------------------------------------------------


def test_what_cannot_be_exported_is_a_usage_error(matches, tmp_path):
    assert export(tmp_path / "nothing", "--format", "phh") == (
        2, f"Error: {tmp_path / 'nothing'} is not a folder: give a match's log folder")
    code, output = export(tmp_path, "--format", "phh")
    assert code == 2 and "is not a match's log folder: it has no summary.json" in output
    code, output = export(matches["kuhn-3p"], "--format", "phh")
    assert code == 2 and "PHH has no variant for kuhn: export it with --format acpc" in output
    code, output = export(matches["ante-stacks"], "--format", "acpc")
    assert code == 2 and "ACPC games have no antes" in output


@pytest.mark.parametrize("damage, says", [
    (lambda lines: lines[:2] + ["{not json"] + lines[3:], "hands.jsonl:3 is not a JSON hand"),
    (lambda lines: [_tamper(lines[0])] + lines[1:], "hand 0 of the log does not replay"),
])
def test_a_damaged_log_is_refused_with_the_reason(matches, tmp_path, damage, says):
    source = matches["limit-2p"]
    copy = tmp_path / "match"
    copy.mkdir()
    for name in ("summary.json", "hands.jsonl"):
        (copy / name).write_bytes((source / name).read_bytes())
    lines = (copy / "hands.jsonl").read_text().splitlines()
    (copy / "hands.jsonl").write_text("\n".join(damage(lines)) + "\n")
    code, output = export(copy, "--format", "phh")
    assert code == 2 and says in output, output
    assert not (copy / "export-phh").exists()  # nothing half-written


def _tamper(line: str) -> str:
    record = json.loads(line)
    record["deltas"] = [d + 1 for d in record["deltas"]]
    return json.dumps(record)

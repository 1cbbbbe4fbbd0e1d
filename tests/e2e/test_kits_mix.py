"""Mixed replies in the starter kits (``pokerbots new``): each kit's mix writes the line the
client library writes and refuses, naming the item, what the library refuses, before anything
is sent; each kit's bot started with ``--mix`` answers with its mixes and keeps its books
whatever the dealer draws.

Each kit is written with ``pokerbots new`` and built with the machine's compiler once for the
module, and every test that runs it is slow (``-m slow``); the default run checks the Python
kit's mix in-process. A kit's bot plays a round through the real referee with the mixes drawn
by the test as the dealer would (:class:`mixing.DrawingSeat` over :class:`mixing.ProcessSeat`),
beside the same strategy written with the client library: every line the two write, mixes and
Money lines alike, must be the same. Then it plays a real ``pokerbots run`` in every game, the
server drawing.
"""

from __future__ import annotations

import importlib.util
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import NamedTuple

import pytest

from pokerbots.protocol import kits
from pokerbots.protocol.client import Client, Legal, ProtocolError, mix_reply
from pokerbots.server.games import make_game
from pokerbots.server.play import smoke_random
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

from mixing import DrawingSeat, ProcessSeat, read_mix
from processes import only_match_dir, pokerbots

ROOT = Path(__file__).resolve().parents[2]
PROBES = ROOT / "tests" / "programs" / "mix_probes"
RANDOM_MIX = f"{ROOT / 'bots' / 'random_bot.py'} --mix"
GAMES = ["kuhn", "leduc", "holdem-nl", "holdem-limit"]


class Built(NamedTuple):
    """A kit written by ``pokerbots new`` and built."""

    lang: str
    #: Its entry point (the bot).
    entry: Path


@pytest.fixture(scope="module",
                params=[pytest.param(kit.name, marks=pytest.mark.slow) for kit in kits.KITS])
def kit(request, tmp_path_factory) -> Built:
    """A new kit of each language, written by ``pokerbots new`` and built."""
    kit = kits.find(request.param)
    if shutil.which(kit.tool) is None:
        pytest.skip(f"{kit.tool} is not on PATH: the {kit.name} kit cannot be built or run here")
    folder = tmp_path_factory.mktemp(f"kit-{kit.name}") / "mybot"
    result = pokerbots("new", folder, "--lang", kit.name)
    assert result.returncode == 0, result.stderr
    if kit.built:
        done = subprocess.run(["./build"], cwd=folder, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "warning" not in done.stderr, done.stderr
    return Built(kit.name, folder / kit.entry)


# -- the kit's mix: the line it writes, what it refuses ------------------------------------------

#: How each kit's probe (tests/programs/mix_probes) is put into a kit's folder, built and run:
#: (source, its place in the folder, build command or None, run command).
PROBE_STEPS = {
    "python": ("probe.py", "probe.py", None, [sys.executable, "probe.py"]),
    "c": ("probe.c", "probe.c", ["cc", "-std=c99", "-o", "probe", "probe.c", "poker.c"],
          ["./probe"]),
    "cpp": ("probe.cpp", "probe.cpp", ["c++", "-std=c++17", "-o", "probe", "probe.cpp"],
            ["./probe"]),
    "rust": ("probe.rs", "src/probe.rs",
             ["rustc", "--edition", "2021", "-o", "probe", "src/probe.rs"], ["./probe"]),
    "java": ("Probe.java", "Probe.java", ["javac", "-cp", "classes", "-d", "classes",
                                          "Probe.java"], ["java", "-cp", "classes", "Probe"]),
    "javascript": ("probe.js", "probe.js", None, ["node", "probe.js"]),
}

#: The probes' decision: facing a bet, call 10, raise 20 to 100, fold at 5.
FACING = Legal(5, 10, True, 20, 100)
LEGAL = "legal: BET 10 (call), BET 20 to BET 100 (bet or raise), FOLD 5"
WIDEST = [(f"BET {v}", 1_000_000) for v in range(20, 84)]

#: (items, what the kit writes or the start of its refusal); the library must agree on each.
MIX_CASES = [
    ([("FOLD 5", 1), ("BET 10", 2), ("BET 40", 1)], "MIX 1 FOLD 5,2 BET 10,1 BET 40"),
    ([("BET 20", 9)], "BET 20"),  # one item: that reply
    ([("BET 100", 1_000_000), ("FOLD 5", 7)], "MIX 1000000 BET 100,7 FOLD 5"),
    (WIDEST, "MIX " + ",".join(f"{w} {r}" for r, w in WIDEST)),
    ([("BET 10", 0)], "item 1 of the mix, 'BET 10': its weight must be a whole number from 1"
                      " to 1000000, not 0"),
    ([("BET 10", 1), ("FOLD 5", -1)], "item 2 of the mix, 'FOLD 5': its weight must be a"
                                      " whole number from 1 to 1000000, not -1"),
    ([("BET 10", 1_000_001)], "item 1 of the mix, 'BET 10': its weight must be a whole number"
                              " from 1 to 1000000, not 1000001"),
    ([("BET 10", 1), ("BET 3", 1)], "item 2 of the mix, 'BET 3', is not a legal reply"),
    ([("BET 15", 1)], "item 1 of the mix, 'BET 15', is not a legal reply"),  # below the min
    ([("BET 101", 1)], "item 1 of the mix, 'BET 101', is not a legal reply"),
    ([("FOLD 10", 1)], "item 1 of the mix, 'FOLD 10', is not a legal reply"),
    ([("BET 010", 1)], "item 1 of the mix, 'BET 010', is not a legal reply"),
    ([("CALL", 1)], "item 1 of the mix, 'CALL', is not a legal reply"),
    ([("BET 10", 1), ("FOLD 5", 1), ("BET 10", 2)], "item 3 of the mix, 'BET 10', appears"
                                                    " twice"),
    ([], "a mix has 1 to 64 items, not 0"),
    (WIDEST + [("BET 84", 1)], "a mix has 1 to 64 items, not 65"),
]


def test_the_python_kits_mix_writes_the_librarys_line_and_refuses_what_it_refuses(tmp_path):
    """In-process, for the default run: the Python kit's State.mix on the probes' decision."""
    kits.write(kits.find("python"), tmp_path / "mybot")
    spec = importlib.util.spec_from_file_location("pokerclient", tmp_path / "mybot" /
                                                  "pokerclient.py")
    client = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(client)
    place = SimpleNamespace(game="holdem-nl", players=2, hand=0, button=0, cards=["Ah", "Kd"],
                            bankrolls=[0, 0])
    state = client.State(place, [("BLIND", 5), ("BLIND", 10)], {"Raise": "20,100"})
    assert state.legal() == LEGAL.removeprefix("legal: ")
    for items, expected in MIX_CASES:
        try:
            line = mix_reply(FACING, items)
        except ProtocolError:
            line = None
        if expected.startswith(("MIX ", "BET ", "FOLD ")):
            assert state.mix(items) == expected == line
        else:
            with pytest.raises(ValueError) as refused:
                state.mix(items)
            assert str(refused.value) == f"{expected}; {LEGAL}"
            assert line is None, (items, line)


def test_kits_mix_writes_the_librarys_line_and_refuses_what_it_refuses_naming_the_item(kit):
    source, place, build, command = PROBE_STEPS[kit.lang]
    folder = kit.entry.parent
    shutil.copyfile(PROBES / source, folder / place)
    if build is not None:
        done = subprocess.run(build, cwd=folder, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
    for items, expected in MIX_CASES:
        argv = [*command, *[str(part) for item in items for part in item]]
        done = subprocess.run(argv, cwd=folder, capture_output=True, text=True, timeout=60)
        try:
            line = mix_reply(FACING, items)
        except ProtocolError:
            line = None
        if expected.startswith(("MIX ", "BET ", "FOLD ")):
            assert done.returncode == 0, (items, done.stderr)
            assert done.stdout == expected + "\n"
            assert line == expected  # the client library writes the same line
        else:
            assert done.returncode != 0, (items, done.stdout)
            assert done.stdout == ""  # nothing was written before the refusal
            assert f"{expected}; {LEGAL}" in done.stderr, (items, done.stderr)
            assert line is None, (items, line)  # the client library refuses it too


# -- the kit's bot with --mix, through the real referee -------------------------------------------

RANKS = "23456789TJQKA"


def strength(state) -> int:
    """The kits' read of the cards (bot.py's strength), on the client library's state."""
    mine = [RANKS.index(card[0]) for card in state.cards]
    board = [RANKS.index(card[0]) for card in state.board]
    if any(rank in board for rank in mine) or (len(mine) == 2 and mine[0] == mine[1]):
        return 2
    best = max(mine)
    if len(mine) == 1:
        return 2 if best >= RANKS.index("K") else 1 if best == RANKS.index("Q") else 0
    if not board and min(mine) >= RANKS.index("T"):
        return 2
    return 1 if best >= RANKS.index("Q") else 0


def kit_mix(state) -> str:
    """The kits' ``mixed``, written with the client library: decide()'s reply weight 4, each
    other kind of legal reply (check or call, the least raise, fold) weight 1."""
    hand = strength(state)
    raise_range = state.raise_range
    first = state.actions[0][0] in ("BLIND", "PASS")
    if hand == 2 and raise_range is not None and first:
        choice = state.raise_to(raise_range[0])
    elif state.to_call == 0 or hand == 2 or (hand == 1 and 2 * state.to_call <= state.pot_total):
        choice = state.check_or_call()
    else:
        choice = state.fold()
    weights = {state.check_or_call(): 1}
    if raise_range is not None:
        weights[state.raise_to(raise_range[0])] = 1
    if state.fold() is not None:
        weights[state.fold()] = 1
    weights[choice] = 4
    return state.mix(weights)


def play_round(game: str, seat: int, bot, *, hands: int, seed: int) -> list[DrawingSeat]:
    """A 3-player round of ``game``: ``bot`` (a seat object) in ``seat``, mixing random
    opponents elsewhere, every mix drawn as the dealer would (the same draws for the same
    lines: each seat's generator is seeded by its number)."""
    referee = Referee(make_game(game, 3), random.Random(seed), hands=hands)
    seats = [DrawingSeat(Client(smoke_random.mixing_decider(), game=game),
                         random.Random(seed * 10 + s)) for s in range(3)]
    seats[seat] = DrawingSeat(bot, random.Random(seed * 10 + seat))
    play_local(referee, seats)
    assert referee.hands_played == hands
    return seats


@pytest.mark.parametrize("game", GAMES)
def test_kits_bot_with_mix_writes_the_librarys_lines_whatever_is_drawn(kit, game):
    """The kit's bot, a real process, and the same strategy written with the client library
    play the same round: every line, each mix and each Money line (checked by the referee
    after every hand, whatever action was drawn), is the same."""
    hands, seed = 40, GAMES.index(game) + 1
    process = ProcessSeat([str(kit.entry), "--mix"], game=game, cwd=kit.entry.parent)
    try:
        played = play_round(game, 1, process, hands=hands, seed=seed)[1]
    finally:
        code = process.close()
    assert code == 0, process.stderr
    expected = play_round(game, 1, Client(kit_mix, game=game), hands=hands, seed=seed)[1]
    assert played.written == expected.written
    mixes = [reply for _, reply in played.plays if reply.startswith(b"MIX ")]
    assert len(mixes) > len(played.plays) / 2
    for line in mixes:  # the choice 4, each other kind of legal reply 1
        assert sorted(weight for weight, _ in read_mix(line)) in ([1, 4], [1, 1, 4]), line
    assert played.drawn > 0  # some draws were not the first item: the books still balance


# -- a real match ----------------------------------------------------------------------------------


def test_kits_bot_with_mix_plays_a_real_match_in_every_game(kit, tmp_path):
    """The server draws the kit's mixes; the record keeps each, its drawn item the action."""
    for number, game in enumerate(GAMES):
        logs = tmp_path / game
        result = pokerbots("run", "-g", game, f"{kit.entry} --mix", RANDOM_MIX, kit.entry,
                           "--hands", 40, "--seed", number, "--json", "--logs", logs,
                           timeout=300)
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
        assert json.loads(result.stdout)["result"] == "completed"
        records = [json.loads(line) for line in
                   (only_match_dir(logs) / "hands.jsonl").read_text().splitlines()]
        mine = []
        for record in records:
            for index, items, drawn in record.get("mixes", []):
                seat, word, value = record["actions"][index][:3]
                assert [word, value] == items[drawn][1:]
                if seat == 0:
                    mine.append(sorted(weight for weight, _, _ in items))
        assert len(mine) >= 10, game
        assert all(weights in ([1, 4], [1, 1, 4]) for weights in mine), mine


"""The bundled bots, each run as a real subprocess on a transcript the referee produced.

A round is first played in-process with the bot's own class (same seed) in one seat and random
bots elsewhere; the messages that seat received are then fed to the real program, whose replies
must be exactly the ones recorded.
"""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from pokerbots.protocol.client import Client
from pokerbots.server.games import make_game
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

BOTS = Path(__file__).resolve().parents[3] / "bots"
PY_BOTS = ["random_bot.py", "call_bot.py", "kuhn_2p_equilibrium.py", "kuhn_3p_equilibrium.py"]


def load(name: str):
    spec = importlib.util.spec_from_file_location(name.removesuffix(".py"), BOTS / name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


random_bot = load("random_bot.py")
call_bot = load("call_bot.py")
kuhn2 = load("kuhn_2p_equilibrium.py")
kuhn3 = load("kuhn_3p_equilibrium.py")


def transcript_for(game: str, players: int, seat: int, bot, *, hands: int = 30, seed: int = 1):
    """(input bytes, expected output bytes) of ``seat`` playing ``bot`` against random bots."""
    if game != "kuhn":
        pytest.importorskip("pokerbots.server.games.holdem", reason="the Hold'em dealer")
    referee = Referee(make_game(game, players), random.Random(seed), hands=hands)
    seats = [Client(random_bot.RandomBot(random.Random(100 + s)), game=game)
             for s in range(players)]
    seats[seat] = Client(bot, game=game)
    transcript: list = []
    play_local(referee, seats, transcript=transcript)
    sent = b"".join(m for s, _, m, _ in transcript if s == seat)
    replies = b"".join(r + b"\n" for s, _, _, r in transcript if s == seat)
    return sent, replies


def run_bot(argv, stdin: bytes, game: str = "kuhn", timeout: float = 30):
    env = {**os.environ, "POKERBOTS_GAME": game, "PYTHONUNBUFFERED": "1"}
    return subprocess.run(argv, input=stdin, capture_output=True, timeout=timeout, env=env)


def py(name: str, *args: str) -> list[str]:
    return [sys.executable, str(BOTS / name), *args]


@pytest.mark.parametrize("name", PY_BOTS)
def test_python_bots_are_executable_scripts_with_help(name):
    path = BOTS / name
    assert os.access(path, os.X_OK), f"chmod +x bots/{name}"
    assert path.read_text().startswith("#!/usr/bin/env python3\n")
    result = subprocess.run(py(name, "--help"), capture_output=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert b"usage:" in result.stdout


CASES = [
    # (id, game, players, seat, in-process bot, command line)
    ("random-kuhn-3p", "kuhn", 3, 1, lambda: random_bot.RandomBot(random.Random(5)),
     py("random_bot.py", "--seed", "5")),
    ("random-kuhn-6p", "kuhn", 6, 4, lambda: random_bot.RandomBot(random.Random(6)),
     py("random_bot.py", "--seed", "6")),
    ("call-kuhn-2p", "kuhn", 2, 0, lambda: call_bot.decide, py("call_bot.py")),
    ("call-kuhn-5p", "kuhn", 5, 3, lambda: call_bot.decide, py("call_bot.py")),
    ("kuhn2-seat0", "kuhn", 2, 0,
     lambda: kuhn2.Kuhn2pEquilibrium(Fraction(1, 5), random.Random(7)),
     py("kuhn_2p_equilibrium.py", "--alpha", "1/5", "--seed", "7")),
    ("kuhn2-seat1", "kuhn", 2, 1,
     lambda: kuhn2.Kuhn2pEquilibrium(Fraction(1, 3), random.Random(8)),
     py("kuhn_2p_equilibrium.py", "--alpha", "1/3", "--seed", "8")),
    ("kuhn3-default", "kuhn", 3, 2, lambda: kuhn3.Kuhn3pEquilibrium(None, random.Random(9)),
     py("kuhn_3p_equilibrium.py", "--seed", "9")),
    ("kuhn3-family-c", "kuhn", 3, 0,
     lambda: kuhn3.Kuhn3pEquilibrium(
         dict(c11=Fraction(1, 2), b11=Fraction(1, 4), b23=Fraction(1, 8), b32=Fraction(3, 10),
              c33=Fraction(3, 10), c34=1), random.Random(10)),
     py("kuhn_3p_equilibrium.py", "--c11", "1/2", "--b11", "1/4", "--b23", "1/8", "--b32",
        "3/10", "--c33", "3/10", "--c34", "1", "--seed", "10")),
    ("random-holdem-nl-3p", "holdem-nl", 3, 1, lambda: random_bot.RandomBot(random.Random(11)),
     py("random_bot.py", "--seed", "11")),
    ("random-holdem-limit-6p", "holdem-limit", 6, 5,
     lambda: random_bot.RandomBot(random.Random(12)), py("random_bot.py", "--seed", "12")),
    ("call-holdem-nl-2p", "holdem-nl", 2, 1, lambda: call_bot.decide, py("call_bot.py")),
]


@pytest.mark.parametrize("game, players, seat, make, argv", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_python_bot_replays_a_referee_transcript(game, players, seat, make, argv):
    sent, expected = transcript_for(game, players, seat, make(), hands=40)
    result = run_bot(argv, sent, game)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == expected
    assert result.stdout.endswith(b"Thank you dealer, have a nice day!\n")


def call_transcript(game: str, players: int, seat: int, seed: int):
    return transcript_for(game, players, seat, call_bot.decide, hands=60, seed=seed)


#: (game, players, seat) of the C and shell check/call bots' transcripts: every game.
CALL_CASES = [("kuhn", 2, 0), ("kuhn", 6, 5), ("leduc", 3, 2), ("leduc", 10, 4),
              ("holdem-nl", 2, 1), ("holdem-nl", 6, 3), ("holdem-limit", 3, 0),
              ("holdem-limit", 10, 9)]


@pytest.mark.parametrize("game, players, seat", CALL_CASES)
def test_c_bot_replays_a_referee_transcript(c_call_bot, game, players, seat):
    sent, expected = call_transcript(game, players, seat, seed=players)
    result = run_bot([str(c_call_bot)], sent, game=game)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == expected


@pytest.mark.parametrize("game, players, seat", CALL_CASES[::2])
def test_shell_bot_replays_a_referee_transcript(game, players, seat):
    path = BOTS / "sh" / "call_bot.sh"
    assert os.access(path, os.X_OK)
    sent, expected = call_transcript(game, players, seat, seed=10 + players)
    result = run_bot([str(path)], sent, game=game)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == expected


KUHN_3P_INIT = b"init_round\nMoney: 0,0,0\nBlinds: 1,1,1\nButton: 0\nEndProb: 1,100\n"
KUHN_2P_INIT = b"init_round\nMoney: 0,0\nBlinds: 1,1\nButton: 0\nEndProb: 1,100\n"
NL_2P_INIT = (b"init_round\nMoney: 0,0\nBlinds: 5,10\nButton: 0\nEndProb: 1,100\n"
              b"Game: holdem-nl\nStack: 2000\nStackMode: reset\n")


@pytest.mark.parametrize("name, init, game, why", [
    ("kuhn_2p_equilibrium.py", KUHN_3P_INIT, "kuhn", b"not 3-player kuhn"),
    ("kuhn_2p_equilibrium.py", NL_2P_INIT, "holdem-nl", b"not 2-player holdem-nl"),
    ("kuhn_3p_equilibrium.py", KUHN_2P_INIT, "kuhn", b"not 2-player kuhn"),
])
def test_equilibrium_bots_refuse_the_wrong_table(name, init, game, why):
    result = run_bot(py(name), init + b"init_hand\nHand: 0\nCards: Q\n", game)
    assert result.returncode == 1
    assert why in result.stderr
    assert result.stdout in (b"", b"READY\n")


@pytest.mark.parametrize("args, why", [
    (["--alpha", "1/2"], b"--alpha must be in [0, 1/3]"),
    (["--alpha", "x"], b"invalid Fraction value"),
])
def test_kuhn_2p_equilibrium_checks_alpha(args, why):
    result = subprocess.run(py("kuhn_2p_equilibrium.py", *args), capture_output=True, timeout=30)
    assert result.returncode == 2 and why in result.stderr


@pytest.mark.parametrize("args, why", [
    (["--b11", "1/5"], b"family A (c11 = 0) needs b11 <= b21 <= 1/4"),
    (["--c11", "1/4", "--b11", "1/10"], b"family B"),
    (["--c11", "1/2", "--b21", "1/5"], b"family C"),
    (["--c11", "3/4"], b"c11 must be at most 1/2"),
    (["--b32", "3/4"], b"b32 must be at most"),
    (["--c33", "0"], b"c33 must be in"),
    (["--c34", "2"], b"must be probabilities in [0, 1]"),
])
def test_kuhn_3p_equilibrium_checks_the_family_constraints(args, why):
    result = subprocess.run(py("kuhn_3p_equilibrium.py", *args), capture_output=True, timeout=30)
    assert result.returncode == 2, result.stderr
    assert why in result.stderr


def test_kuhn_3p_family_members_are_accepted():
    F = Fraction
    assert kuhn3.check(**kuhn3.DEFAULTS) is None
    # Family A, B and C members with all the other parameters inside their bounds.
    assert kuhn3.check(b11=F(1, 10), b21=F(1, 4), b23=0, b32=F(1, 2), c11=0, c33=F(1, 5),
                       c34=F(1, 3)) is None
    assert kuhn3.check(b11=F(1, 5), b21=F(1, 5), b23=0, b32=F(1, 2), c11=F(3, 10),
                       c33=F(1, 4), c34=F(1, 2)) is None
    assert kuhn3.check(b11=F(1, 4), b21=0, b23=F(1, 8), b32=F(3, 10), c11=F(1, 2),
                       c33=F(3, 10), c34=1) is None


@pytest.mark.parametrize("players, seat", [(2, 1), (4, 2)])
def test_the_smallest_bot_in_the_readme_works(tmp_path, players, seat):
    text = (BOTS / "README.md").read_text()
    start = text.index("```python", text.index("## The smallest complete")) + len("```python\n")
    path = tmp_path / "smallest.py"
    path.write_text(text[start:text.index("```", start)])
    sent, expected = call_transcript("kuhn", players, seat, seed=20 + players)
    result = run_bot([sys.executable, str(path)], sent)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == expected

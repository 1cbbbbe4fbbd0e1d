"""The bundled bots answering with mixes (``--mix``): the weights are exactly the distribution
each bot draws from without it, and the real programs write the same lines as the classes.

The rounds are played in-process through the real referee, each mix drawn by the test as the
dealer would (:class:`mixing.DrawingSeat`); the messages one seat received are then fed to the
real program, whose lines (mixes as written) must be exactly the recorded ones.
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

from pokerbots.protocol.client import MIX_MAX_ITEMS, Client
from pokerbots.protocol.client import kuhn_history as history
from pokerbots.server.games import make_game
from pokerbots.server.play import smoke_random
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

from mixing import DrawingSeat, distribution, read_mix

BOTS = Path(__file__).resolve().parents[3] / "bots"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name.removesuffix(".py") + "_mix",
                                                  BOTS / name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


random_bot = load("random_bot.py")
kuhn2 = load("kuhn_2p_equilibrium.py")
kuhn3 = load("kuhn_3p_equilibrium.py")


def recording(decide):
    """``decide`` wrapped to keep each (state, line) it answers in ``.seen``."""

    def wrapped(state):
        line = decide(state)
        wrapped.seen.append((state, line.encode()))
        return line

    wrapped.seen = []
    return wrapped


def play(game: str, deciders, *, hands: int, seed: int = 1, **options) -> list[DrawingSeat]:
    """A round of ``game`` with one seat per decider, every mix drawn as the dealer would."""
    if game.startswith("holdem"):
        pytest.importorskip("pokerbots.server.games.holdem", reason="the Hold'em dealer")
    referee = Referee(make_game(game, len(deciders), **options), random.Random(seed),
                      hands=hands)
    seats = [DrawingSeat(Client(d, game=game), random.Random(seed * 100 + s))
             for s, d in enumerate(deciders)]
    play_local(referee, seats)  # the referee judges every action drawn and every Money line
    assert referee.hands_played == hands
    return seats


def run_program(argv, stdin: bytes, game: str):
    env = {**os.environ, "POKERBOTS_GAME": game, "PYTHONUNBUFFERED": "1"}
    return subprocess.run(argv, input=stdin, capture_output=True, timeout=60, env=env)


# -- the random bots -----------------------------------------------------------------------------


def spread(low: int, high: int, most: int) -> list[int]:
    """Every size of low..high, or ``most`` sizes spread evenly (the bots' discretisation)."""
    if high - low + 1 <= most:
        return list(range(low, high + 1))
    return [low + i * (high - low) // (most - 1) for i in range(most)]


def random_bot_draw(state, all_in: Fraction, most: int = 62) -> dict[bytes, Fraction]:
    """The exact distribution of random_bot's draw: each legal kind 1/k; a raise all-in with
    probability ``all_in``, else uniform over the range (its spread sizes when wide)."""
    legal = state.legal
    kinds = 1 + (legal.raise_range is not None) + legal.can_fold
    share = Fraction(1, kinds)
    odds = {f"BET {legal.call}".encode(): share}
    if legal.raise_range is not None:
        low, high = legal.raise_range
        sizes = spread(low, high, most)
        for size in sizes:
            odds[f"BET {size}".encode()] = share * (1 - all_in) / len(sizes)
        odds[f"BET {high}".encode()] += share * all_in
    if legal.can_fold:
        odds[f"FOLD {legal.front}".encode()] = share
    return {reply: p for reply, p in odds.items() if p}


#: (game, players, options): every game, wide and narrow no-limit ranges.
TABLES = [
    ("kuhn", 3, {}),
    ("leduc", 3, {}),
    ("holdem-nl", 3, {}),  # stacks of 2000: ranges of up to 1990 sizes, spread over 62
    ("holdem-nl", 2, {"stack": 60}),  # ranges of at most 50 sizes: every size
    ("holdem-limit", 4, {}),
]


@pytest.mark.parametrize("game, players, options", TABLES,
                         ids=[f"{g}-{n}p" + ("-short" if o else "") for g, n, o in TABLES])
@pytest.mark.parametrize("all_in", [Fraction(1, 5), Fraction(0), Fraction(1)],
                         ids=["all-in-0.2", "all-in-0", "all-in-1"])
def test_the_random_bots_mix_is_the_distribution_it_draws_from(game, players, options,
                                                                 all_in):
    bots = [recording(random_bot.RandomBot(random.Random(s), float(all_in), mix=True).decide)
            for s in range(players)]
    play(game, bots, hands=60, **options)
    lines = []
    for bot in bots:
        for state, line in bot.seen:
            assert distribution(line) == random_bot_draw(state, all_in), (state.legal, line)
            lines.append(line)
    mixes = [line for line in lines if line.startswith(b"MIX ")]
    assert len(mixes) > len(lines) / 2
    assert max(line.count(b",") + 1 for line in mixes) <= MIX_MAX_ITEMS
    if game == "holdem-nl" and not options and all_in != 1:
        assert any(line.count(b",") + 1 == 64 for line in mixes)  # 62 sizes, call and fold
    if all_in == 1:  # every raise is the all-in: at most call, all-in and fold
        assert max(line.count(b",") + 1 for line in mixes) <= 3


def test_the_random_bots_mix_spreads_a_wide_range_and_keeps_all_in_exact():
    """No-limit, facing the big blind with 2000 behind: call, fold and 62 raise sizes from
    the minimum to the all-in; the all-in carries its 1/5 on top of its share of the rest."""
    message = (b"init_round\nMoney: 0,0,0\nBlinds: 0,5,10\nButton: 0\nEndProb: 0,1\n"
               b"Game: holdem-nl\nStack: 2000\nStackMode: reset\n"
               b"init_hand\nHand: 0\nCards: Ah Kd\n"
               b"play\nAction: PASS 0\nAction: BLIND 5\nAction: BLIND 10\nBoard: -\nPot: 0\n"
               b"Stacks: 2000,1995,1990\nRaise: 20,2000\n")
    bot = recording(random_bot.RandomBot(random.Random(1), mix=True).decide)
    line = Client(bot, game="holdem-nl").receive(message)
    items = line[4:].split(b",")
    assert len(items) == 64
    assert items[0] == b"155 BET 10"  # check or call: 1/3, in weights of 1/465
    # Each size (1/3)(4/5)/62 = 2/465; the all-in 2/465 + (1/3)(1/5) = 33/465.
    assert items[1] == b"2 BET 20" and items[62] == b"33 BET 2000"
    assert items[63] == b"155 FOLD 0"
    sizes = [int(item.rsplit(b" ", 1)[1]) for item in items[1:63]]
    assert sizes == spread(20, 2000, 62)
    assert distribution(line) == random_bot_draw(bot.seen[0][0], Fraction(1, 5))


def test_smoke_randoms_mix_is_the_distribution_it_draws_from():
    """Each kind of legal reply an equal share, the raise share spread evenly over the sizes
    (at most 62 of them)."""
    bots = [recording(smoke_random.mixing_decider()) for _ in range(3)]
    play("holdem-nl", bots, hands=40, seed=3)
    for bot in bots:
        for state, line in bot.seen:
            assert distribution(line) == random_bot_draw(state, Fraction(0)), line


# -- the Kuhn equilibrium bots -------------------------------------------------------------------


def equilibrium_odds(table, state) -> dict[bytes, Fraction]:
    """The decision's exact distribution: bet (or call) with the table's probability."""
    p = Fraction(table[state.position, history(state)][state.cards[0]])
    yes, no = (b"BET 2", b"BET 1") if not state.legal.can_fold else (b"BET 2", b"FOLD 1")
    return {reply: q for reply, q in ((yes, p), (no, 1 - p)) if q}


def test_the_2p_equilibrium_mixes_its_probabilities_exactly():
    bots = [kuhn2.Kuhn2pEquilibrium(mix=True) for _ in range(2)]
    recorders = [recording(bot.decide) for bot in bots]
    play("kuhn", recorders, hands=300)
    seen = set()
    for bot, recorder in zip(bots, recorders):
        for state, line in recorder.seen:
            assert distribution(line) == equilibrium_odds(bot.table, state)
            seen.add(line)
    # alpha = 1/6: P1 bluffs a jack 1/6 and bets a king 1/2 (3 alpha), calls with a queen
    # after checking 1/2 (alpha + 1/3); P2 bets a jack after a check 1/3, calls with a queen
    # 1/3. Every one of them came up, in whole weights.
    assert {b"MIX 1 BET 2,5 BET 1", b"MIX 1 BET 2,1 BET 1", b"MIX 1 BET 2,1 FOLD 1",
            b"MIX 1 BET 2,2 BET 1", b"MIX 1 BET 2,2 FOLD 1"} <= seen
    assert {b"BET 1", b"BET 2", b"FOLD 1"} <= seen  # the pure decisions: plain replies
    assert {line for line in seen if line.startswith(b"MIX ")} == {
        b"MIX 1 BET 2,5 BET 1", b"MIX 1 BET 2,1 BET 1", b"MIX 1 BET 2,1 FOLD 1",
        b"MIX 1 BET 2,2 BET 1", b"MIX 1 BET 2,2 FOLD 1"}


FAMILY_C = dict(c11=Fraction(1, 2), b11=Fraction(1, 4), b23=Fraction(1, 8),
                b32=Fraction(3, 10), c33=Fraction(3, 10), c34=1)


@pytest.mark.parametrize("params", [None, FAMILY_C], ids=["default", "family-c"])
def test_the_3p_equilibrium_mixes_its_probabilities_exactly(params):
    bots = [kuhn3.Kuhn3pEquilibrium(params, mix=True) for _ in range(3)]
    recorders = [recording(bot.decide) for bot in bots]
    play("kuhn", recorders, hands=400, seed=2)
    mixes = set()
    for bot, recorder in zip(bots, recorders):
        for state, line in recorder.seen:
            assert distribution(line) == equilibrium_odds(bot.table, state)
            if line.startswith(b"MIX "):
                mixes.add(line)
    # The first player never opens, so b32 and c33 (calls of an opening bet) are never asked.
    if params is None:
        # b33 = 1/2 and the first player's king facing a bet and a fold 1/2; the third
        # player's queen after two checks bets 1/2.
        assert mixes == {b"MIX 1 BET 2,1 FOLD 1", b"MIX 1 BET 2,1 BET 1"}
    else:
        # b11 = 1/4, b23 = 1/8 and b33 = 1/2 + 1/8 + 1/8 - 1/8 = 5/8, among others.
        assert {b"MIX 1 BET 2,3 BET 1", b"MIX 1 BET 2,7 FOLD 1",
                b"MIX 5 BET 2,3 FOLD 1"} <= mixes


def test_an_equilibrium_probability_of_a_large_denominator_is_rounded_to_fit():
    # P1 bluffs a jack with probability alpha = 5000003/30000000: no whole weights of at
    # most 10^6 give it exactly, so the bot sends the nearest fraction that fits (at least as
    # near as the nearest multiple of 1/10^6).
    alpha = Fraction(1, 6) + Fraction(1, 10**7)
    bot = kuhn2.Kuhn2pEquilibrium(alpha, mix=True)
    client = Client(bot, game="kuhn")
    client.receive(b"init_round\nMoney: 0,0\nBlinds: 1,1\nButton: 1\nEndProb: 0,1\n"
                   b"init_hand\nHand: 0\nCards: J\n")
    line = client.receive(b"play\nAction: BLIND 1\nAction: BLIND 1\n")
    odds = distribution(line)
    assert set(odds) == {b"BET 2", b"BET 1"}
    assert odds[b"BET 2"] != alpha and abs(odds[b"BET 2"] - alpha) <= Fraction(1, 2 * 10**6)
    assert sum(weight for weight, _ in read_mix(line)) <= 1_000_000


# -- the programs --------------------------------------------------------------------------------


def py(name: str, *args: str) -> list[str]:
    return [sys.executable, str(BOTS / name), *args]


PROGRAMS = [
    # (id, game, players, seat, in-process decide, command line)
    ("random-kuhn-3p", "kuhn", 3, 1,
     lambda: random_bot.RandomBot(random.Random(0), mix=True).decide,
     py("random_bot.py", "--mix")),
    ("random-leduc-2p", "leduc", 2, 0,
     lambda: random_bot.RandomBot(random.Random(0), 0.5, mix=True).decide,
     py("random_bot.py", "--mix", "--all-in", "0.5")),
    ("random-holdem-nl-3p", "holdem-nl", 3, 2,
     lambda: random_bot.RandomBot(random.Random(0), mix=True).decide,
     py("random_bot.py", "--mix")),
    ("random-holdem-limit-3p", "holdem-limit", 3, 0,
     lambda: random_bot.RandomBot(random.Random(0), mix=True).decide,
     py("random_bot.py", "--mix")),
    ("smoke-random-holdem-nl-2p", "holdem-nl", 2, 1, smoke_random.mixing_decider,
     [sys.executable, "-m", "pokerbots.server.play.smoke_random", "--mix"]),
    ("kuhn2", "kuhn", 2, 1, lambda: kuhn2.Kuhn2pEquilibrium(Fraction(1, 5), mix=True),
     py("kuhn_2p_equilibrium.py", "--alpha", "1/5", "--mix")),
    ("kuhn3-family-c", "kuhn", 3, 0, lambda: kuhn3.Kuhn3pEquilibrium(FAMILY_C, mix=True),
     py("kuhn_3p_equilibrium.py", "--c11", "1/2", "--b11", "1/4", "--b23", "1/8", "--b32",
        "3/10", "--c33", "3/10", "--c34", "1", "--mix")),
]


@pytest.mark.parametrize("game, players, seat, make, argv", [p[1:] for p in PROGRAMS],
                         ids=[p[0] for p in PROGRAMS])
def test_the_program_with_mix_writes_the_lines_of_its_class(game, players, seat, make, argv):
    """The program's mixes need no random numbers of its own: given the messages a seat got,
    it writes exactly the recorded lines, mixes included."""
    deciders = [random_bot.RandomBot(random.Random(10 + s)).decide for s in range(players)]
    deciders[seat] = make()
    seats = play(game, deciders, hands=40, seed=players)
    written = seats[seat].written
    assert b"MIX " in written
    result = run_program(argv, seats[seat].sent, game)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == written
    assert result.stdout.endswith(b"Thank you dealer, have a nice day!\n")


def test_random_bot_refuses_an_all_in_probability_outside_0_to_1_with_mix():
    result = subprocess.run(py("random_bot.py", "--mix", "--all-in", "1.5"),
                            capture_output=True, timeout=30)
    assert result.returncode == 2
    assert b"--all-in must be a probability in [0, 1] with --mix, not 1.5" in result.stderr

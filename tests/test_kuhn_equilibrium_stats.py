"""The Kuhn equilibrium bots: exact checks of their strategy tables, and long in-process rounds
against an always-call bot whose mean result must match the exact expectation.

The expectation is computed here by enumerating every deal, every button position and every
betting line, with the strategies transcribed independently from
/work/shared/reference/kuhn-equilibria.md. A wrong payout rule (in the dealer, the referee or
the client's Money tracking, which the referee checks every hand) or a wrong reading of the
position or history in the bots moves the mean by far more than the tolerance, four standard
errors.
"""

from __future__ import annotations

import importlib.util
import itertools
import math
import random
from fractions import Fraction as F
from pathlib import Path

import pytest

from pokerbots.protocol.client import Client
from pokerbots.server.games import make_game
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

BOTS = Path(__file__).resolve().parent.parent / "bots"


def load(name):
    spec = importlib.util.spec_from_file_location(name, BOTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


kuhn2 = load("kuhn_2p_equilibrium")
kuhn3 = load("kuhn_3p_equilibrium")


# -- the strategies, transcribed from the reference --------------------------------------------
# A policy is policy(position, card, history) -> probability of "yes": bet when nobody has bet,
# call when facing a bet. Positions count from the player left of the button (0 = P1).


def two_player(alpha):
    third = F(1, 3)
    table = {
        (0, ""): dict(J=alpha, Q=0, K=3 * alpha),
        (0, "kb"): dict(J=0, Q=alpha + third, K=1),
        (1, "k"): dict(J=third, Q=0, K=1),
        (1, "b"): dict(J=0, Q=third, K=1),
    }
    return lambda pos, card, hist: table[pos, hist][card]


def three_player(b11=0, b21=0, b23=0, b32=F(1, 4), c11=0, c33=F(1, 4), c34=0):
    b11, b21, b23, b32, c11, c33, c34 = map(F, (b11, b21, b23, b32, c11, c33, c34))
    beta = max(b11, b21)
    b33 = F(1, 2) + (b11 + b21) / 2 + beta / 2 - b23 * (1 - b21)
    half = F(1, 2)
    columns = {  # card: the row of the reference table
        "J": [(0, 0, 0, 0), (b11, 0, 0, 0), (c11, 0, 0, 0)],
        "Q": [(0, 0, 0, 0), (b21, 0, b23, 0), (half - c11, 0, 0, 0)],
        "K": [(0, 0, half, 0), (0, b32, b33, 0), (0, 0, c33, c34)],
        "A": [(0, 1, 1, 1), (2 * b11 + 2 * b21, 1, 1, 1), (1, 1, 1, 1)],
    }
    points = [("", "kkb", "kbf", "kbc"), ("k", "b", "kkbf", "kkbc"), ("kk", "kb", "bf", "bc")]
    table = {(pos, hist, card): columns[card][pos][i]
             for card in columns for pos in range(3) for i, hist in enumerate(points[pos])}
    return lambda pos, card, hist: table[pos, hist, card]


def caller(pos, card, hist):
    return 1 if "b" in hist else 0


def bot_table(table):
    """A bot module's own strategy table as a policy."""
    return lambda pos, card, hist: table[pos, hist][card]


# -- exact enumeration ---------------------------------------------------------------------------


def deck(n):
    return "JQK" if n == 2 else "89TJQKA"[-(n + 1):]


def outcomes(cards, policies):
    """Every way a hand with ``cards`` (by position) can go: (probability, payoffs by position).

    ``policies[pos]`` plays position ``pos``.
    """
    n = len(cards)
    strength = {c: i for i, c in enumerate(deck(n))}
    result = []

    def showdown(prob, fronts, folded):
        live = [p for p in range(n) if not folded[p]]
        winner = max(live, key=lambda p: strength[cards[p]])
        pay = [-f for f in fronts]
        pay[winner] += sum(fronts)
        result.append((prob, pay))

    def answer(prob, hist, queue, fronts, folded):
        if not queue:
            showdown(prob, fronts, folded)
            return
        p, rest = queue[0], queue[1:]
        yes = policies[p](p, cards[p], hist)
        if yes:
            answer(prob * yes, hist + "c", rest,
                   [2 if q == p else f for q, f in enumerate(fronts)], folded)
        if yes != 1:
            answer(prob * (1 - yes), hist + "f", rest, fronts,
                   [True if q == p else f for q, f in enumerate(folded)])

    def open_(prob, hist, p):
        if p == n:
            showdown(prob, [1] * n, [False] * n)
            return
        yes = policies[p](p, cards[p], hist)
        if yes:
            answer(prob * yes, hist + "b", [*range(p + 1, n), *range(p)],
                   [2 if q == p else 1 for q in range(n)], [False] * n)
        if yes != 1:
            open_(prob * (1 - yes), hist + "k", p + 1)

    open_(F(1), "", 0)
    return result


def seat_moments(seat_policies, button):
    """Exact mean and variance of each seat's result in one hand with ``button`` (seats)."""
    n = len(seat_policies)
    by_pos = [seat_policies[(button + 1 + pos) % n] for pos in range(n)]
    deals = list(itertools.permutations(deck(n), n))
    mean = [F(0)] * n
    square = [F(0)] * n
    for dealt in deals:  # dealt[pos]
        for prob, pay in outcomes(dealt, by_pos):
            for pos in range(n):
                seat = (button + 1 + pos) % n
                mean[seat] += prob * pay[pos] / len(deals)
                square[seat] += prob * pay[pos] ** 2 / len(deals)
    return mean, [s - m * m for s, m in zip(square, mean)]


def position_values(policies):
    """Exact value of each position (P1, P2, ...) when position ``pos`` plays policies[pos]."""
    n = len(policies)
    deals = list(itertools.permutations(deck(n), n))
    total = [F(0)] * n
    for dealt in deals:
        for prob, pay in outcomes(dealt, policies):
            for pos in range(n):
                total[pos] += prob * pay[pos] / len(deals)
    return total


def best_response_value(policies, pos):
    """The most position ``pos`` can get against the others' fixed policies (pure strategies:
    for each card, every yes/no choice at each of its decision points)."""
    n = len(policies)
    deals = list(itertools.permutations(deck(n), n))
    histories = sorted({h for dealt in deals for h in _histories(dealt, policies, pos)})
    best = F(0)
    for card in deck(n):
        card_best = None
        for choice in itertools.product((0, 1), repeat=len(histories)):
            plan = dict(zip(histories, choice))
            trial = list(policies)
            trial[pos] = lambda p, c, h, plan=plan: plan[h]
            value = F(0)
            for dealt in deals:
                if dealt[pos] != card:
                    continue
                for prob, pay in outcomes(dealt, trial):
                    value += prob * pay[pos] / len(deals)
            card_best = value if card_best is None else max(card_best, value)
        best += card_best
    return best


def _histories(dealt, policies, pos):
    """The histories at which position ``pos`` can be asked to decide."""
    seen = set()
    spy = list(policies)

    def record(p, c, h):
        seen.add(h)
        return F(1, 2)

    spy[pos] = record
    outcomes(dealt, spy)
    return seen


# -- exact checks of the tables (fast) -----------------------------------------------------------


@pytest.mark.parametrize("alpha", [F(0), F(1, 6), F(1, 3)])
def test_two_player_tables_are_the_equilibrium(alpha):
    ours = two_player(alpha)
    bots = bot_table(kuhn2.strategy(alpha))
    for policy in (ours, bots):
        values = position_values([policy, policy])
        assert values == [F(-1, 18), F(1, 18)]
        assert best_response_value([policy, policy], 0) == F(-1, 18)
        assert best_response_value([policy, policy], 1) == F(1, 18)
    for pos in range(2):
        for card in "JQK":
            for hist in (("", "kb") if pos == 0 else ("k", "b")):
                assert ours(pos, card, hist) == bots(pos, card, hist)


THREE_PLAYER_MEMBERS = [
    {},  # the bot's default
    dict(b11=F(1, 10), b21=F(1, 4), b32=F(1, 2), c33=F(1, 5), c34=F(1, 3)),  # family A
    dict(b11=F(1, 5), b21=F(1, 5), c11=F(3, 10), b32=F(1, 2), c33=F(1, 4), c34=F(1, 2)),  # B
    dict(b11=F(1, 4), b23=F(1, 8), c11=F(1, 2), b32=F(3, 10), c33=F(3, 10), c34=1),  # C
]


@pytest.mark.parametrize("member", THREE_PLAYER_MEMBERS, ids=["default", "A", "B", "C"])
def test_three_player_tables_are_equilibria_with_the_stated_values(member):
    params = {**kuhn3.DEFAULTS, **member}
    ours = three_player(**params)
    bots = bot_table(kuhn3.strategy(**{k: F(v) for k, v in params.items()}))
    beta = max(F(params["b11"]), F(params["b21"]))
    expected = [-(1 + 2 * beta) / 48, F(-1, 48), (1 + beta) / 24]
    for policy in (ours, bots):
        profile = [policy] * 3
        assert position_values(profile) == expected
        for pos in range(3):
            assert best_response_value(profile, pos) == expected[pos]
    for (pos, hist), row in kuhn3.strategy(**{k: F(v) for k, v in params.items()}).items():
        for card, prob in row.items():
            assert ours(pos, card, hist) == prob


# -- long rounds against an always-call bot (slow) ----------------------------------------------


def call(state):
    return state.check_or_call()


def play_and_compare(bots, policies, hands, seed):
    """Play ``hands`` hands in-process; every seat's mean must be within 4 SE of the exact
    expectation for the buttons actually played."""
    n = len(bots)
    referee = Referee(make_game("kuhn", n), random.Random(seed), hands=hands)
    clients = [Client(b, game="kuhn") for b in bots]
    play_local(referee, clients)  # the referee also checks every bot's Money every hand
    moments = [seat_moments(policies, b) for b in range(n)]
    counts = [0] * n
    for h in range(hands):
        counts[(referee.button + h) % n] += 1
    for seat in range(n):
        mean = sum(counts[b] * moments[b][0][seat] for b in range(n)) / hands
        variance = sum(counts[b] * moments[b][1][seat] for b in range(n)) / hands ** 2
        se = math.sqrt(variance)
        observed = referee.bankrolls[seat] / hands
        assert abs(observed - float(mean)) < 4 * se, (
            f"seat {seat}: mean {observed:.4f} per hand, expected {float(mean):.4f} "
            f"(4 SE = {4 * se:.4f})")
        assert clients[seat].bankrolls[0] == referee.bankrolls[seat]
    return referee


@pytest.mark.slow
@pytest.mark.parametrize("seat", [0, 1])
def test_two_player_equilibrium_against_a_caller(seat):
    alpha = F(1, 5)
    bots = [call, call]
    policies = [caller, caller]
    bots[seat] = kuhn2.Kuhn2pEquilibrium(alpha, random.Random(seat))
    policies[seat] = two_player(alpha)
    play_and_compare(bots, policies, hands=60_000, seed=100 + seat)


@pytest.mark.slow
@pytest.mark.parametrize("caller_seat", [0, 1, 2])
def test_three_player_equilibria_against_a_caller(caller_seat):
    members = [THREE_PLAYER_MEMBERS[2], THREE_PLAYER_MEMBERS[3]]
    bots, policies = [], []
    for seat in range(3):
        if seat == caller_seat:
            bots.append(call)
            policies.append(caller)
        else:
            member = members.pop()
            bots.append(kuhn3.Kuhn3pEquilibrium(member, random.Random(seat)))
            policies.append(three_player(**{**kuhn3.DEFAULTS, **member}))
    play_and_compare(bots, policies, hands=40_000, seed=200 + caller_seat)

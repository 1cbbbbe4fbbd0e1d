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

import math
import random
from fractions import Fraction as F

import pytest

from pokerbots.protocol.client import Client
from pokerbots.server.games import make_game
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

from kuhn_exact import (
    best_response_value,
    bot_table,
    caller,
    kuhn2,
    kuhn3,
    position_values,
    seat_moments,
    three_player,
    two_player,
)


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

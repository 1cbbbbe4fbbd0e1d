"""Kuhn poker computed exactly: the equilibrium bots' strategies transcribed from the
reference (and the random and call bots'), and every deal, button position and betting line
enumerated to give each position's exact value (:func:`position_values`) and variance, each
bot's value in a duplicate tournament (:func:`duplicate_values`), and a best response's value.

The strategies are transcribed independently of ``bots/``, from
``kuhn-equilibria.md`` (the reference the bots were written from), so that a test that compares
a long round of the bots with these values checks the dealer, the referee and the bots at once.
"""

from __future__ import annotations

import importlib.util
import itertools
from fractions import Fraction as F
from pathlib import Path

BOTS = Path(__file__).resolve().parents[2] / "bots"


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


def uniform(pos, card, hist):
    """The bundled random bot (``random_bot.py``, with or without ``--mix``): every legal reply
    equally likely, which in Kuhn is bet or check, call or fold, one half each."""
    return F(1, 2)


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


def duplicate_values(policies):
    """Each bot's exact expected result per hand in a duplicate tournament of these bots
    (``{name: policy}``, two or three of them): every deal set is played in every seating,
    so whatever the button, each hand puts the bots in every order of positions equally
    often."""
    orders = list(itertools.permutations(policies))
    values = {name: F(0) for name in policies}
    for order in orders:  # order[pos]: the bot in that position
        worth = position_values([policies[name] for name in order])
        for pos, name in enumerate(order):
            values[name] += worth[pos] / len(orders)
    return values


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

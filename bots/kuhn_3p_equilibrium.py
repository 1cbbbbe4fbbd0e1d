#!/usr/bin/env python3
"""Three-player Kuhn poker equilibrium: the family of Szafron, Gibson and Sturtevant (2013).

Positions count in order of play: P1 is left of the button. The parameters b11, b21, b23, b32,
c11, c33, c34 choose a member of the family; they are checked against the family's constraints
(see "A Parameterized Family of Equilibrium Profiles for Three-Player Kuhn Poker", AAMAS
2013). The default member is b11 = b21 = b23 = c11 = c34 = 0, b32 = 1/4, c33 = 1/4.
"""

import argparse
import sys
from fractions import Fraction as F

try:
    from pokerbots.protocol.client import Bot, kuhn_history, run, seeded_random
except ImportError:
    sys.exit("kuhn_3p_equilibrium.py needs the pokerbots package: pip install -e . in the "
             "repository, or let the server start it (pokerbots run bots/kuhn_3p_equilibrium.py)")

DEFAULTS = dict(b11=F(0), b21=F(0), b23=F(0), b32=F(1, 4), c11=F(0), c33=F(1, 4), c34=F(0))


def check(b11, b21, b23, b32, c11, c33, c34):
    """The family's constraints: None if the parameters make an equilibrium, else why not."""
    p = dict(b11=b11, b21=b21, b23=b23, b32=b32, c11=c11, c33=c33, c34=c34)
    bad = [k for k, v in p.items() if not 0 <= v <= 1]
    if bad:
        return f"{', '.join(bad)} must be probabilities in [0, 1]"
    beta = max(b11, b21)
    if c11 == 0:
        if not (b11 <= b21 <= F(1, 4) and b23 == 0):
            return "family A (c11 = 0) needs b11 <= b21 <= 1/4 and b23 = 0"
    elif c11 < F(1, 2):
        if not (b21 == b11 <= F(1, 4) and b23 == 0 and c11 <= (2 - b11) / (3 + 4 * b11)):
            return ("family B (0 < c11 < 1/2) needs b21 = b11 <= 1/4, b23 = 0 and "
                    "c11 <= (2 - b11)/(3 + 4 b11)")
    elif c11 == F(1, 2):
        if not (b11 <= F(1, 4) and b21 <= min(b11, F(1, 2) - 2 * b11)
                and 0 <= b23 <= (b11 - b21) / (2 * (1 - b21))):
            return ("family C (c11 = 1/2) needs b11 <= 1/4, b21 <= min(b11, 1/2 - 2 b11) and "
                    "0 <= b23 <= (b11 - b21)/(2 (1 - b21))")
    else:
        return "c11 must be at most 1/2"
    top = F(1, 2) + F(3, 4) * (b11 + b21) + beta / 4
    if not b32 <= top:
        return "b32 must be at most 1/2 + 3/4 (b11 + b21) + max(b11, b21)/4"
    if not F(1, 2) - b32 <= c33 <= top - b32:
        return "c33 must be in [1/2 - b32, 1/2 + 3/4 (b11 + b21) + max(b11, b21)/4 - b32]"
    return None


def strategy(b11, b21, b23, b32, c11, c33, c34):
    """{(position, history): {card: probability}} (bet when nobody has bet, else call)."""
    beta = max(b11, b21)
    b33 = F(1, 2) + (b11 + b21) / 2 + beta / 2 - b23 * (1 - b21)
    rows = {
        (0, ""): (0, 0, 0, 0),
        (0, "kkb"): (0, 0, 0, 1),
        (0, "kbf"): (0, 0, F(1, 2), 1),
        (0, "kbc"): (0, 0, 0, 1),
        (1, "k"): (b11, b21, 0, 2 * b11 + 2 * b21),
        (1, "b"): (0, 0, b32, 1),
        (1, "kkbf"): (0, b23, b33, 1),
        (1, "kkbc"): (0, 0, 0, 1),
        (2, "kk"): (c11, F(1, 2) - c11, 0, 1),
        (2, "kb"): (0, 0, 0, 1),
        (2, "bf"): (0, 0, c33, 1),
        (2, "bc"): (0, 0, c34, 1),
    }
    return {key: dict(zip("JQKA", probs)) for key, probs in rows.items()}


class Kuhn3pEquilibrium(Bot):
    def __init__(self, params=None, rng=None):
        params = {**DEFAULTS, **(params or {})}
        params = {k: F(v) for k, v in params.items()}
        why = check(**params)
        if why:
            raise ValueError(why)
        self.table = strategy(**params)
        self.rng = rng or seeded_random()

    def on_round_start(self, info):
        if info.game != "kuhn" or info.players != 3:
            sys.exit(f"kuhn_3p_equilibrium.py plays 3-player Kuhn poker only, not "
                     f"{info.players}-player {info.game}")

    def decide(self, state):
        p = self.table[state.position, kuhn_history(state)][state.cards[0]]
        yes = self.rng.random() < p
        if state.fold() is None:  # nobody has bet: bet with probability p
            return state.raise_to(2) if yes else state.check_or_call()
        return state.check_or_call() if yes else state.fold()  # call with probability p


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name, default in DEFAULTS.items():
        parser.add_argument(f"--{name}", type=F, default=default,
                            help=f"family parameter {name} (default {default}; fractions "
                                 "such as 1/4 are accepted)")
    parser.add_argument("--seed", type=int, default=None,
                        help="random seed (default: the one the server gives, POKERBOTS_SEED)")
    args = parser.parse_args(argv)
    params = {name: getattr(args, name) for name in DEFAULTS}
    why = check(**params)
    if why:
        parser.error(why)
    run(Kuhn3pEquilibrium(params, seeded_random(args.seed)))


if __name__ == "__main__":
    main()

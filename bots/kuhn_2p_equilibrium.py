#!/usr/bin/env python3
"""Two-player Kuhn poker equilibrium (H. W. Kuhn, 1950), with the free parameter --alpha.

P1 (first to act, left of the button) and P2 play the table below; each number is the
probability of betting (opening decisions) or of calling (facing a bet), as in Kuhn's "A
simplified two-person poker" (Contributions to the Theory of Games I, 1950). The game is worth
-1/18 per hand to P1.
"""

import argparse
import sys
from fractions import Fraction

try:
    from pokerbots.protocol.client import Bot, kuhn_history, run, seeded_random
except ImportError:
    sys.exit("kuhn_2p_equilibrium.py needs the pokerbots package: pip install -e . in the "
             "repository, or let the server start it (pokerbots run bots/kuhn_2p_equilibrium.py)")


def strategy(alpha):
    """{(position, history): {card: probability}}; position 0 is P1, 1 is P2."""
    return {
        (0, ""): {"J": alpha, "Q": 0, "K": 3 * alpha},  # P1 opens: bet?
        (0, "kb"): {"J": 0, "Q": alpha + Fraction(1, 3), "K": 1},  # P1 checked, faces a bet: call?
        (1, "k"): {"J": Fraction(1, 3), "Q": 0, "K": 1},  # P2 after a check: bet?
        (1, "b"): {"J": 0, "Q": Fraction(1, 3), "K": 1},  # P2 facing a bet: call?
    }


class Kuhn2pEquilibrium(Bot):
    def __init__(self, alpha=Fraction(1, 6), rng=None):
        self.table = strategy(Fraction(alpha))
        self.rng = rng or seeded_random()

    def on_round_start(self, info):
        if info.game != "kuhn" or info.players != 2:
            sys.exit(f"kuhn_2p_equilibrium.py plays 2-player Kuhn poker only, not "
                     f"{info.players}-player {info.game}")

    def decide(self, state):
        p = self.table[state.position, kuhn_history(state)][state.cards[0]]
        yes = self.rng.random() < p
        if state.fold() is None:  # nobody has bet: bet with probability p
            return state.raise_to(2) if yes else state.check_or_call()
        return state.check_or_call() if yes else state.fold()  # call with probability p


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--alpha", type=Fraction, default=Fraction(1, 6),
                        help="P1's bluffing frequency with J, in [0, 1/3] (default 1/6; "
                             "fractions such as 1/6 are accepted)")
    parser.add_argument("--seed", type=int, default=None,
                        help="random seed (default: the one the server gives, POKERBOTS_SEED)")
    args = parser.parse_args(argv)
    if not 0 <= args.alpha <= Fraction(1, 3):
        parser.error(f"--alpha must be in [0, 1/3], not {args.alpha}")
    run(Kuhn2pEquilibrium(args.alpha, seeded_random(args.seed)))


if __name__ == "__main__":
    main()

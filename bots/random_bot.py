#!/usr/bin/env python3
"""Random bot: a uniformly random legal action (check/call, bet/raise, fold when legal).

In Hold'em a raise goes all-in with probability --all-in, else to a uniform size in the legal
range. Works for every game (Kuhn, holdem-nl, holdem-limit) and table size.
"""

import argparse
import random
import sys

try:
    from pokerbots.protocol.client import Bot, run, seeded_random
except ImportError:
    sys.exit("random_bot.py needs the pokerbots package: pip install -e . in the repository, "
             "or let the server start it (pokerbots run bots/random_bot.py ...)")


class RandomBot(Bot):
    def __init__(self, rng: random.Random, all_in: float = 0.2) -> None:
        self.rng = rng
        self.all_in = all_in

    def decide(self, state):
        choices = ["call", "raise", "fold"]
        if state.raise_range is None:
            choices.remove("raise")
        if state.fold() is None:
            choices.remove("fold")
        choice = self.rng.choice(choices)
        if choice == "call":
            return state.check_or_call()
        if choice == "fold":
            return state.fold()
        low, high = state.raise_range
        if self.rng.random() < self.all_in:
            return state.raise_to(high)
        return state.raise_to(self.rng.randint(low, high))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=None,
                        help="random seed (default: the one the server gives, POKERBOTS_SEED)")
    parser.add_argument("--all-in", type=float, default=0.2, metavar="P",
                        help="Hold'em: probability that a raise is the largest legal one "
                             "(default 0.2)")
    args = parser.parse_args(argv)
    run(RandomBot(seeded_random(args.seed), args.all_in))


if __name__ == "__main__":
    main()

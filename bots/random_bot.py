#!/usr/bin/env python3
"""Random bot: a uniformly random legal action (check/call, bet/raise, fold when legal).

In Hold'em a raise goes all-in with probability --all-in, else to a uniform size in the legal
range. Works for every game (Kuhn, Leduc, holdem-nl, holdem-limit) and table size.

With --mix it answers with that distribution as a mixed reply and the server draws the
action: the same distribution, in whole-number weights, with --all-in taken as the nearest
fraction of denominator at most 1000 (0.2 is 1/5). A raise range of more than 62 sizes
becomes 62 sizes spread evenly from the minimum to the maximum (state.raise_sizes), each
with an equal share of the uniform part; with check/call and fold that is at most 64 items.
"""

import argparse
import random
import sys
from fractions import Fraction

try:
    from pokerbots.protocol.client import Bot, integer_weights, run, seeded_random
except ImportError:
    sys.exit("random_bot.py needs the pokerbots package: pip install -e . in the repository, "
             "or let the server start it (pokerbots run bots/random_bot.py ...)")


#: The most raise sizes of a mix: with check/call and fold, the protocol's 64 items.
RAISE_SIZES = 62


class RandomBot(Bot):
    def __init__(self, rng: random.Random, all_in: float = 0.2, mix: bool = False) -> None:
        self.rng = rng
        self.all_in = all_in
        self.mix = mix

    def weights(self, state) -> dict[str, int]:
        """The distribution decide() draws from, as whole-number weights of each reply (the
        raise range spread over at most RAISE_SIZES sizes)."""
        kinds = 1 + (state.raise_range is not None) + (state.fold() is not None)
        share = Fraction(1, kinds)
        shares = {state.check_or_call(): share}
        if state.raise_range is not None:
            all_in = Fraction(self.all_in).limit_denominator(1000)
            sizes = state.raise_sizes(RAISE_SIZES)
            for size in sizes:
                shares[state.raise_to(size)] = share * (1 - all_in) / len(sizes)
            shares[state.all_in()] += share * all_in
        if state.fold() is not None:
            shares[state.fold()] = share
        return integer_weights(shares)

    def decide(self, state):
        if self.mix:
            return state.mix(self.weights(state))
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
    parser.add_argument("--mix", action="store_true",
                        help="answer with the distribution as a mixed reply (MIX ...) and let "
                             "the server draw the action")
    args = parser.parse_args(argv)
    if args.mix and not 0 <= args.all_in <= 1:
        parser.error(f"--all-in must be a probability in [0, 1] with --mix, not {args.all_in}")
    run(RandomBot(seeded_random(args.seed), args.all_in, args.mix))


if __name__ == "__main__":
    main()

"""The opponent of ``pokerbots smoke``: a random bot that ships inside the package.

``pokerbots smoke`` must work after a plain ``pip install pokerbots``, where the repository's
``bots/`` folder does not exist, so the smoke opponent lives here. It is an ordinary bot written
with the client library (which reads the messages and keeps the score): at each decision it
checks or calls, bets or raises (to a random legal amount) or folds, each with equal chance
among those that are legal. Its random numbers come from ``--seed`` when it is given, else
from the seed the server gives its seat (``POKERBOTS_SEED``), so a match replays the same.

With ``--mix`` it answers with that distribution as a mixed reply and the server draws the
action: each kind of reply an equal share, the bet or raise share spread evenly over the
legal sizes, or over :data:`RAISE_SIZES` of them spread evenly from the minimum to the
maximum when the range holds more (at most 64 items in all).

Run it as ``python -m pokerbots.server.play.smoke_random [--seed N] [--mix]``.
"""

from __future__ import annotations

import argparse
import random
import sys
from fractions import Fraction

from pokerbots.protocol.client import integer_weights, run, seeded_random

#: The most raise sizes of a mix: with check/call and fold, the protocol's 64 items.
RAISE_SIZES = 62


def mixing_decider():
    """``decide(state)``: the distribution :func:`random_decider` draws from (its raise sizes
    spread over at most :data:`RAISE_SIZES`), as a mixed reply."""

    def decide(state) -> str:
        sizes = state.raise_sizes(RAISE_SIZES)
        share = Fraction(1, 1 + bool(sizes) + (state.fold() is not None))
        shares = {state.check_or_call(): share}
        for size in sizes:
            shares[state.raise_to(size)] = share / len(sizes)
        if state.fold() is not None:
            shares[state.fold()] = share
        return state.mix(integer_weights(shares))

    return decide


def random_decider(rng: random.Random):
    """``decide(state)``: a uniformly random kind of legal reply."""

    def decide(state) -> str:
        legal = state.legal
        choices = [legal.check_or_call()]
        if legal.raise_range is not None:
            low, high = legal.raise_range
            choices.append(legal.raise_to(rng.randint(low, high)))
        if legal.can_fold:
            choices.append(legal.fold())
        return rng.choice(choices)

    return decide


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--mix", action="store_true",
                        help="answer with the distribution as a mixed reply (MIX ...) and let "
                             "the server draw the action")
    args = parser.parse_args(argv)
    run(mixing_decider() if args.mix else random_decider(seeded_random(args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The opponent of ``pokerbots smoke``: a random bot that ships inside the package.

``pokerbots smoke`` must work after a plain ``pip install pokerbots``, where the repository's
``bots/`` folder does not exist, so the smoke opponent lives here. It is an ordinary bot written
with the client library (which reads the messages and keeps the score): at each decision it
checks or calls, bets or raises (to a random legal amount) or folds, each with equal chance
among those that are legal. Its random numbers come from ``--seed`` when it is given, else
from the seed the server gives its seat (``POKERBOTS_SEED``), so a match replays the same.

Run it as ``python -m pokerbots.server.play.smoke_random [--seed N]``.
"""

from __future__ import annotations

import argparse
import random
import sys

from pokerbots.protocol.client import run, seeded_random


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
    args = parser.parse_args(argv)
    run(random_decider(seeded_random(args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

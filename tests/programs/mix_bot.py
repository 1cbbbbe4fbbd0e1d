"""A bot that answers with mixed replies (``MIX``), for the tests of the server that draws them.

At each decision it lists the legal replies of every kind (check or call, fold where allowed,
the smallest and the largest raise, and up to three raise sizes between them) and gives each
a weight from 1 to 9 drawn from its own generator (seeded from ``POKERBOTS_SEED``), then:

* by default, sends them all as one mix: ``MIX 3 BET 2,7 FOLD 1,...``;
* with ``--single``, draws one of them itself with those weights and sends it alone: a bot
  that never mixes, whose replies depend on the same numbers;
* with ``--every K``, mixes at every K-th decision only and sends the call at the others;
* with ``--first LINE``, sends LINE as its first decision (a mix that breaks a rule).
"""

from __future__ import annotations

import argparse
import os
import random

from pokerbots.protocol.client import run


def replies(state, rng: random.Random) -> list[str]:
    """The legal replies of every kind, in a fixed order, without repeats."""
    found = [state.check_or_call(), state.fold()]
    if state.raise_range is not None:
        low, high = state.raise_range
        sizes = {low, high}
        if high - low > 1:
            sizes |= {rng.randint(low + 1, high - 1) for _ in range(3)}
        found += [state.raise_to(v) for v in sorted(sizes)]
    return [reply for reply in found if reply is not None]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--single", action="store_true", help="never mix: draw here")
    parser.add_argument("--every", type=int, default=1, help="mix at every K-th decision")
    parser.add_argument("--first", default=None, help="the first decision's line, as given")
    args = parser.parse_args()
    rng = random.Random(int(os.environ.get("POKERBOTS_SEED", "0")))
    decisions = [0]

    def decide(state) -> str:
        decisions[0] += 1
        if decisions[0] == 1 and args.first is not None:
            return args.first
        choices = replies(state, rng)
        weights = [rng.randint(1, 9) for _ in choices]
        if args.single:
            return rng.choices(choices, weights)[0]
        if decisions[0] % args.every:
            return state.check_or_call()
        return "MIX " + ",".join(f"{w} {reply}" for w, reply in zip(weights, choices))

    run(decide, check=False)


if __name__ == "__main__":
    main()

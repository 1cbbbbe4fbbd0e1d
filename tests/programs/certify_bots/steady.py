#!/usr/bin/env python3
"""A bot that always makes the same kind of legal reply, for the tests of ``pokerbots
certify``: ``steady.py fold`` folds whenever it may (else checks), ``steady.py raise`` makes
the smallest raise whenever it may (else checks or calls), ``steady.py shove`` the largest."""

import sys

from pokerbots.protocol.client import run

MODES = ("fold", "raise", "shove")


def decide(mode):
    def reply(state):
        if mode == "fold":
            return state.fold() or state.check_or_call()
        if state.raise_range is not None:
            low, high = state.raise_range
            return state.raise_to(low if mode == "raise" else high)
        return state.check_or_call()

    return reply


if __name__ == "__main__":
    if sys.argv[1:2] not in ([m] for m in MODES):
        sys.exit(f"usage: steady.py {'|'.join(MODES)}")
    run(decide(sys.argv[1]))

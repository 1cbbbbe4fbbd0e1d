#!/usr/bin/env python3
"""A bot that checks or calls after thinking for THINK seconds at each decision (asleep: it
uses no CPU), for the service's tests of a tournament that lasts: its matches take their time
in hands of any game, not in CPU that a loaded machine would stretch."""

import sys
import time

try:
    from pokerbots.protocol.client import run
except ImportError:
    sys.exit("thinking_bot.py needs the pokerbots package: pip install -e . in the repository")

#: Seconds a decision takes: far inside any reply limit; a 2-player Kuhn hand takes about
#: two of them.
THINK = 0.02


def decide(state):
    time.sleep(THINK)
    return state.check_or_call()


if __name__ == "__main__":
    run(decide)

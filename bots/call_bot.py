#!/usr/bin/env python3
"""Call bot: always checks or calls. Works for every game and table size."""

import argparse
import sys

try:
    from pokerbots.protocol.client import run
except ImportError:
    sys.exit("call_bot.py needs the pokerbots package: pip install -e . in the repository, "
             "or let the server start it (pokerbots run bots/call_bot.py ...)")


def decide(state):
    return state.check_or_call()


def main(argv=None):
    argparse.ArgumentParser(description=__doc__).parse_args(argv)
    run(decide)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A Kuhn bot for tests: plays check/call correctly until told to break a rule.

    kuhn_bot.py [--fault KIND] [--at-hand N]

KIND: wrong-value (BET 3 when checking), illegal-fold (FOLD when checking is free),
garbage (an unknown word), silent (never answers play), crash (exits with code 3 at play).
The protocol is read by the client library (the one parser); ``check=False`` lets the broken
replies through to the server. Each reply is written as soon as it is made (the library's
``run`` writes the replies to a bundle of messages together), so a fault at ``play`` happens
after the replies to the messages before it have reached the server.
"""

import argparse
import os
import sys

from pokerbots.protocol.client import Client

parser = argparse.ArgumentParser()
parser.add_argument("--fault", default=None)
parser.add_argument("--at-hand", type=int, default=0)
args = parser.parse_args()


def decide(state):
    if state.hand < args.at_hand or not args.fault:
        return state.check_or_call()
    print(f"about to break the rules: {args.fault}", file=sys.stderr, flush=True)
    if args.fault == "wrong-value":
        return "BET 3"
    if args.fault == "illegal-fold" and state.legal.can_check:
        return f"FOLD {state.front}"
    if args.fault == "garbage":
        return "CHECK PLEASE"
    if args.fault == "silent":
        sys.stdin.read()  # waits for the server to close the pipe
    if args.fault == "crash":
        os._exit(3)
    return state.check_or_call()


client = Client(decide, check=False)
for line in sys.stdin.buffer:
    reply = client.feed(line)
    if reply is not None:
        sys.stdout.buffer.write(reply + b"\n")
        sys.stdout.buffer.flush()
        if client.done:
            break

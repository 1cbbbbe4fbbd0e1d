#!/usr/bin/env python3
"""A Hold'em bot for tests: plays correctly (check/call, or min-raise with --raise) until told
to break a rule.

    holdem_bot.py [--raise] [--show-env] [--fault KIND] [--at-hand N]

KIND, done at the bot's first chance in hand N or later:
  wrong-value        BET one chip less than the check/call value
  raise-too-small    facing a bet, BET one chip below the smallest legal raise
  raise-too-big      facing a bet, BET one chip above the largest legal raise
  raise-not-allowed  BET one chip above the call when the server says 'Raise: -'
  rebuy              answer REBUY to end_hand (wrong in reset mode, or with a full stack)
  ok-broke           answer OK to end_hand with no chips left in carry mode
Otherwise it answers REBUY exactly when it has no chips in carry mode (the client library's
own answer). --show-env writes POKERBOTS_GAME to stderr.

The client library reads every message and computes every bookkeeping reply; this bot takes
its reply and replaces it where it is meant to misbehave (``check=False`` lets an illegal
decision through).
"""

import argparse
import os
import sys

from pokerbots.protocol.client import Client

parser = argparse.ArgumentParser()
parser.add_argument("--fault", default=None)
parser.add_argument("--at-hand", type=int, default=0)
parser.add_argument("--raise", dest="raises", action="store_true")
parser.add_argument("--show-env", action="store_true")
args = parser.parse_args()


def misbehave(reply):
    print(f"about to break the rules: {args.fault}", file=sys.stderr, flush=True)
    return reply


def decide(state):
    fault = args.fault if state.hand >= args.at_hand else None
    call = state.legal.call
    low, high = state.raise_range or (None, None)
    facing_bet = state.table_bet > state.front
    if fault == "wrong-value" and call > 0:
        return misbehave(f"BET {call - 1}")
    if fault == "raise-too-small" and facing_bet and low is not None and low - 1 > call:
        return misbehave(f"BET {low - 1}")
    if fault == "raise-too-big" and facing_bet and low is not None:
        return misbehave(f"BET {high + 1}")
    if fault == "raise-not-allowed" and low is None:
        return misbehave(f"BET {call + 1}")
    if args.raises and low is not None:
        return f"BET {low}"
    return f"BET {call}"


def end_hand_reply(client, reply):
    """Replace the client's answer to end_hand (OK or REBUY) when told to."""
    if client.hand < args.at_hand:
        return reply
    if args.fault == "rebuy":
        return misbehave(b"REBUY")
    if args.fault == "ok-broke" and reply == b"REBUY" and client.stacks[0] == 0:
        return misbehave(b"OK")
    return reply


if args.show_env:
    print(f"POKERBOTS_GAME={os.environ.get('POKERBOTS_GAME')}", file=sys.stderr, flush=True)

client = Client(decide, check=False)
for line in sys.stdin.buffer:
    reply = client.feed(line)
    if reply is None:
        continue
    if reply in (b"OK", b"REBUY"):
        reply = end_hand_reply(client, reply)
    sys.stdout.buffer.write(reply + b"\n")
    sys.stdout.buffer.flush()
    if client.done:
        break

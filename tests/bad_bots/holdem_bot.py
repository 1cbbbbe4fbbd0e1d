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
Otherwise it answers REBUY exactly when it has no chips in carry mode. --show-env writes
POKERBOTS_GAME to stderr. Written without the client library, so the server is checked against
an independent reading of the protocol: its Money replies are computed from the Stacks lines.
"""

import argparse
import os
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--fault", default=None)
parser.add_argument("--at-hand", type=int, default=0)
parser.add_argument("--raise", dest="raises", action="store_true")
parser.add_argument("--show-env", action="store_true")
args = parser.parse_args()

stdin, stdout = sys.stdin.buffer, sys.stdout.buffer


def send(text):
    stdout.write(text.encode() + b"\n")
    stdout.flush()


def misbehave(reply):
    print(f"about to break the rules: {args.fault}", file=sys.stderr, flush=True)
    send(reply)


def value(key):
    line = stdin.readline().decode().rstrip("\n")
    if not line.startswith(key + ": "):
        sys.exit(f"expected a {key!r} line, got {line!r}")
    return line[len(key) + 2:]


def numbers(text):
    return [int(v) for v in text.split(",")]


if args.show_env:
    print(f"POKERBOTS_GAME={os.environ.get('POKERBOTS_GAME')}", file=sys.stderr, flush=True)

hand, n, start, carry = -1, 0, 0, False
bankrolls, stacks = [], []  # stacks: everyone's chips at the start of the hand
while True:
    line = stdin.readline()
    if not line:
        break
    word = line.decode().rstrip("\n")
    fault = args.fault if hand >= args.at_hand else None
    if word == "init_round":
        bankrolls = numbers(value("Money"))
        n = len(bankrolls)
        value("Blinds"), value("Button"), value("EndProb")
        game = value("Game")
        start = int(value("Stack"))
        carry = value("StackMode") == "carry"
        if game == "holdem-limit":
            value("BetSizes")
        stacks = [start] * n
        send("READY")
    elif word == "init_hand":
        hand = int(value("Hand"))
        value("Cards")
        send("READY")
    elif word == "play":
        fronts = [int(value("Action").split()[1]) for _ in range(n)]
        value("Board"), value("Pot")
        behind = numbers(value("Stacks"))[0]
        raise_text = value("Raise")
        table, front = max(fronts), fronts[0]
        call = min(table, front + behind)
        low, high = (None, None) if raise_text == "-" else numbers(raise_text)
        facing_bet = table > front
        if fault == "wrong-value" and call > 0:
            misbehave(f"BET {call - 1}")
        elif fault == "raise-too-small" and facing_bet and low is not None and low - 1 > call:
            misbehave(f"BET {low - 1}")
        elif fault == "raise-too-big" and facing_bet and low is not None:
            misbehave(f"BET {high + 1}")
        elif fault == "raise-not-allowed" and low is None:
            misbehave(f"BET {call + 1}")
        elif args.raises and low is not None:
            send(f"BET {low}")
        else:
            send(f"BET {call}")
    elif word == "end_hand":
        for _ in range(n):
            value("Action")
        value("Showdown"), value("Pots"), value("Board")
        after = numbers(value("Stacks"))
        bankrolls = [b + a - s for b, a, s in zip(bankrolls, after, stacks)]
        stacks = after if carry else [start] * n
        if fault == "rebuy":
            misbehave("REBUY")
        elif fault == "ok-broke" and carry and stacks[0] == 0:
            misbehave("OK")
        else:
            send("REBUY" if carry and stacks[0] == 0 else "OK")
    elif word.startswith("EndAction: "):
        answers = [word] + [stdin.readline().decode().rstrip("\n") for _ in range(n - 1)]
        for p, answer in enumerate(answers):
            if answer == "EndAction: REBUY":
                stacks[p] = start  # a rebuy tops the stack up and leaves the bankroll alone
        send("Money: " + ",".join(map(str, bankrolls)))
    elif word == "end_round":
        value("Bankrolls"), value("NumHands")
        send("Thank you dealer, have a nice day!")
        break
    else:
        sys.exit(f"unexpected line {word!r}")

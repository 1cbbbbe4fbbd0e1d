#!/usr/bin/env python3
"""A Kuhn bot for tests: plays check/call correctly until told to break a rule.

    kuhn_bot.py [--fault KIND] [--at-hand N]

KIND: wrong-value (BET 3 when checking), illegal-fold (FOLD when checking is free),
garbage (an unknown word), silent (never answers play), crash (exits with code 3 at play).
Written without the client library so the server is checked against an independent reading
of the protocol.
"""

import argparse
import os
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--fault", default=None)
parser.add_argument("--at-hand", type=int, default=0)
args = parser.parse_args()

stdin, stdout = sys.stdin.buffer, sys.stdout.buffer


def send(text):
    stdout.write(text.encode() + b"\n")
    stdout.flush()


hand = -1
bankrolls = []
while True:
    line = stdin.readline()
    if not line:
        break
    word = line.rstrip(b"\n")
    if word == b"init_round":
        bankrolls = [int(v) for v in stdin.readline().split(b": ")[1].split(b",")]
        for _ in range(3):
            stdin.readline()
        send("READY")
    elif word == b"init_hand":
        hand = int(stdin.readline().split(b": ")[1])
        stdin.readline()
        send("READY")
    elif word == b"play":
        values = [int(stdin.readline().split()[2]) for _ in bankrolls]
        if hand >= args.at_hand and args.fault:
            print(f"about to break the rules: {args.fault}", file=sys.stderr, flush=True)
            if args.fault == "wrong-value":
                send("BET 3")
            elif args.fault == "illegal-fold" and max(values) == values[0]:
                send(f"FOLD {values[0]}")
            elif args.fault == "garbage":
                send("CHECK PLEASE")
            elif args.fault == "silent":
                stdin.read()  # waits for the server to close the pipe
            elif args.fault == "crash":
                os._exit(3)
            else:
                send(f"BET {max(values)}")
        else:
            send(f"BET {max(values)}")
    elif word == b"end_hand":
        fronts = [int(stdin.readline().split()[2]) for _ in bankrolls]
        stdin.readline()  # Showdown
        pots = stdin.readline().split(b": ")[1].split()
        for p in range(len(bankrolls)):
            bankrolls[p] -= fronts[p]
        for pot in pots:
            value, winner = pot.split(b",")
            bankrolls[int(winner)] += int(value)
        send("OK")
    elif word.startswith(b"EndAction"):
        for _ in range(len(bankrolls) - 1):
            stdin.readline()
        send("Money: " + ",".join(map(str, bankrolls)))
    elif word == b"end_round":
        stdin.readline()
        stdin.readline()
        send("Thank you dealer, have a nice day!")
        break

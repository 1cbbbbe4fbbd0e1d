"""The opponent of ``pokerbots smoke``: a random bot that ships inside the package.

``pokerbots smoke`` must work after a plain ``pip install pokerbots``, where the repository's
``bots/`` folder does not exist, so the smoke opponent lives here. It speaks only the protocol
(stdin/stdout, nothing imported from the server's game code), picks a legal action at random
from the ``play`` message alone, and keeps the bankrolls from the ``end_hand`` messages.

Run it as ``python -m pokerbots.server.smoke_random [--seed N]``.
"""

from __future__ import annotations

import argparse
import random
import sys

from pokerbots.protocol import GOODBYE


def legal_choices(lines: list[str]) -> list[str]:
    """The legal replies to a ``play`` message (its lines, ``play`` first)."""
    fronts = [int(line.rsplit(" ", 1)[1]) for line in lines if line.startswith("Action: ")]
    mine = fronts[0]
    top = max(fronts)
    choices = [f"BET {top}"]
    raise_line = next((line for line in lines if line.startswith("Raise: ")), None)
    if raise_line is not None:
        # Hold'em states the raise range: "Raise: <min>,<max>" (absent when no raise is legal).
        low, _, high = raise_line.split(" ", 1)[1].partition(",")
        low, high = int(low), int(high or low)
        choices.append(f"BET {random.randint(low, high) if high > low else low}")
    elif top == mine == 1 and not any(line.startswith(("Board:", "Stacks:")) for line in lines):
        choices.append("BET 2")  # Kuhn: nobody has bet yet
    if top > mine:
        choices.append(f"FOLD {mine}")
    return choices


class Bankrolls:
    """Everyone's bankroll, as this seat sees the table (itself first)."""

    def __init__(self, money: list[int]) -> None:
        self.money = money
        self.committed = [0] * len(money)  # chips put in on earlier streets of this hand
        self.street_key: object = None

    def play(self, lines: list[str]) -> None:
        key = next((line for line in lines if line.startswith("Board:")), None)
        if key != self.street_key and self.street_key is not None:
            # A new street: what was in front on the last one is in the pot now.
            self.committed = [c + f for c, f in zip(self.committed, self._fronts_seen)]
        self.street_key = key
        self._fronts_seen = [int(line.rsplit(" ", 1)[1]) for line in lines
                             if line.startswith("Action: ")]

    _fronts_seen: list[int] = []

    def end_hand(self, lines: list[str]) -> None:
        fronts = [int(line.rsplit(" ", 1)[1]) for line in lines if line.startswith("Action: ")]
        key = next((line for line in lines if line.startswith("Board:")), None)
        committed = self.committed
        if key != self.street_key and self.street_key is not None and self._fronts_seen:
            committed = [c + f for c, f in zip(committed, self._fronts_seen)]
        paid = [c + f for c, f in zip(committed, fronts)]
        won = [0] * len(self.money)
        for line in lines:
            if line.startswith("Pots: "):
                for pot in line.split(" ")[1:]:
                    amount, _, winner = pot.partition(",")
                    won[int(winner)] += int(amount)
        self.money = [m + w - p for m, w, p in zip(self.money, won, paid)]
        self.committed = [0] * len(self.money)
        self.street_key = None
        self._fronts_seen = []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    random.seed(args.seed)
    out = sys.stdout
    lines: list[str] = []
    book: Bankrolls | None = None
    for raw in sys.stdin:
        lines.append(raw.rstrip("\r\n"))
        kind = lines[0]
        # A message is complete when its last expected line has arrived.
        if kind == "init_round" and lines[-1].startswith("EndProb:"):
            money = next(line for line in lines if line.startswith("Money: "))
            book = Bankrolls([int(v) for v in money.split(" ", 1)[1].split(",")])
            reply = "READY"
        elif kind == "init_hand" and lines[-1].startswith("Cards:"):
            reply = "READY"
        elif kind == "play" and _play_complete(lines, book):
            book.play(lines)
            reply = random.choice(legal_choices(lines))
        elif kind == "end_hand" and lines[-1].startswith("Pots:"):
            book.end_hand(lines)
            reply = "OK"
        elif kind.startswith("EndAction:") and len(lines) == len(book.money):
            reply = "Money: " + ",".join(map(str, book.money))
        elif kind == "end_round" and lines[-1].startswith("NumHands:"):
            print(GOODBYE, file=out, flush=True)
            return 0
        else:
            continue
        print(reply, file=out, flush=True)
        lines = []
    return 0


def _play_complete(lines: list[str], book: Bankrolls | None) -> bool:
    actions = sum(line.startswith("Action: ") for line in lines)
    return book is not None and actions == len(book.money)


if __name__ == "__main__":
    sys.exit(main())

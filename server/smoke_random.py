"""The opponent of ``pokerbots smoke``: a random bot that ships inside the package.

``pokerbots smoke`` must work after a plain ``pip install pokerbots``, where the repository's
``bots/`` folder does not exist, so the smoke opponent lives here. It speaks only the protocol
(stdin/stdout, nothing imported from the server's game code), picks a legal action at random
from the ``play`` message alone, and keeps the bankrolls from the ``end_hand`` messages.

Run it as ``python -m pokerbots.server.smoke_random [--seed N]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

from pokerbots.protocol import GOODBYE


def _fronts(lines: list[str]) -> list[int]:
    return [int(line.rsplit(" ", 1)[1]) for line in lines if line.startswith("Action: ")]


def _field(lines: list[str], name: str) -> str | None:
    prefix = name + ": "
    return next((line[len(prefix):] for line in lines if line.startswith(prefix)), None)


def _numbers(text: str) -> list[int]:
    return [int(v) for v in text.split(",")]


def legal_choices(lines: list[str]) -> list[str]:
    """The legal replies to a ``play`` message (its lines, ``play`` first).

    A raise is one random amount from the Hold'em ``Raise: <min>,<max>`` range.
    """
    fronts = _fronts(lines)
    mine = fronts[0]
    top = max(fronts)
    stacks = _field(lines, "Stacks")
    raise_range = _field(lines, "Raise")
    call = top
    if stacks is not None:
        call = min(top, mine + _numbers(stacks)[0])  # all in for less than a full call
    choices = [f"BET {call}"]
    if raise_range is not None:
        if raise_range != "-":
            low, high = _numbers(raise_range)
            choices.append(f"BET {random.randint(low, high)}")
    elif top == mine == 1:
        choices.append("BET 2")  # Kuhn: nobody has bet yet
    if top > mine:
        choices.append(f"FOLD {mine}")
    return choices


class Bankrolls:
    """Everyone's bankroll, as this seat sees the table (itself first), kept from the messages.

    Kuhn: each hand's result is the pots won less the money in front. Hold'em: the change of
    each stack over the hand (a REBUY refills a stack and leaves the bankroll alone). The
    stacks a hand starts with follow from the stack mode ``init_round`` announced: the
    starting stack, or (``carry``) the stacks after the last hand and its rebuys.
    """

    def __init__(self, money: list[int], stack: int | None = None,
                 carry: bool = False) -> None:
        self.money = money
        self.n = len(money)
        self.stack = stack  # Hold'em starting stack; None for Kuhn
        self.carry = carry
        self.ends: list[int] | None = None  # stacks after the last hand (and rebuys)
        self.start: list[int] | None = None

    def init_hand(self) -> None:
        if self.stack is None:
            return
        if self.carry and self.ends is not None:
            self.start = list(self.ends)
        else:
            self.start = [self.stack] * self.n

    def end_hand(self, lines: list[str]) -> None:
        if self.stack is not None:
            ends = _numbers(_field(lines, "Stacks"))
            self.money = [m + e - s for m, e, s in zip(self.money, ends, self.start)]
            self.ends = ends
            return
        won = [0] * self.n
        for pot in (_field(lines, "Pots") or "").split(" "):
            amount, _, winner = pot.partition(",")
            won[int(winner)] += int(amount)
        self.money = [m + w - f for m, w, f in zip(self.money, won, _fronts(lines))]

    def end_action(self, lines: list[str]) -> None:
        for i, line in enumerate(lines):
            if line == "EndAction: REBUY" and self.stack is not None and self.ends is not None:
                self.ends[i] = self.stack

    def must_rebuy(self) -> bool:
        return bool(self.carry and self.ends is not None and self.ends[0] == 0)


#: The line that ends each message, by game (Kuhn's play message ends after its Action lines).
_LAST = {
    "kuhn": {"init_round": "EndProb:", "end_hand": "Pots:"},
    "holdem-nl": {"init_round": "StackMode:", "end_hand": "Stacks:", "play": "Raise:"},
    "holdem-limit": {"init_round": "BetSizes:", "end_hand": "Stacks:", "play": "Raise:"},
}


def complete(game: str, lines: list[str], players: int) -> bool:
    """Whether ``lines`` hold a whole message (they start with its first line)."""
    kind = lines[0]
    last = lines[-1]
    ends = _LAST.get(game, _LAST["kuhn"])
    if kind.startswith("EndAction:"):
        return len(lines) == players
    if kind == "init_hand":
        return last.startswith("Cards:")
    if kind == "end_round":
        return last.startswith("NumHands:")
    if kind == "play" and "play" not in ends:
        return sum(line.startswith("Action: ") for line in lines) == players
    marker = ends.get(kind)
    return marker is not None and last.startswith(marker)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    random.seed(args.seed)
    game = os.environ.get("POKERBOTS_GAME", "kuhn")
    out = sys.stdout
    lines: list[str] = []
    book: Bankrolls | None = None
    for raw in sys.stdin:
        lines.append(raw.rstrip("\r\n"))
        kind = lines[0]
        if kind == "init_round":
            if not complete(game, lines, len(lines)):
                continue
            stack = _field(lines, "Stack")
            book = Bankrolls(_numbers(_field(lines, "Money")),
                             int(stack) if stack else None, _field(lines, "StackMode") == "carry")
            reply = "READY"
        elif book is None or not complete(game, lines, book.n):
            continue
        elif kind == "init_hand":
            book.init_hand()
            reply = "READY"
        elif kind == "play":
            reply = random.choice(legal_choices(lines))
        elif kind == "end_hand":
            book.end_hand(lines)
            reply = "REBUY" if book.must_rebuy() else "OK"
        elif kind.startswith("EndAction:"):
            book.end_action(lines)
            reply = "Money: " + ",".join(map(str, book.money))
        elif kind == "end_round":
            print(GOODBYE, file=out, flush=True)
            return 0
        else:
            continue
        print(reply, file=out, flush=True)
        lines = []
    return 0


if __name__ == "__main__":
    sys.exit(main())

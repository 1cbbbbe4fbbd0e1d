#!/usr/bin/env python3
"""A bot that answers every decision with a mixed reply, with one planted bug, for the tests
of ``pokerbots certify``'s mixed-reply cases: ``careless_mixer.py BUG`` (``none``: no bug).

Its mix: check or call (weight 2), fold where allowed (1), and the smallest raise where a
raise is allowed (1). Each BUG is a mistake a real mixing bot makes, which the certify case
named after its situation catches:

``repeated item``   the smallest and the largest raise are always two items, even when they
                    are the same (``mix: one raise size``);
``illegal item``    facing a bet where no raise is allowed, it still mixes in a raise of one
                    chip more than the call (``mix: no raise allowed``; the raise cap);
``zero weight``     holding the best hand there can be, it writes the fold it never plays
                    with weight 0 (``mix: a sure answer``);
``malformed mix``   it lists every raise size, up to a hundred (``mix: a wide raise range``).
"""

from __future__ import annotations

import sys

from pokerbots.protocol.client import run

BUGS = ("none", "repeated item", "illegal item", "zero weight", "malformed mix")


def best_hand(state) -> bool:
    """Whether the bot holds the best hand there can be: Kuhn's top card, Leduc's pair with the
    board, Hold'em's royal flush."""
    cards, board = state.cards, state.board
    if state.game == "kuhn":
        return cards[0] == ("K" if state.players == 2 else "A")
    if state.game == "leduc":
        return bool(board) and cards[0] == board[0]
    seen = set(cards) | set(board)
    return any({f"{rank}{suit}" for rank in "TJQKA"} <= seen for suit in "cdhs")


def decide_with(bug: str):
    def decide(state) -> str:
        legal = state.legal
        items = [(2, state.check_or_call())]
        if state.fold() is not None:
            items.append((0 if bug == "zero weight" and best_hand(state) else 1, state.fold()))
        if legal.raise_range is not None:
            low, high = legal.raise_range
            if bug == "malformed mix":
                sizes = list(range(low, min(high, low + 99) + 1))
            elif bug == "repeated item":
                sizes = [low, high]
            else:
                sizes = [low]
            items += [(1, f"BET {size}") for size in sizes]
        elif bug == "illegal item" and not legal.can_check:
            items.append((1, f"BET {legal.call + 1}"))
        return "MIX " + ",".join(f"{weight} {reply}" for weight, reply in items)

    return decide


def main() -> None:
    bug = " ".join(sys.argv[1:])
    if bug not in BUGS:
        sys.exit(f"usage: careless_mixer.py BUG, one of: {', '.join(BUGS)}")
    run(decide_with(bug), check=False)


if __name__ == "__main__":
    main()

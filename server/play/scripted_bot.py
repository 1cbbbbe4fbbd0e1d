"""The scripted opponent of ``pokerbots certify``: a bot that plays the actions it is given.

``pokerbots certify`` steers a match into a rare situation (a short all-in, side pots, a
run-out) with known cards and opponents that play a fixed sequence of actions. This is that
opponent, one program for every case: the script comes as an argument. It is an ordinary bot
written with the client library, which answers the bookkeeping messages and keeps the score.

The script lists the hands, separated by ``/``; in a hand the betting rounds (streets),
separated by ``|``; in a street the decisions, separated by spaces. Each decision is a word:

``c``  check or call (an all-in call when the stack is short);
``f``  fold, or check when checking is free;
``r``  the smallest raise, or check/call when no raise is allowed;
``a``  the largest raise (all-in in no-limit, one bet in a limit game), or check/call when no
       raise is allowed.

A street's last word repeats for its further decisions; a street or hand the script does not
reach is checked or called (``c``). ``r c|c|a`` raises once before the flop, then calls, calls
on the flop and goes all-in on the turn. With ``--rebuy`` the bot answers ``REBUY`` whenever
its stack is below its starting stack (games with rebuys).

Run it as ``python -m pokerbots.server.play.scripted_bot SCRIPT [--rebuy]``.
"""

from __future__ import annotations

import argparse
import sys

from pokerbots.protocol.client import Bot, run

WORDS = ("c", "f", "r", "a")


def parse_script(text: str) -> list[list[list[str]]]:
    """``'r c|a / f'`` -> ``[[['r', 'c'], ['a']], [['f']]]``; ValueError names a bad word."""
    hands = []
    for hand in text.split("/"):
        streets = []
        for street in hand.split("|"):
            words = street.split() or ["c"]
            for word in words:
                if word not in WORDS:
                    raise ValueError(f"{word!r} is not a scripted action: use one of"
                                     f" {', '.join(WORDS)}")
            streets.append(words)
        hands.append(streets)
    return hands


class ScriptedBot(Bot):
    """Plays ``script`` (as :func:`parse_script` reads it), decision by decision."""

    def __init__(self, script: list[list[list[str]]], rebuy: bool = False) -> None:
        self.script = script
        self.rebuys = rebuy
        self.done: dict[tuple[int, str], int] = {}  # decisions made per (hand, street)

    def decide(self, state) -> str:
        streets = [name for name, _ in state.round.streets]
        street = streets.index(state.street)
        key = (state.hand, state.street)
        count = self.done.get(key, 0)
        self.done[key] = count + 1
        hand = self.script[state.hand] if state.hand < len(self.script) else [["c"]]
        words = hand[street] if street < len(hand) else ["c"]
        word = words[min(count, len(words) - 1)]
        if word == "f":
            return state.fold() or state.check_or_call()
        if word == "r" and state.raise_range is not None:
            return state.raise_to(state.raise_range[0])
        if word == "a" and state.raise_range is not None:
            return state.raise_to(state.raise_range[1])
        return state.check_or_call()

    def rebuy(self, result) -> bool:
        return self.rebuys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("script", help="the actions to play, e.g. 'r c|c|a / f'")
    parser.add_argument("--rebuy", action="store_true",
                        help="answer REBUY whenever the stack is below the starting stack")
    args = parser.parse_args(argv)
    try:
        script = parse_script(args.script)
    except ValueError as exc:
        parser.error(str(exc))
    run(ScriptedBot(script, args.rebuy))
    return 0


if __name__ == "__main__":
    sys.exit(main())

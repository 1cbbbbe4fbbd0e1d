"""A bot that plays the actions of a recorded hand, for replaying real hands through the server.

    python tests/programs/phh_bot.py --seat N --script FILE

FILE is JSON: a list of ``[seat, verb, chips]`` in the hand's order, ``verb`` being the PHH
verb (``f`` folds, ``cc`` checks or calls, ``cbr`` bets or raises to ``chips`` in front). The
bot plays the actions of its own seat, in order, one per decision (the client library checks
that each is legal), then checks or calls if it is asked more.
"""

from __future__ import annotations

import argparse
import json

from pokerbots.protocol.client import run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seat", type=int, required=True)
    parser.add_argument("--script", required=True)
    args = parser.parse_args()
    with open(args.script, encoding="utf-8") as f:
        mine = [(verb, chips) for seat, verb, chips in json.load(f) if seat == args.seat]

    def decide(state) -> str:
        if not mine:
            return state.check_or_call()
        verb, chips = mine.pop(0)
        if verb == "f":
            return state.fold()
        if verb == "cc":
            return state.check_or_call()
        return state.raise_to(chips)

    run(decide)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""How long does a Python bot spend in the client library per message?

    python benchmarks/client.py [--hands N]

Records what seat 0 of a 3-player round receives (every game in the registry, check/call play,
the referee in-process), then feeds those exact bytes, line by line as ``run()`` does, to a
fresh ``Client`` whose bot checks or calls, and reports the CPU time per message and per hand:
the library's whole cost, the bot's own decision (one method call) aside.
"""

from __future__ import annotations

import argparse
import random
import time

from pokerbots.protocol.client import Client
from pokerbots.server import games
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee


def check_or_call(state) -> str:
    return state.check_or_call()


def transcript(name: str, hands: int) -> tuple[list[bytes], int]:
    """Seat 0's input lines in a round of ``hands`` hands, and the number of its messages."""
    game = games.make_game(name, 3)
    referee = Referee(game, random.Random(1), hands=hands)
    seen: list = []
    play_local(referee, [Client(check_or_call, game=name) for _ in range(3)], transcript=seen)
    messages = [m for s, _, m, _ in seen if s == 0]
    return [line + b"\n" for m in messages for line in m.splitlines()], len(messages)


def measure(name: str, hands: int, repeats: int = 5) -> tuple[float, float]:
    lines, messages = transcript(name, hands)
    best = float("inf")
    for _ in range(repeats):
        client = Client(check_or_call, game=name)
        feed = client.feed
        start = time.process_time()
        for line in lines:
            feed(line)
        best = min(best, time.process_time() - start)
    assert client.done
    return best / messages * 1e6, best / hands * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    args = parser.parse_args()
    print(f"{'game':14} {'us/message':>10} {'us/hand':>9}   (client library, seat 0 of 3)")
    for name in games.names():
        per_message, per_hand = measure(name, args.hands)
        print(f"{name:14} {per_message:10.1f} {per_hand:9.1f}")


if __name__ == "__main__":
    main()

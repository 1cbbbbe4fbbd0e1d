"""The exact text one seat receives in a short round, played in-process with no bot process.

The round is played by the real referee with **every seat checking or calling** (the client
library's bookkeeping, a rebuy when broke in carry mode), so the text is exactly what a
check/call bot receives; a bot that plays differently sees the same text up to its first
different decision. With the same seed, hands, game and table size, the deal matches
``pokerbots run ... --seed S --hands N``. ``pokerbots deal`` prints it.
"""

from __future__ import annotations

import random

from pokerbots.protocol.client import Client
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee


def _check_or_call(state) -> str:
    return state.check_or_call()


def transcript(game, *, seed: int, hands: int) -> list[tuple]:
    """Play a round with every seat checking or calling (the client library's bookkeeping,
    a rebuy when broke in carry mode); return ``(seat, kind, message, reply)`` tuples."""
    referee = Referee(game, random.Random(seed), hands=hands, seed=seed)
    seats = [Client(_check_or_call, game=game.name) for _ in range(game.players)]
    exchanges: list = []
    play_local(referee, seats, transcript=exchanges)
    return exchanges


def seat_text(game, seat: int, *, seed: int, hands: int, replies: bool = False) -> bytes:
    """What ``seat`` receives (with the check/call replies after each message if ``replies``)."""
    out = bytearray()
    for s, _, message, answer in transcript(game, seed=seed, hands=hands):
        if s == seat:
            out += message
            if replies:
                out += answer + b"\n"
    return bytes(out)

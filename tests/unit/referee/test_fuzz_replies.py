"""Property-based fuzzing of every reply slot.

Arbitrary bytes and near-miss replies, in any slot of a round (init_round, init_hand, play,
end_hand, end_action, end_round), always give either an accepted legal reply or a BotFault:
never another exception, never a hang. Kuhn and no-limit Hold'em, through the sans-I/O referee;
and the line reader of the process layer, through a real pipe.
"""

from __future__ import annotations

import os
import random
import re

import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerbots.protocol import GOODBYE
from pokerbots.server.confine.limits import ResourceLimits
from pokerbots.server.errors import BotFault
from pokerbots.server.games import make_game
from pokerbots.server.referee.referee import Referee
from pokerbots.server.seats.process import MAX_LINE, BotProcess, LineTooLong, PipeClosed

from drive import good_reply, replies_for, slots

SLOTS = ["init_round", "init_hand", "play", "end_hand", "end_action", "end_round"]
GAMES = [("kuhn", 2), ("kuhn", 3), ("holdem-nl", 3)]
WORDS = [b"BET", b"FOLD", b"PASS", b"READY", b"OK", b"REBUY", b"Money:", GOODBYE.encode()]


def near_misses(legal: bytes) -> st.SearchStrategy[bytes]:
    """Right word, wrong number; wrong case; extra spaces; huge and negative numbers..."""
    word, _, number = legal.partition(b" ")
    numbers = st.one_of(st.integers(-10**30, 10**30).map(lambda n: str(n).encode()),
                        st.sampled_from([b"", b"0", b"00", b"01", b"-0", b"+1", b"1.0", b"1e3",
                                         b"9" * 40, b"\xd9\xa3", b" 1", b"1 "]))
    templates = st.one_of(
        st.builds(lambda w, n: w + b" " + n, st.sampled_from(WORDS), numbers),
        st.just(legal.lower()), st.just(legal.upper()), st.just(legal.swapcase()),
        st.just(b" " + legal), st.just(legal + b" "), st.just(legal.replace(b" ", b"  ")),
        st.just(legal + b"\r"), st.just(legal + b"\r\r"), st.just(legal.replace(b",", b", ")),
        st.builds(lambda n: word + b" " + n, numbers),
        st.builds(lambda n: re.sub(rb"-?\d+", n, legal, count=1), numbers),
        st.just(legal),
    )
    return templates


def run_to_slot(game_name: str, players: int, seed: int, slot: str, occurrence: int):
    """A referee driven with good replies up to an exchange that asks for ``slot``."""
    game = make_game(game_name, players)
    referee = Referee(game, random.Random(seed), hands=3)
    gen = referee.exchanges()
    exchange = gen.send(None)
    seen = 0
    while True:
        if any(kind == slot for _, _, kind in slots(exchange)):
            if seen == occurrence or slot in ("init_round", "end_round"):
                return referee, gen, exchange
            seen += 1
        exchange = gen.send(replies_for(referee, exchange))


def finish(referee: Referee, gen, exchange) -> None:
    """Play the rest of the round with good replies: an accepted reply must leave a sane state."""
    try:
        while True:
            exchange = gen.send(replies_for(referee, exchange))
    except StopIteration:
        pass


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), game=st.sampled_from(GAMES), seed=st.integers(0, 50),
       slot=st.sampled_from(SLOTS), occurrence=st.integers(0, 2), arbitrary=st.booleans())
def test_every_reply_slot_gives_a_legal_action_or_a_bot_fault(data, game, seed, slot,
                                                              occurrence, arbitrary):
    name, players = game
    referee, gen, exchange = run_to_slot(name, players, seed, slot, occurrence)
    seat, part, kind = data.draw(st.sampled_from(
        [found for found in slots(exchange) if found[2] == slot]))
    legal = good_reply(referee, seat, kind, part)
    if arbitrary:
        reply = data.draw(st.binary(max_size=MAX_LINE).filter(lambda b: b"\n" not in b))
    else:
        reply = data.draw(near_misses(legal))
    over = False
    try:
        exchange = gen.send(replies_for(referee, exchange, bad=((seat, part), reply)))
    except BotFault as fault:
        assert fault.seat == seat
        assert fault.reason
        fault.paragraph()  # always printable
        fault.as_dict()
        return
    except StopIteration:  # the round ended: the reply was to end_round or went with it
        assert kind == "end_round" or any(k == "end_round" for _, _, k in slots(exchange))
        over = True
    if kind == "end_round":
        assert reply.rstrip(b"\r") == GOODBYE.encode() and reply.count(b"\r") <= 1
        return
    # Accepted: only an exactly legal reply (a CR at the end is forgiven) gets through.
    plain = reply[:-1] if reply.endswith(b"\r") else reply
    if kind == "play":
        assert re.fullmatch(rb"(BET|FOLD) (0|[1-9][0-9]*)", plain), reply
    elif kind == "end_action":
        assert plain.startswith(b"Money: ")
    else:
        assert plain in (b"READY", b"OK"), reply
    if not over:
        finish(referee, gen, exchange)


class _Exited:
    returncode = 0
    pid = -1

    async def wait(self):
        return 0

    def poll(self):
        return 0


@settings(max_examples=150, deadline=None)
@given(chunks=st.lists(st.binary(max_size=3000), max_size=6))
def test_the_line_reader_returns_a_line_or_a_fault_never_hangs(chunks):
    """Whatever bytes arrive in whatever pieces, read_line() ends with a line, the end of the
    pipe, or a line refused as too long: never a hang, never another exception."""

    async def main():
        r, w = os.pipe()
        os.set_blocking(r, False)
        bot = BotProcess(_Exited(), -1, r, wrapped=False, resources=ResourceLimits())
        try:
            for chunk in chunks:
                os.write(w, chunk)
            os.close(w)
            with trio.fail_after(2):
                try:
                    return await bot.read_line(trio.current_time() + 1)
                except (PipeClosed, LineTooLong) as exc:
                    return exc
        finally:
            os.close(r)

    joined = b"".join(chunks)
    result = trio.run(main)
    if isinstance(result, bytes):
        assert b"\n" in joined and result == joined.split(b"\n", 1)[0]
        assert len(result) <= MAX_LINE
    elif isinstance(result, LineTooLong):
        first = joined.split(b"\n", 1)[0]
        assert len(first) > MAX_LINE and result.line.startswith(first[:MAX_LINE])
    else:
        assert isinstance(result, PipeClosed)
        assert b"\n" not in joined and len(joined) <= MAX_LINE

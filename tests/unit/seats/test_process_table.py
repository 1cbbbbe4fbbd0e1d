"""The two exchange kinds through a real process table: an ask of one seat and a tell to every
seat, each carrying one or several messages in one write, with real bot processes on pipes.

What each bot receives is exactly what the in-process round sends (``pokerbots deal``'s text),
deferred or not, and a bot that exits in the middle of a write is the fault of the message it
did not answer.
"""

from __future__ import annotations

import io
import os
import random
import sys
from pathlib import Path

import pytest
import trio

from pokerbots.protocol.wire import Kind
from pokerbots.server.errors import BotFault
from pokerbots.server.games import make_game
from pokerbots.server.referee.clock import SeatClock
from pokerbots.server.referee.coalesce import Ask, Tell
from pokerbots.server.referee.driver import drive
from pokerbots.server.referee.referee import Referee
from pokerbots.server.referee.transcript import seat_text
from pokerbots.server.seats import process
from pokerbots.server.seats.bots import BotSpec
from pokerbots.server.seats.limits import Limits
from pokerbots.server.seats.runner import ProcessTable, bot_env

ROOT = Path(__file__).resolve().parents[3]
CALL_BOT = (sys.executable, str(ROOT / "bots" / "call_bot.py"))

#: A check/call bot that exits at its first decision of hand 1.
LEAVES = (sys.executable, "-c", """
import os
from pokerbots.protocol.client import run

def decide(state):
    if state.hand == 1:
        os._exit(0)
    return state.check_or_call()

run(decide)
""")


class Recording:
    """The process table, noting each exchange posted (the driver's Table)."""

    def __init__(self, table: ProcessTable) -> None:
        self.table = table
        self.posted: list = []
        self.poll, self.reply, self.answered = table.poll, table.reply, table.answered

    def post(self, exchange) -> None:
        self.posted.append(exchange)
        self.table.post(exchange)


def play(referee: Referee, argvs, tmp_path: Path):
    """Play ``referee``'s round with a bot process per seat; return the table, the fault (or
    None) and what each seat was sent (its transcript)."""
    transcripts = [io.BytesIO() for _ in argvs]

    async def main():
        bots = []
        try:
            for seat, argv in enumerate(argvs):
                stderr = os.open(tmp_path / f"seat{seat}.err", os.O_WRONLY | os.O_CREAT)
                try:
                    bots.append(await process.start(
                        BotSpec(label=f"bot{seat}", argv=argv), env=bot_env(referee.game.name),
                        resources=Limits().resources, seat=seat, stderr_fd=stderr))
                finally:
                    os.close(stderr)
            table = Recording(ProcessTable(bots, transcripts, [SeatClock() for _ in argvs],
                                           Limits()))
            with trio.fail_after(60):
                try:
                    await drive(referee, table)
                except BotFault as fault:  # (frozen: it leaves here as a value, as in play())
                    return table, fault
            return table, None
        finally:
            for bot in bots:
                bot.kill()
                await bot.process.wait()

    table, fault = trio.run(main)
    return table, fault, [t.getvalue() for t in transcripts]


@pytest.mark.parametrize("game, options", [("kuhn", {}), ("holdem-nl", {"carry": True,
                                                                          "stack": 40})])
@pytest.mark.parametrize("defer", [True, False])
def test_each_bot_receives_what_the_in_process_round_sends(tmp_path, game, options, defer):
    table = make_game(game, 3, **options)
    referee = Referee(table, random.Random(4), hands=6, defer=defer)
    recording, fault, received = play(referee, [CALL_BOT] * 3, tmp_path)
    assert fault is None
    for seat in range(3):  # (a fresh table: a carried one keeps the stacks it ended with)
        assert received[seat] == seat_text(make_game(game, 3, **options), seat, seed=4,
                                           hands=6)
    posted = recording.posted
    assert {type(e) for e in posted} == {Ask, Tell}
    several = [e for e in posted if isinstance(e, Ask) and len(e.kinds) > 1]
    if defer and not table.carry:  # a seat's messages waited for its play
        assert several and all(list(e.kinds)[-1] is Kind.PLAY for e in several)
        assert sum(isinstance(e, Tell) for e in posted) == 2  # init_round, end_round
    else:  # every hand starts with a tell to every seat
        assert not several
        assert sum(isinstance(e, Tell) for e in posted) >= 2 + 6
    assert referee.hands_played == 6 and sum(referee.bankrolls) == 0


@pytest.mark.parametrize("defer", [True, False])
def test_a_bot_that_exits_in_the_middle_of_a_write_fails_on_the_message_it_left(tmp_path,
                                                                               defer):
    referee = Referee(make_game("kuhn", 3), random.Random(4), hands=6, button=0, defer=defer)
    recording, fault, _ = play(referee, [LEAVES, CALL_BOT, CALL_BOT], tmp_path)
    last = recording.posted[-1]
    if defer:  # its last write held hand 0's end and hand 1's start before the play
        assert isinstance(last, Ask) and last.seat == 0
        assert [k.value for k in last.kinds] == ["end_hand", "end_action", "init_hand", "play"]
    # The replies it sent in that write (READY, OK, Money) were right; its play was not.
    assert (fault.seat, fault.hand, fault.kind, fault.seat_failure) == (0, 1, "play", True)
    assert fault.sent.startswith("play\n")
    assert "exited with code 0" in fault.reason

"""Messages that wait for a seat's next turn (a match on one CPU): every seat still receives
the same bytes, a hand costs one write per decision, and a fault in a reply that waited names
the hand it belongs to."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from pokerbots.protocol.client import Client
from pokerbots.server.errors import BotFault
from pokerbots.server.games import make_game
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

from drive import replies_for
from processes import only_match_dir, pokerbots

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bots"))
from random_bot import RandomBot  # noqa: E402

TABLES = [("kuhn", 2, {}), ("kuhn", 3, {}), ("holdem-nl", 3, {}), ("holdem-limit", 6, {}),
          ("holdem-nl", 3, {"carry": True}), ("leduc", 2, {})]


def play(game: str, players: int, options: dict, defer: bool, *, hands: int = 40, seats=None):
    """Each seat's received bytes and replies, and the bankrolls, of one in-process round."""
    referee = Referee(make_game(game, players, **options), random.Random(5), hands=hands,
                      defer=defer)
    if seats is None:
        seats = [Client(RandomBot(random.Random(40 + s)), game=game) for s in range(players)]
    transcript: list = []
    play_local(referee, seats, transcript=transcript)
    received = [b"".join(m for s, _, m, _ in transcript if s == v) for v in range(players)]
    replies = [b"\n".join(r for s, _, _, r in transcript if s == v) for v in range(players)]
    return received, replies, referee.bankrolls


@pytest.mark.parametrize("game, players, options", TABLES)
def test_every_seat_receives_the_same_bytes_whether_messages_wait_or_not(game, players,
                                                                         options):
    assert play(game, players, options, True) == play(game, players, options, False)


def writes_per_seat(defer: bool, hands: int) -> list[int]:
    """How many writes each seat of a 3-player always-call Kuhn round receives."""
    referee = Referee(make_game("kuhn", 3), random.Random(1), hands=hands, defer=defer)
    exchanges = referee.exchanges()
    writes = [0, 0, 0]
    reply = None
    try:
        while True:
            exchange = exchanges.send(reply)
            for s in [exchange.seat] if exchange.seat is not None else [0, 1, 2]:
                writes[s] += 1
            reply = replies_for(referee, exchange)
    except StopIteration:
        return writes


def test_waiting_messages_make_a_hand_one_write_per_decision():
    # 3-player Kuhn, checked around: three decisions a hand, one by each seat. Waiting, each
    # seat gets init_round, one write a hand (its play, with the rest) and end_round.
    assert writes_per_seat(True, 10) == [12, 12, 12]
    # Otherwise each hand starts with a write to every seat (the first to act gets its play
    # in it), and the two others to act get a write each: 5 a hand instead of 3.
    assert sum(writes_per_seat(False, 10)) == 3 + 10 * 5 + 3


def fold_or_check(state) -> str:
    """Folds whenever folding is allowed, else checks: in 3-player Hold'em the big blind then
    wins every hand without acting."""
    return state.fold() or state.check_or_call()


class WrongMoney(Client):
    """A client whose Money line is wrong after hand ``bad_hand``."""

    def __init__(self, bad_hand: int) -> None:
        super().__init__(fold_or_check, game="holdem-nl")
        self.bad_hand, self.ended = bad_hand, -1

    def receive(self, message: bytes):
        reply = super().receive(message)
        if message.startswith(b"EndAction"):
            self.ended += 1
            if self.ended == self.bad_hand:
                return reply + b"0"
        return reply


@pytest.mark.parametrize("defer", [True, False])
def test_a_wrong_money_line_that_waited_names_its_hand_and_the_money_then(defer):
    """Seat 0 is the big blind of hand 2 and does not act in it; its wrong Money line for hand
    1 reaches the server only with its first decision of hand 3."""
    seats = [WrongMoney(1)] + [Client(fold_or_check, game="holdem-nl") for _ in range(2)]
    played: list = []
    referee = Referee(make_game("holdem-nl", 3), random.Random(5), hands=6, button=2,
                      defer=defer, on_hand=played.append)
    with pytest.raises(BotFault) as caught:
        play_local(referee, seats)
    fault = caught.value
    assert (fault.seat, fault.hand, fault.kind) == (0, 1, "end_action")
    assert fault.reason == "the Money totals are wrong"
    assert fault.legal == "Money: " + ",".join(map(str, played[1]["bankrolls"]))
    assert fault.received.endswith(b"0") and fault.sent.startswith("end_hand\n")  # of hand 1
    assert "\nStacks: " in fault.sent and fault.sent.endswith("EndAction: OK\n")
    assert len(played) == (3 if defer else 2)  # hands played before the fault was seen


def test_a_match_on_one_cpu_and_one_on_every_cpu_leave_the_same_logs(tmp_path):
    bot = f"{sys.executable} {ROOT / 'bots' / 'random_bot.py'} --seed 3"
    folders = []
    for cpu in ("0", "none"):
        logs = tmp_path / cpu
        result = pokerbots("run", bot, bot, bot, "--game", "holdem-nl", "--hands", 40,
                           "--seed", 9, "--cpu", cpu, "--logs", logs)
        assert result.returncode == 0, result.stderr
        folders.append(only_match_dir(logs))
    for name in ("hands.jsonl", "hands.txt", "seat0.in", "seat1.in", "seat2.in"):
        assert (folders[0] / name).read_bytes() == (folders[1] / name).read_bytes(), name

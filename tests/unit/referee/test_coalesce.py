"""The coalescer: what waits goes out with a seat's next question when deferred, to every seat
as a hand starts otherwise, and each seat receives the same bytes either way.

Whole rounds of every game at every table size (a REBUY game included) through the real
referee, and the coalescer alone on scripted rules, where each write can be read off.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from pokerbots.protocol.client import Client
from pokerbots.protocol.wire import Kind
from pokerbots.server import games
from pokerbots.server.errors import BotFault
from pokerbots.server.referee.coalesce import Ask, Coalescer, Notice, Question, Tell
from pokerbots.server.referee.driver import LocalTable, drive, play_local
from pokerbots.server.referee.referee import Referee

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bots"))
from random_bot import RandomBot  # noqa: E402

#: Every game at every table size it allows, and games whose seats REBUY (short stacks that
#: carry from hand to hand, so that seats go broke).
TABLES = [(t.name, players, {}) for t in games.all_types()
          for players in range(t.min_players, t.max_players + 1)]
REBUY = [("holdem-nl", 3, {"carry": True, "stack": 60}),
         ("holdem-limit", 2, {"carry": True, "stack": 40}),
         ("holdem-nl", 6, {"carry": True, "stack": 100, "ante": 5})]


def round_of(name: str, players: int, options: dict, defer: bool, hands: int = 12):
    """Each seat's received bytes and replies, the bankrolls, and the exchanges' kinds, of an
    in-process round of random play (the same seeds either way)."""
    referee = Referee(games.make_game(name, players, **options), random.Random(players),
                      hands=hands, defer=defer)
    seats = [Client(RandomBot(random.Random(70 + s)), game=name) for s in range(players)]
    transcript: list = []
    exchanges: list = []
    table = LocalTable(seats, transcript)

    class Recording:
        poll, answered = table.poll, table.answered

        def post(self, exchange):
            exchanges.append(exchange)
            table.post(exchange)

        async def reply(self, seat):  # pragma: no cover - a local seat answers at once
            return await table.reply(seat)

    coroutine = drive(referee, Recording())
    with pytest.raises(StopIteration):
        coroutine.send(None)
    received = [b"".join(m for s, _, m, _ in transcript if s == v) for v in range(players)]
    replies = [[r for s, _, _, r in transcript if s == v] for v in range(players)]
    return received, replies, list(referee.bankrolls), exchanges


@pytest.mark.parametrize("name, players, options", TABLES + REBUY)
def test_every_seat_receives_the_same_bytes_whether_its_messages_wait_or_not(name, players,
                                                                             options):
    waited = round_of(name, players, options, True)
    sent_at_once = round_of(name, players, options, False)
    assert waited[:3] == sent_at_once[:3]
    # Both are made only of the two kinds, and deferring never costs more writes.
    for exchanges in (waited[3], sent_at_once[3]):
        assert all(isinstance(e, (Ask, Tell)) for e in exchanges)
    writes = [sum(1 if isinstance(e, Ask) else players for e in run[3])
              for run in (waited, sent_at_once)]
    assert writes[0] <= writes[1]


@pytest.mark.parametrize("name, players, options", REBUY)
def test_a_rebuy_game_is_played_with_rebuys_and_never_deferred(name, players, options):
    _, replies, _, exchanges = round_of(name, players, options, True)
    assert any(b"REBUY" in seat for seat in replies)  # the REBUY path was played
    # Every hand's end asks every seat; what waited went out as the hand started.
    for exchange in exchanges:
        if isinstance(exchange, Ask):
            assert list(exchange.kinds) == [Kind.PLAY]


def test_deferred_a_kuhn_hand_is_one_write_per_decision():
    _, _, _, exchanges = round_of("kuhn", 3, {}, True, hands=5)
    tells = [e for e in exchanges if isinstance(e, Tell)]
    assert [list(e.kinds[0])[-1] for e in tells] == [Kind.INIT_ROUND, Kind.END_ROUND]
    bundled = [e for e in exchanges if isinstance(e, Ask) and len(e.kinds) > 1]
    assert bundled and all(list(e.kinds)[-1] is Kind.PLAY for e in bundled)
    assert {k for e in bundled for k in e.kinds} <= {Kind.INIT_HAND, Kind.END_HAND,
                                                      Kind.END_ACTION, Kind.PLAY}


# -- the coalescer alone, on scripted rules -------------------------------------------------


def notice(kind: Kind, hand: int | None, now: bool = False) -> Notice:
    name = kind.value.encode()
    return Notice(kind, [b"%s to %d\n" % (name, v) for v in range(3)],
                  [b"%s from %d" % (name, v) for v in range(3)], hand, now)


def script(*steps):
    """Rules that yield ``steps`` and keep what each question got back."""
    got = []

    def rules():
        for step in steps:
            got.append((yield step))

    return rules(), got


def writes(coalescer: Coalescer, rules) -> list[tuple]:
    """Play the coalescer's exchanges with right answers: each write as (seat, kinds), a
    tell's as ('every', kinds of each seat)."""
    out = []
    exchanges = coalescer.exchanges(rules)
    answer = None
    while True:
        try:
            exchange = exchanges.send(answer)
        except StopIteration:
            return out
        if isinstance(exchange, Ask):
            out.append((exchange.seat, [k.value for k in exchange.kinds]))
            answer = [_answer(m) for m in exchange.messages]
        else:
            out.append(("every", [[k.value for k in kinds] for kinds in exchange.kinds]))
            answer = [[_answer(m) for m in messages] for messages in exchange.messages]


def _answer(message: bytes) -> bytes:
    name, _, seat = message.rstrip(b"\n").partition(b" to ")
    return b"%s from %s" % (name, seat)


HAND = [notice(Kind.INIT_HAND, 0), Question(Kind.PLAY, 1, [b"play to 1\n"]),
        Question(Kind.PLAY, 2, [b"play to 2\n"]), notice(Kind.END_HAND, 0),
        notice(Kind.END_ACTION, 0)]
ROUND = [notice(Kind.INIT_ROUND, None, now=True), *HAND, *HAND,
         notice(Kind.END_ROUND, None, now=True)]


def judged() -> tuple[list, callable]:
    seen: list = []

    def judge(seat, part, reply):
        assert reply == part.answer
        seen.append((seat, part.kind.value))

    return seen, judge


def test_deferred_what_waits_goes_with_the_seats_next_question():
    seen, judge = judged()
    rules, got = script(*ROUND)
    assert writes(Coalescer(3, judge, defer=True), rules) == [
        ("every", [["init_round"]] * 3),
        (1, ["init_hand", "play"]),
        (2, ["init_hand", "play"]),
        (1, ["end_hand", "end_action", "init_hand", "play"]),
        (2, ["end_hand", "end_action", "init_hand", "play"]),
        ("every", [["init_hand", "end_hand", "end_action", "init_hand", "end_hand",
                    "end_action", "end_round"],
                   ["end_hand", "end_action", "end_round"],
                   ["end_hand", "end_action", "end_round"]]),
    ]
    assert [g for g in got if g is not None] == [b"play from 1", b"play from 2"] * 2
    # Every reply that waited was judged: the last write's first lines of every seat, then
    # their second lines, and so on (the order they are read in).
    assert seen[-13:] == [(0, "init_hand"), (1, "end_hand"), (2, "end_hand"),
                          (0, "end_hand"), (1, "end_action"), (2, "end_action"),
                          (0, "end_action"), (1, "end_round"), (2, "end_round"),
                          (0, "init_hand"), (0, "end_hand"), (0, "end_action"),
                          (0, "end_round")]
    assert len(seen) == 3 + 1 + 1 + 3 + 3 + 13  # each write's, all but its play


def test_not_deferred_what_waits_goes_to_every_seat_as_the_hand_starts():
    seen, judge = judged()
    rules, _ = script(*ROUND)
    assert writes(Coalescer(3, judge), rules) == [
        ("every", [["init_round"]] * 3),
        ("every", [["init_hand"], ["init_hand", "play"], ["init_hand"]]),
        (2, ["play"]),
        ("every", [["end_hand", "end_action", "init_hand"],
                   ["end_hand", "end_action", "init_hand", "play"],
                   ["end_hand", "end_action", "init_hand"]]),
        (2, ["play"]),
        ("every", [["end_hand", "end_action", "end_round"]] * 3),
    ]
    # Judged in the order the lines come: every seat's first, then every seat's second...
    assert seen[6:15] == [(0, "end_hand"), (1, "end_hand"), (2, "end_hand"),
                          (0, "end_action"), (1, "end_action"), (2, "end_action"),
                          (0, "init_hand"), (1, "init_hand"), (2, "init_hand")]


def test_a_rebuy_game_is_never_deferred_and_its_question_to_every_seat_takes_what_waits():
    _, judge = judged()
    end = Question(Kind.END_HAND, None, [b"end_hand to %d\n" % v for v in range(3)])
    rules, got = script(notice(Kind.INIT_ROUND, None, now=True), notice(Kind.INIT_HAND, 0),
                        Question(Kind.PLAY, 0, [b"play to 0\n"]), end,
                        notice(Kind.END_ACTION, 0), notice(Kind.INIT_HAND, 1),
                        Question(Kind.PLAY, 1, [b"play to 1\n"]))
    assert writes(Coalescer(3, judge, defer=True, rebuy=True), rules) == [
        ("every", [["init_round"]] * 3),
        ("every", [["init_hand", "play"], ["init_hand"], ["init_hand"]]),
        ("every", [["end_hand"]] * 3),
        ("every", [["end_action", "init_hand"], ["end_action", "init_hand", "play"],
                   ["end_action", "init_hand"]]),
    ]
    assert got[3] == [b"end_hand from 0", b"end_hand from 1", b"end_hand from 2"]


def test_a_hand_without_decisions_starts_at_once_when_not_deferred():
    _, judge = judged()
    rules, _ = script(notice(Kind.INIT_HAND, 0), notice(Kind.END_HAND, 0),
                      notice(Kind.END_ROUND, None, now=True))
    assert writes(Coalescer(3, judge), rules) == [
        ("every", [["init_hand"]] * 3),
        ("every", [["end_hand", "end_round"]] * 3),
    ]
    rules, _ = script(notice(Kind.INIT_HAND, 0), notice(Kind.END_HAND, 0),
                      notice(Kind.END_ROUND, None, now=True))
    assert writes(Coalescer(3, judge, defer=True), rules) == [
        ("every", [["init_hand", "end_hand", "end_round"]] * 3),
    ]


def test_the_switch_is_read_as_each_hand_starts():
    _, judge = judged()
    coalescer = Coalescer(3, judge)

    def rules():
        for step in HAND:
            yield step
        coalescer.defer = True  # mid-round, as a match that moves to one CPU does
        for step in HAND:
            yield step

    assert writes(coalescer, rules()) == [
        ("every", [["init_hand"], ["init_hand", "play"], ["init_hand"]]),
        (2, ["play"]),
        (1, ["end_hand", "end_action", "init_hand", "play"]),
        (2, ["end_hand", "end_action", "init_hand", "play"]),
    ]


def test_a_wrong_reply_that_waited_is_judged_before_the_rules_see_the_question_answered():
    def judge(seat, part, reply):
        if part.kind is Kind.END_ACTION:
            raise ValueError(f"seat {seat} hand {part.hand}")

    rules, got = script(*ROUND)
    with pytest.raises(ValueError, match="seat 1 hand 0"):
        writes(Coalescer(3, judge, defer=True), rules)
    # The rules got hand 0's plays; seat 1's play in hand 1, in the write with its wrong
    # Money line, never reached them.
    assert got == [None, None, b"play from 1", b"play from 2", None, None, None]


# -- through play_local: the faults name what they answered ---------------------------------


def test_a_fault_in_a_deferred_init_hand_reply_names_its_hand_and_kind():
    class Sleepy(Client):
        def receive(self, message):
            reply = super().receive(message)
            if message.startswith(b"init_hand\nHand: 2\n"):
                return b"READ"
            return reply

    def check(state):
        return state.check_or_call()

    for defer in (True, False):
        referee = Referee(games.make_game("kuhn", 3), random.Random(2), hands=5, defer=defer)
        seats = [Sleepy(check, game="kuhn")] + [Client(check, game="kuhn") for _ in range(2)]
        with pytest.raises(BotFault) as caught:
            play_local(referee, seats)
        fault = caught.value
        assert (fault.seat, fault.hand, fault.kind, fault.legal) == (0, 2, "init_hand", "READY")
        assert fault.sent.startswith("init_hand\nHand: 2\n") and fault.received == b"READ"

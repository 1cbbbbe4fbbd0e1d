"""One test of a person's seat: ``BotSpec.person``, set by the terminal's seat alone, read by
``run`` (no progress line), the match (messages not deferred) and the process start (the
terminal's relay is not confined)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pokerbots.server.play.match import MatchConfig, _defer
from pokerbots.server.seats.arguments import HUMAN_LABEL, parse_bot, parse_seats
from pokerbots.server.seats.bots import BotSpec, BotSpecError

ROOT = Path(__file__).resolve().parents[3]
CALL_BOT = str(ROOT / "bots" / "call_bot.py")


def close(specs: list[BotSpec]) -> None:
    for spec in specs:
        for fd in spec.pass_fds:
            os.close(fd)


def test_only_the_terminals_seat_is_a_person():
    seats = parse_seats([CALL_BOT, "-"])
    try:
        assert [s.person for s in seats] == [False, True]
        assert seats[1].label == HUMAN_LABEL and seats[1].reply_limit is not None
    finally:
        close(seats)
    assert not parse_bot(CALL_BOT).person
    # A bot named like the person's seat, or with a reply limit of its own, is still a bot.
    lookalike = BotSpec(HUMAN_LABEL, ("true",), reply_limit=60.0)
    assert not lookalike.person


def test_the_match_asks_the_one_test():
    bot = parse_bot(CALL_BOT)
    person = BotSpec(HUMAN_LABEL, ("true",), person=True)
    assert _defer(MatchConfig(bots=[bot, bot], cpu=0))
    assert not _defer(MatchConfig(bots=[bot, person], cpu=0))  # the cards shown at once
    assert _defer(MatchConfig(bots=[bot, BotSpec(HUMAN_LABEL, ("true",), reply_limit=9.0)],
                              cpu=0))


def test_one_person_at_most():
    with pytest.raises(BotSpecError, match="only one seat can be the terminal"):
        parse_seats(["-", "human"])

"""hands.txt reads like a poker hand history: forced bets posted, every action in words, each
line naming the player by its full label and seat."""

from __future__ import annotations

import random

from pokerbots.server.games import make_game
from pokerbots.server.logs.history import render_hand
from pokerbots.server.referee.referee import Referee

from drive import honest, run

LABELS = ["bots/alice.py", "bots/bob.py --tight", "carol"]


def history(game, deal: str, button: int, replies: list[str]) -> str:
    """hands.txt of one hand of ``game`` with ``deal``, the decisions ``replies`` in order."""
    records: list[dict] = []
    labels = LABELS[:game.players]
    referee = Referee(game, random.Random(1), hands=1, button=button,
                      deals=[game.parse_deal(deal)], on_hand=records.append, labels=labels)
    script = iter(replies)
    run(referee, honest(referee, lambda seat, message: next(script).encode()))
    return render_hand(records[0], labels, game.structure.streets, game.structure.ante)


def test_a_holdem_hand_with_a_raise_a_bet_an_all_in_and_a_run_out():
    game = make_game("holdem-nl", 3, stack=100)
    text = history(game, "AhKd QsQc 9c9d | 9h 8h 2d Td Jd", 0, [
        "BET 30", "BET 30", "BET 30",  # alice raises to 30, bob and carol call
        "BET 0", "BET 40", "BET 70", "FOLD 0", "BET 70",  # check, bet, all-in, fold, call
    ])
    assert text == """\
Hand 0: the button is bots/alice.py (seat 0)
  bots/alice.py (seat 0) holds Ah Kd, 100 in chips
  bots/bob.py --tight (seat 1) holds Qs Qc, 100 in chips
  carol (seat 2) holds 9c 9d, 100 in chips
  bots/bob.py --tight (seat 1) posts the small blind 5
  carol (seat 2) posts the big blind 10
  *** preflop ***
  bots/alice.py (seat 0) raises to 30
  bots/bob.py --tight (seat 1) calls 25
  carol (seat 2) calls 20
  *** flop *** [9h 8h 2d]
  bots/bob.py --tight (seat 1) checks
  carol (seat 2) bets 40
  bots/alice.py (seat 0) raises to 70 and is all-in
  bots/bob.py --tight (seat 1) folds
  carol (seat 2) calls 30 and is all-in
  *** turn *** [9h 8h 2d Td]
  *** river *** [9h 8h 2d Td Jd]
  board: 9h 8h 2d Td Jd
  carol (seat 2) shows 9c 9d
  carol (seat 2) wins 230
  result: -100, -30, +130; bankrolls: -100, -30, 130

"""


def test_an_uncalled_bet_is_returned():
    game = make_game("holdem-nl", 2)
    text = history(game, "AhKd QsQc | 7h 8h 9h Td Jd", 0, ["BET 50", "FOLD 10"])
    assert "  bots/alice.py (seat 0) posts the small blind 5\n" in text  # heads-up: the button
    assert "  bots/alice.py (seat 0) raises to 50\n  bots/bob.py --tight (seat 1) folds\n" in text
    assert "  uncalled bet of 40 returned to bots/alice.py (seat 0)\n" in text
    assert "  bots/alice.py (seat 0) wins 20\n" in text


def test_a_kuhn_hand_posts_antes_and_bets_one_chip():
    game = make_game("kuhn", 3)
    text = history(game, "Q J K", 2, ["BET 1", "BET 2", "FOLD 1", "BET 2"])
    assert text.splitlines()[4:11] == [
        "  bots/alice.py (seat 0) posts an ante of 1",
        "  bots/bob.py --tight (seat 1) posts an ante of 1",
        "  carol (seat 2) posts an ante of 1",
        "  bots/alice.py (seat 0) checks",
        "  bots/bob.py --tight (seat 1) bets 1",
        "  carol (seat 2) folds",
        "  bots/alice.py (seat 0) calls 1",
    ]
    assert "***" not in text  # one betting round: no street headings


def test_dead_antes_are_posted_first_and_the_big_blinds_extra_goes_back():
    game = make_game("holdem-nl", 3, ante=5, stack=[100, 200, 300])
    text = history(game, "AhKd QsQc 9c9d | 9h 8h 2d Td Jd", 0, ["FOLD 0", "FOLD 5"])
    assert text.splitlines()[1:12] == [
        "  bots/alice.py (seat 0) holds Ah Kd, 100 in chips",
        "  bots/bob.py --tight (seat 1) holds Qs Qc, 200 in chips",
        "  carol (seat 2) holds 9c 9d, 300 in chips",
        "  bots/bob.py --tight (seat 1) posts a dead ante of 5",
        "  carol (seat 2) posts a dead ante of 5",
        "  bots/alice.py (seat 0) posts a dead ante of 5",
        "  bots/bob.py --tight (seat 1) posts the small blind 5",
        "  carol (seat 2) posts the big blind 10",
        "  *** preflop ***",
        "  bots/alice.py (seat 0) folds",
        "  bots/bob.py --tight (seat 1) folds",
    ]
    assert "  uncalled bet of 5 returned to carol (seat 2)\n  carol (seat 2) wins 25\n" in text

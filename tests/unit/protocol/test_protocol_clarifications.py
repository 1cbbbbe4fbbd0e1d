"""PROTOCOL.md says exactly what the server does in the four places a strict client found
unclear: each transcript there is checked against the referee's own messages."""

from __future__ import annotations

import random
from pathlib import Path

from pokerbots.server.games import make_game
from pokerbots.server.referee.referee import Referee

from drive import honest, run

DOC = (Path(__file__).resolve().parents[3] / "protocol" / "PROTOCOL.md").read_text()
DEAL = "AhKd QsQc 9c9d | 9h 8h 2d Td Jd"


def messages(game, replies: list[str], seat: int, kind: str) -> list[str]:
    """What ``seat`` receives as ``kind`` in one hand (button on seat 0) with the decisions
    ``replies`` in order of play."""
    referee = Referee(game, random.Random(1), hands=1, button=0, deals=[game.parse_deal(DEAL)])
    script = iter(replies)
    transcript = run(referee, honest(referee, lambda s, message: next(script).encode()))
    return [m.decode() for s, k, m, _ in transcript if s == seat and k == kind]


def in_doc(message: str, lines: int | None = None) -> None:
    """The message (or its first ``lines`` lines) is a fenced block of PROTOCOL.md."""
    text = message if lines is None else "".join(message.splitlines(True)[:lines])
    assert f"```\n{text}```" in DOC, text


def test_everyone_folds_to_the_big_blind_which_end_hand_shows_as_blind():
    (end,) = messages(make_game("holdem-nl", 3), ["FOLD 0", "FOLD 5"], 0, "end_hand")
    assert "Action: BLIND 10\n" in end
    in_doc(end, lines=6)


def test_after_an_all_in_run_out_end_hand_shows_the_last_betting_round():
    (end,) = messages(make_game("holdem-nl", 3), ["BET 2000", "FOLD 5", "BET 2000"], 0,
                      "end_hand")
    in_doc(end)


def test_a_player_all_in_from_its_blind_is_blind_all_first_round():
    game = make_game("holdem-nl", 3, stack=10)
    plays = messages(game, ["BET 10", "FOLD 5"], 0, "play")
    in_doc(plays[0])
    (end,) = messages(game, ["BET 10", "FOLD 5"], 0, "end_hand")
    assert end.splitlines()[3] == "Action: BLIND 10"


def test_limit_all_in_for_less_than_a_full_raise_is_one_value():
    (play,) = messages(make_game("holdem-limit", 3, stack=15), ["BET 15", "BET 15", "BET 15"],
                       0, "play")
    assert "Stacks: 15,10,5\nRaise: 15,15\n" in play
    assert "`Raise: 15,15`, not `Raise: 15,20`" in DOC

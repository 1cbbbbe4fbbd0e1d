"""An action in words, said once: the hand history (hands.txt) and the site's replayer say the
same words for every action of real rounds of every game."""

from __future__ import annotations

import pytest

from pokerbots.server.hands import words
from pokerbots.server.logs.history import render_hand
from pokerbots.server.service.site import replay, visibility

import played


@pytest.mark.parametrize("folds, value, front, opening, said", [
    (True, 10, [40, 10], 0, "folds"),
    (False, 10, [10, 10], 0, "checks"),
    (False, 0, [0, 0, 0], 0, "checks"),
    (False, 40, [40, 10], 0, "calls 30"),
    (False, 25, [40, 10], 0, "calls 15"),  # all-in for less
    (False, 20, [0, 0], 0, "bets 20"),
    (False, 60, [20, 10, 0], 0, "raises to 60"),
    (False, 2, [1, 1], 1, "bets 1"),  # Kuhn: the antes in front open nothing
    (False, 3, [2, 1], 1, "raises to 3"),
    (False, 1, [1, 1], 1, "checks"),
])
def test_each_kind_of_action_is_said_as_a_hand_history_says_it(folds, value, front, opening,
                                                                said):
    phrases = words.Phrases(["bob (seat 0)", "al (seat 1)", "cy (seat 2)"])
    assert phrases.action(1, folds, value, front, opening, 50, 100) == f"al (seat 1) {said}"
    all_in = phrases.action(1, folds, value, front, opening, 100, 100)  # its last chip
    puts_in = said.split()[0] in ("calls", "bets", "raises")  # a fold or a check never is
    assert all_in == f"al (seat 1) {said}" + (words.ALL_IN if puts_in else "")
    assert phrases.action(1, folds, value, front, opening, 100, 0) == f"al (seat 1) {said}"


def test_all_in_and_wins():
    assert words.all_in(100, 100) == " and is all-in" == words.ALL_IN
    assert words.all_in(120, 100) == words.ALL_IN
    assert words.all_in(99, 100) == ""
    assert words.all_in(0, 0) == ""  # a game without stacks, or an empty seat
    assert words.Phrases(["  a (seat 0)", "  b (seat 1)"]).wins(1, 120) == "  b (seat 1) wins 120"


def _said_in_history(text: str, labels: list[str]) -> list[str]:
    """The action lines of a hand of hands.txt, as ``label (seat s) words``."""
    skip = (" holds ", " posts ", " shows ", " wins ")
    found = []
    for line in text.splitlines():
        if any(line.startswith(f"  {label} (seat {s}) ") for s, label in enumerate(labels)) \
                and not any(word in line for word in skip):
            found.append(line.strip())
    return found


@pytest.mark.parametrize("table", list(played.TABLES))
def test_the_history_and_the_replayer_say_every_action_alike(table):
    game, records = played.play(table, hands=25, seed=3)
    n = game.players
    labels = [f"bot{s}" for s in range(n)]
    summary = {"game": game.name, "game_options": played.TABLES[table][2]}
    all_ins = 0
    for r in records:
        history = render_hand(r, labels, game.structure.streets, game.structure.ante)
        steps = replay.steps(r, summary, labels, visibility.EVERYTHING)["steps"]
        said = [step["text"] for step in steps[1:-1] if step["actor"] is not None]  # not the
        # collecting of the chips in front, which the history does not say
        assert said == _said_in_history(history, labels), history
        assert len(said) == len(r["actions"])
        all_ins += sum(words.ALL_IN in text for text in said)
        won = [f"{labels[seat]} (seat {seat}) wins {amount}" for amount, seat in r["pots"]]
        assert [line.strip() for line in history.splitlines() if " wins " in line] == won
    if game.name == "holdem-nl":
        assert all_ins > 0

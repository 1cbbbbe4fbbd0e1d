"""The render: every message's text, written from the rules' numbers.

The lines a game adds (Board, Pot, Stacks, Raise, Totals), the init_round lines from a game's
facts, the cards, the Money line each seat owes and the EndAction lines, as each seat reads
them; the texts it keeps while their numbers hold are the ones it would make again.
"""

from __future__ import annotations

import random

import pytest

from pokerbots.protocol.wire import money_reply, rotate
from pokerbots.server.games import make_game
from pokerbots.server.games.engine.betting import start_hand
from pokerbots.server.referee.render import Render, shown_texts

BOARD = "2c 7d 9h Js 4s"
HOLES = ["AhAd", "KhKd", "QhQd", "3h3d"]


def start(game, button=0, board=BOARD):
    hand = start_hand(game, button, game.parse_deal(" ".join(HOLES[:game.players]) + " | "
                                                    + board))
    return hand


def play(hand, moves: str, render: Render | None = None) -> None:
    """``c`` checks or calls, ``f`` folds, a number raises to it, for the seat to act (and
    tells ``render`` of each action, as the referee does)."""
    for move in moves.split():
        seat, street = hand.to_act, hand.street
        if move == "c":
            word, value = "BET", hand.call_value()
            hand.call()
        elif move == "f":
            word, value = "FOLD", hand.front[seat]
            hand.fold()
        else:
            word, value = "BET", int(move)
            hand.raise_to(value)
        if render is not None:
            render.acted(seat, word, value, street)


def lines(render: Render, hand, view: int) -> bytes:
    """The lines the game adds to the play message of the seat ``view``."""
    render.start_hand(hand)
    message = render.play(hand, view)
    return message[message.rindex(b"Action: ") :].split(b"\n", 1)[1]


def test_the_play_lines_preflop_and_after_the_flop():
    game = make_game("holdem-nl", 3)
    render = Render(game)
    hand = start(game, board="7h 8h 9h Td Jd")
    assert lines(render, hand, 0) == b"Board: -\nPot: 0\nStacks: 2000,1995,1990\nRaise: 20,2000\n"
    play(hand, "c c c")
    assert lines(render, hand, 1) == (
        b"Board: 7h 8h 9h\nPot: 30\nStacks: 1990,1990,1990\nRaise: 10,1990\n")
    play(hand, "50")
    assert lines(render, hand, 2) == (
        b"Board: 7h 8h 9h\nPot: 30\nStacks: 1990,1990,1940\nRaise: 100,1990\n")
    play(hand, "c c")
    assert lines(render, hand, 1) == (
        b"Board: 7h 8h 9h Td\nPot: 180\nStacks: 1940,1940,1940\nRaise: 10,1940\n")


def test_no_raise_is_a_dash():
    game = make_game("holdem-limit", 3)
    hand = start(game)
    play(hand, "20 30 40")  # the cap
    assert lines(Render(game), hand, 0).endswith(b"Raise: -\n")


def test_the_end_hand_lines_after_a_showdown_and_after_a_fold_out():
    game = make_game("holdem-nl", 3)
    render = Render(game)
    hand = start(game)
    render.start_hand(hand)
    play(hand, "c c c" + " c c c" * 3)
    shown = shown_texts(hand)
    assert shown == ["Ah Ad", "-", "-"]
    assert render.end_hand(hand, 0, shown).endswith(
        b"Showdown: Ah Ad,-,-\nPots: 30,0\n" + f"Board: {BOARD}\nStacks: 2020,1990,1990\n".encode())
    assert render.end_hand(hand, 2, shown).endswith(
        b"Showdown: -,Ah Ad,-\nPots: 30,1\n" + f"Board: {BOARD}\nStacks: 1990,2020,1990\n".encode())
    game = make_game("holdem-nl", 2)
    hand = start(game)
    render = Render(game)
    render.start_hand(hand)
    play(hand, "f")
    assert render.end_hand(hand, 1, shown_texts(hand)).endswith(
        b"Pots: 10,0\nBoard: -\nStacks: 2005,1995\n")  # seat 1 won the blinds


def test_leduc_totals_say_what_each_seat_put_in():
    game = make_game("leduc", 2)
    hand = start_hand(game, 0, game.parse_deal("J Q | K"))
    render = Render(game)
    render.start_hand(hand)
    play(hand, "3 f", render)
    # Seat 0 saw seat 1's bet before it folded: PASS with the money in front (the Action
    # rule); the uncalled bet went back, so each seat put in its ante.
    assert render.end_hand(hand, 0, shown_texts(hand)) == (
        b"end_hand\nAction: FOLD 1\nAction: PASS 3\nShowdown: -,-\nPots: 2,1\n"
        b"Board: -\nTotals: 1,1\n")
    assert render.end_hand(hand, 1, shown_texts(hand)).startswith(
        b"end_hand\nAction: BET 3\nAction: FOLD 1\n")


def test_init_round_lines_come_from_the_games_facts_each_seat_reading_the_stacks_from_itself():
    game = make_game("holdem-limit", 3, stack=[100, 250, 80], ante=5)
    render = Render(game)
    # Button 2: seat 0 posts the small blind, seat 1 the big one; seat 1 reads from itself on.
    assert render.init_round([0, -3, 3], 2, (0, 1), 1) == (
        b"init_round\nMoney: -3,3,0\nBlinds: 10,0,5\nButton: 1\nEndProb: 0,1\n"
        b"Game: holdem-limit\nStack: 250,80,100\nAnte: 5\nStackMode: reset\nBetSizes: 10,20\n")
    kuhn = Render(make_game("kuhn", 2))
    assert kuhn.init_round([0, 0], 0, (1, 1000), 1) == (
        b"init_round\nMoney: 0,0\nBlinds: 1,1\nButton: 1\nEndProb: 1,1000\n")


def test_init_hand_names_the_hand_and_the_seats_cards():
    game = make_game("holdem-nl", 2)
    hand = start_hand(game, 0, game.parse_deal("AhKd Tc9s | " + BOARD))
    render = Render(game)
    assert render.init_hand(7, hand, 1) == b"init_hand\nHand: 7\nCards: Tc 9s\n"


@pytest.mark.parametrize("players", [2, 3, 6, 10])
def test_the_money_line_owed_is_the_bankrolls_from_the_seat_on(players):
    render = Render(make_game("holdem-nl", players))
    rng = random.Random(players)
    for _ in range(50):
        bankrolls = [rng.randint(-10**9, 10**9) for _ in range(players)]
        if rng.random() < 0.3:
            bankrolls[0] = 0
        for view in rng.sample(range(players), players):
            assert render.money(bankrolls, view) == money_reply(rotate(bankrolls, view))


def test_end_action_lines_for_every_pattern_of_answers():
    render = Render(make_game("holdem-nl", 3, carry=True))
    for words in (["OK", "OK", "OK"], ["OK", "REBUY", "OK"], ["REBUY", "OK", "REBUY"]):
        for _ in range(2):  # made once, then kept
            assert render.end_actions(words) == [
                "".join(f"EndAction: {w}\n" for w in rotate(words, v)).encode()
                for v in range(3)]


def test_a_new_hand_starts_the_action_lines_afresh():
    game = make_game("kuhn", 3)
    render = Render(game)
    for button, forced in ((0, b"Action: BLIND 1\n" * 3), (1, b"Action: BLIND 1\n" * 3)):
        hand = start_hand(game, button, game.parse_deal("J Q K"))
        render.start_hand(hand)
        seat = hand.to_act
        assert render.play(hand, seat) == b"play\n" + forced
        render.acted(seat, "BET", 2, 0)
        hand.raise_to(2)
        nxt = hand.to_act
        assert render.play(hand, nxt).endswith(b"Action: BET 2\n")

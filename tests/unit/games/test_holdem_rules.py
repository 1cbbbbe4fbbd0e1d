"""The rules of the Hold'em dealer, checked hand by hand through the Hand API.

Each test drives a hand with a short script of ``seat:move`` tokens (``c`` check/call, ``f`` fold,
a number: raise to that money in front), the script asserting who is due to act at every step.
A few tests go through the Referee with scripted bots to pin the exact protocol text.

Speed: ``python tests/unit/games/test_holdem_rules.py`` plays random hands and prints hands per
CPU second
(``benchmarks/dealer.py`` compares with PokerKit).
"""

from __future__ import annotations

import random
import time

import pytest

from pokerbots.protocol.wire import Legal
from pokerbots.server.games import make_game
from pokerbots.server.games.base import Deal, IllegalMove
from pokerbots.server.games.engine.betting import start_hand
from pokerbots.server.games.holdem import DECK
from pokerbots.server.referee.referee import Referee

try:
    from drive import honest, run, seat_view
except ImportError:  # run as a script from elsewhere
    honest = run = seat_view = None

# A board with no pair, no flush and no straight for the hole cards used below, so that
# AA > KK > QQ > JJ > 33 > 22 at showdown.
BOARD = "2c 7d 9h Js 4s"
def nl(players, **options):
    return make_game("holdem-nl", players, **options)


def limit(players, **options):
    return make_game("holdem-limit", players, **options)


# A royal flush on the board: everyone who reaches the showdown splits.
ROYAL = "Ts Js Qs Ks As"
HOLES = ["AhAd", "KhKd", "QhQd", "3h3d", "2h2d", "JhJd", "5h5d", "6h6d", "8h8c", "TcTd"]


def deal(game, holes=None, board=BOARD) -> Deal:
    holes = holes or HOLES[: game.players]
    return game.parse_deal(" ".join(holes) + " | " + board)


def start(game, button=0, holes=None, board=BOARD):
    return start_hand(game, button, deal(game, holes, board))


def table(stacks, cls=nl, **options):
    """A carry-mode game whose seats start with these stacks."""
    game = cls(len(stacks), stack=max(stacks), carry=True, **options)
    game.stacks[:] = stacks
    return game


def play(hand, script: str) -> None:
    for token in script.split():
        seat, move = token.split(":")
        assert hand.to_act == int(seat), f"seat {hand.to_act} is to act, not {seat} ({token})"
        if move == "c":
            hand.call()
        elif move == "f":
            hand.fold()
        else:
            hand.raise_to(int(move))


def raise_range(hand):
    legal = hand.legal()
    return None if legal.raise_min is None else (legal.raise_min, legal.raise_max)


# -- blinds and the order of play ----------------------------------------------------------------


def test_heads_up_the_button_posts_the_small_blind():
    game = nl(2)
    assert game.blinds(0) == [5, 10]
    assert game.blinds(1) == [10, 5]
    assert start(game, button=1).forced == [10, 5]


def test_heads_up_the_button_acts_first_preflop_and_the_big_blind_first_after_the_flop():
    hand = start(nl(2), button=1)
    play(hand, "1:c 0:c")  # button completes, big blind checks
    assert hand.street == 1
    play(hand, "0:c 1:c")  # flop: big blind first
    play(hand, "0:c 1:c")  # turn
    assert hand.street == 3 and hand.to_act == 0


def test_three_players_small_blind_left_of_button_big_blind_next_first_to_act_after_it():
    game = nl(3)
    assert game.blinds(0) == [0, 5, 10]
    assert game.blinds(1) == [10, 0, 5]
    assert game.blinds(2) == [5, 10, 0]
    for button in range(3):
        hand = start(game, button)
        assert hand.forced == game.blinds(button)
        assert hand.to_act == button  # left of the big blind is the button itself


def test_six_players_blinds_and_first_to_act_preflop_and_postflop():
    game = nl(6)
    assert game.blinds(2) == [0, 0, 0, 5, 10, 0]
    hand = start(game, button=2)
    play(hand, "5:c 0:c 1:c 2:c 3:c 4:c")
    assert hand.street == 1 and hand.to_act == 3  # small blind first after the flop


def test_ten_players_blinds_wrap_around_the_table():
    game = nl(10)
    assert game.blinds(9) == [5, 10] + [0] * 8
    assert start(game, button=9).to_act == 2


def test_after_the_flop_the_first_player_still_in_left_of_the_button_acts():
    game = table([2000, 2000, 50, 2000])  # button 0: SB 1, BB 2 (short), UTG 3
    hand = start(game, button=0)
    play(hand, "3:c 0:c 1:f 2:50 3:c 0:c")  # small blind folded, big blind all-in
    assert hand.street == 1 and hand.to_act == 3


def test_street_advances_and_money_in_front_resets_each_street():
    hand = start(nl(3))
    play(hand, "0:30 1:c 2:c")
    assert hand.street == 1 and hand.front == [0, 0, 0]
    play(hand, "1:c 2:40 0:c 1:c")
    assert hand.street == 2 and hand.front == [0, 0, 0]


# -- no-limit sizes --------------------------------------------------------------------------------


def test_no_limit_opening_legal_replies_preflop():
    hand = start(nl(3))
    assert hand.legal() == Legal(front=0, call=10, can_fold=True, raise_min=20, raise_max=2000)


def test_no_limit_minimum_raise_is_the_largest_increment_so_far():
    hand = start(nl(3))
    play(hand, "0:50")  # raise of 40 over the big blind
    assert raise_range(hand) == (90, 2000)
    play(hand, "1:200")  # raise of 150
    assert raise_range(hand) == (350, 2000)
    with pytest.raises(IllegalMove):
        hand.raise_to(349)


def test_no_limit_minimum_bet_after_the_flop_is_the_big_blind():
    hand = start(nl(3))
    play(hand, "0:c 1:c 2:c")
    assert hand.legal() == Legal(front=0, call=0, can_fold=False, raise_min=10, raise_max=1990)
    play(hand, "1:15")  # a bet of 15 is a full bet: the next raise is by at least 15
    assert raise_range(hand) == (30, 1990)


def test_checking_is_free_so_folding_is_refused():
    hand = start(nl(3))
    play(hand, "0:c 1:c")
    assert hand.legal().can_fold is False
    with pytest.raises(IllegalMove, match="checking is free"):
        hand.fold()


def test_minimum_raise_above_the_stack_becomes_all_in():
    hand = start(table([2000, 2000, 100]))
    play(hand, "0:80 1:f")  # raise to 80: a minimum re-raise would be 150
    assert raise_range(hand) == (100, 100)


def test_seed_example_a_short_all_in_does_not_reopen_betting():
    # Blinds 10/20; A (seat 0) and B (seat 1) have matched 20; C (seat 2) is all-in to 30.
    hand = start(table([1000, 1000, 30], small_blind=10, big_blind=20))
    play(hand, "0:c 1:c 2:30")
    assert hand.bet == 30
    assert hand.legal() == Legal(front=20, call=30, can_fold=True)  # call the extra 10 or fold
    assert hand.raise_range() is None  # the play message says "Raise: -"
    with pytest.raises(IllegalMove):
        hand.raise_to(50)
    play(hand, "0:c")
    assert hand.legal() == Legal(front=20, call=30, can_fold=True)


def test_seed_example_b_all_in_for_a_full_raise_reopens_betting():
    hand = start(table([1000, 1000, 40], small_blind=10, big_blind=20))
    play(hand, "0:c 1:c 2:40")  # from 20 to 40: a full raise
    assert hand.legal() == Legal(front=20, call=40, can_fold=True, raise_min=60, raise_max=1000)


def test_a_short_all_in_lets_a_player_who_has_not_acted_raise():
    # Button 0: SB 1, BB 2, UTG 3 (short).
    hand = start(table([1000, 1000, 1000, 15]))
    play(hand, "3:15")  # all-in raise of 5: short
    assert raise_range(hand) == (25, 1000)  # the button has not acted yet


def test_two_short_all_ins_adding_up_to_a_full_raise_reopen_betting():
    # Blinds 10/20, button 0: SB 1 (190), BB 2, UTG 3. UTG raises to 100 (increment 80).
    hand = start(table([150, 190, 1000, 1000], small_blind=10, big_blind=20))
    play(hand, "3:100 0:150 1:190")  # all-in +50, then all-in +40: 90 since UTG acted
    assert raise_range(hand) == (270, 1000)  # the big blind has not acted
    play(hand, "2:c")
    assert raise_range(hand) == (270, 1000)  # UTG faces 90 more >= 80: reopened


def test_short_all_ins_adding_up_to_less_than_a_full_raise_do_not_reopen():
    hand = start(table([150, 170, 1000, 1000], small_blind=10, big_blind=20))
    play(hand, "3:100 0:150 1:170 2:c")  # only 70 more since UTG acted
    assert hand.legal() == Legal(front=100, call=170, can_fold=True)
    play(hand, "3:c")
    assert hand.street == 1 and hand.to_act == 2


def test_a_full_raise_after_a_players_action_reopens_for_them():
    hand = start(nl(3))
    play(hand, "0:c 1:c 2:c 1:100 2:300 0:c")  # flop bet 100, raise to 300, call
    assert raise_range(hand) == (500, 1990)  # the first bettor may raise again
    play(hand, "1:c")
    assert hand.street == 2


def test_all_in_call_for_less_is_a_call():
    hand = start(table([2000, 300, 2000]))
    play(hand, "0:1000")
    assert hand.legal() == Legal(front=5, call=300, can_fold=True)  # no raise: stack is short
    play(hand, "1:c")
    assert hand.stack[1] == 0 and hand.front[1] == 300


def test_betting_stops_when_the_only_player_with_chips_has_matched():
    hand = start(table([2000, 2000, 300]))
    play(hand, "0:f 1:1000 2:c")  # the big blind calls all-in for less than the raise
    assert hand.to_act is None  # nothing left to decide: the board is run out
    assert hand.pots == [(600, 1)] and hand.deltas == [0, 300, -300]  # KK beats QQ


def test_a_player_facing_an_all_in_with_nobody_else_to_act_may_only_call_or_fold():
    hand = start(table([2000, 2000, 300]))
    play(hand, "0:f 1:c 2:300")
    assert hand.legal() == Legal(front=10, call=300, can_fold=True)


def test_no_raise_when_no_other_player_can_put_in_more_than_the_table_bet():
    # Button 0 (UTG) all-in for 300; the big blind has 200 in all; the small blind may not
    # raise: nobody could answer it with a single chip.
    hand = start(table([300, 2000, 200]))
    play(hand, "0:300")
    assert hand.legal() == Legal(front=5, call=300, can_fold=True)
    assert hand.raise_range() is None
    # With one chip more behind the big blind, a raise is possible again.
    hand = start(table([300, 2000, 301]))
    play(hand, "0:300")
    assert raise_range(hand) == (590, 2000)


# -- limit ---------------------------------------------------------------------------------------


def test_limit_bet_sizes_small_preflop_and_flop_big_on_turn_and_river():
    hand = start(limit(3))
    assert raise_range(hand) == (20, 20)
    play(hand, "0:20 1:c 2:c")
    assert raise_range(hand) == (10, 10)  # flop: small bet
    play(hand, "1:10 2:c 0:c")
    assert raise_range(hand) == (20, 20)  # turn: big bet
    play(hand, "1:c 2:20")
    assert raise_range(hand) == (40, 40)
    play(hand, "0:c 1:c")
    assert hand.street == 3 and raise_range(hand) == (20, 20)  # river: big bet


def test_limit_preflop_cap_counts_the_big_blind_as_the_first_bet():
    hand = start(limit(3))
    play(hand, "0:20 1:30 2:40")  # 2nd, 3rd and 4th bets
    assert hand.legal() == Legal(front=20, call=40, can_fold=True)
    with pytest.raises(IllegalMove):
        hand.raise_to(50)


def test_limit_cap_of_four_bets_applies_heads_up_after_the_flop():
    hand = start(limit(2), button=0)
    play(hand, "0:c 1:c 1:10 0:20 1:30 0:40")
    assert hand.legal() == Legal(front=30, call=40, can_fold=True)


def test_limit_custom_bet_sizes():
    hand = start(limit(2, small_blind=10, big_blind=20, small_bet=20, big_bet=40))
    assert raise_range(hand) == (40, 40)
    play(hand, "0:c 1:c 1:c 0:c")
    assert hand.street == 2 and raise_range(hand) == (40, 40)


def test_limit_short_all_in_raise_neither_reopens_nor_counts_toward_the_cap():
    # Button 0: SB 1, BB 2, UTG 3 with 15 chips.
    hand = start(table([1000, 1000, 1000, 15], cls=limit))
    play(hand, "3:15")  # short: 5 over the big blind
    assert raise_range(hand) == (25, 25)  # the button has not acted
    play(hand, "0:25 1:35 2:45")  # 2nd, 3rd, 4th bets: the short raise did not count
    assert hand.legal() == Legal(front=25, call=45, can_fold=True)


def test_limit_short_all_in_does_not_reopen_for_players_who_acted():
    hand = start(table([1000, 1000, 25], cls=limit))
    play(hand, "0:20 1:c 2:25")
    assert hand.legal() == Legal(front=20, call=25, can_fold=True)


# -- pots ----------------------------------------------------------------------------------------


def test_three_way_side_pots_with_a_folded_contributor():
    # Button 3: SB 0 (100), BB 1 (300), first to act 2. AA > KK > QQ > 33.
    hand = start(table([100, 300, 1000, 1000]), button=3)
    play(hand, "2:200 3:c 0:c 1:300 2:c 3:c")
    assert hand.street == 1
    play(hand, "2:500 3:f")  # the bet of 500 is uncalled
    assert hand.to_act is None
    assert hand.pots == [(400, 0), (600, 1)]  # seat 3's folded chips stay in the side pot
    assert hand.deltas == [300, 300, -300, -300]
    assert [hand.shows(s) for s in range(4)] == [True, True, False, False]


def test_four_way_side_pots_with_a_folded_contributor():
    # Button 4: SB 0, BB 1, first to act 2. AA > KK > QQ > 33; seat 4 (JJ) folds.
    hand = start(table([100, 250, 400, 1000, 1000]), button=4)
    play(hand, "2:400 3:c 4:c 0:c 1:c 3:600 4:f")
    assert hand.pots == [(500, 0), (600, 1), (450, 2)]
    assert hand.deltas == [400, 350, 50, -400, -400]


def test_best_hand_wins_only_the_pots_it_is_eligible_for():
    # The short stack has the best hand: it wins the main pot, the next best the side pot.
    hand = start(table([300, 2000, 2000]), button=2, holes=["AhAd", "QhQd", "KhKd"])
    play(hand, "2:1000 0:c 1:c" + " 1:c 2:c" * 3)
    assert hand.pots == [(900, 0), (1400, 2)]
    assert hand.deltas == [600, -1000, 400]


def test_split_pot_odd_chip_goes_to_the_first_winner_clockwise_from_the_button():
    for button, winners in ((0, [2, 0]), (2, [1, 2])):
        hand = start(nl(3), button, holes=["2h3h", "4h5h", "6h7h"], board=ROYAL)
        utg, sb, bb = button, (button + 1) % 3, (button + 2) % 3
        play(hand, f"{utg}:c {sb}:f {bb}:c" + f" {bb}:c {utg}:c" * 3)
        assert hand.pots == [(13, winners[0]), (12, winners[1])]  # 25 split two ways


def test_three_way_split_gives_two_odd_chips_clockwise_from_the_button():
    hand = start(nl(4), 0, holes=["2h3h", "4h5h", "6h7h", "8h9h"], board=ROYAL)
    play(hand, "3:c 0:c 1:f 2:c" + " 2:c 3:c 0:c" * 3)
    assert hand.pots == [(12, 2), (12, 3), (11, 0)]  # 35 from seat 1 on: 2, 3, 0
    assert sum(hand.deltas) == 0
    assert [hand.shows(s) for s in range(4)] == [True, False, True, True]


def test_uncalled_bet_is_returned_and_is_no_pot():
    hand = start(nl(2), button=0)
    play(hand, "0:500 1:f")
    assert hand.pots == [(20, 0)]
    assert hand.deltas == [10, -10]
    assert hand.stack == [2010, 1990]


def test_uncalled_part_of_an_all_in_is_returned():
    hand = start(table([2000, 500]), button=0)
    play(hand, "0:2000 1:c")
    assert hand.pots == [(1000, 0)]  # AA beats KK; 1500 went back to seat 0
    assert hand.deltas == [500, -500]
    assert sum(a for a, _ in hand.pots) == sum(hand.total)


def test_everyone_folding_to_the_big_blind_returns_its_uncalled_half():
    hand = start(nl(3))
    play(hand, "0:f 1:f")
    assert hand.pots == [(10, 2)]
    assert hand.deltas == [0, -5, 5]


def test_board_is_run_out_without_decisions_when_players_are_all_in():
    hand = start(nl(3))
    play(hand, "0:2000 1:f 2:c")
    assert hand.to_act is None
    assert hand.street == 0  # no betting round started after the pre-flop one
    assert hand.revealed == 5  # the whole board
    assert hand.record()["board"] == BOARD.split()
    assert hand.pots == [(4005, 0)]


def test_board_is_run_out_when_one_player_with_chips_is_left_with_nothing_to_call():
    hand = start(table([2000, 2000, 300]))
    play(hand, "0:c 1:c 2:c 1:300 2:c 0:f")  # flop: the short stack calls all-in for 290
    assert hand.to_act is None and hand.street == 1
    assert len(hand.record()["board"]) == 5
    assert hand.pots == [(610, 1)]  # KK beats QQ; seat 1's extra 10 went back
    assert hand.deltas == [-10, 310, -300]


def test_fold_out_ends_the_hand_without_showdown_or_more_cards():
    hand = start(nl(3))
    play(hand, "0:c 1:c 2:c 1:50 2:f 0:f")
    assert hand.to_act is None
    assert hand.revealed == 3 and hand.stack == [1990, 2020, 1990]  # the flop, no more
    assert [hand.shows(s) for s in range(3)] == [False, False, False]
    assert hand.pots == [(30, 1)]


def test_losers_at_showdown_muck_and_winners_show():
    hand = start(nl(2))
    play(hand, "0:c 1:c" + " 1:c 0:c" * 3)
    assert [hand.shows(s) for s in range(2)] == [True, False]
    assert hand.pots == [(20, 0)]


def test_a_side_pot_won_uncontested_shows_no_cards():
    # Seat 0 (AA, short) wins the main pot; seat 1 is alone in the side pot with seat 2's
    # folded chips and does not show.
    hand = start(table([100, 2000, 2000]), button=2, holes=["AhAd", "3h3d", "KhKd"])
    play(hand, "2:300 0:c 1:c 1:500 2:f")
    assert hand.pots == [(300, 0), (400, 1)]
    assert [hand.shows(s) for s in range(3)] == [True, False, False]


def test_random_hands_keep_the_chips_balanced():
    rng = random.Random(7)
    for cls, players in ((nl, 2), (nl, 3), (nl, 6),
                         (limit, 3), (nl, 10)):
        game = cls(players, carry=True, stack=300)
        for number in range(300):
            hand = start_hand(game, number % players, game.deal(rng))
            before = list(hand.stacks_start)
            random_play(hand, rng)
            assert hand.to_act is None
            assert sum(hand.deltas) == 0 and min(hand.stack) >= 0
            assert [before[s] + hand.deltas[s] for s in range(players)] == hand.stack
            # Every chip put in is in a pot or was returned uncalled.
            put_in = sum(hand.total) + hand.returned
            assert sum(a for a, _ in hand.pots) + hand.returned == put_in
            assert all(not hand.folded[s] for _, s in hand.pots)
            in_hand = sum(not f for f in hand.folded)
            assert len(hand.record()["board"]) in ((0, 3, 4, 5) if in_hand == 1 else (5,))
            for seat in range(players):
                if game.stacks[seat] == 0:
                    game.end_reply(seat, True)


# -- money: Doyle's game and carry mode ----------------------------------------------------------


def test_doyles_game_every_hand_starts_with_the_starting_stack():
    game = nl(2)
    play(start(game), "0:500 1:f")
    assert start(game).stack == [1995, 1990]


def test_doyles_game_refuses_rebuy():
    game = nl(2)
    play(start(game), "0:500 1:f")
    with pytest.raises(IllegalMove, match="REBUY"):
        game.end_reply(1, True)
    game.end_reply(1, False)  # OK is fine
    assert game.standing() == {}  # nothing beyond the bankrolls to record


def test_carry_mode_stacks_carry_from_hand_to_hand():
    game = nl(2, carry=True)
    play(start(game, 0), "0:500 1:f")
    assert game.stacks == [2010, 1990]
    assert start(game, 1).stacks_start == [2010, 1990]


def test_carry_mode_rebuy_tops_up_and_counts_the_chips_bought():
    game = nl(2, carry=True)
    play(start(game, 0), "0:500 1:f")
    game.end_reply(1, True)
    assert game.stacks == [2010, 2000]
    assert game.rebuys == [0, 10]
    assert game.standing() == {"stacks": [2010, 2000], "rebuys": [0, 10]}
    with pytest.raises(IllegalMove, match="starting stack"):
        game.end_reply(0, True)  # above the starting stack: nothing to rebuy


def test_carry_mode_rebuy_with_a_full_stack_is_refused():
    game = nl(2, carry=True)
    play(start(game, 0, board=ROYAL), "0:c 1:c" + " 1:c 0:c" * 3)  # split pot
    assert game.stacks == [2000, 2000]
    with pytest.raises(IllegalMove, match="REBUY is only allowed below the starting stack"):
        game.end_reply(0, True)
    game.end_reply(0, False)
    assert game.stacks == [2000, 2000]


def test_carry_mode_ok_with_no_chips_is_refused():
    game = nl(2, carry=True)
    hand = start(game, 0, holes=["KhKd", "AhAd"])
    play(hand, "0:2000 1:c")
    assert game.stacks == [0, 4000]
    with pytest.raises(IllegalMove, match="you have no chips: answer REBUY"):
        game.end_reply(0, False)
    game.end_reply(0, True)
    assert game.stacks == [2000, 4000]
    assert game.rebuys == [2000, 0]


def test_the_big_blinds_option_is_described_as_a_raise_and_a_first_bet_as_a_bet():
    hand = start(nl(3), button=0)
    play(hand, "0:c 1:c")
    assert hand.legal().describe() == "BET 10 (check) or BET 20 to BET 2000 (raise)"
    play(hand, "2:c")
    assert hand.legal().describe() == "BET 0 (check) or BET 10 to BET 1990 (bet)"


def test_the_legal_end_hand_answer_follows_the_stack():
    game = nl(3, carry=True)
    game.stacks[:] = [0, 1500, 2500]
    assert [game.end_choices(s) for s in range(3)] == ["REBUY", "OK or REBUY", "OK"]
    assert nl(3).end_choices(0) == "OK"  # stacks reset: nothing to rebuy


def test_carry_mode_a_short_stack_posts_what_it_has():
    game = table([2000, 2000, 4])
    hand = start(game, 0)
    assert hand.forced == [0, 5, 4]
    assert hand.stack == [2000, 1995, 0]
    # The table bet is the largest blind posted, 5; a raise is still by the big blind.
    assert hand.legal() == Legal(front=0, call=5, can_fold=True, raise_min=15, raise_max=2000)
    play(hand, "0:c 1:c" + " 1:c 0:c" * 3)
    assert hand.pots == [(12, 0), (2, 0)]  # a main pot of 4 each, a side pot of 1 each
    assert hand.deltas == [9, -5, -4]


def test_carry_mode_bankroll_is_the_net_result_and_a_rebuy_does_not_charge_it_twice():
    game = nl(2, carry=True)
    deals = [deal(game), deal(game)]
    referee = Referee(game, random.Random(0), hands=2, button=0, deals=deals)

    def bot(seat, kind, message):
        if kind == "end_hand":
            return b"REBUY" if seat == 1 and referee.hand_number == 0 else b"OK"
        fold = b"FOLD 10" if referee.hand_number == 0 else b"FOLD 5"
        return honest(referee, lambda s, m: fold if s == 1 else b"BET 500")(seat, kind, message)

    run(referee, bot)
    # Hand 0: seat 1 folds its big blind (-10) and rebuys the 10 it lost; hand 1 it folds its
    # small blind (-5). The lost 10 came off the bankroll when it was lost, so the rebuy does
    # not take it off again: the bankroll is the net result, -15, and 10 chips were bought.
    assert referee.bankrolls == [15, -15]
    assert game.stacks == [2015, 1995]
    assert game.rebuys == [0, 10]


# -- deals -----------------------------------------------------------------------------------------


def test_deal_gives_two_distinct_hole_cards_per_seat_and_five_board_cards():
    game = nl(10)
    d = game.deal(random.Random(3))
    cards = [c for h in d.holes for c in h] + list(d.board)
    assert [len(h) for h in d.holes] == [2] * 10 and len(d.board) == 5
    assert len(set(cards)) == 25 and set(cards) <= set(DECK)
    assert game.deal(random.Random(3)) == d


def test_parse_deal_reads_holes_then_board():
    d = nl(3).parse_deal("AhKd QsQc 2c3c | 7h 8h 9h Td Jd")
    assert d.holes == (("Ah", "Kd"), ("Qs", "Qc"), ("2c", "3c"))
    assert d.board == ("7h", "8h", "9h", "Td", "Jd")


@pytest.mark.parametrize("text, why", [
    ("AhKd QsQc | 7h 8h 9h Td Jd", "expected 3 hands"),
    ("AhKd QsQc 2c3c 4c5c | 7h 8h 9h Td Jd", "expected 3 hands"),
    ("AhKd QsQc 2c3c | 7h 8h 9h Td", "expected 5 board cards"),
    ("AhKd QsQc 2c3c 7h 8h 9h Td Jd", "'|'"),
    ("AhKd QsQc 2c3c | 7h 8h | 9h Td Jd", "'|'"),
    ("AhKd QsQc 2c3 | 7h 8h 9h Td Jd", "two cards written together"),
    ("AhKd QsQc 2c10c | 7h 8h 9h Td Jd", "two cards written together"),
    ("AhKd QsQc 2c3x | 7h 8h 9h Td Jd", "'3x' is not a card"),
    ("AhKd QsQc 2c3c | 7h 8h 9h 1d Jd", "'1d' is not a card"),
    ("AhKd QsQc 2c3c | 7h 8h 9h td Jd", "'td' is not a card"),
    ("AhKd QsAh 2c3c | 7h 8h 9h Td Jd", "Ah is dealt twice"),
    ("AhKd QsQc 2c3c | 7h 8h 9h Td Qs", "Qs is dealt twice"),
])
def test_parse_deal_errors_say_what_is_wrong(text, why):
    with pytest.raises(ValueError, match=why.replace("|", r"\|")):
        nl(3).parse_deal(text)


# -- options ---------------------------------------------------------------------------------------


def test_game_names_and_player_counts():
    assert nl(2).name == "holdem-nl" and limit(2).name == "holdem-limit"
    for cls in (nl, limit):
        cls(2), cls(10)
        for players in (1, 11):
            with pytest.raises(ValueError, match="2 to 10 players"):
                cls(players)


@pytest.mark.parametrize("options, why", [
    (dict(small_blind=0), "0 < small <= big"),
    (dict(small_blind=20, big_blind=10), "0 < small <= big"),
    (dict(stack=5), "at least the big blind"),
    (dict(stack=10.5), "whole number"),
    (dict(carry="yes"), "carry"),
])
def test_invalid_options_are_refused_with_a_reason(options, why):
    with pytest.raises(ValueError, match=why):
        nl(3, **options)


def test_invalid_limit_bet_sizes_are_refused():
    with pytest.raises(ValueError, match="bet sizes"):
        limit(3, small_bet=20, big_bet=10)
    with pytest.raises(ValueError, match="bet sizes"):
        limit(3, small_bet=0)
    with pytest.raises(ValueError, match="limit Hold'em only"):
        nl(3, small_bet=10)  # no-limit has no bet sizes


# -- message lines ---------------------------------------------------------------------------------


def test_the_round_facts_name_the_game_stack_stack_mode_and_bet_sizes():
    assert nl(3).round_facts() == [("Game", "holdem-nl"), ("Stack", 2000),
                                   ("StackMode", "reset")]
    assert nl(3, carry=True).round_facts()[-1] == ("StackMode", "carry")
    assert limit(3).round_facts() == [("Game", "holdem-limit"), ("Stack", 2000),
                                      ("StackMode", "reset"), ("BetSizes", (10, 20))]


def test_the_numbers_the_play_lines_are_written_from_preflop_and_after_the_flop():
    hand = start(nl(3), button=0, board="7h 8h 9h Td Jd")
    assert (hand.revealed, hand.pot, hand.stack, hand.raise_range()) == (
        0, 0, [2000, 1995, 1990], (20, 2000))
    play(hand, "0:c 1:c 2:c")
    assert (hand.revealed, hand.pot, hand.stack, hand.raise_range()) == (
        3, 30, [1990, 1990, 1990], (10, 1990))
    play(hand, "1:50")
    assert (hand.pot, hand.stack[1], hand.raise_range()) == (30, 1940, (100, 1990))
    play(hand, "2:c 0:c")
    assert (hand.revealed, hand.pot, hand.raise_range()) == (4, 180, (10, 1940))


def test_no_raise_range_when_capped():
    hand = start(limit(3))
    play(hand, "0:20 1:30 2:40")
    assert hand.raise_range() is None


def test_after_a_showdown_the_whole_board_and_the_final_stacks():
    hand = start(nl(3))
    play(hand, "0:c 1:c 2:c" + " 1:c 2:c 0:c" * 3)
    assert (hand.revealed, hand.stack) == (5, [2020, 1990, 1990])
    assert hand.record() == {"board": BOARD.split(), "stacks_start": [2000] * 3,
                             "stacks_end": [2020, 1990, 1990]}


def test_a_preflop_fold_out_shows_no_board():
    hand = start(nl(2))
    play(hand, "0:f")
    assert (hand.revealed, hand.stack) == (0, [1995, 2005])


def test_the_three_player_transcript_in_protocol_md_is_what_the_server_sends():
    """PROTOCOL.md's Hold'em transcript, including the Action lines of a new street."""
    from pathlib import Path

    game = nl(3)
    referee = Referee(game, random.Random(0), hands=1, button=0,
                      deals=[game.parse_deal("AhQh 7c2d JsJd | Qd 8h 3c 9s 4h")])
    script = iter([b"BET 30", b"FOLD 5", b"BET 30",  # pre-flop: raise, fold, call
                   b"BET 0", b"BET 40", b"BET 40",    # flop: check, bet, call
                   b"BET 0", b"BET 0",                # turn: both check
                   b"BET 100", b"BET 100"])           # river: bet, call
    view = seat_view(run(referee, honest(referee, lambda seat, message: next(script))), 2)
    assert "Action: PASS 0\nAction: PASS 0\nAction: FOLD 0\nBoard: Qd 8h 3c\n" in view
    assert referee.bankrolls == [175, -5, -170]
    doc = (Path(__file__).resolve().parents[3] / "protocol" / "PROTOCOL.md").read_text()
    assert "\n```\n" + view + "```\n" in doc


def test_a_heads_up_hand_through_the_referee_reads_as_the_protocol_says():
    game = nl(2)
    referee = Referee(game, random.Random(0), hands=1, button=0,
                      deals=[deal(game, board="7h 8h 9h Td Jd")])
    replies = iter([b"BET 10", b"BET 10", b"BET 50", b"FOLD 0"])
    transcript = run(referee, honest(referee, lambda seat, message: next(replies)))
    assert seat_view(transcript, 1) == """\
init_round
Money: 0,0
Blinds: 10,5
Button: 1
EndProb: 0,1
Game: holdem-nl
Stack: 2000
StackMode: reset
READY
init_hand
Hand: 0
Cards: Kh Kd
READY
play
Action: BLIND 10
Action: BET 10
Board: -
Pot: 0
Stacks: 1990,1990
Raise: 20,2000
BET 10
play
Action: PASS 0
Action: PASS 0
Board: 7h 8h 9h
Pot: 20
Stacks: 1990,1990
Raise: 10,1990
BET 50
end_hand
Action: BET 50
Action: FOLD 0
Showdown: -,-
Pots: 20,0
Board: 7h 8h 9h
Stacks: 2010,1990
OK
EndAction: OK
EndAction: OK
Money: 10,-10
end_round
Bankrolls: 10,-10
NumHands: 1
Thank you dealer, have a nice day!
"""


# -- speed ---------------------------------------------------------------------------------------


def random_play(hand, rng) -> None:
    """Random legal decisions until the hand is over."""
    while hand.to_act is not None:
        legal = hand.legal()
        r = rng.random()
        if r < 0.25 and legal.can_fold:
            hand.fold()
        elif r < 0.5 and legal.raise_min is not None:
            hand.raise_to(rng.randint(legal.raise_min, legal.raise_max) if r < 0.3
                          else legal.raise_min)
        else:
            hand.call()


def hands_per_second(game, hands: int = 30000, seed: int = 1) -> float:
    """Random hands dealt and played by the dealer alone, per CPU second."""
    rng = random.Random(seed)
    n = game.players
    t = time.process_time()
    for number in range(hands):
        random_play(start_hand(game, number % n, game.deal(rng)), rng)
    return hands / (time.process_time() - t)


if __name__ == "__main__":
    for cls, players in ((nl, 2), (nl, 3), (limit, 3),
                         (nl, 6), (nl, 10)):
        print(f"{cls.name} {players} players: {hands_per_second(cls(players)):,.0f} hands/s")


def test_a_clone_plays_on_without_touching_the_hand_it_came_from():
    hand = start(nl(3))
    play(hand, "0:30")
    other = hand.clone()
    play(other, "1:f 2:c")
    assert other.street == 1 and other.folded == [False, True, False]
    assert hand.to_act == 1 and hand.street == 0 and hand.folded == [False, False, False]
    assert hand.front == [30, 5, 10] and hand.legal() == Legal(5, 30, True, 50, 2000)

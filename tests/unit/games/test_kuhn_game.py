"""Kuhn poker rules, through the Hand interface alone."""

from __future__ import annotations

import itertools
import random

import pytest

from pokerbots.server.games import make_game
from pokerbots.server.games.base import Deal, IllegalMove
from pokerbots.server.games.engine.betting import start_hand
from pokerbots.server.games.kuhn import deck_for


@pytest.mark.parametrize(
    "players, deck",
    [(2, "JQK"), (3, "JQKA"), (4, "TJQKA"), (5, "9TJQKA"), (6, "89TJQKA")],
)
def test_deck_is_j_q_k_heads_up_and_the_n_plus_1_highest_cards_otherwise(players, deck):
    assert deck_for(players) == deck
    dealt = make_game("kuhn", players).deal(random.Random(0))
    assert len(dealt.holes) == players and all(c[0] in deck for c in dealt.holes)


@pytest.mark.parametrize("players", [1, 7])
def test_player_count_outside_2_to_6_is_refused(players):
    with pytest.raises(ValueError, match="2 to 6 players"):
        make_game("kuhn", players)


def test_deals_use_every_card_and_never_repeat_one():
    game = make_game("kuhn", 3)
    rng = random.Random(1)
    seen = set()
    for _ in range(500):
        cards = [h[0] for h in game.deal(rng).holes]
        assert len(set(cards)) == 3
        seen.update(cards)
    assert seen == set("JQKA")


def play(players, button, cards, moves):
    """moves: 'k' check, 'b' bet, 'c' call, 'f' fold, in order of play."""
    hand = start_hand(make_game("kuhn", players), button, Deal(tuple((c,) for c in cards)))
    order = []
    for move in moves:
        order.append(hand.to_act)
        {"k": hand.call, "c": hand.call, "f": hand.fold, "b": lambda: hand.raise_to(2)}[move]()
    return hand, order


def test_everyone_checks_and_the_highest_card_wins_the_antes():
    hand, order = play(3, 0, "QAK", "kkk")
    assert order == [1, 2, 0]
    assert hand.to_act is None
    assert hand.pots == [(3, 1)]
    assert hand.deltas == [-1, 2, -1]
    assert [hand.shows(s) for s in range(3)] == [False, True, False]


def test_after_a_bet_every_other_player_answers_once_in_order():
    # Seat 1 checks, seat 2 bets; then seat 0 and seat 1 (who checked) answer.
    hand, order = play(3, 0, "QJK", "kbcf")
    assert order == [1, 2, 0, 1]
    assert hand.to_act is None
    assert hand.pots == [(5, 2)]  # K beats Q at showdown
    assert hand.deltas == [-2, -1, 3]
    assert not hand.shows(0)  # the loser mucks


def test_a_bet_everyone_folds_to_wins_without_showing():
    hand, _ = play(2, 1, "KJ", "bf")
    assert hand.pots == [(3, 0)]
    assert hand.deltas == [1, -1]
    assert [hand.shows(s) for s in range(2)] == [False, False]


def test_legal_replies_before_and_after_a_bet():
    hand, _ = play(3, 0, "JQK", "")
    legal = hand.legal()
    assert (legal.front, legal.call, legal.can_fold, legal.raise_min, legal.raise_max) == (
        1, 1, False, 2, 2)
    hand.raise_to(2)
    legal = hand.legal()
    assert (legal.front, legal.call, legal.can_fold, legal.raise_min) == (1, 2, True, None)


def test_fold_when_checking_is_free_and_a_second_bet_are_illegal_moves():
    hand, _ = play(3, 0, "JQK", "")
    with pytest.raises(IllegalMove):
        hand.fold()
    hand.raise_to(2)
    with pytest.raises(IllegalMove):
        hand.raise_to(2)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_betting_sequence_pays_out_a_zero_sum_to_the_best_live_card(players):
    game = make_game("kuhn", players)
    deck = deck_for(players)
    rng = random.Random(players)
    for _ in range(300):
        cards = rng.sample(deck, players)
        hand = start_hand(game, rng.randrange(players), Deal(tuple((c,) for c in cards)))
        while hand.to_act is not None:
            legal = hand.legal()
            choice = rng.choice(["call"] + ["raise"] * (legal.raise_min is not None)
                                + ["fold"] * legal.can_fold)
            {"call": hand.call, "fold": hand.fold,
             "raise": lambda hand=hand: hand.raise_to(2)}[choice]()
        assert sum(hand.deltas) == 0
        live = [s for s in range(players) if not hand.folded[s]]
        best = max(live, key=lambda s: deck.index(cards[s]))
        assert hand.pots == [(sum(hand.front), best)]
        assert all(f in (1, 2) for f in hand.front)


def test_parse_deal_reads_one_card_per_seat_and_says_what_is_wrong():
    game = make_game("kuhn", 3)
    assert game.parse_deal("Q K A").holes == (("Q",), ("K",), ("A",))
    for bad, why in [("Q K", "expected 3 cards"), ("Q K 9", "not in the 3-player deck"),
                     ("Q Q A", "dealt twice")]:
        with pytest.raises(ValueError, match=why):
            game.parse_deal(bad)


def test_all_histories_of_two_player_kuhn_pay_as_the_rules_say():
    # The five terminal histories of 004_e3931302268707bb.txt, for every deal: winner gets
    # +1 after check-check or bet-fold, +2 after a called bet.
    payoff = {"kk": 1, "bf": 1, "bc": 2, "kbf": 1, "kbc": 2}
    for cards in itertools.permutations("JQK", 2):
        for history, amount in payoff.items():
            hand, _ = play(2, 1, cards, history)  # seat 0 acts first
            if history.endswith("f"):
                winner = 0 if history == "bf" else 1
            else:
                winner = 0 if "JQK".index(cards[0]) > "JQK".index(cards[1]) else 1
            assert hand.deltas[winner] == amount
            assert hand.deltas[1 - winner] == -amount

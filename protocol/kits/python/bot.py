#!/usr/bin/env python3
"""A complete bot for every pokerbots game: put your strategy in decide().

pokerclient.py (beside this file) does the protocol; decide() sees a State (see there) and
returns state.check_or_call(), state.fold() or state.raise_to(value). Started with --mix, the
bot answers with mixed(): a mix of replies, from which the server draws the action.
"""

import sys

from pokerclient import run

RANKS = "23456789TJQKA"


def strength(state):
    """0 weak, 1 medium, 2 strong: a rough read of your cards."""
    mine = [RANKS.index(card[0]) for card in state.cards]
    board = [RANKS.index(card[0]) for card in state.board]
    if any(rank in board for rank in mine) or (len(mine) == 2 and mine[0] == mine[1]):
        return 2  # a pair: with the board, or in the hand
    best = max(mine)
    if len(mine) == 1:  # Kuhn and Leduc: one card
        return 2 if best >= RANKS.index("K") else 1 if best == RANKS.index("Q") else 0
    if not board and min(mine) >= RANKS.index("T"):
        return 2  # two high cards before the flop
    return 1 if best >= RANKS.index("Q") else 0


def decide(state):
    hand = strength(state)
    if hand == 2 and state.can_raise and state.first_action_on_round:
        return state.raise_to(state.raise_min)  # bet or raise the least, once a round
    if state.to_call == 0:
        return state.check_or_call()  # check
    if hand == 2 or (hand == 1 and 2 * state.to_call <= state.pot_total):
        return state.check_or_call()  # call
    return state.fold()


def mixed(state):
    """A mixed reply: decide()'s reply four times as often as each other kind of legal reply
    (check or call, the least bet or raise, fold), so that no action gives your cards away."""
    weights = {state.check_or_call(): 1}
    if state.can_raise:
        weights[state.raise_to(state.raise_min)] = 1
    if state.can_fold:
        weights[state.fold()] = 1
    weights[decide(state)] = 4
    return state.mix(weights)


if __name__ == "__main__":
    run(mixed if "--mix" in sys.argv[1:] else decide)

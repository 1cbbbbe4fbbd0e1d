"""Leduc Hold'em: its rules through the engine, its expected values computed exactly over the
120 deals by an independent reading of the rules, and the commands a user runs with it."""

from __future__ import annotations

import itertools
import json
import math
import random
import shlex
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from pokerbots.protocol.client import Bot, Client
from pokerbots.server.games import make_game
from pokerbots.server.games.base import Deal, IllegalMove
from pokerbots.server.games.engine.betting import start_hand
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

from processes import only_match_dir, pokerbots

ROOT = Path(__file__).resolve().parents[3]
PROTOCOL = (ROOT / "protocol" / "PROTOCOL.md").read_text()


def hand(holes: str, board: str, button: int = 0, players: int = 2):
    game = make_game("leduc", players)
    return start_hand(game, button, game.parse_deal(f"{holes} | {board}"))


def act(h, script: str) -> None:
    for move in script.split():
        if move == "c":
            h.call()
        elif move == "f":
            h.fold()
        else:
            h.raise_to(int(move))


# -- the rules -----------------------------------------------------------------------------


def test_the_deck_has_two_cards_of_players_plus_one_ranks():
    assert sorted(make_game("leduc", 2).deck) == sorted("JJQQKK")
    assert sorted(make_game("leduc", 3).deck) == sorted("JJQQKKAA")
    dealt = make_game("leduc", 2).deal(random.Random(1))
    assert len(dealt.holes) == 2 and len(dealt.board) == 1


def test_ante_then_bets_of_two_then_four_at_most_two_a_round():
    h = hand("J Q", "K", button=0)
    assert h.forced == [1, 1] and h.to_act == 1  # left of the button acts first
    legal = h.legal()
    assert (legal.call, legal.raise_range, legal.can_fold) == (1, (3, 3), False)
    assert legal.describe() == "BET 1 (check) or BET 3 (bet)"  # the ante opens nothing
    act(h, "3")  # bet 2
    assert h.legal().raise_range == (5, 5)
    act(h, "5")  # raise: the second bet, the cap
    assert h.legal().raise_range is None and h.legal().call == 5
    act(h, "c")
    # Second round: money in front restarts at 0, the same seat acts first, bets are 4.
    assert (h.street, h.to_act, h.front, h.board[:h.revealed]) == (1, 1, [0, 0], ("K",))
    assert h.pot == 10
    assert h.legal().raise_range == (4, 4)
    act(h, "4 8 c")
    assert h.to_act is None and h.deltas == [-13, 13]


def test_a_pair_with_the_board_wins_then_the_higher_card():
    h = hand("J K", "J", button=0)  # seat 0 pairs the board
    act(h, "c c c c")
    assert h.deltas == [1, -1] and h.shows(0) and not h.shows(1)
    h = hand("Q K", "J", button=0)  # no pair: the king wins
    act(h, "c c c c")
    assert h.deltas == [-1, 1]


def test_equal_cards_split_the_pot():
    h = hand("Q Q", "K", button=1)
    act(h, "3 c 4 c")
    assert h.deltas == [0, 0] and sorted(h.pots) == [(7, 0), (7, 1)]


def test_an_uncalled_bet_goes_back_and_the_totals_say_what_each_put_in():
    h = hand("J Q", "K", button=0)
    act(h, "3 f")  # seat 1 bets, seat 0 folds
    assert h.pots == [(2, 1)] and h.deltas == [-1, 1]
    assert h.revealed == 0 and h.total == [1, 1]  # the board unseen, the chips put in


def test_folding_when_checking_is_free_is_refused():
    h = hand("J Q", "K")
    with pytest.raises(IllegalMove):
        h.fold()


def test_a_cards_file_gives_one_card_per_seat_and_the_board():
    game = make_game("leduc", 3)
    assert game.parse_deal("J Q K | A") == Deal((("J",), ("Q",), ("K",)), ("A",))
    for text, why in [("J Q | K", "expected 3 cards"), ("J Q K", "'|'"),
                      ("J Q K | A A", "1 board card"), ("J Q T | A", "not in the 3-player deck"),
                      ("J J J | A", "more than twice")]:
        with pytest.raises(ValueError, match=why):
            game.parse_deal(text)


# -- expected values, exactly --------------------------------------------------------------

# A fixed strategy: (my card, the board card or None, facing a bet?, may I raise?) -> move.


def aggressive(card, board, facing, can_raise):
    strong = card == "K" or card == board
    if strong and can_raise:
        return "raise"
    if facing and card == "J" and board != "J":
        return "fold"
    return "call"


def passive(card, board, facing, can_raise):
    if facing and board is not None and card != board and card != "K":
        return "fold"
    return "call"


STRATEGIES = {"aggressive": aggressive, "passive": passive}


def independent_hand(cards, board, button, strategies) -> list[int]:
    """Heads-up Leduc from the rules alone (not the engine): each seat's result."""
    put = [1, 1]
    folded = None
    for rnd, size in ((0, 2), (1, 4)):
        seen = None if rnd == 0 else board
        bets = 0
        fronts = [0, 0]
        to_act = 1 - button  # the first player after the button, in both rounds
        acted = [False, False]
        while True:
            me = to_act
            facing = fronts[1 - me] > fronts[me]
            move = strategies[me](cards[me], seen, facing, bets < 2)
            if move == "fold" and facing:
                folded = me
                break
            if move == "raise" and bets < 2:
                fronts[me] = max(fronts) + size
                bets += 1
            else:
                fronts[me] = max(fronts)
            acted[me] = True
            if all(acted) and fronts[0] == fronts[1]:
                break
            to_act = 1 - me
        put = [put[s] + fronts[s] for s in range(2)]
        if folded is not None:
            break
    if folded is not None:
        winner = 1 - folded
        lost = put[folded]
        return [lost if s == winner else -lost for s in range(2)]
    def strength(card):
        return (1, card) if card == board else (0, card)
    order = "JQK"
    a = (strength(cards[0])[0], order.index(cards[0]))
    b = (strength(cards[1])[0], order.index(cards[1]))
    if a == b:
        return [0, 0]
    winner = 0 if a > b else 1
    return [put[1 - winner] if s == winner else -put[s] for s in range(2)]


def exact_value(first: str, second: str) -> Fraction:
    """Seat 0's expected result per hand, buttons alternating, over the 120 deals."""
    strategies = [STRATEGIES[first], STRATEGIES[second]]
    total = Fraction(0)
    deals = list(itertools.permutations(range(6), 3))
    assert len(deals) == 120
    deck = "JJQQKK"
    for button in (0, 1):
        for a, b, c in deals:
            total += independent_hand((deck[a], deck[b]), deck[c], button, strategies)[0]
    return total / 240


class StrategyBot(Bot):
    def __init__(self, strategy):
        self.strategy = strategy

    def decide(self, state):
        legal = state.legal
        board = state.board[0] if state.board else None
        move = self.strategy(state.cards[0], board, legal.can_fold, legal.can_raise)
        if move == "raise" and legal.can_raise:
            return legal.raise_to(legal.raise_min)
        if move == "fold" and legal.can_fold:
            return legal.fold()
        return legal.check_or_call()


@pytest.mark.parametrize("first, second", [("aggressive", "passive"),
                                           ("passive", "aggressive"),
                                           ("aggressive", "aggressive")])
def test_the_engine_gives_the_exact_values_of_fixed_strategies(first, second):
    """Every one of the 120 deals, with each button, through the engine and the referee."""
    deck = "JJQQKK"
    total = 0
    for button in (0, 1):
        for a, b, c in itertools.permutations(range(6), 3):
            deal = Deal(((deck[a],), (deck[b],)), (deck[c],))
            referee = Referee(make_game("leduc", 2), random.Random(0), hands=1, button=button,
                              deals=[deal])
            bots = [StrategyBot(STRATEGIES[first]), StrategyBot(STRATEGIES[second])]
            play_local(referee, [Client(bot, game="leduc") for bot in bots])
            total += referee.bankrolls[0]
    assert Fraction(total, 240) == exact_value(first, second)
    if first == second:
        assert total == 0  # the same strategy on both seats, buttons alternating


@pytest.mark.parametrize("first, second", [("aggressive", "passive")])
def test_a_long_seeded_match_agrees_with_the_exact_value(first, second):
    exact = exact_value(first, second)
    records: list[dict] = []
    referee = Referee(make_game("leduc", 2), random.Random(2026), hands=6000,
                      on_hand=records.append)
    bots = [StrategyBot(STRATEGIES[first]), StrategyBot(STRATEGIES[second])]
    play_local(referee, [Client(bot, game="leduc") for bot in bots])
    results = [r["deltas"][0] for r in records]
    mean = sum(results) / len(results)
    sd = math.sqrt(sum((x - mean) ** 2 for x in results) / (len(results) - 1))
    assert abs(mean - float(exact)) < 4 * sd / math.sqrt(len(results)), (mean, float(exact))


# -- on the wire ---------------------------------------------------------------------------


def example_round() -> str:
    """The protocol document's Leduc example, as player 0 sees it."""
    deals = [Deal((("K",), ("Q",)), ("K",)), Deal((("J",), ("Q",)), ("J",))]
    referee = Referee(make_game("leduc", 2), random.Random(0), hands=2, button=1, deals=deals)
    script = {0: ["BET 3", "BET 5", "BET 4", "BET 8", "BET 1", "BET 8"],
              1: ["BET 5", "BET 8", "BET 1", "BET 4", "FOLD 4"]}

    class Scripted(Bot):
        def __init__(self, seat):
            self.seat = seat

        def decide(self, state):
            return script[self.seat].pop(0)

    transcript: list = []
    play_local(referee, [Client(Scripted(s), game="leduc") for s in range(2)],
               transcript=transcript)
    return "".join(m.decode() + r.decode() + "\n" for s, _, m, r in transcript if s == 0)


def test_the_protocol_documents_leduc_transcript_is_what_the_server_sends():
    assert example_round() in PROTOCOL


# -- the commands --------------------------------------------------------------------------


def test_run_deal_smoke_and_show_play_leduc_with_the_bundled_bots(tmp_path):
    logs = tmp_path / "logs"
    bots = [ROOT / "bots" / "random_bot.py", ROOT / "bots" / "call_bot.py"]
    result = pokerbots("run", *bots, "--game", "leduc", "--hands", 50, "--seed", 3,
                       "--logs", logs, "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["game"] == "leduc" and summary["hands_played"] == 50
    assert sum(summary["bankrolls"]) == 0
    match = only_match_dir(logs)
    assert (match / "seat0.in").read_text().startswith(
        "init_round\nMoney: 0,0\nBlinds: 1,1\n")
    shown = pokerbots("show", match, "--last", 2)
    assert shown.returncode == 0 and "flop" in shown.stdout
    dealt = pokerbots("deal", "--game", "leduc", "--players", 3, "--hands", 2)
    assert dealt.returncode == 0 and "Game: leduc\n" in dealt.stdout
    assert "Totals: " in dealt.stdout
    smoke = pokerbots("smoke", bots[0], "--game", "leduc", "--players", "2,3", "--rounds", 1,
                      "--hands", 10, "--logs", tmp_path / "smoke")
    assert smoke.returncode == 0, smoke.stdout + smoke.stderr
    assert "5 matches" in smoke.stdout and "0 failed" not in smoke.stdout


def test_a_person_plays_leduc_at_the_terminal(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    opponent = f"{sys.executable} -m pokerbots.server.play.smoke_random --seed 2"
    command = [str(Path(sys.executable).with_name("pokerbots")), "run", opponent, "-",
               "--game", "leduc", "--hands", 2, "--seed", 4, "--logs", str(tmp_path)]
    child = pexpect.spawn(shlex.join(map(str, command)), encoding="utf-8", timeout=15,
                          dimensions=(50, 120))
    plays = 0
    while True:
        i = child.expect([r"# Reply: ([^\r\n\x1b]+)",
                          r"# Reply one of: (BET \d+) \((?:check|call)\)", pexpect.EOF])
        if i == 2:
            break
        if i == 1:
            plays += 1
            assert "Board: " in child.before and "Raise: " in child.before
        child.sendline(child.match.group(1))
    child.close()
    assert child.exitstatus == 0, child.before
    assert plays >= 2
    summary = json.loads((only_match_dir(tmp_path) / "summary.json").read_text())
    assert summary["result"] == "completed" and summary["hands_played"] == 2

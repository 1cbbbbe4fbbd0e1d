"""The referee and the Kuhn dealer, driven in-process: no subprocess anywhere in this file."""

from __future__ import annotations

import random

import pytest

from pokerbots.server.errors import BotFault
from pokerbots.server.games import make_game
from pokerbots.server.games.base import Deal
from pokerbots.server.games.kuhn import deck_for
from pokerbots.server.referee.referee import Referee

from drive import (
    SEED_DECISIONS,
    SEED_TRANSCRIPT,
    check_call,
    honest,
    run,
    seat_view,
    seed_referee,
    table_bet,
)


def seed_round():
    """The example's round, with the bot at seat 0 writing its Money reply as the document does."""
    referee = seed_referee()
    decisions = {s: [d.encode() for d in ds] for s, ds in SEED_DECISIONS.items()}
    base = honest(referee, lambda seat, message: decisions[seat].pop(0))

    moneys = []

    def reply(seat, kind, message):
        if kind == "end_action" and seat == 0:
            moneys.append(message)
            if len(moneys) == 1:
                return b"Money: -2, -1, 3"  # as the document writes it, after the first hand
        return base(seat, kind, message)

    return referee, run(referee, reply)


def test_the_protocol_documents_example_is_reproduced_byte_for_byte():
    _, transcript = seed_round()
    assert seat_view(transcript, 0) == SEED_TRANSCRIPT


def test_the_example_transcript_in_protocol_md_is_the_one_the_server_produces():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "protocol" / "PROTOCOL.md").read_text()
    assert SEED_TRANSCRIPT in doc


def test_action_lines_show_the_latest_action_since_the_viewers_previous_decision():
    # Button 2, so seat 0 acts first: seat 0 bets, seat 1 folds, seat 2 calls.
    deals = [Deal((("J",), ("Q",), ("K",)))]
    referee = Referee(make_game("kuhn", 3), random.Random(1), hands=1, button=2, deals=deals)
    script = {0: b"BET 2", 1: b"FOLD 1", 2: b"BET 2"}
    transcript = run(referee, honest(referee, lambda seat, m: script[seat]))
    plays = {s: m.decode() for s, kind, m, _ in transcript if kind == "play"}
    ends = {s: m.decode() for s, kind, m, _ in transcript if kind == "end_hand"}
    # Seat 2 is asked after seat 0 bet and seat 1 folded: both are news to it.
    assert plays[2] == "play\nAction: BLIND 1\nAction: BET 2\nAction: FOLD 1\n"
    # At the end, seat 0 learns of the fold and the call; seat 2 (which lists itself, then
    # seats 0 and 1) saw both before its own decision, so they are PASS with money in front.
    assert ends[0].startswith("end_hand\nAction: BET 2\nAction: FOLD 1\nAction: BET 2\n")
    assert ends[2].startswith("end_hand\nAction: BET 2\nAction: PASS 2\nAction: PASS 1\n")
    # Seat 1 folded right after seat 0's bet; it sees its own fold and seat 2's call.
    assert ends[1].startswith("end_hand\nAction: FOLD 1\nAction: BET 2\nAction: PASS 2\n")
    assert "Showdown: -,-,K\nPots: 5,2\n" in ends[0]


def first_decision(players=3, button=None, reply=b"BET 1", after=()):
    """Play one hand where the scripted replies ``after`` come first, then ``reply``."""
    deals = [Deal(tuple((c,) for c in deck_for(players)[:players]))]
    referee = Referee(make_game("kuhn", players), random.Random(0), hands=1, button=players - 1,
                      deals=deals)
    replies = list(after) + [reply]

    def decide(seat, message):
        return replies.pop(0) if replies else b"BET %d" % table_bet(message)

    return referee, run(referee, honest(referee, decide))


@pytest.mark.parametrize("reply", [b"BET 1", b"BET 2", b"BET 1\r", b"BET 2\r"])
def test_with_no_bet_out_check_and_bet_are_legal(reply):
    referee, transcript = first_decision(reply=reply)
    assert referee.hands_played == 1
    # The next player to act (seat 1, seat 0 last in its view) is told the action.
    plays = [m for _, kind, m, _ in transcript if kind == "play"]
    assert plays[1].endswith(b"Action: " + reply.rstrip(b"\r") + b"\n")


@pytest.mark.parametrize("reply", [b"BET 2", b"FOLD 1", b"BET 2\r", b"FOLD 1\r"])
def test_facing_a_bet_call_and_fold_are_legal(reply):
    referee, transcript = first_decision(reply=reply, after=[b"BET 2"])
    assert referee.hands_played == 1
    # Seat 1 answered seat 0's bet; the end of the hand shows its answer to everyone.
    ends = {s: m for s, kind, m, _ in transcript if kind == "end_hand"}
    assert b"Action: " + reply.rstrip(b"\r") + b"\n" in ends[0]


@pytest.mark.parametrize(
    "reply, why",
    [
        (b"FOLD 1", "folding is not allowed when checking is free"),
        (b"BET 3", "BET 3 is more than the maximum, BET 2"),
        (b"BET 0", "BET 0 leaves less than the 1 needed to check"),
        (b"PASS 1", "PASS is only for a player who cannot act"),
        (b"CHECK", "unknown action 'CHECK'; the reply must be BET <value> or FOLD <value>"),
        (b"bet 1", "unknown action 'bet' (actions are in capitals: BET, FOLD)"),
        (b"BET", "BET needs a value: the money in front"),
        (b"BET 01", "'01' is not a whole number of chips"),
        (b"BET -1", "'-1' is not a whole number of chips"),
        (b"BET +1", "'+1' is not a whole number of chips"),
        (b"BET  1", "' 1' is not a whole number of chips"),
        (b"BET 1 ", "'1 ' is not a whole number of chips"),
        (b" BET 1", "the reply starts with a space"),
        (b"BET 1\r\r", "'1\\r' is not a whole number of chips"),
        (b"BET 99999999999999999999", "is not a whole number of chips"),
        (b"", "an empty line where an action was due"),
        (b"RAISE 2", "unknown action 'RAISE'"),
        (b"BET \xff", "is not a whole number of chips"),
    ],
)
def test_illegal_replies_with_no_bet_out_end_the_round(reply, why):
    with pytest.raises(BotFault) as info:
        first_decision(reply=reply)
    fault = info.value
    assert why in fault.reason
    assert fault.seat == 0 and fault.hand == 0
    assert fault.received == reply
    assert fault.sent.startswith("play\n")
    assert fault.legal == "BET 1 (check) or BET 2 (bet)"


@pytest.mark.parametrize(
    "reply, why",
    [
        (b"BET 1", "BET 1 leaves less than the 2 needed to call"),
        (b"BET 3", "BET 3 is a raise, and no raise is allowed here"),
        (b"FOLD 2", "FOLD must state the money in front, 1, not 2"),
        (b"FOLD 0", "FOLD must state the money in front, 1, not 0"),
        (b"PASS 2", "PASS is only for a player who cannot act"),
    ],
)
def test_illegal_replies_facing_a_bet_end_the_round(reply, why):
    with pytest.raises(BotFault) as info:
        first_decision(reply=reply, after=[b"BET 2"])
    assert why in info.value.reason
    assert info.value.seat == 1
    assert info.value.legal == "BET 2 (call) or FOLD 1"


def bookkeeping_fault(kind, bad, players=3):
    referee = Referee(make_game("kuhn", players), random.Random(3), hands=2)
    base = honest(referee, check_call)

    def reply(seat, k, message):
        return bad if (k == kind and seat == 1) else base(seat, k, message)

    with pytest.raises(BotFault) as info:
        run(referee, reply)
    assert info.value.seat == 1
    return info.value


@pytest.mark.parametrize("kind", ["init_round", "init_hand"])
@pytest.mark.parametrize("bad", [b"ready", b"READY ", b"OK", b""])
def test_anything_but_ready_is_refused(kind, bad):
    fault = bookkeeping_fault(kind, bad)
    assert "expected 'READY'" in fault.reason


@pytest.mark.parametrize("kind, bad, word", [
    ("init_round", b"ready", "READY"), ("init_hand", b"Ready\r", "READY"),
    ("end_hand", b"ok", "OK"), ("end_round", b"thank you dealer, have a nice day!",
                                "Thank you dealer, have a nice day!")])
def test_a_reply_in_the_wrong_case_is_refused_saying_that_case_matters(kind, bad, word):
    fault = bookkeeping_fault(kind, bad)
    assert fault.reason.endswith(f" (the protocol's words are case-sensitive: {word!r})")
    assert "case-sensitive" not in bookkeeping_fault(kind, b"READ").reason


def test_rebuy_is_refused_in_kuhn():
    fault = bookkeeping_fault("end_hand", b"REBUY")
    assert "REBUY is not allowed in kuhn" in fault.reason
    assert fault.hand == 0


@pytest.mark.parametrize("bad", [b"ok", b"", b"OK OK", b"READY"])
def test_end_hand_answer_must_be_ok_or_rebuy(bad):
    assert "OK or REBUY" in bookkeeping_fault("end_hand", bad).reason


@pytest.mark.parametrize("bad", [b"Money: 0,0,0", b"Money: 9,9,-18"])
def test_wrong_money_totals_are_refused(bad):
    fault = bookkeeping_fault("end_action", bad)
    assert fault.reason == "the Money totals are wrong"
    assert fault.legal.startswith("Money: ")


@pytest.mark.parametrize("bad", [b"Money: 0,0", b"money: 0,0,0", b"Money:0,0,0", b"0,0,0",
                                 b"Money: 0 ,0,0", b"Money: a,b,c"])
def test_malformed_money_lines_are_refused(bad):
    fault = bookkeeping_fault("end_action", bad)
    assert "the reply must be 'Money: ' and 3 whole numbers" in fault.reason


def test_money_accepts_spaces_after_commas_and_a_trailing_cr():
    referee = Referee(make_game("kuhn", 3), random.Random(3), hands=3)
    base = honest(referee, check_call)

    def reply(seat, kind, message):
        answer = base(seat, kind, message)
        if kind == "end_action":
            answer = answer.replace(b",", b",  ") + b"\r"
        return answer

    run(referee, reply)
    assert referee.hands_played == 3


@pytest.mark.parametrize("bad", [b"Thank you dealer, have a nice day", b"bye", b""])
def test_the_goodbye_line_must_be_exact(bad):
    fault = bookkeeping_fault("end_round", bad)
    assert fault.hand is None
    assert fault.sent.startswith("end_round\n")


def test_button_starts_anywhere_and_moves_one_seat_clockwise_every_hand():
    firsts = set()
    for seed in range(40):
        hands = []
        referee = Referee(make_game("kuhn", 4), random.Random(seed), hands=6, on_hand=hands.append)
        run(referee, honest(referee, check_call))
        buttons = [h["button"] for h in hands]
        assert buttons == [(buttons[0] + i) % 4 for i in range(6)]
        firsts.add(buttons[0])
    assert firsts == {0, 1, 2, 3}


def test_button_line_is_relative_to_each_bot():
    referee = Referee(make_game("kuhn", 3), random.Random(0), hands=1, button=1)
    transcript = run(referee, honest(referee, check_call))
    init = {s: m.decode() for s, kind, m, _ in transcript if kind == "init_round"}
    assert [init[s].split("Button: ")[1].split("\n")[0] for s in range(3)] == ["1", "0", "2"]


def test_first_to_act_is_left_of_the_button():
    for button in range(3):
        referee = Referee(make_game("kuhn", 3), random.Random(0), hands=1, button=button)
        transcript = run(referee, honest(referee, check_call))
        first_play = next(s for s, kind, _, _ in transcript if kind == "play")
        assert first_play == (button + 1) % 3


def test_fixed_number_of_hands_is_announced_as_endprob_0_1():
    referee = Referee(make_game("kuhn", 2), random.Random(0), hands=7, end_prob=(1, 2))
    transcript = run(referee, honest(referee, check_call))
    assert b"EndProb: 0,1\n" in transcript[0][2]
    assert referee.hands_played == 7
    assert transcript[-1][2].endswith(b"NumHands: 7\n")


def test_endprob_ends_the_round_with_the_announced_chance():
    lengths = []
    for seed in range(400):
        referee = Referee(make_game("kuhn", 2), random.Random(seed), end_prob=(1, 10))
        run(referee, honest(referee, check_call))
        lengths.append(referee.hands_played)
    mean = sum(lengths) / len(lengths)
    # Geometric with p = 1/10: mean 10, standard deviation ~9.5, so the mean of 400 has SE ~0.47.
    assert 8.1 < mean < 11.9
    assert min(lengths) == 1


def test_the_same_seed_gives_the_same_round_and_another_seed_another():
    def transcript(seed):
        referee = Referee(make_game("kuhn", 3), random.Random(seed), end_prob=(1, 20))
        return run(referee, honest(referee, check_call))

    assert transcript(5) == transcript(5)
    assert transcript(5) != transcript(6)


def test_money_lines_are_rotated_bankrolls():
    referee = Referee(make_game("kuhn", 3), random.Random(2), hands=5)
    transcript = run(referee, honest(referee, check_call))
    ends = [m.decode() for s, kind, m, _ in transcript if kind == "end_round"]
    b = referee.bankrolls
    assert ends[1] == f"end_round\nBankrolls: {b[1]},{b[2]},{b[0]}\nNumHands: 5\n"
    assert sum(b) == 0


def test_hand_records_hold_cards_actions_pots_and_bankrolls():
    records = []
    deals = [Deal((("Q",), ("J",), ("K",)))]
    referee = Referee(make_game("kuhn", 3), random.Random(0), hands=1, button=1, deals=deals,
                      on_hand=records.append)
    script = {2: b"BET 2", 0: b"BET 2", 1: b"FOLD 1"}
    run(referee, honest(referee, lambda seat, m: script[seat]))
    (record,) = records
    assert record["cards"] == ["Q", "J", "K"]
    assert record["actions"] == [[2, "BET", 2, 0], [0, "BET", 2, 0], [1, "FOLD", 1, 0]]
    assert record["pots"] == [[5, 2]]
    assert record["deltas"] == [-2, -1, 3]
    assert record["bankrolls"] == [-2, -1, 3]
    assert record["showdown"] == ["-", "-", "K"]

"""Mixed replies in the Python client library: ``state.mix`` and the lines it writes, what it
refuses before anything is sent, and a mixing bot's bookkeeping when the action drawn is not
the one it would have guessed (driven in-process through the real referee)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from pokerbots.protocol.client import (
    MIX_MAX_ITEMS,
    MIX_MAX_WEIGHT,
    Client,
    Legal,
    ProtocolError,
    State,
    integer_weights,
    mix_reply,
)
from pokerbots.server.games import make_game
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

from mixing import DrawingSeat, distribution

#: Facing a bet in no-limit: call 10, raise 20..100, fold 5.
FACING = Legal(5, 10, True, 20, 100)
LEGAL_LINE = "legal: BET 10 (call) or BET 20 to BET 100 (raise) or FOLD 5"


def kuhn_play(players: int = 2) -> tuple[Client, list]:
    """A Kuhn client after its first init_hand, and the list of functions that answer its
    next plays, one each (append a ``decide(state)`` before each play)."""
    answers: list = []
    client = Client(lambda state: answers.pop(0)(state), game="kuhn")
    money = ",".join(["0"] * players)
    client.receive(f"init_round\nMoney: {money}\nBlinds: {','.join(['1'] * players)}\n"
                   f"Button: {players - 1}\nEndProb: 0,1\n".encode())
    client.receive(b"init_hand\nHand: 0\nCards: Q\n")
    return client, answers


def test_mix_writes_each_item_with_its_weight_in_the_order_given():
    assert mix_reply(FACING, {"FOLD 5": 1, "BET 10": 2, "BET 40": 1}) == (
        "MIX 1 FOLD 5,2 BET 10,1 BET 40")
    assert mix_reply(FACING, [("BET 100", MIX_MAX_WEIGHT), ("FOLD 5", 7)]) == (
        "MIX 1000000 BET 100,7 FOLD 5")
    # A mix of one item is that reply, whatever its weight.
    assert mix_reply(FACING, {"BET 20": 9}) == "BET 20"


def test_state_mix_takes_the_strings_the_reply_helpers_return():
    client, answers = kuhn_play()
    lines = []

    def decide(state):
        line = state.mix({state.check_or_call(): 3, state.raise_to(2): 1})
        lines.append(line)
        return line

    answers.append(decide)
    reply = client.receive(b"play\nAction: BLIND 1\nAction: BLIND 1\n")
    assert reply == b"MIX 3 BET 1,1 BET 2" and lines == ["MIX 3 BET 1,1 BET 2"]
    assert distribution(reply) == {b"BET 1": Fraction(3, 4), b"BET 2": Fraction(1, 4)}


WEIGHT = "a weight is a whole number from 1 to 1000000"


@pytest.mark.parametrize("weights, why", [
    ({}, "a mix needs at least one item"),
    ({"BET 10": 0}, f"item 1 of the mix, 'BET 10', has the weight 0: {WEIGHT}"),
    ({"BET 10": 1, "FOLD 5": -1}, f"item 2 of the mix, 'FOLD 5', has the weight -1: {WEIGHT}"),
    ({"BET 10": MIX_MAX_WEIGHT + 1}, f"has the weight 1000001: {WEIGHT}"),
    ({"BET 10": 0.5}, f"has the weight 0.5: {WEIGHT}"),
    ({"BET 10": 2.0}, f"has the weight 2.0: {WEIGHT}"),
    ({"BET 10": True}, f"has the weight True: {WEIGHT}"),
    ({"BET 10": Fraction(1, 2)}, f"has the weight Fraction(1, 2): {WEIGHT}"),
    ({"BET 10": "3"}, f"has the weight '3': {WEIGHT}"),
    # From here on, the server's own words (its reader of MIX lines judges the line).
    ([("BET 10", 1), ("FOLD 5", 1), ("BET 10", 2)],
     "item 3 of the mix, '2 BET 10', repeats the reply of item 1"),
    ({"BET 3": 1}, "item 1 of the mix, '1 BET 3', is not legal here: BET 3 leaves less than"
                   " the 10 needed to call"),
    ({"BET 10": 1, "BET 101": 1}, "item 2 of the mix, '1 BET 101', is not legal here: BET 101"
                                  " is more than the maximum, BET 100"),
    ({"BET 15": 1}, "'1 BET 15', is not legal here: BET 15 raises less than the minimum"),
    ({"FOLD 10": 1}, "'1 FOLD 10', is not legal here: FOLD must state the money in front, 5"),
    ({None: 1}, "item 1 of the mix, None, is not a reply"),
    ({"CALL": 1}, "item 1 of the mix, 'CALL', is not a reply: unknown action 'CALL'"),
    ({"BET 010": 1}, "'BET 010', is not a reply: '010' is not a whole number of chips"),
    ({"BET 10\r": 1}, "is not a reply as the protocol writes it: BET 10"),
    ({"MIX 1 BET 10": 1}, "unknown action 'MIX'"),
    ({"BET 10,1 BET 20": 1}, "'BET 10,1 BET 20', is not a reply"),  # no item smuggled in
    ({f"BET {v}": 1 for v in range(20, 20 + MIX_MAX_ITEMS + 1)},
     "item 65 of the mix, '1 BET 84', is one too many: a mix has at most 64 items"),
])
def test_mix_refuses_what_the_server_would_refuse_naming_the_item(weights, why):
    with pytest.raises(ProtocolError) as raised:
        mix_reply(FACING, weights)
    assert why in str(raised.value)
    if weights:
        assert str(raised.value).endswith(LEGAL_LINE)


def test_mix_refuses_a_fold_when_checking_is_free_and_a_raise_when_none_is_allowed():
    free = Legal(1, 1, False, 2, 2)
    with pytest.raises(ProtocolError, match="folding is not allowed when checking is free"):
        mix_reply(free, {"BET 1": 1, "FOLD 1": 1})
    capped = Legal(4, 8, True)
    with pytest.raises(ProtocolError, match="no raise is allowed here"):
        mix_reply(capped, {"BET 8": 1, "BET 12": 1})
    with pytest.raises(ProtocolError, match="a mix is a dict"):
        mix_reply(FACING, 5)


def test_mix_takes_the_largest_mix_the_protocol_allows():
    items = {f"BET {v}": MIX_MAX_WEIGHT for v in range(20, 20 + MIX_MAX_ITEMS)}
    line = mix_reply(FACING, items)
    assert line.count(",") == MIX_MAX_ITEMS - 1
    assert len(line) < 4096  # within the server's longest reply line


def test_a_mix_line_from_decide_is_checked_before_it_is_sent():
    client, answers = kuhn_play()
    play = b"play\nAction: BLIND 1\nAction: BLIND 1\n"
    answers.append(lambda state: "MIX 1 BET 1,5 BET 2")
    assert client.receive(play) == b"MIX 1 BET 1,5 BET 2"
    # The server's own words: the client reads the line with the server's reader.
    for bad, why in [("MIX 1 BET 1,0 BET 2", "item 2 of the mix, '0 BET 2', has the weight '0'"),
                     ("MIX 1 BET 1,1 BET 1", "item 2 of the mix, '1 BET 1', repeats the reply"
                                             " of item 1"),
                     ("MIX 1 BET 1,1 BET 3", "item 2 of the mix, '1 BET 3', is not legal here"),
                     ("MIX 1 BET 1, 1 BET 2", "item 2 of the mix, ' 1 BET 2', starts with a"
                                              " space"),
                     ("MIX 01 BET 1", "item 1 of the mix, '01 BET 1', has the weight '01'"),
                     ("MIX 1 BET 1,BET 2", "item 2 of the mix, 'BET 2', has no weight"),
                     ("MIX 12345678901234567890 BET 1", "has the weight '12345678901234567890'"),
                     ("MIX ", "item 1 of the mix is empty"),
                     ("MIX", "a mix needs at least one item"),
                     ("MIX 1 FOLD 1", "folding is not allowed when checking is free")]:
        answers.append(lambda state, bad=bad: bad)
        with pytest.raises(ProtocolError) as raised:
            client.receive(play)
        assert f"decide() returned {bad!r}, a mix the server would refuse: " in str(
            raised.value)
        assert why in str(raised.value)
        assert str(raised.value).endswith("legal: BET 1 (check) or BET 2 (bet)")
    # Without the check, the line goes to the server as it is.
    unchecked = Client(lambda state: "MIX 1 BET 1,1 BET 1", game="kuhn", check=False)
    unchecked.receive(b"init_round\nMoney: 0,0\nBlinds: 1,1\nButton: 1\nEndProb: 0,1\n")
    unchecked.receive(b"init_hand\nHand: 0\nCards: Q\n")
    assert unchecked.receive(play) == b"MIX 1 BET 1,1 BET 1"


def test_integer_weights_are_the_smallest_whole_numbers_in_the_same_proportions():
    F = Fraction
    assert integer_weights({"a": F(1, 6), "b": F(5, 6)}) == {"a": 1, "b": 5}
    assert integer_weights({"a": F(1, 3), "b": 0, "c": F(1, 4), "d": F(5, 12)}) == {
        "a": 4, "c": 3, "d": 5}
    assert list(integer_weights({"z": 2, "a": 4})) == ["z", "a"]
    assert integer_weights({"z": 2, "a": 4}) == {"z": 1, "a": 2}
    assert integer_weights({"only": F(1, 7)}) == {"only": 1}
    with pytest.raises(ValueError, match="must be a non-negative int or Fraction, not 0.5"):
        integer_weights({"a": 0.5})
    with pytest.raises(ValueError, match="not -1"):
        integer_weights({"a": -1, "b": 2})
    with pytest.raises(ValueError, match="every share is 0"):
        integer_weights({"a": 0})
    with pytest.raises(ValueError, match="weights above 1000000"):
        integer_weights({"a": F(1, 1_000_003), "b": F(1_000_002, 1_000_003)})


def state_with(legal: Legal) -> State:
    """A State of a two-player table whose legal replies are ``legal``."""
    return State("holdem-nl", 2, 0, 0, ("Ah", "Kd"), (), 0, [legal.front, legal.call],
                 [1000, 1000], [0, 0], [], legal, None)


def test_raise_sizes_are_every_size_or_an_even_spread_of_them():
    assert state_with(Legal(1, 1, False, 2, 2)).raise_sizes(62) == [2]  # Kuhn's one bet
    with pytest.raises(ValueError, match="most must be at least 2"):
        state_with(FACING).raise_sizes(1)
    sizes = state_with(Legal(0, 10, True, 20, 1990)).raise_sizes(62)
    assert len(sizes) == 62 and sizes[0] == 20 and sizes[-1] == 1990
    assert sizes == sorted(set(sizes))
    steps = [b - a for a, b in zip(sizes, sizes[1:])]
    assert max(steps) - min(steps) <= 1  # evenly spread
    assert state_with(Legal(0, 10, True, 20, 81)).raise_sizes(62) == list(range(20, 82))
    assert len(state_with(Legal(0, 10, True, 20, 82)).raise_sizes(62)) == 62  # 63: spread
    assert state_with(Legal(10, 10, False)).raise_sizes(62) == []


class MixingBot:
    """Every kind of legal reply at once: check or call 3, up to four raise sizes 1 each,
    fold 2; a decision where only one reply is legal is that reply."""

    def __call__(self, state):
        weights = {state.check_or_call(): 3}
        for size in state.raise_sizes(4):
            weights[state.raise_to(size)] = 1
        if state.fold() is not None:
            weights[state.fold()] = 2
        return state.mix(weights)


@pytest.mark.parametrize("game, players, options", [
    ("kuhn", 3, {}),
    ("leduc", 3, {}),
    ("holdem-nl", 3, {"carry": True, "stack": 200}),
    ("holdem-limit", 4, {}),
])
def test_a_mixing_bot_keeps_the_books_whatever_action_is_drawn(game, players, options):
    """Every seat answers with mixes, and the action played is drawn from each (here, as the
    dealer would): the referee checks every seat's Money line after every hand, and the
    client's bankrolls end equal to the referee's."""
    if game.startswith("holdem"):
        pytest.importorskip("pokerbots.server.games.holdem", reason="the Hold'em dealer")
    hands = 150
    referee = Referee(make_game(game, players, **options), random.Random(players), hands=hands)
    seats = [DrawingSeat(Client(MixingBot(), game=game), random.Random(50 + s))
             for s in range(players)]
    play_local(referee, seats)
    assert referee.hands_played == hands
    for seat, drawing in enumerate(seats):
        assert drawing.client.bankrolls == referee.bankrolls[seat:] + referee.bankrolls[:seat]
        assert drawing.client.hands_played == hands
        mixes = [reply for _, reply in drawing.plays if reply.startswith(b"MIX ")]
        assert len(mixes) > hands / 2
        # Most draws were not the mix's first item: nothing assumed the first was played.
        assert drawing.drawn > len(mixes) / 4
    assert any(bankroll != 0 for bankroll in referee.bankrolls)

"""The hand record, on records of real rounds of every game: its fields, its one JSON encoder
(json.dumps's bytes, compiled and plain), its public view (the public fields exactly, nobody's
unshown hole cards but the viewer's own) and its one replay on the engine (the recorded deltas
again; a tampered record refused)."""

from __future__ import annotations

import json
import os
import random
import typing

import pytest

from pokerbots.server.hands import encoding, record
from pokerbots.server.hands.record import HIDDEN, PUBLIC_FIELDS, HandRecord, public_view
from pokerbots.server.hands.replay import ReplayError, deal_of, replay
from pokerbots.server.referee.referee import Referee
from pokerbots.server.seats.runner import HandFeed

import played


@pytest.fixture(scope="module")
def rounds() -> dict[str, tuple]:
    """Every table of :data:`played.TABLES`, played: name -> (game, records)."""
    return {table: played.play(table) for table in played.TABLES}


def _dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


# -- fields --------------------------------------------------------------------------------------


def test_every_field_of_a_real_record_is_a_field_of_the_type(rounds):
    required = HandRecord.__required_keys__
    optional = HandRecord.__optional_keys__
    fields = list(typing.get_type_hints(HandRecord))
    assert fields[:len(required)] == ["hand", "button", "cards", "forced", "actions",
                                      "showdown", "pots", "deltas", "bankrolls"]
    seen: set[str] = set()
    for _game, records in rounds.values():
        for r in records:
            assert required <= r.keys() <= required | optional, r
            assert list(r)[:len(required)] == fields[:len(required)]  # the order it is written
            seen |= r.keys()
    assert seen == required | {"antes", "board", "stacks_start", "stacks_end"}
    assert set(PUBLIC_FIELDS) <= required | optional


# -- JSON ----------------------------------------------------------------------------------------

#: The one encoder, and the two it chooses between: the compiled encoder's code (compiled in
#: a compiled build, plain Python in an editable one) and json's C encoder made once.
ENCODERS = {"record.encode": record.encode, "encoding.encode": encoding.encode,
            "plain": record.plain_encoder()}


@pytest.mark.parametrize("encoder", ENCODERS.values(), ids=list(ENCODERS))
def test_every_games_records_are_encoded_as_json_dumps_would(rounds, encoder):
    lines = 0
    for _game, records in rounds.values():
        for r in records:
            assert encoder(r) == _dumps(r)
            # As a tournament writes it: its adjustments, floats, added last.
            scored = {**r, "allin_adjusted": [0.5, -0.25, -0.25][:len(r["deltas"])],
                      "luck_adjusted": [d / 1024 + 1e-3 for d in r["deltas"]]}
            assert encoder(scored) == _dumps(scored)
            assert json.loads(encoder(r)) == r
            lines += 1
    assert lines == 40 * len(played.TABLES)


def test_the_encoder_is_the_compiled_one_exactly_where_it_is_compiled():
    compiled = not encoding.__file__.endswith(".py")
    assert record.compiled() is compiled
    assert (record.encode is encoding.encode) is compiled


def test_the_hand_feed_sends_each_records_public_view_as_one_json_line(rounds):
    game, records = rounds["holdem-nl-ante-stacks"]
    referee = Referee(game, random.Random(0), hands=1)  # its on_hand, as a round calls it
    feed = HandFeed(referee)
    read_end = feed.open(0)
    try:
        os.set_blocking(read_end, False)
        for r in records:
            referee.on_hand(r)
            line = os.read(read_end, 1 << 16)
            assert line == (_dumps({key: r[key] for key in PUBLIC_FIELDS if key in r})
                            + "\n").encode()
            assert b'"cards"' not in line
    finally:
        feed.close()


# -- what a viewer may see -----------------------------------------------------------------------


def test_the_public_view_keeps_exactly_the_public_fields(rounds):
    for _game, records in rounds.values():
        for r in records:
            view = public_view(r)
            assert list(view) == [key for key in PUBLIC_FIELDS if key in r]
            assert all(view[key] == r[key] for key in view)
            assert "cards" not in view and "bankrolls" not in view
            scored = {**r, "luck_adjusted": [0.0] * len(r["deltas"]),
                      "allin_adjusted": [0.0] * len(r["deltas"])}
            for seats in (set(), {0}, {1, 2}):
                view = public_view(scored, seats)
                assert list(view) == [*(key for key in PUBLIC_FIELDS if key in r),
                                      "cards", "bankrolls"]
                assert view["bankrolls"] == r["bankrolls"]


def test_a_viewer_sees_its_own_hole_cards_and_those_shown_and_no_other(rounds):
    hidden_seen = shown_seen = 0
    for game, records in rounds.values():
        unique = len(set(game.deck)) == len(game.deck)  # Leduc has two of each rank
        for r in records:
            n = len(r["cards"])
            for seats in (set(), {0}, {n - 1}, set(range(n))):
                view = public_view(r, seats)
                text = record.encode(view)
                for s, cards in enumerate(r["cards"]):
                    if s in seats or r["showdown"][s] != HIDDEN:
                        assert view["cards"][s] == cards
                        shown_seen += s not in seats
                    else:
                        assert view["cards"][s] == HIDDEN
                        hidden_seen += 1
                        if unique:  # not anywhere else in the line either
                            assert all(card not in text for card in cards.split())
    assert hidden_seen > 1000 and shown_seen > 100  # both cases came up


# -- replay --------------------------------------------------------------------------------------


def test_every_record_replays_to_its_recorded_deltas(rounds):
    for table, (game, records) in rounds.items():
        for r in records:
            played_again = replay(game, r, check=True)
            hand = played_again.hand
            assert hand.to_act is None and hand.deltas == r["deltas"], (table, r)
            assert [[a.seat, "FOLD" if a.word == "fold" else "BET", a.front, a.street]
                    for a in played_again.acts] == r["actions"]
            assert hand.stack == r.get("stacks_end", hand.stack)
            assert [list(p) for p in hand.pots] == r["pots"]
            assert list(hand.board[:hand.revealed]) == r.get("board", [])


def test_a_board_the_hand_ended_before_is_filled_with_cards_nobody_holds(rounds):
    filled = 0
    for game, records in rounds.values():
        for r in records:
            deal = deal_of(game, r)
            board = r.get("board", [])
            assert len(deal.board) == game.board_cards and list(deal.board[:len(board)]) == board
            dealt = [c for hole in deal.holes for c in hole] + list(deal.board)
            assert all(dealt.count(c) <= game.deck.count(c) for c in dealt)
            filled += len(board) < game.board_cards
    assert filled > 50


def test_each_step_is_seen_from_the_deal_to_the_last_action(rounds):
    game, records = rounds["holdem-limit-4p-ante"]
    r = max(records, key=lambda r: len(r["actions"]))
    seen = []
    replay(game, r, each=lambda hand, act: seen.append((act, hand.to_act, list(hand.front))))
    assert len(seen) == len(r["actions"]) + 1
    assert seen[0][0] is None and seen[0][1] == r["actions"][0][0]
    assert [act.seat for act, _, _ in seen[1:]] == [a[0] for a in r["actions"]]
    assert seen[-1][1] is None


def _tampered(r: dict, how: str) -> dict:
    r = json.loads(json.dumps(r))
    if how == "deltas":
        r["deltas"] = [d + 1 for d in r["deltas"]]
    elif how == "turn":  # the first action given to the next seat
        r["actions"][0][0] = (r["actions"][0][0] + 1) % len(r["cards"])
    elif how == "street":
        r["actions"][0][3] += 1
    elif how == "bet":  # a raise to more than anyone has, for the first BET
        next(a for a in r["actions"] if a[1] == "BET")[2] = 10 ** 9
    elif how == "extra":  # an action after the hand is over
        r["actions"].append(list(r["actions"][-1]))
    elif how == "cards":
        r["cards"] = r["cards"][:-1]
    elif how == "missing":
        del r["actions"]
    return r


@pytest.mark.parametrize("how, says", [
    ("deltas", "it does not reach its recorded result"),
    ("turn", "acts on street 0, the rules have seat"),
    ("street", "acts on street 1, the rules have seat"),
    ("bet", ""),
    ("extra", "the rules have seat None"),
    ("cards", "its cards cannot be dealt again"),
    ("missing", "its actions cannot be read (no 'actions')"),
])
def test_a_tampered_record_is_refused_with_the_reason(rounds, how, says):
    for table in ("kuhn-3p", "leduc-2p", "holdem-nl-ante-stacks", "holdem-limit-2p"):
        game, records = rounds[table]
        for r in [r for r in records if any(a[1] == "BET" for a in r["actions"])][:10]:
            replay(game, r, check=True)
            with pytest.raises(ReplayError) as refused:
                replay(game, _tampered(r, how), check=True)
            assert str(refused.value) and says in str(refused.value), (table, how)


def test_without_the_check_a_record_plays_whatever_its_deltas_say(rounds):
    game, records = rounds["kuhn-3p"]
    for r in records:
        assert replay(game, _tampered(r, "deltas")).hand.deltas == r["deltas"]

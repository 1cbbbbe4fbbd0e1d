"""A hand record's ``mixes``, on real rounds where bots answer with mixed replies: where the
field sits (after the game's fields, before a tournament's adjustments), its JSON, who sees
which mix (only the viewer who may see that seat's cards), its one phrase in the hand history,
and that such a record replays as any other."""

from __future__ import annotations

import json
import random
import re
import typing

import pytest

from pokerbots.protocol.client import Client
from pokerbots.server.games import make_game
from pokerbots.server.hands import encoding, record, words
from pokerbots.server.hands.record import HandRecord, public_view, visible_mixes
from pokerbots.server.hands.replay import replay
from pokerbots.server.logs.history import HandHistory
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee


def mixer(seat: int):
    """Seat 0 never mixes; the others mix every legal kind of reply, weights 1 to 9."""
    rng = random.Random(seat)

    def decide(state):
        if seat == 0:
            return state.check_or_call()
        replies = [state.check_or_call(), state.fold()]
        if state.raise_range is not None:
            replies += [state.raise_to(v) for v in sorted(set(state.raise_range))]
        return "MIX " + ",".join(f"{rng.randint(1, 9)} {r}" for r in replies if r is not None)

    return decide


@pytest.fixture(scope="module", params=[("kuhn", {}), ("holdem-nl", {"ante": 2})],
                ids=["kuhn", "holdem-nl"])
def played(request):
    name, options = request.param
    records: list[dict] = []
    referee = Referee(make_game(name, 3, **options), random.Random(4), hands=30,
                      on_hand=records.append, seed=4)
    play_local(referee, [Client(mixer(s), game=name, check=False) for s in range(3)])
    return make_game(name, 3, **options), records


def test_the_field_comes_after_the_games_and_before_a_tournaments(played):
    fields = list(typing.get_type_hints(HandRecord))
    assert fields.index("stacks_end") < fields.index("mixes") < fields.index("allin_adjusted")
    _, records = played
    assert any("mixes" in r for r in records)
    for r in records:
        if "mixes" in r:
            assert list(r)[-1] == "mixes"  # the referee's last; a tournament adds after it
            assert {r["actions"][index][0] for index, _, _ in r["mixes"]} <= {1, 2}


@pytest.mark.parametrize("encoder", [record.encode, encoding.encode, record.plain_encoder()])
def test_a_record_with_mixes_is_encoded_as_json_dumps_would(played, encoder):
    for r in played[1]:
        assert encoder(r) == json.dumps(r, separators=(",", ":"))


def test_a_mix_is_seen_only_by_who_may_see_the_cards_of_the_seat_that_sent_it(played):
    for r in played[1]:
        assert "mixes" not in public_view(r) and "mixes" not in public_view(r, set())
        for seats in ({0}, {1}, {2}, {1, 2}, {0, 1, 2}):
            own = [m for m in r.get("mixes", []) if r["actions"][m[0]][0] in seats]
            view = public_view(r, seats)
            assert visible_mixes(r, seats) == own
            if own:
                assert list(view)[-1] == "mixes" and view["mixes"] == own
            else:
                assert "mixes" not in view  # seat 0 never mixed: nothing, not an empty list


def test_the_history_says_drawn_with_its_probability_after_each_mixed_action(played):
    game, records = played
    history = HandHistory(["a", "b", "c"], game.structure.streets, game.structure.ante)
    for r in records:
        text = history.render(r)
        said = [line for line in text.splitlines() if "(drawn, " in line]
        assert len(said) == len(r.get("mixes", []))
        for line, (index, items, drawn) in zip(said, r.get("mixes", [])):
            seat = r["actions"][index][0]
            total = sum(weight for weight, _, _ in items)
            assert line.startswith(f"  {'abc'[seat]} (seat {seat}) ")
            assert line.endswith(f" (drawn, {items[drawn][0]}/{total})")
        # Without its mixes (as a viewer who sees none reads it): the same, less the phrase.
        without = {key: value for key, value in r.items() if key != "mixes"}
        assert history.render(without) == re.sub(r" \(drawn, \d+/\d+\)", "", text)


def test_a_record_with_mixes_replays_to_its_deltas(played):
    game, records = played
    for r in records:
        assert replay(game, r, check=True).hand.deltas == r["deltas"]


def test_the_phrase_is_the_drawn_items_weight_over_the_total():
    assert words.drawn([3, [[2, "BET", 10], [1, "FOLD", 5], [1, "BET", 40]], 0]) == (
        " (drawn, 2/4)")
    assert words.drawn([0, [[7, "BET", 2]], 0]) == " (drawn, 7/7)"

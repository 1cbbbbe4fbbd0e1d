"""Mixed replies judged by the real referee, in-process: every rule a mix can break is a fault
of the mixing bot naming the item; the dealer draws from each hand's own generator
(``random.Random(f"{seed}:{hand}:mix")``) and plays the drawn item exactly as if it had been
sent; the hand's record keeps each mix."""

from __future__ import annotations

import random

import pytest

from pokerbots.protocol.client import Client
from pokerbots.server.errors import BotFault
from pokerbots.server.games import make_game
from pokerbots.server.games.base import Deal
from pokerbots.server.games.kuhn import deck_for
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

from drive import honest, run, table_bet

TABLES = [("kuhn", 3, {}), ("leduc", 2, {}), ("holdem-nl", 3, {}), ("holdem-limit", 3, {}),
          ("holdem-nl", 3, {"stack": 300, "carry": True})]


def mixer(seed: int, every: int = 1):
    """A decide function answering a mix of every kind of legal reply (check or call, fold
    where allowed, the smallest and the largest raise) with weights from 1 to 9, at every
    ``every``-th decision; a single reply, the call, at the others."""
    rng = random.Random(seed)
    count = [0]

    def decide(state):
        count[0] += 1
        if count[0] % every:
            return state.check_or_call()
        replies = [state.check_or_call(), state.fold()]
        if state.raise_range is not None:
            replies += [state.raise_to(v) for v in sorted(set(state.raise_range))]
        replies = [r for r in replies if r is not None]
        return "MIX " + ",".join(f"{rng.randint(1, 9)} {r}" for r in replies)

    return decide


def play(game, players, options, seed, decide_for, hands=30, transcript=None):
    """A round of ``hands`` hands whose seats answer ``decide_for(seat)``; its records."""
    records: list[dict] = []
    referee = Referee(make_game(game, players, **options), random.Random(seed), hands=hands,
                      on_hand=records.append, seed=seed)
    seats = [Client(decide_for(s), game=game, check=False) for s in range(players)]
    play_local(referee, seats, transcript=transcript)
    return records


def drawn_again(seed: int, records: list[dict]) -> list[int]:
    """Every mix of ``records`` drawn again, in order, as MIX-SPEC.md says the dealer draws."""
    drawn = []
    for record in records:
        rng = random.Random(f"{seed}:{record['hand']}:mix")
        for _, items, _ in record.get("mixes", []):
            point = rng.randrange(sum(weight for weight, _, _ in items))
            for k, (weight, _, _) in enumerate(items):
                if point < weight:
                    drawn.append(k)
                    break
                point -= weight
    return drawn


# -- the draw ------------------------------------------------------------------------------


@pytest.mark.parametrize("game, players, options", TABLES)
def test_the_dealer_draws_each_mix_from_the_hands_own_generator(game, players, options):
    seed = 20260517
    records = play(game, players, options, seed, lambda s: mixer(s))
    mixes = [mix for record in records for mix in record.get("mixes", [])]
    assert len(mixes) >= len(records) and all("mixes" in r for r in records)
    assert [drawn for _, _, drawn in mixes] == drawn_again(seed, records)
    # Not always the first item: the draw is the generator's, not a default.
    assert {drawn for _, _, drawn in mixes} != {0}
    for record in records:
        for index, items, drawn in record["mixes"]:
            seat, word, value, _ = record["actions"][index]
            assert [word, value] == items[drawn][1:]


@pytest.mark.parametrize("game, players, options", TABLES)
def test_a_drawn_item_plays_exactly_as_if_it_had_been_sent(game, players, options):
    # The same round twice: once mixing, once with each seat sending the item drawn for it.
    # Every byte every seat receives is the same, and so is every record but its mixes: the
    # cards (the deal's generator is untouched), the Action lines, the Money checks.
    seed = 77
    mixed: list = []
    records = play(game, players, options, seed, lambda s: mixer(s), transcript=mixed)
    drawn = {s: [] for s in range(players)}
    for record in records:
        for index, _, _ in record["mixes"]:
            seat, word, value, _ = record["actions"][index]
            drawn[seat].append(f"{word} {value}")

    def sends_what_was_drawn(seat):
        return lambda state: drawn[seat].pop(0)

    single: list = []
    again = play(game, players, options, seed, sends_what_was_drawn, transcript=single)
    assert [(s, k, m) for s, k, m, _ in single] == [(s, k, m) for s, k, m, _ in mixed]
    assert again == [{k: v for k, v in r.items() if k != "mixes"} for r in records]
    assert all(not left for left in drawn.values())


def test_a_round_with_mixes_replays_exactly_from_its_seed_and_another_seed_draws_otherwise():
    first = play("holdem-nl", 3, {}, 5, lambda s: mixer(s))
    assert play("holdem-nl", 3, {}, 5, lambda s: mixer(s)) == first
    other = Referee(make_game("holdem-nl", 3), random.Random(5), hands=30, seed=6)
    records: list[dict] = []
    other.on_hand = records.append
    play_local(other, [Client(mixer(s), game="holdem-nl", check=False) for s in range(3)])
    assert [r["cards"] for r in records] == [r["cards"] for r in first]
    assert [r["mixes"] for r in records] != [r["mixes"] for r in first]


def test_the_record_keeps_each_mix_only_in_the_hands_that_had_one():
    # Seat 0 mixes at every third decision; the others never do.
    records = play("kuhn", 3, {}, 11, lambda s: mixer(s, every=3) if s == 0 else
                   (lambda state: state.check_or_call()), hands=12)
    with_mixes = [r for r in records if "mixes" in r]
    assert with_mixes and len(with_mixes) < len(records)
    for record in with_mixes:
        keys = list(record)
        assert keys[keys.index("mixes") - 1] == "bankrolls"  # Kuhn adds no fields after it
        for index, items, drawn in record["mixes"]:
            assert record["actions"][index][0] == 0
            assert all(isinstance(w, int) and word in ("BET", "FOLD") and isinstance(v, int)
                       for w, word, v in items)
            assert 0 <= drawn < len(items)
    seat_zero = [a for r in records for a in r["actions"] if a[0] == 0]
    assert sum(len(r.get("mixes", [])) for r in records) == len(seat_zero) // 3


def test_a_mix_of_one_item_is_that_action():
    deals = [Deal(tuple((c,) for c in deck_for(2)[:2]))]
    records: list[dict] = []
    referee = Referee(make_game("kuhn", 2), random.Random(0), hands=1, button=1, deals=deals,
                      on_hand=records.append, seed=3)
    script = {0: [b"MIX 7 BET 2"], 1: [b"BET 2"]}
    run(referee, honest(referee, lambda seat, message: script[seat].pop(0)))
    assert records[0]["actions"] == [[0, "BET", 2, 0], [1, "BET", 2, 0]]
    assert records[0]["mixes"] == [[0, [[7, "BET", 2]], 0]]


# -- the faults ----------------------------------------------------------------------------


def faulty_mix(reply: bytes, after=()):
    """Kuhn, 3 players, button 2: seat 0 acts first (checking free: BET 1 check, BET 2 bet);
    the scripted replies ``after`` come first, then ``reply``."""
    deals = [Deal(tuple((c,) for c in deck_for(3)[:3]))]
    referee = Referee(make_game("kuhn", 3), random.Random(0), hands=1, button=2, deals=deals,
                      labels=["a", "b", "c"])
    replies = list(after) + [reply]

    def decide(seat, message):
        return replies.pop(0) if replies else b"BET %d" % table_bet(message)

    with pytest.raises(BotFault) as info:
        run(referee, honest(referee, decide))
    return info.value


@pytest.mark.parametrize("reply, why", [
    # malformed
    (b"MIX", "a mix needs at least one item"),
    (b"MIX 1 BET 1,", "item 2 of the mix is empty"),
    (b"MIX 1 BET 1;1 BET 2", "item 1 of the mix, '1 BET 1;1 BET 2', is not a weight and a"
                             " reply: '1;1 BET 2' is not a whole number of chips"),
    (b"MIX 1 BET 1, 1 BET 2", "item 2 of the mix, ' 1 BET 2', starts with a space"),
    # an illegal item, even one with the least weight beside the largest (drawn only once in
    # a million)
    (b"MIX 1000000 BET 1,1 FOLD 1", "item 2 of the mix, '1 FOLD 1', is not legal here: folding"
                                    " is not allowed when checking is free"),
    (b"MIX 1 BET 2,1 BET 3", "item 2 of the mix, '1 BET 3', is not legal here: BET 3 is more"
                             " than the maximum, BET 2"),
    # a repeated item
    (b"MIX 1 BET 1,2 BET 2,3 BET 1", "item 3 of the mix, '3 BET 1', repeats the reply of item"
                                     " 1: each reply may appear once in a mix"),
    # a zero, missing or too large weight
    (b"MIX 0 BET 1,1 BET 2", "item 1 of the mix, '0 BET 1', has the weight '0': a weight is a"
                             " whole number from 1 to 1000000"),
    (b"MIX 1 BET 1,BET 2", "item 2 of the mix, 'BET 2', has no weight"),
    (b"MIX 1 BET 1,1000001 BET 2", "has the weight '1000001'"),
])
def test_a_mix_that_breaks_a_rule_is_a_fault_of_its_bot_naming_the_item(reply, why):
    fault = faulty_mix(reply)
    assert why in fault.reason
    assert fault.seat == 0 and fault.bot == "a" and fault.hand == 0 and fault.kind == "play"
    assert fault.received == reply
    assert fault.sent == "play\nAction: BLIND 1\nAction: BLIND 1\nAction: BLIND 1\n"
    assert fault.legal == "BET 1 (check) or BET 2 (bet)"
    paragraph = fault.paragraph()
    assert paragraph.startswith(f"Bot at seat 0 (a) failed in hand 0: {fault.reason}.")


def test_a_mix_of_more_than_64_items_is_a_fault_naming_the_65th():
    # Hold'em's raise range is wide enough for 64 different legal items.
    referee = Referee(make_game("holdem-nl", 2), random.Random(1), hands=1, seed=1)

    def decide(seat, message):
        low = int(message.split(b"Raise: ")[1].split(b",")[0])
        return b"MIX " + b",".join(b"1 BET %d" % (low + k) for k in range(65))

    with pytest.raises(BotFault) as info:
        run(referee, honest(referee, decide))
    assert info.value.reason == (f"item 65 of the mix, '1 BET {low_of(info.value) + 64}', is"
                                 " one too many: a mix has at most 64 items")


def low_of(fault: BotFault) -> int:
    return int(fault.sent.split("Raise: ")[1].split(",")[0])


def test_a_mix_facing_a_bet_is_judged_against_what_is_legal_there():
    fault = faulty_mix(b"MIX 1 BET 2,1 FOLD 1,1 BET 3", after=[b"BET 2"])
    assert fault.seat == 1
    assert fault.reason == ("item 3 of the mix, '1 BET 3', is not legal here: BET 3 is a raise,"
                            " and no raise is allowed here")
    assert fault.legal == "BET 2 (call) or FOLD 1"


@pytest.mark.parametrize("kind", ["init_hand", "end_hand", "end_action"])
def test_a_mix_is_no_answer_to_anything_but_play(kind):
    referee = Referee(make_game("kuhn", 3), random.Random(3), hands=1)
    base = honest(referee, lambda seat, message: b"BET %d" % table_bet(message))

    def reply(seat, k, message):
        return b"MIX 1 OK" if (k == kind and seat == 1) else base(seat, k, message)

    with pytest.raises(BotFault) as info:
        run(referee, reply)
    assert info.value.seat == 1 and info.value.received == b"MIX 1 OK"

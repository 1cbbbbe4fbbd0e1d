"""Mixed replies on the wire: what ``read_mix`` reads, what it refuses and why (naming the item
at fault), and that a single reply reads as before."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerbots.protocol.wire import (
    MIX_MAX_ITEMS,
    MIX_MAX_WEIGHT,
    Legal,
    MixError,
    WireError,
    is_mix,
    read_action,
    read_mix,
)

#: Facing a bet of 10 with 5 in front: call 10, raise to 20..100, fold 5.
FACING = Legal(front=5, call=10, can_fold=True, raise_min=20, raise_max=100, opened=True)


def test_a_mix_reads_into_its_items_in_the_order_sent():
    assert read_mix(b"MIX 1 FOLD 5,2 BET 10,1 BET 40") == [
        (1, b"FOLD", 5), (2, b"BET", 10), (1, b"BET", 40)]
    assert read_mix(b"MIX 3 BET 10\r", FACING) == [(3, b"BET", 10)]


@given(weights=st.lists(st.integers(1, MIX_MAX_WEIGHT), min_size=1, max_size=MIX_MAX_ITEMS))
def test_every_mix_within_the_bounds_is_read(weights):
    # Up to 64 distinct legal replies (the fold, the call, raises from 20), any weights.
    replies = [b"FOLD 5", b"BET 10", *[b"BET %d" % v for v in range(20, 100)]]
    line = b"MIX " + b",".join(b"%d %s" % (w, r) for w, r in zip(weights, replies))
    items = read_mix(line, FACING)
    assert [w for w, _, _ in items] == weights
    assert [b"%s %d" % (word, value) for _, word, value in items] == replies[:len(weights)]


@pytest.mark.parametrize("line, item, why", [
    (b"MIX", 0, "a mix needs at least one item: MIX <weight> <reply>,<weight> <reply>,..."),
    (b"MIX ", 1, "item 1 of the mix is empty"),
    (b"MIX 1 BET 10,", 2, "item 2 of the mix is empty"),
    (b"MIX 1 BET 10,,1 BET 20", 2, "item 2 of the mix is empty"),
    (b"MIX 0 BET 10", 1, "item 1 of the mix, '0 BET 10', has the weight '0': a weight is a"
                         " whole number from 1 to 1000000, written without a leading zero"),
    (b"MIX 1 BET 10,01 BET 20", 2, "has the weight '01'"),
    (b"MIX 1000001 BET 10", 1, "has the weight '1000001'"),
    (b"MIX 99999999999999999999 BET 10", 1, "has the weight '99999999999999999999'"),
    (b"MIX -1 BET 10", 1, "has the weight '-1'"),
    (b"MIX 1.5 BET 10", 1, "has the weight '1.5'"),
    (b"MIX 1 BET 10,BET 20", 2, "item 2 of the mix, 'BET 20', has no weight: each item is a"
                                " weight, a space and a reply ('1 BET 20')"),
    (b"MIX 1BET 10", 1, "has the weight '1BET'"),
    (b"MIX 1 BET 10, 1 BET 20", 2, "item 2 of the mix, ' 1 BET 20', starts with a space: the"
                                   " items are separated by a comma alone"),
    (b"MIX 1 BET 10,1  BET 20", 2, "is not a weight and a reply: the reply starts with a space"),
    (b"MIX 1 bet 10", 1, "is not a weight and a reply: unknown action 'bet'"),
    (b"MIX 1 BET x", 1, "'x' is not a whole number of chips"),
    (b"MIX 1 BET 10\r,1 BET 20", 1, "ends in a carriage return"),
    (b"MIX 1 BET 10,2 BET 20,3 BET 10", 3, "item 3 of the mix, '3 BET 10', repeats the reply"
                                           " of item 1: each reply may appear once in a mix"),
    (b"MIX 1 BET 10,1 BET 15", 2, "item 2 of the mix, '1 BET 15', is not legal here: BET 15"
                                  " raises less than the minimum, BET 20"),
    (b"MIX 1 FOLD 10", 1, "is not legal here: FOLD must state the money in front, 5, not 10"),
    (b"MIX 1 BET 101,1 BET 0", 1, "is not legal here: BET 101 is more than the maximum"),
])
def test_a_mix_that_breaks_a_rule_is_refused_naming_the_item_and_why(line, item, why):
    with pytest.raises(MixError) as info:
        read_mix(line, FACING)
    assert why in str(info.value)
    assert info.value.item == item
    if item:
        part = line[4:].rstrip(b"\r").split(b",")[item - 1].decode()
        assert info.value.text == part and f"item {item} of the mix" in str(info.value)


def test_the_first_item_at_fault_is_named_even_if_a_later_one_is_malformed():
    with pytest.raises(MixError) as info:
        read_mix(b"MIX 1 BET 10,1 FOLD 4,0 BET 20,garbage", FACING)
    assert info.value.item == 2 and "is not legal here" in str(info.value)


def test_a_mix_has_at_most_64_items():
    items = [b"1 BET %d" % v for v in range(20, 20 + MIX_MAX_ITEMS)]
    assert len(read_mix(b"MIX " + b",".join(items), FACING)) == MIX_MAX_ITEMS
    with pytest.raises(MixError) as info:
        read_mix(b"MIX " + b",".join([*items, b"1 BET 10"]), FACING)
    assert str(info.value) == ("item 65 of the mix, '1 BET 10', is one too many: a mix has at"
                               " most 64 items")
    assert info.value.item == 65


def test_without_the_legal_replies_only_the_form_is_judged():
    assert read_mix(b"MIX 1 FOLD 4,1 BET 7") == [(1, b"FOLD", 4), (1, b"BET", 7)]


def test_a_mix_is_not_a_single_action_and_a_single_action_reads_as_before():
    assert is_mix(b"MIX 1 BET 1") and is_mix(b"MIX") and is_mix(b"MIX\r")
    assert not is_mix(b"BET 1") and not is_mix(b"MIXED 1") and not is_mix(b"mix 1 BET 1")
    with pytest.raises(WireError, match="unknown action 'MIX'"):
        read_action(b"MIX 1 BET 1")
    with pytest.raises(WireError, match=r"unknown action 'mix' \(a mixed reply starts with MIX,"
                                        r" in capitals\)"):
        read_action(b"mix 1 BET 1")
    assert read_action(b"BET 10") == (b"BET", 10)

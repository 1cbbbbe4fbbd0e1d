"""The numbers in a bot's replies: what ``read_action`` and ``read_money`` read is what
``int()`` reads, for every value the protocol allows (they work the digits out themselves)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerbots.protocol.wire import MAX_DIGITS, WireError, read_action, read_money

AMOUNTS = st.integers(0, 10**MAX_DIGITS - 1)


@given(amount=AMOUNTS, word=st.sampled_from([b"BET", b"FOLD"]), cr=st.booleans())
def test_an_action_reads_its_amount(amount, word, cr):
    line = word + b" %d" % amount + (b"\r" if cr else b"")
    assert read_action(line) == (word, amount)


@given(values=st.lists(st.integers(-(10**MAX_DIGITS - 1), 10**MAX_DIGITS - 1), min_size=2,
                       max_size=10), spaced=st.booleans())
def test_money_reads_every_value_with_its_sign(values, spaced):
    line = b"Money: " + (b", " if spaced else b",").join(b"%d" % v for v in values)
    assert read_money(line, len(values)) == values


@pytest.mark.parametrize("line", [b"BET 1" + b"0" * MAX_DIGITS, b"BET 01", b"BET -5", b"BET +5",
                                  b"BET 1.5", b"BET"])
def test_an_amount_that_is_not_a_whole_number_of_chips_is_refused(line):
    with pytest.raises(WireError):
        read_action(line)


@pytest.mark.parametrize("line", [b"Money: 1,--2", b"Money: 1,+2", b"Money: 1,-", b"Money: 1,2,3"])
def test_money_that_is_not_whole_numbers_is_refused(line):
    with pytest.raises(WireError):
        read_money(line, 2)

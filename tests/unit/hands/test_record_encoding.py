"""A hand's line of hands.jsonl is json.dumps's, byte for byte, whatever the record holds."""

from __future__ import annotations

import json
import random

from pokerbots.server.hands.record import encode


def _dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def _random_value(rng: random.Random, depth: int = 0):
    kinds = ["int", "small", "str", "float", "none", "bool", "big"]
    if depth < 3:
        kinds += ["list", "tuple", "dict", "dict"]
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.randint(-10**6, 10**6)
    if kind == "small":  # seats, streets, BET 0: the encoder keeps their texts, up to 1023
        return rng.choice([0, 1, 9, 10, 1023, 1024, 1025, -1])
    if kind == "big":
        return rng.choice([10**20, -(10**18) - 7, 2**63])
    if kind == "str":
        return "".join(rng.choice('aZ09 -,"\\\n\t\x00é€🂡') for _ in range(rng.randint(0, 6)))
    if kind == "float":
        return rng.choice([0.5, -0.0, 1e300, 1 / 1024, 123.456, float("nan"), float("inf"),
                           -float("inf"), rng.random()])
    if kind == "none":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    items = [_random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if kind == "list":
        return items
    if kind == "tuple":
        return tuple(items)
    keys = [rng.choice(["hand", "cards", "é", 'q"', "", "luck_adjusted", 3, 2.5, None, True])
            for _ in items]
    return dict(zip(keys, items))


def test_every_kind_of_record_is_encoded_as_json_dumps_would():
    rng = random.Random(25)
    for _ in range(3000):
        record = {"hand": rng.randint(0, 10**6), "extra": _random_value(rng)}
        assert encode(record) == _dumps(record), record


def test_a_real_records_line_is_unchanged():
    record = {"hand": 0, "button": 0, "cards": ["J", "Q", "A"], "forced": [1, 1, 1],
              "actions": [[1, "BET", 1, 0], [2, "BET", 1, 0], [0, "BET", 1, 0]],
              "showdown": ["-", "-", "A"], "pots": [[3, 2]], "deltas": [-1, -1, 2],
              "bankrolls": [-1, -1, 2], "luck_adjusted": [-0.25, 0.125, 0.125]}
    assert encode(record) == (
        '{"hand":0,"button":0,"cards":["J","Q","A"],"forced":[1,1,1],"actions":[[1,"BET",1,0],'
        '[2,"BET",1,0],[0,"BET",1,0]],"showdown":["-","-","A"],"pots":[[3,2]],'
        '"deltas":[-1,-1,2],"bankrolls":[-1,-1,2],"luck_adjusted":[-0.25,0.125,0.125]}')


def test_what_json_refuses_is_refused_the_same_way():
    for bad in ({"a": {1, 2}}, {"a": object()}, {(1, 2): 3}):
        try:
            _dumps(bad)
        except TypeError as expected:
            try:
                encode(bad)
            except TypeError as got:
                assert str(got) == str(expected)
            else:
                raise AssertionError(f"{bad!r} was encoded")

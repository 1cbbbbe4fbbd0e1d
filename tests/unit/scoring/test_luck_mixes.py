"""The luck of a mix's draw in the luck-adjusted figure (server/scoring/luck.py, learnt.py).

Hands played in-process on the real betting engine, their mixes drawn as the dealer draws
them: two Kuhn hands worked out by hand; hands without mixes keep the figures the estimator
gave before mixes existed (digests recorded then); every hand with mixes sums to exactly zero
in every game; the raises of a 62-size no-limit mix are valued as each one would be; and, by
enumerating every deal and every draw of Kuhn and Leduc, the mean adjusted result equals the
mean result whatever the play learnt so far (so the estimator is unbiased whatever the bots
declare), while its spread is smaller.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from fractions import Fraction

import pytest

from pokerbots.server.games import make_game
from pokerbots.server.games.base import Deal
from pokerbots.server.games.engine.betting import Hand
from pokerbots.server.hands.follow import play_recorded
from pokerbots.server.scoring.equity import Showdowns
from pokerbots.server.scoring.learnt import (
    LearntPlay,
    coarse_value,
    shares,
    state_key,
    strength,
)
from pokerbots.server.scoring.luck import SCALE, LuckAdjuster

from kuhn_exact import three_player, uniform

GAMES = [("kuhn", 2), ("kuhn", 3), ("leduc", 2), ("leduc", 3), ("holdem-nl", 2),
         ("holdem-nl", 3), ("holdem-limit", 3)]


# -- hands with mixes, on the engine -----------------------------------------------------------


def start(game, deal: Deal, button: int):
    hand = Hand(game, button, deal, game.structure.stacks)
    return hand, {"hand": 0, "button": button, "cards": [" ".join(h) for h in deal.holes],
                  "forced": list(hand.forced), "actions": [], "mixes": []}


def act(hand: Hand, record: dict, items: list, drawn: int) -> None:
    """Play item ``drawn`` of ``items`` (``[weight, word, value]`` each) for the seat to act;
    a list of several items is a mix."""
    seat, street = hand.to_act, hand.street
    _, word, value = items[drawn]
    if len(items) > 1:
        record["mixes"].append([len(record["actions"]), [list(i) for i in items], drawn])
    play_recorded(hand, word, value, [])
    record["actions"].append([seat, word, value, street])


def finish(hand: Hand, record: dict) -> dict:
    record = {**record, "deltas": list(hand.deltas), **hand.record()}
    if not record["mixes"]:
        del record["mixes"]
    return record


def play(game, deal: Deal, button: int, policy, rng: random.Random) -> dict:
    """One hand, each decision ``policy(hand, legal, record)`` (its items), a mix drawn with
    ``rng`` as the dealer draws: ``randrange(total)``, the first item whose running weight
    exceeds it."""
    hand, record = start(game, deal, button)
    while hand.to_act is not None:
        items = policy(hand, hand.legal(), record)
        drawn = 0
        if len(items) > 1:
            point = rng.randrange(sum(i[0] for i in items))
            while point >= items[drawn][0]:
                point -= items[drawn][0]
                drawn += 1
        act(hand, record, items, drawn)
    return finish(hand, record)


def every_draw(game, deal: Deal, button: int, policy) -> list[tuple[Fraction, dict]]:
    """Every way the hand can go: each sequence of draws, its probability and its record."""
    found = []

    def go(hand, record, chance):
        if hand.to_act is None:
            found.append((chance, finish(hand, record)))
            return
        items = policy(hand, hand.legal(), record)
        total = sum(i[0] for i in items)
        for drawn, item in enumerate(items):
            branch = hand.clone()
            copy = {**record, "actions": [list(a) for a in record["actions"]],
                    "mixes": [list(m) for m in record["mixes"]]}
            act(branch, copy, items, drawn)
            go(branch, copy, chance * Fraction(item[0], total))

    hand, record = start(game, deal, button)
    go(hand, record, Fraction(1))
    return found


def random_mix(hand: Hand, legal, record) -> list:
    """The random bot's mix: check/call, fold and raise equally likely, the raise spread over
    at most 62 sizes (the largest a fifth of it)."""
    items = [[62, "BET", legal.call]]
    if legal.can_fold:
        items.append([62, "FOLD", legal.front])
    if legal.can_raise:
        low, high = legal.raise_min, legal.raise_max
        sizes = (list(range(low, high + 1)) if high - low < 62 else
                 [low + i * (high - low) // 61 for i in range(62)])
        share = [62 * 4 // (5 * len(sizes))] * len(sizes)
        share[-1] += 62 - sum(share)
        items += [[w, "BET", size] for w, size in zip(share, sizes) if w]
    return items


def no_mix(hand: Hand, legal, record) -> list:
    """A single action, as random as the mix (for hands without mixes)."""
    items = random_mix(hand, legal, record)
    return [items[random.Random(str(record["actions"])).randrange(len(items))]]


def kuhn_policy(policies):
    """Kuhn bots by seat, each ``policy(position, card, history)`` (kuhn_exact's): a mix where
    the probability of bet or call is strictly between 0 and 1, else a single action."""
    def decide(hand: Hand, legal, record) -> list:
        seat, button = hand.to_act, record["button"]
        history = ""
        for _, word, value, _ in record["actions"]:
            history += ("c" if word == "BET" else "f") if "b" in history else (
                "b" if value == 2 else "k")
        yes = policies[seat]((seat - button - 1) % hand.players, record["cards"][seat],
                             history)
        yes_item = ["BET", legal.call] if legal.can_fold else ["BET", legal.raise_min]
        no_item = ["FOLD", legal.front] if legal.can_fold else ["BET", legal.call]
        if yes in (0, 1):
            return [[1, *(yes_item if yes else no_item)]]
        return [[yes.numerator, *yes_item], [yes.denominator - yes.numerator, *no_item]]
    return decide


def by_strength(game):
    """Leduc bots: at a street's first decision a mix (raise or call by the hand's strength
    on the board so far), elsewhere a single action by strength."""
    def decide(hand: Hand, legal, record) -> list:
        seat = hand.to_act
        board = hand.board[:hand.revealed]
        mine = game.rank(hand.holes[seat], board or hand.holes[seat])
        best = max(game.rank(h, board or h) for h in hand.holes)
        first = not any(a[3] == hand.street for a in record["actions"])
        call = [1, "BET", legal.call]
        if first:
            other = [2 if mine == best else 1,
                     *(["BET", legal.raise_min] if legal.can_raise else
                       ["FOLD", legal.front] if legal.can_fold else [])]
            return [call, other] if len(other) == 3 else [call]
        if mine == best and legal.can_raise:
            return [[1, "BET", legal.raise_min]]
        return [[1, "FOLD", legal.front]] if mine < best and legal.can_fold else [call]
    return decide


def value(adjuster: LuckAdjuster, game, record: dict, **options) -> list[float]:
    showdowns = Showdowns(game, record, lambda: random.Random(f"boards:{record['hand']}"))
    return adjuster.adjust(record, showdowns, **options)


# -- by hand -----------------------------------------------------------------------------------


def scripted(*replies):
    """Each decision in turn: its items."""
    queue = list(replies)
    return lambda hand, legal, record: queue.pop(0)


def test_two_kuhn_hands_worked_out_by_hand():
    """Two-player Kuhn, button 1: seat 0 (the jack) mixes bet 1 : check 3, seat 1 (the king)
    answers. Hand 1, check drawn: nothing learnt yet, so after the bet seat 1 is taken to
    call (a showdown of 4 chips: seat 0 worth -2) and after the check to check (worth -1);
    the luck of the draw is -1 - (1/4 * -2 + 3/4 * -1) = +1/4, and seat 0's -1 becomes -5/4.
    Hand 2, the same cards, bet drawn, called: the luck of the draw is -2 - (-5/4) = -3/4;
    and the deal is now valued by the play learnt in hand 1. Seat 0 with the jack mixes as
    it did (whatever seat 1 holds): -5/4 against the king and against the queen (unseen
    there, the queen calls the bet and checks behind); in the other four deals nobody has
    been seen but the king checking behind a check: check, check, +1 for the queen or king
    against the jack, -1 for the queen against the king. Their mean is -1/12, the
    correction -5/4 + 1/12, and seat 0's -2 becomes -2 + 3/4 + 7/6 = -1/12: -85/1024 to
    the nearest 1/1024."""
    game = make_game("kuhn", 2)
    deal = Deal((("J",), ("K",)))
    adjuster = LuckAdjuster(game, learn=False)
    first = finish(*_scripted_hand(game, deal, [[[1, "BET", 2], [3, "BET", 1]], 1],
                                   [[[1, "BET", 1]], 0]))
    assert first["deltas"] == [-1, 1] and first["mixes"] == [[0, [[1, "BET", 2],
                                                                    [3, "BET", 1]], 1]]
    assert value(adjuster, game, first) == [-1.25, 1.25]
    second = finish(*_scripted_hand(game, deal, [[[1, "BET", 2], [3, "BET", 1]], 0],
                                    [[[1, "BET", 2]], 0]))
    assert second["deltas"] == [-2, 2]
    assert value(adjuster, game, second) == [-85 / SCALE, 85 / SCALE]
    learnt = adjuster.play
    assert learnt.at(state_key(0, 1, "J", (), None, ())) == ((("BET", 1), 0.75),
                                                             (("BET", 2), 0.25))
    assert learnt.at(state_key(1, 1, "K", (), None, ((0, "BET", 2),))) == ((("BET", 2), 1.0),)


def _scripted_hand(game, deal, *decisions):
    hand, record = start(game, deal, 1)
    for items, drawn in decisions:
        act(hand, record, items, drawn)
    assert hand.to_act is None
    return hand, record


# -- as before ---------------------------------------------------------------------------------

#: The figures of 40 hands without mixes of each game (``no_mix``), with the deal's slope
#: learnt and without, as the estimator gave them before mixes existed: the SHA-256 of their
#: JSON, its first 16 digits.
TODAY = {
    "kuhn-2-True": "24a154b975222039",
    "kuhn-2-False": "62a7add0c8fbda35",
    "kuhn-3-True": "1725c2921013de04",
    "kuhn-3-False": "59877532b7bbeccd",
    "leduc-2-True": "34d59b9216a9e926",
    "leduc-2-False": "a1fb0ae629945b78",
    "leduc-3-True": "7ba53d00bcbb16fd",
    "leduc-3-False": "14541d321f2a2061",
    "holdem-nl-2-True": "a1042b5945a2c04f",
    "holdem-nl-2-False": "cd5afd6c7c524876",
    "holdem-nl-3-True": "6cd4b33bac8d3b80",
    "holdem-nl-3-False": "17049590b39377af",
    "holdem-limit-3-True": "240a29094317bcef",
    "holdem-limit-3-False": "9c03678d887d518e",
}


@pytest.mark.parametrize("name, players", GAMES)
def test_hands_without_mixes_keep_the_figures_they_had(name, players):
    game = make_game(name, players)
    for learn in (True, False):
        rng = random.Random(f"{name}:{players}:today")
        adjuster = LuckAdjuster(game, learn=learn)
        values = []
        for number in range(40):
            record = play(game, game.deal(rng), number % players, no_mix, rng)
            record["hand"] = number
            assert "mixes" not in record
            values.append(value(adjuster, game, record))
        digest = hashlib.sha256(json.dumps(values).encode()).hexdigest()[:16]
        assert digest == TODAY[f"{name}-{players}-{learn}"], (name, players, learn)
        assert adjuster.play is None  # nothing learnt, nothing asked


# -- zero sums, and the raises' values ---------------------------------------------------------


@pytest.mark.parametrize("name, players", GAMES)
def test_with_mixes_every_hand_sums_to_exactly_zero(name, players):
    game = make_game(name, players)
    rng = random.Random(f"{name}{players}mix")
    for learn in (True, False):
        adjuster = LuckAdjuster(game, learn=learn)
        moved = 0
        for number in range(30):
            record = play(game, game.deal(rng), number % players, random_mix, rng)
            record["hand"] = number
            assert record["mixes"]
            values = value(adjuster, game, record)
            assert sum(values) == 0, values
            assert all((v * SCALE).is_integer() for v in values)
            plain = {k: v for k, v in record.items() if k != "mixes"}
            moved += values != value(LuckAdjuster(game, learn=learn), game, plain)
        assert moved > 20  # the draws' luck is taken out


def test_the_raises_of_a_mix_are_valued_each_as_itself():
    """No-limit: after a few hands that teach fold frequencies, the first decision of a hand
    is a mix of check/call, fold and 62 raise sizes. Its correction (the hand's value with the
    mix less without it) is the value after the drawn item less the mean of the values after
    each item, each worked out here on its own with the coarse play."""
    game = make_game("holdem-nl", 3)
    rng = random.Random(7)
    adjuster = LuckAdjuster(game, learn=False)
    for number in range(12):
        record = play(game, game.deal(rng), number % 3, random_mix, rng)
        record["hand"] = number
        value(adjuster, game, record)
    learnt = adjuster.play
    assert all(learnt.fold_chance(s, 0, level) > 0 for s in range(3) for level in (0, 3))
    checked = 0
    for number in range(12, 40):
        deal = game.deal(rng)
        record = play(game, deal, number % 3, random_mix, rng)
        record["hand"] = number
        record["mixes"] = record["mixes"][:1]
        if record["mixes"][0][0] != 0:
            continue
        _, items, drawn = record["mixes"][0]
        seat = record["actions"][0][0]
        forced = record["forced"]
        showdowns = Showdowns(game, record, lambda n=number: random.Random(f"boards:{n}"))

        def equity(seats, showdowns=showdowns):
            return shares(showdowns.orders(list(seats), 0, exact_limit=200), len(seats))

        after = []
        for _, word, amount in items:
            stakes, live = list(forced), [0, 1, 2]
            if word == "FOLD":
                live.remove(seat)
            else:
                stakes[seat] = amount
            def fold_chance(s, live=tuple(live), equity=equity):
                return learnt.fold_chance(s, 0, strength(equity(live)[live.index(s)]))

            after.append(coarse_value(stakes, live, record["stacks_start"], fold_chance,
                                      equity))
        total = sum(i[0] for i in items)
        luck = [after[drawn][s] - sum(i[0] * a[s] for i, a in zip(items, after)) / total
                for s in range(3)]
        plain = {k: v for k, v in record.items() if k != "mixes"}
        with_mix = value(adjuster, game, record, learning=False)
        without = value(adjuster, game, plain, learning=False)
        for s in range(3):
            assert abs((without[s] - with_mix[s]) - luck[s]) <= 2 / SCALE
        checked += any(abs(x) > 1 for x in luck)
    assert checked > 5


# -- unbiased whatever is learnt ---------------------------------------------------------------


def all_deals(game) -> list[Deal]:
    """Every deal of a small deck, each card position distinct: all equally likely."""
    n, k = game.players, game.board_cards
    return [Deal(tuple((game.deck[c],) for c in cards[:n]),
                 tuple(game.deck[c] for c in cards[n:]))
            for cards in itertools.permutations(range(len(game.deck)), n + k)]


CASES = {
    "kuhn-3": ("kuhn", 3, None, lambda game: kuhn_policy([three_player(), uniform,
                                                          lambda p, c, h: 1])),
    "kuhn-2": ("kuhn", 2, None, lambda game: kuhn_policy([uniform, lambda p, c, h:
                                                          Fraction(1, 3) if c == "J" else 1])),
    "leduc-2": ("leduc", 2, None, by_strength),
    "leduc-2-coarse": ("leduc", 2, False, by_strength),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_mean_over_every_deal_and_draw_is_the_mean_result(case):
    """After 40 hands have taught the estimator the bots' play (and, where it can, to value
    the deal by it), every hand that can come (every deal, button and draw) is valued by
    that same learnt play: the mean adjusted result is the mean result to within the 1/1024
    rounding, and the adjusted results spread less."""
    name, players, by_state, make_policy = CASES[case]
    game = make_game(name, players)
    policy = make_policy(game)
    rng = random.Random(case)
    adjuster = LuckAdjuster(game, learn=False, by_state=by_state)
    for number in range(40):
        record = play(game, game.deal(rng), number % players, policy, rng)
        record["hand"] = number
        value(adjuster, game, record)
    assert adjuster.play is not None and adjuster.play.by_state == (by_state is not False)
    deals = all_deals(game)
    for button in range(players):
        mean, mean_adjusted = [Fraction(0)] * players, [Fraction(0)] * players
        spread, spread_adjusted = [Fraction(0)] * players, [Fraction(0)] * players
        outcomes = []
        for deal in deals:
            for chance, record in every_draw(game, deal, button, policy):
                adjusted = value(adjuster, game, record, learning=False)
                outcomes.append((chance / len(deals), record["deltas"], adjusted))
        for weight, deltas, adjusted in outcomes:
            for s in range(players):
                mean[s] += weight * deltas[s]
                mean_adjusted[s] += weight * Fraction(adjusted[s])
        for weight, deltas, adjusted in outcomes:
            for s in range(players):
                spread[s] += weight * (deltas[s] - mean[s]) ** 2
                spread_adjusted[s] += weight * (Fraction(adjusted[s]) - mean[s]) ** 2
        for s in range(players):
            assert abs(mean_adjusted[s] - mean[s]) <= Fraction(2, SCALE), (button, s)
            assert spread_adjusted[s] < spread[s], (button, s)
        assert any("mixes" in record for _, record in every_draw(game, deals[0], button,
                                                                  policy))


# -- the learnt play ---------------------------------------------------------------------------


def test_the_learnt_play_is_the_exact_mean_and_counts_its_changes():
    game = make_game("kuhn", 3)
    play_ = LearntPlay(game)
    state = state_key(1, 0, "Q", (), None, ((2, "BET", 1),))
    assert play_.by_state and play_.at(state) is None and play_.changes == 0
    play_.learn(state, 1, 0, False, [(("BET", 1), 2), (("BET", 2), 1)], 3)
    assert play_.at(state) == ((("BET", 1), 2 / 3), (("BET", 2), 1 / 3))
    assert play_.changes == 1
    play_.learn(state, 1, 0, False, [(("BET", 1), 4), (("BET", 2), 2)], 6)
    assert play_.changes == 1  # the same mix again: nothing changed
    play_.learn(state, 1, 0, False, [(("BET", 1), 1)], 1)
    assert play_.at(state) == ((("BET", 1), 7 / 9), (("BET", 2), 2 / 9))
    assert play_.changes == 2

    coarse = LearntPlay(make_game("holdem-nl", 3))
    assert not coarse.by_state and coarse.fold_chance(2, 1, 0) == 0
    coarse.learn(None, 2, 1, True, [(("FOLD", 0), 1), (("BET", 10), 2)], 3, strength(0.1))
    coarse.learn(None, 2, 1, True, [(("BET", 10), 1)], 1, strength(0.1))
    coarse.learn(None, 2, 1, True, [(("FOLD", 0), 1)], 1, strength(0.9))
    coarse.learn(None, 2, 1, False, [(("BET", 0), 1)], 1, None)  # not facing a bet
    assert coarse.fold_chance(2, 1, strength(0.2)) == pytest.approx(1 / 6)
    assert coarse.fold_chance(2, 1, strength(0.8)) == 1
    assert coarse.fold_chance(2, 1, strength(0.5)) == pytest.approx(4 / 9)  # none: all
    assert coarse.fold_chance(2, 0, 0) == 0 and coarse.fold_chance(1, 1, 0) == 0
    assert [strength(x) for x in (0, 0.24, 0.25, 0.5, 0.99, 1)] == [0, 0, 1, 2, 3, 3]

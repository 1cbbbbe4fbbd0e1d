"""Every registered game, through the referee and the client library: what each must guarantee.

Parametrised over the registry, so a new game gets all of it for free: results are zero-sum,
every legal reply is accepted, illegal ones are refused with the documented error, the same
seed gives the same bytes, every seat's view is the same table rotated, and a seat's transcript
replays to the same replies.
"""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import pytest

from pokerbots.protocol.client import Bot, Client
from pokerbots.protocol.wire import Kind
from pokerbots.server import games
from pokerbots.server.errors import BotFault
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

PROTOCOL = (Path(__file__).resolve().parents[3] / "protocol" / "PROTOCOL.md").read_text()


def tables() -> list:
    """Every registered game at its smallest, a three-player and its largest table."""
    return [pytest.param(game.name, players, id=f"{game.name}-{players}p")
            for game in games.all_types()
            for players in sorted({game.min_players, min(3, game.max_players),
                                   game.max_players})]


class RandomBot(Bot):
    """Every kind of legal reply: check/call, the smallest, the largest and a random raise, fold.
    Records what it saw."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.results = []

    def decide(self, state) -> str:
        legal = state.legal
        choices = [legal.check_or_call()]
        if legal.raise_range is not None:
            low, high = legal.raise_range
            choices += [legal.raise_to(low), legal.raise_to(high),
                        legal.raise_to(self.rng.randint(low, high))]
        if legal.can_fold:
            choices.append(legal.fold())
        return self.rng.choice(choices)

    def on_hand_end(self, result) -> None:
        self.results.append(result)


def play(name: str, players: int, seed: int, hands: int = 60):
    """A round of random legal play; returns (referee, bots, transcript, hand records)."""
    records: list[dict] = []
    referee = Referee(games.make_game(name, players), random.Random(seed), hands=hands,
                      on_hand=records.append)
    bots = [RandomBot(random.Random(seed * 31 + s)) for s in range(players)]
    transcript: list = []
    play_local(referee, [Client(b, game=name) for b in bots], transcript=transcript)
    return referee, bots, transcript, records


@pytest.mark.parametrize("name, players", tables())
def test_every_legal_reply_is_accepted_and_results_are_zero_sum(name, players):
    referee, bots, _, records = play(name, players, seed=1)
    assert referee.hands_played == len(records) == 60
    assert sum(referee.bankrolls) == 0
    for record in records:
        assert sum(record["deltas"]) == 0
        assert sum(amount for amount, _ in record["pots"]) >= max(0, *record["deltas"])
    # Every client kept the score the referee checked, hand after hand.
    assert all(len(b.results) == 60 for b in bots)


@pytest.mark.parametrize("name, players", tables())
def test_the_same_seed_gives_the_same_bytes(name, players):
    first = play(name, players, seed=7, hands=25)[2]
    again = play(name, players, seed=7, hands=25)[2]
    other = play(name, players, seed=8, hands=25)[2]
    assert first == again
    assert first != other


def unrotate(values: list, seat: int) -> list:
    """A list as ``seat`` sees it (itself first), back in absolute seat order."""
    return values[-seat:] + values[:-seat] if seat else list(values)


@pytest.mark.parametrize("name, players", tables())
def test_every_seat_sees_the_same_table_rotated(name, players):
    _, bots, _, records = play(name, players, seed=3, hands=30)
    for number, record in enumerate(records):
        for seat, bot in enumerate(bots):
            result = bot.results[number]
            back = functools.partial(unrotate, seat=seat)
            assert back(result.deltas) == record["deltas"]
            shown = [" ".join(c) if c else "-" for c in result.showdown]
            assert back(shown) == record["showdown"]
            assert [(amount, (winner + seat) % players) for amount, winner in result.pots] == [
                tuple(p) for p in record["pots"]]
            assert (result.button + seat) % players == record["button"]


@pytest.mark.parametrize("name, players", tables())
def test_a_seats_transcript_replays_to_the_same_replies(name, players):
    _, _, transcript, _ = play(name, players, seed=5, hands=25)
    for seat in range(players):
        received = b"".join(m for s, _, m, _ in transcript if s == seat)
        sent = [r for s, _, _, r in transcript if s == seat]
        # The same bot, fed its whole input at once as `./mybot < seatN.in` would be.
        client = Client(RandomBot(random.Random(5 * 31 + seat)), game=name)
        replies = [r for r in map(client.feed, received.splitlines()) if r is not None]
        assert replies == sent


class CheckCall(Bot):
    def decide(self, state) -> str:
        return state.check_or_call()


class Breaker(Bot):
    """Plays legally until its chosen decision, then sends ``wrong(legal)``."""

    def __init__(self, at: int, wrong) -> None:
        self.at = at
        self.wrong = wrong
        self.seen = 0
        self.legal = None

    def decide(self, state) -> str:
        self.seen += 1
        if self.seen > self.at:
            reply = self.wrong(state.legal)
            if reply is not None:
                self.legal = state.legal
                return reply
        return state.legal.check_or_call()


#: Illegal replies: how to make one from the legal replies, the error the server gives, and
#: what of it the protocol document's table of errors shows.
ILLEGAL = {
    "below the call": (lambda legal: f"BET {legal.call - 1}" if legal.call > 0 else None,
                       "leaves less than the", "leaves less than the"),
    "above the largest raise": (
        lambda legal: f"BET {(legal.raise_max or legal.call) + 1}",
        "is more than the maximum|is a raise, and no raise is allowed here",
        "is more than the maximum"),
    "fold when checking is free": (lambda legal: None if legal.can_fold else f"FOLD {legal.front}",
                                   "folding is not allowed when checking is free",
                                   "folding is not allowed when checking is free"),
    "fold with a wrong value": (
        lambda legal: f"FOLD {legal.front + 1}" if legal.can_fold else None,
        "FOLD must state the money in front", "FOLD must state the money in front"),
    "PASS": (lambda legal: f"PASS {legal.front}", "PASS is only for a player who cannot act",
             "PASS is only for a player who cannot act"),
    "lower case": (lambda legal: legal.check_or_call().lower(),
                   r"unknown action 'bet' \(actions are in capitals", "unknown action"),
    "a leading zero": (lambda legal: f"BET 0{legal.call}", "is not a whole number of chips",
                       "is not a whole number of chips"),
}


@pytest.mark.parametrize("name, players", tables())
@pytest.mark.parametrize("case", list(ILLEGAL))
def test_an_illegal_reply_is_refused_with_the_documented_error(name, players, case):
    wrong, reason, documented = ILLEGAL[case]
    refused = 0
    for seed in range(12):
        rng = random.Random(seed)
        culprit = rng.randrange(players)
        others = RandomBot(rng) if seed % 2 else CheckCall()
        bots = [Breaker(rng.randrange(4), wrong) if s == culprit else others
                for s in range(players)]
        referee = Referee(games.make_game(name, players), random.Random(seed), hands=8)
        try:
            play_local(referee, [Client(b, game=name, check=False) for b in bots])
        except BotFault as fault:
            assert fault.seat == culprit and fault.kind == Kind.PLAY.value
            assert re.search(reason, fault.reason), fault.reason
            assert fault.legal == bots[culprit].legal.describe()
            assert fault.sent.startswith("play\n") and fault.received
            refused += 1
        else:
            assert bots[culprit].legal is None  # it never had the chance to break the rule
    assert refused, f"no round gave the bot a chance to send {case}"
    assert documented in PROTOCOL  # the error is the one the protocol document lists

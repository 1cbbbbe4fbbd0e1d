"""The Python client library (pokerbots.protocol.client), driven in-process: no subprocess."""

from __future__ import annotations

import io
import random

import pytest

from pokerbots.protocol import GOODBYE
from pokerbots.protocol.client import (
    Bot,
    Client,
    HandResult,
    Legal,
    ProtocolError,
    RoundInfo,
    State,
    format_money,
    kuhn_history,
    parse_action,
    parse_cards,
    parse_list,
    parse_pots,
    run,
)
from pokerbots.server.errors import BotFault
from pokerbots.server.games import make_game
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

import drive


def check_call(state):
    return state.check_or_call()


class RandomBot(Bot):
    """Every legal reply kind, uniformly; records every state and result it sees."""

    def __init__(self, rng):
        self.rng = rng
        self.states = []
        self.results = []

    def decide(self, state):
        choices = [state.check_or_call()]
        if state.raise_range:
            low, high = state.raise_range
            size = self.rng.choice([low, high, self.rng.randint(low, high)])
            choices.append(state.raise_to(size))
        if state.fold():
            choices.append(state.fold())
        return self.rng.choice(choices)

    def on_hand_end(self, result):
        self.results.append(result)


# -- helpers ----------------------------------------------------------------------------------


def test_parse_helpers():
    assert parse_list("1,-2,3") == [1, -2, 3]
    assert parse_list(b"0, -2, 2") == [0, -2, 2]
    assert parse_action("BET 2") == ("BET", 2)
    assert parse_action(b"FOLD 0") == ("FOLD", 0)
    assert parse_cards("Ah Kd") == ("Ah", "Kd")
    assert parse_cards(b"Q") == ("Q",)
    assert parse_cards("-") == ()
    assert parse_pots("30,0 15,2") == [(30, 0), (15, 2)]
    assert parse_pots(b"5,2") == [(5, 2)]
    assert format_money([0, -2, 2]) == "Money: 0,-2,2"


def test_legal_replies():
    check = Legal(front=1, call=1, can_fold=False, raise_min=2, raise_max=2)
    assert check.can_check and check.can_raise
    assert check.check_or_call() == "BET 1"
    assert check.fold() is None
    assert check.raise_to(2) == "BET 2"
    assert check.raise_range == (2, 2)
    assert check.all_in() == "BET 2"
    with pytest.raises(ValueError):
        check.raise_to(3)
    assert check.describe() == "BET 1 (check) or BET 2 (bet)"
    facing = Legal(front=1, call=2, can_fold=True)
    assert facing.check_or_call() == "BET 2" and facing.fold() == "FOLD 1"
    assert facing.raise_range is None and facing.all_in() is None
    with pytest.raises(ValueError):
        facing.raise_to(3)
    assert facing.describe() == "BET 2 (call) or FOLD 1"
    for reply, ok in [("BET 2", True), ("FOLD 1", True), ("BET 1", False), ("FOLD 2", False),
                      ("BET 02", False), ("BET -2", False), ("PASS 2", False), ("BET", False)]:
        assert facing.is_legal(reply) is ok, reply
    nl = Legal(front=10, call=20, can_fold=True, raise_min=30, raise_max=2000)
    assert nl.is_legal("BET 30") and nl.is_legal("BET 2000") and nl.is_legal("BET 555")
    assert not nl.is_legal("BET 29") and not nl.is_legal("BET 2001")
    assert nl.describe() == "BET 20 (call) or BET 30 to BET 2000 (raise) or FOLD 10"


# -- every Kuhn message ------------------------------------------------------------------------


def kuhn_client(bot=check_call, players=3, button=1):
    client = Client(bot, game="kuhn")
    money = ",".join(["0"] * players)
    blinds = ",".join(["1"] * players)
    reply = client.receive(
        f"init_round\nMoney: {money}\nBlinds: {blinds}\nButton: {button}\nEndProb: 1,1000\n"
        .encode())
    assert reply == b"READY"
    return client


def test_init_round_and_init_hand():
    seen = {}

    class Hooks(Bot):
        def on_round_start(self, info):
            seen["info"] = info

        def on_hand_start(self, hand, cards, button):
            seen["hand"] = (hand, cards, button)

    client = kuhn_client(Hooks(), players=4, button=2)
    info = seen["info"]
    assert isinstance(info, RoundInfo)
    assert (info.game, info.players, info.money, info.blinds, info.button, info.end_prob) == (
        "kuhn", 4, [0, 0, 0, 0], [1, 1, 1, 1], 2, (1, 1000))
    assert info.stack is None and info.bet_sizes is None
    assert client.receive(b"init_hand\nHand: 3\nCards: T\n") == b"READY"
    # The button moves one seat clockwise per hand: 2 + 3 = 5 = seat 1 of 4.
    assert seen["hand"] == (3, ("T",), 1)


def test_play_with_no_bet_out():
    states = []
    client = kuhn_client(lambda s: states.append(s) or s.raise_to(2), button=1)
    client.receive(b"init_hand\nHand: 0\nCards: Q\n")
    assert client.receive(b"play\nAction: BLIND 1\nAction: BET 1\nAction: BLIND 1\n") == b"BET 2"
    s = states[0]
    assert isinstance(s, State)
    assert (s.game, s.players, s.hand, s.button, s.cards, s.board) == ("kuhn", 3, 0, 1, ("Q",), ())
    assert (s.pot, s.fronts, s.front, s.stacks, s.stack) == (0, [1, 1, 1], 1, None, None)
    assert s.actions == [("BLIND", 1), ("BET", 1), ("BLIND", 1)]
    assert (s.table_bet, s.to_call, s.pot_total, s.position, s.street) == (1, 0, 3, 1, "preflop")
    assert s.bankrolls == [0, 0, 0]
    assert s.legal == Legal(1, 1, False, 2, 2)
    assert (s.check_or_call(), s.fold(), s.raise_range, s.raise_to(2)) == (
        "BET 1", None, (2, 2), "BET 2")
    assert kuhn_history(s) == "k"


def test_play_facing_a_bet():
    states = []
    client = kuhn_client(lambda s: states.append(s) or s.fold(), button=0)
    client.receive(b"init_hand\nHand: 0\nCards: J\n")
    assert client.receive(b"play\nAction: BLIND 1\nAction: BET 2\nAction: FOLD 1\n") == b"FOLD 1"
    s = states[0]
    assert s.legal == Legal(1, 2, True)
    assert (s.check_or_call(), s.fold(), s.raise_range, s.to_call) == ("BET 2", "FOLD 1", None, 1)
    with pytest.raises(ValueError):
        s.raise_to(3)
    # Button on me: seat 1 acts first (bet), seat 2 folded, I am last.
    assert (s.position, kuhn_history(s)) == (2, "bf")


def test_end_hand_and_money_tracking_kuhn():
    results = []

    class B(Bot):
        def decide(self, state):
            return state.check_or_call()

        def on_hand_end(self, result):
            results.append(result)

    client = kuhn_client(B(), button=1)
    client.receive(b"init_hand\nHand: 0\nCards: Q\n")
    reply = client.receive(
        b"end_hand\nAction: BET 2\nAction: FOLD 1\nAction: PASS 2\nShowdown: -,-,K\nPots: 5,2\n")
    assert reply == b"OK"
    r = results[0]
    assert isinstance(r, HandResult)
    assert r.actions == [("BET", 2), ("FOLD", 1), ("PASS", 2)]
    assert r.showdown == [None, None, ("K",)]
    assert r.pots == [(5, 2)]
    assert r.deltas == [-2, -1, 3]
    assert (r.hand, r.button, r.cards, r.board, r.stacks) == (0, 1, ("Q",), (), None)
    assert client.receive(b"EndAction: OK\nEndAction: OK\nEndAction: OK\n") == b"Money: -2,-1,3"
    assert client.bankrolls == [-2, -1, 3]
    assert client.receive(b"end_round\nBankrolls: -2,-1,3\nNumHands: 1\n") == GOODBYE.encode()
    assert client.done


def test_feed_line_by_line_returns_the_reply_only_when_the_message_is_complete():
    client = Client(check_call, game="kuhn")
    lines = [b"init_round\n", b"Money: 0,0\n", b"Blinds: 1,1\n", b"Button: 0\n"]
    assert [client.feed(line) for line in lines] == [None] * 4
    assert client.feed(b"EndProb: 1,2\r\n") == b"READY"
    assert client.feed(b"init_hand") is None
    assert client.feed(b"Hand: 0") is None
    assert client.feed(b"Cards: K") == b"READY"
    assert client.feed(b"play") is None
    assert client.feed(b"Action: BLIND 1") is None
    assert client.feed(b"Action: BET 2") == b"BET 2"


# -- Hold'em messages (as specified for server/games/holdem.py) -------------------------------


HOLDEM_INIT = (b"init_round\nMoney: 0,0,0\nBlinds: 0,5,10\nButton: 0\nEndProb: 1,100\n"
               b"Game: holdem-nl\nStack: 2000\nStackMode: reset\n")


def test_holdem_messages():
    states, results, infos = [], [], []

    class B(Bot):
        def on_round_start(self, info):
            infos.append(info)

        def decide(self, state):
            states.append(state)
            return state.check_or_call()

        def on_hand_end(self, result):
            results.append(result)

    client = Client(B(), game="holdem-nl")
    assert client.receive(HOLDEM_INIT) == b"READY"
    info = infos[0]
    assert (info.game, info.players, info.blinds, info.stack, info.bet_sizes) == (
        "holdem-nl", 3, [0, 5, 10], 2000, None)
    assert client.receive(b"init_hand\nHand: 0\nCards: Ah Kd\n") == b"READY"
    reply = client.receive(b"play\nAction: BLIND 0\nAction: BLIND 5\nAction: BLIND 10\n"
                           b"Board: -\nPot: 0\nStacks: 2000,1995,1990\nRaise: 20,2000\n")
    assert reply == b"BET 10"
    s = states[0]
    assert (s.cards, s.board, s.pot, s.fronts, s.stacks, s.stack) == (
        ("Ah", "Kd"), (), 0, [0, 5, 10], [2000, 1995, 1990], 2000)
    assert s.legal == Legal(0, 10, True, 20, 2000)
    assert (s.to_call, s.pot_total, s.street, s.all_in()) == (10, 15, "preflop", "BET 2000")
    # The flop: a check is free, the raise range is given.
    reply = client.receive(b"play\nAction: PASS 0\nAction: FOLD 0\nAction: BET 0\n"
                           b"Board: Ah Kd 7c\nPot: 25\nStacks: 1990,1995,1990\nRaise: 10,1990\n")
    assert reply == b"BET 0"
    s = states[1]
    assert (s.board, s.street, s.pot, s.legal) == (
        ("Ah", "Kd", "7c"), "flop", 25, Legal(0, 0, False, 10, 1990))
    # The turn: facing an all-in bigger than my stack, calling is all-in for less; no raise.
    reply = client.receive(b"play\nAction: BET 0\nAction: FOLD 0\nAction: BET 1990\n"
                           b"Board: Ah Kd 7c 2s\nPot: 25\nStacks: 1000,1995,0\nRaise: -\n")
    assert reply == b"BET 1000"
    s = states[2]
    assert (s.street, s.legal, s.raise_range, s.fold()) == (
        "turn", Legal(0, 1000, True), None, "FOLD 0")
    reply = client.receive(b"end_hand\nAction: BET 1000\nAction: FOLD 0\nAction: BET 1990\n"
                           b"Showdown: Ah Kd,-,-\nPots: 2015,0 990,2\n"
                           b"Board: Ah Kd 7c 2s 3h\nStacks: 2015,1995,990\n")
    assert reply == b"OK"
    r = results[0]
    assert r.showdown == [("Ah", "Kd"), None, None]
    assert r.pots == [(2015, 0), (990, 2)]
    assert r.board == ("Ah", "Kd", "7c", "2s", "3h")
    assert r.stacks == [2015, 1995, 990]
    assert r.deltas == [15, -5, -1010]
    assert client.receive(b"EndAction: OK\nEndAction: OK\nEndAction: OK\n") == (
        b"Money: 15,-5,-1010")


def test_holdem_limit_init_round():
    infos = []

    class B(Bot):
        def on_round_start(self, info):
            infos.append(info)

    client = Client(B(), game="holdem-limit")
    message = HOLDEM_INIT.replace(b"holdem-nl", b"holdem-limit") + b"BetSizes: 10,20\n"
    assert client.receive(message) == b"READY"
    assert (infos[0].game, infos[0].stack, infos[0].bet_sizes) == ("holdem-limit", 2000, (10, 20))


def test_the_game_comes_from_pokerbots_game(monkeypatch):
    monkeypatch.setenv("POKERBOTS_GAME", "holdem-nl")
    client = Client(check_call)
    assert client.game == "holdem-nl"
    lines = HOLDEM_INIT.splitlines()
    assert [client.feed(line) for line in lines] == [None] * (len(lines) - 1) + [b"READY"]


def test_without_pokerbots_game_late_holdem_lines_are_taken_in(monkeypatch):
    """With no game given, init_round looks complete after EndProb; READY goes out early (the
    server reads it only after its whole message) and the Game/Stack lines are taken in."""
    monkeypatch.delenv("POKERBOTS_GAME", raising=False)
    infos = []

    class B(Bot):
        def on_round_start(self, info):
            infos.append(info)

        def decide(self, state):
            return state.check_or_call()

    client = Client(B())
    replies = [client.feed(line) for line in HOLDEM_INIT.splitlines()]
    assert replies == [None] * 4 + [b"READY", None, None, None]
    assert infos == []  # told once the game is sure
    assert client.receive(b"init_hand\nHand: 0\nCards: Ah Kd\n") == b"READY"
    assert (infos[0].game, infos[0].stack) == ("holdem-nl", 2000)
    reply = client.receive(b"play\nAction: BLIND 0\nAction: BLIND 5\nAction: BLIND 10\n"
                           b"Board: -\nPot: 0\nStacks: 2000,1995,1990\nRaise: 20,2000\n")
    assert reply == b"BET 10"


# -- against the referee -------------------------------------------------------------------------

# The seed example as the client plays it: its Money replies have no spaces after the commas.
SEED_TRANSCRIPT = drive.SEED_TRANSCRIPT.replace("Money: -2, -1, 3", "Money: -2,-1,3")
SEED_DECISIONS = drive.SEED_DECISIONS
seed_referee = drive.seed_referee


def test_the_seed_transcript_is_answered_correctly():
    referee = seed_referee()
    script = {s: list(d) for s, d in SEED_DECISIONS.items()}
    clients = [Client(lambda state, s=s: script[s].pop(0), game="kuhn") for s in range(3)]
    transcript = []
    play_local(referee, clients, transcript=transcript)
    seat0 = "".join(m.decode() + r.decode() + "\n" for s, _, m, r in transcript if s == 0)
    assert seat0 == SEED_TRANSCRIPT
    assert [c.bankrolls for c in clients] == [[0, -2, 2], [-2, 2, 0], [2, 0, -2]]
    assert all(c.done for c in clients)


def test_run_on_byte_streams_answers_the_seed_transcript():
    transcript = []
    script = {s: list(d) for s, d in SEED_DECISIONS.items()}
    clients = [Client(lambda state, s=s: script[s].pop(0), game="kuhn") for s in range(3)]
    play_local(seed_referee(), clients, transcript=transcript)
    messages = b"".join(m for s, _, m, _ in transcript if s == 0)
    stdout = io.BytesIO()
    script = list(SEED_DECISIONS[0])
    client = run(lambda state: script.pop(0), stdin=io.BytesIO(messages), stdout=stdout,
                 game="kuhn")
    assert client.done
    assert stdout.getvalue() == b"".join(r + b"\n" for s, _, _, r in transcript if s == 0)
    assert b"Money: -2,-1,3\n" in stdout.getvalue()


def test_run_stops_quietly_at_the_end_of_input():
    stdout = io.BytesIO()
    client = run(check_call, stdin=io.BytesIO(b"init_round\nMoney: 0,0\n"), stdout=stdout,
                 game="kuhn")
    assert not client.done and stdout.getvalue() == b""


# 2, 3 and 6 players in the default run; 4 and 5 are slow tests (CI runs them)
@pytest.mark.parametrize("players", [2, 3, pytest.param(4, marks=pytest.mark.slow),
                                     pytest.param(5, marks=pytest.mark.slow), 6])
def test_money_tracking_and_legal_replies_over_many_random_kuhn_hands(players):
    rng = random.Random(players)
    referee = Referee(make_game("kuhn", players), rng, hands=1500)
    histories = []

    class Checked(RandomBot):
        def decide(self, state):
            # The client's legal replies are exactly the dealer's.
            legal = referee._hand.legal()
            assert (state.legal.front, state.legal.call, state.legal.can_fold,
                    state.legal.raise_min, state.legal.raise_max) == (
                legal.front, legal.call, legal.can_fold, legal.raise_min, legal.raise_max)
            assert state.bankrolls == referee.bankrolls[self.seat:] + referee.bankrolls[:self.seat]
            assert state.cards == referee._hand.holes[self.seat]
            # The history derived from one message matches what was played.
            histories.append((kuhn_history(state), true_history(referee._actions)))
            assert state.position == (self.seat - (referee.button + state.hand) - 1) % players
            return super().decide(state)

    bots = []
    for seat in range(players):
        bot = Checked(random.Random(100 + seat))
        bot.seat = seat
        bots.append(bot)
    clients = [Client(b, game="kuhn") for b in bots]
    play_local(referee, clients)  # the referee checks every Money reply
    assert referee.hands_played == 1500
    for seat, client in enumerate(clients):
        assert client.bankrolls == referee.bankrolls[seat:] + referee.bankrolls[:seat]
        assert client.done
        assert sum(r.deltas[0] for r in bots[seat].results) == referee.bankrolls[seat]
    assert all(mine == truth for mine, truth in histories)
    assert len({h for h, _ in histories}) > 3


def true_history(actions):
    """k/b/c/f from the referee's record of the hand so far."""
    out, bet = "", False
    for _, word, value, _ in actions:
        if word == "FOLD":
            out += "f"
        elif value == 2:
            out += "c" if bet else "b"
            bet = True
        else:
            out += "k"
    return out


# -- errors ------------------------------------------------------------------------------------


def test_an_unexpected_line_is_an_error():
    client = kuhn_client()
    with pytest.raises(ProtocolError, match="unexpected line"):
        client.receive(b"hello\n")


def test_a_message_before_init_round_is_an_error():
    with pytest.raises(ProtocolError, match="before init_round"):
        Client(check_call, game="kuhn").receive(b"init_hand\nHand: 0\nCards: Q\n")


def test_a_malformed_message_is_an_error():
    client = kuhn_client()
    with pytest.raises(ProtocolError, match="cannot read this message"):
        client.receive(b"init_hand\nHand: zero\nCards: Q\n")
    client = kuhn_client()
    with pytest.raises(ProtocolError, match="expected a 'Hand: ' line"):
        client.receive(b"init_hand\nCards: Q\nHand: 0\n")


def test_an_illegal_reply_from_decide_is_refused_before_it_is_sent():
    client = kuhn_client(lambda s: "FOLD 1")
    client.receive(b"init_hand\nHand: 0\nCards: Q\n")
    with pytest.raises(ProtocolError, match=r"'FOLD 1', which is not legal here; legal: "
                                             r"BET 1 \(check\) or BET 2"):
        client.receive(b"play\nAction: BLIND 1\nAction: BLIND 1\nAction: BLIND 1\n")


def test_an_exception_in_decide_is_not_disguised():
    client = kuhn_client(lambda s: s.raise_to(5))
    client.receive(b"init_hand\nHand: 0\nCards: Q\n")
    with pytest.raises(ValueError, match="a raise must be to 2..2, not 5"):
        client.receive(b"play\nAction: BLIND 1\nAction: BLIND 1\nAction: BLIND 1\n")


def test_decide_must_return_a_string():
    client = kuhn_client(lambda s: None)
    client.receive(b"init_hand\nHand: 0\nCards: Q\n")
    with pytest.raises(ProtocolError, match="decide\\(\\) returned None"):
        client.receive(b"play\nAction: BLIND 1\nAction: BLIND 1\nAction: BLIND 1\n")


def test_without_check_an_illegal_reply_reaches_the_referee():
    referee = Referee(make_game("kuhn", 2), random.Random(1), hands=1)
    clients = [Client(lambda s: "BET 3", game="kuhn", check=False) for _ in range(2)]
    with pytest.raises(BotFault, match="BET 3"):
        play_local(referee, clients)


def test_end_action_without_end_hand_is_an_error():
    client = kuhn_client(players=2)
    with pytest.raises(ProtocolError, match="without an end_hand"):
        client.receive(b"EndAction: OK\nEndAction: OK\n")


def test_an_unknown_game_is_refused():
    with pytest.raises(ValueError, match="unknown game"):
        Client(check_call, game="chess")


# -- Hold'em through the real dealer -------------------------------------------------------------

holdem = pytest.importorskip("pokerbots.server.games.holdem", reason="the Hold'em dealer")


# carried stacks are a slow test (CI runs it); test_smoke and test_kits carry stacks by default
@pytest.mark.parametrize("carry", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["reset", "carry"])
@pytest.mark.parametrize("game", ["holdem-nl", "holdem-limit"])
# heads-up and 6 players in the default run; 3 players is a slow test (CI runs it)
@pytest.mark.parametrize("players", [2, pytest.param(3, marks=pytest.mark.slow), 6])
def test_holdem_money_tracking_and_legal_replies_with_random_bots(players, game, carry):
    from pokerbots.server.games import make_game

    hands = 400
    referee = Referee(make_game(game, players, carry=carry, stack=300), random.Random(players),
                      hands=hands)
    checked = []

    class Checked(RandomBot):
        def decide(self, state):
            hand = referee._hand
            legal = hand.legal()
            assert (state.legal.front, state.legal.call, state.legal.can_fold,
                    state.legal.raise_min, state.legal.raise_max) == (
                legal.front, legal.call, legal.can_fold, legal.raise_min, legal.raise_max)
            seat = self.seat
            assert state.stacks == hand.stack[seat:] + hand.stack[:seat]
            assert state.fronts == hand.front[seat:] + hand.front[:seat]
            assert state.cards == tuple(hand.holes[seat])
            assert state.bankrolls == referee.bankrolls[seat:] + referee.bankrolls[:seat]
            checked.append(state.street)
            return super().decide(state)

    bots = []
    for seat in range(players):
        bot = Checked(random.Random(10 * players + seat))
        bot.seat = seat
        bots.append(bot)
    clients = [Client(b, game=game) for b in bots]
    play_local(referee, clients)  # the referee judges every action and every Money reply
    assert referee.hands_played == hands
    for seat, client in enumerate(clients):
        assert client.bankrolls == referee.bankrolls[seat:] + referee.bankrolls[:seat]
    assert {"preflop", "flop", "turn", "river"} <= set(checked)
    assert all(c.carry == carry for c in clients)  # read from StackMode in init_round
    if carry:
        assert sum(referee.game.rebuys) > 0  # broke seats rebought and the Money lines agreed


@pytest.mark.slow  # the money-tracking tests above play the same bot by default; CI runs it
def test_holdem_random_bot_from_bots_folder_plays_many_hands():
    """The bundled random bot (all-ins included) never makes an illegal move."""
    import importlib.util
    from pathlib import Path

    from pokerbots.server.games import make_game

    path = Path(__file__).resolve().parents[3] / "bots" / "random_bot.py"
    spec = importlib.util.spec_from_file_location("random_bot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for game in ("holdem-nl", "holdem-limit"):
        for players in (2, 3, 6):
            referee = Referee(make_game(game, players), random.Random(7), hands=500)
            clients = [Client(module.RandomBot(random.Random(s)), game=game)
                       for s in range(players)]
            play_local(referee, clients)
            assert referee.hands_played == 500

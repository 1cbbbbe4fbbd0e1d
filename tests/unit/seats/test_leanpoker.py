"""Lean Poker players as seats (``pokerbots run http://127.0.0.1:PORT/ ...``).

A real Lean Poker-style player (tests/support/leanpoker_player.py, a web server on 127.0.0.1) plays
through the relay (server/adapters/leanpoker.py) against the bundled bots; the game states it
receives are checked against Lean Poker's document, and every way the player can fail is a
fault of its seat with the usual paragraph. The translation of answers and the game state of a
known hand are checked in-process, with the HTTP side replaced by a recorder.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from pokerbots.protocol.client import Client
from pokerbots.protocol.wire import Legal
from pokerbots.server.cli.main import main
from pokerbots.server.games import make_game
from pokerbots.server.games.base import Deal
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee
from pokerbots.server.seats.relays.leanpoker import LeanPokerSeat

from leanpoker_player import VERSION, Player, PlayerServer
from processes import RUN_MARK, only_match_dir, processes_mentioning

ROOT = Path(__file__).resolve().parents[3]
RANDOM_BOT = str(ROOT / "bots" / "random_bot.py")
CALL_BOT = str(ROOT / "bots" / "call_bot.py")


# -- answers -------------------------------------------------------------------------------------


def state(front, call, stack, raise_min=None, raise_max=None):
    legal = Legal(front, call, call > front, raise_min, raise_max)
    return SimpleNamespace(legal=legal, stack=stack)


@pytest.mark.parametrize("chips, reply", [
    (0, "FOLD 10"), (19, "FOLD 10"),  # less than the call folds
    (20, "BET 30"), (39, "BET 30"),  # the call, up to the call plus the minimum raise
    (40, "BET 50"), (100, "BET 110"),  # at least that raises by the chips added
    (1990, "BET 2000"), (5000, "BET 2000"),  # the stack or more is all-in
])
def test_an_answer_is_read_as_lean_pokers_server_reads_it(chips, reply):
    facing = state(front=10, call=30, stack=1990, raise_min=50, raise_max=2000)
    assert LeanPokerSeat.translate(facing, chips) == reply


def test_checking_and_the_cases_without_a_raise():
    free = state(front=10, call=10, stack=1990, raise_min=20, raise_max=2000)
    assert [LeanPokerSeat.translate(free, c) for c in (0, 5, 10)] == [
        "BET 10", "BET 10", "BET 20"]
    closed = state(front=10, call=30, stack=500)  # no raise allowed: all-in is a call
    assert LeanPokerSeat.translate(closed, 5000) == "BET 30"
    short = state(front=10, call=110, stack=100)  # the call is all-in
    assert [LeanPokerSeat.translate(short, c) for c in (50, 100, 999)] == [
        "FOLD 10", "BET 110", "BET 110"]


# -- the game state of a known hand (in-process) -------------------------------------------------


class Recorder:
    """The HTTP side of the relay, replaced: records each request, answers from a script."""

    def __init__(self, answers) -> None:
        self.answers = list(answers)
        self.requests: list[tuple[str, dict | None]] = []

    def post(self, fields: dict, timeout: float = 0) -> bytes:
        state = json.loads(fields["game_state"]) if "game_state" in fields else None
        self.requests.append((fields["action"], state))
        if fields["action"] == "bet_request":
            return str(self.answers.pop(0)).encode()
        return b"OK"

    def version(self, timeout: float = 0) -> str:
        return "recorded 1"


class Script:
    def __init__(self, replies) -> None:
        self.replies = list(replies)

    def __call__(self, state) -> str:
        return self.replies.pop(0)


def test_the_game_state_of_a_known_hand():
    """Three players, an ante of 5; the button (seat 2) raises to 30, the player (seat 0, the
    small blind) calls, the big blind calls; everyone checks to the end."""
    deal = Deal((("Ah", "Kd"), ("Qs", "Qc"), ("2c", "7d")), ("3h", "8h", "9s", "Td", "4c"))
    referee = Referee(make_game("holdem-nl", 3, ante=5), random.Random(1), hands=1, button=2,
                      deals=[deal])
    seat = LeanPokerSeat("http://127.0.0.1:1/")
    seat.player = Recorder([25, 0, 0, 0])
    client = Client(seat, game="holdem-nl", check=False)
    seat.client = client
    others = [Client(lambda s: s.check_or_call(), game="holdem-nl"),
              Client(Script(["BET 30", "BET 0", "BET 0", "BET 0"]), game="holdem-nl")]
    play_local(referee, [client, *others])
    actions = [a for a, _ in seat.player.requests]
    assert actions == ["check", "bet_request", "bet_request", "bet_request", "bet_request",
                       "showdown"]
    first = seat.player.requests[1][1]
    players = first.pop("players")
    assert first == {
        "tournament_id": seat.game_id, "game_id": seat.game_id, "round": 0, "bet_index": 1,
        "small_blind": 5, "current_buy_in": 30, "pot": 60, "dealer": 2, "orbits": 0,
        "in_action": 0, "community_cards": [], "minimum_raise": 20}
    assert [(p["id"], p["status"], p["stack"], p["bet"]) for p in players] == [
        (0, "active", 1990, 5), (1, "active", 1985, 10), (2, "active", 1965, 30)]
    assert players[0]["hole_cards"] == [{"rank": "A", "suit": "hearts"},
                                        {"rank": "K", "suit": "diamonds"}]
    assert players[0]["version"] == "recorded 1" and players[1]["hole_cards"] == []
    flop = seat.player.requests[2][1]
    assert flop["bet_index"] == 3 and flop["pot"] == 105 and flop["current_buy_in"] == 30
    assert [c["rank"] + c["suit"][0] for c in flop["community_cards"]] == ["3h", "8h", "9s"]
    showdown = seat.player.requests[-1][1]
    assert [(p["stack"], p["bet"]) for p in showdown["players"]] == [
        (1965, 30), (2070, 30), (1965, 30)]  # the queens win 105
    assert showdown["players"][1]["hole_cards"] == [{"rank": "Q", "suit": "spades"},
                                                    {"rank": "Q", "suit": "clubs"}]
    assert [len(s["community_cards"]) for a, s in seat.player.requests[1:]] == [0, 3, 4, 5, 5]


# -- real matches --------------------------------------------------------------------------------


def run(url: str, tmp_path: Path, *args, opponents=(RANDOM_BOT, CALL_BOT)):
    """``pokerbots run URL OPPONENTS ... ARGS`` in this process (the bots and the relay are
    processes); the result has ``returncode``, ``stdout`` and ``stderr``."""
    logs = tmp_path / "logs"
    result = CliRunner().invoke(main, ["run", url, *opponents, "--game", "holdem-nl", "--seed",
                                       "3", "--logs", str(logs), *map(str, args)])
    result.returncode = result.exit_code
    return result, logs


RELAY = "pokerbots.server.seats.relays.leanpoker"


@pytest.fixture
def another_run():
    """A process of another run on the same machine (a match, a service, another checkout's
    tests) whose command line names the Lean Poker relay: no test of this run counts it."""
    env = {k: v for k, v in os.environ.items() if k != RUN_MARK}
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", RELAY],
                             env=env)
    try:
        yield other
    finally:
        other.kill()
        other.wait()


@pytest.mark.parametrize("hands", [20, pytest.param(1000, marks=pytest.mark.slow)])
def test_a_lean_poker_player_plays_a_round_without_a_fault(tmp_path, hands, another_run):
    player = Player(seed=2)
    with PlayerServer(player) as server:
        result, logs = run(server.url, tmp_path, "--hands", hands)
    assert result.returncode == 0, result.stderr
    summary = json.loads((only_match_dir(logs) / "summary.json").read_text())
    assert summary["bots"][0] == f"{server.url} ({VERSION})"  # the version, in the results
    assert summary["result"] == "completed" and summary["hands_played"] == hands
    assert sum(summary["bankrolls"]) == 0 and player.problems == []
    actions = [a for a, _ in player.requests]
    assert actions[:3] == ["version", "check", "version"]  # the command line, then the relay
    assert actions.count("showdown") == hands and actions.count("bet_request") >= hands
    rounds = {s["round"] for a, s in player.requests if a == "showdown"}
    assert rounds == set(range(hands))
    assert processes_mentioning(RELAY) == []  # no relay of this run is left
    ours = subprocess.Popen([sys.executable, "-c", "import sys, time; print(flush=True);"
                             " time.sleep(60)", RELAY], stdout=subprocess.PIPE)
    try:  # while one of this run's would be seen (once it runs: it says so)
        ours.stdout.readline()
        assert processes_mentioning(RELAY) == [ours.pid]
    finally:
        ours.kill()
        ours.wait()
        ours.stdout.close()


# -- faults of the seat --------------------------------------------------------------------------


def fault_of(result, logs: Path) -> dict:
    assert result.returncode == 1, (result.stdout, result.stderr)
    summary = json.loads((only_match_dir(logs) / "summary.json").read_text())
    assert summary["result"] == "failed" and summary["error"]["seat"] == 0
    return summary["error"]


@pytest.mark.slow
def test_a_player_that_is_not_running(tmp_path):
    with PlayerServer(Player()) as server:
        url = server.url
    result, logs = run(url, tmp_path, "--hands", 5, opponents=[CALL_BOT])
    error = fault_of(result, logs)
    assert error["hand"] is None and "exited with code 1 instead of replying" in error["reason"]
    assert "init_round" in result.stderr
    assert f"nothing answers at {url} (connection refused) for action=check" in result.stderr


@pytest.mark.slow
def test_a_player_that_goes_away_mid_match(tmp_path):
    with PlayerServer(Player(mode="stop-after", count=3)) as server:
        result, logs = run(server.url, tmp_path, "--hands", 30, opponents=[CALL_BOT])
    error = fault_of(result, logs)
    assert error["hand"] is not None and "Last lines of its stderr" in result.stderr
    assert ("(connection refused) for action=bet_request" in result.stderr
            or "action=bet_request to" in result.stderr)  # refused, or reset while it stopped


@pytest.mark.parametrize("mode, says", [
    pytest.param("http-500", "answered action=bet_request with HTTP 500 Internal Server"
                 " Error: 'the player crashed'", marks=pytest.mark.slow),
    ("text", "answered bet_request with 'call', which is not a whole number of chips"),
    pytest.param("negative", "answered bet_request with '-5', which is a negative number of"
                 " chips", marks=pytest.mark.slow),
])
def test_an_answer_that_is_no_bet_is_a_fault_with_the_game_state_sent(tmp_path, mode, says):
    with PlayerServer(Player(mode=mode)) as server:
        result, logs = run(server.url, tmp_path, "--hands", 5, opponents=[CALL_BOT])
    error = fault_of(result, logs)
    assert error["sent"].startswith("play\n") and error["legal"]  # the usual paragraph
    assert says in result.stderr
    if mode != "http-500":
        sent = result.stderr.split("game_state sent: ", 1)[1].split("\n", 1)[0]
        assert json.loads(sent)["in_action"] == 0


@pytest.mark.slow
def test_a_slow_player_breaks_the_reply_limit(tmp_path):
    with PlayerServer(Player(mode="slow", delay=3.0)) as server:
        result, logs = run(server.url, tmp_path, "--hands", 5, "--reply-timeout", "0.5",
                           opponents=[CALL_BOT])
    error = fault_of(result, logs)
    assert "no reply within the 0.5 s time limit" in error["reason"]
    assert error["sent"].startswith("play\n")


@pytest.mark.parametrize("args, says", [
    (["http://10.1.2.3:9000/"], "10.1.2.3 is not this machine; a player on another host needs"
                                " --allow-remote-bots"),
    (["https://127.0.0.1:9000/"], "Lean Poker players are plain http:// services"),
    (["http://127.0.0.1:9000/", "--game", "holdem-limit"], "is a Lean Poker player, which plays"
                                                          " no-limit Hold'em, not holdem-limit"),
])
def test_seats_a_lean_poker_player_cannot_take_are_usage_errors(tmp_path, args, says):
    url, *rest = args
    result = CliRunner().invoke(main, ["run", url, CALL_BOT, "--logs", str(tmp_path),
                                       *(rest or ["--game", "holdem-nl"])])
    assert result.exit_code == 2, result.output
    assert says in " ".join(result.output.split())
    assert not any(tmp_path.iterdir())


@pytest.mark.slow
def test_a_remote_player_is_allowed_with_the_flag(tmp_path):
    """--allow-remote-bots lets a non-loopback address through the checks (the round then
    fails on the connection: nothing listens there)."""
    result = CliRunner().invoke(main, [
        "run", "http://192.0.2.1:9/", CALL_BOT, "--game", "holdem-nl", "--hands", "1",
        "--allow-remote-bots", "--startup-timeout", "1", "--logs", str(tmp_path)])
    assert result.exit_code == 1, result.output


def lean_poker_hand(stacks, player_answers, button_replies):
    """One hand of three players, 5/10 blinds, the button on seat 2 (who acts first and plays
    ``button_replies``), the Lean Poker player in seat 0 (the small blind) answering
    ``player_answers``, the big blind checking or calling: the requests the player got."""
    deal = Deal((("Ah", "Kd"), ("Qs", "Qc"), ("2c", "7d")), ("3h", "8h", "9s", "Td", "4c"))
    referee = Referee(make_game("holdem-nl", 3, stack=tuple(stacks)), random.Random(1),
                      hands=1, button=2, deals=[deal])
    seat = LeanPokerSeat("http://127.0.0.1:1/")
    seat.player = Recorder(player_answers)
    client = Client(seat, game="holdem-nl", check=False)
    seat.client = client
    replies = list(button_replies)
    others = [Client(lambda s: s.check_or_call(), game="holdem-nl"),
              Client(lambda s: replies.pop(0) if replies else s.check_or_call(),
                     game="holdem-nl")]
    play_local(referee, [client, *others])
    return [state for a, state in seat.player.requests if a == "bet_request"]


def test_minimum_raise_is_the_tables_not_what_the_players_stack_allows():
    """The button raises to 40 (a raise of 30): the minimum raise is 30 for everyone, also for
    the small blind whose 40 chips behind cannot make it (it can only go all-in, for less)."""
    (request,) = lean_poker_hand([45, 2000, 2000], [40], ["BET 40"])
    assert request["current_buy_in"] == 40 and request["minimum_raise"] == 30
    assert request["players"][0]["stack"] == 40


def test_minimum_raise_stays_the_last_full_raise_when_raising_is_closed():
    """The player raises to 40 (by 30); the short button's all-in to 45 adds 5, which does not
    reopen the betting: facing it, the minimum raise is still 30, and an answer that would
    raise (Lean Poker's server would take it) can only call, the way an answer between the
    call and a raise is read."""
    requests = lean_poker_hand([2000, 2000, 45], [35, 500, 0, 0, 0], ["BET 10", "BET 45"])
    first, second = requests[:2]
    assert first["current_buy_in"] == 10 and first["minimum_raise"] == 10  # the big blind
    assert second["current_buy_in"] == 45 and second["minimum_raise"] == 30
    assert second["players"][0]["bet"] == 40  # and its 500 called the 5 more
    assert requests[2]["players"][0]["bet"] == 45

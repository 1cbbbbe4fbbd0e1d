"""A Lean Poker player for the tests: a small web service speaking Lean Poker's player API.

It answers ``POST /`` with the form fields ``action`` and ``game_state`` as Lean Poker's player
frameworks do: ``check`` and ``showdown`` with 200 (the body is not used), ``version`` with its
version, ``bet_request`` with the chips to add (an integer). Its play is random (seeded): fold,
check or call, the smallest raise, a raise, a huge number (all-in). It checks every game state
it receives against Lean Poker's document (the fields, their types, that the pot is the bets
plus the antes, that ``current_buy_in`` is the largest bet, its own cards, the board) and keeps
what it got, for the tests to read.

``mode`` makes it misbehave: ``http-500`` (bet_request answers HTTP 500), ``text`` (answers
``call``), ``negative`` (answers -5), ``slow`` (bet_request takes ``delay`` seconds),
``stop-after`` (stops listening after ``count`` bet requests: later connections are refused).

Run alone: ``python tests/support/leanpoker_player.py [--port 9000] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import json
import random
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERSION = "test player 1.0"
FIELDS = {"tournament_id": str, "game_id": str, "round": int, "bet_index": int,
          "small_blind": int, "current_buy_in": int, "pot": int, "minimum_raise": int,
          "dealer": int, "orbits": int, "in_action": int, "players": list,
          "community_cards": list}
PLAYER_FIELDS = {"id": int, "name": str, "status": str, "version": str, "stack": int,
                 "bet": int}
RANKS = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}
SUITS = {"clubs", "spades", "hearts", "diamonds"}


def check_state(state: dict, showdown: bool) -> list[str]:
    """What in a game state breaks Lean Poker's document (empty when nothing)."""
    problems = []
    for name, kind in FIELDS.items():
        if not isinstance(state.get(name), kind):
            problems.append(f"{name} missing or not {kind.__name__}")
    if problems:
        return problems
    players = state["players"]
    for p, player in enumerate(players):
        for name, kind in PLAYER_FIELDS.items():
            if not isinstance(player.get(name), kind):
                problems.append(f"players[{p}].{name} missing or not {kind.__name__}")
        if player.get("id") != p:
            problems.append(f"players[{p}].id is not {p}")
        if player.get("status") not in ("active", "folded", "out"):
            problems.append(f"players[{p}].status {player.get('status')!r}")
        for card in player.get("hole_cards", []):
            if card.get("rank") not in RANKS or card.get("suit") not in SUITS:
                problems.append(f"players[{p}] has the card {card}")
    me = players[state["in_action"]] if 0 <= state["in_action"] < len(players) else {}
    if len(me.get("hole_cards", [])) != 2:
        problems.append("no two hole cards of its own")
    if len(state["community_cards"]) not in (0, 3, 4, 5):
        problems.append(f"{len(state['community_cards'])} community cards")
    bets = [p["bet"] for p in players]
    if not showdown:
        if state["current_buy_in"] != max(bets):
            problems.append(f"current_buy_in {state['current_buy_in']} is not the largest bet")
        if state["pot"] < sum(bets):
            problems.append(f"pot {state['pot']} is less than the bets {sum(bets)}")
        if me.get("status") != "active":
            problems.append("asked to bet while not active")
    if not 0 <= state["dealer"] < len(players):
        problems.append("dealer out of range")
    return problems


class Player:
    """The strategy and the record of what was received."""

    def __init__(self, seed: int = 1, mode: str = "play", delay: float = 0.0, count: int = 0):
        self.rng = random.Random(seed)
        self.mode = mode
        self.delay = delay
        self.count = count
        self.requests: list[tuple[str, dict | None]] = []
        self.problems: list[str] = []
        self.bet_requests = 0
        self.lock = threading.Lock()

    def bet(self, state: dict) -> int:
        me = state["players"][state["in_action"]]
        to_call = state["current_buy_in"] - me["bet"]
        raise_at = to_call + state["minimum_raise"]
        choice = self.rng.random()
        if choice < 0.15:
            return 0
        if choice < 0.55:
            return to_call
        if choice < 0.7:
            return raise_at
        if choice < 0.85:
            return raise_at + self.rng.randint(0, 3 * state["minimum_raise"] + 1)
        if choice < 0.9:
            return to_call + 1  # between the call and a raise: a call
        return 10 ** 6  # more than the stack: all-in

    def answer(self, action: str, state: dict | None) -> tuple[int, bytes]:
        with self.lock:
            self.requests.append((action, state))
            if state is not None:
                self.problems += [f"{action} {state.get('round')}: {p}"
                                  for p in check_state(state, action == "showdown")]
            if action == "version":
                return 200, VERSION.encode()
            if action != "bet_request":
                return 200, b"OK"
            self.bet_requests += 1
            if self.mode == "http-500":
                return 500, b"the player crashed"
            if self.mode == "text":
                return 200, b"call"
            if self.mode == "negative":
                return 200, b"-5"
            if self.mode == "slow":
                time.sleep(self.delay)
            return 200, str(self.bet(state)).encode()


class _Handler(BaseHTTPRequestHandler):
    player: Player
    server: PlayerServer

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        fields = urllib.parse.parse_qs(self.rfile.read(length).decode(), keep_blank_values=True)
        action = fields.get("action", [""])[0]
        state = json.loads(fields["game_state"][0]) if "game_state" in fields else None
        status, body = self.server.player.answer(action, state)
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        if self.server.player.mode == "stop-after" and (
                self.server.player.bet_requests >= self.server.player.count):
            threading.Thread(target=self.server.stop, daemon=True).start()

    def log_message(self, format, *args) -> None:
        pass


class PlayerServer(ThreadingHTTPServer):
    """The player listening on 127.0.0.1 (a free port unless given), in a thread."""

    daemon_threads = True

    def __init__(self, player: Player, port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.player = player
        self.url = f"http://127.0.0.1:{self.server_address[1]}/"
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    def __enter__(self) -> PlayerServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        if self.socket.fileno() >= 0:
            self.shutdown()
            self.server_close()

    def handle_error(self, request, client_address) -> None:
        pass  # a relay that went away mid-request (the round ended): nothing to report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--port", type=int, default=9000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    server = PlayerServer(Player(args.seed), args.port)
    print(f"listening on {server.url}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

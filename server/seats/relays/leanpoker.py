"""A Lean Poker player (a small web service) as a seat: ``pokerbots run http://127.0.0.1:9000/``.

The relay POSTs the form fields of Lean Poker's player API (``action`` and ``game_state``): at
the start of the round ``check`` (is the player running?), at each decision of its seat
``bet_request``, whose answer (the chips to add now) becomes the reply, and after each hand
``showdown``. The player's ``version`` is asked when the command line is read, so that it
shows in the results next to the address.

The game state follows Lean Poker's own server where its document is loose: ``round`` is the
hand number from 0, ``bet`` and ``current_buy_in`` count the chips bet over the whole hand
(blinds, calls, bets and raises; a dead ante is no bet, it is in the pot), ``pot`` is every chip
in the middle, ``minimum_raise`` what a raise must add above the call at this table (the big
blind, then the street's largest full raise: not capped by the player's stack), ``dealer`` the
button, ``bet_index`` the number of actions taken in the hand so far, ``orbits`` the completed
turns of the button, ``tournament_id`` and ``game_id`` one id per round. Players are listed
from this seat (``in_action`` is 0), clockwise, named ``player N`` (``you`` first), with their
hole cards when known (one's own; others' after a showdown that showed them).

The answer is read as Lean Poker's server reads it: the chips to add now, an integer. All of a
stack or more goes all-in (a call when no raise is allowed); 0 checks when there is nothing to
call; less than the call folds; at least the call plus ``minimum_raise`` raises by the
difference; anything between is a call. A raise the rules do not allow here (a short all-in
did not reopen the betting, which Lean Poker's server does not know) is read as a call, as an
answer too small to raise is. A negative number or a body that is not an integer is
a fault of the seat, as are a refused connection, an HTTP error status and a timeout (the
server's reply limit covers the whole round trip).
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import re
import secrets
import socket
import sys
import urllib.parse

from pokerbots.server.games import seat_table
from pokerbots.server.seats.relays.relay import Relay, RelayFault, serve

#: Lean Poker's card ranks and suits (``10`` for a ten).
RANK_NAMES = {"T": "10"}
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
#: Seconds the command line waits for a player's version (before any bot starts).
VERSION_TIMEOUT = 2.0
#: Seconds one request may take, at most (the server's reply limit is usually shorter).
REQUEST_TIMEOUT = 600.0
_INTEGER = re.compile(rb"\s*(-?\d+)\s*")


def check_url(url: str, allow_remote: bool) -> urllib.parse.SplitResult:
    """The parts of a player's address; ValueError says what to type instead."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "http":
        raise ValueError(f"{url}: Lean Poker players are plain http:// services")
    try:
        _ = parts.port  # urllib checks the port when it is read
    except ValueError:
        raise ValueError(f"{url}: the port is not a number") from None
    if not parts.hostname:
        raise ValueError(f"{url}: no host name")
    if not allow_remote and not is_loopback(parts.hostname):
        raise ValueError(f"{url}: {parts.hostname} is not this machine; a player on another"
                         " host needs --allow-remote-bots")
    return parts


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Player:
    """The HTTP side: one POST per request, form-encoded, on a fresh connection."""

    def __init__(self, url: str) -> None:
        self.url = url
        parts = urllib.parse.urlsplit(url)
        self.host = parts.hostname
        self.port = parts.port or 80
        self.path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")

    def post(self, fields: dict, timeout: float = REQUEST_TIMEOUT) -> bytes:
        """The body of the player's answer; RelayFault says why there is none."""
        action = fields["action"]
        body = urllib.parse.urlencode(fields).encode()
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            connection.request("POST", self.path, body, {
                "Content-Type": "application/x-www-form-urlencoded"})
            response = connection.getresponse()
            answer = response.read()
        except ConnectionRefusedError:
            raise RelayFault(f"nothing answers at {self.url} (connection refused) for"
                             f" action={action}: is the player running?") from None
        except (TimeoutError, socket.timeout):
            raise RelayFault(f"no answer from {self.url} to action={action} within"
                             f" {timeout:g} s") from None
        except (OSError, http.client.HTTPException) as exc:
            raise RelayFault(f"the request action={action} to {self.url} failed:"
                             f" {exc.__class__.__name__}: {exc}") from None
        finally:
            connection.close()
        if not 200 <= response.status < 300:
            raise RelayFault(f"the player at {self.url} answered action={action} with HTTP"
                             f" {response.status} {response.reason}: {_excerpt(answer)}")
        return answer

    def version(self, timeout: float = VERSION_TIMEOUT) -> str | None:
        """The player's ``version`` (its first line, at most 60 characters), or None if it
        does not answer now (the round then reports the seat's fault)."""
        try:
            body = self.post({"action": "version"}, timeout=timeout)
        except RelayFault:
            return None
        text = body.decode("utf-8", "replace").strip().split("\n", 1)[0].strip()
        return text[:60] or None


def version_of(url: str) -> str | None:
    """The version of the player at ``url`` (see :meth:`Player.version`)."""
    return Player(url).version()


def _excerpt(body: bytes) -> str:
    text = body.decode("utf-8", "replace").strip()
    return repr(text[:200]) + (f" (the first 200 of {len(text)} characters)"
                               if len(text) > 200 else "")


def _cards(cards) -> list[dict]:
    return [{"rank": RANK_NAMES.get(c[0], c[0]), "suit": SUIT_NAMES[c[1]]} for c in cards]


class LeanPokerSeat(Relay):
    """The seat: our messages in, Lean Poker requests out."""

    name = "Lean Poker adapter"

    def __init__(self, url: str) -> None:
        super().__init__()
        self.player = Player(url)
        self.url = url
        self.version = ""
        self.game_id = secrets.token_hex(12)

    # -- the round -----------------------------------------------------------------------------

    def on_round_start(self, info) -> None:
        table = seat_table(self.client)
        if not table.structure.no_limit or table.hole_cards != 2:
            raise RelayFault(f"a Lean Poker player plays no-limit Hold'em, not {info.game}")
        self.player.post({"action": "check"})
        self.version = self.player.version() or ""

    def decide(self, state) -> str:
        self.follow(state)
        game_state = self.game_state(state)
        text = json.dumps(game_state, separators=(",", ":"))
        body = self.player.post({"action": "bet_request", "game_state": text})
        match = _INTEGER.fullmatch(body)
        if match is None or int(match.group(1)) < 0:
            why = ("is a negative number of chips" if match is not None
                   else "is not a whole number of chips")
            raise RelayFault(f"the player at {self.url} answered bet_request with"
                             f" {_excerpt(body)}, which {why}.\ngame_state sent: {text}")
        return self.played(self.translate(state, int(match.group(1))))

    def on_hand_end(self, result) -> None:
        text = json.dumps(self.showdown_state(result), separators=(",", ":"))
        self.player.post({"action": "showdown", "game_state": text})

    # -- translation ---------------------------------------------------------------------------

    @staticmethod
    def translate(state, chips: int) -> str:
        """Lean Poker's answer (chips to add now) as a reply, the way its server reads it."""
        legal = state.legal
        to_call = legal.call - legal.front
        if chips > 0 and chips >= state.stack:
            if legal.raise_max is not None and legal.raise_max == legal.front + state.stack:
                return legal.all_in()
            return legal.check_or_call()
        if chips < to_call:
            return legal.fold()
        if legal.raise_min is not None and chips >= legal.raise_min - legal.front:
            return legal.raise_to(min(legal.front + chips, legal.raise_max))
        return legal.check_or_call()

    # -- game states ---------------------------------------------------------------------------

    def _players(self, stacks: list[int], bets: list[int], folded: list[bool],
                 sitting_out: list[bool], shown: list) -> list[dict]:
        players = []
        for p in range(len(stacks)):
            status = "out" if sitting_out[p] else ("folded" if folded[p] else "active")
            player = {"id": p, "name": "you" if p == 0 else f"player {p}", "status": status,
                      "version": self.version if p == 0 else "", "stack": stacks[p],
                      "bet": bets[p], "hole_cards": _cards(shown[p]) if shown[p] else []}
            players.append(player)
        return players

    def _common(self, players: list[dict], pot: int, board) -> dict:
        n = len(players)
        structure = seat_table(self.client).structure
        return {
            "tournament_id": self.game_id, "game_id": self.game_id,
            "round": self.hand_number, "bet_index": len(self.follower.acts),
            "small_blind": structure.blinds[0] if structure.blinds else 0,
            "current_buy_in": max(p["bet"] for p in players), "pot": pot,
            "dealer": self.button, "orbits": self.hand_number // n, "in_action": 0,
            "players": players, "community_cards": _cards(board),
        }

    def game_state(self, state) -> dict:
        """The game state of a ``bet_request``."""
        hand = self.follower.hand
        antes = hand.antes or [0] * hand.players
        bets = [t - a for t, a in zip(hand.total, antes)]
        shown = [self.cards] + [None] * (hand.players - 1)
        players = self._players(state.stacks, bets, hand.folded,
                                [s == 0 for s in hand.stacks_start], shown)
        game_state = self._common(players, sum(hand.total), state.board)
        # The table's minimum raise, as Lean Poker's server keeps it: the big blind, then the
        # largest full raise of the street; the same whether or not this player's stack can
        # make it or the betting is open to it (its answer is then read as a call or all-in).
        game_state["minimum_raise"] = hand.inc
        return game_state

    def showdown_state(self, result) -> dict:
        """The game state of ``showdown``: stacks after the pots are paid, each player's bets
        over the hand (what it put in the pots), the cards shown."""
        self.follower.at_end(result)
        hand = self.follower.hand
        n = len(result.deltas)
        won = [0] * n
        for amount, winner in result.pots:
            won[winner] += amount
        antes = hand.antes or [0] * n
        spent = [w - d for w, d in zip(won, result.deltas)]
        bets = [s - a for s, a in zip(spent, antes)]
        shown = [c or None for c in result.showdown]
        shown[0] = self.cards
        # Folds before the seat's last decision are in the shadow hand, later ones are shown.
        folded = [f or word == "FOLD" for f, (word, _) in zip(hand.folded, result.actions)]
        players = self._players(result.stacks, bets, folded,
                                [s == 0 for s in hand.stacks_start], shown)
        state = self._common(players, sum(spent), result.board)
        state["minimum_raise"] = 0
        return state


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m pokerbots.server.seats.relays.leanpoker URL", file=sys.stderr)
        return 2
    return serve(LeanPokerSeat(args[0]))


if __name__ == "__main__":
    sys.exit(main())

"""An ACPC agent as a seat: ``pokerbots run 'acpc:./example_player {game} {host} {port}' ...``.

An ACPC agent is a program that connects to a dealer over TCP and speaks the ACPC protocol
2.0.0 (``VERSION:2.0.0``, then ``MATCHSTATE`` lines, answered with the state and ``f``, ``c`` or
``r``). This relay, started by the server as the seat's bot, plays that dealer: when the round
starts it writes the game definition file of the match's table (:mod:`.logs.acpc_format`), listens
on a free loopback port, starts the agent's command with ``{game}``, ``{host}`` and ``{port}``
filled in, and waits for it to connect and send its version (all within the start-up limit).
Then it translates both ways, as the ACPC dealer would talk to it:

* every state the dealer would send, in order: the start of each hand, the state after each
  action (the relay learns the others' actions when its seat is asked, so they come in a burst
  then), the state the agent must answer, and the final state with the cards shown;
* the agent's answer becomes the seat's reply: ``f`` folds, ``c`` checks or calls, ``r`` raises
  by the limit bet, ``r<N>`` raises to N chips put in over the hand (``BET`` the part of it on
  this street). The server judges it as any reply, so an action the ACPC dealer would refuse or
  silently change (a raise outside the allowed sizes, a fold when checking is free) ends the
  round as a fault of the seat, with the usual paragraph. An answer that is no action at all, a
  raise that is not above the call, an agent that exits, closes its connection or never
  connects, is a fault too (explained on the seat's stderr).

Differences from the ACPC dealer, from the rules of the match: the cards of a player who loses
at showdown are not shown (our players muck automatically). When the agent has folded or gone
all-in and others bet on, our messages do not tell every action (the server tells a seat the
latest action of each player); the relay then reads the hand's public record from the server's
hand feed (every action, the board, the cards shown: nothing private) and sends the states and
the final one complete. Without the feed (a relay started by hand) those states are sent only
when certain.
"""

from __future__ import annotations

import os
import re
import select
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile

from pokerbots.server.games import seat_table
from pokerbots.server.games.base import Game
from pokerbots.server.hands.follow import FOLD, RAISE
from pokerbots.server.logs.acpc_format import (
    VERSION,
    AcpcGame,
    Cards,
    final_rounds,
    read_action,
    state_text,
)
from pokerbots.server.logs.acpc_format import unsupported as acpc_unsupported
from pokerbots.server.seats.bots import split_command
from pokerbots.server.seats.relays.relay import Relay, RelayFault, serve

#: The relay reads every hand's public record from the server (BotSpec.hand_feed): an ACPC
#: state carries the whole betting of the hand, which our messages do not always tell.
HAND_FEED = True
#: The placeholders of the agent's command line.
PLACEHOLDERS = ("game", "host", "port")
HOST = "127.0.0.1"
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_VERSION = re.compile(r"VERSION:(\d+)\.(\d+)\.(\d+)")


def unsupported(game: Game) -> str | None:
    """Why an ACPC agent cannot play ``game``, or None."""
    why = acpc_unsupported(game)
    if why:
        return why
    if "Stacks" not in game.type.shape.play and len(game.structure.streets) > 1:
        return (f"our {game.name} messages do not tell a seat each player's chips, so the"
                " betting of a hand cannot always be rebuilt for the agent")
    return None


def check_command(command: str) -> list[str]:
    """The words of an ``acpc:`` command (placeholders kept); ValueError says what is wrong."""
    words = split_command(command)
    if not words:
        raise ValueError("no command after 'acpc:'")
    names = {name for word in words for name in _PLACEHOLDER.findall(word)}
    unknown = sorted(names - set(PLACEHOLDERS))
    if unknown:
        raise ValueError(f"unknown placeholder {{{unknown[0]}}}: the command may use {{game}},"
                         " {host} and {port}")
    if "port" not in names:
        raise ValueError("the command must pass {port} (and usually {game} and {host}) to the"
                         " agent: it is how the agent learns where to connect")
    if _PLACEHOLDER.search(words[0]):
        raise ValueError("the program itself cannot be a placeholder")
    return words


def fill(words: list[str], game_path: str, port: int) -> list[str]:
    values = {"game": game_path, "host": HOST, "port": str(port)}
    return [_PLACEHOLDER.sub(lambda m: values[m.group(1)], word) for word in words]


class AcpcSeat(Relay):
    """The seat: our messages in, ACPC states out, the agent's actions back."""

    name = "ACPC adapter"

    def __init__(self, command: list[str]) -> None:
        super().__init__()
        self.command = command
        self.folder: str | None = None
        self.listener: socket.socket | None = None
        self.connection: socket.socket | None = None
        self.lines = None
        self.agent: subprocess.Popen | None = None
        self.acpc: AcpcGame | None = None
        self.deck: Cards | None = None
        self.sent = 0  # states sent this hand (the next one is after acts[:sent])
        self._last_state = ""

    # -- the round -----------------------------------------------------------------------------

    def on_round_start(self, info) -> None:
        table = seat_table(self.client)
        why = unsupported(table)
        if why:
            raise RelayFault(f"an ACPC agent cannot play this table: {why}")
        self.acpc = AcpcGame.of(table)
        self.deck = Cards(table.deck)
        self.folder = tempfile.mkdtemp(prefix="pokerbots-acpc-")
        path = os.path.join(self.folder, f"{info.game}.{info.players}p.game")
        with open(path, "w", encoding="ascii") as f:
            f.write(self.acpc.text())
        self.listener = socket.create_server((HOST, 0))
        port = self.listener.getsockname()[1]
        argv = fill(self.command, path, port)
        self.warn(f"starting the agent: {shlex.join(argv)}")
        try:
            self.agent = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                          stdout=sys.stderr.fileno(), stderr=sys.stderr.fileno())
        except OSError as exc:
            raise RelayFault(f"cannot start the agent {argv[0]}: {exc.strerror or exc}") from None
        self.connection = self._accept(port)
        self.lines = self.connection.makefile("rb")
        first = self._line("its version line")
        if not _VERSION.match(first):
            raise RelayFault(f"the agent's first line must be {VERSION}; it sent {first[:80]!r}")
        if not first.startswith("VERSION:2."):
            self.warn(f"the agent speaks {first}; this dealer speaks {VERSION}")
        shutil.rmtree(self.folder, ignore_errors=True)  # the agent has read the game by now
        self.folder = None

    def _accept(self, port: int) -> socket.socket:
        listener = self.listener
        while True:
            ready, _, _ = select.select([listener], [], [], 0.05)
            if ready:
                connection, _ = listener.accept()
                listener.close()
                self.listener = None
                connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                return connection
            code = self.agent.poll()
            if code is not None:
                raise RelayFault(f"the agent {_exited(code)} before connecting to {HOST}:{port}")

    def on_round_end(self, bankrolls, hands) -> None:
        self.close()

    def close(self) -> None:
        for thing in (self.lines, self.connection, self.listener):
            if thing is not None:
                try:
                    thing.close()
                except OSError:
                    pass
        self.lines = self.connection = self.listener = None
        if self.agent is not None:
            try:
                self.agent.wait(timeout=1.0)  # the agent sees the connection end and exits
            except subprocess.TimeoutExpired:
                self.agent.kill()
                self.agent.wait()
            self.agent = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    # -- a hand --------------------------------------------------------------------------------

    def on_hand_start(self, hand, cards, button) -> None:
        super().on_hand_start(hand, cards, button)
        self.deck.start_hand()
        self.sent = 0
        self._send_states(upto=0, street=0, board=())

    def decide(self, state) -> str:
        follower = self.follow(state)
        acts = follower.acts
        self._send_states(upto=len(acts), street=follower.hand.street, board=state.board)
        text = self._last_state
        answer = self._answer(text)
        try:
            action = read_action(answer, self.acpc.no_limit)
        except ValueError as exc:
            raise RelayFault(f"the agent answered {text}:{answer[:80]}: {exc}") from None
        reply = self._reply(state, action, text + ":" + answer)
        return self.played(reply)

    def on_hand_end(self, result) -> None:
        follower = self.follower
        follower.at_end(result)
        self.complete_hand()  # from the server's hand feed, when the messages could not tell
        acts = follower.acts
        if not follower.complete:  # what is known, up to where the seat left the hand
            self._send_states(upto=len(acts), street=follower.hand.street, board=result.board)
            return
        hand = follower.hand
        if len(acts) > self.sent:
            self._send_states(upto=len(acts) - 1, street=acts[-1].street, board=result.board)
        folded_out = sum(1 for f in hand.folded if not f) == 1
        rounds = final_rounds(acts, folded_out, self.acpc.rounds)
        shown = [cards if cards else None for cards in result.showdown]
        shown[0] = self.cards
        self._send(self._state(acts, rounds, shown, result.board))

    # -- states --------------------------------------------------------------------------------

    def _state(self, acts, rounds: int, shown, board) -> str:
        n = self.acpc.players
        seats = [(self.button + 1 + p) % n for p in range(n)]
        holes = [self.deck.cards(shown[s], ("hole", s)) if shown[s] else "" for s in seats]
        cards = [self.deck.card(c, ("board", i)) for i, c in enumerate(board)]
        return state_text(f"MATCHSTATE:{seats.index(0)}", self.hand_number, acts, rounds, holes,
                          cards, self.acpc)

    def _send_states(self, upto: int, street: int, board) -> None:
        """Send the states after ``acts[:k]`` for every ``k`` not sent yet, up to ``upto``;
        the hand is not over at any of them, the last one is on ``street``."""
        acts = self.follower.acts
        shown = [self.cards] + [None] * (self.acpc.players - 1)
        for k in range(self.sent, upto + 1):
            next_street = acts[k].street if k < len(acts) else street
            self._last_state = text = self._state(acts[:k], next_street + 1, shown, board)
            self._send(text)
        self.sent = max(self.sent, upto + 1)

    def _send(self, text: str) -> None:
        try:
            self.connection.sendall(text.encode() + b"\r\n")
        except OSError as exc:
            raise RelayFault(f"cannot send the state to the agent: {exc.strerror or exc}"
                             f"{self._agent_status()}") from None

    def _line(self, what: str) -> str:
        try:
            raw = self.lines.readline()
        except OSError as exc:
            raise RelayFault(f"cannot read {what} from the agent: {exc}") from None
        if not raw:
            raise RelayFault(f"the agent closed the connection instead of sending {what}"
                             f"{self._agent_status()}")
        return raw.decode("utf-8", "backslashreplace").rstrip("\r\n")

    def _answer(self, state: str) -> str:
        """The action part of the agent's answer to ``state`` (comments and answers to other
        states are skipped, as the dealer does)."""
        while True:
            line = self._line(f"its answer to {state}")
            if line[:1] in ("#", ";"):
                continue
            if line.startswith(state + ":"):
                return line[len(state) + 1:].rstrip()
            self.warn(f"ignoring a line that does not answer the state sent ({state}):"
                      f" {line[:120]!r}")

    def _agent_status(self) -> str:
        code = self.agent.poll() if self.agent is not None else None
        return "" if code is None else f" (the agent {_exited(code)})"

    # -- actions -------------------------------------------------------------------------------

    def _reply(self, state, action, answer: str) -> str:
        legal = state.legal
        hand = self.follower.hand
        if action.word == FOLD:
            reply = f"FOLD {legal.front}"
        elif action.word != RAISE:
            reply = legal.check_or_call()
        elif not self.acpc.no_limit:
            if legal.raise_min is not None:
                reply = f"BET {legal.raise_min}"
            else:  # no raise allowed: the server refuses it
                bet = seat_table(self.client).structure.streets[hand.street].bet
                reply = f"BET {max(state.fronts) + bet}"
        else:
            earlier = hand.total[0] - hand.front[0]  # chips put in before this street
            value = action.size - earlier
            if value <= legal.call:
                raise RelayFault(
                    f"the agent answered {answer}: a raise to {action.size} chips in the hand is"
                    f" not above the call (to {legal.call + earlier}); the ACPC dealer would"
                    " change it")
            reply = f"BET {value}"
        if not legal.is_legal(reply):
            self.warn(f"the agent answered {answer}, which is {reply} here")
        return reply


def _exited(code: int) -> str:
    if code < 0:
        return f"was killed by signal {-code}"
    return f"exited with code {code}"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        print("usage: python -m pokerbots.server.seats.relays.acpc -- COMMAND...", file=sys.stderr)
        return 2
    return serve(AcpcSeat(args))


if __name__ == "__main__":
    sys.exit(main())

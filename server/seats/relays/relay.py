"""What every relay seat shares: the loop on stdin/stdout, one way to fail, the hand followed.

A relay is a bot program (started by the server like any other) whose decisions come from
somewhere else: a Lean Poker player over HTTP, an ACPC agent over TCP. It reads the server's
messages with the client library (the one parser) and answers through it; :class:`Relay` is
the :class:`~pokerbots.protocol.client.Bot` it plays, with a :class:`~.hands.follow.HandFollower`
for each hand. When the other side cannot be understood (it is unreachable, answers something
that is no action, goes away) the relay says why on stderr and exits with code 1: the server
then ends the round with its usual paragraph for that seat (the message sent, what was legal)
and shows the tail of the seat's stderr, where the relay's explanation is. An answer that does
translate is sent as a reply and judged by the server as any other.
"""

from __future__ import annotations

import json
import os
import sys

from pokerbots.protocol.client import Bot, Client, ProtocolError
from pokerbots.server.games import seat_table
from pokerbots.server.games.base import IllegalMove
from pokerbots.server.hands.follow import HandFollower, OutOfStep

#: The relay's exit code when the other side failed (the server reports it as the seat's).
EXIT_FAULT = 1


class RelayFault(Exception):
    """The other side failed; ``str()`` is the explanation for the seat's stderr."""


class Relay(Bot):
    """A bot whose decisions come from elsewhere. Subclasses implement :meth:`decide` and the
    hooks, calling :meth:`follow` in :meth:`decide` to bring :attr:`follower` up to date."""

    #: Shown first on every line the relay writes to stderr.
    name = "relay"

    def __init__(self) -> None:
        self.client: Client | None = None
        self.follower: HandFollower | None = None
        self.hand_number = 0
        self.cards: tuple[str, ...] = ()
        self.button = 0
        self._feed = b""

    # -- the hand ------------------------------------------------------------------------------

    def on_hand_start(self, hand: int, cards: tuple[str, ...], button: int) -> None:
        client = self.client
        info = client.info
        stacks = info.stacks
        if stacks is not None and client.carry:
            stacks = client.stacks  # the stacks this hand starts with
        self.follower = HandFollower(seat_table(client), button, stacks)
        self.hand_number, self.cards, self.button = hand, cards, button

    def follow(self, state) -> HandFollower:
        """Bring the follower to this decision (a bug if the messages do not fit)."""
        try:
            self.follower.before_decision(state)
        except OutOfStep as exc:
            raise RelayFault(f"cannot follow hand {self.hand_number} from the server's"
                             f" messages ({exc}); this is a bug in pokerbots, please report"
                             " it") from None
        return self.follower

    def played(self, reply: str) -> str:
        """Record the seat's own reply (when it is legal: otherwise the round ends on it)."""
        if self.follower is not None and self.client is not None:
            try:
                self.follower.mine(reply)
            except (ValueError, LookupError, IllegalMove):
                pass  # not a legal reply: the server refuses it and ends the round
        return reply

    def hand_record(self) -> dict | None:
        """The public record of the hand just ended, from the server's hand feed (every
        action, the board, the cards shown; see BotSpec.hand_feed), or None without a feed."""
        fd = os.environ.get("POKERBOTS_HANDS_FD")
        if fd is None:
            return None
        while True:
            while b"\n" not in self._feed:
                try:
                    chunk = os.read(int(fd), 65536)  # written before end_hand was sent
                except OSError:
                    return None
                if not chunk:
                    return None
                self._feed += chunk
            line, _, self._feed = self._feed.partition(b"\n")
            record = json.loads(line)
            if record.get("hand") == self.hand_number:
                return record

    def complete_hand(self) -> bool:
        """Finish following the hand from the server's hand feed when the messages alone could
        not (the seat folded or went all-in and others bet on); returns whether it is known."""
        follower = self.follower
        if follower.complete:
            return True
        record = self.hand_record()
        if record is None:
            return False
        me = (record["button"] - self.button) % self.client.players
        try:
            follower.replay(record["actions"], me)
        except OutOfStep as exc:
            self.warn(f"cannot follow hand {self.hand_number} from the hand feed ({exc})")
            return False
        return True

    def warn(self, text: str) -> None:
        """One line on stderr (kept in the seat's stderr file)."""
        print(f"pokerbots {self.name}: {text}", file=sys.stderr, flush=True)

    def close(self) -> None:
        """Release what the relay holds (called once, whatever happened)."""


def serve(relay: Relay, game: str | None = None) -> int:
    """Play the round on stdin/stdout with ``relay`` deciding; returns the exit code."""
    client = Client(relay, game=game, check=False)
    relay.client = client
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    try:
        while True:
            line = stdin.readline()
            if not line:
                return 0
            reply = client.feed(line)
            if reply is not None:
                stdout.write(reply + b"\n")
                stdout.flush()
                if client.done:
                    return 0
    except RelayFault as fault:
        relay.warn(str(fault))
        return EXIT_FAULT
    except ProtocolError as exc:
        relay.warn(f"cannot read the server's messages: {exc}")
        return EXIT_FAULT
    except BrokenPipeError:
        return 0  # the server ended the round
    except KeyboardInterrupt:
        return 130
    finally:
        relay.close()

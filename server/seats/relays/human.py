"""A person as a seat: ``pokerbots run bots/random_bot.py -`` (or ``human``).

The server starts every seat in a session of its own, so a seat cannot open ``/dev/tty``.
The human seat is therefore this small relay program, started like any bot, which inherits
the server's terminal as extra file descriptors (:attr:`.bots.BotSpec.pass_fds`). It prints each
server message to the terminal exactly as a bot receives it, reads the person's line and
forwards it unchanged: the judging and the errors are the server's, the same a bot gets.

A person types, so a person gets three tries where a bot gets none: when the input is a
terminal, a reply that the server would refuse (read with the client library and the
protocol's own :class:`~pokerbots.protocol.wire.Legal`) is shown with the reason, quoting what
was typed, and asked again; the third is said at once to be refused and forwarded as it is, and
the server's report follows without another question. Spaces at the end of a reply are dropped.
Every reply that is not a decision is offered (``READY``, ``OK``, the ``Money:`` totals, the
goodbye line): an empty line (Enter) sends it. A reply that differs from the right one only in
case is refused saying that case matters.

When the terminal's stderr is a terminal, the relay adds (there, never on stdout) a plain-words
line about the hand (cards, pot, what it costs to call) and a one-line hint of the legal
replies. Ctrl-D (end of input) leaves the table: the relay exits with :data:`EXIT_EOF`, which
the server takes as the person leaving (``"result": "left"``), not as a broken rule.

Run by the server as ``python -m pokerbots.server.seats.relays.human --in FD --out FD --err FD``.
"""

from __future__ import annotations

import argparse
import os
import select
import sys

from pokerbots.protocol.client import Bot, Client
from pokerbots.protocol.wire import GOODBYE, Framer, WireError, read_action, read_money
from pokerbots.server import games
from pokerbots.server.seats.arguments import EXIT_EOF

#: Replies a person may type for one message (a bot gets one).
TRIES = 3


# -- the relay ----------------------------------------------------------------------------


class _Watcher(Bot):
    """Keeps the last decision state and hand result the client library read."""

    state = None
    result = None

    def decide(self, state) -> str:
        self.state = state
        return state.check_or_call()

    def on_hand_end(self, result) -> None:
        self.result = result


class Helper:
    """Follows the round with the client library to help the person (never needed to play):
    hints in plain words, the reply it offers, and why a typed reply would be refused."""

    def __init__(self) -> None:
        self.client: Client | None = None
        self.watcher = _Watcher()
        self.kind = ""
        self.reply = ""  # what the client library would answer

    def follow(self, message: str) -> None:
        """Read the server's ``message`` (a failure to read it only costs the help)."""
        self.kind = message.split("\n", 1)[0]
        try:
            if self.kind == "init_round" or self.client is None:
                self.client = Client(self.watcher, check=False)
            self.reply = (self.client.receive(message.encode()) or b"").decode()
        except Exception:  # help is a comfort: never let it get in the way
            self.client = None
            self.reply = ""

    def offer(self) -> str | None:
        """The reply an empty line sends: every reply but a decision (READY, OK or the REBUY
        an empty stack needs, the Money totals, the goodbye)."""
        if self.client is None or not self.reply:
            return None
        if self.kind in OFFERED or self.kind.startswith("EndAction:"):
            return self.reply
        return None

    def refusal(self, typed: str) -> str | None:
        """Why the server would refuse ``typed`` (None: it would not, or the help is lost)."""
        client = self.client
        if client is None:
            return None
        kind = self.kind
        line = typed.encode()
        if kind in ("init_round", "init_hand"):
            return None if typed == "READY" else "expected 'READY'" + _case(typed, ["READY"])
        if kind == "play":
            try:
                word, value = read_action(line)
            except WireError as exc:
                return str(exc)
            return self.watcher.state.legal.refusal(word, value)
        if kind == "end_hand":
            if typed in ("OK", "REBUY"):
                return None
            return "the answer to end_hand must be OK or REBUY" + _case(typed, ["OK", "REBUY"])
        if kind.startswith("EndAction:"):
            try:
                values = read_money(line, client.players)
            except WireError as exc:
                return str(exc)
            return None if values == client.bankrolls else (
                f"the Money totals are wrong: they are {self.reply}")
        if kind == "end_round":
            return None if typed == GOODBYE else f"expected {GOODBYE!r}" + _case(typed, [GOODBYE])
        return None

    def hints(self) -> list[str]:
        try:
            return self._hints()
        except Exception:  # a hint is a comfort: never let it get in the way
            return []

    def _hints(self) -> list[str]:
        kind, client, reply = self.kind, self.client, self.reply
        if client is None:
            return []
        offered = ["(Enter sends that reply)"] if self.offer() else []
        if kind == "init_round":
            button = client.button
            where = "you have the button" if button == 0 else f"the button is player {button}"
            return [f"A round of {client.players} players begins; you are player 0, {where}.",
                    f"Reply: {reply}", *offered]
        if kind == "init_hand":
            return [f"Hand {client.hand}: you hold {' '.join(client.cards)}.", f"Reply: {reply}",
                    *offered]
        if kind == "play":
            state = self.watcher.state
            board = f", board {' '.join(state.board)}" if state.board else ""
            to_call = state.to_call
            summary = (f"You hold {' '.join(state.cards)}{board}; pot {state.pot_total};"
                       f" you have {state.front} in front;"
                       + (f" {to_call} to call." if to_call else " nothing to call."))
            return [summary, "Reply one of: " + " | ".join(_choices(state.legal))]
        if kind == "end_hand":
            result = self.watcher.result
            shown = [f"player {i} shows {' '.join(c)}" if i else f"you show {' '.join(c)}"
                     for i, c in enumerate(result.showdown) if c]
            pots = [f"{'you win' if w == 0 else f'player {w} wins'} {amount}"
                    for amount, w in result.pots]
            hint = "Reply: OK"
            stack = result.stacks[0] if result.stacks is not None else None
            if client.carry and stack is not None and stack < client.info.stack:
                if reply == "REBUY":
                    hint = (f"Reply: REBUY (you have no chips; it tops your stack up to"
                            f" {client.info.stack})")
                else:
                    hint += f" or REBUY (tops your stack up to {client.info.stack})"
            if offered and " or REBUY" in hint:  # two replies named: say which Enter sends
                offered = [f"(Enter sends {self.offer()})"]
            return ["Hand over: " + "; ".join(shown + [", ".join(pots)]) + ".", hint, *offered]
        if kind.startswith("EndAction:"):
            money = ",".join(map(str, client.bankrolls))
            return [f"Everyone's bankroll now, you first: {money}.", f"Reply: {reply}",
                    *offered]
        if kind == "end_round":
            money = ",".join(map(str, client.bankrolls))
            return [f"The round is over after {client.hands_played} hands;"
                    f" bankrolls {money}.", f"Reply: {reply}", *offered]
        return []


#: The messages (besides the EndAction lines) whose reply an empty line sends.
OFFERED = ("init_round", "init_hand", "end_hand", "end_round")


def _case(typed: str, words: list[str]) -> str:
    """Why ``typed`` is refused when it is one of ``words`` in another case: that case
    matters (else '')."""
    for word in words:
        if typed.upper() == word.upper():
            return f" (the protocol's words are case-sensitive: type {word!r})"
    return ""


def _choices(legal) -> list[str]:
    """Each legal reply, with its meaning in words."""
    out = [f"{legal.check_or_call()} ({'check' if legal.can_check else 'call'})"]
    if legal.raise_range is not None:
        low, high = legal.raise_range
        text = f"BET {low}" if low == high else f"BET {low}..{high}"
        out.append(f"{text} ({legal.verb()})")
    if legal.can_fold:
        out.append(f"{legal.fold()} (fold)")
    return out


class LineReader:
    """Lines from a file descriptor, one at a time (a pipe may deliver several at once)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""

    def waiting(self) -> bool:
        """Whether more has arrived (read already, or waiting in the pipe)."""
        return bool(self.buffer) or bool(select.select([self.fd], [], [], 0)[0])

    def line(self) -> bytes | None:
        """The next line, with its newline; None at end of input (Ctrl-D)."""
        while b"\n" not in self.buffer:
            chunk = os.read(self.fd, 4096)
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line + b"\n"


def next_message(server: LineReader, framer: Framer) -> bytes:
    """The server's next whole message (several may come in one write); b'' at the end."""
    lines = []
    while True:
        line = server.line()
        if line is None:
            return b""
        lines.append(line)
        try:
            if framer.feed(line.rstrip(b"\n").rstrip(b"\r")) is not None:
                return b"".join(lines)
        except WireError:
            return b"".join(lines)  # not a message we know: show it, the server will judge


def relay(in_fd: int, out_fd: int, err_fd: int) -> int:
    hints = os.isatty(err_fd)
    interactive = os.isatty(in_fd)  # a person typing: offers and three tries
    helper = Helper()
    person = LineReader(in_fd)
    server = LineReader(0)
    game = os.environ.get("POKERBOTS_GAME", games.DEFAULT)
    framer = Framer(games.get(game if game in games.names() else games.DEFAULT).shape)
    # After a reply the server will refuse, the messages that came in the same write are
    # answered unseen: the server judges a write's replies in order once it has them all, so
    # the refused one ends the round and these answers never count (asking the person for
    # them would only hold back the server's report).
    unseen = False
    while True:
        message = next_message(server, framer)
        if not message:
            return 0  # the server closed our input: the round is over
        helper.follow(message.decode("utf-8", "replace"))
        if unseen:
            try:
                os.write(1, helper.reply.encode() + b"\n")
            except BrokenPipeError:
                return 0
            unseen = server.waiting()
            continue
        os.write(out_fd, message)
        if hints:
            lines = helper.hints()
            if lines:
                os.write(err_fd, "".join(f"\x1b[2m  # {t}\x1b[0m\n" for t in lines).encode())
        line, refused = ask(person, helper if interactive else None, out_fd, err_fd)
        if line is None:
            print("The person at the terminal ended the input (Ctrl-D).", file=sys.stderr)
            if hints:
                os.write(err_fd, b"\n(end of input: you leave the table)\n")
            return EXIT_EOF
        try:
            os.write(1, line)
        except BrokenPipeError:
            return 0
        unseen = refused and server.waiting()
        if message.startswith(b"end_round"):
            return 0


def ask(person: LineReader, helper: Helper | None, out_fd: int,
        err_fd: int) -> tuple[bytes | None, bool]:
    """The person's reply to the message just shown (None at end of input), and whether the
    server will refuse it. Spaces at its end are dropped (a person does not see them). With a
    ``helper`` (a person typing), an empty line takes the offered reply and a refused one is
    asked again, :data:`TRIES` times in all; the last is forwarded, and said at once to be
    refused."""
    for attempt in range(1, TRIES + 1):
        line = person.line()
        if line is None:
            return None, False
        line = line.rstrip(b" \t\r\n") + b"\n"
        if helper is None:
            return line, False
        typed = line.rstrip(b"\n").decode("utf-8", "replace")
        offer = helper.offer()
        if typed == "" and offer:
            os.write(out_fd, offer.encode() + b"\n")  # shown as if typed
            return offer.encode() + b"\n", False
        why = helper.refusal(typed)
        if why is None:
            return line, False
        if attempt == TRIES:
            os.write(err_fd, f"  {typed!r} is refused: {why}. That was the last of {TRIES}"
                             " tries: it goes to the server, which ends the round.\n".encode())
            return line, True
        left = TRIES - attempt
        os.write(err_fd, f"  {typed!r} is refused: {why}. Type it again ({left} more"
                         f" {'try' if left == 1 else 'tries'}).\n".encode())
    return None, False  # pragma: no cover - the loop returns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Relay between the server and a person.")
    parser.add_argument("--in", dest="in_fd", type=int, required=True)
    parser.add_argument("--out", dest="out_fd", type=int, required=True)
    parser.add_argument("--err", dest="err_fd", type=int, required=True)
    args = parser.parse_args(argv)
    try:
        return relay(args.in_fd, args.out_fd, args.err_fd)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

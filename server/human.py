"""A person as a seat: ``pokerbots run bots/random_bot.py -`` (or ``human``).

The server starts every seat in a session of its own, so a seat cannot open ``/dev/tty``.
The human seat is therefore this small relay program, started like any bot, which inherits
the server's terminal as extra file descriptors (:attr:`BotSpec.pass_fds`). It prints each
server message to the terminal exactly as a bot receives it, reads the person's line and
forwards it unchanged: the validation and the errors are the server's, the same a bot gets.

When the terminal's stderr is a terminal, the relay adds (there, never on stdout) a plain-words
line about the hand (cards, pot, what it costs to call) and a one-line hint of the legal
replies. Ctrl-D (end of input) leaves the table: the relay exits and the server ends the round
with its usual paragraph, worded for a person.

Run by the server as ``python -m pokerbots.server.human --in FD --out FD --err FD``.
"""

from __future__ import annotations

import argparse
import os
import select
import sys

from pokerbots.protocol import GOODBYE

from .bots import BotSpec, BotSpecError, parse_bot
from .smoke_random import Bankrolls, legal_choices

#: What a person types on the command line for their own seat.
HUMAN_ARGS = ("-", "human")
#: How the seat is named in results and errors.
HUMAN_LABEL = "you, at the terminal"
#: Seconds a person has for each reply: a day, so in practice no limit.
HUMAN_REPLY_LIMIT = 24 * 3600.0
#: The relay's exit code after Ctrl-D (end of input).
EXIT_EOF = 3


def is_human_arg(arg: str) -> bool:
    return arg.strip() in HUMAN_ARGS


def is_human(spec: BotSpec) -> bool:
    return spec.label == HUMAN_LABEL


def human_spec() -> BotSpec:
    """The seat of the person at this process's terminal (its stdin, stdout and stderr)."""
    fds = [os.dup(0), os.dup(1), os.dup(2)]
    argv = (sys.executable, "-m", "pokerbots.server.human",
            "--in", str(fds[0]), "--out", str(fds[1]), "--err", str(fds[2]))
    return BotSpec(HUMAN_LABEL, argv, pass_fds=tuple(fds), reply_limit=HUMAN_REPLY_LIMIT)


def parse_seats(args) -> list[BotSpec]:
    """Every seat of ``pokerbots run``: bots, and at most one person (``-`` or ``human``)."""
    specs = []
    for arg in args:
        if is_human_arg(arg):
            if any(map(is_human, specs)):
                raise BotSpecError("only one seat can be the terminal ('-' or 'human')")
            specs.append(human_spec())
        else:
            specs.append(parse_bot(arg))
    return specs


def explain(reason: str) -> str:
    """The server's reason for a fault of the human seat, in words for the person."""
    if reason.startswith(f"it exited with code {EXIT_EOF} "):
        return "you ended the input (Ctrl-D) instead of replying, so the round stops here"
    return reason


# -- the relay ----------------------------------------------------------------------------


class Helper:
    """Follows the round from the messages to give hints (never needed to play)."""

    def __init__(self) -> None:
        self.book: Bankrolls | None = None
        self.cards = "?"
        self.players = 0

    def hints(self, message: str) -> list[str]:
        lines = message.rstrip("\n").split("\n")
        kind = lines[0]
        try:
            return self._hints(kind, lines)
        except (ValueError, IndexError, AttributeError, TypeError):
            return []  # a hint is a comfort: never let it get in the way

    def _hints(self, kind: str, lines: list[str]) -> list[str]:
        fields = {}
        for line in lines[1:]:
            key, _, value = line.partition(": ")
            fields.setdefault(key, value)
        if kind == "init_round":
            money = [int(v) for v in fields["Money"].split(",")]
            stack = fields.get("Stack")
            self.book = Bankrolls(money, int(stack) if stack else None,
                                  fields.get("StackMode") == "carry")
            self.players = len(money)
            button = int(fields["Button"])
            where = "you have the button" if button == 0 else f"the button is player {button}"
            return [f"A round of {self.players} players begins; you are player 0, {where}.",
                    "Reply: READY"]
        if kind == "init_hand":
            self.cards = fields["Cards"]
            self.book.init_hand()
            return [f"Hand {fields['Hand']}: you hold {self.cards}.", "Reply: READY"]
        if kind == "play":
            fronts = [int(line.rsplit(" ", 1)[1]) for line in lines
                      if line.startswith("Action: ")]
            pot = int(fields.get("Pot", 0)) + sum(fronts)
            to_call = max(fronts) - fronts[0]
            board = f", board {fields['Board']}" if fields.get("Board", "-") != "-" else ""
            summary = (f"You hold {self.cards}{board}; pot {pot}; you have {fronts[0]} in front;"
                       + (f" {to_call} to call." if to_call else " nothing to call."))
            return [summary, "Reply one of: " + " | ".join(_describe(lines))]
        if kind == "end_hand":
            self.book.end_hand(lines)
            pots = []
            for pot in fields["Pots"].split(" "):
                amount, _, winner = pot.partition(",")
                who = "you" if winner == "0" else f"player {winner}"
                pots.append(f"{who} win{'' if winner == '0' else 's'} {amount}")
            shown = [f"player {i} shows {c}" if i else f"you show {c}"
                     for i, c in enumerate(fields["Showdown"].split(",")) if c != "-"]
            reply = "Reply: OK"
            book = self.book
            if book.carry and book.ends is not None and book.ends[0] < book.stack:
                if book.ends[0] == 0:
                    reply = ("Reply: REBUY (you have no chips; it tops your stack up to"
                             f" {book.stack})")
                else:
                    reply += f" or REBUY (tops your stack up to {book.stack})"
            return ["Hand over: " + "; ".join(shown + [", ".join(pots)]) + ".", reply]
        if kind.startswith("EndAction:"):
            self.book.end_action(lines)
            money = ",".join(map(str, self.book.money))
            return [f"Everyone's bankroll now, you first: {money}.", f"Reply: Money: {money}"]
        if kind == "end_round":
            return [f"The round is over after {fields['NumHands']} hands;"
                    f" bankrolls {fields['Bankrolls']}.", f"Reply: {GOODBYE}"]
        return []


def _describe(lines: list[str]) -> list[str]:
    """Each legal reply, with its meaning in words."""
    fronts = [int(line.rsplit(" ", 1)[1]) for line in lines if line.startswith("Action: ")]
    mine, top = fronts[0], max(fronts)
    out = []
    for choice in legal_choices(lines):
        word, value = choice.split(" ")
        if word == "FOLD":
            out.append(f"{choice} (fold)")
        elif int(value) == top:
            out.append(f"{choice} ({'check' if top == mine else 'call'})")
        else:
            raise_line = next((line for line in lines if line.startswith("Raise: ")), None)
            verb = "bet" if top == mine else "raise"
            if raise_line is not None:
                low, _, high = raise_line.split(" ", 1)[1].partition(",")
                if high and high != low:
                    choice = f"BET {low}..{high}"
            out.append(f"{choice} ({verb})")
    return out


def read_message(fd: int) -> bytes:
    """One message from the server: what is there now, plus what follows within a moment."""
    data = os.read(fd, 65536)
    if not data:
        return b""
    while select.select([fd], [], [], 0.02)[0]:
        more = os.read(fd, 65536)
        if not more:
            break
        data += more
    return data


class LineReader:
    """The person's lines, one at a time (a pipe may deliver several at once)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""

    def line(self) -> bytes | None:
        """The next line, with its newline; None at end of input (Ctrl-D)."""
        while b"\n" not in self.buffer:
            chunk = os.read(self.fd, 4096)
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line + b"\n"


def relay(in_fd: int, out_fd: int, err_fd: int) -> int:
    hints = os.isatty(err_fd)
    helper = Helper()
    person = LineReader(in_fd)
    while True:
        message = read_message(0)
        if not message:
            return 0  # the server closed our input: the round is over
        os.write(out_fd, message)
        if hints:
            lines = helper.hints(message.decode("utf-8", "replace"))
            if lines:
                os.write(err_fd, "".join(f"\x1b[2m  # {t}\x1b[0m\n" for t in lines).encode())
        line = person.line()
        if line is None:
            print("The person at the terminal ended the input (Ctrl-D).", file=sys.stderr)
            if hints:
                os.write(err_fd, b"\n(end of input: you leave the table)\n")
            return EXIT_EOF
        try:
            os.write(1, line)
        except BrokenPipeError:
            return 0
        if message.startswith(b"end_round"):
            return 0


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

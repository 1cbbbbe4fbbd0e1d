"""Errors are data: one immutable value for everything a bot can do wrong, and one for the
server itself failing (:class:`ServerFault`); and the one table of exit codes (:class:`Exit`)
that every command and every worker process of the service exits with.

A :class:`BotFault` is made once, where every fact about it is known (the referee makes every
fault, also those the process layer finds: see :meth:`.referee.referee.Referee.fault`), and
is never changed afterwards. The command line turns it into one paragraph and exit code 1.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from enum import IntEnum

#: The most characters of a bot's reply that an error quotes.
QUOTE = 200
#: The first words of every reply of the protocol (in capitals), to tell replies from prose.
REPLY_WORDS = ("READY", "OK", "REBUY", "BET", "FOLD", "PASS", "MONEY:", "THANK")
DEBUG_HINT = "if that line is debug output, write it to stderr: stdout is for replies only"
#: How the seat of the person at the terminal is named (``pokerbots run BOT -``): a person
#: types what they mean, so their faults get no hint about a program's debug output.
PERSON = "you, at the terminal"


#: What a terminal would obey rather than show: the C0 and C1 control characters but the
#: newline and the tab, DEL, and the marks that reorder text (bidirectional overrides). A
#: pattern's text: ``re`` compiles it when a bot's text is first shown, not at every start.
_CONTROL = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]"


def printable(text: str) -> str:
    """A bot's text, safe to print on a person's terminal: every control character but the
    newline and the tab shown as its escape (ESC as the four characters ``\\x1b``, a bidi
    override as ``\\u202e``), so that what a bot wrote can neither move the cursor, recolour,
    retitle nor clear the terminal, nor reorder what it shows. Everything that prints a bot's
    replies or stderr to a terminal passes it through here."""
    return re.sub(_CONTROL, _escape, text)


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def stderr_section(lines: list[str]) -> str:
    """The part of a fault's report that quotes the bot's stderr (its excerpt, see
    :func:`pokerbots.server.logs.folder.stderr_excerpt`); '' when it wrote nothing."""
    if not lines:
        return ""
    return "Last lines of its stderr:\n" + "\n".join("    " + printable(t) for t in lines)


def reproduce_note(person: bool = False) -> str:
    """What a ``Reproduce:`` line is followed by, once: the seed deals the same cards and
    gives each bot the same ``POKERBOTS_SEED``, but the server cannot see whether a bot draws
    from it (nor, with ``person``, what a person will type)."""
    note = ("The same seed deals the same cards and gives each bot the same POKERBOTS_SEED;"
            " bots that draw their own random numbers replay the same only if they seed them"
            " from POKERBOTS_SEED.")
    if person:
        note += " A person replays the same only by typing the same replies."
    return f"({note})"


@dataclass(frozen=True, slots=True)
class BotFault(Exception):
    """A bot broke the rules or the protocol; the round ends at once (fail fast).

    Carries everything a person needs to act on it: which seat and bot, in which hand, the kind
    of message and the message the server sent, the reply it got back (``None`` when nothing
    came), what would have been legal, and why the reply was refused.
    """

    seat: int
    reason: str
    bot: str | None = None
    hand: int | None = None
    kind: str | None = None
    sent: str | None = None
    received: bytes | None = None
    legal: str | None = None
    #: The seat could not give its reply (it exited, closed its output, went silent, sent too
    #: long a line...), rather than the referee refusing one: only such a fault of a person's
    #: seat can be the person leaving the table.
    seat_failure: bool = False

    def __str__(self) -> str:
        return self.paragraph()

    def __reduce__(self):
        return (_rebuild, (asdict(self),))

    def paragraph(self, logs: str | None = None) -> str:
        """The whole story in one paragraph, as the CLI prints it."""
        who = f"seat {self.seat}" + (f" ({self.bot})" if self.bot else "")
        where = "before the first hand" if self.hand is None else f"in hand {self.hand}"
        parts = [f"Bot at {who} failed {where}: {self.reason}."]
        if self.sent is not None:
            parts.append(f"The server sent:\n{_indent(self.sent)}")
        if self.received is not None:
            parts.append(f"The bot replied: {self.received_text()}")
            if self.hint():
                parts.append(f"Hint: {self.hint()}.")
        elif self.sent is not None:
            parts.append("The bot sent no reply.")
        if self.legal:
            parts.append(f"Legal replies were: {self.legal}.")
        if logs:
            parts.append(f"Logs: {logs}")
        return printable("\n".join(parts))

    def received_text(self) -> str | None:
        """The reply quoted for a person (at most QUOTE characters). Bytes that are not UTF-8
        are called that and shown as backslash escapes (``"\\xff\\xfe"``), quoted as they are."""
        if self.received is None:
            return None
        try:
            text = self.received.decode("utf-8")
        except UnicodeDecodeError:
            text = self.received.decode("utf-8", "backslashreplace")
            more = f" (the first {QUOTE} of {len(text)} characters)" if len(text) > QUOTE else ""
            return (f'"{text[:QUOTE]}"{more}, bytes that are not UTF-8 text (shown here as'
                    " backslash escapes; the protocol's lines are UTF-8)")
        if len(text) > QUOTE:
            return repr(text[:QUOTE]) + f" (the first {QUOTE} of {len(text)} characters)"
        return repr(text)

    def received_json(self) -> str | None:
        """The reply as the text received, for JSON (at most QUOTE characters)."""
        if self.received is None:
            return None
        return self.received.decode("utf-8", "backslashreplace")[:QUOTE]

    def hint(self) -> str | None:
        """What probably went wrong, when the reply says more than the reason does: a line of
        prose where a reply was due is most likely a debug print on stdout."""
        if not self.received or self.bot == PERSON:
            return None
        text = self.received.decode("utf-8", "replace").strip()
        first = text.split(" ", 1)[0].upper()
        if any(c.islower() for c in text) and first not in REPLY_WORDS:
            return DEBUG_HINT
        return None

    def as_dict(self) -> dict:
        return {
            "seat": self.seat,
            "bot": self.bot,
            "hand": self.hand,
            "reason": self.reason,
            "sent": self.sent,
            "received": self.received_json(),
            "received_length": (None if self.received is None else
                                len(self.received.decode("utf-8", "backslashreplace"))),
            "legal": self.legal,
            "hint": self.hint(),
        }


def _rebuild(fields: dict) -> BotFault:
    return BotFault(**fields)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip("\n").split("\n"))


@dataclass(frozen=True, slots=True)
class ServerFault(Exception):
    """The server itself could not go on (exit code 3): the disk is full, the log folder was
    removed, or a bug. No bot is to blame; the bots are ended and every hand completed before
    is kept (the files end with the last complete hand).

    ``doing`` says what the server was doing (``writing logs/x/hands.jsonl``), ``error`` the
    operating system's error or the exception, ``advice`` what to do about it.
    """

    doing: str
    error: str
    path: str | None = None
    advice: str = ""

    def __str__(self) -> str:
        return self.paragraph()

    def paragraph(self, logs: str | None = None, hands: int | None = None) -> str:
        """The whole story in one paragraph, as the CLI prints it."""
        parts = [f"The server could not go on while {self.doing}: {self.error}.",
                 "No bot broke a rule; the bots were ended."]
        if logs is not None:
            parts.append(f"Logs: {logs}" if hands is None else
                         f"The {hands} hands completed before are kept in {logs}.")
        if self.advice:
            parts.append(self.advice)
        return " ".join(parts)

    def as_dict(self) -> dict:
        return {"doing": self.doing, "error": self.error, "path": self.path,
                "advice": self.advice}


@dataclass(frozen=True)
class Refusal(Exception):
    """A library refusing what it was asked (a tournament, the service): ``usage``, the request
    itself is wrong (nothing was played: exit 2) and ``option`` names the option to change when
    one is at fault; otherwise the server cannot go on (exit 3). ``message`` says what a person
    does about it."""

    message: str
    usage: bool = False
    option: str | None = None

    def __str__(self) -> str:
        return self.message

    def __reduce__(self):
        return (type(self), (self.message, self.usage, self.option))


# -- exit codes ------------------------------------------------------------------------------


class Exit(IntEnum):
    """How every pokerbots process ends: the commands, and the service's workers (a
    tournament, a smoke test), whose codes the scheduler reads."""

    #: The match, smoke run, tournament or service completed (bots breaking rules in a
    #: tournament is a result).
    DONE = 0
    #: A bot broke a rule (``run``, ``smoke``).
    FAULT = 1
    #: The command line was wrong; nothing was started.
    USAGE = 2
    #: The server itself could not go on (disk, store, cluster, an opponent that is a bug).
    SERVER = 3
    #: Ctrl-C: the bots are ended and the logs written.
    INTERRUPTED = 130
    #: SIGTERM: as for Ctrl-C.
    TERMINATED = 143


#: The codes that say a process was stopped, not that it failed.
STOPPED = (Exit.INTERRUPTED, Exit.TERMINATED)

"""Errors are data: one exception type for everything a bot can do wrong."""

from __future__ import annotations


class BotFault(Exception):
    """A bot broke the rules or the protocol; the round ends at once (fail fast).

    Carries everything a person needs to act on it: which seat and bot, in which hand, the
    message the server sent, the reply it got back (``None`` when nothing came), what would have
    been legal, and why the reply was refused.
    """

    def __init__(
        self,
        seat: int,
        reason: str,
        *,
        hand: int | None = None,
        sent: str | None = None,
        received: bytes | None = None,
        legal: str | None = None,
        bot: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.seat = seat
        self.reason = reason
        self.hand = hand
        self.sent = sent
        self.received = received
        self.legal = legal
        self.bot = bot
        #: The message kind the fault answered (``play``, ``end_hand``...), when known.
        self.kind: str | None = None

    def __str__(self) -> str:
        return self.paragraph()

    def paragraph(self, logs: str | None = None) -> str:
        """The whole story in one paragraph, as the CLI prints it."""
        who = f"seat {self.seat}" + (f" ({self.bot})" if self.bot else "")
        where = "before the first hand" if self.hand is None else f"in hand {self.hand}"
        parts = [f"Bot at {who} failed {where}: {self.reason}."]
        if self.sent is not None:
            parts.append(f"The server sent:\n{_indent(self.sent)}")
        if self.received is not None:
            parts.append(f"The bot replied: {self.received_text()}")
        elif self.sent is not None:
            parts.append("The bot sent no reply.")
        if self.legal:
            parts.append(f"Legal replies were: {self.legal}.")
        if logs:
            parts.append(f"Logs: {logs}")
        return "\n".join(parts)

    def received_text(self) -> str | None:
        """The reply as printable text (undecodable bytes escaped)."""
        if self.received is None:
            return None
        return repr(self.received.decode("utf-8", "backslashreplace"))

    def as_dict(self) -> dict:
        return {
            "seat": self.seat,
            "bot": self.bot,
            "hand": self.hand,
            "reason": self.reason,
            "sent": self.sent,
            "received": self.received_text(),
            "legal": self.legal,
        }


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip("\n").split("\n"))

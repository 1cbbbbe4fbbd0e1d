"""The limits every bot of a match plays under: :class:`Limits`.

The reply clock's limits (start-up, each reply, the time bank) and how each bot is confined
(:class:`~pokerbots.server.confine.limits.ResourceLimits`, the sandbox, its stderr's cap).
:mod:`.runner` enforces them; the commands and the tournament's director build them from their
options (:mod:`pokerbots.server.play.options`) without importing the trio layer. Each limit a
command offers is declared once, on its field: its default there, its flag, help text and unit
in the field's metadata (:func:`~pokerbots.server.confine.limits.offered`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pokerbots.server.confine.limits import ResourceLimits, offered


@dataclass
class Limits:
    """Time limits (seconds) and how bots are confined."""

    #: From start-up until the reply to ``init_round``.
    startup: float = field(default=10.0, metadata=offered(
        "--startup-timeout", "Seconds a bot has to start and answer init_round.",
        above_zero=True))
    #: For every other reply.
    reply: float = field(default=5.0, metadata=offered(
        "--reply-timeout", "Seconds a bot has for each reply.", above_zero=True))
    #: Each bot's time bank for the round (the MIT engine's game clock): the total time it may
    #: spend on its replies after ``init_round``. None: no bank.
    time_bank: float | None = field(default=30.0, metadata=offered(
        "--time-bank", "Seconds each bot may spend on all its replies in a round, besides"
        " --time-per-hand; 0: no bank.", zero_is_none=True))
    #: Seconds added to every bank at the start of each hand (so long rounds stay playable).
    time_per_hand: float = field(default=0.05, metadata=offered(
        "--time-per-hand", "Seconds added to each bot's time bank at every hand."))
    #: Operating-system limits per bot.
    resources: ResourceLimits = field(default_factory=ResourceLimits)
    #: Bytes of a bot's stderr kept in its log file; the rest is counted and dropped.
    stderr_cap: int = field(default=1 << 20, metadata=offered(
        "--stderr-cap", "KiB of each bot's stderr kept in its log file.", metavar="KIB",
        per_unit=1024))
    #: Run every bot under bubblewrap's full sandbox.
    sandbox: bool = field(default=False, metadata=offered(
        "--sandbox", "Run every bot under bubblewrap: no network, read-only system, a copy of"
        " its own folder, its own scratch folder and process namespace."))
    #: Give every bot a PID namespace of its own where the machine allows it (sandbox.py).
    isolate: bool = True

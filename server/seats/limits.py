"""The limits every bot of a match plays under: :class:`Limits`.

The reply clock's limits (start-up, each reply, the time bank) and how each bot is confined
(:class:`~pokerbots.server.confine.limits.ResourceLimits`, the sandbox, its stderr's cap).
:mod:`.runner` enforces them; the commands and the tournament's director build them from their
options (:mod:`pokerbots.server.play.options`) without importing the trio layer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pokerbots.server.confine.limits import ResourceLimits


@dataclass
class Limits:
    """Time limits (seconds) and how bots are confined."""

    #: From start-up until the reply to ``init_round``.
    startup: float = 10.0
    #: For every other reply.
    reply: float = 5.0
    #: Each bot's time bank for the round (the MIT engine's game clock): the total time it may
    #: spend on its replies after ``init_round``. None: no bank.
    time_bank: float | None = 30.0
    #: Seconds added to every bank at the start of each hand (so long rounds stay playable).
    time_per_hand: float = 0.05
    #: Operating-system limits per bot.
    resources: ResourceLimits = field(default_factory=ResourceLimits)
    #: Run every bot under bubblewrap's full sandbox.
    sandbox: bool = False
    #: Give every bot a PID namespace of its own where the machine allows it (sandbox.py).
    isolate: bool = True
    #: Bytes of a bot's stderr kept in its log file; the rest is counted and dropped.
    stderr_cap: int = 1 << 20

"""The exit codes of every pokerbots process, in one table.

The commands (server/cli/) exit with them, and the service's worker processes (a tournament,
a smoke test: :mod:`.tournaments`, :mod:`.quarantine`) exit with them too, their exit code
read by the scheduler. That is why the table lives here, in the lowest layer that runs or reads
a process, rather than in cli/, which the service may not import.
"""

from __future__ import annotations

from enum import IntEnum


class Exit(IntEnum):
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

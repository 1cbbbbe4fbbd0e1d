"""What the site keeps between requests: pages as rendered, and the team of each token, for as
long as the store does not change.

The store changes when a tournament, a match, a version or a team changes, and it is written
by other connections than the site's: the scheduler's, in this process, and the command line's
(``pokerbots team add`` and ``revoke``) in others. :class:`Generation` tells when any of them
committed: SQLite's ``PRAGMA data_version``, read on one long-lived read-only connection,
changes whenever another connection commits (a few microseconds: no query, no file opened).
Each change is a new *generation*, and everything kept for an older one is made again.

:class:`Kept` keeps values made in a worker thread, per key, for the generation they were made
in: the first request for a key makes its value, those that come meanwhile wait for it, and
the next ones answer from memory, on the event loop, without a thread. A value its maker says
may change without the store changing (a match still being played: its files grow) is not
kept, and not shared: each request for it makes its own. Keys are bounded in number and kept
values in bytes, the least recently used going first, so that no visitor can fill the memory
with addresses.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import anyio

#: Seconds the generation's connection may wait for a lock before the store is taken as
#: changed (nothing kept is used then): it is read on the event loop.
_BUSY_SECONDS = 0.2


class Generation:
    """The generation of the store at ``path``: a number that grows whenever another
    connection (any process) commits a change. Thread-safe; an unreadable store is a new
    generation at every call (nothing kept is used)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._seen: int | None = None
        self._count = 0
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            try:
                if self._db is None:
                    self._db = sqlite3.connect(
                        f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                        timeout=_BUSY_SECONDS, isolation_level=None, check_same_thread=False)
                version = self._db.execute("PRAGMA data_version").fetchone()[0]
            except sqlite3.Error:
                self._close()
                version = None
            if version is None or version != self._seen:
                self._seen = version
                self._count += 1
            return self._count

    def _close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def close(self) -> None:
        with self._lock:
            self._close()


class _Making:
    """A value being made: those who wait for it, and what it came to."""

    def __init__(self, generation: int) -> None:
        self.generation = generation
        self.done = anyio.Event()
        self.value: Any = None
        self.shared = False


#: Kept for a key whose value may change within its generation: made for every request.
_VOLATILE = object()


class Kept:
    """Values per key and generation, made by a function run in a worker thread.

    ``size(value)``: the bytes a value takes; at most ``entries`` keys and ``budget`` bytes
    are kept, and no value larger than an eighth of the budget. Used from the event loop
    only (it is not thread-safe)."""

    def __init__(self, entries: int, budget: int = 1 << 62,
                 size: Callable[[Any], int] = lambda value: 0) -> None:
        self.entries = entries
        self.budget = budget
        self.size = size
        self._kept: OrderedDict[Hashable, tuple[int, Any, int]] = OrderedDict()
        self._bytes = 0
        self._making: dict[Hashable, _Making] = {}

    def __len__(self) -> int:
        return len(self._kept)

    async def get(self, key: Hashable, generation: int,
                  make: Callable[[], tuple[Any, bool]]) -> Any:
        """The value of ``key`` in ``generation``: kept, or made by ``make()`` in a worker
        thread, which returns ``(value, keep)``: ``keep`` False if the value may change while
        the store does not (then it is made again for every request)."""
        found = self._kept.get(key)
        if found is not None and found[0] == generation:
            if found[1] is _VOLATILE:
                return (await anyio.to_thread.run_sync(make))[0]
            self._kept.move_to_end(key)
            return found[1]
        making = self._making.get(key)
        if making is not None and making.generation == generation:
            await making.done.wait()
            if making.shared:
                return making.value
            return (await anyio.to_thread.run_sync(make))[0]
        making = _Making(generation)
        self._making[key] = making
        try:
            value, keep = await anyio.to_thread.run_sync(make)
            making.value, making.shared = value, keep
            self._put(key, generation, value if keep else _VOLATILE)
            return value
        finally:
            if self._making.get(key) is making:
                del self._making[key]
            making.done.set()

    def _put(self, key: Hashable, generation: int, value: Any) -> None:
        old = self._kept.get(key)
        if old is not None:
            if old[0] > generation:  # made for an older store than the one kept: drop it
                return
            self._bytes -= old[2]
            del self._kept[key]
        size = 0 if value is _VOLATILE else self.size(value)
        if size > self.budget // 8:
            return
        self._kept[key] = (generation, value, size)
        self._bytes += size
        while len(self._kept) > self.entries or self._bytes > self.budget:
            _, (_, _, dropped) = self._kept.popitem(last=False)
            self._bytes -= dropped

"""The one bounded memo: a table of values worked out before, with one rule for when it is full.

Every module-level table that keeps what was worked out once, for the next time the same key
comes (a line read before, a text made before, a Legal answer met before), is a :class:`Memo`.
Each holds at most ``bound`` entries, and its one eviction rule is: **a table that is full
starts again empty**. That rule costs nothing on a hit (a least-recently-used order would move
an entry at every look-up, on the per-message path) and little on a miss (one ``clear`` per
``bound`` new keys); the values kept recur from hand to hand, so a table emptied fills again
with the few that matter within a hand or two. The bound is what keeps a bot that sends a new
line every time, or a long match, from growing the server's memory: every key a table sees
can come from outside.

Each table is named where it is made, with its bound and why; the performance page lists what
each saves (``docs/performance.md``, "The caches"), measured by turning it off:
``POKERBOTS_MEMO_OFF=name,name`` (or ``all``) in the environment makes those tables keep
nothing, for that measurement only.
"""

from __future__ import annotations

import os
from typing import Final, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

#: Every table made so far, by name (the performance page lists each; a test checks it).
TABLES: Final[dict[str, Memo]] = {}

_OFF: Final = frozenset(os.environ.get("POKERBOTS_MEMO_OFF", "").replace(" ", "").split(","))


class Memo(Generic[K, V]):
    """A table of values by key, holding at most ``bound`` entries: when one more would not
    fit, the table starts again empty. ``name`` names it in :data:`TABLES` (a module loaded
    again replaces its tables there)."""

    __slots__ = ("name", "bound", "_table")

    def __init__(self, name: str, bound: int) -> None:
        self.name = name
        self.bound = 0 if name in _OFF or "all" in _OFF else bound
        self._table: dict[K, V] = {}
        TABLES[name] = self

    def get(self, key: K) -> V | None:
        """The value kept for ``key``, or None."""
        return self._table.get(key)

    def keep(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` (emptying the table first when it is full); return it."""
        table = self._table
        if len(table) >= self.bound:
            if not self.bound:
                return value
            table.clear()
        table[key] = value
        return value

    def __len__(self) -> int:
        return len(self._table)

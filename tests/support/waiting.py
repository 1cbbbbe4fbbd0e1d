"""Waiting for something to happen, the one way the tests do it.

A test synchronises on events (a line on a pipe, a file written, a process gone), never on a
sleep that a busy machine outlasts. Where the event can only be looked at, :func:`wait_for`
looks until it has happened, and fails naming what it waited for.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_for(what: str, check: Callable[[], T], timeout: float = 30.0, *,
             every: float = 0.05, detail: Callable[[], str] | None = None) -> T:
    """Call ``check()`` every ``every`` seconds until it returns something true, and return
    that. After ``timeout`` seconds, fail with an AssertionError saying what was waited for
    (``what``: "the first hand logged") and ``detail()`` (a log, say). ``check`` may itself
    raise to stop the wait early (the process it waits on has exited)."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() >= deadline:
            more = f":\n{detail()}" if detail is not None else ""
            raise AssertionError(f"waited {timeout:g} s for {what}, in vain{more}")
        time.sleep(every)

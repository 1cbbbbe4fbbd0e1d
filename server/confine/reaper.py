"""Finding and ending every process a bot started, including ones that left its process group.

A bot runs in its own process group, and ``killpg`` ends the group at once. A descendant that
calls ``setsid`` leaves the group; to keep hold of it the server makes itself a *child
subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``), so orphans are re-parented to the server instead
of to init. At the end of a round the server walks ``/proc``: every process whose parent chain
leads to a bot, and every orphan re-parented to the server during the round that carries the
match's environment token (or no token: a cleared environment), is killed and reaped.

The walk reads only the processes below the server, through the kernel's lists of children
(``/proc/PID/task/TID/children``), not the whole of ``/proc``: on a busy machine that held
hundreds of processes, and the walks of each match (three at its start and end) cost about 10 ms
of CPU, a sixth of what a short tournament match costs besides its hands.
"""

from __future__ import annotations

import ctypes
import os
import signal
import time

PR_SET_CHILD_SUBREAPER = 36
PR_GET_CHILD_SUBREAPER = 37
TOKEN_VAR = "POKERBOTS_MATCH"

_libc = None


def _prctl(option: int, arg: int) -> int:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc.prctl(option, arg, 0, 0, 0)


def set_subreaper(on: bool) -> bool:
    """Make this process a child subreaper (or stop); returns the previous setting."""
    try:
        value = ctypes.c_int(0)
        _libc_ok = _prctl(PR_GET_CHILD_SUBREAPER, ctypes.addressof(value)) == 0
        before = bool(value.value) if _libc_ok else False
        _prctl(PR_SET_CHILD_SUBREAPER, 1 if on else 0)
        return before
    except (OSError, AttributeError):
        return False


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (of any of its threads); [] when it is gone."""
    found: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                found.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return found


def children_of(pid: int) -> set[int]:
    return set(children(pid))


def _stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state letter) of ``pid``, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    # The command name may hold spaces and parentheses: split after the last ')'.
    rest = stat[stat.rfind(b")") + 2:].split()
    try:
        return int(rest[1]), rest[0].decode()
    except (IndexError, ValueError):
        return None


def _running(pid: int) -> bool:
    """Whether ``pid`` is there and not a zombie."""
    stat = _stat(pid)
    return stat is not None and stat[1] != "Z"


def _token_of(pid: int) -> str | None:
    """The match token in a process's environment; '' when it has none or cannot be read."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = f.read()
    except OSError:
        return ""
    key = TOKEN_VAR.encode() + b"="
    for item in env.split(b"\0"):
        if item.startswith(key):
            return item[len(key):].decode("ascii", "replace")
    return ""


def strays(bot_pids: set[int], token: str, before: set[int]) -> tuple[set[int], set[int]]:
    """(living, zombie) processes that belong to the bots, besides the bots themselves."""
    me = os.getpid()
    roots = set(bot_pids)
    for pid in children(me):
        if pid not in bot_pids and pid not in before:
            # An orphan re-parented to the server, or a child the server started elsewhere.
            found = _token_of(pid)
            if found == token or found == "":
                roots.add(pid)
    # Everything below the roots.
    ours: set[int] = set()
    stack = list(roots)
    while stack:
        for child in children(stack.pop()):
            if child not in ours:
                ours.add(child)
                stack.append(child)
    ours |= roots - set(bot_pids)
    table = {pid: stat for pid in ours if (stat := _stat(pid)) is not None}
    living = {p for p, (_, state) in table.items() if state != "Z"}
    zombies = {p for p, (_, state) in table.items() if state == "Z"}
    return living, zombies


def end_strays(bot_pids: set[int], token: str, before: set[int], rounds: int = 100) -> int:
    """Kill every stray until none is left (a fork race may need a few passes); reap them."""
    me = os.getpid()
    killed = 0
    # The bots were just killed: their children are re-parented to the server only once the
    # bots are dead, and a walk before that would miss them.
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline and any(_running(pid) for pid in bot_pids):
        time.sleep(0.001)
    pause = 0.0005
    for _ in range(rounds):
        living, zombies = strays(bot_pids, token, before)
        for pid in zombies:
            _reap(pid)
        if not living:
            # A killed grandchild whose parent is still dying is a zombie that the kernel
            # re-parents to us a moment later; wait for that, or it outlives the round unreaped.
            # Every match reaps some (bubblewrap's own processes): the first look comes soon,
            # since each match paid the whole 5 ms of a fixed pause.
            if not zombies:
                break
            time.sleep(pause)
            pause = min(2 * pause, 0.005)
            continue
        for pid in living:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except (ProcessLookupError, PermissionError):
                pass
        # Reap the ones that were re-parented to us (others are reaped by their own parents).
        for pid in living:
            stat = _stat(pid)
            if stat is not None and stat[0] == me:
                _reap(pid, wait=True)
    return killed


def _reap(pid: int, wait: bool = False) -> None:
    """Collect a dead child's status; with ``wait``, give a killed one up to a second to die."""
    for _ in range(200 if wait else 1):
        try:
            done, _status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return
        if done or not wait:
            return
        time.sleep(0.005)

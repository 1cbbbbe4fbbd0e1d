#!/usr/bin/env python3
"""A Kuhn or Hold'em bot that plays check/call legally and, at its start, searches everything
it can see for what would let it cheat.

    snoop.py [--files N] [--seconds S]

It walks ``/`` breadth first (skipping ``/proc``, ``/sys`` and ``/dev``), the likely places
first (its working folder, ``/tmp``, ``/root``, ``/home``, ``/work``, ``/srv``, ``/var``,
``/opt``, ``/mnt``, then the rest, ``/usr`` last), at most N files (20,000) and S seconds (3),
reads the start of every regular file and reports on its stderr (kept by the
server as ``seatN.stderr``), one line each:

    CANARY <path>        a file holding a planted token (POKERBOTS-CANARY-<32 hex digits>)
    FILE <path>          a results store (*.sqlite), a hand record (hands.jsonl) or a seat's
                         transcript (seat*.in): the seeds, the seatings and the cards
    SEED <path> <seed>   the seed a results store recorded (readable with sqlite3)
    SCANNED <files> files <folders> folders in <seconds> s

Before that, what names places of the host without being a file it walks, one line each:

    SEES cmdline1 <text>     /proc/1/cmdline (the sandbox's first process: bubblewrap)
    SEES environ1 <text>     /proc/1/environ
    SEES cmdline <text>      its own command line (/proc/self/cmdline)
    SEES mount <line>        each line of /proc/self/mountinfo
    SEES env <NAME=value>    each variable of its environment
    SEES cwd <path>          its working folder

and each hand ``GUESS hand <n>: <cards>``, its guess of the opponents' hole cards: read from a
hand record it found (a duplicate sibling's hands.jsonl deals the same cards), else at random
(``random``). The tests plant canaries where a bot must not look and read this report.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import sys
import time

from pokerbots.protocol.client import Client

parser = argparse.ArgumentParser()
parser.add_argument("--files", type=int, default=20_000)
parser.add_argument("--seconds", type=float, default=3.0)
args = parser.parse_args()

CANARY = re.compile(rb"POKERBOTS-CANARY-[0-9a-f]{32}")
SKIP = {"/proc", "/sys", "/dev"}
READ = 1 << 16  # the start of each file
FIRST = ["/tmp", "/root", "/home", "/work", "/srv", "/var", "/opt", "/mnt", "/"]


def report(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def proc_text(path: str) -> str:
    """A /proc file with its NUL separators as spaces ("(unreadable: ...)" if it is not)."""
    try:
        with open(path, "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "backslashreplace").strip()
    except OSError as exc:
        return f"(unreadable: {exc.strerror})"


def sights() -> None:
    """Report what names places without being a file: the sandbox's first process, its own
    command line, its mount table, environment and working folder."""
    report(f"SEES cmdline1 {proc_text('/proc/1/cmdline')}")
    report(f"SEES environ1 {proc_text('/proc/1/environ')}")
    report(f"SEES cmdline {proc_text('/proc/self/cmdline')}")
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="backslashreplace") as f:
            for line in f:
                report(f"SEES mount {line.rstrip()}")
    except OSError as exc:
        report(f"SEES mount (unreadable: {exc.strerror})")
    for key, value in sorted(os.environ.items()):
        report(f"SEES env {key}={value}")
    report(f"SEES cwd {os.getcwd()}")


def interesting(name: str) -> bool:
    return (name.endswith(".sqlite") or name == "hands.jsonl"
            or (name.startswith("seat") and name.endswith(".in")))


def seed_of(path: str) -> str | None:
    try:
        import sqlite3
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.2)
        try:
            for table, in db.execute("SELECT name FROM sqlite_master WHERE type='table'"):
                columns = [c[1] for c in db.execute(f"PRAGMA table_info({table})")]
                if "seed" in columns:
                    row = db.execute(f"SELECT seed FROM {table} LIMIT 1").fetchone()
                    if row:
                        return str(row[0])
                if {"key", "value"} <= set(columns):
                    row = db.execute(f"SELECT value FROM {table} WHERE key='seed'").fetchone()
                    if row:
                        return str(row[0])
        finally:
            db.close()
    except Exception:  # noqa: BLE001 - a snoop takes what it can
        return None
    return None


#: hand number -> the cards of every seat, from the hand records found.
known: dict[int, list] = {}


def learn(path: str) -> None:
    try:
        with open(path, "rb") as f:
            for line in f.read(READ).splitlines():
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if isinstance(record, dict) and "hand" in record and "cards" in record:
                    known.setdefault(record["hand"], record["cards"])
    except OSError:
        pass


def search() -> None:
    started = time.monotonic()
    files = folders = 0
    roots = [os.getcwd(), *FIRST, "/usr"]
    queue: collections.deque[str] = collections.deque()
    seen: set[str] = set()
    while (roots or queue) and files < args.files and time.monotonic() - started < args.seconds:
        if not queue:
            queue.append(roots.pop(0))
        folder = queue.popleft()
        if folder in seen or (folder == "/usr" and roots):
            continue
        seen.add(folder)
        folders += 1
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if files >= args.files or time.monotonic() - started >= args.seconds:
                break
            path = entry.path
            try:
                if entry.is_dir(follow_symlinks=False):
                    if path not in SKIP and path not in seen:
                        queue.append(path)
                    continue
                if not entry.is_file(follow_symlinks=False):
                    continue
            except OSError:
                continue
            files += 1
            if interesting(entry.name):
                report(f"FILE {path}")
                if entry.name.endswith(".sqlite"):
                    seed = seed_of(path)
                    if seed is not None:
                        report(f"SEED {path} {seed}")
                if entry.name == "hands.jsonl":
                    learn(path)
            try:
                with open(path, "rb") as f:
                    head = f.read(READ)
            except OSError:
                continue
            if CANARY.search(head):
                report(f"CANARY {path}")
    report(f"SCANNED {files} files {folders} folders in {time.monotonic() - started:.2f} s")


def decide(state) -> str:
    cards = known.get(state.hand)
    if cards is not None:
        guess = " ".join(str(c) for c in cards)
    else:
        deck = ["J", "Q", "K"] if len(state.cards) == 1 else ["?"]
        guess = f"random {random.choice(deck)}"
    report(f"GUESS hand {state.hand}: {guess}")
    return state.check_or_call()


sights()
search()
client = Client(decide, check=False)
for line in sys.stdin.buffer:
    reply = client.feed(line)
    if reply is None:
        continue
    sys.stdout.buffer.write(reply + b"\n")
    sys.stdout.buffer.flush()
    if client.done:
        break

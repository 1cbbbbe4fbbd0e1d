"""A match's log folder: the names of its files, and the one reader of them.

:mod:`.writer` writes a match folder while the match is played; everything that reads one
afterwards (``pokerbots show`` and ``export``, ``logs prune``, a tournament, the web site) goes
through :class:`MatchFolder`, so the names of the files and how a half-written one is read are
known here only.

``hands.txt``       readable hand history
``hands.jsonl``     one JSON object per hand (cards, actions, pots, bankrolls)
``seatN.in``        the exact bytes sent to seat N: ``./mybot < seatN.in`` replays what it saw
``seatN.stderr``    what seat N wrote to stderr
``summary.json``    the match: bots, options, result or error
``timing.json``     wall-clock figures (the only file that differs between identical runs)
"""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path

__all__ = ["FILE_NAME", "HANDS", "HISTORY", "LISTED", "LogFolderError", "MatchFolder",
           "SUMMARY", "TIMING", "stderr_excerpt", "stderr_name", "tail", "transcript_name"]

HANDS = "hands.jsonl"
HISTORY = "hands.txt"
SUMMARY = "summary.json"
TIMING = "timing.json"
#: The files a match folder holds besides the seats' own, in the order a reader wants them.
LISTED = (HISTORY, HANDS, SUMMARY, TIMING)
#: Every name a file of a match folder may have (at most 100 seats).
FILE_NAME = re.compile(r"hands\.txt|hands\.jsonl|summary\.json|timing\.json"
                       r"|seat\d{1,2}\.in|seat\d{1,2}\.stderr")


def transcript_name(seat: int) -> str:
    """The file of everything seat ``seat`` was sent."""
    return f"seat{seat}.in"


def stderr_name(seat: int) -> str:
    """The file of what seat ``seat`` wrote to its stderr."""
    return f"seat{seat}.stderr"


class LogFolderError(Exception):
    """A folder that is not a readable match folder; the message says what a person should
    give instead."""


def tail(path: str | os.PathLike, lines: int = 10, max_bytes: int = 4096) -> str:
    """The last ``lines`` lines of a text file, read from its last ``max_bytes`` bytes only (a
    bot's stderr may be large); "" when there is no such file."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - max_bytes))
            data = f.read()
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            return ""
        raise
    return "\n".join(data.decode("utf-8", "backslashreplace").splitlines()[-lines:])


#: The lines of a crash report that say what went wrong, whatever follows them (a backtrace,
#: the logs of other threads): a Rust panic, a Java or JavaScript exception (followed by its
#: ``at`` frames), a Go panic, an uncaught C++ exception, a failed C assertion, a sanitizer's
#: report. A Python traceback's exception line is found by :func:`_causes` itself. (Patterns'
#: texts: ``re`` compiles them when a fault is first reported, not at every start.)
_CAUSE = (r"thread '[^']*' panicked at |Exception in thread |Caused by: |panic: |fatal error: "
          r"|terminate called after throwing|==\d+==ERROR: |.*: Assertion .* failed\.$")
#: A line that carries a cause on: a Rust panic's message, a C++ exception's what().
_CAUSE_GOES_ON = r"thread '[^']*' panicked at .*:$|terminate called after throwing"
#: A line of an exception's stack, in Java (a tab) and JavaScript (four spaces).
_FRAME = r"(\t|    )at "
_EXCEPTION = r"([\w$]+\.)*[\w$]*(Error|Exception)\b"
#: How many lines of crash report an excerpt keeps at most, and how long a line it shows.
_CAUSE_LINES = 4
_LINE_CHARS = 1000


def stderr_excerpt(path: str | os.PathLike, lines: int = 10, max_bytes: int = 4096,
                   scan_bytes: int = 1 << 20) -> list[str]:
    """What a fault's report quotes of a bot's stderr (the file ``path``): its last ``lines``
    lines (at most ``max_bytes`` of them), and before those, when they came earlier, the lines
    that say what went wrong (a panic, an exception: :data:`_CAUSE`), with a line saying how
    many lines between were left out. So a panic followed by a long backtrace is still named.
    The lines are as written (not escaped: see :func:`pokerbots.server.errors.printable`);
    [] when the file is empty or missing. The last ``scan_bytes`` of the file are read."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            start = max(0, f.tell() - scan_bytes)
            f.seek(start)
            data = f.read()
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            return []
        raise
    text = data.decode("utf-8", "backslashreplace")
    every = [line.removesuffix("\r") for line in text.split("\n")]
    if every and every[-1] == "":
        every.pop()
    if start and len(every) > 1:
        every.pop(0)  # it began before the part read
    first = max(0, len(every) - lines)
    size = 0
    for i in range(len(every) - 1, first - 1, -1):  # the last lines, within max_bytes
        size += len(every[i]) + 1
        if size > max_bytes and i < len(every) - 1:
            first = i + 1
            break
    kept = sorted({i for i in _causes(every) if i < first})[-_CAUSE_LINES:]
    out: list[str] = []
    for n, i in enumerate(kept):
        out.append(_clip(every[i]))
        following = kept[n + 1] if n + 1 < len(kept) else first
        if following - i > 1:
            left = following - i - 1
            out.append(f"... {left} more line{'' if left == 1 else 's'} ...")
    out += [_clip(line) for line in every[first:]]
    return out


def _causes(lines: list[str]) -> list[int]:
    """Where in ``lines`` a crash report says what went wrong (see :data:`_CAUSE`)."""
    found = []
    in_traceback = False
    for i, line in enumerate(lines):
        if line.startswith("Traceback (most recent call last):"):
            in_traceback = True
            continue
        if in_traceback:
            if line[:1] not in (" ", ""):  # the exception line that ends a Python traceback
                found.append(i)
                in_traceback = False
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if re.match(_CAUSE, line) or (re.match(_EXCEPTION, line) and re.match(_FRAME, nxt)):
            found.append(i)
            if re.match(_CAUSE_GOES_ON, line) and nxt.strip():
                found.append(i + 1)
    return found


def _clip(line: str) -> str:
    return line if len(line) <= _LINE_CHARS else line[:_LINE_CHARS] + " [...]"


class MatchFolder:
    """The folder of one match (see the module's docstring for its files).

    Reading never fails on what a crash leaves behind: a missing ``summary.json`` reads as
    None, and ``hands.jsonl`` as its complete lines."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)

    def __repr__(self) -> str:
        return f"MatchFolder({str(self.path)!r})"

    @staticmethod
    def holds_match(path: str | os.PathLike) -> bool:
        """Whether ``path`` is a match folder (it has a summary or a hand record)."""
        path = Path(path)
        return (path / SUMMARY).is_file() or (path / HANDS).is_file()

    @classmethod
    def find(cls, path: str | os.PathLike) -> MatchFolder:
        """The match folder ``path`` names: itself, or the newest match folder inside it (a
        folder of matches such as ``logs``). LogFolderError if there is none."""
        path = Path(path)
        if not path.is_dir():
            raise LogFolderError(f"{path} is not a folder (give a match's log folder, or logs/)")
        if cls.holds_match(path):
            return cls(path)
        matches = [p for p in path.iterdir() if p.is_dir() and cls.holds_match(p)]
        if not matches:
            raise LogFolderError(f"{path} holds no match logs (no {SUMMARY} or {HANDS})")
        return cls(max(matches, key=lambda p: (p.stat().st_mtime, p.name)))

    # -- the files --------------------------------------------------------------------------

    @property
    def summary_path(self) -> Path:
        return self.path / SUMMARY

    @property
    def hands_path(self) -> Path:
        return self.path / HANDS

    @property
    def history_path(self) -> Path:
        return self.path / HISTORY

    def transcript_path(self, seat: int) -> Path:
        return self.path / transcript_name(seat)

    def stderr_path(self, seat: int) -> Path:
        return self.path / stderr_name(seat)

    # -- reading ----------------------------------------------------------------------------

    def summary(self) -> dict | None:
        """``summary.json``, or None when the server did not finish writing it."""
        return _read_json(self.summary_path)

    def timing(self) -> dict | None:
        """``timing.json``, or None."""
        return _read_json(self.path / TIMING)

    def hands(self, start: int = 0, stop: int | None = None) -> list[dict]:
        """Every complete hand record (a line cut short by a crash, and what follows it, is
        left out); with ``start`` and ``stop``, those of the lines ``start:stop`` only (the
        others are not decoded: a page shows one hand of a long match)."""
        records: list[dict] = []
        try:
            text = self.hands_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return records
        for line in text.splitlines()[start:stop]:
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                break
        return records

    def hand_count(self) -> int:
        """How many whole lines ``hands.jsonl`` has (the hands a page may list), without
        decoding them."""
        try:
            with open(self.hands_path, "rb") as f:
                return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
        except FileNotFoundError:
            return 0

    def strict_hands(self) -> list[dict]:
        """Every hand record; LogFolderError naming the line that is not one (for exports,
        which must not silently drop a hand)."""
        try:
            text = self.hands_path.read_text(encoding="utf-8")
        except OSError as exc:
            raise LogFolderError(f"{self.hands_path} cannot be read ({exc})") from None
        records = []
        for number, line in enumerate(text.splitlines(), 1):
            try:
                records.append(json.loads(line))
            except ValueError as exc:
                raise LogFolderError(f"{self.hands_path}:{number} is not a JSON hand record"
                                     f" ({exc})") from None
        return records

    def stderr_excerpt(self, seat: int) -> list[str]:
        """What a fault's report quotes of seat ``seat``'s stderr (see :func:`stderr_excerpt`)."""
        return stderr_excerpt(self.stderr_path(seat))

    def size(self) -> int:
        """Bytes the folder's files take."""
        return sum(p.stat().st_size for p in self.path.rglob("*") if p.is_file())


def _read_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return None

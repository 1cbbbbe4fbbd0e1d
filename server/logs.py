"""The files a match leaves behind, one folder per match.

``hands.txt``       readable hand history
``hands.jsonl``     one JSON object per hand (cards, actions, pots, bankrolls)
``seatN.in``        the exact bytes sent to seat N: ``./mybot < seatN.in`` replays what it saw
``seatN.stderr``    what seat N wrote to stderr
``summary.json``    the match: bots, options, result or error
``timing.json``     wall-clock figures (the only file that differs between identical runs)

``hands.jsonl`` is flushed after every hand; the transcripts are written through buffers and
flushed when the round ends in any way the server sees (completed, a fault, Ctrl-C, SIGTERM, an
error of its own), so a failed or interrupted round keeps every completed hand. ``hands.txt`` is
rendered from ``hands.jsonl`` when the round ends, off the per-message path (``pokerbots show``
renders the same from ``hands.jsonl`` at any time).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

_WORDS = {"BET": "bets", "FOLD": "folds"}
_COMPACT_JSON = json.JSONEncoder(separators=(",", ":"))


def new_match_dir(root: str | os.PathLike, stem: str) -> Path:
    """Create a fresh folder under ``root`` named after the time and ``stem``."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    base = f"{time.strftime('%Y%m%d-%H%M%S')}-{stem}"
    for i in range(1000):
        path = root / (base if i == 0 else f"{base}-{i}")
        try:
            path.mkdir()
        except FileExistsError:
            continue
        return path
    raise OSError(f"cannot create a new match folder under {root}")


#: What becomes of the seat transcripts (``seatN.in``): kept, kept only when the round did not
#: complete, or never written.
TRANSCRIPTS = ("full", "failed", "none")


class _Discard:
    """A transcript that is not kept."""

    def write(self, data: bytes) -> None:
        pass

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


class MatchLog:
    """Writes one match's logs into ``path``. ``transcripts`` is one of :data:`TRANSCRIPTS`."""

    def __init__(self, path: Path, labels: list[str], streets=(),
                 transcripts: str = "full") -> None:
        if transcripts not in TRANSCRIPTS:
            raise ValueError(f"transcripts are one of {', '.join(TRANSCRIPTS)},"
                             f" not {transcripts!r}")
        self.path = path
        self.labels = labels
        self.streets = streets
        self.transcripts = transcripts
        n = len(labels)
        if transcripts == "none":
            self.seat_in = [_Discard() for _ in range(n)]
        else:
            self.seat_in = [open(path / f"seat{s}.in", "wb", buffering=1 << 16)
                            for s in range(n)]
        # Unbuffered: each hand is one os.write of a whole line, durable at once.
        self.hands_jsonl = open(path / "hands.jsonl", "wb", buffering=0)
        self._files = [*self.seat_in, self.hands_jsonl]

    def stderr_path(self, seat: int) -> Path:
        return self.path / f"seat{seat}.stderr"

    def hand(self, record: dict) -> None:
        """Write one finished hand, durably (called by the referee's ``on_hand``)."""
        line = memoryview((_COMPACT_JSON.encode(record) + "\n").encode())
        while line:  # an unbuffered write may take only part of it
            line = line[self.hands_jsonl.write(line):]

    def flush(self) -> None:
        for f in self._files:
            f.flush()

    def write_summary(self, summary: dict, timing: dict) -> None:
        self.flush()
        _write_json(self.path / "summary.json", summary)
        _write_json(self.path / "timing.json", timing)

    def close(self, completed: bool = True) -> None:
        """Close every file and render ``hands.txt``; with transcripts kept only for failed
        rounds, a ``completed`` round's transcripts are removed."""
        for f in self._files:
            f.close()
        render_history(self.path / "hands.jsonl", self.path / "hands.txt", self.labels,
                       self.streets)
        if self.transcripts == "failed" and completed:
            for s in range(len(self.labels)):
                (self.path / f"seat{s}.in").unlink(missing_ok=True)


def render_history(source: Path, target: Path, labels: list[str], streets=()) -> None:
    """``hands.txt`` from ``hands.jsonl``, hand by hand (a line cut short by a crash ends it)."""
    with open(source, encoding="utf-8") as lines, open(target, "w", encoding="utf-8") as out:
        for line in lines:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                break
            out.write(render_hand(record, labels, streets))


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def render_hand(record: dict, labels: list[str], streets=()) -> str:
    """A hand as a person reads it. ``streets`` are the game's
    :class:`~pokerbots.server.games.base.Street` values (headed when there are several)."""
    n = len(labels)
    lines = [f"Hand {record['hand']}  (button: seat {record['button']})"]
    board = record.get("board")
    for s in range(n):
        lines.append(f"  seat {s} {labels[s]}: {record['cards'][s]}")
    street = -1
    shown_after = []
    count = 0
    for st in streets:
        count += st.board
        shown_after.append(count)
    for seat, word, value, st in record["actions"]:
        if len(streets) > 1 and st != street:
            street = st
            shown = " ".join((board or [])[: shown_after[st]])
            lines.append(f"  -- {streets[st].name}" + (f" [{shown}]" if shown else ""))
        lines.append(f"  seat {seat} {_WORDS.get(word, word)} ({value} in front)")
    if board:
        lines.append(f"  board: {' '.join(board)}")
    for s, shown in enumerate(record["showdown"]):
        if shown != "-":
            lines.append(f"  seat {s} shows {shown}")
    for amount, seat in record["pots"]:
        lines.append(f"  seat {seat} wins {amount}")
    results = ", ".join(f"{d:+d}" for d in record["deltas"])
    bankrolls = ", ".join(str(b) for b in record["bankrolls"])
    lines.append(f"  result: {results}; bankrolls: {bankrolls}")
    return "\n".join(lines) + "\n\n"

"""Writing the folder a match leaves behind (its files are named in :mod:`.folder`).

``hands.jsonl`` is flushed after every hand; ``hands.txt`` is rendered as each hand is written
and written 256 hands at a time; the transcripts are written through buffers. All are flushed
when the round ends in any way the server sees (completed, a fault, Ctrl-C, SIGTERM, an error
of its own), so a failed or interrupted round keeps every completed hand. ``pokerbots show``
renders the same text from ``hands.jsonl`` at any time.
"""

from __future__ import annotations

import errno
import json
import os
import time
import traceback
from pathlib import Path

from pokerbots.server.errors import ServerFault
from pokerbots.server.hands.record import HandRecord, encode
from pokerbots.server.logs.folder import (
    HANDS,
    HISTORY,
    SUMMARY,
    TIMING,
    stderr_name,
    transcript_name,
)
from pokerbots.server.logs.history import HandHistory


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
    """Writes one match's logs into ``path``. ``transcripts`` is one of :data:`TRANSCRIPTS`.

    A file that cannot be written (a full disk) or a log folder removed during the match is a
    :class:`~.errors.ServerFault` naming the file or folder: the server's failure, no bot's.
    """

    def __init__(self, path: Path, labels: list[str], streets=(),
                 transcripts: str = "full", ante: int = 0) -> None:
        if transcripts not in TRANSCRIPTS:
            raise ValueError(f"transcripts are one of {', '.join(TRANSCRIPTS)},"
                             f" not {transcripts!r}")
        self.path = path
        self.labels = labels
        self.transcripts = transcripts
        n = len(labels)
        #: Each seat's transcript (a buffered file, or a :class:`_Discard`).
        self.seat_in: list = []
        if transcripts == "none":
            self.seat_in = [_Discard() for _ in range(n)]
        else:
            self.seat_in = [open(path / transcript_name(s), "wb", buffering=1 << 16)
                            for s in range(n)]
        # Unbuffered: each hand is one os.write of a whole line, durable at once.
        self.hands_jsonl = open(path / HANDS, "wb", buffering=0)
        # hands.txt is rendered from each record as it is written: reading hands.jsonl back
        # when the round ends cost as much again as rendering it.
        self._history = HandHistory(labels, streets, ante)
        self.hands_txt = open(path / HISTORY, "wb", buffering=0)
        self._rendered: list[str] = []
        self._files: list = [*self.seat_in, self.hands_jsonl, self.hands_txt]
        self._next_look = 0.0
        #: Hands written whole to ``hands.jsonl``.
        self.written = 0

    def stderr_path(self, seat: int) -> Path:
        return self.path / stderr_name(seat)

    def hand(self, record: HandRecord) -> None:
        """Write one finished hand, durably (called by the referee's ``on_hand``): its line
        of ``hands.jsonl`` (the records' one encoder) and of ``hands.txt``."""
        _write_whole(self.hands_jsonl, (encode(record) + "\n").encode())
        self.written += 1
        rendered = self._rendered
        rendered.append(self._history.render(record))
        if len(rendered) == 256:  # one write for many hands, each written whole
            self._write_history()
        now = time.monotonic()
        if now >= self._next_look:  # once a second: is the folder still there?
            self._next_look = now + 1.0
            self.check_folder()

    def _write_history(self) -> None:
        """Write the hands rendered since the last write to ``hands.txt``."""
        text = "".join(self._rendered).encode()
        self._rendered.clear()
        _write_whole(self.hands_txt, text)

    def flush(self) -> None:
        """Write out every buffer; :class:`ServerFault` names the file that cannot be written."""
        if self._rendered:
            self._write_history()
        for f in self._files:
            try:
                f.flush()
            except OSError as exc:
                raise _fault(f"writing {f.name}", exc, f.name) from None

    def check_folder(self) -> None:
        """:class:`ServerFault` when the log folder was removed (or moved) during the match:
        the open files would take the hands and the server would lose them all."""
        try:
            os.stat(self.path)
        except OSError as exc:
            raise ServerFault(f"writing the match's logs into {self.path}",
                              f"the log folder was removed during the match ({exc.strerror})",
                              str(self.path), "Keep the log folder until the match is over."
                              ) from None

    def failure(self, exc: BaseException) -> ServerFault:
        """The :class:`ServerFault` for an error that stopped the round: a log file that cannot
        be written (found by flushing each in turn when the error does not say which), or a bug,
        whose traceback goes to ``server-error.txt`` beside the logs when it can."""
        if isinstance(exc, ServerFault):
            return exc
        if isinstance(exc, OSError):
            for f in self._files:
                try:
                    f.flush()
                except OSError as again:
                    return _fault(f"writing {f.name}", again, f.name)
            try:
                self.check_folder()
            except ServerFault as gone:
                return gone
            return _fault(f"writing the match's logs into {self.path}", exc, str(self.path))
        where = self.path / "server-error.txt"
        try:
            where.write_text("".join(traceback.format_exception(exc)), encoding="utf-8")
            saved = f"; its traceback is in {where}"
        except OSError:
            saved = ""
        return ServerFault("playing the round", f"{type(exc).__name__}: {exc}", str(where),
                           f"This is a bug in pokerbots: please report it{saved}.")

    def write_summary(self, summary: dict, timing: dict) -> None:
        """Write ``summary.json`` and ``timing.json``."""
        for name, data in ((SUMMARY, summary), (TIMING, timing)):
            try:
                _write_json(self.path / name, data)
            except OSError as exc:
                raise _fault(f"writing {self.path / name}", exc, str(self.path / name)) from None

    def close(self, completed: bool = True) -> ServerFault | None:
        """Close every file; with transcripts kept only for failed rounds, a ``completed``
        round's transcripts are removed. Returns the failure of a file that could not be
        written (then :meth:`repair` makes what is kept readable)."""
        failure = None
        if self._rendered:
            try:
                self._write_history()
            except ServerFault as exc:
                failure = exc
        for f in self._files:
            try:
                f.close()
            except OSError as exc:
                failure = failure or _fault(f"writing {f.name}", exc, f.name)
        if self.transcripts == "failed" and completed:
            for s in range(len(self.labels)):
                (self.path / transcript_name(s)).unlink(missing_ok=True)
        return failure

    def repair(self) -> None:
        """End ``hands.jsonl`` and ``hands.txt`` with their last complete hand."""
        for name, end in ((HANDS, b"\n"), (HISTORY, b"\n\n")):
            _cut_after_last(self.path / name, end)


def _write_whole(out, data: bytes) -> None:
    """Write all of ``data`` to the unbuffered file ``out`` (a write may take only part of
    it); :class:`ServerFault` names the file that cannot be written."""
    view = memoryview(data)
    try:
        while view:
            view = view[out.write(view):]
    except OSError as exc:
        raise _fault(f"writing {out.name}", exc, out.name) from None


def _fault(doing: str, exc: OSError, path: str) -> ServerFault:
    advice = ""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        advice = ("Free some space (pokerbots logs prune removes old matches) or give --logs a"
                  " folder on another disk, then run the match again.")
    code = exc.errno or 0
    error = f"{exc.strerror} (errno {errno.errorcode.get(code, code)})" \
        if exc.strerror else str(exc)
    return ServerFault(doing, error, path, advice)


def _cut_after_last(path: Path, end: bytes) -> None:
    """Truncate ``path`` just after the last ``end`` in it (or to nothing)."""
    try:
        with open(path, "r+b") as f:
            data = f.read()
            keep = data.rfind(end)
            f.truncate(0 if keep < 0 else keep + len(end))
    except OSError:
        pass


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_suffix(".tmp")
    try:
        tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise

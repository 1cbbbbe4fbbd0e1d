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

import errno
import json
import os
import time
import traceback
from pathlib import Path

from .errors import ServerFault

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
        self.streets = streets
        self.ante = ante
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
        self._next_look = 0.0
        #: Hands written whole to ``hands.jsonl``.
        self.written = 0

    def stderr_path(self, seat: int) -> Path:
        return self.path / f"seat{seat}.stderr"

    def hand(self, record: dict) -> None:
        """Write one finished hand, durably (called by the referee's ``on_hand``)."""
        jsonl = self.hands_jsonl
        line = memoryview((_COMPACT_JSON.encode(record) + "\n").encode())
        try:
            while line:  # an unbuffered write may take only part of it
                line = line[jsonl.write(line):]
        except OSError as exc:
            raise _fault(f"writing {jsonl.name}", exc, jsonl.name) from None
        self.written += 1
        now = time.monotonic()
        if now >= self._next_look:  # once a second: is the folder still there?
            self._next_look = now + 1.0
            self.check_folder()

    def flush(self) -> None:
        """Write out every buffer; :class:`ServerFault` names the file that cannot be written."""
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
        for name, data in (("summary.json", summary), ("timing.json", timing)):
            try:
                _write_json(self.path / name, data)
            except OSError as exc:
                raise _fault(f"writing {self.path / name}", exc, str(self.path / name)) from None

    def close(self, completed: bool = True) -> ServerFault | None:
        """Close every file and render ``hands.txt``; with transcripts kept only for failed
        rounds, a ``completed`` round's transcripts are removed. Returns the failure of a file
        that could not be written (then :meth:`repair` makes what is kept readable)."""
        failure = None
        for f in self._files:
            try:
                f.close()
            except OSError as exc:
                failure = failure or _fault(f"writing {f.name}", exc, f.name)
        target = self.path / "hands.txt"
        try:
            render_history(self.path / "hands.jsonl", target, self.labels, self.streets,
                           self.ante)
        except OSError as exc:
            failure = failure or _fault(f"writing {target}", exc, str(target))
        if self.transcripts == "failed" and completed:
            for s in range(len(self.labels)):
                (self.path / f"seat{s}.in").unlink(missing_ok=True)
        return failure

    def repair(self) -> None:
        """End ``hands.jsonl`` and ``hands.txt`` with their last complete hand."""
        for name, end in (("hands.jsonl", b"\n"), ("hands.txt", b"\n\n")):
            _cut_after_last(self.path / name, end)


def render_history(source: Path, target: Path, labels: list[str], streets=(),
                   ante: int = 0) -> None:
    """``hands.txt`` from ``hands.jsonl``, hand by hand (a line cut short by a crash ends it)."""
    with open(source, encoding="utf-8") as lines, open(target, "w", encoding="utf-8") as out:
        for line in lines:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                break
            out.write(render_hand(record, labels, streets, ante))


def _fault(doing: str, exc: OSError, path: str) -> ServerFault:
    advice = ""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        advice = ("Free some space (pokerbots logs prune removes old matches) or give --logs a"
                  " folder on another disk, then run the match again.")
    error = f"{exc.strerror} (errno {errno.errorcode.get(exc.errno, exc.errno)})" \
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


def render_hand(record: dict, labels: list[str], streets=(), ante: int = 0) -> str:
    """A hand as a person reads it, like a poker site's hand history: the forced bets posted
    (dead antes first, from the record's ``antes``), then every action in words (``checks``,
    ``calls 10``, ``bets 20``, ``raises to 60``, ``and is all-in``), each naming the player by
    its label and seat. ``streets`` are the game's
    :class:`~pokerbots.server.games.base.Street` values (headed when there are several);
    ``ante`` the ante every seat posts (the rest of a forced bet is a blind)."""
    n = len(labels)
    names = [f"{label} (seat {s})" for s, label in enumerate(labels)]
    button = record["button"]
    stacks = record.get("stacks_start")
    board = record.get("board") or []
    lines = [f"Hand {record['hand']}: the button is {names[button]}"]
    for s in range(n):
        chips = f", {stacks[s]} in chips" if stacks else ""
        lines.append(f"  {names[s]} holds {record['cards'][s]}{chips}")
    front = list(record["forced"])
    dead = record.get("antes") or [0] * n  # dead antes: straight into the pot, never in front
    earlier = list(dead)  # chips put in before this street's money in front

    def all_in(s: int) -> str:
        return " and is all-in" if stacks and earlier[s] + front[s] >= stacks[s] > 0 else ""

    # Posted in order from the small blind (heads-up the button posts it).
    small = button if n == 2 else (button + 1) % n
    big = (small + 1) % n
    order = [(small + i) % n for i in range(n)]
    for s in order:
        if dead[s]:
            lines.append(f"  {names[s]} posts a dead ante of {dead[s]}"
                         + (" and is all-in" if stacks and dead[s] >= stacks[s] else ""))
    for s in order:
        if ante and front[s]:
            lines.append(f"  {names[s]} posts an ante of {min(ante, front[s])}"
                         + ("" if front[s] > ante else all_in(s)))
        blind = front[s] - ante
        if blind > 0:
            which = "big" if s == big else "small"
            lines.append(f"  {names[s]} posts the {which} blind {blind}{all_in(s)}")
    headed = len(streets) > 1
    shown_after = []
    count = 0
    for st in streets:
        count += st.board
        shown_after.append(count)
    street = 0

    def head(st: int) -> None:
        cards = " ".join(board[: shown_after[st]])
        lines.append(f"  *** {streets[st].name} ***" + (f" [{cards}]" if cards else ""))

    if headed:
        head(0)
    for seat, word, value, st in record["actions"]:
        while st > street:
            street += 1
            for s in range(n):
                earlier[s] += front[s]
                front[s] = 0
            if headed:
                head(street)
        mine = front[seat]
        table = max(front)
        if word == "FOLD":
            text = "folds"
        elif value == mine:
            text = "checks"
        elif value <= table:
            text = f"calls {value - mine}"
        elif table > (ante if street == 0 else 0):
            text = f"raises to {value}"
        else:
            text = f"bets {value - mine}"
        front[seat] = value
        lines.append(f"  {names[seat]} {text}{all_in(seat) if word != 'FOLD' else ''}")
    # Streets dealt with no betting left (everyone all-in but one, or all).
    while headed and street + 1 < len(streets) and shown_after[street + 1] <= len(board):
        street += 1
        head(street)
    pots = record["pots"]
    put = [earlier[s] + front[s] for s in range(n)]
    returned = sum(put) - sum(amount for amount, _ in pots)
    if returned > 0:
        owner = max(range(n), key=put.__getitem__)
        lines.append(f"  uncalled bet of {returned} returned to {names[owner]}")
    if board and headed:
        lines.append(f"  board: {' '.join(board)}")
    for s, shown in enumerate(record["showdown"]):
        if shown != "-":
            lines.append(f"  {names[s]} shows {shown}")
    for amount, seat in pots:
        lines.append(f"  {names[seat]} wins {amount}")
    results = ", ".join(f"{d:+d}" for d in record["deltas"])
    bankrolls = ", ".join(str(b) for b in record["bankrolls"])
    lines.append(f"  result: {results}; bankrolls: {bankrolls}")
    return "\n".join(lines) + "\n\n"

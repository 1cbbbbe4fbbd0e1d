"""What a tournament shows while it plays.

On a terminal: a rich progress bar (matches done of planned, hands per second, time left) and
the top of the table, refreshed from the store every few seconds. Otherwise (a pipe, a log
file, CI): one plain line per finished match and per event, nothing that redraws. The live
table shows the rows of the standings' view (:mod:`.view`), as the text table does, with a
line under it for each of its columns.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping

from pokerbots.server.tournament import view

#: Bots shown in the live top of the table.
TOP = 5
#: Seconds between two recomputations of the live table.
TABLE_EVERY = 2.0


def _played(counts: dict) -> int:
    return counts["done"] + counts["failed"] + counts["skipped"]


class PlainProgress:
    """One line per finished match: for logs and CI."""

    def __init__(self, counts: dict, names: list[str]) -> None:
        self.planned = sum(counts.values())
        self.finished = _played(counts)
        self._width = len(str(self.planned))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def replan(self, counts: dict) -> None:
        self.planned = sum(counts.values())
        self._width = len(str(self.planned))

    def tick(self) -> None:
        pass

    def note(self, text: str) -> None:
        _echo(text)

    def match_done(self, row: dict, result: dict) -> None:
        self.finished += 1
        _echo(f"[{self.finished:>{self._width}}/{self.planned}] {match_line(row, result)}")


def _echo(text: str) -> None:
    """A line on standard output, at once (a log follows the tournament as it plays)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def match_line(row: dict, result: dict) -> str:
    """``table 3 deal set 0 seating 2: done, 3000 hands, a +12 b -6 c -6 (2.31 s)``."""
    money = "  ".join(f"{name} {value:+d}"
                      for name, value in zip(row["seating"], result["bankrolls"] or []))
    head = (f"table {row['table_no']} deal set {row['deal_set']} seating {row['seating_no']}:"
            f" {result['status']}, {result['hands']} hands, {money} ({result['seconds']:.2f} s)")
    if result["status"] == "failed":
        reason = (result.get("error") or "").split("\n", 1)[0]
        head += f"\n    {result.get('culprit')} forfeits: {reason}"
    return head


class RichProgress:
    """A progress bar and the live top of the table, on a terminal."""

    def __init__(self, counts: dict, names: list[str],
                 standings: Callable[[], Mapping | list[dict]]) -> None:
        """``standings()``: the standings document as it stands (or its lines alone)."""
        from rich.console import Group
        from rich.live import Live
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._standings = standings
        self._progress = Progress(TextColumn("matches"), BarColumn(), MofNCompleteColumn(),
                                  TextColumn("{task.fields[rate]}"), TextColumn("ETA"),
                                  TimeRemainingColumn(), TimeElapsedColumn())
        self._task = self._progress.add_task("matches", total=sum(counts.values()),
                                             completed=_played(counts), rate="")
        self._group = Group(self._progress, "")
        self._live = Live(self._group, refresh_per_second=4, transient=False)
        self._started = time.monotonic()
        self._hands = 0
        self._next_table = 0.0
        self.console = self._live.console

    def __enter__(self):
        self._live.__enter__()
        self._table()
        return self

    def __exit__(self, *exc):
        if exc[0] is None:
            self._table()  # the last matches' results, before the display stops
        return self._live.__exit__(*exc)

    def replan(self, counts: dict) -> None:
        self._progress.update(self._task, total=sum(counts.values()),
                              completed=_played(counts))

    def tick(self) -> None:
        if time.monotonic() >= self._next_table:
            self._table()

    def note(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False)

    def match_done(self, row: dict, result: dict) -> None:
        self._hands += result["hands"]
        rate = self._hands / max(time.monotonic() - self._started, 1e-9)
        self._progress.update(self._task, advance=1, rate=f"{rate:,.0f} hands/s")
        if result["status"] == "failed":
            self.note(match_line(row, result))
        self.tick()

    def _table(self) -> None:
        from rich.console import Group
        from rich.table import Table
        from rich.text import Text

        started = time.monotonic()
        found = self._standings()
        shown = view.of(found if isinstance(found, Mapping) else {"bots": found})
        rows = shown.rows[:TOP]
        # Recomputing the standings costs more as the store grows: never more than 5% of
        # the time (a big tournament refreshes its table less often).
        spent = time.monotonic() - started
        self._next_table = time.monotonic() + max(TABLE_EVERY, 20 * spent)
        table = Table(title="Top of the table", title_justify="left")
        columns = [("rank", "rank"), ("bot", "bot"), ("raw", "per hand"), ("pm", "± 95%"),
                   ("units", "units"), ("hands", "hands"), ("faults", "faults")]
        adjusted = [(title, attr) for title, attr in (("all-in adj.", "allin"),
                                                      ("luck adj.", "luck"))
                    if rows and getattr(rows[0], attr) is not None]
        for title, attr in adjusted:
            columns += [(attr, title), ("pm", "± 95%")]
        for _, heading in columns:
            table.add_column(heading, justify="left" if heading == "bot" else "right")
        for row in rows:
            cells = row.cells()
            for _, attr in adjusted:
                figure = getattr(row, attr)
                cells += [figure.text, figure.half_text] if figure else ["-", "-"]
            table.add_row(*cells)
        legend = shown.legend(columns)
        width = max(len(heading) for heading, _ in legend)
        self._group.renderables[1] = Group(table, *(
            Text(f"{heading:<{width}}  {text}", style="dim") for heading, text in legend))

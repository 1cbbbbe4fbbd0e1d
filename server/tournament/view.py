"""The standings as one immutable view, which every renderer shows as it is.

:func:`.standings.document` computes the figures (``standings.json``); :func:`of` turns that
document into a :class:`StandingsView`: rows (rank, bot, per-hand result, standard error, 95%
interval and its half width, the independent units behind it, hands, matches, faults, whether
the bot is out and why, bankroll, run-off rank, the all-in adjusted figures), the run-off order,
what one unit is, the match counts, and each figure already written the
way the renderers print it. The terminal text (:mod:`.text`), the live table (:mod:`.progress`),
``report.html`` (:mod:`.report`) and the service's pages all render this one view: none of them
computes a figure or formats a number of its own.

A document stored by an older service may lack some keys; a missing figure reads as none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

#: Width in pixels of the drawing of one bot's interval.
BAR_WIDTH = 260


def signed(value, digits: int = 4) -> str:
    """``+0.1234``, or ``-`` for no value."""
    return "-" if value is None else f"{value:+.{digits}f}"


def plain(value, digits: int = 4) -> str:
    """``0.1234``, or ``-`` for no value."""
    return "-" if value is None else f"{value:.{digits}f}"


def _bankroll(value) -> str:
    return f"{value:+,}" if isinstance(value, int) else f"{value:+,.1f}"


@dataclass(frozen=True)
class Row:
    """One bot's line of the standings."""

    rank: int | None
    name: str
    per_hand: float | None
    stderr: float | None
    ci95: tuple[float, float] | None
    #: Half the width of the 95% interval (the ``±`` of the tables).
    half: float | None
    hands: int
    matches: int
    faults: int
    bankroll: int | float
    runoff_rank: int | None
    allin_per_hand: float | None = None
    allin_stderr: float | None = None
    #: The independent units (matches, or deal sets with duplicate) behind the interval
    #: (none in a document older than the field).
    units: int | None = None
    #: Out of the ranking (dropped by --max-faults, or every match failed by its fault), and
    #: why.
    out: bool = False
    out_reason: str | None = None

    @classmethod
    def of(cls, line: Mapping) -> Row:
        """The row of a ``standings.json`` line."""
        ci = line.get("ci95")
        ci = None if ci is None else (ci[0], ci[1])
        return cls(rank=line.get("rank"), name=line["name"], per_hand=line.get("per_hand"),
                   stderr=line.get("stderr"), ci95=ci,
                   half=None if ci is None else (ci[1] - ci[0]) / 2,
                   hands=line.get("hands", 0), matches=line.get("matches", 0),
                   faults=line.get("faults", 0), bankroll=line.get("bankroll", 0),
                   runoff_rank=line.get("runoff_rank"),
                   allin_per_hand=line.get("allin_adjusted_per_hand"),
                   allin_stderr=line.get("allin_adjusted_stderr"),
                   units=line.get("units"), out=bool(line.get("out")),
                   out_reason=line.get("out_reason"))

    # -- as printed ---------------------------------------------------------------------

    @property
    def per_hand_text(self) -> str:
        return signed(self.per_hand)

    @property
    def half_text(self) -> str:
        return plain(self.half)

    @property
    def interval_text(self) -> str:
        return "-" if self.ci95 is None else f"[{self.ci95[0]:+.4f}, {self.ci95[1]:+.4f}]"

    @property
    def hands_text(self) -> str:
        return f"{self.hands:,}"

    @property
    def units_text(self) -> str:
        return "-" if self.units is None else f"{self.units:,}"

    @property
    def out_text(self) -> str:
        """``out`` for a bot out of the ranking, else empty."""
        return "out" if self.out else ""

    @property
    def out_note(self) -> str | None:
        """``NAME is out: REASON``, for a bot out of the ranking."""
        if not self.out:
            return None
        return f"{self.name} is out: {self.out_reason or 'it broke the rules'}"

    @property
    def bankroll_text(self) -> str:
        return _bankroll(self.bankroll)

    @property
    def allin_text(self) -> str:
        return signed(self.allin_per_hand)

    @property
    def allin_stderr_text(self) -> str:
        return plain(self.allin_stderr)

    @property
    def allin_stderr_signed_text(self) -> str:
        """The all-in adjusted stderr as ``report.html`` has always shown it, with a sign."""
        return signed(self.allin_stderr)

    @property
    def tone(self) -> str:
        """``pos``, ``neg`` or ``""``: the colour of the per-hand result."""
        if not self.per_hand:
            return ""
        return "pos" if self.per_hand > 0 else "neg"

    def cells(self) -> list[str]:
        """Rank, bot, per hand, ±, hands, faults, run-off rank: the columns of the text and
        the live tables."""
        return [str(self.rank), self.name, self.per_hand_text, self.half_text, self.hands_text,
                str(self.faults), str(self.runoff_rank)]


@dataclass(frozen=True)
class Bar:
    """Where one bot's interval is drawn, in pixels of a bar :data:`BAR_WIDTH` wide."""

    zero: float
    low: float | None
    high: float | None
    point: float | None


@dataclass(frozen=True)
class CrossRow:
    """The row bot's chips per hand in the matches where each column's bot also sat
    (``None`` on the diagonal)."""

    name: str
    cells: tuple[str | None, ...]


@dataclass(frozen=True)
class StandingsView:
    """The standings of one tournament, best first."""

    game: str | None
    players: int | None
    hands_per_match: int | None
    duplicate: bool
    seed: object
    planned: int
    done: int
    failed: int
    skipped: int
    rows: tuple[Row, ...]
    #: The instant run-off order, winner first.
    runoff: tuple[str, ...]
    #: Whether the rows have all-in adjusted figures.
    allin: bool
    #: Each row's interval drawn on one scale shared by all (same order as ``rows``).
    bars: tuple[Bar, ...]
    #: The cross-table (:func:`with_cross`), or none.
    cross_names: tuple[str, ...] = ()
    cross: tuple[CrossRow, ...] = ()
    #: What one independent unit of the intervals is: ``match`` or ``deal set``.
    unit: str | None = None

    @property
    def unit_text(self) -> str:
        """What the intervals stand on, in a sentence."""
        if self.unit == "deal set":
            return ("Intervals: Student's t over each bot's units, one unit per deal set of a"
                    " table (its seatings summed: they share the cards).")
        return "Intervals: Student's t over each bot's units, one unit per match."

    @property
    def out_notes(self) -> tuple[str, ...]:
        """One line per bot out of the ranking (they rank below every bot still in)."""
        return tuple(row.out_note for row in self.rows if row.out)

    @property
    def hands_per_match_text(self) -> str:
        return f"{self.hands_per_match:,}"

    @property
    def heading(self) -> str:
        """The line above the text table."""
        return (f"{self.game}, {self.players} players, {self.hands_per_match_text} hands per"
                f" match{', duplicate' if self.duplicate else ''}, seed {self.seed}:"
                f" {self.done} matches done, {self.failed} failed, {self.skipped} skipped of"
                f" {self.planned} planned")

    def drawn(self) -> list[tuple[Row, Bar]]:
        return list(zip(self.rows, self.bars))

    def with_cross(self, names: list[str], cross: dict) -> StandingsView:
        """This view with the cross-table ``cross`` (:func:`.standings.cross_table`)."""
        from dataclasses import replace

        table = tuple(CrossRow(a, tuple(None if a == b else signed(cross[a][b], 3)
                                        for b in names)) for a in names)
        return replace(self, cross_names=tuple(names), cross=table)


def bars(rows: Iterable[Row], width: int = BAR_WIDTH) -> tuple[Bar, ...]:
    """Each row's interval on one scale: zero, every interval and every lone point fit."""
    rows = list(rows)
    points = [0.0]
    for row in rows:
        if row.ci95 is not None:
            points += row.ci95
        elif row.per_hand is not None:
            points.append(row.per_hand)
    low, high = min(points), max(points)
    if high == low:
        high = low + 1
    pad = (high - low) * 0.05
    low, high = low - pad, high + pad

    def x(value: float) -> float:
        return round((value - low) / (high - low) * width, 1)

    return tuple(Bar(zero=x(0),
                     low=None if row.ci95 is None else x(row.ci95[0]),
                     high=None if row.ci95 is None else x(row.ci95[1]),
                     point=None if row.per_hand is None else x(row.per_hand))
                 for row in rows)


def rows_of(lines: Iterable[Mapping]) -> tuple[Row, ...]:
    """The rows of a list of ``standings.json`` lines."""
    return tuple(Row.of(line) for line in lines)


def of(document: Mapping) -> StandingsView:
    """The view of a ``standings.json`` document."""
    rows = rows_of(document.get("bots") or [])
    counts = document.get("matches") or {}
    runoff = document.get("runoff")
    if runoff is None:
        runoff = [r.name for r in sorted(rows, key=lambda r: (r.runoff_rank is None,
                                                              r.runoff_rank or 0))]
    lines = document.get("bots") or []
    return StandingsView(
        game=document.get("game"), players=document.get("players"),
        hands_per_match=document.get("hands_per_match"),
        duplicate=bool(document.get("duplicate")), seed=document.get("seed"),
        planned=counts.get("planned", 0), done=counts.get("done", 0),
        failed=counts.get("failed", 0), skipped=counts.get("skipped", 0),
        rows=rows, runoff=tuple(runoff),
        allin=bool(lines) and "allin_adjusted_per_hand" in lines[0],
        bars=bars(rows),
        unit=document.get("unit") or ("deal set" if document.get("duplicate") else "match"))

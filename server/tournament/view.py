"""The standings as one immutable view, which every renderer shows as it is.

:func:`.standings.document` computes the figures (``standings.json``); :func:`of` turns that
document into a :class:`StandingsView`: rows (rank, bot, the raw per-hand figure with its
standard error, 95% interval and half width, the all-in and luck-adjusted figures beside it,
the independent units behind them, hands, matches, faults, whether the bot is out and why,
bankroll, run-off rank, whether its interval is apart from the next bot's and if not about how
many more hands that needs), the run-off order, the figure that ranks, what one unit is, the
match counts, the crosstable, and each figure already written the way the renderers print it.
The terminal text (:mod:`.text`), the live table (:mod:`.progress`), ``report.html``
(:mod:`.report`) and the service's pages all render this one view: none of them computes a
figure or formats a number of its own.

**Every column is explained under its table**, one line each, and only the columns a table
shows (:meth:`StandingsView.legend`: each renderer names its columns by the keys of
:meth:`StandingsView.explanations`). A table shows the run-off column only when the rows have
run-off ranks (a ladder has none) and the ``out`` column only when a bot is out.

**How figures are printed** (:class:`Figure`): the 95% interval's half width (the ``±``) to 3
significant digits; the per-hand figure and the interval's ends to the same decimal place
(``+230 ± 1230``, ``[-1250, +1200]``, never ``+226.1380`` beside ``[-1254.1327,
+1199.9677]``); without an interval, the figure to 3 significant digits of its own. Signed
figures carry ``+`` or ``-``, 0 none; no exponent notation.

A document stored by an older service may lack some keys; a missing figure reads as none.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pokerbots.server.tournament.standings import INDISTINGUISHABLE

#: Width in pixels of the drawing of one bot's interval.
BAR_WIDTH = 150

#: What each figure a ranking can be made by is called (``--rank-by``).
FIGURE_NAMES = {"raw": "the raw figure (chips won per hand)",
                "allin": "the all-in adjusted figure",
                "luck": "the luck-adjusted figure"}

#: What a table's rank column says of a bot that has not played yet.
UNRANKED = "unranked"
#: What the ``apart from next`` column says of two bots that cannot be told apart.
INDISTINGUISHABLE_TEXT = "indistinguishable"


def signed(value, digits: int = 4) -> str:
    """``+0.1234``, or ``-`` for no value."""
    return "-" if value is None else f"{value:+.{digits}f}"


def plain(value, digits: int = 4) -> str:
    """``0.1234``, or ``-`` for no value."""
    return "-" if value is None else f"{value:.{digits}f}"


def places(value) -> int | None:
    """The decimal places that show ``value`` to 3 significant digits (negative: tens,
    hundreds...), or none for 0 or no value."""
    if not value:
        return None
    return 2 - math.floor(math.log10(abs(value)))


def number(value, at: int | None = None, *, sign: bool = True) -> str:
    """``value`` rounded to ``at`` decimal places (negative: to tens, hundreds...; none: to 3
    significant digits of its own), with a ``+`` or ``-`` (``sign``), never in exponent
    notation; 0 has no sign; ``-`` for no value. ``number(1254.13)`` is ``+1250``,
    ``number(0.0123456)`` ``+0.0123``, ``number(226.138, -1)`` ``+230``."""
    if value is None:
        return "-"
    if at is None:
        at = places(value)
        if at is None:
            return "0"
    text = f"{round(value, at):{'+' if sign else ''}z.{max(at, 0)}f}"
    return text.lstrip("+") if float(text) == 0 else text


def _count(value: int) -> str:
    """A count of hands to 3 significant digits, with thousands separators: ``12,300``."""
    return f"{round(value, min(places(value) or 0, 0)):,}"


def _bankroll(value) -> str:
    return f"{value:+,}" if isinstance(value, int) else f"{value:+,.1f}"


@dataclass(frozen=True)
class Figure:
    """A per-hand figure with its standard error and 95% interval, and how it is printed:
    the interval's half-width (the ``±``) to 3 significant digits, the per-hand figure and the
    interval's ends to the same decimal place (to 3 significant digits of their own when
    there is no interval)."""

    per_hand: float | None
    stderr: float | None
    ci95: tuple[float, float] | None

    @classmethod
    def of(cls, line: Mapping, prefix: str = "") -> Figure | None:
        """The figure of a ``standings.json`` line (``prefix``: ``allin_adjusted_``,
        ``luck_adjusted_``), or none if the line has none."""
        if prefix and prefix + "per_hand" not in line:
            return None
        ci = line.get(prefix + "ci95")
        return cls(line.get(prefix + "per_hand"), line.get(prefix + "stderr"),
                   None if ci is None else (ci[0], ci[1]))

    @property
    def half(self) -> float | None:
        """Half the width of the 95% interval (the ``±`` of the tables)."""
        return None if self.ci95 is None else (self.ci95[1] - self.ci95[0]) / 2

    @property
    def _at(self) -> int | None:
        return places(self.half)

    @property
    def text(self) -> str:
        return number(self.per_hand, self._at)

    @property
    def half_text(self) -> str:
        return number(self.half, self._at, sign=False)

    @property
    def pm_text(self) -> str:
        """``+12.3 ± 4.56``, or the figure alone without an interval."""
        return self.text if self.ci95 is None else f"{self.text} ± {self.half_text}"

    @property
    def ends_text(self) -> tuple[str, str] | None:
        """The interval's ends as printed (none without an interval)."""
        if self.ci95 is None:
            return None
        at = self._at
        if at is None:  # a zero-width interval: the figure's own digits
            return self.text, self.text
        return number(self.ci95[0], at), number(self.ci95[1], at)

    @property
    def interval_text(self) -> str:
        ends = self.ends_text
        return "-" if ends is None else f"[{ends[0]}, {ends[1]}]"

    @property
    def tone(self) -> str:
        """``pos``, ``neg`` or ``""``: the colour of the figure."""
        if not self.per_hand:
            return ""
        return "pos" if self.per_hand > 0 else "neg"

    @property
    def holds_zero(self) -> bool:
        """Whether the interval holds 0 (or there is none): the sign is not established."""
        return self.ci95 is None or self.ci95[0] <= 0 <= self.ci95[1]


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
    #: The all-in adjusted figure (none: the game has none, or --no-adjust).
    allin: Figure | None = None
    #: The luck-adjusted figure (none: the matches have none, or --no-adjust).
    luck: Figure | None = None
    #: The independent units (matches, or deal sets with duplicate) behind the interval
    #: (none in a document older than the field).
    units: int | None = None
    #: Out of the ranking (dropped by --max-faults, or every match failed by its fault), and
    #: why.
    out: bool = False
    out_reason: str | None = None
    #: Whether this bot's interval and the next bot's are disjoint (none: no next bot, no
    #: interval), and if not about how many more hands each would need, and whether the two
    #: are indistinguishable (their difference 0 or far inside the noise).
    separate_from_next: bool | None = None
    more_hands: int | None = None
    indistinguishable: bool = False

    @classmethod
    def of(cls, line: Mapping) -> Row:
        """The row of a ``standings.json`` line."""
        raw = Figure.of(line)
        if "indistinguishable" in line:
            indistinguishable = bool(line["indistinguishable"])
        else:  # an older document: overlapping intervals and no count, equal figures
            indistinguishable = (line.get("separate_from_next") is False
                                 and line.get("more_hands") is None)
        return cls(rank=line.get("rank"), name=line["name"], per_hand=raw.per_hand,
                   stderr=raw.stderr, ci95=raw.ci95, half=raw.half,
                   hands=line.get("hands", 0), matches=line.get("matches", 0),
                   faults=line.get("faults", 0), bankroll=line.get("bankroll", 0),
                   runoff_rank=line.get("runoff_rank"),
                   allin=Figure.of(line, "allin_adjusted_"),
                   luck=Figure.of(line, "luck_adjusted_"),
                   units=line.get("units"), out=bool(line.get("out")),
                   out_reason=line.get("out_reason"),
                   separate_from_next=line.get("separate_from_next"),
                   more_hands=line.get("more_hands"), indistinguishable=indistinguishable)

    @property
    def raw(self) -> Figure:
        return Figure(self.per_hand, self.stderr, self.ci95)

    # -- as printed ---------------------------------------------------------------------

    @property
    def rank_text(self) -> str:
        """The rank, or ``unranked`` for a bot that has not played yet."""
        return UNRANKED if self.rank is None else str(self.rank)

    @property
    def runoff_text(self) -> str:
        return "-" if self.runoff_rank is None else str(self.runoff_rank)

    @property
    def per_hand_text(self) -> str:
        return self.raw.text

    @property
    def half_text(self) -> str:
        return self.raw.half_text

    @property
    def interval_text(self) -> str:
        return self.raw.interval_text

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
    def separate_text(self) -> str:
        """``yes`` (this bot's interval and the next one's are disjoint),
        ``indistinguishable`` (their difference is 0 or far inside the noise), ``~12,300
        more`` (about the hands each would need), or ``-``."""
        if self.separate_from_next:
            return "yes"
        if self.indistinguishable:
            return INDISTINGUISHABLE_TEXT
        if self.more_hands is None:
            return "-"
        return f"~{_count(self.more_hands)} more"

    @property
    def tone(self) -> str:
        """``pos``, ``neg`` or ``""``: the colour of the per-hand result."""
        return self.raw.tone

    def cells(self) -> list[str]:
        """Rank, bot, per hand, ±, units, hands, faults: the columns of the live table."""
        return [self.rank_text, self.name, self.per_hand_text, self.half_text,
                self.units_text, self.hands_text, str(self.faults)]


@dataclass(frozen=True)
class Bar:
    """Where one bot's interval is drawn, in pixels of a bar :data:`BAR_WIDTH` wide."""

    zero: float
    low: float | None
    high: float | None
    point: float | None


@dataclass(frozen=True)
class CrossCell:
    """The row bot's raw figure in the matches where the column's bot also sat."""

    figure: Figure
    hands: int
    units: int

    @property
    def tone(self) -> str:
        """``win``, ``loss`` or ``""`` (even): the cell's colour."""
        return {"pos": "win", "neg": "loss"}.get(self.figure.tone, "")

    @property
    def faint(self) -> bool:
        """Whether the interval holds 0 (or there is none): the colour is drawn faint."""
        return self.figure.holds_zero

    @property
    def title(self) -> str:
        """The cell's details: interval, hands and units."""
        return (f"95% interval {self.figure.interval_text}, {self.hands:,} hands,"
                f" {self.units:,} unit{'s' if self.units != 1 else ''}")


@dataclass(frozen=True)
class CrossRow:
    """One bot's row of the crosstable: a cell per column's bot (``None`` on the diagonal and
    for a bot it never sat with)."""

    name: str
    cells: tuple[CrossCell | None, ...]


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
    #: The crosstable's bots (in rank order) and its rows (none in an older document).
    cross_names: tuple[str, ...] = ()
    cross: tuple[CrossRow, ...] = ()
    #: What one independent unit of the intervals is: ``match`` or ``deal set``.
    unit: str | None = None
    #: Whether the rows have luck-adjusted figures.
    luck: bool = False
    #: The figure that ranks (``raw``, ``allin``, ``luck``), and why it is not the one asked
    #: for, if it is not.
    rank_by: str = "raw"
    rank_by_note: str | None = None

    @property
    def unit_text(self) -> str:
        """What the intervals stand on, in a sentence."""
        if self.unit == "deal set":
            return ("Intervals: Student's t over each bot's units, one unit per deal set of a"
                    " table (its seatings summed: they share the cards).")
        return "Intervals: Student's t over each bot's units, one unit per match."

    @property
    def has_runoff(self) -> bool:
        """Whether the rows have run-off ranks (a tournament's do, a ladder's not)."""
        return any(row.runoff_rank is not None for row in self.rows)

    @property
    def has_out(self) -> bool:
        """Whether a bot is out of the ranking (the ``out`` column is shown then)."""
        return any(row.out for row in self.rows)

    def explanations(self) -> dict[str, str]:
        """What each column a table of this view may show says, in a line, by key: ``rank``,
        ``bot``, ``version``, ``raw`` (the per-hand figure), ``pm`` (a ``± 95%`` column),
        ``raw_pm``, ``allin_pm``, ``luck_pm`` (a figure with its ``±`` in one column),
        ``interval``, ``units``, ``hands``, ``matches``, ``faults``, ``runoff``, ``bankroll``,
        ``allin``, ``luck``, ``apart``, ``out``."""
        rank = f"the place by {FIGURE_NAMES.get(self.rank_by, self.rank_by)}, best first"
        if self.has_out:
            rank += "; a bot out ranks below every bot still in"
        if any(row.rank is None for row in self.rows):
            rank += f"; {UNRANKED}: it has not played yet"
        unit = ("deal set of a table (its seatings summed: they share the cards)"
                if self.unit == "deal set" else "match")
        pm = ", ± half its 95% interval"
        found = {
            "rank": rank,
            "bot": "the bot's name",
            "version": "the version that played (its VERSION file, else the start of its"
                       " files' sha256)",
            "raw": "chips won per hand played (a forfeit is charged over the whole planned"
                   " match; a bot that played no hand has 0)",
            "pm": "half the width of the 95% interval of the figure on its left (rounded to"
                  " the same decimal place)",
            "interval": "the 95% confidence interval of its chips per hand (Student's t"
                        " over its units; none from fewer than 2)",
            "units": f"the independent units its interval stands on: one unit per {unit}",
            "hands": "hands played (and the planned hands a forfeit charged)",
            "matches": "matches played (done, or stopped by a bot's fault)",
            "faults": "matches it stopped by breaking a rule (it forfeits the rest of each)",
            "runoff": "its place in the instant run-off (drop the weakest bot, rank the"
                      " others again on their matches among themselves, repeat)",
            "bankroll": "chips won in all, forfeits charged",
            "allin": "chips per hand with each pot all-in before the last card scored at the"
                     " seats' equity over every board that could have come",
            "luck": "chips per hand less the luck of the cards dealt and of the mixes drawn"
                    " (unbiased whatever the bots, and less noisy than the raw figure)",
            "apart": f"yes: its 95% interval and the next bot's are disjoint; ~N more: about"
                     f" how many more hands each would need for that at the present variance;"
                     f" {INDISTINGUISHABLE_TEXT}: their figures are equal, or so close that it"
                     f" would take over {INDISTINGUISHABLE} times the hands played",
            "out": "out of the ranking (dropped by --max-faults, or every match it played"
                   " failed by its fault), and why",
        }
        for key in ("raw", "allin", "luck"):
            found[key + "_pm"] = found[key] + pm
        return found

    def legend(self, columns: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
        """``(heading, what it says)`` for each of a table's ``columns`` (``(key of
        :meth:`explanations`, heading)``, in the table's order), once per heading."""
        explained = self.explanations()
        found: dict[str, str] = {}
        for key, heading in columns:
            found.setdefault(heading, explained[key])
        return tuple(found.items())

    def html_columns(self, versions: bool = False) -> tuple[tuple[str, str], ...]:
        """The columns of the HTML table (``templates/standings_table.html``), as
        :meth:`legend` takes them (``versions``: with a version column)."""
        columns = [("rank", "rank"), ("bot", "bot")]
        if versions:
            columns.append(("version", "version"))
        columns += [("raw_pm", "per hand ± 95%"), ("interval", "95% interval"),
                    ("units", "units"), ("hands", "hands"), ("matches", "matches"),
                    ("faults", "faults")]
        if self.has_runoff:
            columns.append(("runoff", "run-off"))
        columns.append(("bankroll", "bankroll"))
        if self.allin:
            columns.append(("allin_pm", "all-in adjusted per hand ± 95%"))
        if self.luck:
            columns.append(("luck_pm", "luck-adjusted per hand ± 95%"))
        columns.append(("apart", "apart from next"))
        if self.has_out:
            columns.append(("out", "out"))
        return tuple(columns)

    @property
    def rank_by_text(self) -> str:
        """Which figure ranks, in a sentence."""
        text = f"Ranked by {FIGURE_NAMES.get(self.rank_by, self.rank_by)}"
        if self.rank_by != "raw":
            text += f" (--rank-by {self.rank_by})"
        return text + (f"; {self.rank_by_note}." if self.rank_by_note else ".")

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


def crosstable(names: Iterable[str], table: Mapping) -> tuple[CrossRow, ...]:
    """The crosstable's rows, in the order of ``names``, of a ``standings.json``
    ``crosstable``."""
    names = list(names)

    def cell(a: str, b: str) -> CrossCell | None:
        found = table.get(a, {}).get(b)
        if a == b or found is None:
            return None
        return CrossCell(Figure.of(found), found.get("hands", 0), found.get("units", 0))

    return tuple(CrossRow(a, tuple(cell(a, b) for b in names)) for a in names)


def option_rows(options: Mapping) -> tuple[tuple[str, str], ...]:
    """A tournament's recorded options as ``(option, value)`` lines a person reads: each
    option by its flag, the game's options on one line, the bot limits one per line, yes or
    no, none."""
    def text(value) -> str:
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, Mapping):
            return ", ".join(f"{k.replace('_', ' ')} {text(v)}" for k, v in value.items())
        if isinstance(value, (list, tuple)):
            return ", ".join(map(text, value))
        return str(value)

    lines = []
    for key, value in options.items():
        if key == "limits" and isinstance(value, Mapping):
            lines += [(flag, text(limit)) for flag, limit in value.items()]
        elif key == "game_options":
            lines.append(("game options", text(value) or "the game's defaults"))
        elif key == "adjust":
            lines.append(("adjusted figures", text(value)))
        else:
            lines.append(("--" + key.replace("_", "-"), text(value)))
    return tuple(lines)


def of(document: Mapping) -> StandingsView:
    """The view of a ``standings.json`` document."""
    rows = rows_of(document.get("bots") or [])
    counts = document.get("matches") or {}
    runoff = document.get("runoff")
    if runoff is None:
        runoff = [r.name for r in sorted(rows, key=lambda r: r.runoff_rank or 0)
                  if r.runoff_rank is not None]
    names = tuple(row.name for row in rows)
    table = document.get("crosstable")
    return StandingsView(
        game=document.get("game"), players=document.get("players"),
        hands_per_match=document.get("hands_per_match"),
        duplicate=bool(document.get("duplicate")), seed=document.get("seed"),
        planned=counts.get("planned", 0), done=counts.get("done", 0),
        failed=counts.get("failed", 0), skipped=counts.get("skipped", 0),
        rows=rows, runoff=tuple(runoff),
        allin=bool(rows) and rows[0].allin is not None,
        luck=bool(rows) and rows[0].luck is not None,
        bars=bars(rows),
        cross_names=names if table is not None else (),
        cross=crosstable(names, table) if table is not None else (),
        unit=document.get("unit") or ("deal set" if document.get("duplicate") else "match"),
        rank_by=document.get("rank_by") or "raw", rank_by_note=document.get("rank_by_note"))

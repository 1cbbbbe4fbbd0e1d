"""The home page's charts: each bot's result per hand over the last tournaments, as SVG.

Drawn on the server (inline SVG: no script, no image file, no network). One line per bot
through its per-hand result in each tournament it played, with the 95% interval the standings
give it drawn as a vertical bar at every point (a chart of one tournament is dots and bars), a
dashed line at zero, the tournaments along the bottom; every point and bar has a title (its
tooltip in a browser). The axis is labelled at zero and at the highest and lowest value
drawn, each printed as the standings print it (:class:`~pokerbots.server.tournament.view.
Figure`: a figure to the decimal place of its interval's half width), never to digits the
standings do not have. Each bot's points are shifted sideways by a few pixels of their own,
so that the bars of one tournament stand side by side.

**Colours.** A bot keeps its colour on every chart and page, whatever its rank: the service's
bots are numbered in the order they were first seen (name breaking ties,
:func:`palette`), and the number picks one of Tableau's ten colours, then past ten a dash
pattern with it. A name the palette does not know takes a number from its CRC-32.

This module computes where everything goes; the template ``templates/chart.html`` draws it,
escaping every name.
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import quote

from markupsafe import Markup

from pokerbots.server.service.jobs.scheduler import stamp
from pokerbots.server.tournament import report
from pokerbots.server.tournament import view as view_

#: The site's templates (beside them, the report's: a tournament's page shows its report).
TEMPLATES = Path(__file__).resolve().parent / "templates"

#: Tableau's ten colours: told apart by most people, colour-blind ones included.
COLOURS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac")
#: Past ten bots the colours come round again, with dashes.
DASHES = ("", "6 3", "2 3")

WIDTH, HEIGHT = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 64, 170, 16, 36
#: The most pixels between the points of two bots in one tournament.
DODGE = 6.0


@functools.lru_cache(maxsize=1)
def environment():
    """The site's Jinja2 environment (this module is the lowest of the site's pages, so the
    environment lives here): autoescaping, with the filters ``when`` (a time, or ``-``),
    ``signed`` (``+0.1234``, or ``-``) and ``urlpart`` (a name quoted for one path segment)."""
    env = report.environment(TEMPLATES)
    env.filters["when"] = lambda seconds: "-" if seconds is None else stamp(seconds)
    env.filters["signed"] = view_.signed
    env.filters["urlpart"] = lambda text: quote(str(text), safe="")
    env.globals["zip"] = zip
    return env


def render(template: str, **context) -> Markup:
    """The template ``template`` of the site, rendered with ``context`` (markup, which
    another template puts in as it is)."""
    return Markup(environment().get_template(template).render(context))


def palette(bots: Iterable[Mapping]) -> dict[str, int]:
    """Each bot's number for its colour: the service's bots (rows with ``name`` and
    ``first_seen``) in the order they were first seen, name breaking ties. A bot seen later
    takes the next number: no bot's colour ever changes."""
    ordered = sorted(bots, key=lambda b: (b.get("first_seen") or 0.0, b["name"]))
    return {bot["name"]: number for number, bot in enumerate(ordered)}


def style(name: str, numbers: Mapping[str, int]) -> tuple[str, str]:
    """``(colour, dashes)`` of bot ``name`` (``numbers``: :func:`palette`)."""
    number = numbers.get(name)
    if number is None:
        number = zlib.crc32(name.encode()) % (len(COLOURS) * len(DASHES))
    return COLOURS[number % len(COLOURS)], DASHES[number // len(COLOURS) % len(DASHES)]


def series(tournaments: list[dict]) -> tuple[list[int], dict[str, dict[int, view_.Figure]]]:
    """``(tournament ids oldest first, {bot: {tournament id: its figure}})`` from tournament
    rows with their ``standings``; bots in the order of the newest standings, only the rows
    with a per-hand result."""
    ids = [t["id"] for t in reversed(tournaments)]
    found: dict[str, dict[int, view_.Figure]] = {}
    for tournament in tournaments:  # newest first: the legend follows the latest ranking
        for row in view_.of(tournament["standings"]).rows:
            if row.per_hand is not None:
                found.setdefault(row.name, {})[tournament["id"]] = row.raw
    return ids, found


def ladder_series(ladder: dict) -> tuple[list[int], dict[str, dict[int, view_.Figure]]]:
    """The same from a ladder (:func:`.ladder.ladder`): each bot's ladder figure as it stood
    after each tournament it played, in the ladder's order."""
    found: dict[str, dict[int, view_.Figure]] = {}
    for line in ladder["bots"]:
        for point in ladder["history"].get(line["name"], ()):
            if point["per_hand"] is not None:
                found.setdefault(line["name"], {})[point["tournament"]] = view_.Figure.of(point)
    return ladder["tournaments"], found


def _ticks(lines: dict[str, dict[int, view_.Figure]]) -> tuple[tuple[float, str], ...]:
    """``(value, label)`` of the axis: the highest and the lowest value drawn (a point or an
    interval's end), each as the standings print it, and 0."""
    drawn = [(0.0, "0")]
    for points in lines.values():
        for figure in points.values():
            drawn.append((figure.per_hand, figure.text))
            if figure.ci95 is not None:
                drawn += zip(figure.ci95, figure.ends_text)
    high, low = max(drawn), min(drawn)
    return ((high,) if high[0] > 0 else ()) + ((0.0, "0"),) + ((low,) if low[0] < 0 else ())


def geometry(ids: list[int], lines: dict[str, dict[int, view_.Figure]],
             numbers: Mapping[str, int] | None = None) -> tuple[dict, list[dict]]:
    """``(the chart's frame, one series per bot)`` of :func:`series`' ``(ids, lines)``: every
    coordinate the template draws (``numbers``: each bot's colour number, :func:`palette`)."""
    if not lines:
        return {}, []
    numbers = numbers or {}
    ticks = _ticks(lines)
    low, high = ticks[-1][0], ticks[0][0]
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    pad = (high - low) * 0.08
    low, high = low - pad, high + pad
    height = max(HEIGHT, TOP + 20 + 16 * len(lines))  # room for every name in the legend
    plot_w, plot_h = WIDTH - LEFT - RIGHT, height - TOP - BOTTOM
    count = len(lines)
    step = plot_w / max(len(ids) - 1, 1)
    dodge = min(DODGE, step * 0.6 / count)
    margin = dodge * (count - 1) / 2 + 8  # the outermost bars inside the frame
    inner = plot_w - 2 * margin

    def x(tournament_id: int) -> float:
        if len(ids) == 1:
            return LEFT + plot_w / 2
        return LEFT + margin + ids.index(tournament_id) * inner / (len(ids) - 1)

    def y(value: float) -> float:
        return round(TOP + (high - value) / (high - low) * plot_h, 1)

    frame = {
        "width": WIDTH, "height": height, "left": LEFT, "top": TOP, "plot_w": plot_w,
        "plot_h": plot_h, "right_edge": LEFT + plot_w, "zero": y(0),
        "ticks": [{"y": y(value) + 4, "text": text} for value, text in ticks],
        "columns": [{"x": round(x(t), 1), "id": t} for t in ids],
        "label_y": height - BOTTOM + 16, "middle": LEFT + plot_w / 2,
        "legend_x": WIDTH - RIGHT + 14,
    }
    drawn = []
    for place, (name, points) in enumerate(lines.items()):
        shift = (place - (count - 1) / 2) * dodge
        colour, dash = style(name, numbers)
        dots = []
        for t in ids:
            if t not in points:
                continue
            figure = points[t]
            dot = {"x": round(x(t) + shift, 1), "y": y(figure.per_hand), "id": t,
                   "text": figure.text, "interval": None}
            if figure.ci95 is not None:
                dot["interval"] = {"low": y(figure.ci95[0]), "high": y(figure.ci95[1]),
                                   "text": figure.interval_text}
            dots.append(dot)
        drawn.append({
            "name": name, "colour": colour, "dash": dash,
            "path": " ".join(f"{d['x']},{d['y']}" for d in dots) if len(dots) > 1 else "",
            "points": dots, "legend_y": TOP + 14 + place * 16,
        })
    return frame, drawn


def svg(tournaments: list[dict], numbers: Mapping[str, int] | None = None) -> Markup:
    """The chart of ``tournaments`` (rows with ``id`` and ``standings``, newest first), or a
    muted paragraph saying there is no result yet (``numbers``: :func:`palette`)."""
    frame, drawn = geometry(*series(tournaments), numbers)
    return render("chart.html", c=frame, series=drawn, kind="tournaments",
                  label="Each bot's chips per hand in the last tournaments")


def ladder_svg(ladder: dict, numbers: Mapping[str, int] | None = None) -> Markup:
    """The chart of a ladder: each bot's ladder figure over the tournaments."""
    frame, drawn = geometry(*ladder_series(ladder), numbers)
    return render("chart.html", c=frame, series=drawn, kind="ladder",
                  label="Each bot's ladder figure after each tournament")

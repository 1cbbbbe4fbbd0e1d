"""The home page's chart: each bot's result per hand over the last tournaments, as SVG.

Drawn on the server (inline SVG: no script, no image file, no network). One line per bot
through its per-hand result in each tournament it played, a dashed line at zero, the
tournaments along the bottom; every point has a title (its tooltip in a browser). This module
computes where everything goes; the template ``templates/chart.html`` draws it, escaping every
name.
"""

from __future__ import annotations

import functools
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


def series(tournaments: list[dict]) -> tuple[list[int], dict[str, dict[int, tuple]]]:
    """``(tournament ids oldest first, {bot: {tournament id: (per hand, its text)}})`` from
    tournament rows with their ``standings``; bots in the order of the newest standings, only
    the rows with a per-hand result."""
    ids = [t["id"] for t in reversed(tournaments)]
    found: dict[str, dict[int, tuple]] = {}
    for tournament in tournaments:  # newest first: the legend follows the latest ranking
        for row in view_.of(tournament["standings"]).rows:
            if row.per_hand is not None:
                found.setdefault(row.name, {})[tournament["id"]] = (row.per_hand,
                                                                    row.per_hand_text)
    return ids, found


def ladder_series(ladder: dict) -> tuple[list[int], dict[str, dict[int, tuple]]]:
    """The same from a ladder (:func:`.ladder.ladder`): each bot's ladder figure as it stood
    after each tournament it played, in the ladder's order."""
    found: dict[str, dict[int, tuple]] = {}
    for line in ladder["bots"]:
        for point in ladder["history"].get(line["name"], ()):
            if point["per_hand"] is not None:
                found.setdefault(line["name"], {})[point["tournament"]] = (
                    point["per_hand"], view_.signed(point["per_hand"]))
    return ladder["tournaments"], found


def geometry(ids: list[int], lines: dict[str, dict[int, tuple]]) -> tuple[dict, list[dict]]:
    """``(the chart's frame, one series per bot)`` of :func:`series`' ``(ids, lines)``: every
    coordinate the template draws."""
    if not lines:
        return {}, []
    values = [value for points in lines.values() for value, _ in points.values()] + [0.0]
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    pad = (high - low) * 0.08
    low, high = low - pad, high + pad
    height = max(HEIGHT, TOP + 20 + 16 * len(lines))  # room for every name in the legend
    plot_w, plot_h = WIDTH - LEFT - RIGHT, height - TOP - BOTTOM

    def x(tournament_id: int) -> float:
        if len(ids) == 1:
            return LEFT + plot_w / 2
        return round(LEFT + ids.index(tournament_id) * plot_w / (len(ids) - 1), 1)

    def y(value: float) -> float:
        return round(TOP + (high - value) / (high - low) * plot_h, 1)

    frame = {
        "width": WIDTH, "height": height, "left": LEFT, "top": TOP, "plot_w": plot_w,
        "plot_h": plot_h, "right_edge": LEFT + plot_w, "zero": y(0),
        "ticks": [{"y": y(v) + 4, "text": f"{v:+.3f}"} for v in (high - pad, 0.0, low + pad)],
        "columns": [{"x": x(t), "id": t} for t in ids],
        "label_y": height - BOTTOM + 16, "middle": LEFT + plot_w / 2,
        "legend_x": WIDTH - RIGHT + 14,
    }
    drawn = []
    for number, (name, points) in enumerate(lines.items()):
        coords = [(x(t), y(points[t][0])) for t in ids if t in points]
        drawn.append({
            "name": name, "colour": COLOURS[number % len(COLOURS)],
            "dash": DASHES[number // len(COLOURS) % len(DASHES)],
            "path": " ".join(f"{a},{b}" for a, b in coords) if len(coords) > 1 else "",
            "points": [{"x": x(t), "y": y(points[t][0]), "id": t,
                        "text": points[t][1]} for t in ids if t in points],
            "legend_y": TOP + 14 + number * 16,
        })
    return frame, drawn


def svg(tournaments: list[dict]) -> Markup:
    """The chart of ``tournaments`` (rows with ``id`` and ``standings``, newest first), or a
    muted paragraph saying there is no result yet."""
    frame, drawn = geometry(*series(tournaments))
    return render("chart.html", c=frame, series=drawn)


def ladder_svg(ladder: dict) -> Markup:
    """The chart of a ladder: each bot's ladder figure over the tournaments."""
    frame, drawn = geometry(*ladder_series(ladder))
    return render("chart.html", c=frame, series=drawn)

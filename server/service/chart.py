"""The home page's chart: each bot's result per hand over the last tournaments, as SVG.

Drawn on the server (inline SVG: no script, no image file, no network). One line per bot
through its per-hand result in each tournament it played, a dashed line at zero, the
tournaments along the bottom; every point has a ``<title>`` (its tooltip in a browser) and
every name is escaped.
"""

from __future__ import annotations

import html

#: Tableau's ten colours: told apart by most people, colour-blind ones included.
COLOURS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac")
#: Past ten bots the colours come round again, with dashes.
DASHES = ("", "6 3", "2 3")

WIDTH, HEIGHT = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 64, 170, 16, 36


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def series(tournaments: list[dict]) -> tuple[list[int], dict[str, dict[int, float]]]:
    """``(tournament ids oldest first, {bot: {tournament id: per hand}})`` from tournament
    rows with their ``standings``; bots in the order of the newest standings."""
    ids = [t["id"] for t in reversed(tournaments)]
    found: dict[str, dict[int, float]] = {}
    for tournament in tournaments:  # newest first: the legend follows the latest ranking
        for line in tournament["standings"]["bots"]:
            if line["per_hand"] is not None:
                found.setdefault(line["name"], {})[tournament["id"]] = line["per_hand"]
    return ids, found


def svg(tournaments: list[dict]) -> str:
    """The chart of ``tournaments`` (rows with ``id`` and ``standings``, newest first)."""
    ids, lines = series(tournaments)
    if not lines:
        return '<p class="muted">No results yet.</p>'
    values = [v for points in lines.values() for v in points.values()] + [0.0]
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

    out = [f'<svg class="chart" width="{WIDTH}"'
           f' height="{height}" viewBox="0 0 {WIDTH} {height}" role="img"'
           ' aria-label="Each bot\'s chips per hand in the last tournaments">',
           f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fafafa"'
           ' stroke="#ddd"/>',
           f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(0)}" y2="{y(0)}" stroke="#999"'
           ' stroke-dasharray="3 3"/>']
    for value in (high - pad, 0.0, low + pad):
        out.append(f'<text x="{LEFT - 6}" y="{y(value) + 4}" text-anchor="end"'
                   f' font-size="11" fill="#555">{value:+.3f}</text>')
    for tournament_id in ids:
        out.append(f'<text x="{x(tournament_id)}" y="{height - BOTTOM + 16}"'
                   f' text-anchor="middle" font-size="11" fill="#555">#{tournament_id}</text>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{height - 4}" text-anchor="middle"'
               ' font-size="11" fill="#555">tournament</text>')
    for number, (name, points) in enumerate(lines.items()):
        colour = COLOURS[number % len(COLOURS)]
        dash = DASHES[number // len(COLOURS) % len(DASHES)]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        coords = [(x(t), y(points[t])) for t in ids if t in points]
        out.append(f'<g class="series" data-bot="{_e(name)}">')
        if len(coords) > 1:
            path = " ".join(f"{a},{b}" for a, b in coords)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}"'
                       f' stroke-width="2"{dashed}/>')
        for t in ids:
            if t in points:
                out.append(f'<circle cx="{x(t)}" cy="{y(points[t])}" r="3.5" fill="{colour}">'
                           f'<title>{_e(name)}: {points[t]:+.4f} per hand in tournament'
                           f' #{t}</title></circle>')
        legend_y = TOP + 14 + number * 16
        out.append(f'<line x1="{WIDTH - RIGHT + 14}" x2="{WIDTH - RIGHT + 34}" y1="{legend_y - 4}"'
                   f' y2="{legend_y - 4}" stroke="{colour}" stroke-width="3"{dashed}/>'
                   f'<text x="{WIDTH - RIGHT + 40}" y="{legend_y}" font-size="12">'
                   f'{_e(name[:22])}</text></g>')
    out.append("</svg>")
    return "".join(out)

"""``report.html``: the tournament on one self-contained static page.

No script, no external style sheet, font or image: the page is read offline as well as served
by the results web server. It shows the standings with each 95% interval drawn as an error bar
(inline SVG), the run-off order, the cross-table of head-to-head results, the faults with links
to each failed match's folder, and the options and seed. Every text that comes from outside
(bot names, arguments, error paragraphs, options) goes through :func:`html.escape`.

:func:`body` is the page without its frame, with the links to failed matches given by the
caller: the competition service (``pokerbots serve``) shows it inside its own pages, linking
each match to the service's address for it.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable
from pathlib import Path

from pokerbots.server.tournament import standings as standings_
from pokerbots.server.tournament.store import Store

FILE = "report.html"

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em;
       color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { padding: .25em .6em; border-bottom: 1px solid #ddd; text-align: right;
         white-space: nowrap; }
th { background: #f4f4f4; } td.name, th.name { text-align: left; }
td.pos { color: #176117; } td.neg { color: #a11; }
pre { background: #f7f7f7; padding: .6em; overflow-x: auto; white-space: pre-wrap; }
.bar line.zero { stroke: #999; stroke-dasharray: 2 2; }
.bar line.ci { stroke: #246; stroke-width: 2; }
.bar circle { fill: #246; }
.muted { color: #777; }
"""

_BAR_WIDTH = 260


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _signed(value, digits: int = 4) -> str:
    return "-" if value is None else f"{value:+.{digits}f}"


def bars(lines: list[dict]):
    """A function drawing one bot's interval as a small SVG, on a scale shared by all."""
    points = [0.0]
    for line in lines:
        if line["ci95"] is not None:
            points += line["ci95"]
        elif line["per_hand"] is not None:
            points.append(line["per_hand"])
    low, high = min(points), max(points)
    if high == low:
        high = low + 1
    pad = (high - low) * 0.05
    low, high = low - pad, high + pad

    def x(value: float) -> float:
        return round((value - low) / (high - low) * _BAR_WIDTH, 1)

    def draw(line: dict) -> str:
        parts = [f'<svg class="bar" width="{_BAR_WIDTH}" height="14" role="img"'
                 f' aria-label="95% interval">',
                 f'<line class="zero" x1="{x(0)}" y1="0" x2="{x(0)}" y2="14"/>']
        if line["ci95"] is not None:
            a, b = (x(v) for v in line["ci95"])
            parts.append(f'<line class="ci" x1="{a}" y1="7" x2="{b}" y2="7"/>'
                         f'<line class="ci" x1="{a}" y1="3" x2="{a}" y2="11"/>'
                         f'<line class="ci" x1="{b}" y1="3" x2="{b}" y2="11"/>')
        if line["per_hand"] is not None:
            parts.append(f'<circle cx="{x(line["per_hand"])}" cy="7" r="3.5"/>')
        return "".join(parts) + "</svg>"

    return draw


def _link(folder: Path, log_dir: str | None) -> str:
    if not log_dir:
        return ""
    try:
        target = os.path.relpath(log_dir, folder)
    except ValueError:
        target = log_dir
    return f'<a href="{_e(target)}/">{_e(target)}</a>'


def render(store: Store, folder: Path, document: dict | None = None) -> str:
    """The page for the tournament whose store is ``store`` and folder ``folder``."""
    document = document or standings_.document(store)
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Tournament: {_e(document['game'])}</title><style>{STYLE}</style></head><body>",
        body(store, document, lambda row: _link(folder, row["log_dir"])),
        "</body></html>"]) + "\n"


def body(store: Store, document: dict, link: Callable[[dict], str]) -> str:
    """The report's content: headings, tables and fault paragraphs (``link(row)``: the HTML
    that leads to a failed match's logs)."""
    options = store.meta("options")
    rows = store.matches()
    names = [e.name for e in store.entrants()]
    rules = standings_.rules_of(options)
    lines = document["bots"]
    allin = lines and "allin_adjusted_per_hand" in lines[0]
    draw = bars(lines)
    counts = document["matches"]
    out = [
        f"<h1>Tournament: {_e(document['game'])}, {document['players']} players</h1>",
        f"<p>{document['hands_per_match']:,} hands per match"
        f"{', duplicate' if document['duplicate'] else ''}; seed {_e(document['seed'])}."
        f" Matches: {counts['planned']} planned, {counts['done']} done, {counts['failed']}"
        f" failed, {counts['skipped']} skipped.</p>",
        "<h2>Standings</h2>",
        '<table><thead><tr><th>rank</th><th class="name">bot</th><th>per hand</th>'
        "<th>95% interval</th><th></th><th>bankroll</th><th>hands</th><th>matches</th>"
        "<th>faults</th><th>run-off</th>"
        + ("<th>all-in adjusted per hand</th><th>± stderr</th>" if allin else "")
        + "</tr></thead><tbody>",
    ]
    for line in lines:
        ci = ("-" if line["ci95"] is None
              else f"[{line['ci95'][0]:+.4f}, {line['ci95'][1]:+.4f}]")
        tone = "" if not line["per_hand"] else (" pos" if line["per_hand"] > 0 else " neg")
        out.append(
            f"<tr><td>{line['rank']}</td><td class=\"name\">{_e(line['name'])}</td>"
            f'<td class="num{tone}">{_signed(line["per_hand"])}</td><td>{ci}</td>'
            f"<td>{draw(line)}</td><td>{line['bankroll']:+,}</td><td>{line['hands']:,}</td>"
            f"<td>{line['matches']}</td><td>{line['faults']}</td><td>{line['runoff_rank']}</td>"
            + (f"<td>{_signed(line['allin_adjusted_per_hand'])}</td>"
               f"<td>{_signed(line['allin_adjusted_stderr'])}</td>" if allin else "")
            + "</tr>")
    out.append("</tbody></table>")
    out.append('<p class="muted">Per hand: chips won per hand played (a forfeit counts the'
               " whole planned match). The interval is 95% (Student's t over independent"
               " units: deal sets with duplicate, else matches).</p>")
    out.append("<h2>Instant run-off</h2><ol>")
    out += [f"<li>{_e(name)}</li>" for name in document["runoff"]]
    out.append("</ol>")
    cross = standings_.cross_table(rows, names, rules)
    out.append("<h2>Cross-table</h2><p class=\"muted\">Each cell: the row's bot's chips per"
               " hand in the matches where the column's bot also sat.</p><table><thead><tr>"
               '<th class="name"></th>' + "".join(f"<th>{_e(n)}</th>" for n in names)
               + "</tr></thead><tbody>")
    for a in names:
        cells = "".join("<td>-</td>" if a == b else f"<td>{_signed(cross[a][b], 3)}</td>"
                        for b in names)
        out.append(f'<tr><th class="name">{_e(a)}</th>{cells}</tr>')
    out.append("</tbody></table>")
    failed = [r for r in rows if r["status"] == "failed"]
    out.append(f"<h2>Faults ({len(failed)})</h2>")
    if not failed:
        out.append("<p>No bot broke a rule.</p>")
    for row in failed:
        out.append(
            f"<p><b>{_e(row['culprit'])}</b> in match {row['id']} (table {row['table_no']},"
            f" deal set {row['deal_set']}, seating {row['seating_no']}:"
            f" {_e(', '.join(row['seating']))}) after {row['hands']} hands."
            f" Logs: {link(row)}</p><pre>{_e(row['error'] or '')}</pre>")
    out.append("<h2>Options</h2><table><tbody>")
    for key, value in sorted(options.items()):
        out.append(f'<tr><th class="name">{_e(key)}</th>'
                   f'<td class="name">{_e(json.dumps(value))}</td></tr>')
    out.append(f'<tr><th class="name">seed</th><td class="name">{_e(document["seed"])}</td>'
               "</tr></tbody></table>")
    out.append("<h2>Bots</h2><table><thead><tr><th class=\"name\">bot</th>"
               '<th class="name">command</th><th class="name">sha256</th></tr></thead><tbody>')
    for entrant in store.entrants():
        out.append(f'<tr><td class="name">{_e(entrant.name)}</td>'
                   f'<td class="name">{_e(entrant.arg)}</td>'
                   f'<td class="name"><code>{_e(entrant.sha256[:16])}…</code></td></tr>')
    out.append("</tbody></table>")
    return "\n".join(out)

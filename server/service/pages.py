"""The web site's pages, as HTML text made from the store (no template engine, no script).

Every page is complete without JavaScript and loads nothing else: the style is inline, the
charts are inline SVG. Every text that comes from outside (bot names, version labels, error
paragraphs, transcripts) goes through :func:`html.escape`; links to a bot's page quote its
name.
"""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass
from urllib.parse import quote

from pokerbots.server import __version__, games
from pokerbots.server.service import chart
from pokerbots.server.service.scheduler import Settings, stamp
from pokerbots.server.tournament import report

#: Tournaments in the home page's chart, and in its list.
CHART_TOURNAMENTS = 10
LIST_TOURNAMENTS = 20
#: Lines of a failed smoke test's transcript shown on the bot's page (the file has them all).
TRANSCRIPT_LINES = 60

_STYLE = """
nav { margin-bottom: 1.5em; } nav a { margin-right: 1em; }
.status-admitted { color: #176117; } .status-quarantined, .status-rejected { color: #a11; }
.status-testing { color: #8a5a00; }
footer { margin-top: 3em; color: #777; font-size: .9em; }
td.reason { text-align: left; white-space: normal; max-width: 40em; }
.report td.name { white-space: normal; overflow-wrap: anywhere; }
"""


@dataclass(frozen=True)
class Now:
    """What the scheduler is doing, for the pages (see :class:`.scheduler.Service`)."""

    settings: Settings
    playing: int | None
    testing: str | None
    next_at: float | None


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _signed(value, digits: int = 4) -> str:
    return "-" if value is None else f"{value:+.{digits}f}"


def _when(seconds: float | None) -> str:
    return "-" if seconds is None else stamp(seconds)


def bot_link(name: str) -> str:
    return f'<a href="/bots/{_e(quote(name, safe=""))}">{_e(name)}</a>'


def tournament_link(tournament_id: int) -> str:
    return f'<a href="/tournaments/{tournament_id}">#{tournament_id}</a>'


def _interval(line: dict) -> str:
    ci = line["ci95"]
    return "-" if ci is None else f"[{ci[0]:+.4f}, {ci[1]:+.4f}]"


def table(kind: str, columns: str, rows: list[list]) -> str:
    """An HTML table of class ``kind``. ``columns``: the headings separated by ``|``, a
    heading starting with ``<`` is a left-aligned text column (``"<bot|rank"``). Each cell is
    HTML, or ``(html, extra class)``."""
    heads = [(c[1:], "name") if c.startswith("<") else (c, "") for c in columns.split("|")]
    head = "".join(f'<th class="{cls}">{text}</th>' for text, cls in heads)
    body = []
    for row in rows:
        cells = []
        for (_, cls), cell in zip(heads, row):
            if isinstance(cell, tuple):
                cell, more = cell
                cls = f"{cls} {more}".strip()
            cells.append(f'<td class="{cls}">{cell}</td>' if cls else f"<td>{cell}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f'<table class="{kind}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}'
            "</tbody></table>")


def describe(bot: dict) -> tuple[str, str | None, str | None]:
    """A bot's ``(status, reason, admitted version label)``: its status is its current
    version's (``testing``, ``admitted``, ``quarantined``, ``rejected``); a bot whose folder
    went away is ``rejected`` and plays no more."""
    if not bot["present"]:
        return "rejected", "its folder is no longer in the submissions folder", None
    version = bot["version"]
    admitted = bot["admitted"]["label"] if bot["admitted"] else None
    return version["status"], version["reason"], admitted


def frame(title: str, body: str, now: Now) -> str:
    settings = now.settings
    options = settings.options
    kind = games.get(options["game"])
    sandbox = ("in a sandbox (bubblewrap: no network, read-only system)" if settings.sandbox
               else "without a sandbox")
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)} · pokerbots</title><style>{report.STYLE}{_STYLE}</style>",
        "</head><body>",
        '<nav><a href="/">Standings</a><a href="/api/standings">JSON API</a></nav>',
        body,
        f"<footer>{_e(kind.title)}, tables of {settings.players}, {options['hands']:,} hands"
        f" per match{', duplicate deals' if options['duplicate'] else ''}; a tournament"
        f" every {_e(every_text(settings.every))}. Bots run {sandbox}."
        f" pokerbots {__version__}.</footer>",
        "</body></html>"]) + "\n"


def every_text(seconds: float) -> str:
    for unit, size in (("h", 3600), ("m", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{seconds:g}s"


# -- the home page -------------------------------------------------------------------------


def home(store, now: Now) -> str:
    done = store.tournaments("done", limit=CHART_TOURNAMENTS)
    recent = store.tournaments(limit=LIST_TOURNAMENTS)
    bots = store.bots()
    out = ["<h1>pokerbots competition</h1>", _schedule(store, recent, now)]
    if done:
        latest = done[0]
        out.append(f"<h2>Standings</h2><p>After tournament {tournament_link(latest['id'])},"
                   f" finished {_when(latest['finished'])}.</p>")
        out.append(standings_table(latest))
        out.append("<h2>Per hand over the last tournaments</h2>")
        out.append(chart.svg(done))
    else:
        out.append("<h2>Standings</h2><p>No tournament has finished yet.</p>")
    out.append(_quarantine(bots, now))
    out.append(_bots(bots))
    out.append(_tournament_list(recent))
    return frame("Standings", "\n".join(out), now)


def _schedule(store, recent: list[dict], now: Now) -> str:
    last = next((t for t in recent if t["status"] != "running"), None)
    parts = []
    if now.playing is not None:
        counts = Counter(m["status"] for m in store.matches(now.playing))
        played = counts["done"] + counts["failed"] + counts["skipped"]
        progress = (f"{played} of {sum(counts.values())} matches played" if counts
                    else "starting")
        parts.append(f"Playing now: tournament {tournament_link(now.playing)} ({progress}).")
    if last is not None:
        parts.append(f"Last tournament: {tournament_link(last['id'])}, started"
                     f" {_when(last['started'])}, {_e(last['status'])}"
                     + (f" {_when(last['finished'])}" if last["finished"] else "") + ".")
    if now.playing is None and now.next_at is None:
        parts.append(f"Next tournament: as soon as {now.settings.players} bots are admitted.")
    elif now.playing is None:
        parts.append(f"Next tournament: {_when(now.next_at)}.")
    return f'<p class="schedule">{" ".join(parts)}</p>'


def standings_table(tournament: dict) -> str:
    """A tournament's standings with each bot's version and its interval drawn as a bar."""
    lines = tournament["standings"]["bots"]
    versions = {b["name"]: b["version"] for b in tournament["bots"]}
    draw = report.bars(lines)
    rows = []
    for line in lines:
        tone = "" if not line["per_hand"] else ("pos" if line["per_hand"] > 0 else "neg")
        rows.append([line["rank"], bot_link(line["name"]),
                     _e(versions.get(line["name"], "-")),
                     (_signed(line["per_hand"]), f"num {tone}"), _interval(line), draw(line),
                     line["faults"], line["matches"], f"{line['hands']:,}"])
    return table("standings", "rank|<bot|<version|per hand|95% interval||faults|matches|hands",
                 rows)


def _quarantine(bots: list[dict], now: Now) -> str:
    rows = []
    for bot in bots:
        status, reason, admitted = describe(bot)
        if status == "admitted":
            continue
        if status == "testing":
            reason = ("smoke test under way" if now.testing == bot["name"]
                      else "waiting for its smoke test")
        rows.append([bot_link(bot["name"]), _e(bot["version"]["label"]),
                     (status, f"status-{status}"), (_e(reason or ""), "reason"),
                     _e(admitted or "-")])
    if not rows:
        return "<h2>Quarantine</h2><p>Every bot's current version is admitted.</p>"
    return "<h2>Quarantine</h2>" + table(
        "quarantine", "<bot|<version|<status|<reason|<playing meanwhile", rows)


def _bots(bots: list[dict]) -> str:
    if not bots:
        return "<h2>Bots</h2><p>No bot yet: put one folder per bot in the submissions folder.</p>"
    rows = []
    for bot in bots:
        status, _, admitted = describe(bot)
        rows.append([bot_link(bot["name"]), (status, f"status-{status}"),
                     _e(bot["version"]["label"]), _e(admitted or "-"),
                     _when(bot["version"]["seen"])])
    return "<h2>Bots</h2>" + table(
        "bots", "<bot|<status|<version in its folder|<version that plays|<since", rows)


def _tournament_list(recent: list[dict]) -> str:
    if not recent:
        return "<h2>Tournaments</h2><p>None yet.</p>"
    rows = []
    for t in recent:
        lines = (t["standings"] or {}).get("bots") or []
        winner = bot_link(lines[0]["name"]) if lines and t["status"] == "done" else "-"
        rows.append([tournament_link(t["id"]), _e(t["status"]), _when(t["started"]),
                     _when(t["finished"]), len(t["bots"]), winner])
    return "<h2>Tournaments</h2>" + table(
        "tournaments", "tournament|<status|<started|<finished|bots|<winner", rows)


# -- a bot's page --------------------------------------------------------------------------


def bot(store, name: str, now: Now, transcript) -> str | None:
    """The page of bot ``name`` (None if there is none); ``transcript(version)``: the last
    lines of a quarantined version's transcript, or None."""
    row = store.bot(name)
    if row is None:
        return None
    status, reason, admitted = describe(row)
    out = [f"<h1>Bot {_e(name)}</h1>",
           f'<p>Status: <b class="status-{status}">{status}</b>'
           + (f" ({_e(reason)})" if reason and status != "admitted" else "")
           + f". Version in its folder: {_e(row['version']['label'])}."
           f" Version that plays: {_e(admitted or 'none')}.</p>",
           "<h2>Versions</h2>"]
    for version in store.versions(name):
        out.append(_version(version, transcript))
    out.append(_results(store, name))
    out.append(_failures(store, name))
    return frame(f"Bot {name}", "\n".join(out), now)


def _version(version: dict, transcript) -> str:
    status = version["status"]
    digest = version["digest"][:12]
    head = (f"<h3>{_e(version['label'])}"
            + (f' <span class="muted">sha256 {digest}</span>' if version["label"] != digest
               else "")
            + f' <span class="status-{status}">{status}</span></h3>'
            f"<p>Seen {_when(version['seen'])}"
            + (f"; tested {_when(version['tested'])} ({version['cases']} smoke matches)"
               if version["tested"] else "") + ".")
    if version["reason"]:
        head += f" {_e(version['reason'])}"
    head += "</p>"
    if status != "quarantined":
        return head
    out = [head, f"<pre class=\"report\">{_e(version['report'] or '')}</pre>"]
    lines = transcript(version) if version["transcript"] else None
    if lines is not None:
        link = f"/versions/{version['id']}/{_e(version['transcript'])}"
        out.append(f'<p>Its transcript (<a href="{link}">{_e(version["transcript"])}</a>,'
                   f" the last {TRANSCRIPT_LINES} lines; <code>./bot &lt;"
                   f" {_e(version['transcript'])}</code> replays it):</p>"
                   f'<pre class="transcript">{_e(lines)}</pre>')
        out.append("<p>Logs of that match: "
                   + ", ".join(f'<a href="/versions/{version["id"]}/{f}">{f}</a>'
                               for f in ("hands.txt", "summary.json",
                                         version["transcript"].replace(".in", ".stderr")))
                   + "</p>")
    return "\n".join(out)


def _results(store, name: str) -> str:
    rows = []
    for t in store.tournaments("done"):
        line = next((b for b in t["standings"]["bots"] if b["name"] == name), None)
        if line is None:
            continue
        version = next((b["version"] for b in t["bots"] if b["name"] == name), "-")
        rows.append([tournament_link(t["id"]), _when(t["finished"]), _e(version),
                     f"{line['rank']} of {len(t['standings']['bots'])}",
                     _signed(line["per_hand"]), _interval(line), line["faults"],
                     line["matches"]])
    if not rows:
        return "<h2>Results</h2><p>It has not finished a tournament yet.</p>"
    return "<h2>Results</h2>" + table(
        "results", "tournament|<finished|<version|rank|per hand|95% interval|faults|matches",
        rows)


def _failures(store, name: str) -> str:
    failed = store.failed_matches(name)
    out = [f"<h2>Failed matches ({len(failed)})</h2>"]
    for match in failed:
        first = (match["error"] or "").split("\n", 1)[0]
        out.append(f'<p><a href="/matches/{match["id"]}">match {match["id"]}</a> of'
                   f" tournament {tournament_link(match['tournament_id'])}, after"
                   f" {match['hands']} hands: {_e(first)} Logs:"
                   f' <a href="/matches/{match["id"]}/hands.txt">hands.txt</a></p>')
    if not failed:
        out.append("<p>None.</p>")
    return "".join(out)


# -- a tournament and a match --------------------------------------------------------------


def tournament(store, row: dict, report_body: str | None, now: Now) -> str:
    """A tournament's page: when and who, its report's content, then its matches."""
    bots = ", ".join(f"{bot_link(b['name'])} {_e(b['version'])}" for b in row["bots"])
    out = [f"<h1>Tournament #{row['id']}</h1>",
           f"<p>Status: <b>{_e(row['status'])}</b>. Started {_when(row['started'])}"
           + (f", finished {_when(row['finished'])}" if row["finished"] else "")
           + f". Seed {row['seed']}. Bots: {bots}.</p>"]
    if row["error"]:
        out.append(f"<pre>{_e(row['error'])}</pre>")
    if report_body is not None:
        out.append(f'<div class="report">{report_body}</div>')
    matches = store.matches(row["id"])
    rows = []
    for match in matches:
        money = _by_seat(match, _e)
        logs = (f'<a href="/matches/{match["id"]}/hands.txt">hands.txt</a>'
                if match["log_dir"] else "")
        rows.append([f'<a href="/matches/{match["id"]}">{match["id"]}</a>', match["table_no"],
                     match["deal_set"], match["seating_no"], money, _e(match["status"]),
                     "-" if match["hands"] is None else match["hands"], logs])
    out.append(f"<h2>Matches ({len(matches)})</h2>")
    out.append(table("matches", "match|table|deal set|seating|<bots and results|<status|hands"
                     "|<logs", rows))
    return frame(f"Tournament #{row['id']}", "\n".join(out), now)


def match(row: dict, files: list[str], now: Now) -> str:
    """A match's page: its tournament, bots, result, error, and links to its log files."""
    money = _by_seat(row, bot_link)
    out = [f"<h1>Match {row['id']}</h1>",
           f"<p>Tournament {tournament_link(row['tournament_id'])}, table {row['table_no']},"
           f" deal set {row['deal_set']}, seating {row['seating_no']}:"
           f" <b>{_e(row['status'])}</b> after {row['hands'] or 0} hands. {money}.</p>"]
    if row["error"]:
        out.append(f"<pre>{_e(row['error'])}</pre>")
    out.append("<h2>Logs</h2><ul>")
    out += [f'<li><a href="/matches/{row["id"]}/{_e(f)}">{_e(f)}</a></li>' for f in files]
    out.append("</ul>")
    if not files:
        out.append("<p>No log file (the match has not started).</p>")
    return frame(f"Match {row['id']}", "\n".join(out), now)


def _by_seat(match: dict, name) -> str:
    """``alice +12, bob -12``: each seat's bot (``name(bot)``: its HTML) and result."""
    values = match["bankrolls"] or [None] * len(match["seating"])
    return ", ".join(name(bot) if value is None else f"{name(bot)} {_signed(value, 0)}"
                     for bot, value in zip(match["seating"], values))


def not_found(text: str, now: Now) -> str:
    return frame("Not found", f"<h1>Not found</h1><p>{_e(text)}</p>", now)

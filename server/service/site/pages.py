"""The web site's pages, made from the store with the Jinja2 templates of ``templates/``.

Every page is complete without JavaScript and loads nothing else: the style is inline, the
charts are inline SVG. The templates autoescape: every text that comes from outside (bot
names, version labels, error paragraphs, transcripts) is escaped as :func:`html.escape` does
it, and links to a bot's page quote its name. This module gathers what a page shows; the
standings come from the standings' view (:mod:`pokerbots.server.tournament.view`), the names
of a match folder's files from :mod:`pokerbots.server.logs.folder`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pokerbots.server import __version__, games
from pokerbots.server.logs import folder
from pokerbots.server.service.data import commitments
from pokerbots.server.service.jobs.scheduler import Settings
from pokerbots.server.service.site import chart, visibility
from pokerbots.server.tournament import view as view_

#: Tournaments in the home page's chart, and in its list.
CHART_TOURNAMENTS = 10
LIST_TOURNAMENTS = 20
#: Lines of a failed smoke test's transcript shown on the bot's page (the file has them all).
TRANSCRIPT_LINES = 60
#: Seats a match folder may have files for (:data:`.folder.FILE_NAME`).
_SEATS = 100


@dataclass(frozen=True)
class Now:
    """What the scheduler is doing, for the pages (see :class:`.jobs.scheduler.Service`)."""

    settings: Settings
    playing: int | None
    testing: str | None
    next_at: float | None


def describe(bot: dict) -> tuple[str, str | None, str | None]:
    """A bot's ``(status, reason, admitted version label)``: its status is its current
    version's (``testing``, ``admitted``, ``quarantined``, ``rejected``); a bot whose folder
    went away (or whose team was revoked) is ``rejected``
    and plays no more."""
    if not bot["present"]:
        if bot.get("team_revoked") is not None:
            return "rejected", "its team's token was revoked (pokerbots team revoke)", None
        return "rejected", "its folder is no longer in the submissions folder", None
    version = bot["version"]
    admitted = bot["admitted"]["label"] if bot["admitted"] else None
    return version["status"], version["reason"], admitted


def every_text(seconds: float) -> str:
    for unit, size in (("h", 3600), ("m", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{seconds:g}s"


def page(template: str, title: str, now: Now, viewer=None, **context) -> str:
    """The page ``template`` in the site's frame (title, navigation with the ``viewer``'s
    team page, footer)."""
    settings = now.settings
    options = settings.options
    footer = {"game": games.get(options["game"]).title, "players": settings.players,
              "hands": f"{options['hands']:,}", "duplicate": options["duplicate"],
              "every": every_text(settings.every), "sandbox": settings.sandbox,
              "version": __version__}
    return chart.render(template, title=title, footer=footer, history=folder.HISTORY,
                        viewer=viewer, **context) + "\n"


# -- the home page -------------------------------------------------------------------------


def home(store, now: Now, ladder: dict | None = None, viewer=None) -> str:
    """The home page: the ladder (:func:`.ladder.ladder`; none: no ladder yet), the latest
    standings and their chart, the quarantine, the bots and the tournaments."""
    ladder = ladder or {"bots": [], "unit": "match", "tournaments": [], "history": {}}
    done = store.tournaments("done", limit=CHART_TOURNAMENTS)
    recent = store.tournaments(limit=LIST_TOURNAMENTS)
    bots = store.bots()
    progress = None
    if now.playing is not None:
        counts = Counter(m["status"] for m in store.matches(now.playing))
        played = counts["done"] + counts["failed"] + counts["skipped"]
        progress = (f"{played} of {sum(counts.values())} matches played" if counts
                    else "starting")
    latest = done[0] if done else None
    colours = chart.palette(bots)  # a bot's colour, the same on both charts, for good
    return page(
        "home.html", "Standings", now, viewer,
        ladder=view_.of({"bots": ladder["bots"], "unit": ladder["unit"]}),
        ladder_versions={b["name"]: b["version"] for b in ladder["bots"]},
        ladder_tournaments=ladder["tournaments"],
        ladder_chart=chart.ladder_svg(ladder, colours),
        playing=now.playing, progress=progress, next_at=now.next_at,
        players=now.settings.players,
        last=next((t for t in recent if t["status"] != "running"), None),
        latest=latest, **(_standings(latest) if latest else {}),
        chart=chart.svg(done, colours) if done else None,
        quarantine=_quarantine(bots, now), bots=_bots(bots), recent=_tournament_list(recent))


def _standings(tournament: dict) -> dict:
    """A tournament's standings view and each bot's version, for ``standings_table.html``."""
    return {"view": view_.of(tournament["standings"]),
            "versions": {b["name"]: b["version"] for b in tournament["bots"]}}


def _quarantine(bots: list[dict], now: Now) -> list[dict]:
    rows = []
    for bot in bots:
        status, reason, admitted = describe(bot)
        if status == "admitted":
            continue
        if status == "testing":
            reason = ("smoke test under way" if now.testing == bot["name"]
                      else "waiting for its smoke test")
        rows.append({"name": bot["name"], "label": bot["version"]["label"], "status": status,
                     "reason": reason or "", "admitted": admitted or "-"})
    return rows


def _bots(bots: list[dict]) -> list[dict]:
    rows = []
    for bot in bots:
        status, _, admitted = describe(bot)
        rows.append({"name": bot["name"], "status": status, "label": bot["version"]["label"],
                     "admitted": admitted or "-", "seen": bot["version"]["seen"]})
    return rows


def _tournament_list(recent: list[dict]) -> list[dict]:
    rows = []
    for t in recent:
        rows_ = view_.of(t["standings"] or {}).rows
        winner = (rows_[0].name if rows_ and rows_[0].rank is not None and t["status"] == "done"
                  else None)
        rows.append({**t, "winner": winner})
    return rows


# -- a bot's page --------------------------------------------------------------------------


def bot(store, name: str, now: Now, transcript, viewer=None) -> str | None:
    """The page of bot ``name`` (None if there is none); ``transcript(version)``: the last
    lines of a quarantined version's transcript, or None. A quarantined version's smoke
    report, transcript and logs are shown to the bot's team and the organiser only
    (:func:`.visibility.sees_team`): the report quotes the bot's stderr."""
    row = store.bot(name)
    if row is None:
        return None
    status, reason, admitted = describe(row)
    own = visibility.sees_team(viewer, name)
    return page("bot.html", f"Bot {name}", now, viewer, name=name, status=status,
                reason=reason, label=row["version"]["label"], admitted=admitted, own=own,
                versions=[_version(v, transcript, own) for v in store.versions(name)],
                results=_results(store, name), failed=store.failed_matches(name),
                transcript_lines=TRANSCRIPT_LINES)


def _version(version: dict, transcript, own: bool = True) -> dict:
    """A version with what its paragraph shows: its short digest, and for a quarantined one
    (to its ``own`` team) its smoke report, the last lines of its transcript and the log files
    of its smoke match."""
    found = {**version, "digest": version["digest"][:12], "lines": None, "logs": ()}
    if not own:
        found["report"] = None
    elif version["status"] == "quarantined" and version["transcript"]:
        found["lines"] = transcript(version)
        found["logs"] = (folder.HISTORY, folder.SUMMARY, *_stderr_of(version["transcript"]))
    return found


def _stderr_of(transcript: str) -> tuple[str, ...]:
    """The stderr file of the seat whose transcript is ``transcript`` (none if it is not a
    transcript's name)."""
    return tuple(folder.stderr_name(seat) for seat in range(_SEATS)
                 if folder.transcript_name(seat) == transcript)


def _results(store, name: str) -> list[tuple]:
    """``(tournament, version, standings row, bots)`` of each finished tournament it played."""
    found = []
    for t in store.tournaments("done"):
        rows = view_.of(t["standings"]).rows
        line = next((r for r in rows if r.name == name), None)
        if line is None:
            continue
        version = next((b["version"] for b in t["bots"] if b["name"] == name), "-")
        found.append((t, version, line, len(rows)))
    return found


# -- a tournament and a match --------------------------------------------------------------


def tournament(store, row: dict, report_body: str | None, now: Now, viewer=None) -> str:
    """A tournament's page: when and who, its commitment, its seed and salt if ``row`` (as
    :meth:`.visibility.Sight.tournament` gives it to the viewer) has them, with the command
    that checks them against the commitment; its report's content (markup made by the
    report's template), then its matches."""
    seed, salt = row.get("seed"), row.get("salt")
    check = (commitments.check_command(seed, salt)
             if seed is not None and salt is not None else None)
    return page("tournament.html", f"Tournament #{row['id']}", now, viewer, row=row,
                seed=seed, salt=salt, check=check, report_body=report_body,
                matches=store.matches(row["id"]))


def match(row: dict, files: list[str], now: Now, sight=visibility.PUBLIC, hands: int = 0,
          viewer=None) -> str:
    """A match's page: its tournament, bots, result, error (as ``sight`` may read it), links
    to its log files (those ``sight`` may read), its hands and the replayer."""
    seat = _seat_of(row)
    error = sight.error(row["error"], seat)
    return page("match.html", f"Match {row['id']}", now, viewer, row={**row, "error": error},
                files=files, hands=hands, seats=sorted(sight.seats),
                everything=sight.everything)


def _seat_of(row: dict) -> int | None:
    """The culprit's seat in a match row (the store keeps its name)."""
    culprit = row.get("culprit")
    seating = row.get("seating") or []
    return seating.index(culprit) if culprit in seating else None


def hands(row: dict, blocks: list[tuple[int, str]], now: Now, sight, pages_: dict,
          viewer=None) -> str:
    """A match's hand history as ``sight`` may see it, each hand (``(number, text)``)
    linked to its replay; ``pages_``: ``{"page", "pages", "size"}``."""
    return page("hands.html", f"Match {row['id']}: hands", now, viewer, row=row,
                blocks=blocks, everything=sight.everything, seats=sorted(sight.seats),
                **pages_)


def replayer(row: dict, number: int, count: int, replay: dict, now: Now, sight,
             viewer=None) -> str:
    """The replayer of hand ``number`` of ``count`` (``replay``: :func:`.replay.steps`)."""
    return page("replayer.html", f"Match {row['id']}, hand {number}", now, viewer, row=row,
                number=number, count=count, replay=replay, first=replay["steps"][0],
                everything=sight.everything, seats=sorted(sight.seats))


def team(store, name: str, now: Now, transcript, viewer) -> str:
    """Team ``name``'s own page: its versions with their smoke reports (and a quarantined
    one's transcript), its matches with its opponents, its results and links to what its
    seat saw."""
    row = store.bot(name)
    versions = [_version(v, transcript) for v in store.versions(name)]
    found = []
    for m in store.matches_of(name):
        seats = [s for s, bot in enumerate(m["seating"]) if bot == name]
        results = [m["bankrolls"][s] for s in seats] if m["bankrolls"] else []
        opponents = [(bot, m["bankrolls"][s] if m["bankrolls"] else None)
                     for s, bot in enumerate(m["seating"]) if bot != name]
        found.append({**m, "seats": seats, "results": results, "opponents": opponents,
                      "error": visibility.sight(viewer, m["seating"]).error(
                          m["error"], _seat_of(m))})
    status = describe(row) if row else ("unknown", None, None)
    return page("team.html", f"Team {name}", now, viewer, name=name, known=row is not None,
                status=status[0], reason=status[1], admitted=status[2], versions=versions,
                matches=found, transcript_lines=TRANSCRIPT_LINES,
                transcript_name=folder.transcript_name, stderr_name=folder.stderr_name)


def login(name: str, now: Now, viewer=None, wrong: bool = False) -> str:
    """The login form (the teams' template), for the page of team ``name``."""
    return page("login.html", "Log in", now, viewer, team=name, next=f"/teams/{name}",
                wrong=wrong)


def forbidden(text: str, now: Now, viewer=None) -> str:
    return page("not_found.html", "Not yours", now, viewer, text=text, heading="Forbidden")


def not_found(text: str, now: Now, viewer=None) -> str:
    return page("not_found.html", "Not found", now, viewer, text=text)

"""``/tournaments/ID``: a tournament's report, made from its own results store, each failed
match linked to its page here and its error paragraphs as the viewer may read them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from pokerbots.server.service.data.store import relative_text
from pokerbots.server.service.site import pages, visibility
from pokerbots.server.service.site.shared import Site
from pokerbots.server.tournament import report, results_store
from pokerbots.server.tournament import standings as standings_

#: The statuses after which a tournament's own store changes no more: its page is kept.
TOURNAMENT_FINAL = frozenset({"done", "failed"})


def tournament(site: Site, request: Request, viewer, state):
    tournament_id = request.path_params["tournament_id"]
    with site.reading() as store:
        row = store.tournament(tournament_id)
        if row is None:
            return site.not_found(f"There is no tournament {tournament_id}.", viewer,
                                  state), True
        numbers = {m["match_no"]: m["id"] for m in store.matches(tournament_id)}
        body = report_body(site.data, site.data / row["folder"], row, numbers, viewer)
        seen = visibility.sight(viewer).tournament(row)
        return (HTMLResponse(pages.tournament(store, seen, body, state, viewer)),
                row["status"] in TOURNAMENT_FINAL)


class _Seen:
    """A tournament's results store as ``sight`` may read its failed matches: each error
    paragraph as :meth:`.visibility.Sight.error` gives it (the report quotes them); the paths
    in them and in the bots' commands relative to the data folder ``data``."""

    def __init__(self, results, viewer, data: Path) -> None:
        self.results = results
        self.viewer = viewer
        self.data = data

    def __getattr__(self, name):
        return getattr(self.results, name)

    def matches(self, *statuses: str) -> list[dict]:
        rows = self.results.matches(*statuses)
        return [{**r, "error": visibility.sight(self.viewer, r["seating"]).error(
                    relative_text(r["error"], self.data), r["culprit_seat"])} for r in rows]

    def entrants(self) -> list:
        return [dataclasses.replace(e, arg=relative_text(e.arg, self.data))
                for e in self.results.entrants()]


def report_body(data: Path, folder: Path, row: dict, numbers: dict[int, int], viewer=None
                ) -> Markup | None:
    """The content of the tournament's ``report.html``, made from its own store (in
    ``folder`` of the data folder ``data``), each failed match linked to its page here
    (``numbers``: its id there -> its id here), its error paragraphs as ``viewer`` may read
    them."""
    if not results_store.exists(folder):
        return None
    results = _Seen(results_store.open_store(folder), viewer, data)
    try:
        document = row["standings"] if row["status"] == "done" else None
        document = visibility.sight(viewer).standings(document or standings_.document(results))

        def link(match: dict) -> report.Link:
            number = numbers.get(match["id"])
            return (None, "-") if number is None else (f"/matches/{number}", f"match {number}")

        return report.body(results, document, link)
    finally:
        results.results.close()


def routes(site: Site) -> list[Route]:
    return [Route("/tournaments/{tournament_id:id}", site.kept(tournament))]

#!/usr/bin/env python3
"""An attack on the hidden hole cards of a competition, from what one viewer may fetch.

It reads everything a visitor (or, with ``--token``, a team) may read of a running
``pokerbots serve``: every page reachable by a link from the home page (and from the team's
own page), the JSON API, and every file of every match (``summary.json``, ``hands.jsonl``,
the hand history, its pages and replays, each seat's files the viewer may open). It takes
every number in all of it (decimal runs, and hexadecimal runs of 16 digits or more read as
numbers) and tries each one, with the project's own dealing code
(:mod:`pokerbots.server.tournament.deals`), as every match's *match seed* and as every
tournament's *seed* (a match seed derived from it, table and deal set as the tournament
says). A number is taken for a match's seed when the cards it deals agree with every card
the viewer sees of that match (the boards, its own hole cards, those shown at a showdown);
the cards it then deals to the seats the viewer does not see are the attack's prediction.

Run against a site: ``python tests/programs/attacks/recompute_cards.py http://127.0.0.1:8000
[--token TOKEN]``; it prints one JSON document: how many pages and numbers it read, how
many hidden hole cards the viewer had, and every one it predicts (``"MATCH:HAND:SEAT"`` ->
cards) and, as ``"tried"``, every number it tried. A test compares the predictions with the
organiser's logs.
"""

from __future__ import annotations

import argparse
import html
import http.client
import json
import re
import sys
import urllib.parse
from collections import deque

from pokerbots.server import games
from pokerbots.server.tournament import deals

#: The fixed documents of the API, fetched whether a page links them or not.
API = ("/api/standings", "/api/ladder", "/api/bots", "/api/tournaments", "/healthz")
#: The files of a match folder, fetched for every match whether linked or not.
MATCH_FILES = ("summary.json", "hands.jsonl", "hands.txt", "timing.json")
#: Seats whose files are tried for every match (seatN.in, seatN.stderr).
SEATS = 10
#: A row of a tournament page's table of matches: its id, table and deal set.
MATCH_ROW = re.compile(r'<tr><td><a href="/matches/(\d+)">\d+</a></td><td>(\d+)</td>'
                       r"<td>(\d+)</td>")
HEX = re.compile(r"[0-9a-fA-F]{16,}")


class Site:
    """GET requests to one site, as one viewer."""

    def __init__(self, url: str, token: str | None = None) -> None:
        parsed = urllib.parse.urlsplit(url)
        self.host, self.port = parsed.hostname, parsed.port or 80
        self.token = token

    def get(self, path: str) -> tuple[int, str]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
            connection.request("GET", path, headers=headers)
            answer = connection.getresponse()
            return answer.status, answer.read().decode("utf-8", "replace")
        finally:
            connection.close()


def harvest(site: Site, starts: list[str], limit: int = 50000) -> dict[str, str]:
    """Every page and file the viewer may read, by path (only those answered 200)."""
    found: dict[str, str] = {}
    seen: set[str] = set()
    queue = deque([*starts, *API])
    while queue and len(found) < limit:
        path = queue.popleft()
        if path in seen or "logout" in path or "login" in path:
            continue
        seen.add(path)
        status, text = site.get(path)
        if status != 200:
            continue
        found[path] = text
        links = [html.unescape(h) for h in re.findall(r'href="([^"#]*)', text)]
        for href in links:
            if href.startswith("?"):
                href = path.split("?")[0] + href
            if href.startswith("/") and not href.startswith("//"):
                queue.append(href)
        match = re.fullmatch(r"/matches/(\d+)", path)
        if match:
            base = f"/matches/{match.group(1)}"
            queue.extend(f"{base}/{name}" for name in MATCH_FILES)
            queue.extend(f"{base}/seat{s}.{kind}" for s in range(SEATS)
                         for kind in ("in", "stderr"))
            queue.append(f"{base}/hands")
    return found


def numbers(texts) -> set[int]:
    """Every number in ``texts``: decimal runs, and long hexadecimal runs as numbers."""
    found: set[int] = set()
    for text in texts:
        text = html.unescape(text)
        found.update(int(n) for n in re.findall(r"\d+", text))
        found.update(int(h, 16) for h in HEX.findall(text))
        found.update(int(n.replace(",", "")) for n in re.findall(r"\d{1,3}(?:,\d{3})+", text))
    return found


class Match:
    """One match as the viewer sees it: its game, its place in its tournament, its hands."""

    def __init__(self, match_id: int, tournament: int, table: int, deal_set: int) -> None:
        self.id, self.tournament, self.table, self.deal_set = match_id, tournament, table, \
            deal_set
        self.game = None
        self.records: list[dict] = []

    def seen(self, pages: dict[str, str], games_of: dict[int, tuple]) -> None:
        base = f"/matches/{self.id}"
        try:
            summary = json.loads(pages.get(f"{base}/summary.json", ""))
            kind = (summary["game"], len(summary["bots"]),
                    tuple(sorted((summary.get("game_options") or {}).items())))
            games_of.setdefault(self.tournament, kind)
        except (ValueError, KeyError, TypeError):
            kind = None
        self.records = []
        for line in pages.get(f"{base}/hands.jsonl", "").splitlines():
            try:
                self.records.append(json.loads(line))
            except ValueError:  # a line still being written
                pass
        self._kind = kind

    def settle(self, games_of: dict[int, tuple], footer_game: str | None) -> None:
        """Its game: its summary's, else another match's of its tournament, else the one
        the site's footer names, at the table size of its hand records."""
        kind = self._kind or games_of.get(self.tournament)
        if kind is None and footer_game and self.records:
            kind = (footer_game, len(self.records[0]["cards"]), ())
        if kind is not None:
            name, players, options = kind
            self.game = games.make_game(name, players, **dict(options))

    def hidden(self) -> list[tuple[int, int]]:
        return [(r["hand"], s) for r in self.records for s, c in enumerate(r["cards"])
                if c == "-"]

    def agrees(self, seed: int) -> bool:
        """Whether ``seed`` deals every card the viewer sees of this match (at least one)."""
        checked = 0
        for record in self.records:
            deal = deals.deal(self.game, record["hand"], seed=seed)
            board = list(record.get("board") or [])
            if board != list(deal.board[:len(board)]):
                return False
            for seat, cards in enumerate(record["cards"]):
                if cards != "-":
                    if cards != " ".join(deal.holes[seat]):
                        return False
                    checked += 1
            checked += len(board)
        return checked > 0

    def predict(self, seed: int) -> dict[str, str]:
        found = {}
        for record in self.records:
            deal = deals.deal(self.game, record["hand"], seed=seed)
            for seat, cards in enumerate(record["cards"]):
                if cards == "-":
                    found[f"{self.id}:{record['hand']}:{seat}"] = " ".join(deal.holes[seat])
        return found


def derived(seed: int, table: int, deal_set: int) -> list[int]:
    """The match seeds the project's code derives from ``seed`` for a table and deal set
    (every derivation it offers)."""
    found = []
    for kwargs in ({}, {"bits": 63}):
        try:
            found.append(deals.match_seed(seed, table, deal_set, **kwargs))
        except TypeError:  # no such derivation in this version
            pass
    return found


def attack(site: Site, starts: list[str]) -> dict:
    pages = harvest(site, starts)
    matches: dict[int, Match] = {}
    for path, text in pages.items():
        tournament = re.fullmatch(r"/tournaments/(\d+)", path)
        if tournament:
            for match_id, table, deal_set in MATCH_ROW.findall(text):
                matches[int(match_id)] = Match(int(match_id), int(tournament.group(1)),
                                               int(table), int(deal_set))
    games_of: dict[int, tuple] = {}
    for match in matches.values():
        match.seen(pages, games_of)
    footer = re.search(r"<footer>([^,<]*),", pages.get("/", ""))
    footer_game = next((name for name in games.names()
                        if footer and games.get(name).title == html.unescape(footer.group(1))),
                       None)
    for match in matches.values():
        match.settle(games_of, footer_game)
    playable = [m for m in matches.values() if m.game is not None and m.records]
    candidates = numbers(pages.values())
    predicted: dict[str, str] = {}
    seeds: dict[int, str] = {}
    for match in playable:
        # A quick first test: the first hand with a card in sight (a hand folded before the
        # flop may show none).
        telling = [r for r in match.records if r.get("board") or set(r["cards"]) != {"-"}]
        probe = Match(match.id, match.tournament, match.table, match.deal_set)
        probe.game, probe.records = match.game, telling[:1]
        for number in candidates:
            for seed, how in ((number, "match seed"),
                              *((s, "tournament seed") for s in derived(
                                  number, match.table, match.deal_set))):
                if probe.agrees(seed) and match.agrees(seed):
                    seeds[match.id] = f"{how} {number}"
                    predicted.update(match.predict(seed))
                    break
            if match.id in seeds:
                break
    return {"pages": len(pages), "numbers": len(candidates), "matches": len(playable),
            "hands": sum(len(m.records) for m in playable),
            "hidden": sum(len(m.hidden()) for m in playable),
            "seeds": {str(k): v for k, v in seeds.items()}, "predicted": predicted,
            "tried": sorted(map(str, candidates))}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--token", default=None, help="a team's token: attack as that team")
    parser.add_argument("--team", default=None, help="the team's name (its page is a start)")
    args = parser.parse_args(argv)
    starts = ["/"] + ([f"/teams/{args.team}"] if args.team else [])
    json.dump(attack(Site(args.url, args.token), starts), sys.stdout)
    print()


if __name__ == "__main__":
    main()

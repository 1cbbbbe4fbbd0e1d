"""The site as a new user reads it, through the real ``pokerbots serve`` on 127.0.0.1.

One Kuhn competition, in three moments: after its first tournament (three bots), after a
second one (the first tournament's leader withdrawn, the service restarted), and after a late
bot is admitted but has not played yet. The pages are read as a person reads them (the text
of each cell, the legend under each table, the charts' colours, axis labels and intervals);
the login, the team's own card in the replayer and the logout in headless Chromium.

What they show: the ladder has no ``None`` and explains each of its columns; a bot that has
not played yet is unranked, below a bot that lost; every page links to the login page (a
logout button once logged in); a team's page names the opponents of each match; a bot keeps
its colour from one tournament to the next and from one chart to the other; a chart draws
each bot's 95% interval and labels its axis with figures as the standings print them; the
replayer names no street in a one-round game, shows a team its own card, and ends with the
chips in front collected into the pot, then the pot awarded.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import sqlite3
from html.parser import HTMLParser

import pytest

from service_site import BOTS, Served, browser_missing, chromium

pytestmark = pytest.mark.slow  # a real service and three tournaments; CI runs them (-m slow)

FAST = ("--hands", "100", "--every", "1h")


class Tables(HTMLParser):
    """Every table of a page as a browser shows it: its class, its headings, the text of each
    cell of each row, and the legend under it (``ul.legend``) as ``(heading, text)``."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.tables: list[dict] = []
        self._head = False
        self._cell: list[str] | None = None
        self._legend: list | None = None
        self._item: list[str] | None = None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append({"class": attrs.get("class") or "", "head": [], "rows": [],
                                "legend": []})
        elif tag == "thead":
            self._head = True
        elif tag == "tr" and self.tables and not self._head:
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th") and self.tables:
            self._cell = []
        elif tag == "ul" and attrs.get("class") == "legend" and self.tables:
            self._legend = self.tables[-1]["legend"]
        elif tag == "li" and self._legend is not None:
            self._item = []

    def handle_endtag(self, tag):
        if tag == "thead":
            self._head = False
        elif tag in ("td", "th") and self._cell is not None:
            text = " ".join("".join(self._cell).split())
            table = self.tables[-1]
            (table["head"] if self._head else table["rows"][-1]).append(text)
            self._cell = None
        elif tag == "li" and self._item is not None:
            heading, _, text = " ".join("".join(self._item).split()).partition(": ")
            self._legend.append((heading, text))
            self._item = None
        elif tag == "ul":
            self._legend = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._item is not None:
            self._item.append(data)

    def of(self, kind: str) -> dict:
        """The first table whose class has ``kind``."""
        return next(t for t in self.tables if kind in t["class"].split())


def charts(page: str) -> dict[str, str]:
    """The page's charts by kind (``ladder``, ``tournaments``): their SVG source."""
    return {m.group(1): m.group(0) for m in
            re.finditer(r'<svg class="chart (\w+)".*?</svg>', page, re.S)}


def colours(chart: str) -> dict[str, tuple[str, str]]:
    """Each bot's colour and dashes in a chart, as its legend swatch draws them."""
    found = {}
    for name, series in re.findall(r'<g class="series" data-bot="([^"]*)">(.*?)</g>', chart,
                                   re.S):
        swatch = re.search(r'<line class="swatch"[^>]*>', series).group(0)
        dash = re.search(r'stroke-dasharray="([^"]*)"', swatch)
        found[html.unescape(name)] = (re.search(r'stroke="([^"]*)"', swatch).group(1),
                                      dash.group(1) if dash else "")
    return found


def numbers(texts) -> set[str]:
    """Every signed number or 0 in ``texts``, as printed."""
    return {n for text in texts for n in re.findall(r"[+-]?\d[\d,]*(?:\.\d+)?", text)}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """``{"first", "second", "late": home pages, "served", "data", "leader", ...}``."""
    work = tmp_path_factory.mktemp("site")
    submissions = work / "submissions"
    for name, bot in (("call", "call_bot.py"), ("eq", "kuhn_2p_equilibrium.py"),
                      ("random", "random_bot.py")):
        (submissions / name).mkdir(parents=True)
        shutil.copy(BOTS / bot, submissions / name / "bot.py")
    data = work / "data"
    found: dict = {"data": data, "work": work}
    with Served(submissions, data, *FAST) as served:
        served.settled(["call", "eq", "random"])
        served.tournament_done(1)
        found["first"] = served.get("/").text
        found["first_ladder"] = served.api("/api/ladder")
        assert served.stop() == 0
    # The leader withdraws: every other bot moves up the ladder.
    leader = found["first_ladder"]["bots"][0]["name"]
    found["leader"] = leader
    shutil.rmtree(submissions / leader)
    served = Served(submissions, data, *FAST)
    with served:
        served.tournament_done(2)
        found["second"] = served.get("/").text
        # A late bot, admitted after the last tournament: it has not played yet.
        (submissions / "late").mkdir()
        shutil.copy(BOTS / "call_bot.py", submissions / "late" / "bot.py")
        served.wait("late admitted", lambda: served.bots().get("late", {}).get("status")
                    == "admitted")
        found["late"] = served.get("/").text
        found["late_ladder"] = served.api("/api/ladder")
        found["served"] = served
        found["token"] = served.token("call")
        yield found
        assert served.stop() == 0


def test_the_ladder_shows_no_none_and_a_line_for_each_of_its_columns(site):
    for moment in ("first", "second", "late"):
        ladder = Tables(site[moment]).of("ladder")
        assert ladder["rows"]
        assert not any("None" in cell for row in ladder["rows"] for cell in row)
        assert "run-off" not in ladder["head"]  # a ladder has no run-off
        assert [heading for heading, _ in ladder["legend"]] == ladder["head"]
        assert all(text for _, text in ladder["legend"])
        standings = Tables(site[moment]).of("standings")
        assert [heading for heading, _ in standings["legend"]] == standings["head"]
        assert "run-off" in standings["head"]


def test_a_bot_that_has_not_played_is_unranked_below_a_bot_that_lost(site):
    lines = {line["name"]: line for line in site["late_ladder"]["bots"]}
    assert lines["late"]["hands"] == 0 and lines["late"]["rank"] is None
    assert any(line["per_hand"] < 0 for line in lines.values())  # someone lost
    ladder = Tables(site["late"]).of("ladder")
    head = ladder["head"]
    shown = [(row[head.index("rank")], row[head.index("bot")]) for row in ladder["rows"]]
    ranked = [line["name"] for line in site["late_ladder"]["bots"] if line["name"] != "late"]
    assert shown == [(str(i), name) for i, name in enumerate(ranked, 1)] + [
        ("unranked", "late")]
    explained = dict(ladder["legend"])["rank"]
    assert "unranked: it has not played yet" in explained


def test_every_page_links_to_the_login_and_a_logged_in_team_gets_a_logout_button(site):
    served, token = site["served"], site["token"]
    pages = ["/", "/bots/call", "/tournaments/1", "/matches/1", "/matches/1/hands",
             "/matches/1/hands/0", "/login", "/no/such/page"]
    for path in pages:
        page = served.get(path).text
        nav = re.search(r"<nav>(.*?)</nav>", page, re.S).group(1)
        assert re.search(r'<a href="/login(\?next=[^"]*)?">Log in</a>', nav), path
        assert "/logout" not in nav
        mine = served.get(path, token).text
        nav = re.search(r"<nav>(.*?)</nav>", mine, re.S).group(1)
        assert '<form method="post" action="/logout"' in nav and ">Log out</button>" in nav
        assert ">Log in</a>" not in nav and 'href="/teams/call"' in nav


def test_a_teams_page_names_the_opponents_of_each_match(site):
    served = site["served"]
    page = served.get("/teams/call", site["token"]).text
    table = Tables(page).of("team-matches")
    head = table["head"]
    assert "opponents" in head
    db = sqlite3.connect(site["data"] / "service.sqlite")
    seatings = {match_id: (json.loads(seating), json.loads(bankrolls)) for
                match_id, seating, bankrolls in
                db.execute("SELECT id, seating, bankrolls FROM matches")}
    rows = [row for row in table["rows"] if len(row) == len(head)]
    assert len(rows) >= 2  # its two matches of the first tournament at least
    for row in rows:
        seating, bankrolls = seatings[int(row[head.index("match")])]
        expected = ", ".join(f"{name} {value:+d}" for name, value in zip(seating, bankrolls)
                             if name != "call")
        assert row[head.index("opponents")] == expected


def test_a_bot_keeps_its_colour_across_tournaments_and_charts(site):
    first = colours(charts(site["first"])["ladder"])
    second = colours(charts(site["second"])["ladder"])
    late = colours(charts(site["late"])["ladder"])
    assert set(first) == {"call", "eq", "random"}
    stayed = set(first) - {site["leader"]}
    assert stayed and stayed <= set(second)
    for name in stayed:  # each of them moved up a place on the ladder
        assert second[name] == first[name] == late[name], name
    per_tournament = colours(charts(site["second"])["tournaments"])
    assert set(per_tournament) == set(first)  # the leader's first result is still drawn
    for name, style in per_tournament.items():
        assert style == first[name], name
    assert len(set(first.values())) == 3  # told apart


def test_a_one_tournament_chart_draws_intervals_and_labels_its_axis_as_the_standings_print(
        site):
    ladder = Tables(site["first"]).of("ladder")
    head = ladder["head"]
    printed = {row[head.index("bot")]: row for row in ladder["rows"]}
    chart = charts(site["first"])["ladder"]
    for name, row in printed.items():
        series = re.search(rf'<g class="series" data-bot="{re.escape(name)}">(.*?)</g>', chart,
                           re.S).group(1)
        bar = re.search(r'<line class="interval" x1="([\d.]+)" x2="([\d.]+)" y1="([\d.]+)"'
                        r' y2="([\d.]+)"[^>]*><title>([^<]*)</title>', series)
        assert bar, name
        x1, x2, y1, y2 = map(float, bar.groups()[:4])
        dot = re.search(r'<circle cx="([\d.]+)" cy="([\d.]+)"', series)
        assert x1 == x2 == float(dot.group(1))  # a vertical bar through the dot
        assert y1 >= float(dot.group(2)) >= y2  # from the low end (further down) to the high
        interval = row[head.index("95% interval")].split("]")[0].split("[")[-1]
        assert f"[{interval}]" in html.unescape(bar.group(5))
    ticks = [html.unescape(t) for t in re.findall(r'<text class="tick"[^>]*>([^<]*)</text>',
                                                  chart)]
    assert len(ticks) == 3 and "0" in ticks
    # every label is a figure the standings print, to its printed digits (no +0.063 beside
    # +0.0625)
    assert set(ticks) <= numbers(cell for row in ladder["rows"] for cell in row) | {"0"}
    standings = Tables(site["first"]).of("standings")
    ticks = [html.unescape(t) for t in re.findall(r'<text class="tick"[^>]*>([^<]*)</text>',
                                                  charts(site["first"])["tournaments"])]
    assert set(ticks) <= numbers(cell for row in standings["rows"] for cell in row) | {"0"}


def replay_data(page: str) -> dict:
    return json.loads(re.search(r'id="replay-data">(.*?)</script>', page, re.S).group(1))


def test_the_kuhn_replayer_names_no_street_and_collects_the_pot_before_awarding_it(site):
    served = site["served"]
    records = [json.loads(line) for line in
               served.get("/matches/1/hands.jsonl").text.splitlines()]
    checked = 0
    for record in records[:20]:
        page = served.get(f"/matches/1/hands/{record['hand']}").text
        assert re.search(r'<div class="street" id="street"></div>', page)
        steps = replay_data(page)["steps"]
        assert all(step["street"] == "" for step in steps)
        collected, result = steps[-2], steps[-1]
        assert collected["front"] == [0, 0]  # the chips in front moved to the pot
        assert collected["pot"] == sum(amount for amount, _ in record["pots"])
        assert result["front"] == [0, 0] and result["pot"] == 0  # the pot awarded
        assert result["text"].startswith("Result:")
        assert sorted(result["winners"]) == sorted({w for _, w in record["pots"]})
        assert steps[-3]["front"] != [0, 0]  # the last action left chips in front
        checked += 1
    assert checked


def hidden_hand(data, name: str) -> tuple[int, list[str], dict]:
    """``(match id, seating, hand record)`` of the first hand of a match of ``name`` whose
    cards nobody showed."""
    db = sqlite3.connect(data / "service.sqlite")
    for match_id, seating, log_dir in db.execute(
            "SELECT id, seating, log_dir FROM matches WHERE log_dir IS NOT NULL ORDER BY id"):
        seating = json.loads(seating)
        if name in seating:
            for line in (data / log_dir / "hands.jsonl").read_text().splitlines():
                record = json.loads(line)
                if record["showdown"] == ["-", "-"]:
                    return match_id, seating, record
    raise AssertionError(f"no hand of {name} without a showdown")


def arrived(driver, url: str) -> None:
    """Wait until a form's answer has brought the browser to ``url``."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        WebDriverWait(driver, 30).until(expected_conditions.url_to_be(url))
    except TimeoutException:
        raise AssertionError(f"at {driver.current_url}, not {url}:\n"
                             + driver.find_element("tag name", "body").text) from None


@pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or "")
def test_a_team_logs_in_from_the_header_sees_its_own_card_and_logs_out(site):
    from selenium.webdriver.common.by import By

    served = site["served"]
    token = served.token("eq")  # eq folds, and random folds to it: hands nobody shows
    match_id, seating, hand = hidden_hand(site["data"], "eq")
    seat = seating.index("eq")
    driver = chromium(site["work"] / "profile", width=1000, height=1100)
    try:
        driver.get(served.url + "/")
        driver.find_element(By.LINK_TEXT, "Log in").click()
        driver.find_element(By.NAME, "token").send_keys(token)
        driver.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        arrived(driver, served.url + "/teams/eq")
        nav = driver.find_element(By.TAG_NAME, "nav")
        assert nav.find_element(By.TAG_NAME, "button").text == "Log out"
        driver.get(served.url + f"/matches/{match_id}/hands/{hand['hand']}")
        cards = [e.text for e in driver.find_elements(By.CLASS_NAME, "seat-cards")]
        assert cards[seat] == hand["cards"][seat] and cards[1 - seat] == "??"
        forward = driver.find_element(By.ID, "next")
        while forward.is_enabled():  # to the last step
            forward.click()
        fronts = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".seat-front b")]
        assert fronts == ["0", "0"] and driver.find_element(By.ID, "pot").text == "0"
        assert driver.find_element(By.ID, "street").text == ""
        driver.find_element(By.TAG_NAME, "nav").find_element(By.TAG_NAME, "button").click()
        arrived(driver, served.url + "/")
        driver.get(served.url + f"/matches/{match_id}/hands/{hand['hand']}")
        cards = [e.text for e in driver.find_elements(By.CLASS_NAME, "seat-cards")]
        assert cards == ["??", "??"]  # logged out: the public's view
        assert driver.find_element(By.TAG_NAME, "nav").find_element(By.LINK_TEXT, "Log in")
    finally:
        driver.quit()

"""What the standings tell an organiser: the crosstable, how many hands a ranking still needs,
the figure that ranks, and figures a person can read.

The crosstable of a real small tournament (call and random bots) is recomputed here from the
store as any SQLite client reads it, deal set by deal set, and must agree with
``standings.json``; the report draws it as a coloured matrix. ``separate_after_hands`` is
checked on constructed units whose intervals shrink exactly as the formula assumes;
``--rank-by`` on constructed rows whose raw and luck-adjusted figures disagree. The adjusted
figures' own estimator is tested with it (the luck helper's tests); here the rows carry made-up
``luck_bankrolls``, as the store has them.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pokerbots.server.tournament import report, results_store, standings, view
from pokerbots.server.tournament.text import standings_text

from processes import pokerbots
from service_site import browser_missing, chromium

ROOT = Path(__file__).resolve().parents[3]
CALL = ROOT / "bots" / "call_bot.py"
RANDOM = ROOT / "bots" / "random_bot.py"


# -- a real small tournament -------------------------------------------------------------------


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """Kuhn, 3 bots at tables of 2, duplicate, 2 deal sets of 50 hands a table."""
    out = tmp_path_factory.mktemp("standings") / "t"
    result = pokerbots("tournament", f"call={CALL}", f"r1={RANDOM} --seed 1",
                       f"r2={RANDOM} --seed 2", "--game", "kuhn", "--players", "2",
                       "--duplicate", "--rounds", "2", "--hands", "50", "--seed", "9",
                       "--out", out, "--jobs", "2", "--transcripts", "none", timeout=120)
    assert result.returncode == 0, result.stderr
    return out


def store_rows(out: Path) -> list[dict]:
    db = sqlite3.connect(out / "results.sqlite")
    db.row_factory = sqlite3.Row
    rows = [dict(r) for r in db.execute("SELECT * FROM matches WHERE status = 'done'")]
    db.close()
    return rows


@pytest.mark.slow  # a real tournament; CI runs it (-m slow)
def test_the_crosstable_agrees_with_the_store_deal_set_by_deal_set(played):
    from scipy.stats import t

    document = json.loads((played / "standings.json").read_text())
    cross = document["crosstable"]
    # every ordered pair shared a table (every combination of 2 plays)
    assert {(a, b) for a in cross for b in cross[a]} == {
        (a, b) for a in ("call", "r1", "r2") for b in ("call", "r1", "r2") if a != b}
    units: dict = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for row in store_rows(played):
        seating = json.loads(row["seating"])
        bankrolls = json.loads(row["bankrolls"])
        for a, chips in zip(seating, bankrolls):
            for b in seating:
                if b != a:  # one unit: a table's deal set, its seatings summed
                    cell = units[a, b][row["table_no"], row["deal_set"]]
                    cell[0] += chips
                    cell[1] += row["hands"]
    for (a, b), by_unit in units.items():
        x = [c[0] for c in by_unit.values()]
        n = [c[1] for c in by_unit.values()]
        k, hands = len(x), sum(n)
        r = sum(x) / hands
        se = math.sqrt(k / (k - 1) * sum((xi - r * ni) ** 2 for xi, ni in zip(x, n))) / hands
        cell = cross[a][b]
        assert (cell["units"], cell["hands"]) == (k, hands) == (2, 200)
        assert cell["per_hand"] == pytest.approx(r, abs=1e-6)
        assert cell["stderr"] == pytest.approx(se, abs=1e-6)
        half = t.ppf(0.975, k - 1) * se
        assert cell["ci95"] == pytest.approx([r - half, r + half], abs=1e-3)
        # zero-sum heads-up: b's figure against a is a's, negated
        assert cross[b][a]["per_hand"] == pytest.approx(-r, abs=1e-6)


@pytest.mark.slow  # a real tournament; CI runs it (-m slow)
def test_the_standings_say_units_ranking_and_how_many_hands_neighbours_need(played):
    document = json.loads((played / "standings.json").read_text())
    assert document["rank_by"] == "raw" and document["adjust"] is True
    lines = document["bots"]
    for better, worse in zip(lines, lines[1:]):
        apart = better["ci95"][0] > worse["ci95"][1]
        assert better["separate_from_next"] is apart
        if apart:
            assert better["separate_after_hands"] is None
        else:
            assert better["separate_after_hands"] >= (better["hands"] + worse["hands"]) / 2
    assert lines[-1]["separate_from_next"] is None
    shown = pokerbots("standings", played)
    assert shown.returncode == 0, shown.stderr
    head = re.split(r"\s{2,}", next(line for line in shown.stdout.splitlines()
                                    if line.startswith("rank")).strip())
    # no bot is out: no "out" column (test_standings_fairness shows one)
    assert head[4] == "units" and head[-1] == "apart from next" and "out" not in head
    assert "Ranked by the raw figure (chips won per hand)." in shown.stdout
    assert re.search(r"^apart from next  yes: ", shown.stdout, re.M)  # its line under the table


class _Cells(HTMLParser):
    """The cells of the report's crosstable as a browser builds them: ``(row bot, class,
    text)``."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[list] = []
        self.names: list[str] = []
        self._table = False
        self._row: str | None = None
        self._cell: list | None = None
        self._head = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._table = attrs.get("class") == "cross"
        elif self._table and tag == "th" and self._row is None:
            self._head = True
            self.names.append("")
        elif self._table and tag == "tr":
            self._row = None
        elif self._table and tag == "td":
            self._cell = [self.names[-1] if self.names else None, attrs.get("class", ""), ""]

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = False
        elif tag == "td" and self._cell is not None:
            self.cells.append(self._cell)
            self._cell = None
        elif tag == "th":
            self._head = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[2] += data
        elif self._head:
            self.names[-1] += data


@pytest.mark.slow  # a real tournament; CI runs it (-m slow)
def test_the_report_draws_the_crosstable_as_a_coloured_matrix(played):
    document = json.loads((played / "standings.json").read_text())
    page = (played / "report.html").read_text()
    parser = _Cells()
    parser.feed(page)
    order = [line["name"] for line in document["bots"]]
    # columns numbered by rank, then a row per bot: "1. name"
    assert [n for n in parser.names if n] == [str(i + 1) for i in range(len(order))] + [
        f"{i + 1}. {name}" for i, name in enumerate(order)]
    drawn = [c for c in parser.cells]
    assert len(drawn) == len(order) ** 2
    for i, (_, classes, text) in enumerate(drawn):
        a, b = order[i // len(order)], order[i % len(order)]
        if a == b:
            assert classes == "none" and text == "-"
            continue
        cell = view.Figure.of(document["crosstable"][a][b])
        tone = "win" if cell.per_hand > 0 else "loss" if cell.per_hand < 0 else ""
        assert [c for c in classes.split() if c != "faint"] == ([tone] if tone else [])
        assert ("faint" in classes.split()) is (cell.ci95[0] <= 0 <= cell.ci95[1])
        assert text == f"{cell.text}± {cell.half_text}"


# -- separate_after_hands, on constructed data ---------------------------------------------


def row(id_, table, deal_set, seating, bankrolls, hands=100, luck=None):
    return {"id": id_, "table_no": table, "deal_set": deal_set, "seating": seating,
            "status": "done", "hands": hands, "bankrolls": bankrolls, "allin_bankrolls": None,
            "luck_bankrolls": luck, "culprit": None, "culprit_seat": None}


def replicated(results: list[int], times: int) -> list[dict]:
    """Matches of a against b with a's results ``results``, ``times`` over: the per-hand
    figures stay, the spread of the units stays, their number grows."""
    values = results * times
    return [row(i, 0, i, ["a", "b"], [x, -x]) for i, x in enumerate(values)]


def test_separate_after_hands_predicts_where_the_intervals_part():
    rules = standings.Rules(100, False, 1)
    results = [40, -10, 25, -20, 30, 5, -15, 35]  # a wins 11.25 a match, noisily
    lines = standings.table(replicated(results, 1), ["a", "b"], rules)
    a = lines[0]
    assert a["name"] == "a" and a["separate_from_next"] is False
    d = a["per_hand"] - lines[1]["per_hand"]
    halves = sum((line["ci95"][1] - line["ci95"][0]) / 2 for line in lines)
    assert a["separate_after_hands"] == math.ceil(800 * (halves / d) ** 2)
    assert a["more_hands"] == a["separate_after_hands"] - 800
    factor = a["separate_after_hands"] / 800  # about 3.5 times the hands
    assert 2 < factor < 6
    # With the units repeated that many times over, the intervals part (the t quantile
    # shrinks too, so a little before); with far fewer they do not.
    later = standings.table(replicated(results, math.ceil(factor)), ["a", "b"], rules)
    assert later[0]["separate_from_next"] is True and later[0]["separate_after_hands"] is None
    sooner = standings.table(replicated(results, max(1, math.floor(factor / 2))), ["a", "b"],
                             rules)
    assert sooner[0]["separate_from_next"] is False
    # noisier results need more hands; no difference, no number of hands
    noisier = standings.table(replicated([x * 2 - 11 for x in results], 1), ["a", "b"], rules)
    assert noisier[0]["separate_after_hands"] > a["separate_after_hands"]
    even = standings.table(replicated([10, -10, 20, -20], 1), ["a", "b"], rules)
    assert even[0]["separate_from_next"] is False and even[0]["separate_after_hands"] is None


# -- --rank-by, on constructed rows ----------------------------------------------------------


def test_rank_by_chooses_the_figure_of_the_ranking_the_runoff_and_refine():
    # a wins more chips than b, but by luck: adjusted, b is the better bot.
    rows = []
    for d, (x, luck) in enumerate([(30, -5), (50, -10), (20, -8), (40, -12)]):
        rows += [row(3 * d, 0, d, ["a", "b"], [x, -x], luck=[luck, -luck]),
                 row(3 * d + 1, 1, d, ["a", "c"], [5, -5], luck=[5, -5]),
                 row(3 * d + 2, 2, d, ["b", "c"], [3, -3], luck=[6, -6])]
    names = ["a", "b", "c"]
    raw = standings.table(rows, names, standings.Rules(100, False, 1))
    luck = standings.table(rows, names, standings.Rules(100, False, 1, rank_by="luck"))
    assert [line["name"] for line in raw] == ["a", "c", "b"]
    assert [line["name"] for line in luck] == ["b", "a", "c"]
    # the run-off too: without c, b beats a adjusted (a beats b raw)
    assert [line["runoff_rank"] for line in luck] == [1, 2, 3]
    assert [line["runoff_rank"] for line in raw] == [1, 2, 3]
    for line in luck:  # both figures in every line, whichever ranks
        assert line["luck_adjusted_per_hand"] is not None and line["per_hand"] is not None
    assert luck[0]["luck_adjusted_per_hand"] > luck[1]["luck_adjusted_per_hand"]
    assert standings.separated(luck, 2, "luck") == (
        luck[0]["luck_adjusted_ci95"][0] > luck[1]["luck_adjusted_ci95"][1])
    # --no-adjust: no adjusted figure at all
    bare = standings.table(rows, names, standings.Rules(100, False, 1, adjust=False))
    assert not any(key.startswith("luck") for key in bare[0])
    # a row without the column (a store older than it): no luck figures, the raw one ranks
    older = [{k: v for k, v in r.items() if k != "luck_bankrolls"} for r in rows]
    fallback = standings.table(older, names, standings.Rules(100, False, 1, rank_by="luck"))
    assert [line["name"] for line in fallback] == ["a", "c", "b"]
    assert "luck_adjusted_per_hand" not in fallback[0]
    # nothing played yet: every bot at 0, whatever ranks
    assert [line["per_hand"] for line in standings.table(
        [], names, standings.Rules(100, False, 1, rank_by="luck"))] == [0.0, 0.0, 0.0]


def test_rank_by_an_adjusted_figure_with_no_adjust_is_a_usage_error(tmp_path):
    out = tmp_path / "t"
    result = pokerbots("tournament", f"a={CALL}", f"b={RANDOM}", "--game", "kuhn",
                       "--rank-by", "luck", "--no-adjust", "--out", out)
    assert result.returncode == 2
    assert "--rank-by" in result.stderr and "--no-adjust" in result.stderr
    assert not out.exists()  # nothing started
    result = pokerbots("tournament", f"a={CALL}", f"b={RANDOM}", "--game", "kuhn",
                       "--rank-by", "allin", "--out", out)
    assert result.returncode == 2 and "kuhn has no all-in adjusted figure" in result.stderr


# -- figures a person can read ---------------------------------------------------------------


def test_intervals_have_3_significant_digits_and_the_figure_matches_them():
    wide = view.Figure(226.138, 600.0, (-1254.1327, 1199.9677))
    assert (wide.text, wide.half_text, wide.interval_text) == ("+230", "1230",
                                                               "[-1250, +1200]")
    assert wide.pm_text == "+230 ± 1230"
    narrow = view.Figure(-0.0123456, 0.001, (-0.0145678, -0.0101234))
    assert (narrow.text, narrow.half_text, narrow.interval_text) == (
        "-0.01235", "0.00222", "[-0.01457, -0.01012]")  # to the ±'s last digit
    middling = view.Figure(4.6123, 20.0, (-43.2468, 52.4714))
    assert (middling.text, middling.half_text) == ("+4.6", "47.9")
    alone = view.Figure(12.3456, None, None)  # one unit: no interval, its own 3 digits
    assert (alone.text, alone.half_text, alone.interval_text) == ("+12.3", "-", "-")
    assert view.Figure(0.0, None, None).text == "0"
    assert view.Figure(-0.0004, 0.1, (-0.2, 0.2)).text == "0.000"  # no "-0.000"
    assert view.number(1e-7) == "+0.000000100" and view.number(123456.0) == "+123000"


def test_the_text_table_shows_every_figure_with_the_same_plus_minus_convention():
    rows = []
    for d, (x, luck) in enumerate([(30, -5), (50, -10), (20, -8), (40, -12)]):
        rows.append(row(d, 0, d, ["alpha", "beta"], [x, -x], luck=[luck, -luck]))
    lines = standings.table(rows, ["alpha", "beta"], standings.Rules(100, False, 1,
                                                                    rank_by="luck"))
    document = {"game": "kuhn", "players": 2, "hands_per_match": 100, "duplicate": False,
                "seed": 1, "unit": "match", "rank_by": "luck", "bots": lines,
                "matches": {"planned": 4, "done": 4, "failed": 0, "skipped": 0},
                "runoff": ["beta", "alpha"]}
    text = standings_text(document)
    head = re.split(r"\s{2,}", next(line for line in text.splitlines()
                                    if line.startswith("rank")).strip())
    assert head.count("± 95%") == 2 and "luck adj." in head
    beta = re.split(r"\s{2,}", next(line for line in text.splitlines()
                                    if "beta" in line and line.lstrip()[0].isdigit()).strip())
    figure = view.Figure.of(lines[0], "luck_adjusted_")
    at = head.index("luck adj.")
    assert beta[at:at + 2] == [figure.text, figure.half_text] == ["+0.0875", "0.0475"]
    assert "Ranked by the luck-adjusted figure (--rank-by luck)." in text


def test_options_read_as_a_table():
    rows = dict(view.option_rows({"game": "holdem-nl", "game_options": {"small_blind": 1},
                                  "duplicate": True, "refine": None, "rank_by": "luck",
                                  "adjust": True, "limits": {"--time-bank": 30.0}}))
    assert rows == {"--game": "holdem-nl", "game options": "small blind 1",
                    "--duplicate": "yes", "--refine": "none", "--rank-by": "luck",
                    "adjusted figures": "yes", "--time-bank": "30.0"}


# -- the report in a browser --------------------------------------------------------------------


@pytest.mark.slow  # starts Chromium; CI runs it (-m slow)
@pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or "")
def test_the_report_fits_a_1280_pixel_window_with_long_names_unbroken(played, tmp_path):
    from selenium.webdriver.common.by import By

    # Every column the report can have: luck figures (made up here) beside raw and all-in,
    # a bot out with its reason, and names of the longest kind.
    store = results_store.open_store(played)
    try:
        document = standings.document(store)
        rows = store.matches()
        for r in rows:
            if r["bankrolls"] is not None:
                r["luck_bankrolls"] = [v / 2 for v in r["bankrolls"]]
                r["allin_bankrolls"] = r["bankrolls"]
        names = [line["name"] for line in document["bots"]]
        document["bots"] = standings.table(rows, names, standings.rules_of(
            store.meta("options")), allin=True)
        document["bots"][-1].update(out=True, out_reason="dropped after 3 faults"
                                                         " (--max-faults 3)")
        long = {"call": "call-every-bet-until-the-end-of-time-x",  # 40 characters
                "r1": "random_bot_number_one_with_a_long_name_x",  # and one word
                "r2": "random-bot-number-two-with-a-long-name-x"}
        text = json.dumps(document)
        for short, name in long.items():
            text = re.sub(rf'"{short}"', json.dumps(name), text)
        document = json.loads(text)
        page = report.render(store, played, document)
    finally:
        store.close()
    html = tmp_path / "report.html"
    html.write_text(page)
    driver = chromium(tmp_path / "profile", width=1280, height=900)
    try:
        driver.get(html.as_uri())
        inner, scroll = driver.execute_script(
            "return [window.innerWidth, document.documentElement.scrollWidth]")
        assert scroll <= inner, f"the page is {scroll} pixels wide in a {inner} window"
        head = [th.text for th in driver.find_elements(By.CSS_SELECTOR,
                                                       "table.results thead th")]
        assert "luck-adjusted per hand ± 95%" in [h.replace("\n", " ") for h in head]
        # A name breaks between its words (at a hyphen), never inside one: its cell is as wide
        # as its longest word at least.
        cells = [cell for cell in driver.find_elements(By.CSS_SELECTOR,
                                                       "td.bot, table.cross th.bot")
                 if cell.text]
        assert len(cells) == 3 + 3 + 3  # standings, crosstable, bots
        for cell in cells:
            room, word = driver.execute_script(
                "const e = arguments[0], s = getComputedStyle(e);"
                "const c = document.createElement('canvas').getContext('2d'); c.font = s.font;"
                "const words = e.textContent.split(/[-\\s]/).filter(w => w);"
                "return [e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight),"
                " Math.max(...words.map(w => c.measureText(w).width))];", cell)
            assert word <= room + 0.5, (cell.text, word, room)
        right = driver.execute_script(
            "return Math.max(...[...document.querySelectorAll('td, th')].map("
            "e => e.getBoundingClientRect().right))")
        assert right <= inner  # no column cut off
    finally:
        driver.quit()


def test_the_live_table_shows_units_and_the_adjusted_figures_beside_the_raw_one():
    from rich.console import Console

    from pokerbots.server.tournament.progress import RichProgress

    rows = [row(d, 0, d, ["alpha", "beta"], [x, -x], luck=[luck, -luck])
            for d, (x, luck) in enumerate([(30, -5), (50, -10), (20, -8), (40, -12)])]
    lines = standings.table(rows, ["alpha", "beta"], standings.Rules(100, False, 1))
    progress = RichProgress({"pending": 0, "running": 0, "done": 4, "failed": 0,
                             "skipped": 0}, ["alpha", "beta"], lambda: lines)
    progress._table()
    console = Console(width=160, record=True, color_system=None)
    console.print(progress._group.renderables[1])
    text = console.export_text()
    assert "units" in text and "luck adj." in text
    alpha = next(line for line in text.splitlines() if "alpha" in line)
    figure = view.Figure.of(lines[0], "luck_adjusted_")
    assert [figure.text, figure.half_text] == ["-0.0875", "0.0475"]
    assert f"{figure.text} │ {figure.half_text}" in alpha
    assert lines[0]["name"] == "alpha" and view.Row.of(lines[0]).per_hand_text in alpha


def test_the_site_shows_the_luck_adjusted_figure_beside_the_raw_one():
    """The site renders the report's own standings partial (one table for both), with each
    bot's version and a link to its page."""
    from pokerbots.server.service.site import chart

    rows = [row(d, 0, d, ["alpha", "beta"], [x, -x], luck=[luck, -luck])
            for d, (x, luck) in enumerate([(30, -5), (50, -10), (20, -8), (40, -12)])]
    lines = standings.table(rows, ["alpha", "beta"], standings.Rules(100, False, 1))
    site = str(chart.render("standings_table.html", view=view.of({"bots": lines}),
                            versions={"alpha": "1.2"}, bot_href="/bots/"))
    assert ">luck-adjusted per hand ± 95%</th>" in site and ">units</th>" in site
    assert '<td class="fig neg">-0.0875<small>± 0.0475</small></td>' in site
    assert '<td class="fig pos">+0.350<small>± 0.205</small></td>' in site
    assert '<a href="/bots/alpha">alpha</a></td><td class="name">1.2</td>' in site
    older = str(chart.render("standings_table.html", view=view.of({"bots": [
        {k: v for k, v in line.items() if not k.startswith("luck")} for line in lines]})))
    assert "luck-adjusted" not in older  # a document without the figure: no column
    assert ">version</th>" not in older and "<a href" not in older  # the report's form

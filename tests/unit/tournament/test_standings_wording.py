"""What the standings' words tell a person: two bots whose difference is zero or far inside the
noise are *indistinguishable* (not "~922,000 more" hands apart), and every column a person
sees is explained under the table, one line each, only the columns shown: in the text of
``pokerbots tournament`` and ``standings``, in ``report.html``, and in the live table.

The tournaments are real (``pokerbots tournament`` with two copies of the check/call bot, the
issue's own case: the C one of call_bots where it builds, the same replies started at once);
the live table is drawn from constructed rows, as the terminal draws it.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from pokerbots.server.tournament import standings, view
from pokerbots.server.tournament.text import standings_text

from processes import pokerbots


def table_and_legend(text: str) -> tuple[list[str], dict[str, list[str]], list[tuple[str, str]]]:
    """The text table as a reader splits it (cells two spaces or more apart): its headings,
    its rows by bot, and the lines under it up to the next blank line as ``(heading,
    explanation)``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("rank  "))
    head = re.split(r"\s{2,}", lines[start].strip())
    rows = {}
    at = start + 1
    while lines[at].strip():
        cells = re.split(r"\s{2,}", lines[at].strip())
        rows[cells[1]] = cells
        at += 1
    legend = []
    at += 1
    while at < len(lines) and lines[at].strip():
        heading, _, explanation = lines[at].partition("  ")
        legend.append((heading.strip(), explanation.strip()))
        at += 1
    return head, rows, legend


def html_table_and_legend(page: str, kind: str = "standings") -> tuple[list[str], list[str]]:
    """The headings of the first table of class ``kind`` in ``page`` and the headings of the
    legend list under it."""
    table = re.search(rf'<table class="{kind}[^"]*">(.*?)</table>', page, re.S).group(1)
    head = [html.unescape(re.sub(r"<[^>]+>", "", th))
            for th in re.findall(r"<th[^>]*>(.*?)</th>", table.split("</thead>")[0], re.S)]
    after = page[page.index(table):]
    legend = re.search(r'<ul class="legend">(.*?)</ul>', after, re.S).group(1)
    return head, [html.unescape(h) for h in re.findall(r"<li><b>(.*?)</b>", legend)]


def tournament(out: Path, call_bot: Path, *extra: str) -> dict:
    result = pokerbots("tournament", f"a={call_bot}", f"b={call_bot}", "--out", out,
                       "--transcripts", "none", "--jobs", "2", *extra, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads((out / "standings.json").read_text())


@pytest.fixture(scope="module")
def identical(tmp_path_factory, call_bot) -> dict[str, Path]:
    """Two copies of the check/call bot: three matches of 1,000 hands (their difference is
    the cards' luck alone), and a duplicate tournament (exactly 0 each)."""
    work = tmp_path_factory.mktemp("identical")
    tournament(work / "plain", call_bot, "--hands", "1000", "--rounds", "3", "--seed", "1")
    tournament(work / "duplicate", call_bot, "--hands", "200", "--rounds", "2", "--duplicate",
               "--seed", "3")
    return {"plain": work / "plain", "duplicate": work / "duplicate"}


@pytest.mark.slow  # two real tournaments, 3,400 hands
def test_identical_bots_read_as_indistinguishable_not_hands_apart(identical):
    plain = json.loads((identical["plain"] / "standings.json").read_text())
    top = plain["bots"][0]
    # the case: a difference of luck, the intervals overlapping by far more than it
    assert top["per_hand"] != plain["bots"][1]["per_hand"]
    assert top["separate_after_hands"] > standings.INDISTINGUISHABLE * top["hands"]
    assert top["indistinguishable"] is True
    duplicate = json.loads((identical["duplicate"] / "standings.json").read_text())
    assert [line["per_hand"] for line in duplicate["bots"]] == [0.0, 0.0]
    assert duplicate["bots"][0]["indistinguishable"] is True
    for out in identical.values():
        shown = pokerbots("standings", out)
        assert shown.returncode == 0, shown.stderr
        head, rows, legend = table_and_legend(shown.stdout)
        apart = head.index("apart from next")
        first, second = (rows[line["name"]] for line in
                         json.loads((out / "standings.json").read_text())["bots"])
        assert first[apart] == "indistinguishable" and second[apart] == "-"
        assert "more" not in shown.stdout.split("\n\n")[1]  # no count of hands in the table
        explained = dict(legend)["apart from next"]
        assert "indistinguishable" in explained and f"{standings.INDISTINGUISHABLE}" in explained
        page = (out / "report.html").read_text()
        assert '<td class="apart">indistinguishable</td>' in page


@pytest.mark.slow  # two real tournaments, 3,400 hands
def test_every_column_of_the_text_and_the_report_is_explained_once_under_the_table(identical):
    shown = pokerbots("standings", identical["plain"])
    head, _, legend = table_and_legend(shown.stdout)
    headings = [heading for heading, _ in legend]
    assert headings == list(dict.fromkeys(head))  # each column once, in the table's order
    assert all(len(text) > 10 for _, text in legend)
    explained = dict(legend)
    assert "one unit per match" in explained["units"]
    assert "instant run-off" in explained["run-off"]
    assert "luck" in explained["luck adj."]
    assert "all-in adj." not in explained and "out" not in explained  # not shown: no line
    # the report: every heading of its standings table has its line, nothing else
    page = (identical["duplicate"] / "report.html").read_text()
    table_head, items = html_table_and_legend(page)
    assert items == table_head
    assert "per hand ± 95%" in items and "run-off" in items and "out" not in items


def test_a_column_shown_only_for_some_tournaments_gets_its_line_then():
    rows = [{"id": 0, "table_no": 0, "deal_set": 0, "seating": ["a", "x"], "status": "failed",
             "hands": 0, "bankrolls": [0, 0], "allin_bankrolls": [0, 0],
             "luck_bankrolls": None, "culprit": "x", "culprit_seat": 1},
            {"id": 1, "table_no": 0, "deal_set": 1, "seating": ["a", "x"], "status": "done",
             "hands": 100, "bankrolls": [30, -30], "allin_bankrolls": [20, -20],
             "luck_bankrolls": None, "culprit": None, "culprit_seat": None}]
    lines = standings.table(rows, ["a", "x"], standings.Rules(100, False, 1, max_faults=1),
                            allin=True)
    document = {"game": "holdem-nl", "players": 2, "hands_per_match": 100, "seed": 1,
                "duplicate": False, "unit": "match", "bots": lines,
                "matches": {"planned": 2, "done": 1, "failed": 1, "skipped": 0}}
    head, rows_, legend = table_and_legend(standings_text(document))
    assert rows_["x"][-1] == "out"
    assert [heading for heading, _ in legend] == list(dict.fromkeys(head))
    assert {"all-in adj.", "out"} <= set(dict(legend))
    from pokerbots.server.service.site import chart

    site = str(chart.render("standings_table.html", view=view.of(document)))
    table_head, items = html_table_and_legend(site)
    assert items == table_head and "all-in adjusted per hand ± 95%" in items


def test_the_live_table_explains_its_columns_under_it():
    from rich.console import Console

    from pokerbots.server.tournament.progress import RichProgress

    rows = [{"id": d, "table_no": 0, "deal_set": d, "seating": ["alpha", "beta"],
             "status": "done", "hands": 100, "bankrolls": [x, -x], "allin_bankrolls": None,
             "luck_bankrolls": [x // 2, -x // 2], "culprit": None, "culprit_seat": None}
            for d, x in enumerate([30, 50, 20, 40])]
    lines = standings.table(rows, ["alpha", "beta"], standings.Rules(100, False, 1))
    progress = RichProgress({"pending": 0, "running": 0, "done": 4, "failed": 0,
                             "skipped": 0}, ["alpha", "beta"], lambda: lines)
    progress._table()
    console = Console(width=200, record=True, color_system=None)
    for renderable in progress._group.renderables[1:]:
        console.print(renderable)
    text = console.export_text()
    head = [cell.strip() for cell in next(line for line in text.splitlines()
                                          if "rank" in line and "bot" in line).split("┃")
            if cell.strip()]
    assert head[:3] == ["rank", "bot", "per hand"] and "luck adj." in head
    after = text.split("└")[-1].splitlines()[1:]
    legend = [line.partition("  ")[0].strip() for line in after if line.strip()]
    assert legend == list(dict.fromkeys(head))


def test_a_bot_that_has_not_played_yet_is_unranked_not_above_a_bot_that_lost():
    from rich.console import Console

    from pokerbots.server.tournament.progress import RichProgress

    # a beat b; c's matches are not played yet (one skipped, one pending): c has no result
    rows = [{"id": 0, "table_no": 0, "deal_set": 0, "seating": ["a", "b"], "status": "done",
             "hands": 100, "bankrolls": [40, -40], "allin_bankrolls": None,
             "luck_bankrolls": None, "culprit": None, "culprit_seat": None},
            {"id": 1, "table_no": 1, "deal_set": 0, "seating": ["a", "c"], "status": "skipped",
             "hands": None, "bankrolls": None, "allin_bankrolls": None,
             "luck_bankrolls": None, "culprit": None, "culprit_seat": None},
            {"id": 2, "table_no": 2, "deal_set": 0, "seating": ["b", "c"], "status": "pending",
             "hands": None, "bankrolls": None, "allin_bankrolls": None,
             "luck_bankrolls": None, "culprit": None, "culprit_seat": None}]
    lines = standings.table(rows, ["a", "b", "c"], standings.Rules(100, False, 1))
    assert [(line["name"], line["rank"], line["runoff_rank"]) for line in lines] == [
        ("a", 1, 1), ("b", 2, 2), ("c", None, None)]
    document = {"game": "kuhn", "players": 2, "hands_per_match": 100, "seed": 1,
                "duplicate": False, "unit": "match", "bots": lines,
                "runoff": ["a", "b"],
                "matches": {"planned": 3, "done": 1, "failed": 0, "skipped": 1}}
    head, table, legend = table_and_legend(standings_text(document))
    assert [table[name][0] for name in "abc"] == ["1", "2", "unranked"]
    assert "unranked: it has not played yet" in dict(legend)["rank"]
    progress = RichProgress({"pending": 1, "running": 0, "done": 1, "failed": 0,
                             "skipped": 1}, ["a", "b", "c"], lambda: document)
    progress._table()
    console = Console(width=200, record=True, color_system=None)
    console.print(progress._group.renderables[1])
    live = [line for line in console.export_text().splitlines() if "│" in line]
    assert [line.split("│")[1].strip() for line in live] == ["1", "2", "unranked"]

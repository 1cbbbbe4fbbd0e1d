"""No absolute path of the server's reaches a sandboxed bot, the public or a team.

A sandboxed bot reads its first process's command line (bubblewrap's: ``/proc/1/cmdline``),
its mount table, its environment and its working folder; the snoop
(``tests/programs/hostile/snoop.py``) reports them all (``SEES`` lines), and none may name the
server's
working folder, the log folder or the bot's own folder on the host (server/confine/sandbox.py:
bwrap's arguments come through a file descriptor, the bot's folder is a copy shown at
``/bot``). The service's pages, API and served files, for the public and for each team, name
no path of its data folder, its submissions or its working folder (server/service/data/store.py
``relative_text``, quarantine.py, web.py).
"""

from __future__ import annotations

import html
import json
import os
import re
import secrets
import shutil
import sys
from pathlib import Path

import pytest

from pokerbots.server.confine import sandbox
from pokerbots.server.play.match import MatchConfig, run_match
from pokerbots.server.seats.arguments import parse_bot
from pokerbots.server.seats.limits import Limits

from processes import only_match_dir, pokerbots

ROOT = Path(__file__).resolve().parents[2]
SNOOP = ROOT / "tests" / "programs" / "hostile" / "snoop.py"
HOSTILE = ROOT / "tests" / "programs" / "hostile" / "hostile.py"
CALL = ROOT / "bots" / "call_bot.py"

pytestmark = pytest.mark.skipif(
    sandbox.bwrap_path() is None or sandbox.isolation_problem() is not None,
    reason=f"bubblewrap cannot make namespaces here: {sandbox.isolation_problem()}")


def sights(text: str) -> dict[str, list[str]]:
    """The snoop's ``SEES`` lines by kind: ``{"cmdline1": [...], "mount": [...], ...}``."""
    found: dict[str, list[str]] = {}
    for kind, value in re.findall(r"^SEES (\w+) (.*)$", text, re.M):
        found.setdefault(kind, []).append(value)
    return found


def assert_sees_no(places: list[str], seen: dict[str, list[str]]) -> None:
    """None of ``places`` in what the snoop saw, and it did report every kind of sight."""
    assert {"cmdline1", "environ1", "cmdline", "mount", "env", "cwd"} <= set(seen), seen
    for kind, values in seen.items():
        for value in values:
            for place in places:
                assert place not in value, (kind, value, place)


def test_a_sandboxed_bot_reads_no_server_path(tmp_path):
    """``pokerbots run --sandbox`` from a working folder of its own, logs in another, the
    snoop in a third: bwrap's command line shows ``--args`` and the bot's command, its
    working folder is /bot, its scratch /tmp, and no line names any of those host folders."""
    word = f"zqx{secrets.token_hex(4)}"
    cwd, logs = tmp_path / f"{word}-cwd", tmp_path / f"{word}-logs"
    bots = cwd / "bots"
    bots.mkdir(parents=True)
    shutil.copy(SNOOP, bots / "snoop.py")
    shutil.copy(CALL, bots / "call_bot.py")
    result = pokerbots("run", "--sandbox", "--hands", 3, "--logs", logs,
                       "bots/snoop.py --seconds 0.3", f"{sys.executable} bots/call_bot.py",
                       cwd=cwd, timeout=120)
    assert result.returncode == 0, result.stderr
    seen = sights((only_match_dir(logs) / "seat0.stderr").read_text())
    assert_sees_no([word, str(tmp_path)], seen)
    (first,) = seen["cmdline1"]
    assert re.fullmatch(r"\S*bwrap --args \d+ -- \S*python\S* /bot/snoop\.py --seconds 0\.3",
                        first), first
    assert seen["cmdline"] == [first.split(" -- ", 1)[1]]
    assert seen["cwd"] == ["/bot"]
    assert {"HOME=/tmp", "TMPDIR=/tmp", "PWD=/bot"} <= set(seen["env"])
    points = {line.split(" - ")[0].split()[4] for line in seen["mount"]}
    assert {"/", "/bot", "/tmp", "/proc", "/dev"} <= points


def test_the_bots_command_line_is_rewritten_to_its_copy(tmp_path):
    """Paths into the bot's folder become paths under /bot, others stay; the copy is made of
    hard links (the same files), without the log folder inside it; bwrap's arguments are in
    the descriptor, not its command line."""
    folder = tmp_path / "mybot"
    (folder / "logs" / "match").mkdir(parents=True)
    (folder / "logs" / "match" / "seat0.in").write_text("secret\n")
    (folder / "bot.py").write_text("pass\n")
    (folder / "model.bin").write_bytes(b"\0" * 10)
    copies = sandbox.Copies()
    launch = sandbox.wrap([sys.executable, str(folder / "bot.py"), str(folder / "model.bin"),
                           "relative.txt", "/usr/bin/env"], copies, [folder / "logs"])
    try:
        args = os.read(launch.fds[0], 1 << 20).split(b"\0")
    finally:
        launch.close()
    try:
        assert launch.argv[1:3] == ["--args", str(launch.fds[0])]
        assert launch.argv[-4:] == ["/bot/bot.py", "/bot/model.bin", "relative.txt",
                                    "/usr/bin/env"]
        assert not any(str(tmp_path) in word for word in launch.argv)
        copy = copies.made[str(folder.resolve())]
        assert os.fsencode(copy) in args and b"/bot" in args
        assert not any(os.fsencode(tmp_path) in arg for arg in args)
        assert sorted(p.name for p in copy.iterdir()) == ["bot.py", "model.bin"]
        assert (copy / "bot.py").stat().st_ino == (folder / "bot.py").stat().st_ino
        assert launch.env["HOME"] == "/tmp" and launch.env["PWD"] == "/bot"
    finally:
        copies.remove()
    assert not copy.exists()


def test_a_bot_whose_folder_is_too_large_to_copy_is_refused_by_name(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox.Copies, "LIMIT", 5)
    other, folder = tmp_path / "other", tmp_path / "crowded"
    for place in (other, folder):
        place.mkdir()
        shutil.copy(CALL, place / "bot.py")
    for i in range(5):
        (folder / f"data{i}").write_text("x")
    config = MatchConfig(bots=[parse_bot(str(other / "bot.py")), parse_bot(str(folder / "bot.py"))],
                         hands=2, logs=tmp_path / "logs", limits=Limits(sandbox=True))
    outcome, _ = run_match(config)
    assert outcome.fault is not None and outcome.fault.seat == 1
    assert (f"it could not be started: its folder {folder} holds more than 5 files and folders"
            in outcome.fault.reason)


# -- the service -------------------------------------------------------------------------------

def service_bot(folder: Path, program: Path, *args: str) -> None:
    """A bot of the service whose bot.py runs ``program ARGS`` (a copy beside it)."""
    folder.mkdir(parents=True)
    shutil.copy(program, folder / program.name)
    (folder / "bot.py").write_text(
        "import os, runpy, sys\n"
        f"sys.argv = [{program.name!r}, *{list(args)!r}]\n"
        f"runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)),"
        f" {program.name!r}), run_name='__main__')\n")


def crawl(served, start: str, token: str | None, found: dict[str, str]) -> None:
    """Every page, document and file of the site reachable from ``start`` by link (and each
    match's files), as ``token``'s viewer gets them: path -> text."""
    queue = [start]
    while queue:
        path = queue.pop()
        if path in found:
            continue
        answer = served.get(path, token)
        assert answer.status < 500, (path, answer.status)
        found[path] = answer.body.decode("utf-8", "replace")
        links = [html.unescape(h) for h in re.findall(r'href="(/[^"#?]*)', found[path])]
        if re.fullmatch(r"/matches/\d+", path):
            links += [f"{path}/{name}" for name in ("summary.json", "hands.txt", "hands.jsonl",
                                                    "timing.json")]
        queue += [h for h in links if h.startswith(("/matches", "/teams", "/tournaments",
                                                    "/bots", "/versions", "/api"))]


@pytest.mark.slow  # a real service, its smoke tests and a tournament; CI runs it (-m slow)
def test_the_service_shows_no_server_path_and_a_bot_filling_its_disk_changes_nothing(tmp_path):
    """``pokerbots serve`` with its data folder, submissions and working folder named by a
    distinctive word, and bots that do all that puts a path on a page: one fails its smoke
    test (a report with its paragraph and a Reproduce line), one crashes in every
    tournament match (fault paragraphs), one fills its scratch at every start and plays on,
    the snoop reports what it sees. After the first tournament, no page, API document or
    file names the word, for the public or for any team; the snoop saw none of those
    folders; the tournament completed and ranked every bot."""
    from service_site import Served, make_submissions

    word = f"zqx{secrets.token_hex(4)}"
    submissions = make_submissions(tmp_path / f"{word}-submissions", good=("call",))
    service_bot(submissions / "crasher", HOSTILE, "crash", "--at-hand", "35")
    service_bot(submissions / "filler", HOSTILE, "fill-scratch", "--mib", "64")
    service_bot(submissions / "snoop", SNOOP, "--seconds", "0.2", "--files", "2000")
    data = tmp_path / f"{word}-data"
    cwd = tmp_path / f"{word}-cwd"
    cwd.mkdir()
    names = ["call", "crasher", "filler", "snoop", "broken"]
    with Served(submissions, data, "--hands", "40", "--every", "1h", "--max-scratch", "8",
                cwd=cwd) as served:
        bots = served.settled(names)
        assert {n: bots[n]["status"] for n in names} == {
            "call": "admitted", "crasher": "admitted", "filler": "admitted",
            "snoop": "admitted", "broken": "quarantined"}, bots
        served.tournament_done(1)
        public: dict[str, str] = {}
        for start in ("/", "/api/standings", "/api/ladder", "/api/bots", "/api/tournaments"):
            crawl(served, start, None, public)
        teams: dict[str, dict[str, str]] = {}
        for team in ("crasher", "broken", "filler", "snoop"):
            teams[team] = {}
            crawl(served, f"/teams/{team}", served.token(team), teams[team])
        standings = served.api("/api/standings")
        assert served.stop() == 0, served.log()

    places = [word, str(data), str(submissions), str(cwd)]
    for viewer, pages in (("public", public), *teams.items()):
        for path, text in pages.items():
            for place in places:
                assert place not in text, (viewer, path, place)
    # The places that once showed paths were among those read, so this can fail:
    tournament = public["/tournaments/1"]
    assert re.search(r'<td class="name">bots/call/[0-9a-f]+/bot\.py</td>', tournament)
    faults = [t for p, t in teams["crasher"].items() if re.fullmatch(r"/matches/\d+", p)
              and "failed in hand 35" in t]
    assert faults and all("Logs: tournaments/" in t for t in faults)
    broken = teams["broken"]["/teams/broken"]
    assert "Bot at seat 0 (bot.py) failed" in broken and "Reproduce: pokerbots run bot.py" in broken
    summaries = [t for p, t in teams["broken"].items() if p.endswith("/summary.json")
                 and p.startswith("/versions/")]
    assert summaries and all("bot.py" in json.loads(t)["bots"] for t in summaries)
    # The tournament completed and ranked every bot; the filler filled its 8 MiB every match.
    assert {row["name"] for row in standings["bots"]} == {"call", "crasher", "filler", "snoop"}
    matches = sorted(p for p in (data / "tournaments").rglob("summary.json"))
    fills = []
    for summary in matches:
        seating = json.loads(summary.read_text())["bots"]
        if "filler" in seating:
            text = (summary.parent / f"seat{seating.index('filler')}.stderr").read_text()
            fills.append(re.search(r"FILLED (\d+) MiB.*No space left on device", text))
    assert fills and all(found and int(found.group(1)) <= 8 for found in fills)
    # What the snoop saw, in its smoke matches and its tournament matches.
    text = "\n".join(p.read_text() for p in sorted(data.rglob("*.stderr"))
                     if "SEES cmdline1" in p.read_text())
    assert text.count("SEES cmdline1") >= 2
    assert_sees_no(places, sights(text))

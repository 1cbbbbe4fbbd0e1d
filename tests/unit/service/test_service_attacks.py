"""Hostile uploads and tokens against the real ``pokerbots serve``: each attack of
``tests/programs/attacks`` played on a service on 127.0.0.1, its answer, the time it took and the
service's memory (``/proc/PID/status``) checked as a team or a visitor would notice them.

An upload is its own folder and nothing else: a link that climbs out while its text stays in
(another team's version folder, ``/etc/passwd``) is refused, by an upload (400 naming the
link) and by a folder dropped in the submissions folder (rejected, the link named). A refusal
is cheap: a huge tar header is refused before it is read, names are checked in linear time, a
form of many parts is refused after a few, answers quote a few hundred bytes at most, and a
wrong token costs no scrypt once its key or its client failed lately, so that ``/healthz``
keeps answering during a flood. The default run plays each attack small (a 64 MiB header on a
service taking 256 KiB uploads, two rounds of the flood); the slow tests play them at full
size (a 1 GiB header and 200,000 parts under the default ``--max-upload`` of 50 MiB, ten
rounds).
"""

from __future__ import annotations

import os
import shutil
import stat
import tarfile
import time
from pathlib import Path

import pytest

from pokerbots.server.service.data.teams import CLIENT_FAILURES, KEY_PAUSE

from attacks import uploads as hostile
from attacks import wrong_tokens
from service_site import BOTS
from upload_site import QUICK, QUICK_OPTIONS, Site, served_site
from waiting import wait_for

#: The most bytes of an answer to a refused upload.
SHORT_ANSWER = 600
#: The most seconds an upload under --max-upload takes to be answered, and the most the
#: service's memory may grow meanwhile (the issue's goal).
ANSWERED_WITHIN = 3.0
GROWTH = 200 << 20
#: Less than a header of 64 MiB: the memory an upload refused for its header may take.
HELD = 48 << 20
#: The teams of the attack site: the attackers, and ``beta``, whose version is cloned.
ATTACKERS = ("clone", "escape", "passwd", "long", "deep", "parts", "form")


def dropped_folders(submissions: Path) -> Path:
    """A submissions folder: ``victim`` (a bot that plays), ``cloner`` (its ``bot.py`` a
    link to ``victim``'s by the climbing link) and ``reader`` (its ``VERSION`` a link to
    ``/etc/hostname`` the same way)."""
    victim = submissions / "victim"
    victim.mkdir(parents=True)
    shutil.copy(BOTS / "call_bot.py", victim / "bot.py")
    for name, link, target in (("cloner", "bot.py", f"{victim}/bot.py"),
                               ("reader", "VERSION", "/etc/hostname")):
        folder = submissions / name
        chain = folder.joinpath(*[f"d{i}" for i in range(1, hostile.LEVELS + 1)])
        chain.mkdir(parents=True)
        (chain / "s").symlink_to("/".join([".."] * (hostile.LEVELS - 1)))
        (folder / "x").symlink_to(str((chain / "s").relative_to(folder)) + "/"
                                  + "/".join([".."] * (hostile.LEVELS + 1)))
        (folder / link).symlink_to("x/" + target.lstrip("/"))
        if link != "bot.py":
            shutil.copy(BOTS / "call_bot.py", folder / "bot.py")
    return submissions


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    """A service taking 256 KiB uploads, one every 0.05 s per team, with a team per attack
    and ``beta``; its submissions folder holds :func:`dropped_folders`."""
    work = tmp_path_factory.mktemp("attacks")
    dropped_folders(work / "submissions")
    yield from served_site(work, QUICK_OPTIONS, ("beta", *ATTACKERS))


def refused_cheaply(site: Site, body: bytes, team: str, status: int, words: str,
                    headers: dict | None = None, growth: int = GROWTH) -> hostile.Figures:
    """Upload ``body`` as ``team``: answered ``status`` with ``words``, within
    ANSWERED_WITHIN seconds, in a short answer, the service's memory up by less than
    ``growth``, nothing written (no version, nothing in ``bots/``: the smoke tests of other
    versions may write meanwhile)."""
    before, versions = bots_of(site), versions_of(site)

    def answered() -> hostile.Figures | None:  # None: a 429 (the interval after a refusal)
        figures = hostile.play(site.served.port, site.served.process.pid, body,
                               site.tokens[team], headers)
        return figures if figures.answer.status != 429 else None

    figures = wait_for(f"{team}'s upload answered other than 429", answered, every=QUICK)
    answer = figures.answer
    assert (answer.status, words in answer.head.decode("utf-8", "replace")) == \
        (status, True), answer
    assert answer.size <= SHORT_ANSWER, answer
    assert answer.seconds < ANSWERED_WITHIN, answer
    assert figures.grown < growth, (figures.grown, answer)
    assert bots_of(site) == before and versions_of(site) == versions
    return figures


def versions_of(site: Site) -> list[tuple]:
    """The versions recorded, by id and bot (their tests may go on meanwhile)."""
    return [row[:2] for row in site.versions()]


def bots_of(site: Site) -> dict:
    """What ``bots/`` of the data folder holds (the versions' folders), but the scheduler's
    passing copies of the dropped folders it takes meanwhile (``bots/.incoming-*``); an
    upload's own (``bots/.upload-*``) count. A folder by its kind alone: ``bots`` itself changes
    time with those copies."""
    return {path: found[:1] if stat.S_ISDIR(found[0]) else found
            for path, found in site.tree().items()
            if path.startswith("bots") and not path.startswith("bots/.incoming-")}


def test_links_that_climb_out_are_refused_though_their_text_stays_inside(attacked):
    site = attacked
    # beta's version folder exists from the 201 on (its smoke test comes later)
    status, _, document = site.upload_when_allowed(hostile.tgz(
        (hostile.member("bot.py"), hostile.BOT), (hostile.member("VERSION"), b"1.0\n")),
        team="beta")
    assert status == 201, document
    (victim,) = (site.data / "bots" / "beta").iterdir()
    assert (victim / "bot.py").is_file()
    x = "entry 'x' is a link pointing outside the bot's folder (to 'd1/d2/d3"
    refused_cheaply(site, hostile.clone(str(victim)), "clone", 400, x)
    refused_cheaply(site, hostile.lexical_escape(), "escape", 400, x)
    refused_cheaply(site, hostile.passwd(), "passwd", 400, x)
    # the same links, inside one folder (tar czf bot.tgz mybot/): that folder is the top
    wrapped = hostile.tgz((hostile.member("mybot/bot.py"), hostile.BOT),
                          (hostile.member("mybot/up", tarfile.SYMTYPE, "../mybot"), None))
    refused_cheaply(site, wrapped, "escape", 400, "entry 'mybot/up' is a link pointing"
                                                  " outside the bot's folder (to '../mybot'")
    loop = hostile.tgz((hostile.member("bot.py"), hostile.BOT),
                       (hostile.member("a", tarfile.SYMTYPE, "b/c"), None),
                       (hostile.member("b", tarfile.SYMTYPE, "a"), None))
    refused_cheaply(site, loop, "escape", 400, "entry 'a' is a link that leads back to itself")
    # links that stay inside, through other links, are kept as they are
    inside = hostile.tgz((hostile.member("lib/run.py"), hostile.BOT),
                         (hostile.member("lib/up", tarfile.SYMTYPE, ".."), None),
                         (hostile.member("bot.py", tarfile.SYMTYPE, "lib/up/lib/run.py"),
                          None))
    status, _, document = site.upload_when_allowed(inside, team="escape")
    assert status == 201 and document["status"] == "testing", document
    (kept,) = (site.data / "bots" / "escape").iterdir()
    assert os.readlink(kept / "bot.py") == "lib/up/lib/run.py"


def test_a_dropped_folder_whose_links_lead_out_is_rejected_naming_the_link(attacked):
    served = attacked.served

    def read() -> dict | None:  # both are read (rejected at once: no smoke test)
        bots = served.bots()
        return bots if {"cloner", "reader"} <= set(bots) else None

    bots = served.wait("the dropped folders read", read)
    assert bots["cloner"]["status"] == "rejected", bots["cloner"]
    assert bots["cloner"]["reason"].startswith("'bot.py' is a link that leads outside the"
                                               " bot's folder (to 'x/")
    reader = bots["reader"]
    assert reader["status"] == "rejected" and reader["reason"].startswith(
        "'VERSION' is a link that leads outside the bot's folder"), reader
    assert reader["version"] not in Path("/etc/hostname").read_text()  # not read
    assert bots["victim"]["status"] in ("testing", "admitted"), bots["victim"]


@pytest.mark.parametrize("kind", [tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK,
                                  tarfile.XHDTYPE], ids=["long name", "long link", "pax"])
def test_a_huge_tar_header_is_refused_before_it_is_read(attacked, kind):
    body = hostile.long_header(64 << 20, kind)
    assert len(body) < 100_000  # 64 MiB of header in a few dozen KB
    figures = refused_cheaply(attacked, body, "long", 400, "the archive's header at byte 0 is",
                              growth=HELD)
    assert b"of 67,108,864 bytes: names are at most 4,096 bytes" in figures.answer.head


def test_names_are_checked_in_time_linear_in_their_length(attacked):
    # 40 names of 50,000 levels each (before: 33 s of CPU): refused at the first name
    refused_cheaply(attacked, hostile.deep_names(), "deep", 400,
                    "is a GNU long name of 100,003 bytes")
    # names of 2,000 levels: refused at the first (the service's walks of a folder recurse)
    body = hostile.tgz(*[(hostile.member("a/" * 2000 + f"f{i}"), b"") for i in range(700)])
    refused_cheaply(attacked, body, "deep", 400, "is 2,001 folder levels deep: at most 100")
    # names within the limits, each 2,500 characters: counted as they come, and refused
    # once they are more than the names of 10,000 entries should be
    deep = "/".join(f"{level}" + "n" * 250 for level in range(9))
    body = hostile.tgz(*[(hostile.member(f"{deep}/{i:04}" + "m" * 240), b"")
                         for i in range(1100)])
    refused_cheaply(attacked, body, "deep", 413, "the archive's names and link targets are"
                                                 " more than 2,560,000 characters in all")
    # and a name that is too long is quoted shortened, saying so
    long = hostile.tgz((hostile.member("bot.py"), hostile.BOT),
                       (hostile.member("a" * 250 + "/" + "b" * 4000), b""))
    refused_cheaply(attacked, long, "deep", 400, "... (4,251 bytes, shortened) has a name of"
                                                 " more than 4,096 bytes")


def test_a_form_of_many_parts_is_refused_after_a_few(attacked):
    archive = hostile.lexical_escape()
    body, kind = hostile.many_parts(3000, archive)
    assert len(body) < 256 << 10
    refused_cheaply(attacked, body, "parts", 413, "the form has more than 16 parts",
                    headers={"Content-Type": kind})
    boundary = kind.split("=", 1)[1]
    endless = f"--{boundary}\r\nContent-Disposition: form-data; name=\"archive\"\r\n".encode()
    refused_cheaply(attacked, endless + b"X-Filler: " + b"y" * 20_000, "parts", 400,
                    "a part of the form has more than 8,192 bytes of headers",
                    headers={"Content-Type": kind})
    # a form with a few fields and the archive is read: its archive is judged
    body, kind = hostile.many_parts(5, archive)
    refused_cheaply(attacked, body, "form", 400, "entry 'x' is a link pointing outside",
                    headers={"Content-Type": kind})


def test_refusals_count_against_the_upload_interval(site_paced):
    site = site_paced
    bad = hostile.lexical_escape()
    status, _, answer = site.upload(bad, team="beta")
    assert status == 400, answer
    status, headers, answer = site.upload(bad, team="beta")  # at once: too soon
    assert status == 429 and 1 <= int(headers["retry-after"]) <= 2, answer
    assert "last upload (accepted or refused)" in answer["error"]
    site.after_the_interval("beta", 2.0)
    status, _, answer = site.upload(b"x", team="beta",  # too long, by its Content-Length
                                    headers={"Content-Length": str(10 << 20)})
    assert status == 413, answer
    status, headers, answer = site.upload(bad, team="beta")
    assert status == 429, answer


@pytest.fixture
def site_paced(tmp_path):
    yield from served_site(tmp_path, ("--every", "1h", "--upload-interval", "2s",
                                      "--max-upload", "256K"), ("beta",))


@pytest.fixture
def tokens_site(tmp_path):
    """A service with teams ``k0`` ... ``k{CLIENT_FAILURES}``."""
    yield from served_site(tmp_path, ("--every", "1h"),
                           [f"k{i}" for i in range(CLIENT_FAILURES + 1)])


def status_of(site: Site, token: str) -> tuple[int, dict, dict]:
    """``GET /api/submissions/999`` with ``token``: 404 once the token checks out."""
    return site.request("GET", "/api/submissions/999", token=token)


def test_a_wrong_token_holds_its_key_for_seconds_and_a_client_for_longer(tokens_site):
    site = tokens_site
    right = site.tokens["k0"]
    assert status_of(site, right)[0] == 404  # checked, and remembered as checked
    wrong = wrong_tokens.wrong(right, 1)
    assert status_of(site, wrong)[0] == 401  # a scrypt, and the key held
    status, headers, answer = status_of(site, wrong_tokens.wrong(right, 2))
    assert status == 429 and 1 <= int(headers["retry-after"]) <= KEY_PAUSE, answer
    assert "gave wrong tokens moments ago" in answer["error"]
    assert status_of(site, right)[0] == 404  # the right token, checked before, goes on

    # a right token never checked yet waits out the key's pause, no longer
    fresh = site.tokens["k1"]
    assert status_of(site, wrong_tokens.wrong(fresh, 1))[0] == 401
    status, headers, _ = status_of(site, fresh)
    if status == 429:
        time.sleep(int(headers["retry-after"]))
        status = status_of(site, fresh)[0]
    assert status == 404

    # a client that gave wrong tokens for many keys is not checked for a while, any key
    for number in range(2, CLIENT_FAILURES):  # k0 and k1 failed once each above
        assert status_of(site, wrong_tokens.wrong(site.tokens[f"k{number}"], 1))[0] == 401
    status, headers, answer = status_of(site, site.tokens[f"k{CLIENT_FAILURES}"])
    assert status == 429 and int(headers["retry-after"]) > KEY_PAUSE, answer
    assert status_of(site, right)[0] == 404  # a token checked before still goes on


def flood_and_health(site: Site, rounds: int) -> tuple[wrong_tokens.Health, dict, float]:
    """The flood of wrong tokens (40 at once, ``rounds`` times) of the site's first team's
    key, and ``/healthz`` meanwhile; its answers' statuses, and the service's CPU seconds."""
    token = next(iter(site.tokens.values()))
    wrong_tokens.warm(site.served.port)
    pid = site.served.process.pid
    health = wrong_tokens.Health(site.served.port)
    health.start()
    cpu = wrong_tokens.cpu_seconds(pid)
    try:
        statuses = wrong_tokens.flood(site.served.port, token, clients=40, rounds=rounds)
    finally:
        health.stop()
    return health, statuses, wrong_tokens.cpu_seconds(pid) - cpu


#: A scrypt's CPU seconds, about (the flood costs less than one in four requests' worth).
SCRYPT = 0.1


def test_healthz_answers_within_a_second_during_a_wrong_token_flood(tokens_site):
    health, statuses, cpu = flood_and_health(tokens_site, rounds=2)
    assert health.times and max(health.times) < 1.0, health.summary()
    assert set(health.statuses) == {200}
    # pages take a wrong token for no token; the API refuses it (401, or 429 unchecked)
    assert set(statuses) <= {200, 401, 429} and statuses[429] > 0, statuses
    assert cpu < 80 * SCRYPT / 4, (cpu, statuses)  # before: a scrypt for each 401


@pytest.mark.slow
def test_healthz_answers_within_a_second_during_a_long_wrong_token_flood(tokens_site):
    health, statuses, cpu = flood_and_health(tokens_site, rounds=10)
    assert health.times and max(health.times) < 1.0, health.summary()
    assert sum(statuses.values()) == 400 and cpu < 400 * SCRYPT / 4, (cpu, statuses)


@pytest.fixture(scope="module")
def full_size(tmp_path_factory):
    """A service with the default --max-upload (50 MiB)."""
    yield from served_site(tmp_path_factory.mktemp("full"), ("--every", "1h",
                                                             "--upload-interval", "0.05s"),
                           ("long", "parts"))


@pytest.mark.slow
@pytest.mark.parametrize("kind", [tarfile.GNUTYPE_LONGNAME, tarfile.XHDTYPE],
                         ids=["long name", "pax"])
def test_a_1_gib_header_is_answered_in_seconds_and_small(full_size, kind):
    body = hostile.long_header(1 << 30, kind)
    assert len(body) < 2 << 20
    figures = refused_cheaply(full_size, body, "long", 400, "the archive's header at byte 0",
                              growth=HELD)
    assert b"of 1,073,741,824 bytes" in figures.answer.head


@pytest.mark.slow
def test_a_form_of_200000_parts_is_answered_in_seconds(full_size):
    body, kind = hostile.many_parts(200_000, hostile.lexical_escape())
    refused_cheaply(full_size, body, "parts", 413, "the form has more than 16 parts",
                    headers={"Content-Type": kind})


@pytest.mark.slow
def test_the_largest_archive_of_names_is_answered_in_seconds(full_size):
    """Nearly 10,000 entries (the most), their names as long in all as they may be: unpacked
    and answered within seconds of the service's CPU (its wall time is the machine's: on a
    busy one, longer), the memory small."""
    deep = "/".join(f"{level}" + "n" * 24 for level in range(9))
    names = [(hostile.member("bot.py"), hostile.BOT)]
    names += [(hostile.member(f"{deep}/{number:05}" + "m" * 16), b"x")
              for number in range(9980)]
    body = hostile.tgz(*names)
    pid = full_size.served.process.pid
    cpu = wrong_tokens.cpu_seconds(pid)
    figures = hostile.play(full_size.served.port, pid, body, full_size.tokens["long"])
    cpu = wrong_tokens.cpu_seconds(pid) - cpu
    assert figures.answer.status == 201, figures.answer
    assert cpu < ANSWERED_WITHIN and figures.grown < GROWTH, \
        (cpu, figures.line("the largest archive of names", len(body)))


def test_the_team_guard_is_shared_safely_by_threads():
    """Many threads failing and asking at once: every answer is a pause of the guard's; the
    scrypts' turns are bounded (a third waits CHECK_WAIT seconds, then is refused)."""
    from concurrent.futures import ThreadPoolExecutor

    from pokerbots.server.service.data.teams import CHECK_WAIT, CHECKS_AT_ONCE, Guard

    guard = Guard(clock=lambda: 1000.0)  # the time stands still: every pause is whole

    def fail(number: int) -> float:
        guard.failed(f"key{number % 7}", f"10.0.0.{number % 13}")
        return guard.wait(f"key{number % 7}", f"10.0.0.{number % 13}")

    with ThreadPoolExecutor(16) as pool:
        waits = list(pool.map(fail, range(5000)))
    assert all(KEY_PAUSE <= wait <= 60 for wait in waits)
    assert max(waits) == 60  # each client failed more than ten times in the minute
    assert guard.wait("other", None) == 0
    assert all(guard.turn() for _ in range(CHECKS_AT_ONCE))
    start = time.monotonic()
    assert not guard.turn()
    assert time.monotonic() - start >= CHECK_WAIT * 0.9
    guard.done()
    assert guard.turn()

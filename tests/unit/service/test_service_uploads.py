"""Teams and their uploads, end to end: the real ``pokerbots serve`` on 127.0.0.1, teams made
with the real ``pokerbots team``, bots sent with the real ``pokerbots submit`` or as raw
HTTP requests, and the data folder looked at before and after.

The default run keeps what costs neither a smoke test nor many commands (about 5 s): the
tokens (wrong, missing, an organiser's, the login cookie), and every bad upload answered with
its code and nothing written (on a service whose upload interval is short: a refusal starts
the interval as an upload does). The team commands, ``submit``'s refusals, uploads that are
tested (admitted, quarantined, too soon after another) are slow tests, as is the service
playing its tournament on a two-worker Dask cluster. The hostile uploads and tokens of
``tests/programs/attacks`` are played in test_service_attacks.py.
"""

from __future__ import annotations

import io
import json
import os
import re
import socket
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

from pokerbots.server.service.data.submissions import digest
from pokerbots.server.service.uploads import archives

from dask_cluster import dask_cluster, matches  # noqa: F401 (a fixture)
from processes import pokerbots
from service_site import BOTS, BROKEN, GOOD, Served
from upload_site import MAX_UPLOAD, OPTIONS, QUICK_OPTIONS, served_site


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    yield from served_site(tmp_path_factory.mktemp("uploads"), OPTIONS)


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """A site whose upload interval is short, for refusals one after another."""
    yield from served_site(tmp_path_factory.mktemp("refusals"), QUICK_OPTIONS,
                           ("alpha", "beta"))


def bot_folder(path: Path, source: Path | str = BOTS / "call_bot.py", version: str = "1.0"):
    path.mkdir(parents=True)
    text = source.read_text() if isinstance(source, Path) else source
    (path / "bot.py").write_text(text)
    (path / "VERSION").write_text(version + "\n")
    return path


def tgz(*members: tuple[tarfile.TarInfo, bytes | None]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for member, content in members:
            if content is not None:
                member.size = len(content)
            archive.addfile(member, None if content is None else io.BytesIO(content))
    return buffer.getvalue()


def entry(name: str, kind=tarfile.REGTYPE, linkname: str = "") -> tarfile.TarInfo:
    member = tarfile.TarInfo(name)
    member.type, member.linkname, member.mode = kind, linkname, 0o755
    return member


def zipped(*members: tuple[str, int, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, mode, content in members:
            info = zipfile.ZipInfo(name)
            info.external_attr = mode << 16
            archive.writestr(info, content)
    return buffer.getvalue()


BOT = ("bot.py", 0o100644, b"print('hi')\n")

#: Every bad archive: (what it is, body, status, words of the answer).
BAD = [
    ("a name with ..", tgz((entry("bot.py"), b"x"), (entry("../evil"), b"x")), 400,
     "entry '../evil' has '..'"),
    ("an absolute name", tgz((entry("/tmp/evil"), b"x")), 400,
     "entry '/tmp/evil' is an absolute path"),
    ("a link pointing outside", tgz((entry("bot.py"), b"x"),
                                    (entry("data", tarfile.SYMTYPE, "../../.."), None)),
     400, "entry 'data' is a link pointing outside"),
    ("a link outside the one folder", tgz((entry("mine/bot.py"), b"x"),
                                          (entry("mine/up", tarfile.SYMTYPE, ".."), None)),
     400, "entry 'mine/up' is a link pointing outside"),
    ("an absolute link", tgz((entry("bot", tarfile.SYMTYPE, "/bin/sh"), None)), 400,
     "entry 'bot' is a link pointing outside"),
    ("an entry through a link", tgz((entry("up", tarfile.SYMTYPE, "."), None),
                                    (entry("up/x"), b"x")), 400,
     "entry 'up/x' is inside 'up'"),
    ("a hard link outside", tgz((entry("bot", tarfile.LNKTYPE, "/etc/passwd"), None)), 400,
     "entry 'bot' is a link pointing outside"),
    ("a device", tgz((entry("bot.py"), b"x"), (entry("tty", tarfile.CHRTYPE), None)), 400,
     "entry 'tty' is a device file"),
    ("a fifo", tgz((entry("pipe", tarfile.FIFOTYPE), None)), 400, "entry 'pipe' is a fifo"),
    ("a name too long", tgz((entry("bot.py"), b"x"), (entry("n" * 300), b"x")), 400,
     f"entry '{'n' * 98}'... (300 bytes, shortened) has a name longer than 255 bytes"),
    ("a name twice", tgz((entry("bot.py"), b"x"), (entry("bot.py"), b"y")), 400,
     "entry 'bot.py' appears twice"),
    ("a zip with ..", zipped(BOT, ("../../evil.py", 0o100644, b"x")), 400,
     "entry '../../evil.py' has '..'"),
    ("a zip link outside", zipped(BOT, ("etc", 0o120777, b"/etc")), 400,
     "entry 'etc' is a link pointing outside"),
    ("a zip device", zipped(BOT, ("null", 0o020666, b"")), 400,
     "entry 'null' is a device file"),
    ("a cut archive", tgz((entry("bot.py"), b"x" * 5000))[:-40], 400,
     "the archive is corrupt"),
    ("gzip noise", b"\x1f\x8b" + os.urandom(3000), 400, "the archive is corrupt"),
    ("a corrupt zip", zipped(BOT)[:-30], 400, "the archive is corrupt"),
    ("no archive", b"#!/bin/sh\necho READY\n", 400, "neither a .tar.gz nor a .zip"),
    ("an empty body", b"", 400, "the body is empty"),
    ("too long", os.urandom(MAX_UPLOAD + 1), 413, "longer than this service's --max-upload"),
    ("too many entries", tgz(*[(entry(f"f{i}"), b"") for i in range(10_001)]), 413,
     "more than 10000 entries"),
    ("too large unpacked", tgz((entry("bot.py"), b"x"), (entry("zeros"), bytes(4 << 20))),
     413, "more than 262,144 bytes unpacked"),
]


@pytest.mark.slow  # a dozen commands
def test_team_add_list_and_revoke(site, tmp_path):
    data = site.data
    result = pokerbots("team", "add", "alpha", "--data", data)
    assert result.returncode == 2 and "there is a team called alpha already" in result.stderr
    result = pokerbots("team", "add", "no/slash", "--data", data)
    assert result.returncode == 2 and "letters, digits" in result.stderr
    result = pokerbots("team", "list", "--data", tmp_path / "nothing")
    assert result.returncode == 2 and "holds no service" in result.stderr
    # a team added while the service runs can use its token at once; revoked, it cannot
    result = pokerbots("team", "add", "gamma", "--data", data)
    assert result.returncode == 0, result.stderr
    token = result.stdout.strip()
    assert re.fullmatch(r"[A-Za-z0-9_-]{55}", token) and "shown once" in result.stderr
    store = b"".join(p.read_bytes() for p in data.glob("service.sqlite*"))  # and its WAL
    assert token[:12].encode() in store and token[12:].encode() not in store  # key, hash
    assert site.request("GET", "/api/submissions/999", token=token)[0] == 404  # it is known
    listed = pokerbots("team", "list", "--data", data)
    assert listed.returncode == 0
    lines = {line.split()[0]: line.split() for line in listed.stdout.splitlines()}
    assert sorted(lines) == ["alpha", "beta", "boss", "gamma"]
    assert lines["boss"][1] == "organiser" and lines["gamma"][1:2] == ["team"]
    assert lines["gamma"][-1] == "active"
    status, _, answer = site.request("POST", "/api/submissions", zipped(BOT), token=token)
    assert status == 201 and site.present("gamma") == 1, answer
    result = pokerbots("team", "revoke", "gamma", "--data", data)
    assert result.returncode == 0, result.stderr
    assert site.present("gamma") == 0  # its bot plays no more, and the site says why
    listed = site.request("GET", "/api/bots")[2]
    gamma = next(bot for bot in listed if bot["name"] == "gamma")
    assert gamma["status"] == "rejected" and "token was revoked" in gamma["reason"]
    assert "revoked" in pokerbots("team", "list", "--data", data).stdout.splitlines()[-1]
    status, headers, _ = site.request("POST", "/api/submissions", zipped(BOT), token=token)
    assert status == 401 and headers["www-authenticate"].startswith("Bearer")
    assert pokerbots("team", "revoke", "gamma", "--data", data).returncode == 2
    result = pokerbots("team", "add", "gamma", "--data", data)  # a new token
    assert result.returncode == 0 and site.present("gamma") == 1
    assert site.request("GET", "/api/submissions/999", token=token)[0] == 401
    assert site.request("GET", "/api/submissions/999",
                        token=result.stdout.strip())[0] == 404


@pytest.mark.parametrize("what,body,code,words", BAD, ids=[b[0] for b in BAD])
def test_a_bad_upload_gets_its_code_and_writes_nothing(quick, what, body, code, words):
    before, versions = quick.tree(), quick.versions()
    status, _, answer = quick.upload_when_allowed(body)
    assert (status, words in answer.get("error", "")) == (code, True), (status, answer)
    assert quick.tree() == before
    assert quick.versions() == versions


def test_a_packed_folder_unpacks_to_the_same_version(tmp_path):
    folder = bot_folder(tmp_path / "mine")
    (folder / "lib").mkdir()
    (folder / "lib" / "run.sh").write_text("#!/bin/sh\n")
    (folder / "lib" / "run.sh").chmod(0o755)
    (folder / "current").symlink_to("lib/run.sh")
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "bot.cpython-311.pyc").write_bytes(b"\0")
    archives.unpack(io.BytesIO(archives.pack(folder)), tmp_path / "copy", max_files=100,
                    max_bytes=1 << 20)
    assert digest(tmp_path / "copy") == digest(folder)
    assert os.access(tmp_path / "copy" / "lib" / "run.sh", os.X_OK)
    assert not (tmp_path / "copy" / "__pycache__").exists()


def test_corruption_found_while_writing_leaves_no_folder(tmp_path):
    """A zip entry whose data does not match its CRC is found only while it is written."""
    good = zipped(BOT, ("data.txt", 0o100644, b"a" * 1000))
    at = good.index(b"a" * 100)
    body = good[:at] + b"b" + good[at + 1:]  # stored, not compressed: the CRC no longer fits
    with pytest.raises(archives.ArchiveError) as refused:
        archives.unpack(io.BytesIO(body), tmp_path / "bot", max_files=10, max_bytes=1 << 20)
    assert refused.value.status == 400 and "corrupt" in refused.value.message
    assert list(tmp_path.iterdir()) == []


def test_a_body_too_long_without_its_length_is_cut_at_the_limit(quick):
    before = quick.tree()
    status, _, answer = quick.upload_when_allowed(os.urandom(MAX_UPLOAD * 4), chunked=True)
    assert status == 413, answer
    assert quick.tree() == before


def test_tokens_wrong_missing_or_an_organisers(site):
    body = zipped(BOT)
    before = site.tree()
    status, _, answer = site.request("POST", "/api/submissions", body)
    assert status == 401 and "this needs a team's token" in answer["error"]
    status, _, answer = site.request("POST", "/api/submissions", body, token="alpha.wrong")
    assert status == 401 and "not a team's token, or it was revoked" in answer["error"]
    wrong = site.tokens["alpha"][:12] + site.tokens["beta"][12:]  # alpha's key, beta's rest
    assert site.request("POST", "/api/submissions", body, token=wrong)[0] == 401
    # alpha's key failed moments ago: not checked again for a while (test_service_attacks.py)
    assert site.request("POST", "/api/submissions", body,
                        token=site.tokens["alpha"] + "x")[0] in (401, 429)
    assert site.request("POST", "/api/submissions", body,
                        headers={"Cookie": "pokerbots_token=beta.nope"})[0] == 401
    status, _, answer = site.upload(body, team="boss")
    assert status == 403 and "organiser" in answer["error"]
    assert site.tree() == before


def test_login_sets_an_http_only_strict_cookie_that_opens_the_teams_documents(site):
    status, headers, _ = site.request(
        "POST", "/login", f"token={site.tokens['beta']}".encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 303 and headers["location"] == "/teams/beta"
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"pokerbots_token={site.tokens['beta']};")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    # the cookie is a token like the header: beta has no version 999
    found = site.request("GET", "/api/submissions/999",
                         headers={"Cookie": f"pokerbots_token={site.tokens['beta']}"})
    assert found[0] == 404 and "beta has no version 999" in found[2]["error"]
    status, _, page = site.request("POST", "/login", b"token=beta.wrong",
                                   headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 401 and "not a team" in page["text"]
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    for asked, went in (("/bots/beta", "/bots/beta"), ("//evil.example/", "/teams/beta"),
                        ("https://evil.example/", "/teams/beta")):
        body = f"token={site.tokens['beta']}&next={asked}".encode()
        assert site.request("POST", "/login", body, headers=form)[1]["location"] == went
    status, headers, _ = site.request("POST", "/logout")
    assert status == 303 and 'pokerbots_token=""' in headers["set-cookie"]
    page = site.served.get("/login?next=/teams/%3Cb%3E")
    assert page.status == 200 and 'name="next" value="/teams/&lt;b&gt;"' in page.text


@pytest.mark.slow
def test_submit_refuses_a_folder_without_an_entry_point_and_a_wrong_token(site, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "README").write_text("soon\n")
    result = pokerbots("submit", empty, "--to", site.served.url, "--token", site.tokens["alpha"])
    assert result.returncode == 2 and "no entry point" in result.stderr
    good = bot_folder(tmp_path / "good")
    result = pokerbots("submit", good, "--to", site.served.url, "--token", "alpha.wrong")
    assert result.returncode == 2 and "(401)" in result.stderr
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        nobody = f"http://127.0.0.1:{probe.getsockname()[1]}"
    result = pokerbots("submit", good, "--to", nobody, "--token", site.tokens["alpha"])
    assert result.returncode == 3 and "cannot reach the service" in result.stderr
    result = pokerbots("submit", good, "--to", site.served.url)  # no token at all
    assert result.returncode == 2 and "--token" in result.stderr


def form_of(archive: bytes, field: str) -> tuple[bytes, str]:
    """A ``multipart/form-data`` body with ``archive`` as the file of ``field``, as Chromium
    sends it; and its content type."""
    boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\";"
            f" filename=\"bot.tar.gz\"\r\nContent-Type: application/gzip\r\n\r\n").encode()
    body += archive + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def test_a_form_without_the_archive_field_is_refused(quick):
    before = quick.tree()
    body, kind = form_of(zipped(BOT), "file")
    status, _, answer = quick.upload_when_allowed(body, headers={"Content-Type": kind})
    assert status == 400 and "no file in its 'archive' field" in answer["error"], answer
    assert quick.tree() == before


@pytest.mark.slow
def test_a_team_submits_and_waits_until_its_bot_is_admitted(site, tmp_path):
    folder = bot_folder(tmp_path / "mine")
    env = {**os.environ, "POKERBOTS_TOKEN": site.tokens["alpha"]}
    result = pokerbots("submit", folder, "--to", site.served.url, "--wait", env=env,
                       timeout=300)
    site.uploaded["alpha"] = time.monotonic()  # at the latest
    assert result.returncode == 0, (result.stdout, result.stderr, site.served.log())
    assert "Uploaded alpha version 1.0: testing" in result.stdout
    assert f"{site.served.url}/api/submissions/" in result.stdout
    assert "Version 1.0 is admitted" in result.stdout
    bots = site.served.bots()
    assert bots["alpha"]["status"] == "admitted" and bots["alpha"]["admitted_version"] == "1.0"
    (copy,) = (site.data / "bots" / "alpha").iterdir()
    assert (copy / "bot.py").read_bytes() == (folder / "bot.py").read_bytes()
    # beta may not read alpha's version; the organiser may
    url = result.stdout.split(site.served.url)[1].split()[0]
    assert site.request("GET", url, token=site.tokens["beta"])[0] == 404
    status, _, document = site.request("GET", url, token=site.tokens["boss"])
    assert status == 200 and document["team"] == "alpha" and document["status"] == "admitted"

    # a broken version is quarantined (exit 1, the reason printed); 1.0 keeps playing
    broken = bot_folder(tmp_path / "broken", BROKEN, "2.0")
    site.after_the_interval("alpha")
    result = pokerbots("submit", broken, "--to", site.served.url, "--wait", env=env,
                       timeout=300)
    site.uploaded["alpha"] = time.monotonic()  # at the latest
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Version 2.0 is quarantined: kuhn 2p seat 0 seed 1: expected 'READY'" \
        in result.stdout
    bots = site.served.bots()
    assert bots["alpha"]["status"] == "quarantined"
    assert bots["alpha"]["admitted_version"] == "1.0"


#: Writes terminal escape sequences to stderr (a window title, red, clear screen, a bell),
#: then breaks the first rule.
ESCAPING = r"""
import sys
sys.stderr.write("\x1b]0;owned\x07\x1b[31mred\x1b[2J\n")
sys.stderr.flush()
sys.stdin.readline()
print("not ready", flush=True)
"""


@pytest.mark.slow
def test_submit_wait_shows_the_bots_control_characters_escaped(site, tmp_path):
    folder = bot_folder(tmp_path / "escaping", ESCAPING)
    result = pokerbots("submit", folder, "--to", site.served.url, "--wait", "--token",
                       site.tokens["beta"], timeout=300)
    site.uploaded["beta"] = time.monotonic()  # the next upload of beta waits its interval out
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "is quarantined" in result.stdout
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "\\x1b]0;owned\\x07\\x1b[31mred" in result.stdout


@pytest.mark.slow
def test_an_archive_of_the_folder_itself_is_unpacked_into_its_place(site, tmp_path):
    """``tar czf bot.tgz mybot/`` and a zip with the bot's executable bit: as the folder."""
    source = (BOTS / "call_bot.py").read_bytes()
    body = tgz((entry("mybot", tarfile.DIRTYPE), None), (entry("mybot/bot"), source),
               (entry("mybot/VERSION"), b"wrapped\n"),
               (entry("mybot/lib", tarfile.SYMTYPE, "bot"), None))
    site.after_the_interval("beta")
    # as a browser's form sends it, with the login cookie: back to the team's page
    form, kind = form_of(body, "archive")
    status, headers, _ = site.request(
        "POST", "/api/submissions", form,
        headers={"Content-Type": kind, "Cookie": f"pokerbots_token={site.tokens['beta']}"})
    assert (status, headers["location"]) == (303, "/teams/beta")
    status, headers, answer = site.upload(body, team="beta")  # at once again: too soon
    assert status == 429 and 1 <= int(headers["retry-after"]) <= 3, answer
    (copy,) = [folder for folder in (site.data / "bots" / "beta").iterdir()
               if (folder / "VERSION").read_text() == "wrapped\n"]
    assert os.access(copy / "bot", os.X_OK) and os.readlink(copy / "lib") == "bot"
    found = site.served.wait("beta's verdict", lambda: site.served.bots()["beta"]["status"]
                             != "testing" and site.served.bots()["beta"])
    assert (found["status"], found["version"]) == ("admitted", "wrapped"), found


@pytest.mark.slow
def test_the_service_plays_its_tournament_on_a_dask_cluster(tmp_path, dask_cluster):  # noqa: F811
    submissions = tmp_path / "submissions"
    for name in ("call", "eq", "random"):
        bot_folder(submissions / name, GOOD[name])
    data = tmp_path / "data"
    with Served(submissions, data, "--hands", "100", "--duplicate", "--scheduler",
                dask_cluster) as served:
        served.tournament_done(1)
        assert served.stop() == 0
    rows = matches(data / "tournaments" / "000001")
    assert len(rows) == 6 and {r["status"] for r in rows} == {"done"}
    assert len({r["worker"] for r in rows}) == 2  # both workers played
    job = json.loads((data / "tournaments" / "000001.json").read_text())
    assert job["scheduler"] == dask_cluster


@pytest.mark.slow  # the Dask client tries for 10 s
def test_an_unreachable_scheduler_refuses_the_service(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{probe.getsockname()[1]}"
    result = subprocess.run([sys.executable, "-m", "pokerbots.server.cli.main", "serve",
                             str(tmp_path), "--data", str(tmp_path / "data"), "--port", "0",
                             "--scheduler", address], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 2 and "cannot reach the Dask scheduler" in result.stderr
    assert not (tmp_path / "data").exists()

"""Helpers for the service's tests: a submissions folder of real bots, ``pokerbots serve``
started as a process on a free port of 127.0.0.1, and headless Chromium.

Run as a script it makes the README's picture: a demo competition (the bundled bots, a broken
one, one without an entry point), three tournaments, and a screenshot of the home page::

    python tests/support/service_site.py --screenshot docs/service-home.png
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "bots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

#: A folder name and a version label that are markup: the pages must show them as text.
EVIL_NAME = "<img src=x onerror=alert(1)>"
EVIL_LABEL = "<script>alert(1)</script>"

#: A bot that answers its first message with markup: it fails its smoke test at once.
BROKEN = """import sys
sys.stderr.write("<b>about to break the rules</b>\\n")
sys.stderr.flush()
sys.stdin.readline()
print("<script>alert(1)</script>", flush=True)
for line in sys.stdin:
    pass
"""
#: Good bots by name: the file that becomes their bot.py.
GOOD = {"call": BOTS / "call_bot.py", "eq": BOTS / "kuhn_2p_equilibrium.py",
        "random": BOTS / "random_bot.py"}


def make_submissions(folder: Path, good=("call", "eq")) -> Path:
    """A submissions folder: ``good`` bots (eq's VERSION is markup), ``broken`` (fails its
    smoke test), ``nothing`` (no entry point), ``notexec`` (a bot that is not executable),
    and a folder whose name is markup (rejected for its name)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in good:
        (folder / name).mkdir()
        shutil.copy(GOOD[name], folder / name / "bot.py")
    if "eq" in good:
        (folder / "eq" / "VERSION").write_text(EVIL_LABEL + "\n")
    (folder / "broken").mkdir()
    (folder / "broken" / "bot.py").write_text(BROKEN)
    (folder / "nothing").mkdir()
    (folder / "nothing" / "README").write_text("My bot is coming soon.\n")
    (folder / "notexec").mkdir()
    (folder / "notexec" / "bot").write_text("#!/bin/sh\necho READY\n")
    (folder / EVIL_NAME).mkdir()
    shutil.copy(BOTS / "call_bot.py", folder / EVIL_NAME / "bot.py")
    return folder


class Response:
    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    def json(self):
        return json.loads(self.body)


class Served:
    """``pokerbots serve SUBMISSIONS --data DATA --port 0 EXTRA...`` as a process (in the
    folder ``cwd``, the repository's by default); its output goes to ``DATA.out``. A context
    manager: the service is stopped on exit."""

    def __init__(self, submissions: Path, data: Path, *extra: str, cwd: Path = ROOT) -> None:
        self.argv = [sys.executable, "-m", "pokerbots.server.cli.main", "serve", str(submissions),
                     "--data", str(data), "--port", "0", *extra]
        self.cwd = cwd
        self.output = data.with_name(data.name + ".out")
        self.process: subprocess.Popen | None = None
        self.port: int | None = None

    def __enter__(self) -> Served:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.process is not None and self.process.poll() is None:
            self.stop()

    def start(self, timeout: float = 30.0) -> None:
        self.output.parent.mkdir(parents=True, exist_ok=True)
        with open(self.output, "ab") as out:
            self.process = subprocess.Popen(self.argv, stdout=out, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, cwd=self.cwd)
        start = self.output.stat().st_size if self.output.exists() else 0

        def port() -> int | None:
            text = self.output.read_text(errors="replace")
            found = re.findall(r"The site: http://127\.0\.0\.1:(\d+)/", text[start:])
            if found:
                return int(found[-1])
            if self.process.poll() is not None:
                raise AssertionError(f"pokerbots serve exited ({self.process.returncode}):\n"
                                     f"{text}")
            return None

        self.port = wait_for("pokerbots serve to print its address", port, timeout,
                             detail=self.log)

    def log(self) -> str:
        return self.output.read_text(errors="replace")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def get(self, path: str, token: str | None = None) -> Response:
        """GET ``path`` exactly as written (no normalisation of ``..``), with a team's
        ``token`` if one is given."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            connection.request("GET", path, headers=headers)
            answer = connection.getresponse()
            return Response(answer.status, {k.lower(): v for k, v in answer.getheaders()},
                            answer.read())
        finally:
            connection.close()

    def token(self, team: str, organiser: bool = False) -> str:
        """A new token of ``team`` (``pokerbots team add``), or of the organiser."""
        data = Path(self.argv[self.argv.index("--data") + 1])
        return team_token(data, team, organiser)

    def api(self, path: str):
        response = self.get(path)
        assert response.status == 200, (path, response.status, response.text)
        return response.json()

    def wait(self, what: str, check, timeout: float = 120.0):
        """Poll ``check()`` until it returns something true; that value. Fails at once when
        the service exits."""
        def alive_and_checked():
            found = check()
            if not found and self.process.poll() is not None:
                raise AssertionError(f"the service exited while waiting for {what}:\n"
                                     f"{self.log()}")
            return found

        return wait_for(what, alive_and_checked, timeout, every=0.2, detail=self.log)

    def bots(self) -> dict[str, dict]:
        return {b["name"]: b for b in self.api("/api/bots")}

    def settled(self, names) -> dict[str, dict]:
        """Wait until every bot in ``names`` is known and none is testing."""
        def check():
            bots = self.bots()
            if set(names) <= set(bots) and all(b["status"] != "testing" for b in bots.values()):
                return bots
            return None
        return self.wait("end of the smoke tests", check)

    def tournament_done(self, number: int = 1) -> list[dict]:
        def check():
            rows = self.api("/api/tournaments")
            return rows if any(t["id"] == number and t["status"] == "done"
                               for t in rows) else None
        return self.wait(f"tournament {number} done", check)

    def stop(self, signum: int = signal.SIGTERM, timeout: float = 120.0) -> int:
        self.process.send_signal(signum)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"the service did not stop within {timeout} s:\n"
                                 f"{self.log()}") from None


def team_token(data: Path, team: str, organiser: bool = False) -> str:
    """``pokerbots team add TEAM --data DATA [--organiser]``: the token it prints."""
    made = subprocess.run([sys.executable, "-m", "pokerbots.server.cli.main", "team", "add", team,
                           "--data", str(data), *(["--organiser"] if organiser else [])],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert made.returncode == 0, made.stderr
    found = re.findall(r"[A-Za-z0-9_-]{20,}", made.stdout)
    assert found, made.stdout
    return found[-1]


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            return f"{path} is missing: apt-get install chromium chromium-driver"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: pip install -e '.[test]'"
    return None


def chromium(profile: Path, width: int = 1200, height: int = 1400):
    """Headless Debian Chromium driven by its chromedriver, with a fresh profile and nothing
    that reaches for the network on its own."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    flags = ["--headless=new", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
             f"--window-size={width},{height}"]
    if os.geteuid() == 0:
        flags.append("--no-sandbox")  # Chromium's own sandbox cannot run as root
    for flag in flags:
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))


def screenshot(path: Path, work: Path) -> None:
    """The README's picture: a demo competition's home page after three tournaments."""
    submissions = make_submissions(work / "submissions", good=("call", "eq", "random"))
    shutil.rmtree(submissions / EVIL_NAME)
    (submissions / "eq" / "VERSION").write_text("1.0\n")
    with Served(submissions, work / "data", "--hands", "1000", "--every", "15s") as served:
        served.settled(["call", "eq", "random", "broken"])
        served.tournament_done(3)
        driver = chromium(work / "profile", height=1500)
        try:
            driver.get(served.url + "/")
            height = driver.execute_script("return document.documentElement.scrollHeight")
            driver.set_window_size(1200, min(height + 200, 3000))  # the window's frame too
            driver.save_screenshot(str(path))
        finally:
            driver.quit()
    print(f"Saved {path}")


if __name__ == "__main__":
    import argparse
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--screenshot", type=Path, required=True, metavar="PNG")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pokerbots-demo-") as work:
        screenshot(args.screenshot.resolve(), Path(work))

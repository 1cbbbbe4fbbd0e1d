"""What a bot sees under --sandbox: nothing but the system, Python, its own folder and its
scratch folder (server/confine/sandbox.py).

The snoop (tests/programs/hostile/snoop.py) plays check/call and, at its start, searches
everything it
can see for planted canaries, results stores, hand records and transcripts. The canaries are
planted where no bot may look: another bot's folder, a data folder beside the tournament's,
the tournament's --out folder, the user's home and the host's /tmp. Without --sandbox the
same snoop finds them (so these tests can fail).
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pokerbots.server.confine import sandbox

from processes import pokerbots

ROOT = Path(__file__).resolve().parents[3]
SNOOP = ROOT / "tests" / "programs" / "hostile" / "snoop.py"
CALL = ROOT / "bots" / "call_bot.py"

pytestmark = pytest.mark.skipif(
    sandbox.bwrap_path() is None or sandbox.isolation_problem() is not None,
    reason=f"bubblewrap cannot make namespaces here: {sandbox.isolation_problem()}")

HIT = re.compile(r"^(CANARY|FILE|SEED) ", re.M)


@pytest.fixture
def planted(tmp_path):
    """A snoop and another bot in folders of their own, and one canary in the other bot's
    folder, in a data folder, in /root (the home) and in the host's /tmp."""
    token = f"POKERBOTS-CANARY-{secrets.token_hex(16)}"
    snoop, other, data = (tmp_path / name for name in ("snoop", "other", "data"))
    for folder in (snoop, other, data):
        folder.mkdir()
    shutil.copy(SNOOP, snoop / "snoop.py")
    shutil.copy(CALL, other / "call_bot.py")
    places = [other / "notes.txt", data / "secret.txt", tmp_path / "canary.txt"]
    home = Path(os.path.expanduser("~"))
    places.append(home / f".pokerbots-canary-{token[-8:]}")
    places.append(Path("/tmp") / f"pokerbots-canary-{token[-8:]}.txt")
    for place in places:
        try:
            place.write_text(f"the seed is 12345 {token}\n")
        except OSError:
            pass
    yield tmp_path, snoop / "snoop.py", other / "call_bot.py", token
    for place in places:
        place.unlink(missing_ok=True)


def reports(folder: Path) -> str:
    """Every seat's stderr under ``folder``, one text."""
    return "\n".join(p.read_text() for p in sorted(folder.rglob("seat*.stderr")))


def assert_blind(text: str) -> None:
    assert "SCANNED" in text, text[:2000]
    hits = HIT.findall(text)
    assert not hits, "\n".join(line for line in text.splitlines() if HIT.match(line))[:3000]
    guesses = re.findall(r"^GUESS hand \d+: (.*)$", text, re.M)
    assert guesses and all(g.startswith("random ") for g in guesses)


@pytest.mark.slow  # a real duplicate tournament; CI runs it (-m slow)
def test_a_sandboxed_bot_in_a_tournament_sees_nothing_but_itself(planted):
    tmp, snoop, other, _ = planted
    out = tmp / "out"
    result = pokerbots("tournament", "--sandbox", "--duplicate", "--rounds", 1, "-j", 1,
                       "--out", out, snoop, other, cwd=tmp, timeout=240)
    assert result.returncode == 0, result.stderr
    text = reports(out)
    assert text.count("SCANNED") == 2  # both seatings played
    assert_blind(text)


def test_a_sandboxed_bot_in_a_match_sees_nothing_but_itself(planted):
    tmp, snoop, other, _ = planted
    result = pokerbots("run", "--sandbox", "--hands", 5, "--logs", tmp / "logs", snoop, other,
                       cwd=tmp, timeout=120)
    assert result.returncode == 0, result.stderr
    assert_blind(reports(tmp / "logs"))


@pytest.mark.slow  # proves the snoop can find what it looks for; CI runs it (-m slow)
def test_without_the_sandbox_the_snoop_finds_the_canary(planted):
    """The proof that the snoop works: over the normal view it finds what was planted."""
    tmp, snoop, other, _ = planted
    result = pokerbots("run", "--hands", 3, "--logs", tmp / "logs", snoop, other, cwd=tmp,
                       timeout=120)
    assert result.returncode == 0, result.stderr
    text = reports(tmp / "logs")
    assert f"CANARY {tmp / 'canary.txt'}" in text
    assert f"CANARY {tmp / 'other' / 'notes.txt'}" in text


def test_python_c_and_shell_bots_play_sandboxed(tmp_path, c_call_bot):
    shell = ROOT / "bots" / "sh" / "call_bot.sh"
    result = pokerbots("run", "--sandbox", "--hands", 5, "--logs", tmp_path / "logs",
                       CALL, c_call_bot, shell, timeout=120)
    assert result.returncode == 0, result.stderr


def test_a_command_line_with_a_relative_script_plays_sandboxed(tmp_path):
    """``python3 call_bot.py`` from the bot's folder: the script's path is made absolute
    before the working folder becomes the bot's own."""
    shutil.copy(CALL, tmp_path / "call_bot.py")
    result = pokerbots("run", "--sandbox", "--hands", 3, "--logs", tmp_path / "logs",
                       f"{sys.executable} call_bot.py", CALL, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr


def test_a_command_on_path_runs_in_the_scratch_folder():
    copies = sandbox.Copies()
    launch = sandbox.wrap([shutil.which("sh"), "-c", "pwd; ls /root /work 2>&1; ls /tmp"],
                          copies, [])
    try:
        done = subprocess.run(launch.argv, capture_output=True, text=True, timeout=30,
                              env=launch.env, pass_fds=launch.fds)
    finally:
        launch.close()
        copies.remove()
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == sandbox.SCRATCH == "/tmp"
    assert "pokerbots-canary" not in done.stdout
    assert copies.made == {}  # no program folder: nothing copied


def test_program_folder():
    argv, folder = sandbox.program_folder([sys.executable, "bot.py", "--x"], cwd=str(CALL.parent))
    assert folder is None  # no such file there: nothing of the server's cwd is shown
    argv, folder = sandbox.program_folder([sys.executable, "call_bot.py"], cwd=str(CALL.parent))
    assert argv == [sys.executable, str(CALL)] and folder == str(CALL.parent)
    argv, folder = sandbox.program_folder([shutil.which("sleep"), "30"])
    assert folder is None


@pytest.mark.slow
def test_a_bot_of_the_service_sees_nothing_but_itself(tmp_path):
    """``pokerbots serve`` (sandboxed by default): the snoop, in its smoke tests and its first
    tournament, finds neither the service's data folder (the stores, the bot copies, the
    logs), nor the submissions, nor a canary planted there."""
    from service_site import Served

    token = f"POKERBOTS-CANARY-{secrets.token_hex(16)}"
    submissions = tmp_path / "submissions"
    for name, program in (("snoop", SNOOP), ("call", CALL)):
        (submissions / name).mkdir(parents=True)
        shutil.copy(program, submissions / name / "bot.py")
    (submissions / "call" / "notes.txt").write_text(token)
    with Served(submissions, tmp_path / "data", "--hands", "20", "--every", "1h") as service:
        (tmp_path / "data" / "canary.txt").write_text(token)
        bots = service.settled(["snoop", "call"])
        assert bots["snoop"]["status"] == "admitted", bots["snoop"]
        service.tournament_done(1)
        assert service.stop() == 0, service.log()
    text = "\n".join(p.read_text() for p in sorted((tmp_path / "data").rglob("*.stderr"))
                     if "SCANNED" in p.read_text())
    assert text.count("SCANNED") >= 2  # a smoke test and a match at least
    assert_blind(text)

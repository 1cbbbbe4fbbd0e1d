"""The first hour of a new user: the README's smallest bot, the drawn seed and the Reproduce
line, `--json`, `pokerbots --help`, and a hand history that reads like one."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot_sources import HOLDEM_ONLY  # a Hold'em bot that fails the same way at the start of Kuhn
from processes import only_match_dir, pokerbots

ROOT = Path(__file__).resolve().parents[2]
KUHN_BOT = ROOT / "tests" / "programs" / "bad_bots" / "kuhn_bot.py"


def readme_bot(tmp_path: Path) -> Path:
    """The smallest complete bot of bots/README.md, as a reader would copy it."""
    text = (ROOT / "bots" / "README.md").read_text()
    section = text.split("## The smallest complete Kuhn bot", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "smallest_bot.py"
    path.write_text(code)
    path.chmod(0o755)
    return path


@pytest.mark.slow
def test_the_smallest_readme_bot_plays_and_exits_on_its_goodbye(tmp_path):
    bot = readme_bot(tmp_path)
    logs = tmp_path / "logs"
    result = pokerbots("run", bot, bot, bot, "--hands", 4, "--seed", 2, "--logs", logs)
    assert result.returncode == 0, result.stderr
    # Replayed through a pipe that stays open, it must exit after its goodbye by itself.
    transcript = (only_match_dir(logs) / "seat0.in").read_bytes()
    proc = subprocess.Popen([sys.executable, bot], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    proc.stdin.write(transcript)
    proc.stdin.flush()
    try:
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()
        proc.stdin.close()
    assert proc.stdout.read().decode().endswith("Thank you dealer, have a nice day!\n")
    proc.stdout.close()


@pytest.mark.slow
def test_the_drawn_seed_is_recorded_and_reproduces_the_match(tmp_path):
    bot = tmp_path / "bots" / "kuhn_bot.py"
    bot.parent.mkdir()
    shutil.copy(KUHN_BOT, bot)
    bad = f"{bot} --fault garbage --at-hand 3"
    result = pokerbots("run", bot, bad, "--logs", tmp_path / "a", "--json")
    assert result.returncode == 1
    summary = json.loads((only_match_dir(tmp_path / "a") / "summary.json").read_text())
    seed = summary["seed"]
    assert isinstance(seed, int) and summary["seed_given"] is False
    assert json.loads(result.stdout)["error"]["received"] == "CHECK PLEASE"  # text, no repr
    (line,) = [t for t in result.stderr.splitlines() if t.startswith("Reproduce: ")]
    words = shlex.split(line[len("Reproduce: "):])
    assert words[0] == "pokerbots" and words[-2:] == ["--seed", str(seed)]
    words[words.index("--logs") + 1] = str(tmp_path / "b")
    again = pokerbots(*words[1:])
    assert again.returncode == 1
    for name in ("hands.jsonl", "seat0.in", "seat1.in"):
        assert ((only_match_dir(tmp_path / "a") / name).read_bytes()
                == (only_match_dir(tmp_path / "b") / name).read_bytes()), name


@pytest.mark.slow
def test_help_lists_every_command_without_cutting_its_line():
    result = pokerbots("--help")
    assert result.returncode == 0
    commands = result.stdout.split("Commands:\n", 1)[1]
    assert "..." not in commands
    assert re.search(r"\n  run +Play one round between BOTS", "\n" + commands)
    assert re.search(r"\n  logs +", "\n" + commands)


@pytest.mark.slow
def test_a_pinned_cpu_that_exists_is_accepted(tmp_path):
    cpu = min(os.sched_getaffinity(0))
    result = pokerbots("run", KUHN_BOT, KUHN_BOT, "--hands", 1, "--cpu", cpu,
                       "--logs", tmp_path)
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
def test_without_bubblewrap_run_says_once_that_bots_share_a_namespace(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path / "no-bwrap-here"))
    result = pokerbots("run", KUHN_BOT, KUHN_BOT, "--hands", 2, "--logs", tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("bots run without a PID namespace of their own, because"
                               " bubblewrap (bwrap) is not installed") == 1


@pytest.mark.slow
def test_without_bubblewrap_a_tournament_says_once_that_bots_share_a_namespace(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path / "no-bwrap-here"))
    result = pokerbots("tournament", f"a={KUHN_BOT}", f"b={KUHN_BOT}", f"c={KUHN_BOT}",
                       "--players", 2, "--hands", 2, "--seed", 1, "--jobs", 1,
                       "--out", tmp_path / "t", env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("bots run without a PID namespace of their own, because"
                               " bubblewrap (bwrap) is not installed") == 1


# -- the rough edges of the first hour -----------------------------------------------------------


def invoke(*args, cwd=None):
    """``pokerbots ARGS`` in this process (in ``cwd``; the bots are processes): the result,
    with ``exit_code``, ``stdout``, ``stderr`` and ``output``."""
    from click.testing import CliRunner

    from pokerbots.server.cli.main import main

    old = os.getcwd()
    os.chdir(cwd or old)
    try:
        return CliRunner().invoke(main, [str(a) for a in args])
    finally:
        os.chdir(old)


def usage_error(*args, cwd=None) -> str:
    """``pokerbots ARGS``, which must be a usage error (exit 2): its message, on one line."""
    result = invoke(*args, cwd=cwd)
    assert result.exit_code == 2, result.output
    return " ".join(result.output.split())


def test_a_path_with_a_space_under_a_folder_is_told_to_be_quoted(tmp_path):
    """``"bots v2/b.py"`` where ``bots`` is a folder too: the space is the problem, not the
    folder."""
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots v2").mkdir()
    shutil.copy(KUHN_BOT, tmp_path / "bots v2" / "b.py")
    says = usage_error("run", "bots v2/b.py", KUHN_BOT, "--logs", tmp_path / "logs",
                       cwd=tmp_path)
    assert "the path has a space in it" in says and "quote the path" in says, says
    assert "is a directory" not in says
    assert not (tmp_path / "logs").exists()


def test_a_tournament_of_one_bot_and_the_standings_of_nothing_say_so(tmp_path):
    says = usage_error("tournament", KUHN_BOT, "--out", tmp_path / "t")
    assert "a tournament needs at least 2 bots, and 1 is given" in says, says
    says = usage_error("standings", tmp_path / "nope")
    assert f"{tmp_path / 'nope'} does not exist" in says, says




def test_smoke_gives_up_a_game_the_bot_cannot_start_and_names_the_one_to_try(tmp_path):
    """Without --game, a Hold'em bot fails every Kuhn match at its start: after the first few
    identical failures smoke plays no more of them (22 are planned) and names the game."""
    bot = tmp_path / "holdem_only.py"
    bot.write_text(HOLDEM_ONLY)
    result = invoke("smoke", bot, "--logs", tmp_path / "logs")
    assert result.exit_code == 1, result.output
    out = result.stdout
    assert "22 matches of 30 hands" in out and out.count("FAIL  kuhn") == 3
    assert ("the first 3 kuhn matches failed the same way before their first hand was over:"
            " the others are not played") in out
    assert "3 matches in " in out and "19 not played (the same failure at the start of kuhn)" in out
    assert "Try --game holdem-nl or --game holdem-limit." in out


def run_in_process(*args):
    """``pokerbots run ARGS`` in this process: exit code, stderr."""
    result = invoke("run", *args)
    return result.exit_code, result.stderr


# Plays by the client library, but from hand 2 on answers the Money totals wrongly.
WRONG_MONEY = '''
import sys
from pokerbots.protocol.client import Client

client = Client(lambda state: state.check_or_call(), check=False)
for line in sys.stdin.buffer:
    reply = client.feed(line)
    if reply is not None:
        if reply.startswith(b"Money:") and client.hands_played >= 2:
            reply = b"Money: 1,-1"
        sys.stdout.buffer.write(reply + b"\\n")
        sys.stdout.buffer.flush()
        if client.done:
            break
'''


def test_wrong_money_shows_the_whole_end_hand_message_it_answered(tmp_path):
    bot = tmp_path / "money.py"
    bot.write_text(WRONG_MONEY)
    code, err = run_in_process(bot, ROOT / "bots" / "call_bot.py", "--game", "holdem-nl",
                               "--hands", 5, "--seed", 3, "--logs", tmp_path / "logs")
    assert code == 1, err
    assert "failed in hand 1: the Money totals are wrong." in err
    sent = err.split("The server sent:\n", 1)[1].split("The bot replied: ", 1)[0].splitlines()
    assert sent[0] == "    end_hand" and sent[-2:] == ["    EndAction: OK"] * 2
    assert any(t.startswith("    Stacks: ") for t in sent), sent
    assert any(t.startswith("    Pots: ") for t in sent), sent
    assert "The bot replied: 'Money: 1,-1'" in err


def test_bytes_that_are_not_utf8_are_called_that_and_quoted_readably(tmp_path):
    bot = tmp_path / "bytes.py"
    bot.write_text('import sys\nsys.stdout.buffer.write(b"\\xff\\xfe\\n")\nsys.stdout.flush()\n'
                   "sys.stdin.read()\n")
    code, err = run_in_process(bot, KUHN_BOT, "--hands", 2, "--logs", tmp_path / "logs")
    assert code == 1, err
    assert ('The bot replied: "\\xff\\xfe", bytes that are not UTF-8 text (shown here as'
            " backslash escapes; the protocol's lines are UTF-8)") in err, err
    assert "\\\\x" not in err  # each byte escaped once, not the escape escaped again


def test_the_readmes_first_match_deals_what_it_shows_into_a_folder_named_as_shown(tmp_path):
    """README.md's first match, typed in a fresh clone: with its seed the deal is the README's
    (the button, every card of hand 0), and the Logs line names a folder as the README's does
    (time, game, players), which holds the files the README names."""
    readme = (ROOT / "README.md").read_text()
    first = readme.split("**1. Play.**", 1)[1]
    command = re.search(r"^\$ (pokerbots run .*)$", first, re.M).group(1)
    shown = re.search(r"^Logs: (logs/\S+)$", first, re.M).group(1)
    history = readme.split("`hands.txt` is the hand", 1)[1].split("```\n", 2)[1].splitlines()
    shutil.copytree(ROOT / "bots", tmp_path / "bots",
                    ignore=shutil.ignore_patterns("c", "sh", "*.md"))
    words = shlex.split(command)[1:]
    assert words[-2:] == ["--hands", "500"]
    words[-1] = "5"  # hand 0 is dealt the same in a shorter match: only a shorter test
    result = invoke(*words, cwd=tmp_path)
    assert result.exit_code == 0, result.output
    (logs,) = re.findall(r"^Logs: (\S+)$", result.stdout, re.M)
    assert re.fullmatch(re.sub(r"\d", r"\\d", shown), logs), (logs, shown)
    match = tmp_path / logs
    assert {"hands.txt", "hands.jsonl", "summary.json", "timing.json", "seat0.in"} <= {
        p.name for p in match.iterdir()}
    assert (match / "hands.txt").read_text().splitlines()[:4] == history[:4]


def test_the_readmes_two_install_commands_keep_two_virtualenvs():
    """Running the README's match command and then its test command (or the other way round)
    leaves both installs: the compiled one and the editable one do not share a venv."""
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"```\n(python3 -m venv (\S+) && [^\n]*)\n```", readme)
    assert [c.split("pip install ", 1)[1].split(" ")[0] for c, _ in commands[:2]] == [
        ".", "-e"]
    assert commands[0][1] != commands[1][1], commands


def test_two_time_outs_that_took_different_times_are_the_same_failure():
    from pokerbots.server.play.smoke import Case, Result

    def timed_out(seconds: str) -> Result:
        return Result(Case("kuhn", 2, 0, 1), passed=False, hand=None,
                      reason=f"no reply within the 10 s time limit: it broke the start-up limit"
                             f" (--startup-timeout), taking more than {seconds} s")

    assert timed_out("10.00").failure == timed_out("10.01").failure
    busy = timed_out("10.00")
    busy.reason += (" (note: it was kept waiting 0.08 s for the CPU in the last 0.50 s by other"
                    " programs on this machine)")
    assert busy.failure == timed_out("10.00").failure  # the machine's note is no new kind
    assert timed_out("10.00").failure != Result(Case("kuhn", 2, 0, 1), False,
                                                reason="it exited with code 1").failure


# Written for Hold'em: in any other game it waits for a line that never comes.
HOLDEM_WAITER = '''
import os, time
from pokerbots.protocol.client import run

if not os.environ.get("POKERBOTS_GAME", "").startswith("holdem"):
    time.sleep(3600)
run(lambda state: state.check_or_call())
'''


@pytest.mark.slow
def test_smoke_gives_up_a_game_that_times_out_at_the_start(tmp_path):
    """The time-outs of a bot that never answers a Kuhn init_round each take a different time:
    still the same failure, so smoke stops after the first 3 of 22."""
    bot = tmp_path / "waiter.py"
    bot.write_text(HOLDEM_WAITER)
    result = invoke("smoke", bot, "--startup-timeout", "0.5", "--logs", tmp_path / "logs")
    assert result.exit_code == 1, result.output
    out = result.stdout
    assert out.count("FAIL  kuhn") == 3 and "19 not played" in out
    assert "Try --game holdem-nl or --game holdem-limit." in out



def test_stacks_a_reply_could_not_carry_are_refused_before_a_hand(tmp_path):
    """The largest amount a reply may carry has 15 digits: a table whose stacks add up to more
    would offer raises the server's own reader refuses, so the command line refuses it (exit 2)."""
    bots = [ROOT / "bots" / "random_bot.py", ROOT / "bots" / "call_bot.py"]
    command = ["run", *bots, "--game", "holdem-nl", "--hands", 1, "--logs", tmp_path]
    refused = pokerbots(*command, "--stack", 500000000000000)
    assert refused.returncode == 2
    assert "at most 15 digits" in refused.stderr and not list(tmp_path.iterdir())
    played = pokerbots(*command, "--stack", 499999999999999)
    assert played.returncode == 0, played.stderr


#: Prints, for every command's help, each example line of its docstring (indented) that the
#: rendered help does not show on a line of its own; then how many examples there were. Run in
#: a fresh interpreter: each command is built once, as when a person asks for its help.
HELP_EXAMPLES = """
import inspect
import click
from pokerbots.server.cli.main import main

context = click.Context(main, info_name="pokerbots", terminal_width=80)
examples = 0
for name in [None, *main.list_commands(context)]:
    command = main if name is None else main.get_command(context, name)
    own = context if name is None else click.Context(command, info_name=name, parent=context)
    lines = [line.strip() for line in command.get_help(own).splitlines()]
    for line in inspect.cleandoc(command.help or "").splitlines():
        if line.startswith("    "):
            examples += 1
            if line.strip() not in lines:
                print(name, repr(line.strip()))
print(examples)
"""


def test_every_example_command_in_a_help_text_keeps_a_line_of_its_own():
    """An example command indented in a command's help (``pokerbots deal --help``) is shown
    on its own line, as written: click rewraps paragraphs, which ran two commands into one."""
    done = subprocess.run([sys.executable, "-c", HELP_EXAMPLES], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    *wrong, count = done.stdout.splitlines()
    assert wrong == []
    assert int(count) >= 3  # the deal command's two and run's first command at least


def test_the_documented_commands_leave_a_clone_clean(tmp_path):
    """What the README and the docs have a person type in a clone (a kit made with
    ``pokerbots new mybot``, a competition's ``submissions`` folder and the data folder ``pokerbots
    serve`` and ``pokerbots team add`` make by default, a match's logs) shows nowhere in ``git
    status``: nobody commits them by mistake."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git clone: the test clones the repository to type in it")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=120)
    shutil.copy(ROOT / ".gitignore", clone / ".gitignore")  # as it is here, committed or not
    subprocess.run(["git", "update-index", "--assume-unchanged", ".gitignore"], cwd=clone,
                   check=True)
    made = [pokerbots("new", "mybot", "--lang", "python", cwd=clone),
            pokerbots("team", "add", "alice", "--data", "pokerbots-data", cwd=clone),
            pokerbots("run", "bots/call_bot.py", "bots/call_bot.py", "--hands", "2", cwd=clone)]
    assert [m.returncode for m in made] == [0, 0, 0], [m.stderr for m in made]
    (clone / "submissions" / "mybot").mkdir(parents=True)
    shutil.copy(clone / "bots" / "call_bot.py", clone / "submissions" / "mybot" / "bot.py")
    assert (clone / "pokerbots-data").is_dir() and (clone / "mybot").is_dir()
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                            cwd=clone, capture_output=True, text=True, check=True).stdout
    assert status == "", status


def test_the_readme_and_the_docs_give_the_same_install_command():
    """The first command of the README and of the docs' overview is one command, and the docs
    say which environment builds the site."""
    command = re.compile(r"```\n(python3 -m venv [^\n]*)\n```")
    readme = (ROOT / "README.md").read_text()
    overview = (ROOT / "docs" / "index.md").read_text()
    assert command.findall(overview)[0] == command.findall(readme)[0]
    for text in (readme, overview):
        assert ". .venv/bin/activate && pip install -e '.[docs]' && mkdocs serve" in text

"""A bot's own text, as the terminal shows it: the stderr excerpt of a fault keeps the lines
that say what went wrong (a panic, an exception) whatever follows them, and every control
character a bot wrote is shown escaped (``\\x1b``), in the fault paragraph, in ``pokerbots
show`` and in the smoke test's report."""

from __future__ import annotations

import pytest

from processes import only_match_dir, pokerbots

#: Answers READY to init_round, then writes ``sys.argv[1]``'s crash report to stderr and
#: exits with code 101 (as a Rust panic does).
CRASHES = """
import sys
CRASHES = {
    "rust": "thread 'main' panicked at src/main.rs:44:29:\\n"
            "index out of bounds: the len is 3 but the index is 5\\n"
            "stack backtrace:\\n"
            + "".join(f"  {i:2}: core::panicking::frame_{i}\\n"
                      f"             at /rustc/abc/library/core/src/panicking.rs:{i}:5\\n"
                      for i in range(20))
            + "note: Some details are omitted, run with `RUST_BACKTRACE=full`.\\n",
    "java": "Exception in thread \\"main\\" java.lang.ArrayIndexOutOfBoundsException:"
            " Index 5 out of bounds for length 3\\n"
            + "".join(f"\\tat Bot.frame{i}(Bot.java:{i})\\n" for i in range(30)),
    "go": "panic: runtime error: index out of range [5] with length 3\\n\\n"
          "goroutine 1 [running]:\\n"
          + "".join(f"main.frame{i}(...)\\n\\t/home/bot/main.go:{i}\\n" for i in range(20))
          + "exit status 2\\n",
    "cpp": "terminate called after throwing an instance of 'std::out_of_range'\\n"
           "  what():  vector::_M_range_check: __n (which is 5) >= this->size() (which is 3)\\n"
           + "".join(f"log line {i} written by a thread while the bot went down\\n"
                     for i in range(20)),
    "python": "Traceback (most recent call last):\\n"
              '  File "bot.py", line 3, in <module>\\n'
              "    cards[5]\\n"
              "IndexError: list index out of range\\n"
              + "".join(f"Exception ignored in: <thread {i}>\\n" for i in range(12)),
}
sys.stdin.readline()
sys.stdout.write("READY\\n")
sys.stdout.flush()
while not sys.stdin.readline().startswith("init_hand"):
    pass
sys.stderr.write(CRASHES[sys.argv[1]])
sys.stderr.flush()
sys.exit(101)
"""

CAUSES = {
    "rust": ["thread 'main' panicked at src/main.rs:44:29:",
             "index out of bounds: the len is 3 but the index is 5"],
    "java": ['Exception in thread "main" java.lang.ArrayIndexOutOfBoundsException: Index 5 out'
             " of bounds for length 3"],
    "go": ["panic: runtime error: index out of range [5] with length 3"],
    "cpp": ["terminate called after throwing an instance of 'std::out_of_range'",
            "  what():  vector::_M_range_check: __n (which is 5) >= this->size() (which is 3)"],
    "python": ["IndexError: list index out of range"],
}


def excerpt(text: str) -> list[str]:
    """The stderr excerpt of a fault paragraph, its lines unindented."""
    block = text.split("Last lines of its stderr:\n", 1)[1]
    lines = []
    for line in block.splitlines():
        if not line.startswith("    "):
            break
        lines.append(line[4:])
    return lines


@pytest.mark.parametrize("language", [  # the others in the slow run
    language if language in ("rust", "python") else pytest.param(language, marks=pytest.mark.slow)
    for language in CAUSES])
def test_the_line_that_says_what_went_wrong_is_kept_whatever_follows_it(tmp_path, language):
    bot = tmp_path / "crashes.py"
    bot.write_text(CRASHES)
    logs = tmp_path / "logs"
    result = pokerbots("run", "bots/call_bot.py", f"{bot} {language}", "--hands", 2, "--seed", 1,
                       "--logs", logs, "--cpu", "none", cwd=_root())
    assert result.returncode == 1, result.stderr
    assert "it exited with code 101" in result.stderr
    lines = excerpt(result.stderr)
    assert lines[:len(CAUSES[language])] == CAUSES[language], lines
    assert any(line.startswith("... ") and "lines" in line for line in lines), lines
    stderr = (only_match_dir(logs) / "seat1.stderr").read_text().splitlines()
    assert lines[-1] == stderr[-1]  # and the last lines, as before
    assert len(lines) <= 10 + len(CAUSES[language]) + 1
    shown = pokerbots("show", logs)
    assert shown.returncode == 0, shown.stderr
    assert excerpt(shown.stdout) == lines


def test_a_short_stderr_is_shown_whole_and_once(tmp_path):
    bot = tmp_path / "crashes.py"
    bot.write_text(CRASHES.replace("for i in range(12)", "for i in range(2)"))
    result = pokerbots("run", "bots/call_bot.py", f"{bot} python", "--hands", 2, "--seed", 1,
                       "--logs", tmp_path / "logs", "--cpu", "none", cwd=_root())
    lines = excerpt(result.stderr)
    assert lines[0] == "Traceback (most recent call last):" and not any(
        line.startswith("... ") for line in lines), lines
    assert lines.count("IndexError: list index out of range") == 1


#: Writes terminal escape sequences (a new window title, red, clear screen, a bell, text
#: reversed by a bidi override, a carriage return) to stderr; replies with them to
#: init_round, as bytes that are not UTF-8 (``raw``) or as UTF-8 text (``text``).
ESCAPES = r"""
import sys
sys.stderr.buffer.write(b"\x1b]0;owned\x07\x1b[31mred\x1b[2J\rover \xe2\x80\xaeevil\ttab\n")
sys.stderr.flush()
sys.stdin.readline()
reply = b"\xff\x1b[2J" if sys.argv[1] == "raw" else b"\x1b[2Jhello\x07"
sys.stdout.buffer.write(reply + b"\n")
sys.stdout.flush()
sys.stdin.read()
"""


@pytest.mark.parametrize("reply", ["raw", "text"])
def test_a_bots_control_characters_are_shown_escaped_by_run_and_show(tmp_path, reply):
    bot = tmp_path / "escapes.py"
    bot.write_text(ESCAPES)
    logs = tmp_path / "logs"
    result = pokerbots("run", "bots/call_bot.py", f"{bot} {reply}", "--logs", logs,
                       cwd=_root())
    assert result.returncode == 1, result.stderr
    shown = pokerbots("show", logs)
    assert shown.returncode == 0, shown.stderr
    for text in (result.stderr, shown.stdout):
        assert not any(c in text for c in "\x1b\x07\r\u202e"), repr(text)
        assert "\\x1b]0;owned\\x07\\x1b[31mred\\x1b[2J\\x0dover \\u202eevil\ttab" in text
        assert "\\x1b[2J" in text.split("The bot replied: ", 1)[1].split("\n", 1)[0]


def test_the_smoke_report_shows_a_bots_control_characters_escaped(tmp_path):
    bot = tmp_path / "escapes.py"
    bot.write_text(ESCAPES.replace("sys.argv[1]", '"text"'))
    result = pokerbots("smoke", bot, "--players", 2, "--rounds", 1, "--hands", 2, "--logs",
                       tmp_path / "logs")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "\x1b" not in result.stdout and "\\x1b]0;owned" in result.stdout


def test_escaping_keeps_newlines_tabs_and_text():
    from pokerbots.server.errors import printable

    assert printable("a\tb\nc é ♠") == "a\tb\nc é ♠"
    assert printable("\x1b[2J\x00\x7f\x9b\r\u202e") == "\\x1b[2J\\x00\\x7f\\x9b\\x0d\\u202e"


def _root():
    from pathlib import Path

    return Path(__file__).resolve().parents[3]

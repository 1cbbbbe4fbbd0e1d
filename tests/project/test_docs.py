"""The documentation names only commands and options that exist, and the README stays one page.

Every ``pokerbots COMMAND [SUBCOMMAND]`` written in README.md or docs/ (in a fenced code block,
at the start of a line or after a shell prompt or separator; or at the start of an inline code
span) must be a command, and every ``--option`` after it on that line or in that span must
appear in the command's ``--help``. A table row whose first cell names ``--options`` counts
for the command named in the heading above it (``## Testing your bot: `pokerbots smoke```).
Options inside quotes belong to a bot's own command line and are left alone. The check is
made on click's own ``--help`` output, through CliRunner, so it needs no installed script.
"""

from __future__ import annotations

import functools
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from pokerbots.server.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 250

#: Tokens that end a command on a shell line.
SEPARATORS = {"|", "||", "&", "&&", ";", ">", ">>", "<", "2>", "2>&1"}
#: In a code block, what may come before ``pokerbots`` on its line: a prompt, a YAML step, the
#: Reproduce line of a fault paragraph, or anything up to a shell separator.
LINE_START = re.compile(
    r"^\s*(?:\$\s+|-\s*run:\s*|Reproduce:\s*|.*?(?:&&|;|\|\|?)\s*)?(?:\S*/)?pokerbots\s+(.*)$")
HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
COMMAND_IN_HEADING = re.compile(r"pokerbots\s+([a-z][a-z-]*)(?:\s+([a-z][a-z-]*))?")
OPTION = re.compile(r"^\[?(--[a-z][a-z0-9-]*)")
INLINE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def tokens(text: str) -> list[str]:
    """Shell words of ``text`` (quoted strings stay one word), up to a comment."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError:  # an unbalanced quote (prose in an output block): plain words
        return text.split()


def mention(words: list[str]) -> tuple[tuple[str, ...], list[str]] | None:
    """``words`` follow ``pokerbots``: (the command path, the options named after it)."""
    if not words:
        return None
    command: list[str] = []
    rest = words
    if re.fullmatch(r"[a-z][a-z-]*", rest[0]):
        command.append(rest[0])
        rest = rest[1:]
        if rest and re.fullmatch(r"[a-z][a-z-]*", rest[0]) and is_group(command[0]):
            command.append(rest[0])
            rest = rest[1:]
    elif not rest[0].startswith("-"):
        return None  # a placeholder (COMMAND) or prose
    options = []
    for word in rest:
        if word in SEPARATORS:
            break
        match = OPTION.match(word)
        if match:
            options.append(match.group(1))
    return tuple(command), options


@functools.cache
def is_group(name: str) -> bool:
    return name == "logs" or "Commands:" in help_text((name,))


@functools.cache
def help_text(command: tuple[str, ...]) -> str:
    """``pokerbots COMMAND --help``, or '' when there is no such command."""
    result = CliRunner().invoke(main, [*command, "--help"], prog_name="pokerbots")
    return result.output if result.exit_code == 0 else ""


def mentions(path: Path) -> list[tuple[str, int, tuple[str, ...], list[str]]]:
    """Every (file, line, command, options) the document names."""
    found = []
    name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name
    heading_command: tuple[str, ...] | None = None
    heading_level = 0
    in_code = False
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        line, number = lines[i], i + 1
        i += 1
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            while line.endswith("\\") and i < len(lines):  # a continued shell line
                line = line[:-1] + " " + lines[i]
                i += 1
            match = LINE_START.match(line)
            if match:
                got = mention(tokens(match.group(1)))
                if got:
                    found.append((name, number, *got))
            continue
        heading = HEADING.match(line)
        if heading:
            level = len(heading.group(1))
            if heading_command is not None and level <= heading_level:
                heading_command = None
            named = COMMAND_IN_HEADING.search(heading.group(2))
            if named:
                heading_command = tuple(w for w in named.groups() if w)
                if len(heading_command) == 2 and not is_group(heading_command[0]):
                    heading_command = heading_command[:1]
                heading_level = level
            continue
        if heading_command and line.lstrip().startswith("|"):
            first_cell = line.strip().strip("|").split("|")[0]
            options = [m.group(1) for span in INLINE.findall(first_cell)
                       for m in [OPTION.match(span.strip())] if m]
            if options:
                found.append((name, number, heading_command, options))
        for span in INLINE.findall(line):
            span = span.strip().removeprefix("$ ")
            if span.startswith("pokerbots "):
                got = mention(tokens(span[len("pokerbots "):]))
                if got:
                    found.append((name, number, *got))
    return found


def problems(paths: list[Path]) -> list[str]:
    wrong = []
    for path in paths:
        for name, number, command, options in mentions(path):
            text = help_text(command)
            shown = " ".join(("pokerbots", *command))
            if not text:
                wrong.append(f"{name}:{number}: `{shown}` is not a command")
                continue
            for option in options:
                if not re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text):
                    wrong.append(f"{name}:{number}: `{shown}` has no {option} (see its --help)")
    return wrong


def test_every_command_and_option_in_the_docs_exists():
    assert problems(doc_files()) == []


def test_the_checker_sees_enough():
    """The checker reads the commands the docs are about (a regex broken by an edit would
    otherwise pass everything)."""
    seen = {m[2] for path in doc_files() for m in mentions(path)}
    for command in ("run", "smoke", "deal", "show", "export", "tournament", "standings",
                    "serve"):
        assert (command,) in seen, command
    assert ("logs", "prune") in seen
    options = {o for path in doc_files() for m in mentions(path) for o in m[3]}
    assert {"--game", "--junit-xml", "--reply-timeout", "--duplicate", "--format",
            "--keep", "--data"} <= options


@pytest.mark.parametrize("planted, complaint", [
    ("```\n$ pokerbots smoke ./mybot --no-such-option\n```\n", "has no --no-such-option"),
    ("Run `pokerbots run bots/call_bot.py --hands 3 --frobnicate` now.\n", "has no --frobnicate"),
    ("## Tournaments: `pokerbots tournament`\n\n| option | what |\n| --- | --- |\n"
     "| `--hands N` | fine |\n| `--bogus-limit` | planted |\n", "has no --bogus-limit"),
    ("```\npokerbots logs prune --keep 3 --older-than 7d --shiny\n```\n", "has no --shiny"),
    ("`pokerbots frobnicate --all`\n", "is not a command"),
])
def test_a_planted_mistake_is_caught(tmp_path, planted, complaint):
    page = tmp_path / "planted.md"
    page.write_text("# A page\n\n" + planted, encoding="utf-8")
    found = problems([page])
    assert len(found) == 1 and complaint in found[0], found


def test_options_of_a_bot_command_line_are_not_the_servers(tmp_path):
    page = tmp_path / "planted.md"
    page.write_text("```\nReproduce: pokerbots run ./b.py 'python3 -m x --not-ours 1' --seed 1\n"
                    "Free some space (pokerbots logs prune removes old matches) or give --nope\n"
                    "```\n", encoding="utf-8")
    assert problems([page]) == []


def test_protocol_page_is_protocol_md():
    """The site's protocol page is the normative text itself (a symbolic link), never a copy
    that could fall behind."""
    page = ROOT / "docs" / "protocol.md"
    assert page.read_bytes() == (ROOT / "protocol" / "PROTOCOL.md").read_bytes()


def test_readme_is_one_page():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"

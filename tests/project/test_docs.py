"""The documentation names only commands and options that exist, and the README stays one page.

Every ``pokerbots COMMAND [SUBCOMMAND]`` written in README.md or docs/ (in a fenced code block,
at the start of a line or after a shell prompt or separator; or at the start of an inline code
span) must be a command, and every ``--option`` after it on that line or in that span must
appear in the command's ``--help``. A table row whose first cell names ``--options`` counts
for the command named in the heading above it (``## Testing your bot: `pokerbots smoke```).
Options inside quotes belong to a bot's own command line and are left alone. The check is
made on click's own ``--help`` output, through CliRunner, so it needs no installed script.

The docs also describe the project as it is, for a reader of a clone: no commit hashes, issue
numbers, dates of work sessions or paths outside the repository (:data:`LAB_NOTES`). And every
Sphinx-style reference in the docstrings and comments of server/ and protocol/
(``:mod:``, ``:class:``, ``:func:``, ``:meth:``, ``:data:``, ``:attr:``, ``:exc:``) names a module
or attribute that exists: the module is imported and the name looked up.
"""

from __future__ import annotations

import ast
import functools
import importlib
import io
import re
import shlex
import tokenize
from pathlib import Path

import pytest
from click.testing import CliRunner

from pokerbots.server.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 150

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


# -- the docs read as documentation of the project as it is ---------------------------------------

#: What a page read in a clone cannot follow: (what it is, the pattern, where it is looked for:
#: "all" lines, or "prose", outside fenced code blocks, where example output may show digests and
#: times).
LAB_NOTES = [
    ("a commit hash", re.compile(r"`[0-9a-f]{7,40}`|\bcommits? [0-9a-f]{7,40}\b"), "all"),
    ("a commit hash", re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b"),
     "prose"),
    ("an issue number", re.compile(r"\b(?:issues?|PRs?|pull requests?) #?[0-9]+\b", re.I),
     "all"),
    ("an issue number", re.compile(r"(?<![\w&/])#[0-9]+\b"), "all"),
    ("a path outside the clone",
     re.compile(r"\.\./shared\b|\bshared/(?:perf|reference|corpus|hooks)\b|/work/"), "all"),
    ("a date of work", re.compile(r"\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\b"), "prose"),
]


def user_pages() -> list[Path]:
    """Every page a user reads in a clone: the README, docs/, the bots' and the kits' READMEs
    and the protocol."""
    return [*doc_files(), ROOT / "bots" / "README.md", ROOT / "protocol" / "PROTOCOL.md",
            *sorted((ROOT / "protocol" / "kits").glob("*/README.md"))]


def lab_notes(paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name
        in_code = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                in_code = not in_code
                continue
            seen = {}
            for what, pattern, where in LAB_NOTES:
                match = None if where == "prose" and in_code else pattern.search(line)
                if match and what not in seen:
                    seen[what] = f"{name}:{number}: {what} ({match.group(0)!r})"
            found.extend(seen.values())
    return found


def test_the_docs_name_no_commit_issue_or_outside_path():
    assert lab_notes(user_pages()) == []


@pytest.mark.parametrize("planted", [
    "Measured at `2d6dc16`, the last commit.",
    "As since commit 4c0b0a0 the writer",
    "The floor (measured on 2d6dc16) is",
    "(10,000 until issue 22)",
    "Issue 25's goal is 1.5.",
    "fixed in #31",
    "Run `../shared/perf/vs_acpc.sh --reps 5`.",
    "see /work/shared/perf/README.md",
    "the PHH corpus in `shared/corpus/phh`",
    "On 2026-11-28 the same server",
])
def test_a_planted_lab_note_is_caught(tmp_path, planted):
    page = tmp_path / "planted.md"
    page.write_text(f"# A page\n\n{planted}\n", encoding="utf-8")
    assert len(lab_notes([page])) == 1, planted


def test_what_a_page_may_show_is_not_a_lab_note(tmp_path):
    page = tmp_path / "fine.md"
    page.write_text(
        "# A page\n\nSee [A round](protocol.md#a-round); `a/b/c/s -> ../..` leads to `a`.\n"
        "Logs: logs/20261122-211720-kuhn-2p, 1,000 hands, &#39; and a bot's digest:\n\n```\n"
        '{"version": "1f83680e59f8", "started": "2026-11-23T19:53:21"}\n```\n', encoding="utf-8")
    assert lab_notes([page]) == []


# -- every docstring reference resolves ------------------------------------------------------------

#: A Sphinx cross-reference: its role and target (``~`` shortens the shown name, ``!`` makes no
#: link, ``title <target>`` shows a title).
REFERENCE = re.compile(
    r":(mod|class|func|meth|data|attr|exc):`(?:[^`<]*<)?\s*([~!]?[\w.]+)\s*>?`")


def module_name(path: Path) -> str:
    """The import name of a file of server/ or protocol/ (server/api/ is ``pokerbots.api``,
    as pyproject.toml's package-dir maps it: an installed copy has no other name for it)."""
    folder = path.relative_to(ROOT).parts[0]
    parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    if folder == "server" and parts[:1] == ["api"]:
        return ".".join(["pokerbots", *parts])
    return ".".join(["pokerbots", folder, *parts])


def source_files() -> list[tuple[Path, str]]:
    return [(path, module_name(path)) for folder in ("server", "protocol")
            for path in sorted((ROOT / folder).rglob("*.py"))]


def references(path: Path) -> list[tuple[int, str, str, list[ast.ClassDef]]]:
    """(line, role, target as written, the classes it stands in, innermost first) of every
    reference in the strings and comments of a Python file."""
    text = path.read_text(encoding="utf-8")
    classes = [c for c in ast.walk(ast.parse(text)) if isinstance(c, ast.ClassDef)]
    found = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type not in (tokenize.STRING, tokenize.COMMENT):
            continue
        for match in REFERENCE.finditer(token.string):
            line = token.start[0] + token.string.count("\n", 0, match.start())
            around = sorted((c for c in classes if c.lineno <= line <= (c.end_lineno or 0)),
                            key=lambda c: -c.lineno)
            found.append((line, match.group(1), match.group(2), around))
    return found


@functools.cache
def declared_attributes(module: str, qualname: str) -> frozenset[str]:
    """What a class of this project declares without holding it as a class attribute: its
    annotated fields, its ``__slots__`` and what its methods assign to ``self``."""
    path = next((p for p, name in source_files() if name == module), None)
    if path is None:
        return frozenset()
    node = next((c for c in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(c, ast.ClassDef) and c.name == qualname.rpartition(".")[2]),
                None)
    return frozenset() if node is None else members(node)


def members(node: ast.ClassDef) -> frozenset[str]:
    """Every name a class's own source defines: methods, class attributes, annotated fields,
    ``__slots__`` and what its methods assign to ``self``."""
    names = {item.name for item in node.body
             if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    names.update(t.id for item in node.body if isinstance(item, ast.Assign)
                 for t in item.targets if isinstance(t, ast.Name))
    for item in node.body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            names.add(item.target.id)
        if (isinstance(item, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__"
                                                 for t in item.targets)):
            names.update(e.value for e in ast.walk(item.value)
                         if isinstance(e, ast.Constant) and isinstance(e.value, str))
    for sub in ast.walk(node):
        targets = (sub.targets if isinstance(sub, ast.Assign)
                   else [sub.target] if isinstance(sub, (ast.AnnAssign, ast.AugAssign)) else [])
        names.update(t.attr for t in targets if isinstance(t, ast.Attribute)
                     and isinstance(t.value, ast.Name) and t.value.id == "self")
    return frozenset(names)


@functools.cache
def is_module(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


@functools.cache
def exists(name: str) -> bool:
    """Whether a dotted name is a module, or an attribute reached from one."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        rest = parts[cut:]
        for i, attr in enumerate(rest):
            if hasattr(found, attr):
                found = getattr(found, attr)
                continue
            return (isinstance(found, type) and i == len(rest) - 1
                    and any(attr in declared_attributes(k.__module__, k.__qualname__)
                            for k in found.__mro__))
        return True
    return False


def candidates(module: str, target: str) -> list[str]:
    """The full names a reference may mean, as Sphinx reads it in ``module`` (the class it
    stands in aside): a name in the module, or a full name; with a leading ``.``, a name in the
    module or in one of the packages above it."""
    if target.startswith("."):
        packages = []
        prefix = module
        while prefix:
            packages.append(prefix)
            prefix = prefix.rpartition(".")[0]
        return [f"{p}{target}" for p in packages]
    return [f"{module}.{target}", target, f"builtins.{target}"]


def resolves(module: str, role: str, target: str, around: list[ast.ClassDef]) -> bool:
    """Whether a reference written in ``module``, inside the classes ``around`` (innermost
    first), names something: for ``:mod:``, a module of that very name (not a module another
    one imported)."""
    if target.startswith(".."):
        return False  # not a form Sphinx reads
    if role == "mod":
        return any(is_module(c) for c in candidates(module, target))
    name = target.removeprefix(".")
    for node in around:  # a member of the class it stands in (its own source, or inherited)
        if name in members(node) or exists(f"{module}.{node.name}.{name}"):
            return True
    return any(exists(c) for c in candidates(module, target))


def broken_references(files: list[tuple[Path, str]]) -> list[str]:
    broken = []
    for path, module in files:
        name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name
        for line, role, written, around in references(path):
            target = written.lstrip("~")
            if not target.startswith("!") and not resolves(module, role, target, around):
                broken.append(f"{name}:{line}: :{role}:`{written}` names nothing")
    return broken


def test_every_docstring_reference_resolves():
    assert broken_references(source_files()) == []


def test_the_reference_checker_reads_every_form():
    """Every kind of reference is seen (a broken pattern would pass everything)."""
    roles = {role for path, _ in source_files() for _, role, _, _ in references(path)}
    assert {"mod", "class", "func", "meth", "data", "attr"} <= roles


def test_a_planted_broken_reference_is_caught(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(
        '"""Plays :class:`~.referee.Referee` through :func:`.driver.play_local` (fine),\n'
        'as :mod:`.betting` said (moved), with :func:`pokerbots.server.games.get` (fine)."""\n'
        "\n\nclass Table:\n"
        '    """Its :meth:`post` (fine: this class), its :attr:`seats` (declared below),\n'
        '    :meth:`Referee.fault` (nothing) and :data:`~pokerbots.server.games.NOPE`."""\n'
        "\n    def post(self) -> None:\n        self.seats = 3  # see :mod:`..runner`\n",
        encoding="utf-8")
    found = broken_references([(planted, "pokerbots.server.referee.planted")])
    assert [f.split(": ", 1)[1] for f in found] == [
        ":mod:`.betting` names nothing", ":meth:`Referee.fault` names nothing",
        ":data:`~pokerbots.server.games.NOPE` names nothing", ":mod:`..runner` names nothing"]
    assert [int(f.split(":")[1]) for f in found] == [2, 7, 7, 10]

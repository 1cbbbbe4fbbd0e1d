"""pokerbots.api, the public surface: every example of docs/library.md runs as written and
prints what the page says, importing the package loads none of the server's dependencies until
a name is used, and the page documents every name the package offers."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "library.md"
POKERBOTS = str(Path(sys.executable).with_name("pokerbots"))
#: A fenced block: its language, the rest of its opening line, its text.
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
#: What ``import pokerbots.api`` must not load (the client library's promise, and the server's
#: heavy parts).
HEAVY = ("trio", "rich", "eval7", "starlette", "hypercorn", "jinja2", "click", "scipy")


def examples() -> list[tuple[str, str | None, str]]:
    """Every code block of the page: (language, title, text), in the page's order."""
    found = []
    for language, rest, text in FENCE.findall(PAGE.read_text(encoding="utf-8")):
        title = re.search(r'title="([^"]+)"', rest)
        found.append((language, title.group(1) if title else None, text))
    return found


def run_examples(folder: Path) -> list[str]:
    """Run the page's examples in ``folder`` in order, as a reader of the page would: a block
    with a title is a file saved under that name, a Python block a script, a shell block its
    commands. The output of each block run; an example that fails fails the test."""
    (folder / "bots").symlink_to(ROOT / "bots")
    outputs = []
    for language, title, text in examples():
        if title is not None:
            (folder / title).write_text(text, encoding="utf-8")
            continue
        if language == "python":
            commands = [[sys.executable, "-c", text]]
        elif language == "sh":
            commands = [shlex.split(line) for line in text.splitlines() if line.strip()]
            assert all(words[0] == "pokerbots" for words in commands), text
            commands = [[POKERBOTS, *words[1:]] for words in commands]
        else:
            raise AssertionError(f"a {language or 'plain'} block the test cannot run: {text}")
        for command in commands:
            done = subprocess.run(command, cwd=folder, capture_output=True, text=True,
                                  timeout=120)
            assert done.returncode == 0, (text, done.stdout, done.stderr)
            outputs.append(done.stdout)
    return outputs


def test_every_example_of_the_page_runs_and_prints_what_it_says(tmp_path):
    outputs = run_examples(tmp_path)
    assert len(outputs) == 6, outputs
    match, errors, folder, tournament, my_bot, client = outputs
    assert re.match(r"200 hands, bankrolls \[-?\d+, -?\d+\], logs in logs/", match)
    assert "cannot start: bot 'bots/no_such_bot.py'" in errors
    assert "cannot play: the stack (5) must be at least the big blind (10)" in errors
    assert folder.startswith("completed ['bots/call_bot.py', 'bots/random_bot.py']")
    assert len(folder.splitlines()) == 4  # the summary, then three hands
    assert "Standings: logs/library-tournament/standings.json" in tournament
    assert {line.split()[0] for line in tournament.splitlines()[-3:]} == {
        "caller", "random", "equilibrium"}
    assert "my_bot.py" in my_bot and "Logs: logs/" in my_bot
    assert re.fullmatch(r"\d+ replies; bankrolls \[-?\d+, -?\d+\]\n", client)
    # The bot saved from the page played seat 0 of the newest match, which the client read.
    newest = max((p for p in (tmp_path / "logs").iterdir() if (p / "summary.json").exists()),
                 key=lambda p: p.stat().st_mtime)
    assert (newest / "seat0.stderr").read_text().startswith("after 100 hands:")


def test_importing_the_api_loads_nothing_until_a_name_is_used():
    code = f"""
import sys
import pokerbots.api as api

def loaded():
    return sorted({{m.split('.')[0] for m in sys.modules if m.split('.')[0] in {HEAVY!r}}}
                  | {{m for m in sys.modules if m.startswith('pokerbots.server')}})

print(loaded())
api.Bot, api.Client, api.MatchFolder, api.TournamentConfig
print([m for m in loaded() if not m.startswith('pokerbots.')])
api.MatchConfig
print('trio' in loaded())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["[]", "[]", "True"]


def test_the_page_documents_every_name_the_api_offers():
    import pokerbots.api as api

    page = PAGE.read_text(encoding="utf-8")
    assert api.__all__ and dir(api) == api.__all__
    for name in api.__all__:
        assert getattr(api, name) is not None
        assert f"`{name}`" in page, f"docs/library.md does not name {name}"
    with pytest.raises(AttributeError, match="no attribute 'play'"):
        api.play  # noqa: B018

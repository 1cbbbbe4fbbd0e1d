"""The shape of the code: layers import downwards only, no module imports itself round a cycle,
click lives in the command line alone, and the client library loads nothing of the server.

Every import counts, at the top of a module or inside a function, except those under
``if TYPE_CHECKING:`` (they are never run). The checker reads the sources with :mod:`ast`, so it
sees imports that a test run would never execute; the tests below also plant a bad import in
a copy of the tree and check that the checker catches it.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The layers of server/, lowest first: a module may import from its own layer and the ones
#: before it. The modules at the top of server/ (``errors``, the package itself) come first;
#: ``api`` (server/api/, imported as ``pokerbots.api``), the public surface, is the top layer:
#: it may import any layer, and nothing imports it.
LAYERS = ("", "games", "hands", "scoring", "referee", "confine", "logs", "seats", "play",
          "tournament", "service", "cli", "api")
#: Third-party modules that only server/cli/ may import.
CLI_ONLY = ("click",)
#: What ``import pokerbots.protocol.client`` must not load.
SERVER_DEPENDENCIES = ("trio", "click", "rich", "eval7", "starlette", "hypercorn")


#: Each source folder and the package it is imported as (pyproject.toml's package-dir).
PACKAGES = (("server", "pokerbots.server"), ("server/api", "pokerbots.api"),
            ("protocol", "pokerbots.protocol"))


def module_names(root: Path) -> dict[str, Path]:
    """Every module of the packages under ``root``: import name -> file."""
    found = {}
    for folder, package in PACKAGES:
        for path in (root / folder).rglob("*.py"):
            if "templates" in path.parts:
                continue
            if folder == "server" and path.relative_to(root / folder).parts[0] == "api":
                continue  # pokerbots.api
            parts = list(path.relative_to(root / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def _type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def imports(name: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, int]]:
    """``(imported module, line)`` for every import the module at ``path`` can run."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST) -> None:
        if _type_checking(node):
            return
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                full = f"{source}.{alias.name}"
                found.append((full if full in modules else source, node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return found


def layer_of(name: str) -> int | None:
    """The index in LAYERS of a server module (``pokerbots.api`` too), None for anything
    else."""
    parts = name.split(".")
    if parts[:2] == ["pokerbots", "api"]:
        return LAYERS.index("api")
    if parts[:2] != ["pokerbots", "server"]:
        return None
    if len(parts) == 2 or parts[2] not in LAYERS:
        return 0  # the package itself and the modules at the top of server/
    return LAYERS.index(parts[2])


def violations(root: Path) -> list[str]:
    """Every breach of the shape under ``root``, one line each (empty: the shape holds)."""
    modules = module_names(root)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    found = []
    for name, path in modules.items():
        where = path.relative_to(root)
        mine = layer_of(name)
        for target, line in imports(name, path, modules):
            top = target.split(".")[0]
            if top in CLI_ONLY and not name.startswith("pokerbots.server.cli"):
                found.append(f"{where}:{line} imports {target}: only server/cli/ may")
            if not target.startswith("pokerbots."):
                continue
            if name.startswith("pokerbots.protocol") and target.startswith(
                    ("pokerbots.server", "pokerbots.api")):
                found.append(f"{where}:{line} imports {target}: protocol/ imports nothing of"
                             " server/")
            theirs = layer_of(target)
            if mine is not None and theirs is not None and theirs > mine:
                found.append(f"{where}:{line} imports {target}: layer {LAYERS[mine] or 'top'}"
                             f" may not import the higher layer {LAYERS[theirs]}")
            if target in modules and target != name:
                graph[name].add(target)
    found += [f"import cycle: {' -> '.join(cycle)}" for cycle in cycles(graph)]
    return list(dict.fromkeys(found))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def test_the_layers_import_downwards_only_and_without_cycles():
    assert violations(ROOT) == []


def copy_tree(tmp_path: Path) -> Path:
    for folder in ("server", "protocol"):  # server/api (pokerbots.api) with server/
        shutil.copytree(ROOT / folder, tmp_path / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return tmp_path


def plant(path: Path, code: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n\n" + code + "\n", encoding="utf-8")


def test_an_upward_import_inside_a_function_is_caught(tmp_path):
    root = copy_tree(tmp_path)
    plant(root / "server/games/base.py",
          "def _sneak():\n    from pokerbots.server.tournament import standings\n")
    found = violations(root)
    assert any("server/games/base.py" in v and "higher layer tournament" in v for v in found)


def test_a_cycle_within_a_layer_is_caught(tmp_path):
    root = copy_tree(tmp_path)
    plant(root / "server/referee/referee.py",
          "def _sneak():\n    import pokerbots.server.referee.driver\n")  # driver imports referee
    found = violations(root)
    assert any(v.startswith("import cycle:") and "pokerbots.server.referee.driver" in v
               and "pokerbots.server.referee.referee" in v for v in found)


def test_click_outside_the_command_line_and_server_in_protocol_are_caught(tmp_path):
    root = copy_tree(tmp_path)
    plant(root / "server/play/match.py", "def _echo():\n    import click\n")
    plant(root / "protocol/wire.py", "from pokerbots.server import games")
    found = violations(root)
    assert any("server/play/match.py" in v and "only server/cli/" in v for v in found)
    assert any("protocol/wire.py" in v and "imports nothing of server/" in v for v in found)


def test_nothing_imports_the_public_surface(tmp_path):
    """``pokerbots.api`` is the top layer: the command line, the highest layer below it, may
    not import it either (it calls the libraries the surface offers, directly)."""
    root = copy_tree(tmp_path)
    plant(root / "server/cli/run.py", "def _sneak():\n    from pokerbots.api import run_match\n")
    plant(root / "protocol/client.py", "def _sneak():\n    import pokerbots.api\n")
    found = violations(root)
    assert any("server/cli/run.py" in v and "higher layer api" in v for v in found), found
    assert any("protocol/client.py" in v and "imports nothing of server/" in v for v in found)


def test_every_package_but_the_public_surface_says_it_is_internal():
    """A reader of any package's docstring learns that it is internal (the client library's
    package says which of its modules is public); pokerbots.api says it is the surface."""
    said = {}
    for name, path in module_names(ROOT).items():
        if path.name == "__init__.py":
            said[name] = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    assert "pokerbots.api" in said and "pokerbots.server.service.site" in said
    assert "public surface" in said.pop("pokerbots.api")
    assert [name for name, doc in said.items() if "internal" not in doc.lower()] == []


def test_the_client_library_loads_nothing_of_the_server():
    code = ("import pokerbots.protocol.client, sys; print(sorted(m for m in sys.modules"
            f" if m.split('.')[0] in {SERVER_DEPENDENCIES!r} or m.startswith('pokerbots.server')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_the_tournaments_director_loads_no_trio():
    """The director reads options, builds jobs and keeps the store; its workers play. Trio
    in the director was a tenth of a second of CPU at the start of every tournament, paid
    before the first match, which held ``--jobs 2`` below its speed-up (docs/performance.md)."""
    code = ("import pokerbots.server.cli.tournament, pokerbots.server.tournament.run, sys;"
            " print(sorted(m for m in sys.modules if m.split('.')[0] == 'trio'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_server_keeps_at_most_four_modules_at_its_top():
    top = sorted(p.name for p in (ROOT / "server").glob("*.py"))
    assert len(top) <= 4, top


def test_every_game_of_the_registry_is_in_the_protocols_table_and_they_agree():
    """The client library reads each game's messages from pokerbots.protocol.games; the server
    plays them from its registry: the two must say the same, for every table size."""
    from pokerbots.protocol import games as wire_games
    from pokerbots.server import games

    assert games.names() == wire_games.names()
    assert games.DEFAULT == wire_games.DEFAULT
    for game in games.all_types():
        rules = wire_games.get(game.name)
        assert (rules.min_players, rules.max_players) == (game.min_players, game.max_players)
        for players in range(game.min_players, game.max_players + 1):
            structure = game.make(players).structure
            assert rules.ante == structure.ante, (game.name, players)
            assert rules.streets == tuple((s.name, s.board, s.bet)
                                          for s in structure.streets), (game.name, players)


def test_the_compiled_modules_are_named_one_by_one():
    """setup.py names each module it compiles (a module moved to another folder stays
    compiled, or its name fails here), and the build finds every one."""
    text = (ROOT / "setup.py").read_text(encoding="utf-8")
    names = re.findall(r'"([^"]+)"', re.search(r"^COMPILED = \[(.*?)\]", text, re.S | re.M)
                       .group(1))
    assert names and len(names) == len(set(names))
    assert [n for n in names if not (n.endswith(".py") and (ROOT / n).is_file())] == []


#: An HTML (or SVG) tag, as a page or the report would hold one.
HTML_TAG = re.compile(r"<(html|head|body|div|span|table|thead|tbody|tr|td|th|svg|rect|line|path"
                      r"|text|p|a|h[1-6]|ul|ol|li|form|input|button|style|script|link|meta"
                      r"|section|nav|main|footer|header|pre|code|details|summary)[\s>/]")


def test_no_python_file_holds_html():
    """Every page, the report and the chart are Jinja2 templates (with autoescape): markup in
    a Python string is where escaping is forgotten."""
    found = [f"{path.relative_to(ROOT)}:{number}"
             for folder in ("server", "protocol")
             for path in (ROOT / folder).rglob("*.py")
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if HTML_TAG.search(line)]
    assert found == []


def test_every_package_folder_is_installed():
    """``pip install .`` installs the packages pyproject.toml lists, and only those: a new
    folder left out of the list works in the editable install and is missing from the real
    one (its imports fail at the first use)."""
    import pytest
    tomllib = pytest.importorskip("tomllib", reason="tomllib (Python 3.11) reads pyproject.toml")
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    found = set()
    for folder, package in PACKAGES:
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            parts = init.parent.relative_to(base).parts
            if folder == "server" and parts[:1] == ("api",):
                continue  # installed as pokerbots.api (PACKAGES)
            found.add(".".join((package, *parts)))
    assert sorted(found - listed) == []

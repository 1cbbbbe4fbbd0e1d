"""The one bounded memo: a full table starts again empty, a table turned off keeps nothing and
changes no byte, every memo of the server is one, and each is in the performance page's table.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

from pokerbots.protocol.memo import Memo

ROOT = Path(__file__).resolve().parents[3]

#: The modules that make memo tables (importing them makes every table there is).
MAKERS = ("pokerbots.protocol.wire", "pokerbots.server.games.engine.betting",
          "pokerbots.server.referee.render", "pokerbots.server.hands.encoding",
          "pokerbots.server.scoring.equity", "pokerbots.server.confine.sandbox",
          "pokerbots.server.tournament.standings", "pokerbots.server.service.site.ladder")


def test_a_full_table_starts_again_empty():
    memo: Memo[int, str] = Memo("test.full", 3)
    for key in range(3):
        assert memo.keep(key, str(key)) == str(key)
    assert [memo.get(k) for k in range(3)] == ["0", "1", "2"] and len(memo) == 3
    memo.keep(3, "3")  # one more than fits: the table starts again with it alone
    assert len(memo) == 1 and memo.get(3) == "3" and memo.get(0) is None


def test_a_table_turned_off_keeps_nothing_and_no_byte_changes():
    """POKERBOTS_MEMO_OFF (the measurement's switch) turns tables off; a round's bytes are
    the same with every table off."""
    code = ("import hashlib, random, sys\n"
            "from pokerbots.protocol.memo import Memo, TABLES\n"
            "from pokerbots.server.games import make_game\n"
            "from pokerbots.server.referee.transcript import transcript\n"
            "digest = hashlib.sha256()\n"
            "for game, options in (('kuhn', {}), ('holdem-nl', {'stack': 300}),"
            " ('holdem-limit', {'carry': True, 'stack': 100}), ('leduc', {})):\n"
            "    for s, kind, message, reply in transcript(make_game(game, 3, **options),"
            " seed=3, hands=30):\n"
            "        digest.update(b'%d' % s + message + reply)\n"
            "print(digest.hexdigest(), sorted(n for n, m in TABLES.items() if m.bound == 0))\n")
    runs = {}
    for off in ("", "all", "render.passes,wire.replies"):
        env = {**os.environ, "POKERBOTS_MEMO_OFF": off}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True).stdout.split(" ", 1)
        runs[off] = out
    assert runs[""][0] == runs["all"][0] == runs["render.passes,wire.replies"][0]
    assert runs[""][1].strip() == "[]"
    assert runs["render.passes,wire.replies"][1].strip() == "['render.passes', 'wire.replies']"
    assert "'render.chips'" in runs["all"][1] and "'engine.legal'" in runs["all"][1]


def memo_tables() -> dict[str, int]:
    code = ("import importlib\n"
            f"for name in {MAKERS!r}: importlib.import_module(name)\n"
            "from pokerbots.protocol.memo import TABLES\n"
            "for name, memo in TABLES.items(): print(name, memo.bound)")
    env = {k: v for k, v in os.environ.items() if k != "POKERBOTS_MEMO_OFF"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout
    return {name: int(bound) for name, bound in (line.split() for line in out.splitlines())}


def test_every_memo_table_is_in_the_performance_pages_table_with_its_bound():
    page = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z0-9_.]+)` \| [^|]+ \| ([\d,]+) \|", page, re.MULTILINE))
    tables = memo_tables()
    assert len(tables) >= 14
    assert {name: int(rows[name].replace(",", "")) for name in rows} == tables


def test_no_other_memo_table_in_the_server_or_the_protocol():
    """functools' caches are left only on functions without arguments (a probe of the
    machine, made once per process: one value, not a table); every module's table is a Memo
    (the site's page cache, kept by the app with a byte budget per page, is no memo)."""
    found = []
    for path in [*(ROOT / "server").rglob("*.py"), *(ROOT / "protocol").rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for decorator in node.decorator_list:
                    text = ast.unparse(decorator)
                    if "lru_cache" in text or ("cache" in text and "functools" in text):
                        if node.args.args or node.args.kwonlyargs or node.args.vararg:
                            found.append(f"{path.relative_to(ROOT)}: {node.name}")
        for node in tree.body:  # a module's own table of things made before
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                made = ast.unparse(node.value)
                if made.startswith(("OrderedDict(", "collections.OrderedDict(")):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {made}")
    assert found == []


"""``pokerbots new``: the kit of each language is written, built and played as a user would.

The default run writes kits, checks the refusals, and plays the Python kit (no build) for a
few hands with carried stacks. The slow tests build every kit once with the machine's compiler,
play each at one of the table shapes smoke does not deal (carried stacks with rebuys, a stack
per seat, antes, ten players: each shape is played by a kit, each kit plays a shape), play
every kit without POKERBOTS_GAME (nothing else does), and check each kit's seeded random
numbers. Smoke and certify in every game are .ci/run's: it writes, builds, smokes and
certifies every kit, with a JUnit report each, and certify's cases deal each kit carried
stacks with a rebuy, antes with a stack per seat, every field of init_round and ten players.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from pokerbots.protocol import kits

from processes import pokerbots

ROOT = Path(__file__).resolve().parents[2]
RANDOM = ROOT / "bots" / "random_bot.py"
LANGUAGES = [kit.name for kit in kits.KITS]


def new(tmp_path: Path, lang: str, name: str = "mybot") -> Path:
    result = pokerbots("new", name, "--lang", lang, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return tmp_path / name


def built(tmp_path: Path, lang: str) -> Path:
    """A new kit of ``lang``, built: the path of its entry point."""
    kit = kits.find(lang)
    if shutil.which(kit.tool) is None:
        pytest.skip(f"{kit.tool} is not on PATH: the {lang} kit cannot be built or run here")
    folder = new(tmp_path, lang)
    if kit.built:
        result = subprocess.run(["./build"], cwd=folder, capture_output=True, text=True,
                                timeout=600)
        assert result.returncode == 0, result.stdout + result.stderr
    entry = folder / kit.entry
    assert os.access(entry, os.X_OK)
    return entry


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """``kit(lang)``: the entry point of a new kit of ``lang``, built once for the module."""
    entries: dict[str, Path] = {}

    def entry(lang: str) -> Path:
        if lang not in entries:
            entries[lang] = built(tmp_path_factory.mktemp(f"kit-{lang}"), lang)
        return entries[lang]

    return entry


def play(tmp_path: Path, *args) -> dict:
    """``pokerbots run ARGS --json``: the summary, after checking that the round completed."""
    result = pokerbots("run", *args, "--json", "--logs", tmp_path / "logs", timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    summary = json.loads(result.stdout)
    assert summary["result"] == "completed"
    return summary


def test_new_lists_the_languages_writes_a_kit_and_refuses_bad_input(tmp_path):
    listed = pokerbots("new", "--list")
    assert listed.returncode == 0, listed.stderr
    assert [line.split()[0] for line in listed.stdout.splitlines()] == LANGUAGES

    folder = new(tmp_path, "c")
    files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
    assert files == ["PROTOCOL.md", "README.md", "bot.c", "build", "poker.c", "poker.h"]
    assert os.access(folder / "build", os.X_OK)
    assert "cd mybot && ./build" in (folder / "README.md").read_text()
    before = {p: p.read_bytes() for p in folder.iterdir()}

    again = pokerbots("new", "mybot", "--lang", "python", cwd=tmp_path)
    assert again.returncode == 2
    assert "mybot already exists and is not empty" in again.stderr
    assert {p: p.read_bytes() for p in folder.iterdir()} == before  # nothing was written

    unknown = pokerbots("new", "other", "--lang", "cobol", cwd=tmp_path)
    assert unknown.returncode == 2
    assert "no kit for 'cobol'" in unknown.stderr
    assert ", ".join(LANGUAGES) in unknown.stderr
    assert not (tmp_path / "other").exists()

    (tmp_path / "notes.txt").write_text("mine")
    on_a_file = pokerbots("new", "notes.txt", "--lang", "node", cwd=tmp_path)
    assert on_a_file.returncode == 2
    assert "notes.txt is a file" in on_a_file.stderr
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_every_kit_is_written_with_each_game_of_the_protocols_table(tmp_path):
    """The kits name no game: ``new`` writes each game's rows from the protocol's table."""
    from pokerbots.protocol import games

    for lang in LANGUAGES:
        folder = new(tmp_path, lang, f"bot-{lang}")
        text = "".join(p.read_text() for p in folder.rglob("*") if p.is_file())
        for mark in (kits.GAMES_MARK, kits.DEFAULT_GAME_MARK, kits.NAME_MARK):
            assert mark not in text, (lang, mark)
        for name in games.names():
            assert f'"{name}"' in text, (lang, name)
    spec = importlib.util.spec_from_file_location("client", tmp_path / "bot-python" /
                                                  "pokerclient.py")
    client = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(client)
    assert client.LAST_LINE == {name: games.get(name).shape.last_lines()
                                for name in games.names()}
    # The default game is the protocol's example: its messages end as the protocol says.
    assert client.LAST_LINE[games.DEFAULT] == ("EndProb", None, "Pots")


def test_the_python_kit_plays_hold_em_with_carried_stacks_and_rebuys(tmp_path):
    entry = built(tmp_path, "python")
    # Three copies of the kit's bot: the seed fixes the deal, and the bots play no dice, so
    # every seat goes broke and answers REBUY at least once (the server checks each Money).
    summary = play(tmp_path, "-g", "holdem-nl", entry, entry, entry, "--stacks", "carry",
                   "--stack", "40", "--hands", "25", "--seed", "1")
    assert summary["hands_played"] == 25
    assert all(chips > 0 for chips in summary["rebuys"]), summary["rebuys"]


#: Table shapes that smoke does not deal: (game, seats as "kit"/"random", options).
SHAPES = [
    ("holdem-nl", "kit random kit", ["--stacks", "carry", "--stack", "80"]),
    ("holdem-limit", "kit random random kit", ["--stack", "100,250,40,0", "--ante", "5"]),
    ("holdem-nl", "kit random kit", ["--stack", "300,20,150", "--stacks", "carry",
                                     "--big-blind-ante", "10"]),
    ("leduc", "kit random random random random kit random random random kit", []),
    ("holdem-nl", "kit random random random random kit random random random kit",
     ["--stack", "30", "--stacks", "carry"]),
]


@pytest.mark.slow
@pytest.mark.parametrize("number", range(max(len(SHAPES), len(LANGUAGES))),
                         ids=lambda n: f"{LANGUAGES[n % len(LANGUAGES)]}-shape{n % len(SHAPES)}")
def test_a_built_kit_plays_a_shape_smoke_does_not_deal(tmp_path, kit, number):
    """Shape ``number`` by the kit ``number`` (each wrapped around): every shape is played
    by a kit, every kit plays a shape."""
    game, seats, options = SHAPES[number % len(SHAPES)]
    entry = kit(LANGUAGES[number % len(LANGUAGES)])
    bots = [entry if seat == "kit" else RANDOM for seat in seats.split()]
    play(tmp_path, "-g", game, *bots, *options, "--hands", "60", "--seed", number)


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_built_kit_learns_the_game_from_init_round_without_POKERBOTS_GAME(tmp_path, kit,
                                                                             lang):
    """The server always sets POKERBOTS_GAME (certify and smoke too); a kit started without
    it reads the game from init_round's Game line."""
    entry = kit(lang)
    play(tmp_path, "-g", "holdem-limit", f"env -u POKERBOTS_GAME {shlex.quote(str(entry))}",
         RANDOM, "--hands", "20", "--stacks", "carry", "--stack", "50", "--ante", "2")


#: For each kit: a probe program (file name, text) that prints the seed its library reads from
#: POKERBOTS_SEED and a first draw seeded with it, and how to build and run it in the folder.
SEED_PROBES = {
    "python": (None, None, ["python3", "-c", "import pokerclient; print(pokerclient.seeded_random"
                                             "().random())"]),
    "c": ("probe.c", '#include <stdio.h>\n#include <stdlib.h>\n#include "poker.h"\n'
          'int main(void) { unsigned long long s = poker_seed(); srand((unsigned)s);'
          ' printf("%llu %d\\n", s, rand()); return 0; }\n',
          [["cc", "-std=c99", "-o", "probe", "probe.c", "poker.c"], ["./probe"]]),
    "cpp": ("probe.cpp", '#include <cstdio>\n#include "poker.hpp"\n'
            "int main() { std::mt19937_64 rng(poker::seed());"
            ' std::printf("%llu %llu\\n", (unsigned long long)poker::seed(),'
            " (unsigned long long)rng()); }\n",
            [["c++", "-std=c++17", "-o", "probe", "probe.cpp"], ["./probe"]]),
    "rust": ("src/probe.rs", '#[path = "poker.rs"]\nmod poker;\n'
             'fn main() { let mut rng = poker::Rng::new(poker::seed());'
             ' println!("{} {}", poker::seed(), rng.unit()); }\n',
             [["rustc", "--edition", "2021", "-o", "probe", "src/probe.rs"], ["./probe"]]),
    "java": ("Probe.java", "public class Probe { public static void main(String[] args) {"
             " System.out.println(Long.toUnsignedString(Poker.seed()) + \" \""
             " + new java.util.Random(Poker.seed()).nextInt()); } }\n",
             [["javac", "-cp", "classes", "-d", "classes", "Probe.java"],
              ["java", "-cp", "classes", "Probe"]]),
    "javascript": (None, None, ["node", "-e", "const p = require('./poker.js');"
                                " console.log(p.seed().toString(), p.seededRandom()())"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_kits_library_seeds_random_numbers_from_the_seed_of_its_seat(kit, lang):
    """A kit's bot that draws random numbers replays the same when it draws them as its
    README says: from the seed the server gives its seat (POKERBOTS_SEED)."""
    import random
    import sys

    folder = kit(lang).parent
    name, text, steps = SEED_PROBES[lang]
    if name is not None:
        (folder / name).write_text(text)
        done = subprocess.run(steps[0], cwd=folder, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        steps = steps[1]
    if lang == "python":
        steps = [sys.executable, *steps[1:]]
    seed = "12345678901234567890"  # above 2**63: read as unsigned
    outputs = []
    for value in (seed, seed, "7"):
        env = {**os.environ, "POKERBOTS_SEED": value}
        done = subprocess.run(steps, cwd=folder, capture_output=True, text=True, env=env,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout.split())
    if lang == "python":
        assert float(outputs[0][0]) == random.Random(int(seed)).random()
    else:
        assert outputs[0][0] == seed and outputs[2][0] == "7"
    assert outputs[0] == outputs[1] and outputs[0][-1] != outputs[2][-1]

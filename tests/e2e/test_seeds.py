"""Seeds nobody can guess, kept whole, shown to the organiser only, and committed to in public.

The draws are the real commands' (``pokerbots run`` and ``pokerbots tournament`` without
``--seed``): 128 bits, different every time, and the tournament's match seeds derived from
its seed as the documentation says. Both stores keep a 128-bit seed exactly (SQLite's
integers stop at 63 bits); a service store and a tournament folder written by the previous
version are read, brought up to date (the service's) and resumed (the tournament's, with the
cards it started with). What each viewer is given of a seed is :mod:`.visibility`'s; the
commitment and the reveal are :mod:`.commitments`', checked here with :mod:`hashlib` and a
real ``sha256sum``.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from pokerbots.server import games, seeds
from pokerbots.server.logs.folder import MatchFolder
from pokerbots.server.service.data import commitments
from pokerbots.server.service.data import store as service_store
from pokerbots.server.service.data.teams import Team
from pokerbots.server.service.site import visibility
from pokerbots.server.tournament import deals, plan, results_store
from pokerbots.server.tournament.entrants import parse_entrants

from processes import pokerbots

ROOT = Path(__file__).resolve().parents[2]
CALL = str(ROOT / "bots" / "call_bot.py")
RANDOM = str(ROOT / "bots" / "random_bot.py")
#: A seed past SQLite's integers (and past 2**64).
BIG = 2 ** 127 + 2 ** 64 + 12345


def summary_of(logs: Path) -> dict:
    (folder,) = [p for p in logs.iterdir() if p.is_dir()]
    return json.loads((folder / "summary.json").read_text())


# -- the draws ---------------------------------------------------------------------------


def test_a_drawn_seed_has_128_bits_and_two_draws_differ(tmp_path):
    drawn = [seeds.draw() for _ in range(8)]
    assert len(set(drawn)) == 8 and all(0 <= s < 2 ** 128 for s in drawn)
    assert max(drawn).bit_length() > 120  # 2**-64 odds of failing by chance
    runs = []
    for number in range(2):
        logs = tmp_path / f"logs{number}"
        done = pokerbots("run", "--hands", "3", "--logs", logs, CALL, CALL)
        assert done.returncode == 0, done.stderr
        summary = summary_of(logs)
        assert summary["seed_given"] is False
        runs.append(summary["seed"])
    assert runs[0] != runs[1]
    assert all(s.bit_length() > 64 for s in runs)


def test_a_tournament_draws_128_bits_and_derives_128_bit_match_seeds(tmp_path):
    out = tmp_path / "t"
    done = pokerbots("tournament", f"a={CALL}", f"b={CALL}", f"c={CALL}", "--players", "2",
                     "--hands", "5", "--jobs", "1", "--out", out, timeout=120)
    assert done.returncode == 0, done.stderr
    store = results_store.open_store(out)
    seed = store.meta("seed")
    rows = store.matches()
    store.close()
    assert seed.bit_length() > 64 and f"seed {seed}" in done.stdout  # its user is told
    assert len(rows) == 3
    for row in rows:
        assert row["seed"] == deals.match_seed(seed, row["table_no"], row["deal_set"])
        assert row["seed"].bit_length() > 64
        summary = MatchFolder(Path(row["log_dir"])).summary()
        assert summary["seed"] == row["seed"]  # the organiser's folder keeps every seed
    again = tmp_path / "again"
    done = pokerbots("tournament", f"a={CALL}", f"b={CALL}", "--hands", "1", "--out", again)
    assert done.returncode == 0, done.stderr
    other = results_store.open_store(again)
    assert other.meta("seed") != seed
    other.close()


def test_the_match_seed_is_the_documented_hash():
    text = b"pokerbots tournament 7 table 2 deal set 1"
    digest = hashlib.sha256(text).digest()
    assert deals.match_seed(7, 2, 1) == int.from_bytes(digest[:16], "big")
    # a tournament of the previous format derives what it derived then
    assert deals.match_seed(7, 2, 1, bits=63) == int.from_bytes(digest[:8], "big") >> 1


def test_a_given_seed_stays_as_given_whatever_its_size(tmp_path):
    seed = BIG * 2 ** 100  # (a small one, as in the other tests, is kept as well)
    logs = tmp_path / "logs"
    done = pokerbots("run", "--hands", "2", "--seed", seed, "--logs", logs, CALL, RANDOM)
    assert done.returncode == 0, done.stderr
    assert summary_of(logs)["seed"] == seed
    out = tmp_path / "t"
    done = pokerbots("tournament", f"a={CALL}", f"b={CALL}", "--hands", "2", "--seed", BIG,
                     "--out", out)
    assert done.returncode == 0, done.stderr
    store = results_store.open_store(out)
    assert store.meta("seed") == BIG
    assert [r["seed"] for r in store.matches()] == [deals.match_seed(BIG, 0, 0)]
    store.close()


# -- the stores ----------------------------------------------------------------------------


def test_the_results_store_keeps_a_128_bit_seed_exactly(tmp_path):
    entrants = parse_entrants([f"a={CALL}", f"b={CALL}"])
    planned = plan.matches(["a", "b"], 2, rounds=2, duplicate=True, seed=BIG)
    assert all(p.seed.bit_length() > 64 for p in planned)
    results_store.create(tmp_path, {"game": "kuhn"}, BIG, entrants, planned).close()
    store = results_store.open_store(tmp_path)
    assert store.meta("seed") == BIG
    assert [r["seed"] for r in store.matches()] == [p.seed for p in planned]
    assert store.match_seed_bits() == 128
    store.close()
    db = sqlite3.connect(tmp_path / results_store.FILE)
    assert {t for (t,) in db.execute("SELECT typeof(seed) FROM matches")} == {"text"}


def test_the_service_store_keeps_a_128_bit_seed_exactly(tmp_path):
    store = service_store.open_store(tmp_path)
    store.add_tournament(1, seed=2 ** 128 - 1, started=1.0, folder="t", job={"seed": BIG},
                         bots=[], salt="ab", commitment="cd")
    store.close()
    reader = service_store.reader(tmp_path)
    row = reader.tournament(1)
    assert row["seed"] == 2 ** 128 - 1 and row["job"]["seed"] == BIG
    assert reader.tournaments()[0]["seed"] == 2 ** 128 - 1
    reader.close()


#: ``tournaments`` as the previous version created it: the seed an INTEGER.
PREVIOUS_TOURNAMENTS = """CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('running', 'interrupted', 'done', 'failed')),
    seed INTEGER NOT NULL, started REAL NOT NULL, finished REAL, folder TEXT NOT NULL,
    job TEXT NOT NULL, bots TEXT NOT NULL, standings TEXT, error TEXT)"""


def test_a_service_store_of_the_previous_version_is_brought_up_to_date(tmp_path):
    db = sqlite3.connect(tmp_path / service_store.FILE)
    db.execute(PREVIOUS_TOURNAMENTS)
    db.execute("INSERT INTO tournaments VALUES (1, 'done', 1234567890, 10.0, 20.0, 't/1',"
               " '{\"seed\": 1234567890}', '[]', '{\"seed\": 1234567890}', NULL)")
    db.execute("INSERT INTO tournaments VALUES (2, 'interrupted', 42, 30.0, NULL, 't/2',"
               " '{\"seed\": 42}', '[]', NULL, NULL)")
    db.commit()
    db.close()
    before = service_store.reader(tmp_path)  # a reader of the store as it was
    assert before.tournament(1)["seed"] == 1234567890 and before.tournament(1)["salt"] is None
    before.close()
    store = service_store.open_store(tmp_path)
    first, second = store.tournament(1), store.tournament(2)
    assert (first["seed"], first["status"], first["folder"], first["standings"]) == (
        1234567890, "done", "t/1", {"seed": 1234567890})
    assert (second["seed"], second["job"], second["finished"]) == (42, {"seed": 42}, None)
    assert first["salt"] is None and first["commitment"] is None and first["revealed"] is None
    store.add_tournament(3, seed=BIG, started=40.0, folder="t/3", job={}, bots=[],
                         salt="s", commitment="c")
    assert store.tournament(3)["seed"] == BIG
    assert [t["id"] for t in store.tournaments("running", "interrupted")] == [3, 2]
    store.close()
    db = sqlite3.connect(tmp_path / service_store.FILE)
    types = {row[1]: row[2] for row in db.execute("PRAGMA table_info(tournaments)")}
    assert types["seed"] == "TEXT" and "commitment" in types
    service_store.open_store(tmp_path).close()  # and opens again as it is


#: ``matches`` as the previous version created it: the match seed an INTEGER.
PREVIOUS_MATCHES = """CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    table_no INTEGER NOT NULL, deal_set INTEGER NOT NULL, seating_no INTEGER NOT NULL,
    seating TEXT NOT NULL, seed INTEGER NOT NULL, button INTEGER NOT NULL,
    phase INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN
        ('pending', 'running', 'done', 'failed', 'skipped')),
    hands INTEGER, bankrolls TEXT, allin_bankrolls TEXT, culprit TEXT, culprit_seat INTEGER,
    error TEXT, log_dir TEXT, seconds REAL, cpu INTEGER, worker TEXT, started REAL,
    finished REAL, luck_bankrolls TEXT,
    UNIQUE (table_no, deal_set, seating_no))"""


def as_previous_version(out: Path, seed: int) -> None:
    """Make the tournament folder ``out`` what the previous version left when it was stopped
    before its first match: format 1, an INTEGER seed column, 63-bit match seeds, every match
    pending, no match folder."""
    db = sqlite3.connect(out / results_store.FILE)
    rows = db.execute("SELECT table_no, deal_set, seating_no, seating, phase FROM matches"
                      " WHERE phase = 0 ORDER BY id").fetchall()
    db.execute("DROP TABLE matches")
    db.execute(PREVIOUS_MATCHES)
    for table_no, deal_set, seating_no, seating, phase in rows:
        old = deals.match_seed(seed, table_no, deal_set, bits=63)
        db.execute("INSERT INTO matches (table_no, deal_set, seating_no, seating, seed, button,"
                   " phase) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (table_no, deal_set, seating_no, seating, old,
                    deals.first_button(old, len(json.loads(seating))), phase))
    db.execute("UPDATE meta SET value = '1' WHERE key = 'format'")
    db.commit()
    db.close()
    for path in sorted(out.rglob("*"), reverse=True):
        if path != out / results_store.FILE and not path.name.startswith(results_store.FILE):
            path.rmdir() if path.is_dir() else path.unlink()


def test_a_tournament_of_the_previous_format_resumes_with_the_cards_it_started_with(tmp_path):
    out = tmp_path / "t"
    command = [f"a={CALL}", f"b={CALL}", "--game", "holdem-nl", "--hands", "4", "--seed", "5",
               "--refine", "2", "--refine-steps", "1", "--jobs", "1", "--out", out]
    done = pokerbots("tournament", *command, timeout=120)
    assert done.returncode == 0, done.stderr
    as_previous_version(out, 5)
    done = pokerbots("tournament", *command, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "resumed" in done.stdout
    store = results_store.open_store(out)
    rows = store.matches()
    assert store.match_seed_bits() == 63
    store.close()
    assert {r["phase"] for r in rows} == {0, 1}  # the refinement planned after the resume
    assert all(r["status"] == "done" for r in rows)
    game = games.make_game("holdem-nl", 2)
    for row in rows:
        assert row["seed"] == deals.match_seed(5, row["table_no"], row["deal_set"], bits=63)
        folder = MatchFolder(Path(row["log_dir"]))
        assert folder.summary()["seed"] == row["seed"]
        for record in folder.hands():
            dealt = deals.deal(game, record["hand"], seed=row["seed"])
            assert record["cards"] == [" ".join(h) for h in dealt.holes]
    db = sqlite3.connect(out / results_store.FILE)
    assert {t for (t,) in db.execute("SELECT typeof(seed) FROM matches")} == {"integer"}


# -- who sees a seed ---------------------------------------------------------------------


def test_only_the_organiser_sees_a_seed_until_it_is_revealed():
    public, team = visibility.PUBLIC, visibility.sight(Team("b"), ["a", "b"])
    organiser = visibility.sight(Team("boss", True))
    summary = {"result": "completed", "seed": BIG, "seed_given": True, "error": None}
    assert organiser.summary(summary) == summary
    for sight in (public, team):
        assert "seed" not in sight.summary(summary)
        assert str(BIG) not in json.dumps(sight.summary(summary))
    row = {"id": 1, "status": "failed", "seed": BIG, "salt": "ab", "commitment": "cd",
           "revealed": None, "job": {"seed": BIG, "bots": ["a=/x"]},
           "standings": {"seed": BIG, "bots": []},
           "error": f"the tournament stopped:\nTournament in t: 2 bots, seed {BIG}\n{BIG}0"}
    assert organiser.tournament(row) == row
    for sight in (public, team):
        seen = sight.tournament(row)
        # the seed's digits hidden, a longer number that holds them left as it is
        assert seen["error"] == row["error"].replace(f"seed {BIG}", "seed (hidden)")
        assert seen["commitment"] == "cd" and "seed" not in seen and "salt" not in seen
        assert "job" not in seen and "seed" not in seen["standings"]
        revealed = sight.tournament({**row, "revealed": 5.0})
        assert (revealed["seed"], revealed["salt"]) == (BIG, "ab") and "job" not in revealed


def test_the_commitment_is_the_documented_sha256_and_sha256sum_agrees():
    seed, salt = seeds.draw(), commitments.new_salt()
    assert len(salt) == 32 and int(salt, 16) >= 0
    made = commitments.commitment(seed, salt)
    assert made == hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()
    printed = subprocess.run(["sh", "-c", commitments.check_command(seed, salt)],
                             capture_output=True, text=True, check=True).stdout
    assert printed.split()[0] == made
    assert commitments.commitment(seed, commitments.new_salt()) != made


def test_only_finished_tournaments_are_revealed(tmp_path):
    store = service_store.open_store(tmp_path)
    for number, status in enumerate(("done", "failed", "running", "interrupted"), 1):
        store.add_tournament(number, seed=number, started=float(number), folder="t", job={},
                             bots=[], salt="s", commitment="c")
        store.set_tournament(number, status)
    for asked in ([3], [1, 4], [9]):
        with pytest.raises(commitments.RevealRefused) as refused:
            commitments.reveal(store, asked)
        assert refused.value.usage
        assert str(asked[-1]) in str(refused.value)
    assert all(t["revealed"] is None for t in store.tournaments())  # nothing, not even 1
    assert "running: only a finished" in str(
        pytest.raises(commitments.RevealRefused, commitments.reveal, store, [3]).value)
    done = commitments.reveal(store, [1], now=100.0)
    assert [t["id"] for t in done.tournaments] == [1] and done.tournaments[0]["revealed"] == 100
    done = commitments.reveal(store, None, now=200.0)
    assert [t["id"] for t in done.tournaments] == [2, 1] and done.unfinished == [3, 4]
    assert store.tournament(1)["revealed"] == 100.0  # revealed once, when it was
    assert store.tournament(3)["revealed"] is None
    store.close()
    empty = service_store.open_store(tmp_path / "empty")
    with pytest.raises(commitments.RevealRefused, match="no tournament has finished"):
        commitments.reveal(empty, None)

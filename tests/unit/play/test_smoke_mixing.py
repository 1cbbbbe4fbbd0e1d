"""``pokerbots smoke --mixing``: the bot plays random opponents that answer with mixed replies,
the server drawing their actions; a failure's Reproduce line names the mixing opponent and
replays the same match."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

POKERBOTS = str(Path(sys.executable).with_name("pokerbots"))
ROOT = Path(__file__).resolve().parents[3]
CALL_BOT = str(ROOT / "bots" / "call_bot.py")

# Checks or calls until its third hand, then bets an impossible amount.
BAD_BOT = '''
from pokerbots.protocol.client import run

run(lambda state: "BET 7" if state.hand >= 2 else state.check_or_call(), check=False)
'''


def smoke(*args, cwd=None):
    return subprocess.run([POKERBOTS, "smoke", *map(str, args)], capture_output=True,
                          text=True, timeout=300, cwd=cwd)


def test_mixing_takes_the_place_of_the_opponent_so_not_both(tmp_path):
    proc = smoke(CALL_BOT, "--mixing", "--opponent", CALL_BOT, "--logs", tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "give either --mixing or --opponent, not both" in proc.stderr
    assert not any(tmp_path.iterdir())  # nothing was played


def test_smoke_mixing_plays_every_game_against_opponents_whose_actions_the_server_draws(
        tmp_path):
    proc = smoke(CALL_BOT, "--mixing", "--game", "all", "--players", "2", "--rounds", "1",
                 "--hands", "20", "--logs", tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "matches of 20 hands against mixing random bots." in proc.stdout
    assert proc.stdout.count("PASS") == 4 * 2 and "8 passed" in proc.stdout
    for match in tmp_path.iterdir():
        summary = json.loads((match / "summary.json").read_text())
        bot = next(s for s, label in enumerate(summary["bots"]) if label == CALL_BOT)
        records = [json.loads(line) for line in (match / "hands.jsonl").read_text().splitlines()]
        mixed = {record["actions"][index][0] for record in records
                 for index, _, _ in record.get("mixes", [])}
        # The opponent mixed, the bot under test (check or call) never did.
        assert mixed == {1 - bot}, (match.name, mixed)


def test_a_failure_against_mixing_opponents_is_reproduced_by_its_command(tmp_path):
    bot = tmp_path / "bad_bot.py"
    bot.write_text(BAD_BOT)
    proc = smoke(bot, "--mixing", "--players", "3", "--rounds", "1", "--hands", "10", "-x",
                 "--logs", tmp_path / "logs")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "failed in hand 2: " in proc.stdout
    (command,) = [line.split("Reproduce: ", 1)[1] for line in proc.stdout.splitlines()
                  if "Reproduce: " in line]
    assert "'python3 -m pokerbots.server.play.smoke_random --mix'" in command
    words = shlex.split(command)
    assert words[0] == "pokerbots"
    again = subprocess.run([POKERBOTS, *words[1:], "--logs", tmp_path / "again"],
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 1, again.stdout + again.stderr
    assert "failed in hand 2: " in again.stdout + again.stderr
    assert "The bot replied: 'BET 7'" in again.stdout + again.stderr

"""The service's quarantine is ``pokerbots smoke``: one loop (the library's ``SmokeRun``), so the
same bot gets the same verdict from both, in the same match, for the same reason, after the same
number of matches."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pokerbots.server.play.options import limits_as_dict, limits_from_options
from pokerbots.server.service.jobs import quarantine

POKERBOTS = str(Path(sys.executable).with_name("pokerbots"))

GOOD_BOT = '''
from pokerbots.protocol.client import run

run(lambda state: state.check_or_call())
'''

# Bets an impossible amount when it holds the king in a round's second hand, else plays well:
# which match fails first depends on the cards, so on the plan's seeds (the third, seat 1 seed
# 3, after two that passed).
BAD_BOT = '''
import sys
from pokerbots.protocol.client import Bot, run


class LateBlunder(Bot):
    def decide(self, state):
        if state.hand == 1 and state.cards == ("K",):
            print("the king! all in", file=sys.stderr)
            return "BET 7"
        return state.check_or_call()


run(LateBlunder(), check=False)
'''

#: A FAIL or PASS line of ``pokerbots smoke``: the case's words, then the reason of a failure.
LINE = re.compile(r"^(PASS|FAIL|ERROR) +(\S+) +(\d+)p  seat (\d+)  seed (\d+) +(.*)$")


def smoke(bot: Path, logs: Path) -> tuple[int, list[tuple[str, str, str]], str]:
    """``pokerbots smoke BOT --players 2 --exitfirst`` (the quarantine's plan): its exit code,
    (word, case name, rest) for each match line, and its output."""
    done = subprocess.run([POKERBOTS, "smoke", bot.name, "--players", "2", "--exitfirst",
                           "--logs", str(logs)], cwd=bot.parent, capture_output=True,
                          text=True, timeout=120)
    lines = []
    for line in done.stdout.splitlines():
        found = LINE.match(line)
        if found:
            word, game, players, seat, seed, rest = found.groups()
            lines.append((word, f"{game} {players}p seat {seat} seed {seed}", rest))
    return done.returncode, lines, done.stdout


def quarantined(bot: Path, logs: Path) -> dict:
    """The quarantine's verdict on ``bot`` for Kuhn at tables of 2 (as the service runs it,
    in this process)."""
    logs.mkdir()
    job = quarantine.job(bot, logs, game="kuhn", game_texts={}, players=2,
                         limits=limits_as_dict(limits_from_options()))
    return quarantine.test(job)


@pytest.mark.parametrize("source", [GOOD_BOT, BAD_BOT], ids=["passes", "fails"])
def test_smoke_and_the_quarantine_give_the_same_verdict(tmp_path, source):
    bot = tmp_path / "bot.py"
    bot.write_text(source, encoding="utf-8")
    code, lines, output = smoke(bot, tmp_path / "smoke-logs")
    verdict = quarantined(bot, tmp_path / "quarantine-logs")
    assert verdict["passed"] == (code == 0), (verdict, output)
    assert verdict["cases"] == len(lines), (verdict, output)
    if verdict["passed"]:
        assert [word for word, _, _ in lines] == ["PASS"] * 4  # two seats, two rounds each
        return
    assert code == 1 and len(lines) > 1  # matches passed before the one that failed
    assert [word for word, _, _ in lines[:-1]] == ["PASS"] * (len(lines) - 1)
    word, name, reason = lines[-1]
    assert word == "FAIL"
    assert verdict["reason"] == f"{name}: {reason}"
    first = verdict["report"].splitlines()[0]
    assert first.startswith("Bot at seat ") and "(bot.py)" in first
    assert f"    {first}" in output  # the same paragraph, as smoke prints it
    assert "the king! all in" in verdict["report"]
    assert verdict["transcript"] == f"seat{name.split('seat ')[1].split()[0]}.in"

"""The floor benchmark replays what `pokerbots run` really sends: the same bytes, seat by seat.

``benchmarks/floor.py`` records each write of a round with the referee and a C dealer replays
them to the bots; ours ÷ floor means something only if those are the very bytes the server
writes. A real match of check/call bots (the bundled ``call_bot.py``) with the same seed and
hands leaves each seat's transcript (``seatN.in``); the script must hold the same bytes, in
both of the server's modes (messages to every seat as a hand starts, or held back until each
seat's turn on one CPU).
"""

from __future__ import annotations

import importlib.util
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CALL_BOT = ROOT / "bots" / "call_bot.py"


def _floor():
    spec = importlib.util.spec_from_file_location("floor", ROOT / "benchmarks" / "floor.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def seat_bytes(script: Path) -> list[bytes]:
    """What each seat is sent in a floor script, in order, and the replies owed in all."""
    data = script.read_bytes()
    (players,) = struct.unpack_from("<i", data, 0)
    at = 4
    sent = [bytearray() for _ in range(players)]
    while True:
        (k,) = struct.unpack_from("<i", data, at)
        at += 4
        if k == 0:
            break
        for _ in range(k):
            seat, owed, length = struct.unpack_from("<iii", data, at)
            at += 12
            assert owed >= 1
            sent[seat] += data[at:at + length]
            at += length
    assert at == len(data)
    return [bytes(s) for s in sent]


@pytest.mark.parametrize("pinned", [False, True], ids=["as-each-comes", "pinned"])
@pytest.mark.parametrize("game, options, flags", [
    ("kuhn", {}, []),
    pytest.param("holdem-nl", {"stack": 20000, "small_blind": 50, "big_blind": 100},
                 ["--game", "holdem-nl", "--blinds", "50/100", "--stack", "20000"],
                 marks=pytest.mark.slow),
])
def test_the_floor_sends_what_the_server_sends(tmp_path, game, options, flags, pinned):
    if not pinned and len(os.sched_getaffinity(0)) == 1:
        pytest.skip("on one CPU the server always holds messages back (PROTOCOL.md, A round)")
    floor = _floor()
    script = tmp_path / "round.script"
    floor.record_script(game, options, 12, pinned, script)
    logs = tmp_path / "logs"
    subprocess.run([sys.executable, "-m", "pokerbots.server.cli.main", "run",
                    *[str(CALL_BOT)] * 3, "--hands", "12", "--seed", "1", *flags,
                    "--cpu", "0" if pinned else "none", "--logs", str(logs)],
                   check=True, capture_output=True, stdin=subprocess.DEVNULL)
    (folder,) = logs.iterdir()
    sent = seat_bytes(script)
    for seat in range(3):
        assert sent[seat] == (folder / f"seat{seat}.in").read_bytes()

"""Mixed replies (``MIX w reply,w reply,...``) in tests: read one, draw from one, and find out
whether the server takes them.

:class:`DrawingSeat` puts a client that answers with mixes at a table of the referee that
takes single actions only: it reads each mix, draws an item as the dealer would and hands the
referee that action, so a mixing bot's bookkeeping (its ``Money`` lines, checked by the
referee) is tested against the real referee; :class:`ProcessSeat` puts a real bot program
in such a seat. :func:`require_mixing_server` skips a test that needs the server itself to
take ``MIX``, until it does.
"""

from __future__ import annotations

import os
import random
import select
import subprocess
import tempfile
import time
from fractions import Fraction

import pytest

from pokerbots.protocol.client import Client
from pokerbots.server.errors import BotFault
from pokerbots.server.games import make_game
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

#: Why a test that needs the server to take MIX is skipped.
NO_MIX = "the server does not take MIX yet"


def read_mix(line: bytes) -> list[tuple[int, bytes]]:
    """``b'MIX 3 BET 1,1 BET 2'`` -> ``[(3, b'BET 1'), (1, b'BET 2')]`` (written here
    independently of the client library, so that it can check the library's lines)."""
    assert line.startswith(b"MIX "), line
    items = []
    for part in line[4:].split(b","):
        weight, reply = part.split(b" ", 1)
        assert weight.isdigit() and not weight.startswith(b"0"), line
        word, value = reply.split(b" ")
        assert word in (b"BET", b"FOLD") and value.isdigit(), line
        items.append((int(weight), reply))
    return items


def distribution(line: bytes) -> dict[bytes, Fraction]:
    """The probability of each reply that ``line`` (a mix or a single reply) plays."""
    if not line.startswith(b"MIX "):
        return {line: Fraction(1)}
    items = read_mix(line)
    total = sum(weight for weight, _ in items)
    replies = [reply for _, reply in items]
    assert len(set(replies)) == len(replies), f"an item repeated in {line!r}"
    return {reply: Fraction(weight, total) for weight, reply in items}


def draw(line: bytes, rng: random.Random) -> bytes:
    """One reply of the mix ``line``, drawn with probability weight / total."""
    items = read_mix(line)
    point = rng.randrange(sum(weight for weight, _ in items))
    for weight, reply in items:
        if point < weight:
            return reply
        point -= weight
    raise AssertionError("unreachable")


class DrawingSeat:
    """A seat of :func:`play_local` answered by ``client``, whose mixes are drawn here.

    ``plays`` keeps every ``play`` message and the line the client wrote for it (the mix
    itself); ``drawn`` counts the plays where the action drawn was not the mix's first item.
    ``sent`` and ``written`` are the seat's whole transcript: every message, and every line the
    client wrote (with its newline), mixes as written: what a bot program given ``sent`` must
    write.
    """

    def __init__(self, client: Client, rng: random.Random) -> None:
        self.client = client
        self.rng = rng
        self.plays: list[tuple[bytes, bytes]] = []
        self.drawn = 0
        self._sent: list[bytes] = []
        self._written: list[bytes] = []

    @property
    def sent(self) -> bytes:
        return b"".join(self._sent)

    @property
    def written(self) -> bytes:
        return b"".join(self._written)

    def receive(self, message: bytes) -> bytes | None:
        reply = self.client.receive(message)
        self._sent.append(message)
        if reply is not None:
            self._written.append(reply + b"\n")
        if reply is None or not message.startswith(b"play\n"):
            return reply
        self.plays.append((message, reply))
        if not reply.startswith(b"MIX "):
            return reply
        action = draw(reply, self.rng)
        self.drawn += action != read_mix(reply)[0][1]
        return action


class ProcessSeat:
    """A seat of :func:`play_local` answered by a real bot process, ``argv`` started in
    ``cwd`` with ``POKERBOTS_GAME`` set: each message is written to its stdin, and the reply
    is the next line it writes (None when it exits, or writes no line within ``timeout``
    seconds, a bound only against a test that would never end). :meth:`close` ends the
    round: the exit code, its stderr kept in :attr:`stderr`."""

    def __init__(self, argv: list[str], *, game: str, cwd=None, timeout: float = 60.0) -> None:
        self._errors = tempfile.TemporaryFile()
        env = {**os.environ, "POKERBOTS_GAME": game, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self._errors, cwd=cwd, env=env)
        self.timeout = timeout
        self.stderr = ""
        self._buffer = b""

    def receive(self, message: bytes) -> bytes | None:
        try:
            self.process.stdin.write(message)
            self.process.stdin.flush()
        except BrokenPipeError:
            return None
        deadline = time.monotonic() + self.timeout
        output = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([output], [], [], left)[0]:
                return None
            chunk = os.read(output, 1 << 16)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def close(self) -> int:
        """Close the bot's input, wait for it to exit, and return its exit code."""
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            code = self.process.wait(self.timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self.process.stdout.close()
        self._errors.seek(0)
        self.stderr = self._errors.read().decode(errors="replace")
        self._errors.close()
        return code


_TAKES_MIX: list[bool] = []


def server_takes_mix() -> bool:
    """Whether the referee takes a mixed reply: one hand of two-player Kuhn in-process, where
    the first to act answers ``MIX 1 BET 1,1 BET 2``. A referee without mixes refuses it as an
    unknown action (``unknown action 'MIX'``); any other refusal is raised, for the test to
    fail on."""
    if not _TAKES_MIX:
        def decide(state):
            if state.fold() is None:
                return state.mix({state.check_or_call(): 1, state.raise_to(2): 1})
            return state.check_or_call()

        referee = Referee(make_game("kuhn", 2), random.Random(0), hands=1)
        try:
            play_local(referee, [Client(decide, game="kuhn"), Client(decide, game="kuhn")])
        except BotFault as fault:
            if "unknown action 'MIX'" not in fault.reason:
                raise
            _TAKES_MIX.append(False)
        else:
            _TAKES_MIX.append(True)
    return _TAKES_MIX[0]


def require_mixing_server() -> None:
    """Skip the calling test while the server refuses ``MIX`` (see :func:`server_takes_mix`)."""
    if not server_takes_mix():
        pytest.skip(NO_MIX)

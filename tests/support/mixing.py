"""Mixed replies (``MIX w reply,w reply,...``) in tests: read one, draw from one, and play a
mixing bot with the draws in the test's hands.

:class:`DrawingSeat` puts a client that answers with mixes at a table of the real referee: it
reads each mix, draws an item as the dealer does (from a generator the test gives) and hands
the referee that action, so a mixing bot's bookkeeping (its ``Money`` lines, checked by the
referee) is tested whatever is drawn, and two seats that write the same lines are dealt the
same draws (a program and the class it runs, a kit and the client library). :class:`ProcessSeat`
puts a real bot program in such a seat.
"""

from __future__ import annotations

import os
import random
import select
import subprocess
import tempfile
import time
from fractions import Fraction

from pokerbots.protocol.client import Client


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
    """A seat of :func:`play_local` answered by ``client`` (a :class:`Client`, or a
    :class:`ProcessSeat`), whose mixes are drawn here from ``rng``.

    ``plays`` keeps every ``play`` message and the line the client wrote for it (the mix
    itself); ``drawn`` counts the plays where the action drawn was not the mix's first item.
    ``sent`` and ``written`` are the seat's whole transcript: every message, and every line the
    client wrote (with its newline), mixes as written: what a bot program given ``sent`` must
    write.
    """

    def __init__(self, client: Client | ProcessSeat, rng: random.Random) -> None:
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

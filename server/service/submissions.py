"""The submissions folder: one folder per bot, what version each holds, how it starts.

``SUBMISSIONS/NAME/`` is the bot NAME (a name as a tournament takes it: letters, digits and
``_.-``, at most 40 characters; other folders are listed as rejected, hidden ones ignored).
Its entry point is an executable file named ``bot``, or a ``bot.py`` run under the server's
Python. Its version label is the first line of an optional ``VERSION`` file, else the first
12 hex digits of its digest: the sha256 over every file's path, executable bit and content
(and each symbolic link's target), so that a change of any file is a new version.
``__pycache__`` folders and ``.pyc`` files are left out: running a Python bot writes them.

Reading a folder whole costs its size, so the watcher compares :func:`fingerprint` (names,
sizes, times and modes: no file is opened) every few seconds and calls :func:`examine` only
for the folders whose fingerprint changed. :func:`snapshot` copies a version into the data
folder, where it is tested and played from, so that its author may go on changing the folder
while the admitted version keeps playing.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from pokerbots.server.seats.arguments import parse_bot
from pokerbots.server.seats.bots import BotSpecError
from pokerbots.server.tournament.entrants import check_name

#: The entry points, in the order they are looked for.
ENTRY_POINTS = ("bot", "bot.py")
VERSION_FILE = "VERSION"
#: The longest version label kept from a VERSION file.
MAX_LABEL = 64
_SKIPPED_DIRS = {"__pycache__"}
_SKIPPED_SUFFIXES = (".pyc",)


@dataclass(frozen=True)
class Examined:
    """One bot folder as read now: its version, and why it cannot play if it cannot."""

    name: str
    digest: str
    label: str
    #: ``bot`` or ``bot.py``; None when rejected.
    entry: str | None
    #: Why the bot is rejected (no entry point, not executable...), or None.
    problem: str | None


def bot_folders(submissions: Path) -> dict[str, Path]:
    """Every bot folder in ``submissions`` by name (hidden folders left out)."""
    found = {}
    with os.scandir(submissions) as entries:
        for entry in entries:
            if entry.name.startswith(".") or not entry.is_dir(follow_symlinks=True):
                continue
            found[printable(entry.name)] = Path(entry.path)
    return found


def printable(name: str) -> str:
    """A file name as text a page can show (bytes that are not UTF-8 become U+FFFD)."""
    return os.fsencode(name).decode("utf-8", "replace")


def _walk(folder: Path):
    """``(relative path, os.stat_result)`` of every file and link below ``folder``, sorted;
    symbolic links are not followed."""
    for root, dirs, files in os.walk(folder):
        kept = []
        for name in sorted(dirs):
            path = os.path.join(root, name)
            if os.path.islink(path):
                files.append(name)  # a link to a folder is recorded as a link
            elif name not in _SKIPPED_DIRS:
                kept.append(name)
        dirs[:] = kept
        for name in sorted(files):
            if name.endswith(_SKIPPED_SUFFIXES):
                continue
            path = os.path.join(root, name)
            try:
                info = os.lstat(path)
            except FileNotFoundError:
                continue  # removed while we read
            yield os.path.relpath(path, folder), info


def fingerprint(folder: Path) -> tuple:
    """What changes whenever a file of ``folder`` changes, without reading any file."""
    try:
        return tuple((rel, info.st_size, info.st_mtime_ns, info.st_mode, info.st_ino)
                     for rel, info in _walk(folder))
    except OSError:
        return ()


def digest(folder: Path) -> str:
    """The sha256 over every file's relative path, executable bit and content (a link's
    target instead of its content)."""
    total = hashlib.sha256()
    for rel, info in _walk(folder):
        path = folder / rel
        total.update(os.fsencode(rel) + b"\0")
        if stat.S_ISLNK(info.st_mode):
            total.update(b"link\0" + os.fsencode(os.readlink(path)) + b"\0")
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        total.update(b"exec\0" if info.st_mode & 0o111 else b"file\0")
        try:
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    total.update(block)
        except OSError:
            total.update(b"unreadable\0")
        total.update(b"\0")
    return total.hexdigest()


def label_of(folder: Path, digest_: str) -> str:
    """The first line of VERSION (printable, at most MAX_LABEL characters), else the digest's
    first 12 hex digits."""
    try:
        raw = (folder / VERSION_FILE).read_bytes()[:4096]
    except OSError:
        raw = b""
    line = raw.decode("utf-8", "replace").strip().splitlines()[0:1]
    text = "".join(c for c in (line[0] if line else "")
                   if unicodedata.category(c)[0] != "C").strip()[:MAX_LABEL]
    return text or digest_[:12]


def entry_point(folder: Path) -> tuple[str | None, str | None]:
    """``(entry, None)`` or ``(None, why it cannot start)``."""
    program, script = (folder / name for name in ENTRY_POINTS)
    if program.is_file() and os.access(program, os.X_OK):
        try:
            parse_bot(shlex.quote(str(program)))  # a #! interpreter that does not exist
        except BotSpecError as exc:  # "bot '/path/bot': its #! line asks for ..."
            return None, "bot: " + str(exc).split(": ", 1)[-1]
        return ENTRY_POINTS[0], None
    if script.is_file():
        return ENTRY_POINTS[1], None
    if program.is_dir():
        return None, ("bot is a folder, not a program: the entry point is an executable file"
                      " named bot, or a bot.py")
    if program.exists():
        return None, ("bot is not executable: chmod +x bot (a Python bot may be named bot.py"
                      " instead)")
    return None, ("no entry point: the folder needs an executable file named bot, or a"
                  " bot.py, at its top")


def examine(name: str, folder: Path) -> Examined:
    """Read ``folder`` whole: its version and whether it can play."""
    found = digest(folder)
    label = label_of(folder, found)
    try:
        check_name(name)
    except BotSpecError as exc:
        return Examined(name, found, label, None,
                        f"{exc}: rename the folder (its name is the bot's name)")
    entry, problem = entry_point(folder)
    return Examined(name, found, label, entry, problem)


def snapshot(folder: Path, destination: Path) -> None:
    """Copy ``folder`` to ``destination``, which must not exist (links stay links, modes are
    kept). What the copy holds is the version: examine the copy, not the original, which
    its author may be changing meanwhile."""
    shutil.copytree(folder, destination, symlinks=True,
                    ignore=shutil.ignore_patterns(*_SKIPPED_DIRS,
                                                  *("*" + s for s in _SKIPPED_SUFFIXES)))

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

A version's links must resolve inside its folder, as the file system follows them
(:func:`leaving_link`, by :mod:`.links`): a folder whose link leads elsewhere (another bot's
copy, ``/etc``) is rejected, naming the link, its ``VERSION`` unread; and the entry point's
real path must be inside the folder.
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
from pokerbots.server.service.data.links import Tree
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


#: The longest a name is quoted in a message (characters of its ``repr``).
QUOTED = 100


def quoted(text: str) -> str:
    """``repr(text)``, shortened to about :data:`QUOTED` characters (saying so) when longer:
    a message never quotes a long name whole."""
    shown = repr(text)
    if len(shown) <= QUOTED:
        return shown
    keep = QUOTED - 2
    while len(shown := repr(text[:keep])) > QUOTED:  # escapes: \\x00 is four characters
        keep = keep * QUOTED // len(shown) - 1
    size = len(text.encode("utf-8", "surrogatepass"))
    return f"{shown}... ({size:,} bytes, shortened)"


def _walk(folder: Path):
    """``(relative path, os.stat_result)`` of every file and link below ``folder``, sorted
    (a folder's files, then each of its folders in turn); symbolic links are not followed.
    A loop, not a recursion: a folder thousands of levels deep is walked all the same."""
    stack = [""]
    while stack:
        rel = stack.pop()
        root = os.path.join(folder, rel)
        try:
            with os.scandir(root) as found:
                entries = list(found)
        except OSError:
            continue  # removed, or unreadable, while we read
        dirs, files = [], []
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            (dirs if is_dir else files).append(entry.name)
        kept = []
        for name in sorted(dirs):
            if os.path.islink(os.path.join(root, name)):
                files.append(name)  # a link to a folder is recorded as a link
            elif name not in _SKIPPED_DIRS:
                kept.append(name)
        above = rel + os.sep if rel else ""
        for name in sorted(files):
            if name.endswith(_SKIPPED_SUFFIXES):
                continue
            try:
                info = os.lstat(os.path.join(root, name))
            except FileNotFoundError:
                continue  # removed while we read
            yield above + name, info
        stack.extend(above + name for name in reversed(kept))


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


def leaving_link(folder: Path) -> str | None:
    """Why ``folder`` cannot be a version because one of its links does not resolve inside
    it (the first found, by name), or None. Every link is followed as the file system will,
    over the folder's own tree (:class:`.links.Tree`): none may lead above the folder, loop,
    or go through more than 40 links."""
    tree = Tree()
    found = []
    folders = [(folder, [])]
    while folders:
        path, above = folders.pop()
        with os.scandir(path) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                parts = [*above, entry.name]
                if entry.is_symlink():
                    node = tree.add(parts, "link", "/".join(parts))
                    node.target = os.readlink(entry.path)
                    found.append(node)
                elif entry.is_dir(follow_symlinks=False):
                    tree.add(parts, "dir", entry.name)
                    folders.append((entry.path, parts))
                else:
                    tree.add(parts, "file", entry.name)
    for node in sorted(found, key=lambda n: n.raw):
        why = tree.leads_outside(node)
        if why is not None:
            what = {"loop": "leads back to itself", "too many links":
                    "goes through more than 40 links"}.get(why, "leads outside the bot's folder")
            return (f"{quoted(printable(node.raw))} is a link that {what} (to"
                    f" {quoted(printable(node.target))}): a bot's links must stay inside its"
                    " folder")
    return None


def examine(name: str, folder: Path) -> Examined:
    """Read ``folder`` whole: its version and whether it can play."""
    found = digest(folder)
    leaving = leaving_link(folder)
    if leaving is not None:  # its VERSION may lead anywhere: not read
        return Examined(name, found, found[:12], None, leaving)
    label = label_of(folder, found)
    try:
        check_name(name)
    except BotSpecError as exc:
        return Examined(name, found, label, None,
                        f"{exc}: rename the folder (its name is the bot's name)")
    entry, problem = entry_point(folder)
    if entry is not None and not _inside(folder / entry, folder):
        return Examined(name, found, label, None,
                        f"{entry} leads outside the bot's folder: the entry point must be"
                        " in it")
    return Examined(name, found, label, entry, problem)


def _inside(path: Path, folder: Path) -> bool:
    """Whether ``path``'s real path (every link followed) is inside ``folder``'s."""
    return os.path.realpath(path).startswith(os.path.realpath(folder) + os.sep)


def snapshot(folder: Path, destination: Path) -> None:
    """Copy ``folder`` to ``destination``, which must not exist (links stay links, modes are
    kept). What the copy holds is the version: examine the copy, not the original, which
    its author may be changing meanwhile."""
    try:
        shutil.copytree(folder, destination, symlinks=True,
                        ignore=shutil.ignore_patterns(*_SKIPPED_DIRS,
                                                      *("*" + s for s in _SKIPPED_SUFFIXES)))
    except RecursionError:  # copytree recurses: thousands of levels are too many
        raise shutil.Error(f"{folder} is too many folders deep to be copied") from None

"""A bot folder as an archive: :func:`pack` makes the ``.tar.gz`` that ``pokerbots submit``
sends, :func:`unpack` reads a team's upload (a ``.tar.gz`` or a ``.zip``) into a new folder.

An upload is another person's file, so :func:`unpack` reads every entry's header and refuses
the archive before anything is written when one of them is unsafe, naming it (an
:class:`ArchiveError` with the HTTP status to answer): an absolute name, a ``..`` in a name, a
link whose target is outside the folder or an entry inside a link, a hard link to something
that is not a file of the archive, a device, fifo or socket, the same name twice, an
encrypted zip entry (400); more than ``max_files`` entries, or files that would be more than
``max_bytes`` unpacked (413). A corrupt archive is a 400 too, also when the corruption shows
only while its files are written (the half-written folder is removed then); an entry the
file system will not take (a name too long) is a 400 naming it, while the service's own disk
failing (full, read-only) is an OSError for the service. Files are written
with ``O_EXCL | O_NOFOLLOW``, modes ``0o755`` or ``0o644`` (the executable bit kept, nothing
else), links made last, so that no file is ever written through a link. An archive whose
files are all inside one folder, with no entry point at the top, is that folder's content
(``tar czf bot.tgz mybot/`` works as ``tar czf bot.tgz -C mybot .`` does).

Checking every entry ourselves, rather than trusting ``tarfile``'s ``data`` filter or
``zipfile``'s name cleaning, is what lets the refusal name the entry and write nothing.
"""

from __future__ import annotations

import errno
import io
import os
import posixpath
import shutil
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from pokerbots.server.service.submissions import ENTRY_POINTS

__all__ = ["ArchiveError", "pack", "unpack"]

#: Folders and files left out of :func:`pack` (running a Python bot writes the first two).
PACK_SKIPPED = ("__pycache__", ".git")
_BLOCK = 1 << 16
#: The longest file name (of one folder level) that file systems take.
_NAME_MAX = 255
#: The most bytes of a zip entry that is a link (its target).
_LINK_BYTES = 4096
#: Errors writing an upload that are the service's (its disk), not the archive's: OSError
#: goes up with them (any other error naming an entry is a 400).
SERVER_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS, errno.EACCES,
                           errno.EPERM, errno.EMFILE, errno.ENFILE, errno.ENOMEM})


class ArchiveError(Exception):
    """The archive is refused: ``status`` (400 or 413) and a message naming the entry."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class _Entry:
    name: str  # relative, "/"-separated, normalised
    kind: str  # "file", "dir", "link", "hardlink"
    executable: bool = False
    size: int = 0
    target: str = ""  # a link's target; a hard link's file
    member: object = None  # the tar or zip member


def _bad(message: str) -> ArchiveError:
    return ArchiveError(400, message)


def _clean(raw: str) -> str:
    """The entry's name, relative and normalised ("" for the top folder itself)."""
    if raw.startswith("/") or raw.startswith("\\"):
        raise _bad(f"entry {raw!r} is an absolute path: the archive's names must be relative"
                   " to the bot's folder")
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise _bad(f"entry {raw!r} has '..' in its name: the archive's names must stay in"
                   " the bot's folder")
    if "\0" in raw:
        raise _bad(f"entry {raw!r} has a NUL character in its name")
    if any(len(os.fsencode(p)) > _NAME_MAX for p in parts):
        raise _bad(f"entry {raw!r} has a name longer than {_NAME_MAX} bytes")
    return "/".join(parts)


def _link_target(name: str, raw: str, target: str) -> str:
    """A symbolic link's target, if it stays inside the folder."""
    inside = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
    if target.startswith("/") or inside == ".." or inside.startswith("../") or "\0" in target:
        raise _bad(f"entry {raw!r} is a link pointing outside the bot's folder (to {target!r})")
    return target


def _odd(raw: str, what: str) -> ArchiveError:
    return _bad(f"entry {raw!r} is {what}: a bot's folder holds only files, folders and links")


# -- reading the entries ---------------------------------------------------------------------


def _tar_entries(archive: tarfile.TarFile, max_files: int):
    count = 0
    while (member := archive.next()) is not None:
        count += 1
        if count > max_files:
            raise ArchiveError(413, f"the archive has more than {max_files} entries")
        raw = member.name
        name = _clean(raw)
        if member.isreg():
            yield raw, _Entry(name, "file", bool(member.mode & 0o111), member.size,
                              member=member)
        elif member.isdir():
            yield raw, _Entry(name, "dir")
        elif member.issym():
            yield raw, _Entry(name, "link", target=_link_target(name, raw, member.linkname))
        elif member.islnk():
            try:
                target = _clean(member.linkname)
            except ArchiveError:
                raise _bad(f"entry {raw!r} is a link pointing outside the bot's folder (to"
                           f" {member.linkname!r})") from None
            yield raw, _Entry(name, "hardlink", target=target)
        elif member.ischr() or member.isblk():
            raise _odd(raw, "a device file")
        elif member.isfifo():
            raise _odd(raw, "a fifo")
        else:
            raise _odd(raw, f"of an unknown kind (tar type {member.type!r})")


def _zip_entries(archive: zipfile.ZipFile, max_files: int):
    members = archive.infolist()
    if len(members) > max_files:
        raise ArchiveError(413, f"the archive has more than {max_files} entries")
    for member in members:
        raw = member.filename
        name = _clean(raw)
        mode = member.external_attr >> 16
        if member.flag_bits & 0x1:
            raise _bad(f"entry {raw!r} is encrypted")
        if member.is_dir() or stat.S_ISDIR(mode):
            yield raw, _Entry(name, "dir")
        elif stat.S_ISLNK(mode):
            if member.file_size > _LINK_BYTES:
                raise _bad(f"entry {raw!r} is a link with a {member.file_size}-byte target")
            target = archive.read(member).decode("utf-8", "surrogateescape")
            yield raw, _Entry(name, "link", target=_link_target(name, raw, target))
        elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            raise _odd(raw, "a device file")
        elif stat.S_ISFIFO(mode):
            raise _odd(raw, "a fifo")
        elif stat.S_ISSOCK(mode):
            raise _odd(raw, "a socket")
        else:
            yield raw, _Entry(name, "file", bool(mode & 0o111), member.file_size,
                              member=member)


def _checked(found, max_bytes: int) -> list[_Entry]:
    """The entries, refused as a whole if one is unsafe, in the order they are written."""
    entries: dict[str, _Entry] = {}
    raws: dict[str, str] = {}
    total = 0
    for raw, entry in found:
        if not entry.name:
            continue  # the top folder itself
        if entry.name in entries:
            if entry.kind == "dir" == entries[entry.name].kind:
                continue
            raise _bad(f"entry {raw!r} appears twice in the archive")
        if entry.kind == "hardlink":
            linked = entries.get(entry.target)
            if linked is None or linked.kind != "file":
                raise _bad(f"entry {raw!r} is a hard link to {entry.target!r}, which is not a"
                           " file before it in the archive")
            entry = replace(entry, size=linked.size, executable=linked.executable)
        total += entry.size
        if total > max_bytes:
            raise ArchiveError(413, f"the archive's files would be more than {max_bytes:,}"
                                    " bytes unpacked")
        entries[entry.name] = entry
        raws[entry.name] = raw
    for name in entries:
        parent = posixpath.dirname(name)
        while parent:
            above = entries.get(parent)
            if above is not None and above.kind != "dir":
                raise _bad(f"entry {raws[name]!r} is inside {raws[parent]!r}, which is not a"
                           " folder")
            parent = posixpath.dirname(parent)
    return _unwrapped(list(entries.values()))


def _unwrapped(entries: list[_Entry]) -> list[_Entry]:
    """The entries of the one folder that holds them all, when no entry point is at the top."""
    tops = {e.name.split("/", 1)[0] for e in entries}
    if len(tops) != 1 or any(e.name in ENTRY_POINTS for e in entries):
        return entries
    (top,) = tops
    if not any(e.name == top and e.kind == "dir" for e in entries) and \
            not all("/" in e.name for e in entries):
        return entries
    prefix = top + "/"
    inner = [replace(e, name=e.name[len(prefix):],
                     target=(e.target[len(prefix):] if e.kind == "hardlink" else e.target))
             for e in entries if e.name.startswith(prefix)]
    for entry in inner:
        if entry.kind == "link":  # "top/up -> .." stayed in the archive, not in top
            _link_target(entry.name, prefix + entry.name, entry.target)
    return inner


# -- writing them ----------------------------------------------------------------------------


def unpack(source: BinaryIO, destination: Path, *, max_files: int, max_bytes: int) -> None:
    """Unpack the ``.tar.gz`` or ``.zip`` in ``source`` (a seekable binary file) into
    ``destination``, a new folder (its parent must exist). ArchiveError, with nothing
    written, when the archive is refused."""
    head = source.read(4)
    source.seek(0)
    if not head:
        raise _bad("the body is empty: send the bot's folder as a .tar.gz or a .zip")
    try:
        if head[:2] == b"\x1f\x8b":
            with tarfile.open(fileobj=source, mode="r:gz") as archive:
                entries = _checked(_tar_entries(archive, max_files), max_bytes)
                _write(entries, destination, max_bytes, archive.extractfile)
        elif head[:2] == b"PK":
            with zipfile.ZipFile(source) as archive:
                entries = _checked(_zip_entries(archive, max_files), max_bytes)
                _write(entries, destination, max_bytes, archive.open)
        else:
            raise _bad("the body is neither a .tar.gz nor a .zip archive")
    except (tarfile.TarError, zipfile.BadZipFile, zlib.error, EOFError, OSError,
            UnicodeError, NotImplementedError, ValueError) as exc:
        shutil.rmtree(destination, ignore_errors=True)
        if isinstance(exc, OSError) and exc.errno in SERVER_ERRNOS:
            raise  # the service's own disk: not the archive's fault
        raise _bad(f"the archive is corrupt: {exc}") from None
    except ArchiveError:
        shutil.rmtree(destination, ignore_errors=True)
        raise


def _write(entries: list[_Entry], destination: Path, max_bytes: int,
           open_member: Callable) -> None:
    destination.mkdir()
    budget = [max_bytes]
    links = [e for e in entries if e.kind == "link"]  # last: nothing is written through one
    for entry in [e for e in entries if e.kind != "link"] + links:
        try:
            _write_entry(entry, destination, budget, open_member)
        except OSError as exc:
            if exc.errno is None or exc.errno in SERVER_ERRNOS:
                raise  # a corrupt stream (no errno), or the service's own disk
            raise _bad(f"entry {entry.name!r} cannot be written: {exc.strerror}") from None


def _write_entry(entry: _Entry, destination: Path, budget: list[int],
                 open_member: Callable) -> None:
    path = destination / entry.name
    if entry.kind == "dir":
        path.mkdir(mode=0o755, parents=True, exist_ok=True)
        return
    path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
    if entry.kind == "link":
        os.symlink(entry.target, path)
        return
    mode = 0o755 if entry.executable else 0o644
    if entry.kind == "hardlink":
        shutil.copyfile(destination / entry.target, path, follow_symlinks=False)
    else:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
        with os.fdopen(fd, "wb") as out, open_member(entry.member) as data:
            while block := data.read(_BLOCK):
                budget[0] -= len(block)
                if budget[0] < 0:  # a zip entry larger than its header said
                    raise ArchiveError(413, "the archive's files would be more than"
                                            " the upload limit unpacked")
                out.write(block)
    os.chmod(path, mode)  # whatever the umask


def pack(folder: Path) -> bytes:
    """``folder`` as a ``.tar.gz``: its files at the top, links kept as links, the
    executable bit kept; ``__pycache__``, ``.git`` and ``.pyc`` files left out. The same
    version as the folder's (:func:`.submissions.digest`) once unpacked."""
    buffer = io.BytesIO()

    def keep(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        parts = info.name.split("/")
        if any(p in PACK_SKIPPED for p in parts) or info.name.endswith(".pyc"):
            return None
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return info

    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for child in sorted(os.listdir(folder)):
            archive.add(folder / child, arcname=child, filter=keep)
    return buffer.getvalue()


"""A bot folder as an archive: :func:`pack` makes the ``.tar.gz`` that ``pokerbots submit``
sends, :func:`unpack` reads a team's upload (a ``.tar.gz`` or a ``.zip``) into a new folder.

An upload is another person's file, so :func:`unpack` reads every entry's header and refuses
the archive before anything is written when one of them is unsafe, naming it (an
:class:`ArchiveError` with the HTTP status to answer): an absolute name, a ``..`` in a name, a
name or link target of more than :data:`MAX_NAME` bytes, a name more than :data:`MAX_DEPTH`
levels deep, a link that the file system would resolve outside the folder (:mod:`.data.links`:
followed one name at a time, through the other links, as the file system will; not judged by
its text) or an entry inside a link, a hard link to something that is not a file of the
archive, a device, fifo, socket or sparse file, the same name twice, an encrypted zip entry
(400); more than ``max_files`` entries (the folders that names go through counted), names
and link targets of more than
:data:`NAME_CHARS_PER_ENTRY` characters per allowed entry in all, or files that would be more
than ``max_bytes`` unpacked (413). A corrupt archive is a 400 too, also when the corruption
shows only while its files are written (the half-written folder is removed then); an entry
the file system will not take is a 400 naming it, while the service's own disk failing
(full, read-only) is an OSError for the service. Files are written with
``O_EXCL | O_NOFOLLOW``, modes ``0o755`` or ``0o644`` (the executable bit kept, nothing
else), links made last, so that no file is ever written through a link. An archive whose
files are all inside one folder, with no entry point at the top, is that folder's content
(``tar czf bot.tgz mybot/`` works as ``tar czf bot.tgz -C mybot .`` does).

A refusal costs less than the archive's size: a tar's extended headers (GNU long names and
link targets, pax headers), which ``tarfile`` reads whole into memory, are measured from their
header block first and refused above :data:`MAX_HEADER` bytes, at most a few in a row; a zip's
central directory is counted before ``zipfile`` makes an object of each entry; every check is
linear in the names' length; a message quotes a name shortened to about a hundred
characters (saying so), and is at most a few hundred.

Checking every entry ourselves, rather than trusting ``tarfile``'s ``data`` filter or
``zipfile``'s name cleaning, is what lets the refusal name the entry and write nothing.
"""

from __future__ import annotations

import errno
import io
import os
import shutil
import stat
import struct
import tarfile
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from pokerbots.server.service.data.links import InTheWay, Node, Tree
from pokerbots.server.service.data.submissions import ENTRY_POINTS, quoted

__all__ = ["ArchiveError", "pack", "unpack"]

#: Folders and files left out of :func:`pack` (running a Python bot writes the first two).
PACK_SKIPPED = ("__pycache__", ".git")
_BLOCK = 1 << 16
#: The longest file name (of one folder level) that file systems take.
_NAME_MAX = 255
#: The longest name of an entry, and link target, in bytes (Linux's longest path).
MAX_NAME = 4096
#: The most folder levels of a name: far more than a bot needs, far fewer than the service's
#: own walks of a folder (copy, removal) may recurse into.
MAX_DEPTH = 100
#: The longest extended header (a GNU long name or link target, a pax header), and the most
#: bytes of global pax headers in one archive: read whole by ``tarfile``, so refused first.
MAX_HEADER = 3 * MAX_NAME
#: The most extended headers before one entry (a long name, a long link, a pax header...).
_HEADERS_PER_ENTRY = 4
#: Characters of the names and link targets of an archive, in all, for each entry it may
#: have: what reading, checking and writing them costs (a path of 100 characters is long).
NAME_CHARS_PER_ENTRY = 256
#: The longest message of a refusal.
_MESSAGE = 400
#: Errors writing an upload that are the service's (its disk), not the archive's: OSError
#: goes up with them (any other error naming an entry is a 400).
SERVER_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS, errno.EACCES,
                           errno.EPERM, errno.EMFILE, errno.ENFILE, errno.ENOMEM})


class ArchiveError(Exception):
    """The archive is refused: ``status`` (400 or 413) and a message naming the entry (at
    most a few hundred characters: long names are shortened, and say so)."""

    def __init__(self, status: int, message: str) -> None:
        if len(message) > _MESSAGE:
            message = message[:_MESSAGE - 40] + f"... ({len(message):,} characters, shortened)"
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


def _clean(raw: str) -> list[str]:
    """The entry's name as its folder levels, relative and normalised ([] for the top)."""
    if len(raw) > MAX_NAME or len(os.fsencode(raw)) > MAX_NAME:
        raise _bad(f"entry {quoted(raw)} has a name of more than {MAX_NAME:,} bytes")
    if raw.startswith("/") or raw.startswith("\\"):
        raise _bad(f"entry {quoted(raw)} is an absolute path: the archive's names must be"
                   " relative to the bot's folder")
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise _bad(f"entry {quoted(raw)} has '..' in its name: the archive's names must stay"
                   " in the bot's folder")
    if "\0" in raw:
        raise _bad(f"entry {quoted(raw)} has a NUL character in its name")
    if any(len(os.fsencode(p)) > _NAME_MAX for p in parts):
        raise _bad(f"entry {quoted(raw)} has a name longer than {_NAME_MAX} bytes")
    if len(parts) > MAX_DEPTH:
        raise _bad(f"entry {quoted(raw)} is {len(parts):,} folder levels deep: at most"
                   f" {MAX_DEPTH}")
    return parts


def _link_target(raw: str, target: str) -> str:
    """A symbolic link's target, if it may be one (where it leads is checked once every entry
    is known: :meth:`.data.links.Tree.leads_outside`)."""
    if target.startswith("/"):
        raise _outside(raw, target)
    if len(target) > MAX_NAME or len(os.fsencode(target)) > MAX_NAME:
        raise _bad(f"entry {quoted(raw)} is a link to a name of more than {MAX_NAME:,} bytes")
    if "\0" in target:
        raise _bad(f"entry {quoted(raw)} is a link whose target has a NUL character")
    return target


def _outside(raw: str, target: str) -> ArchiveError:
    return _bad(f"entry {quoted(raw)} is a link pointing outside the bot's folder (to"
                f" {quoted(target)}, as the file system follows it)")


def _odd(raw: str, what: str) -> ArchiveError:
    return _bad(f"entry {quoted(raw)} is {what}: a bot's folder holds only files, folders and"
                " links")


# -- reading the entries ---------------------------------------------------------------------

_EXTENDED = {tarfile.GNUTYPE_LONGNAME: "a GNU long name", tarfile.GNUTYPE_LONGLINK:
             "a GNU long link target", tarfile.XHDTYPE: "a pax header",
             tarfile.XGLTYPE: "a global pax header", tarfile.SOLARIS_XHDTYPE: "a pax header"}


class _Header(tarfile.TarInfo):
    """A tar header whose extended headers are bounded before ``tarfile`` reads them whole:
    :meth:`_proc_member` sees each header block as it is read, before its data."""

    def _proc_member(self, tarfile_: _Tar):
        if self.size < 0:
            raise _bad(f"the archive is corrupt: the header at byte {self.offset:,} gives a"
                       " negative size")
        what = _EXTENDED.get(self.type)
        if what is not None:
            tarfile_.extended += 1
            if tarfile_.extended > _HEADERS_PER_ENTRY:
                raise _bad(f"the archive has more than {_HEADERS_PER_ENTRY} extended headers"
                           f" in a row (at byte {self.offset:,})")
            if self.size > MAX_HEADER:
                raise _bad(f"the archive's header at byte {self.offset:,} is {what} of"
                           f" {self.size:,} bytes: names are at most {MAX_NAME:,} bytes, and"
                           f" such headers at most {MAX_HEADER:,}")
            if self.type == tarfile.XGLTYPE:
                tarfile_.global_bytes += self.size
                if tarfile_.global_bytes > MAX_HEADER:
                    raise _bad(f"the archive's global pax headers are more than"
                               f" {MAX_HEADER:,} bytes in all")
        elif self.type == tarfile.GNUTYPE_SPARSE:
            raise _sparse(self.name)
        return super()._proc_member(tarfile_)

    def _proc_gnusparse_00(self, next, pax_headers, buf):
        raise _sparse(next.name)

    def _proc_gnusparse_01(self, next, pax_headers):
        raise _sparse(next.name)

    def _proc_gnusparse_10(self, next, pax_headers, tarfile_):
        raise _sparse(next.name)


def _sparse(raw: str) -> ArchiveError:
    return _odd(raw, "a sparse file")


class _Tar(tarfile.TarFile):
    """A ``TarFile`` reading :class:`_Header`\\ s, counting the extended headers of each entry."""

    tarinfo = _Header
    extended = 0
    global_bytes = 0

    def next(self):
        self.extended = 0
        member = super().next()
        if member is not None:
            member.pax_headers = {}  # read: no need to keep them with every member
        return member


def _tar_entries(archive: tarfile.TarFile, max_files: int):
    count = 0
    while (member := archive.next()) is not None:
        count += 1
        if count > max_files:
            raise ArchiveError(413, f"the archive has more than {max_files} entries")
        raw = member.name
        if member.size < 0:
            raise _bad(f"the archive is corrupt: entry {quoted(raw)} has a negative size")
        if member.isreg():
            yield raw, _Entry(raw, "file", bool(member.mode & 0o111), member.size,
                              member=member)
        elif member.isdir():
            yield raw, _Entry(raw, "dir")
        elif member.issym():
            yield raw, _Entry(raw, "link", target=_link_target(raw, member.linkname))
        elif member.islnk():
            yield raw, _Entry(raw, "hardlink", target=member.linkname)
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
        mode = member.external_attr >> 16
        if member.flag_bits & 0x1:
            raise _bad(f"entry {quoted(raw)} is encrypted")
        if member.is_dir() or stat.S_ISDIR(mode):
            yield raw, _Entry(raw, "dir")
        elif stat.S_ISLNK(mode):
            if member.file_size > MAX_NAME:
                raise _bad(f"entry {quoted(raw)} is a link with a {member.file_size:,}-byte"
                           " target")
            target = archive.read(member).decode("utf-8", "surrogateescape")
            yield raw, _Entry(raw, "link", target=_link_target(raw, target))
        elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            raise _odd(raw, "a device file")
        elif stat.S_ISFIFO(mode):
            raise _odd(raw, "a fifo")
        elif stat.S_ISSOCK(mode):
            raise _odd(raw, "a socket")
        else:
            yield raw, _Entry(raw, "file", bool(mode & 0o111), member.file_size,
                              member=member)


_END = struct.Struct("<4s4H2LH")  # the end of the central directory
_END64_LOCATOR = struct.Struct("<4sLQL")
_END64 = struct.Struct("<4sQ2H2L4Q")
_CENTRAL = struct.Struct("<4s4B4HL2L5H2L")  # one entry of the central directory


def _zip_bounded(source: BinaryIO, max_files: int) -> None:
    """413 if the zip's central directory has more than ``max_files`` entries, or more than
    twice :data:`NAME_CHARS_PER_ENTRY` bytes of names, extra fields and comments for each
    entry it may have, found by walking it (at most ``max_files`` + 1 steps) before
    ``zipfile`` reads it whole and makes an object of each entry. An archive this cannot
    read is left for ``zipfile`` to refuse."""
    size = source.seek(0, io.SEEK_END)
    tail = min(size, _END.size + 0xFFFF)
    source.seek(size - tail)
    block = source.read(tail)
    at = block.rfind(b"PK\x05\x06")
    if at < 0 or len(block) - at < _END.size:
        return
    *_, length, offset, _comment = _END.unpack_from(block, at)
    end = size - tail + at
    start = end - length
    if end >= _END64_LOCATOR.size:
        source.seek(end - _END64_LOCATOR.size)
        locator = _END64_LOCATOR.unpack(source.read(_END64_LOCATOR.size))
        if locator[0] == b"PK\x06\x07":
            source.seek(end - _END64_LOCATOR.size - _END64.size)
            record = source.read(_END64.size)
            if len(record) == _END64.size and record[:4] == b"PK\x06\x06":
                length = _END64.unpack(record)[8]
                start = end - _END64_LOCATOR.size - _END64.size - length
    if start < 0:
        return
    source.seek(start)
    most = 2 * NAME_CHARS_PER_ENTRY * max_files
    for _ in range(max_files + 1):
        head = source.read(_CENTRAL.size)
        if len(head) < _CENTRAL.size or head[:4] != b"PK\x01\x02":
            return
        fields = _CENTRAL.unpack(head)
        most -= fields[12] + fields[13] + fields[14]
        if most < 0:
            raise ArchiveError(413, f"the archive's names, extra fields and comments are"
                                    f" more than {2 * NAME_CHARS_PER_ENTRY * max_files:,}"
                                    " bytes in all")
        source.seek(fields[12] + fields[13] + fields[14], io.SEEK_CUR)
    raise ArchiveError(413, f"the archive has more than {max_files} entries")


def _checked(found, max_files: int, max_bytes: int) -> list[_Entry]:
    """The entries, refused as a whole if one is unsafe, in the order they are written:
    every folder (also those no entry names, made for what they hold), each before what it
    holds; the files in the archive's order; the links."""
    tree = Tree()
    most = NAME_CHARS_PER_ENTRY * max_files
    nodes: list[Node] = []
    total = 0
    names = 0
    for raw, entry in found:
        names += len(raw) + len(entry.target)
        if names > most:
            raise ArchiveError(413, f"the archive's names and link targets are more than"
                                    f" {most:,} characters in all ({NAME_CHARS_PER_ENTRY} for"
                                    f" each of the {max_files:,} entries it may have)")
        parts = _clean(raw)
        if not parts:
            continue  # the top folder itself
        target_parts = _clean_target(raw, entry.target) if entry.kind == "hardlink" else []
        linked = None
        if entry.kind == "hardlink":
            linked = tree.find(target_parts)
            if linked is None or linked.kind != "file":
                raise _bad(f"entry {quoted(raw)} is a hard link to {quoted(entry.target)},"
                           " which is not a file before it in the archive")
            file = linked.payload[0]
            entry = replace(entry, size=file.size, executable=file.executable)
        total += entry.size
        if total > max_bytes:
            raise ArchiveError(413, f"the archive's files would be more than {max_bytes:,}"
                                    " bytes unpacked")
        kind = {"hardlink": "file"}.get(entry.kind, entry.kind)
        try:
            node = tree.add(parts, kind, raw)
        except InTheWay as clash:
            if clash.where == "above":
                raise _bad(f"entry {quoted(raw)} is inside {quoted(clash.node.raw)}, which is"
                           " not a folder") from None
            if clash.where == "below":
                raise _bad(f"entry {quoted(clash.node.raw)} is inside {quoted(raw)}, which is"
                           " not a folder") from None
            raise _bad(f"entry {quoted(raw)} appears twice in the archive") from None
        if tree.size > max_files:
            raise ArchiveError(413, f"the archive has more than {max_files} entries (the"
                                    " folders its names go through counted)")
        if node.payload is None and node.kind != "dir":
            node.target = entry.target
            node.payload = (entry, linked)
            nodes.append(node)
    _unwrap(tree)
    for node in nodes:
        if node.kind == "link":
            why = tree.leads_outside(node)
            if why is not None:
                raise _refused_link(node.raw, node.target, why)
    paths = tree.folders()
    named = [_named(node, paths) for node in nodes]
    return ([_Entry(path, "dir") for path in paths.values() if path]
            + [e for e in named if e.kind != "link"] + [e for e in named if e.kind == "link"])


def _clean_target(raw: str, target: str) -> list[str]:
    """A hard link's file, as folder levels."""
    try:
        return _clean(target)
    except ArchiveError:
        raise _bad(f"entry {quoted(raw)} is a link pointing outside the bot's folder (to"
                   f" {quoted(target)})") from None


def _refused_link(raw: str, target: str, why: str) -> ArchiveError:
    if why == "loop":
        return _bad(f"entry {quoted(raw)} is a link that leads back to itself (to"
                    f" {quoted(target)})")
    if why == "too many links":
        return _bad(f"entry {quoted(raw)} is a link through too many links (to"
                    f" {quoted(target)}): the file system follows at most 40")
    return _outside(raw, target)


def _unwrap(tree: Tree) -> None:
    """Make the one folder that holds every entry the tree's top, when no entry point is at
    the top (a link then may not climb out of that folder either)."""
    tops = tree.top.children
    if len(tops) != 1:
        return
    (name, only), = tops.items()
    if name in ENTRY_POINTS or only.kind != "dir":
        return
    only.parent = None
    tree.top = only


def _named(node: Node, paths: dict[Node, str]) -> _Entry:
    """The entry of ``node``, named from the tree's top (which may have changed); ``paths``:
    every folder's (:meth:`.data.links.Tree.folders`)."""
    entry, linked = node.payload
    entry = replace(entry, name=_path(node, paths))
    if linked is not None:
        entry = replace(entry, target=_path(linked, paths))
    return entry


def _path(node: Node, paths: dict[Node, str]) -> str:
    above = paths[node.parent]
    return f"{above}/{node.name}" if above else node.name


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
            with _Tar.open(fileobj=source, mode="r:gz") as archive:
                entries = _checked(_tar_entries(archive, max_files), max_files, max_bytes)
                _write(entries, destination, max_bytes, archive.extractfile)
        elif head[:2] == b"PK":
            _zip_bounded(source, max_files)
            source.seek(0)
            with zipfile.ZipFile(source) as archive:
                entries = _checked(_zip_entries(archive, max_files), max_files, max_bytes)
                _write(entries, destination, max_bytes, archive.open)
        else:
            raise _bad("the body is neither a .tar.gz nor a .zip archive")
    except (tarfile.TarError, zipfile.BadZipFile, zlib.error, EOFError, OSError,
            UnicodeError, NotImplementedError, ValueError, struct.error) as exc:
        shutil.rmtree(destination, ignore_errors=True)
        if isinstance(exc, OSError) and exc.errno in SERVER_ERRNOS:
            raise  # the service's own disk: not the archive's fault
        raise _bad(f"the archive is corrupt: {exc}") from None
    except ArchiveError:
        shutil.rmtree(destination, ignore_errors=True)
        raise


def _write(entries: list[_Entry], destination: Path, max_bytes: int,
           open_member: Callable) -> None:
    """Write ``entries`` (in :func:`_checked`'s order: links last, so that nothing is ever
    written through one) into the new folder ``destination``."""
    destination.mkdir()
    budget = [max_bytes]
    for entry in entries:
        try:
            _write_entry(entry, destination, budget, open_member)
        except OSError as exc:
            if exc.errno is None or exc.errno in SERVER_ERRNOS:
                raise  # a corrupt stream (no errno), or the service's own disk
            raise _bad(f"entry {quoted(entry.name)} cannot be written: {exc.strerror}"
                       ) from None


def _write_entry(entry: _Entry, destination: Path, budget: list[int],
                 open_member: Callable) -> None:
    path = os.path.join(destination, entry.name)
    if entry.kind == "dir":
        os.mkdir(path, 0o755)  # its folder is made before it
        return
    if entry.kind == "link":
        os.symlink(entry.target, path)
        return
    mode = 0o755 if entry.executable else 0o644
    if entry.kind == "hardlink":
        shutil.copyfile(os.path.join(destination, entry.target), path, follow_symlinks=False)
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
    version as the folder's (:func:`.data.submissions.digest`) once unpacked."""
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


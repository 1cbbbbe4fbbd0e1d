"""Deleting old match folders (``pokerbots logs prune``), since every match leaves one behind.

A match folder is a folder holding ``summary.json`` or ``hands.jsonl`` (see :mod:`.folder`);
nothing else under the logs folder is touched. ``--keep N`` keeps the N newest matches,
``--older-than 7d`` deletes the matches older than that (the command line reads the time:
:func:`~pokerbots.server.cli.options.parse_duration`; here it is seconds); given both, a match
is deleted only when it is older and not among the N newest. ``--dry-run`` lists what would go.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from pokerbots.server.logs.folder import LogFolderError, MatchFolder


def matches(root: Path) -> list[tuple[float, Path]]:
    """(last change, folder) of every match folder under ``root``, newest first."""
    found = []
    for path in root.iterdir():
        if path.is_dir() and not path.is_symlink() and MatchFolder.holds_match(path):
            changed = max([path.stat().st_mtime] + [p.stat().st_mtime for p in path.iterdir()])
            found.append((changed, path))
    return sorted(found, key=lambda item: (item[0], item[1].name), reverse=True)


def to_delete(root: Path, keep: int | None, older_than: float | None,
              now: float | None = None) -> tuple[list[Path], int]:
    """The match folders to delete, and how many matches are kept."""
    now = time.time() if now is None else now
    found = matches(root)
    doomed = []
    for rank, (changed, path) in enumerate(found):
        kept_by_count = keep is not None and rank < keep
        kept_by_age = older_than is not None and now - changed <= older_than
        if not (kept_by_count or kept_by_age):
            doomed.append(path)
    return doomed, len(found) - len(doomed)


def prune(logdir: Path, keep: int | None, older_than: float | None, *, dry_run: bool = False,
          now: float | None = None) -> tuple[list[tuple[Path, int]], int]:
    """Delete (unless ``dry_run``) the match folders under ``logdir`` that neither ``keep`` (the
    N newest) nor ``older_than`` (seconds) keeps; with both, a match goes only when it is older
    and not among the N newest. Returns ``[(folder, bytes)]`` deleted and how many matches are
    kept. LogFolderError when ``logdir`` is not a folder."""
    if not logdir.is_dir():
        raise LogFolderError(f"{logdir} is not a folder (give the folder of the match logs)")
    doomed, kept = to_delete(logdir, keep, older_than, now)
    deleted = []
    for path in doomed:
        size = MatchFolder(path).size()
        if not dry_run:
            shutil.rmtree(path)
        deleted.append((path, size))
    return deleted, kept

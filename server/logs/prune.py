"""``pokerbots logs prune``: delete old match folders, since every match leaves one behind.

A match folder is a folder holding ``summary.json`` or ``hands.jsonl`` (see :mod:`.show`);
nothing else under the logs folder is touched. ``--keep N`` keeps the N newest matches,
``--older-than 7d`` deletes the matches older than that; given both, a match is deleted only
when it is older and not among the N newest. ``--dry-run`` lists what would go.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import click

from pokerbots.server.logs.show import is_match

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_age(text: str) -> float:
    """``'7d'`` -> seconds; units s, m, h, d, w."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*", text)
    if found is None:
        raise click.BadParameter(f"{text!r}: give a number and a unit (s, m, h, d or w),"
                                 " e.g. 7d or 12h", param_hint="--older-than")
    return float(found.group(1)) * UNITS[found.group(2)]


def size_of(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def matches(root: Path) -> list[tuple[float, Path]]:
    """(last change, folder) of every match folder under ``root``, newest first."""
    found = []
    for path in root.iterdir():
        if path.is_dir() and not path.is_symlink() and is_match(path):
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


def mib(size: int) -> str:
    return f"{size / (1 << 20):.1f} MiB"


def prune(logdir: Path, keep: int | None, older_than: str | None, dry_run: bool) -> None:
    """Delete old match folders under LOGDIR (default: logs).

    --keep N keeps the N newest matches; --older-than AGE (7d, 12h, 30m) deletes the matches
    older than that; with both, a match goes only when it is older and not among the N newest.
    Only folders that hold a match (summary.json or hands.jsonl) are deleted.
    """
    if keep is None and older_than is None:
        raise click.UsageError("say what to delete: --keep N (the N newest stay) or"
                               " --older-than AGE (e.g. 7d)")
    if not logdir.is_dir():
        raise click.UsageError(f"{logdir} is not a folder (give the folder of the match logs)")
    doomed, kept = to_delete(logdir, keep, parse_age(older_than) if older_than else None)
    freed = 0
    for path in doomed:
        size = size_of(path)
        freed += size
        if dry_run:
            click.echo(f"would delete {path}  ({mib(size)})")
        else:
            shutil.rmtree(path)
    verb = "Would delete" if dry_run else "Deleted"
    click.echo(f"{verb} {len(doomed)} match folders ({mib(freed)}) from {logdir};"
               f" {kept} kept.")


def command() -> click.Group:
    """The ``logs`` command group, built when cli registers it."""
    group = click.Group(name="logs", short_help="Manage the match logs (prune old matches).",
                        help="Manage the folder of match logs.")
    options = [
        click.argument("logdir", type=click.Path(file_okay=False, path_type=Path),
                       default=Path("logs")),
        click.option("--keep", type=click.IntRange(min=0), default=None, metavar="N",
                     help="Keep the N newest matches."),
        click.option("--older-than", default=None, metavar="AGE",
                     help="Delete matches older than AGE: 30m, 12h, 7d, 2w."),
        click.option("--dry-run", "-n", is_flag=True, help="List what would be deleted."),
    ]
    func = prune
    for option in reversed(options):
        func = option(func)
    group.add_command(click.command(name="prune", short_help="Delete old match folders.")(func))
    return group

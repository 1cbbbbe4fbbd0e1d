"""``pokerbots logs prune``: delete old match folders (:mod:`pokerbots.server.logs.prune`)."""

from __future__ import annotations

from pathlib import Path

import click

from pokerbots.server.cli.options import duration
from pokerbots.server.logs.folder import LogFolderError
from pokerbots.server.logs.prune import prune


def mib(size: int) -> str:
    return f"{size / (1 << 20):.1f} MiB"


def prune_command(logdir: Path, keep: int | None, older_than: float | None,
                  dry_run: bool) -> None:
    """Delete old match folders under LOGDIR (default: logs).

    --keep N keeps the N newest matches; --older-than AGE (a number and a unit: 30m, 12h, 7d,
    2w) deletes the matches older than that; with both, a match goes only when it is older
    and not among the N newest.
    Only folders that hold a match (summary.json or hands.jsonl) are deleted.
    """
    if keep is None and older_than is None:
        raise click.UsageError("say what to delete: --keep N (the N newest stay) or"
                               " --older-than AGE (e.g. 7d)")
    try:
        deleted, kept = prune(logdir, keep, older_than, dry_run=dry_run)
    except LogFolderError as exc:
        raise click.UsageError(str(exc)) from None
    if dry_run:
        for path, size in deleted:
            click.echo(f"would delete {path}  ({mib(size)})")
    verb = "Would delete" if dry_run else "Deleted"
    freed = sum(size for _, size in deleted)
    click.echo(f"{verb} {len(deleted)} match folders ({mib(freed)}) from {logdir};"
               f" {kept} kept.")


def command() -> click.Group:
    """The ``logs`` command group, built when the command line registers it."""
    group = click.Group(name="logs", short_help="Manage the match logs (prune old matches).",
                        help="Manage the folder of match logs.")
    options = [
        click.argument("logdir", type=click.Path(file_okay=False, path_type=Path),
                       default=Path("logs")),
        click.option("--keep", type=click.IntRange(min=0), default=None, metavar="N",
                     help="Keep the N newest matches."),
        click.option("--older-than", default=None, metavar="AGE", callback=duration,
                     help="Delete matches older than AGE: a number and a unit (s, m, h, d,"
                          " w): 30m, 12h, 7d, 2w, 1d12h."),
        click.option("--dry-run", "-n", is_flag=True, help="List what would be deleted."),
    ]
    func = prune_command
    for option in reversed(options):
        func = option(func)
    group.add_command(click.command(name="prune", short_help="Delete old match folders.")(func))
    return group

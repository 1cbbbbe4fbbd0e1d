"""``pokerbots show LOGDIR``: a match (:mod:`pokerbots.server.logs.show`), or a tournament's
standings and then its matches."""

from __future__ import annotations

from pathlib import Path

import click

from pokerbots.server.cli.errors import BadInput
from pokerbots.server.errors import printable
from pokerbots.server.logs.folder import LogFolderError
from pokerbots.server.logs.show import show_text


def command() -> click.Command:
    """The ``show`` command. Built on each call: click takes the parameters off the function,
    and under ``python -m pokerbots.server.cli.main`` the cli module registers its commands
    twice."""
    options = [
        click.argument("logdir", type=click.Path(path_type=Path), default=Path("logs")),
        click.option("--last", "-n", type=click.IntRange(min=0), default=10, show_default=True,
                     help="Show this many of the last hands."),
        click.option("--all", "all_hands", is_flag=True, help="Show every hand."),
        click.option("--no-hands", is_flag=True, help="Leave out the hand history."),
        click.option("--no-chart", is_flag=True, help="Leave out the bankroll chart."),
    ]
    func = show
    for option in reversed(options):
        func = option(func)
    return click.command(name="show",
                         short_help="Summary, hand history and bankroll chart of a match.")(func)


def show(logdir, last, all_hands, no_hands, no_chart):
    """Print a match's summary, hand history and bankrolls over time, from its logs.

    LOGDIR is a match's log folder, or a folder of them (default: logs), whose newest match
    is shown. Works for failed and interrupted matches too: the error is printed with the
    path of the failing seat's transcript. A tournament's folder shows its standings, then
    its matches.
    """
    if not logdir.exists():
        raise BadInput(f"{logdir} does not exist")
    if (logdir / "results.sqlite").is_file():  # a tournament: its standings, then its matches
        from pokerbots.server.cli.tournament import show_text as tournament_text

        click.echo(printable(tournament_text(logdir)), nl=False)
        return
    try:
        text = show_text(logdir, last=None if all_hands else last, hands_shown=not no_hands,
                         chart_shown=not no_chart)
    except LogFolderError as exc:
        raise BadInput(str(exc)) from None
    click.echo(printable(text), nl=False)  # a bot's replies and stderr, escaped

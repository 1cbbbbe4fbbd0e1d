"""The ``pokerbots`` command line.

It imports only what the command it runs needs: ``pokerbots run --help`` loads click and the
game registry, not trio, rich or eval7: every command lives in a module of its own, imported
only when it runs (see :class:`Commands`).
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from pokerbots.server import __version__


class Commands(click.Group):
    """The commands: those defined here, and those in modules of their own, listed in
    :attr:`LAZY` with their one-line help and imported only when they run."""

    #: name -> (module under pokerbots.server with a ``command()`` function, short help)
    LAZY = {
        "run": ("cli.run",
                "Play one round between BOTS, each a program path or a quoted command line."),
        "smoke": ("cli.smoke", "Test a bot against random bots in short matches (for CI)."),
        "certify": ("cli.certify",
                    "Certify a bot: known cards and scripted opponents, every rare case."),
        "deal": ("cli.deal", "Print the exact text a seat receives, to feed to a bot."),
        "show": ("cli.show", "Summary, hand history and bankroll chart of a match."),
        "export": ("cli.export", "Write a match's hands as PHH files or an ACPC log."),
        "tournament": ("cli.tournament",
                       "Every table of K bots, duplicate deals, rankings with intervals."),
        "standings": ("cli.standings", "The standings of a tournament folder."),
        "logs": ("cli.logs", "Manage the match logs: delete old matches (logs prune)."),
        "new": ("cli.new",
                "Start a bot from a kit: a small, complete bot in the language of your choice."),
        "serve": ("cli.serve",
                  "Run a competition: submissions, quarantine, tournaments, a web site."),
        "team": ("cli.team", "Add, list and revoke the teams of a competition and their tokens."),
        "reveal": ("cli.reveal",
                   "Publish the seeds of a competition's finished tournaments, to be checked."),
        "submit": ("cli.submit", "Upload a bot folder to a competition; --wait for its verdict."),
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.LAZY])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.LAZY:
            module = importlib.import_module(f"pokerbots.server.{self.LAZY[name][0]}")
            return module.command()
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, self.commands[name].get_short_help_str(limit=300))
                for name in super().list_commands(ctx)]
        rows += [(name, help) for name, (_, help) in self.LAZY.items()]
        with formatter.section("Commands"):
            formatter.write_dl(sorted(rows))


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pokerbots")
def main() -> None:
    """Run matches between poker bots: programs in any language that play over stdin/stdout.

    The protocol is in protocol/PROTOCOL.md. Start with:

        pokerbots run bots/random_bot.py bots/call_bot.py bots/random_bot.py
    """


def console() -> None:
    """The ``pokerbots`` script: :func:`main`, except that a ``run`` that has finished leaves
    at once, without the interpreter's teardown. Freeing every module it loaded takes about
    30 ms, a tenth of what a short match costs besides its hands; by then the match's logs
    are closed, its bots ended and its output written, so there is nothing left to do."""
    try:
        main()
    except SystemExit as done:
        code = done.code
        if sys.argv[1:2] == ["run"] and (code is None or isinstance(code, int)):
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code or 0)
        raise



if __name__ == "__main__":
    main()

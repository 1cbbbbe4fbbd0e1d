"""``pokerbots certify BOT``: known cards and scripted opponents steer BOT into every rare case.

The command line of :mod:`pokerbots.server.play.certify`: it picks the games (``--game``, or
every game BOT passes a first hand of), plays each case one line each, prints each failure's
paragraph, the summary, and writes the JUnit report if asked.

Exit code: 0 every case passed or was not reached, 1 BOT broke a rule in at least one, 2 bad
command line, 3 the certification itself went wrong (a scripted opponent or the server failed:
a bug in pokerbots).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

import click

from pokerbots.server import games
from pokerbots.server.cli.options import report_options, timeout_options
from pokerbots.server.errors import Exit, ServerFault, reproduce_note
from pokerbots.server.play.certify import Skipped, cases_for, format_line, play_cases
from pokerbots.server.play.options import MatchSetupError, limits_from_options
from pokerbots.server.play.smoke import Result, not_reached, tally, write_junit
from pokerbots.server.seats.arguments import parse_bot
from pokerbots.server.seats.bots import BotSpecError


def command() -> click.Command:
    """The ``certify`` command, built when cli registers it."""
    params = [
        click.argument("bot", required=False),
        click.option("--game", "-g", "game", multiple=True, type=click.Choice(games.names()),
                     help="A game to certify (repeat for several) [default: every game BOT"
                          " passes a first hand of]."),
        click.option("--case", "-k", "only", multiple=True, metavar="NAME",
                     help="Play only the cases of this name (repeat for several; 'pokerbots"
                          " certify --list' lists them)."),
        click.option("--list", "list_cases", is_flag=True,
                     help="List the cases of each game and exit."),
        report_options,
        timeout_options,
    ]
    func = certify
    for param in reversed(params):
        func = param(func)
    return click.command(
        name="certify",
        short_help="Certify a bot: known cards and scripted opponents, every rare case.")(func)


def certify(bot, game, only, list_cases, logs, junit_xml, reply_timeout, startup_timeout):
    """Certify that BOT plays every rare case by the rules.

    Each case is a short match with known cards and scripted opponents that steer play into
    one rare situation: heads-up and every table size, an odd chip, side pots, short all-ins,
    run-outs, a fold to the big blind, the limit cap, a rebuy, antes, per-seat stacks, the
    largest stacks, every init_round field, the end of the round while BOT waits. One line per
    case; a failure prints the server's error paragraph.

    Exit code: 0 all passed (or not reached: the bot's own play went around a case), 1 the bot
    broke a rule, 2 bad command line, 3 internal error.
    """
    chosen = list(dict.fromkeys(game)) or list(games.names())
    if list_cases:
        for name in chosen:
            click.echo(f"{name}: " + ", ".join(c.name for c in cases_for(name)))
        return
    if bot is None:
        raise click.UsageError("give the BOT to certify")
    known = {c.name for name in chosen for c in cases_for(name)}
    unknown = [k for k in only if k not in known]
    if unknown:
        raise click.BadParameter(f"no case is called {unknown[0]!r} in {', '.join(chosen)}"
                                 " (--list lists them)", param_hint="--case")
    try:
        spec = parse_bot(bot)
    except BotSpecError as exc:
        raise click.UsageError(str(exc)) from None
    limits = limits_from_options(startup_timeout=startup_timeout, reply_timeout=reply_timeout)
    temporary = logs is None
    if temporary:
        logs = Path(tempfile.mkdtemp(prefix="pokerbots-certify-"))
    click.echo(f"Certifying {spec.label} on {', '.join(chosen)}."
               + ("" if temporary else f" Logs: {logs}"))
    results: list[Result] = []
    skipped: list[str] = []
    started = time.perf_counter()
    try:
        for result in play_cases(spec, chosen, logs=logs, limits=limits, only=only,
                                 probe=not game):
            if isinstance(result, Skipped):
                skipped.append(result.game)
                click.echo(f"SKIP  {result.game:<12} the bot fails its first hand"
                           f" ({result.reason}); --game {result.game} certifies it anyway")
                continue
            results.append(result)
            click.echo(format_line(result))
            if not result.passed:
                click.echo("\n" + _indent(result.report) + "\n")
                click.echo(_indent(f"Reproduce: {result.command}\n{reproduce_note()}")
                           + "\n")
    except MatchSetupError as exc:
        raise click.UsageError(str(exc)) from None
    except ServerFault as exc:
        click.echo(exc.paragraph(), err=True)
        sys.exit(Exit.SERVER)
    except KeyboardInterrupt:
        click.echo(f"Interrupted. Logs: {logs}", err=True)
        sys.exit(Exit.INTERRUPTED)
    seconds = time.perf_counter() - started
    failed, errors, summary = tally(results, ("case", "cases"), seconds)
    if any(map(not_reached, results)):
        summary += " (the bot's own play went around their situation)"
    if skipped:
        summary += f"; not certified for {', '.join(skipped)}"
    click.echo(summary)
    if not results:
        click.echo(f"{spec.label} fails the first hand of every game: it is certified for none.")
    if junit_xml is not None:
        write_junit(results, junit_xml, spec.label, seconds, command="certify")
        click.echo(f"JUnit report: {junit_xml}")
    if temporary and results and not failed and not errors:
        shutil.rmtree(logs, ignore_errors=True)
    elif temporary:
        click.echo(f"Logs kept in {logs}")
    if errors:
        sys.exit(Exit.SERVER)
    sys.exit(Exit.FAULT if failed or not results else Exit.DONE)


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else line for line in text.splitlines())

"""``pokerbots smoke BOT``: short matches against random bots, made for CI.

The command line of :mod:`pokerbots.server.play.smoke`: it checks the options, plays the
planned matches with the library's loop (:class:`~pokerbots.server.play.smoke.SmokeRun`: a
game whose first matches all fail the same way at the start is given up), prints one line
each, each kind of failure's paragraph once, the summary and the game to try, and writes the
JUnit report if asked.

Exit code: 0 every match passed, 1 BOT broke a rule in at least one, 2 bad command line,
3 the smoke run itself went wrong (an opponent failed, which is a bug in pokerbots).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import click

from pokerbots.server import games
from pokerbots.server.cli.options import (
    game_options,
    parse_game_options,
    report_options,
    timeout_options,
)
from pokerbots.server.confine import sandbox
from pokerbots.server.errors import Exit, ServerFault, reproduce_note
from pokerbots.server.play.options import MatchSetupError, limits_from_options
from pokerbots.server.play.smoke import (
    EARLY_REPEATS,
    HANDS,
    ROUNDS,
    SEED,
    Result,
    SmokeRun,
    format_line,
    plan,
    suggest_games,
    write_junit,
)
from pokerbots.server.seats.arguments import parse_bot
from pokerbots.server.seats.bots import BotSpecError


def parse_players(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        values = sorted({int(v) for v in text.replace(" ", "").split(",") if v})
    except ValueError:
        raise click.BadParameter(f"{text!r}: give table sizes as numbers, e.g. 2,3",
                                 param_hint="--players") from None
    if not values:
        raise click.BadParameter("give at least one table size, e.g. 2,3", param_hint="--players")
    return values


def smoke_options(func):
    options = [
        click.argument("bot"),
        click.option("--players", "-p", metavar="N,N,...", default=None,
                     help="Table sizes to play [default: 2,3,6, capped to what the game allows]."),
        click.option("--rounds", "-r", type=click.IntRange(min=1), default=ROUNDS,
                     show_default=True,
                     help="Rounds (different seeds) for each table size and seat."),
        click.option("--hands", "-n", type=click.IntRange(min=1), default=HANDS,
                     show_default=True, help="Hands in each round."),
        click.option("--seed", type=int, default=SEED, show_default=True,
                     help="Seed of the first round; the others count up from it."),
        report_options,
        timeout_options,
        click.option("--exitfirst", "-x", is_flag=True, help="Stop at the first failure."),
        click.option("--opponent", default=None, metavar="BOT",
                     help="Play against this bot instead of the built-in random bot."),
    ]
    func = game_options(allow_all=True)(func)
    for option in reversed(options):
        func = option(func)
    return func


def command() -> click.Command:
    """The ``smoke`` command, built when cli registers it."""
    return click.command(
        name="smoke", short_help="Test a bot against random bots in short matches (for CI).")(
        smoke_options(smoke))


def smoke(bot, game, game_texts, players, rounds, hands, seed, logs, junit_xml, reply_timeout,
          startup_timeout, exitfirst, opponent):
    """Check that BOT plays by the rules: short matches against random bots.

    BOT takes every seat at tables of 2, 3 and 6 players (as the game allows), for a few
    rounds of 30 hands with fixed seeds. One line per match; a failure prints the server's
    error and the path of the bot's transcript, which `./mybot < seatN.in` replays.

    Exit code: 0 all passed, 1 the bot broke a rule, 2 bad command line, 3 internal error.
    """
    try:
        spec = parse_bot(bot)
    except BotSpecError as exc:
        raise click.UsageError(str(exc)) from None
    names = list(games.names()) if game == "all" else [game]
    sizes = parse_players(players)
    texts = {}
    for name in names:
        # Each game takes the options that apply to it; with --game all the others are left out.
        options = parse_game_options(name, game_texts, lenient=game == "all")
        texts[name] = {flag: text for flag, text in game_texts.items()
                       if any(o.flag == flag for o in games.get(name).options)}
        if options:
            try:
                games.make_game(name, games.get(name).min_players, **options)
            except ValueError as exc:
                raise click.UsageError(str(exc)) from None
        if sizes:
            gt = games.get(name)
            bad = [n for n in sizes if not gt.min_players <= n <= gt.max_players]
            if bad:
                raise click.BadParameter(
                    f"{name} is played by {gt.min_players} to {gt.max_players} players,"
                    f" not {', '.join(map(str, bad))}", param_hint="--players")
    if opponent is not None:
        try:
            parse_bot(opponent)
        except BotSpecError as exc:
            raise click.UsageError(str(exc)) from None
    cases = plan(names, sizes, rounds, seed)
    limits = limits_from_options(startup_timeout=startup_timeout, reply_timeout=reply_timeout)
    sys.exit(run_all(cases, spec, hands=hands, logs=logs, limits=limits, texts=texts,
                     opponent=opponent, junit_xml=junit_xml, exitfirst=exitfirst,
                     game_texts=game_texts))


def run_all(cases, spec, *, hands, logs, limits, texts, opponent, junit_xml, exitfirst,
            game_texts=None) -> int:
    """Play ``cases`` (the library's :class:`~pokerbots.server.play.smoke.SmokeRun`) and
    print each match's line, each kind of failure once, the summary and the games to try;
    the exit code."""
    temporary = logs is None
    if temporary:
        logs = Path(tempfile.mkdtemp(prefix="pokerbots-smoke-"))
    tty = sys.stdout.isatty()
    click.echo(f"Smoke-testing {spec.label}: {len(cases)} matches of {hands} hands"
               f" against random bots." + ("" if temporary else f" Logs: {logs}"))
    note = sandbox.note_once(limits.sandbox, limits.resources.processes)
    if note:
        click.echo(note, err=True)
    status = None
    if tty:
        from rich.console import Console

        status = Console(stderr=True).status("")
        status.start()
    run = SmokeRun(cases, spec, hands=hands, logs=logs, limits=limits, game_texts=texts,
                   opponent=opponent, exitfirst=exitfirst,
                   on_case=(lambda case: status.update(f"playing {case.name}"))
                   if status is not None else None)
    try:
        for step in run:
            result = step.result
            if status is not None:
                status.stop()
            click.echo(format_line(result))
            if not result.passed:
                if step.same_as is None:
                    click.echo("\n" + _indent(result.report) + "\n")
                    click.echo(_indent(f"Reproduce: {result.command}\n{reproduce_note()}")
                               + "\n")
                else:
                    click.echo(f"      (the same failure as {step.same_as.case.name}, above)")
            if step.gave_up:
                click.echo(f"      (the first {EARLY_REPEATS} {result.case.game} matches failed"
                           " the same way before their first hand was over: the others are"
                           " not played)")
            if status is not None:
                status.start()
    except MatchSetupError as exc:
        raise click.UsageError(str(exc)) from None
    except ServerFault as exc:
        click.echo(exc.paragraph(), err=True)
        return Exit.SERVER
    except KeyboardInterrupt:
        click.echo(f"Interrupted. Logs: {logs}", err=True)
        return Exit.INTERRUPTED
    finally:
        if status is not None:
            status.stop()
    results = run.results
    failed, errors, summary = run.summary()
    click.echo(summary)
    if len(run.first) > 0 and len(failed) + len(errors) > 1:
        click.echo(failure_kinds(results, run.first))
    for line in suggest_games(results, spec, hands=hands, logs=logs, limits=limits,
                              game_texts=game_texts or {}, opponent=opponent):
        click.echo(line)
    if junit_xml is not None:
        write_junit(results, junit_xml, spec.label, run.seconds)
        click.echo(f"JUnit report: {junit_xml}")
    if temporary and not failed and not errors:
        shutil.rmtree(logs, ignore_errors=True)
        click.echo("Every match passed: the temporary logs are deleted (--logs DIR keeps them).")
    elif temporary:
        click.echo(f"Logs kept in {logs}")
    if errors:
        return Exit.SERVER
    return Exit.FAULT if failed else Exit.DONE


def failure_kinds(results: list[Result], first: dict) -> str:
    """Each kind of failure (:attr:`Result.failure`) with how many matches failed so, and
    where it was first seen."""
    lines = [f"{len(first)} kind{'s' if len(first) > 1 else ''} of failure (the same message"
             " answered and the same reason, whatever the numbers in it):"]
    for key, seen in first.items():
        count = sum(r.failure == key for r in results if not r.passed)
        answered = f" (answering {seen.kind})" if seen.kind else ""
        last = f" (its stderr ended: {seen.last_words})" if seen.last_words else ""
        lines.append(f"  {count} x {seen.reason}{answered}{last}; first in {seen.case.name}")
    return "\n".join(lines)


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else line for line in text.splitlines())

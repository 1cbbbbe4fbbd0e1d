"""``pokerbots run BOT BOT ...``: one match, its results table or its fault paragraph.

The command is a thin shell over :func:`pokerbots.server.play.match.run_match`'s parts: it
parses the options into a :class:`~pokerbots.server.play.match.MatchConfig`, plays it, and
prints the results, the error paragraph (with the ``Reproduce:`` command) or the summary as
JSON; the exit code is the match's (:class:`~pokerbots.server.errors.Exit`).
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path

import click

from pokerbots.server.cli.options import (
    bot_limit_options,
    game_options,
    parse_game_options,
    timeout_options,
)
from pokerbots.server.errors import Exit, reproduce_note, stderr_section
from pokerbots.server.games.base import number_pair
from pokerbots.server.logs.writer import TRANSCRIPTS


def parse_fraction(text: str) -> tuple[int, int]:
    """``a/b`` (or ``a,b``: :func:`~pokerbots.server.games.base.number_pair`) with
    0 <= a <= b, b > 0."""
    try:
        num, den = number_pair(text, "it", "a/b", "1/1000")
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    if den <= 0 or not 0 <= num <= den:
        raise click.BadParameter(f"{text!r} is not a probability: need 0 <= a <= b and b > 0")
    return num, den


def parse_cpu(text: str) -> int | None:
    if text == "auto":
        from pokerbots.server.confine.cpus import auto_cpu

        return auto_cpu()
    if text == "none":
        return None
    if text.isdigit():
        from pokerbots.server.play.match import check_cpu
        from pokerbots.server.play.options import MatchSetupError

        try:
            check_cpu(int(text))
        except MatchSetupError as exc:
            raise click.BadParameter(str(exc), param_hint="--cpu") from None
        return int(text)
    raise click.BadParameter(f"{text!r}: give a CPU number, 'auto' or 'none'", param_hint="--cpu")


@click.command()
@click.argument("bots", nargs=-1, required=True)
@game_options()
@click.option("--hands", "-n", type=int, default=None,
              help="Play exactly this many hands (the bots are told EndProb: 0,1).")
@click.option("--end-prob", default="1/1000", show_default=True, metavar="A/B",
              help="Chance that the round ends after each hand.")
@click.option("--seed", type=int, default=None,
              help="Make deals, first button and round end reproducible (default: 128 random"
                   " bits, in the summary); a small one is guessable.")
@click.option("--cards", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Play known cards: one deal per line (see PROTOCOL.md).")
@click.option("--logs", type=click.Path(file_okay=False, path_type=Path), default=Path("logs"),
              show_default=True, help="Folder that receives one folder per match.")
@timeout_options
@bot_limit_options
@click.option("--cpu", default="auto", show_default=True,
              help="Pin the match (server and bots) to one CPU: a number, 'none', or 'auto':"
                   " a CPU no other match holds; a match alone tries one CPU and every CPU on"
                   " its first hands and keeps the faster.")
@click.option("--transcripts", type=click.Choice(TRANSCRIPTS), default="full",
              show_default=True,
              help="Keep each seat's transcript (seatN.in): always, only when the round does"
                   " not complete, or never. hands.jsonl is always complete.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--allow-remote-bots", is_flag=True,
              help="Let an http:// bot (a Lean Poker player) be on another host than this one.")
def run(bots, game, game_texts, hands, end_prob, seed, cards, logs, cpu, transcripts, as_json,
        allow_remote_bots, **limit_options):
    """Play one round between BOTS, each a program path or a quoted command line.

    A .py file runs under this Python. A BOT of - (or human) is you: that seat is this
    terminal, where you read the server's messages and type the replies. A BOT of
    http://HOST:PORT/ is a Lean Poker player (a web service you run); acpc:'COMMAND {game}
    {host} {port}' is an ACPC agent, started with a game file and the port to connect to. Two
    bots play heads-up; each game says how many it takes. Exit code: 0 completed, 1 a bot broke
    the rules, 2 bad command line, 3 the server could not go on.
    """
    from pokerbots.server.confine import sandbox

    if not limit_options["sandbox"]:
        sandbox.start_probing()  # the namespace is made while the rest of pokerbots loads
    from pokerbots.server import games
    from pokerbots.server.play.match import MatchConfig
    from pokerbots.server.play.options import limits_from_options
    from pokerbots.server.seats import relays as adapters
    from pokerbots.server.seats.arguments import parse_seats
    from pokerbots.server.seats.bots import BotSpecError

    options = parse_game_options(game, game_texts)
    remote = adapters.allow_remote.set(allow_remote_bots)
    try:
        specs = parse_seats(bots)
    except BotSpecError as exc:
        raise click.UsageError(str(exc)) from None
    finally:
        adapters.allow_remote.reset(remote)
    try:
        rules = games.make_game(game, len(specs), **options)
    except (TypeError, ValueError):
        rules = None  # the match's own checks say what is wrong
    if rules is not None:
        try:
            adapters.check_table(specs, rules, sandbox=limit_options["sandbox"])
        except BotSpecError as exc:
            raise click.UsageError(str(exc)) from None
    if hands is not None and hands < 1:
        raise click.BadParameter("must be at least 1", param_hint="--hands")
    config = MatchConfig(
        bots=specs, game=game, game_options=options, seed=seed, hands=hands,
        end_prob=parse_fraction(end_prob), cards=cards, logs=logs,
        limits=limits_from_options(**limit_options), cpu=parse_cpu(cpu),
        transcripts=transcripts,
    )
    sys.exit(play_and_report(config, as_json=as_json))


def reproduce(seed: int) -> str:
    """The command that was typed, with the seed that dealt (drawn when none was given)."""
    words = ["pokerbots", *sys.argv[1:]]
    if not any(w == "--seed" or w.startswith("--seed=") for w in words):
        words += ["--seed", str(seed)]
    return shlex.join(words)


def play_and_report(config, *, as_json: bool = False) -> int:
    """Play the match ``config`` (a MatchConfig), print the result or the error; return the
    exit code."""
    from pokerbots.server.confine import sandbox
    from pokerbots.server.errors import ServerFault
    from pokerbots.server.logs.folder import MatchFolder
    from pokerbots.server.play.match import prepare, run_prepared
    from pokerbots.server.play.options import MatchSetupError

    human = any(b.person for b in config.bots)  # a person on this terminal: no progress line
    progress = _Progress(config) if (sys.stdout.isatty() and not as_json and not human) else None
    try:
        match = prepare(config, on_hand=progress.update if progress else None)
    except MatchSetupError as exc:
        raise click.UsageError(str(exc)) from None
    except ServerFault as exc:
        click.echo(exc.paragraph(), err=True)
        return Exit.SERVER
    note = sandbox.note_once(config.limits.sandbox, config.limits.resources.processes)
    if note:
        click.echo(note, err=True)
    try:
        if progress:
            with progress:
                outcome = run_prepared(match)
        else:
            outcome = run_prepared(match)
    except KeyboardInterrupt:
        click.echo(f"Interrupted. Logs: {match.log.path}", err=True)
        return Exit.INTERRUPTED
    if outcome.interrupted:
        click.echo(f"Interrupted by {outcome.interrupted}. Logs: {match.log.path}", err=True)
        return Exit.TERMINATED
    if outcome.failure is not None:
        click.echo(outcome.failure.paragraph(logs=str(match.log.path), hands=match.log.written),
                   err=True)
        return Exit.SERVER
    if outcome.left is not None:
        left = outcome.left
        where = "before the first hand" if left.hand is None else f"in hand {left.hand}"
        hands = f"{outcome.hands} complete hand{'' if outcome.hands == 1 else 's'}"
        click.echo(f"Seat {left.seat} ({left.bot}) left the table {where}, after {hands}.",
                   err=True)  # the results and the Logs line follow
    folder = MatchFolder(match.log.path)
    summary = folder.summary()
    summary["logs"] = str(match.log.path)
    summary["seconds"] = round(outcome.seconds, 3)
    summary["bot_seconds"] = [round(t, 3) for t in outcome.time_used]
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    elif outcome.fault is None:
        _print_results(config, outcome, match.log.path)
    if outcome.fault is not None:
        fault = outcome.fault
        text = fault.paragraph(logs=str(match.log.path))
        excerpt = stderr_section(folder.stderr_excerpt(fault.seat))
        if excerpt:
            text += "\n" + excerpt
        text += f"\nReproduce: {reproduce(match.seed)}\n{reproduce_note(human)}"
        click.echo(text, err=True)
        return Exit.FAULT
    return Exit.DONE


def _print_results(config, outcome, path: Path) -> None:
    from rich.console import Console
    from rich.table import Table

    hands = outcome.hands
    grid = Table(title=results_title(config.game, hands, outcome.seconds))
    grid.add_column("Seat", justify="right")
    grid.add_column("Bot")
    grid.add_column("Bankroll", justify="right")
    grid.add_column("Per hand", justify="right")
    grid.add_column("Time used", justify="right")
    for seat, (spec, money) in enumerate(zip(config.bots, outcome.bankrolls)):
        used = outcome.time_used[seat] if seat < len(outcome.time_used) else 0.0
        grid.add_row(str(seat), spec.label, f"{money:+d}", f"{money / max(hands, 1):+.3f}",
                      f"{used:.2f} s")
    Console().print(grid)
    click.echo(f"Logs: {path}")  # unwrapped, so it can be copied whatever the terminal width


def results_title(game: str, hands: int, seconds: float) -> str:
    """``kuhn: 1 hand in 2.50 s (0.4 hands/s)``: the title of a match's results."""
    played = f"{game}: {hands:,} hand{'' if hands == 1 else 's'}"
    if not seconds:
        return played
    rate = hands / seconds
    figure = f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}"
    return f"{played} in {seconds:.2f} s ({figure} hands/s)"


class _Progress:
    """A live line on a terminal: hands played, hands per second, bankrolls."""

    def __init__(self, config) -> None:
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self._progress = Progress(SpinnerColumn(), TextColumn("{task.description}"),
                                  TimeElapsedColumn(), transient=True)
        self._task = self._progress.add_task("starting bots", total=config.hands)
        self._labels = [b.label for b in config.bots]
        self._started = time.monotonic()
        self._next = 0.0

    def __enter__(self):
        self._progress.__enter__()
        return self

    def __exit__(self, *exc):
        return self._progress.__exit__(*exc)

    def update(self, record: dict) -> None:
        now = time.monotonic()
        if now < self._next:
            return
        self._next = now + 0.1
        hands = record["hand"] + 1
        rate = hands / max(now - self._started, 1e-9)
        money = "  ".join(f"{m:+d}" for m in record["bankrolls"])
        self._progress.update(self._task, completed=hands,
                              description=f"hand {hands:,}  {rate:,.0f} hands/s  bankrolls {money}")


def command() -> click.Command:
    return run

"""The ``pokerbots`` command line."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from . import __version__
from .bots import BotSpecError
from .games import GAME_NAMES
from .human import explain, is_human, parse_seats
from .limits import ResourceLimits
from .match import MatchConfig, MatchSetupError, pick_cpu, prepare, run_prepared
from .runner import Limits, stderr_tail

#: Exit codes: 0 the match completed, 1 a bot broke the rules, 2 the command was wrong,
#: 130 interrupted by Ctrl-C.
EXIT_FAULT = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
#: SIGTERM: the bots are ended and the logs written, as for Ctrl-C.
EXIT_TERMINATED = 143


def parse_fraction(text: str) -> tuple[int, int]:
    """``a/b`` (or ``a,b``) with 0 <= a <= b, b > 0."""
    for sep in "/,":
        if sep in text:
            a, _, b = text.partition(sep)
            break
    else:
        raise click.BadParameter(f"{text!r} is not a fraction: write it as a/b, e.g. 1/1000")
    try:
        num, den = int(a), int(b)
    except ValueError:
        raise click.BadParameter(
            f"{text!r}: both parts must be whole numbers, e.g. 1/1000") from None
    if den <= 0 or not 0 <= num <= den:
        raise click.BadParameter(f"{text!r} is not a probability: need 0 <= a <= b and b > 0")
    return num, den


def parse_pair(text: str, what: str) -> tuple[int, int]:
    parts = text.replace(",", "/").split("/")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise click.BadParameter(f"{text!r}: write the {what} as two whole numbers, e.g. 5/10")
    return int(parts[0]), int(parts[1])


def parse_cpu(text: str) -> int | None:
    if text == "auto":
        return pick_cpu()
    if text == "none":
        return None
    if text.isdigit():
        return int(text)
    raise click.BadParameter(f"{text!r}: give a CPU number, 'auto' or 'none'")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pokerbots")
def main() -> None:
    """Run matches between poker bots: programs in any language that play over stdin/stdout.

    The protocol is in protocol/PROTOCOL.md. Start with:

        pokerbots run bots/random_bot.py bots/call_bot.py bots/random_bot.py
    """


def game_options(func):
    """The options that choose and shape the game, shared by every command that plays."""
    options = [
        click.option("--game", "-g", type=click.Choice(GAME_NAMES), default="kuhn",
                     show_default=True, help="The game to play."),
        click.option("--stack", type=click.IntRange(min=1), default=None,
                     help="Hold'em: chips each player starts a hand with"
                          " (default 200 big blinds)."),
        click.option("--blinds", default=None, metavar="SB/BB",
                     help="Hold'em: small and big blind (default 5/10)."),
        click.option("--bet-sizes", default=None, metavar="SMALL/BIG",
                     help="Limit Hold'em: small and big bet (default 10/20)."),
        click.option("--stacks", "stack_mode", type=click.Choice(["reset", "carry"]),
                     default="reset", show_default=True,
                     help="Hold'em: reset stacks every hand (Doyle's game) or carry them,"
                          " with REBUY."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def collect_game_options(game, stack, blinds, bet_sizes, stack_mode) -> dict:
    holdem_only = {"--stack": stack, "--blinds": blinds, "--bet-sizes": bet_sizes,
                   "--stacks carry": stack_mode == "carry" or None}
    if game == "kuhn":
        given = [name for name, value in holdem_only.items() if value is not None]
        if given:
            raise click.UsageError(f"{', '.join(given)} only apply to Hold'em (--game holdem-nl"
                                   " or holdem-limit); Kuhn has an ante of 1 and no stacks")
        return {}
    options: dict = {}
    if stack is not None:
        options["stack"] = stack
    if blinds is not None:
        options["small_blind"], options["big_blind"] = parse_pair(blinds, "blinds")
    if bet_sizes is not None:
        if game != "holdem-limit":
            raise click.UsageError("--bet-sizes applies to --game holdem-limit only")
        options["small_bet"], options["big_bet"] = parse_pair(bet_sizes, "bet sizes")
    if stack_mode == "carry":
        options["carry"] = True
    return options


def bot_limit_options(func):
    """Time bank, resource limits and the sandbox (see limits.py and sandbox.py)."""
    seconds = click.FloatRange(min=0)
    whole = click.IntRange(min=0)
    options = [
        click.option("--time-bank", type=seconds, default=30.0, show_default=True,
                     help="Seconds each bot may spend on all its replies in a round, besides"
                          " --time-per-hand; 0: no bank."),
        click.option("--time-per-hand", type=seconds, default=0.05, show_default=True,
                     help="Seconds added to each bot's time bank at every hand."),
        click.option("--max-memory", type=whole, default=2048, show_default=True,
                     metavar="MIB", help="Memory per bot (RLIMIT_DATA), in MiB; 0: no limit."),
        click.option("--max-cpu", type=whole, default=3600, show_default=True,
                     metavar="SECONDS", help="CPU time per bot for the round; 0: no limit."),
        click.option("--max-files", type=whole, default=256, show_default=True,
                     help="Open files per bot; 0: no limit."),
        click.option("--max-file-size", type=whole, default=100, show_default=True,
                     metavar="MIB", help="Largest file a bot may write, in MiB; 0: no limit."),
        click.option("--stderr-cap", type=whole, default=1024, show_default=True,
                     metavar="KIB", help="KiB of each bot's stderr kept in its log file."),
        click.option("--sandbox", is_flag=True,
                     help="Run every bot under bubblewrap: no network, read-only system,"
                          " own scratch folder and process namespace."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def make_limits(startup, reply, *, time_bank, time_per_hand, max_memory, max_cpu, max_files,
                max_file_size, stderr_cap, sandbox) -> Limits:
    return Limits(
        startup=startup, reply=reply, time_bank=time_bank or None, time_per_hand=time_per_hand,
        resources=ResourceLimits(memory_mib=max_memory, cpu_seconds=max_cpu,
                                 open_files=max_files, file_size_mib=max_file_size),
        sandbox=sandbox, stderr_cap=stderr_cap * 1024,
    )


@main.command()
@click.argument("bots", nargs=-1, required=True)
@game_options
@click.option("--hands", "-n", type=int, default=None,
              help="Play exactly this many hands (the bots are told EndProb: 0,1).")
@click.option("--end-prob", default="1/1000", show_default=True, metavar="A/B",
              help="Chance that the round ends after each hand.")
@click.option("--seed", type=int, default=None,
              help="Make deals, first button and round end reproducible.")
@click.option("--cards", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Play known cards: one deal per line (see PROTOCOL.md).")
@click.option("--logs", type=click.Path(file_okay=False, path_type=Path), default=Path("logs"),
              show_default=True, help="Folder that receives one folder per match.")
@click.option("--reply-timeout", type=click.FloatRange(min=0, min_open=True), default=5.0,
              show_default=True, help="Seconds a bot has for each reply.")
@click.option("--startup-timeout", type=click.FloatRange(min=0, min_open=True), default=10.0,
              show_default=True, help="Seconds a bot has to start and answer init_round.")
@bot_limit_options
@click.option("--cpu", default="auto", show_default=True,
              help="Pin the match (server and bots) to one CPU: a number, 'auto' or 'none'.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def run(bots, game, stack, blinds, bet_sizes, stack_mode, hands, end_prob, seed, cards, logs,
        reply_timeout, startup_timeout, cpu, as_json, **limit_options):
    """Play one round between BOTS, each a program path or a quoted command line.

    A .py file runs under this Python. A BOT of - (or human) is you: that seat is this
    terminal, where you read the server's messages and type the replies. Two bots play
    heads-up; Kuhn takes 2 to 6 bots and Hold'em 2 to 10. Exit code: 0 completed, 1 a bot
    broke the rules, 2 bad command line.
    """
    options = collect_game_options(game, stack, blinds, bet_sizes, stack_mode)
    try:
        specs = parse_seats(bots)
    except BotSpecError as exc:
        raise click.UsageError(str(exc)) from None
    if hands is not None and hands < 1:
        raise click.BadParameter("must be at least 1", param_hint="--hands")
    config = MatchConfig(
        bots=specs, game=game, game_options=options, seed=seed, hands=hands,
        end_prob=parse_fraction(end_prob), cards=cards, logs=logs,
        limits=make_limits(startup_timeout, reply_timeout, **limit_options), cpu=parse_cpu(cpu),
    )
    sys.exit(play_and_report(config, as_json=as_json))


def play_and_report(config: MatchConfig, *, as_json: bool = False) -> int:
    """Play ``config``, print the result or the error; return the exit code."""
    human = any(map(is_human, config.bots))  # a person plays on this terminal: no progress line
    progress = _Progress(config) if (sys.stdout.isatty() and not as_json and not human) else None
    try:
        match = prepare(config, on_hand=progress.update if progress else None)
    except MatchSetupError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        if progress:
            with progress:
                outcome = run_prepared(match)
        else:
            outcome = run_prepared(match)
    except KeyboardInterrupt:
        click.echo(f"Interrupted. Logs: {match.log.path}", err=True)
        return EXIT_INTERRUPTED
    if outcome.interrupted:
        click.echo(f"Interrupted by {outcome.interrupted}. Logs: {match.log.path}", err=True)
        return EXIT_TERMINATED
    summary = json.loads((match.log.path / "summary.json").read_text())
    summary["logs"] = str(match.log.path)
    summary["seconds"] = round(outcome.seconds, 3)
    summary["bot_seconds"] = [round(t, 3) for t in outcome.time_used]
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    elif outcome.fault is None:
        _print_table(config, outcome, match.log.path)
    if outcome.fault is not None:
        fault = outcome.fault
        if is_human(config.bots[fault.seat]):
            fault.reason = explain(fault.reason)
        text = fault.paragraph(logs=str(match.log.path))
        tail = stderr_tail(match.log.stderr_path(fault.seat))
        if tail:
            text += "\nLast lines of its stderr:\n" + "\n".join(
                "    " + t for t in tail.splitlines())
        click.echo(text, err=True)
        return EXIT_FAULT
    return 0


def _print_table(config: MatchConfig, outcome, path: Path) -> None:
    from rich.console import Console
    from rich.table import Table

    hands = outcome.hands
    table = Table(title=f"{config.game}: {hands} hands in {outcome.seconds:.2f} s"
                        f" ({hands / outcome.seconds:,.0f} hands/s)" if outcome.seconds else None)
    table.add_column("Seat", justify="right")
    table.add_column("Bot")
    table.add_column("Bankroll", justify="right")
    table.add_column("Per hand", justify="right")
    table.add_column("Time used", justify="right")
    for seat, (spec, money) in enumerate(zip(config.bots, outcome.bankrolls)):
        used = outcome.time_used[seat] if seat < len(outcome.time_used) else 0.0
        table.add_row(str(seat), spec.label, f"{money:+d}", f"{money / max(hands, 1):+.3f}",
                      f"{used:.2f} s")
    Console().print(table)
    click.echo(f"Logs: {path}")  # unwrapped, so it can be copied whatever the terminal width


class _Progress:
    """A live line on a terminal: hands played, hands per second, bankrolls."""

    def __init__(self, config: MatchConfig) -> None:
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


# Subcommands that live in their own modules (registered last: they use the options above).
from . import deal as _deal  # noqa: E402
from . import show as _show  # noqa: E402
from . import smoke as _smoke  # noqa: E402

for _module in (_smoke, _deal, _show):
    main.add_command(_module.command())


if __name__ == "__main__":
    main()

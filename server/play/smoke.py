"""``pokerbots smoke BOT``: short matches against random bots, made for CI.

BOT plays every seat position at tables of several sizes, a few short rounds each with
different (fixed) seeds, against the random bot that ships with the package
(:mod:`pokerbots.server.play.smoke_random`). One line per match; a failure prints the server's
whole error paragraph and the path of the failing seat's transcript (``seatN.in``), which
``./mybot < seatN.in`` replays without a server.

Exit code: 0 every match passed, 1 BOT broke a rule in at least one, 2 bad command line,
3 the smoke run itself went wrong (an opponent failed, which is a bug in pokerbots).
"""

from __future__ import annotations

import shlex
import shutil
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import click

from pokerbots.server import games
from pokerbots.server.cli.options import game_options, parse_game_options, texts_as_flags
from pokerbots.server.confine import sandbox
from pokerbots.server.errors import ServerFault
from pokerbots.server.play.match import MatchConfig, MatchSetupError, prepare, run_prepared
from pokerbots.server.seats.arguments import parse_bot
from pokerbots.server.seats.bots import BotSpec, BotSpecError
from pokerbots.server.seats.process import stderr_tail
from pokerbots.server.seats.runner import Limits

EXIT_FAULT = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3

#: Table sizes played by default (each capped to what the game allows).
DEFAULT_PLAYERS = (2, 3, 6)


@dataclass(frozen=True)
class Case:
    """One smoke match: BOT in ``seat`` of a ``players``-seat table of ``game``."""

    game: str
    players: int
    seat: int
    seed: int

    @property
    def name(self) -> str:
        return f"{self.game} {self.players}p seat {self.seat} seed {self.seed}"


@dataclass
class Result:
    case: Case
    passed: bool
    seconds: float = 0.0
    hands: int = 0
    bankroll: int = 0
    logs: Path | None = None
    #: Why it failed: the fault paragraph (with transcript path and stderr tail).
    report: str = ""
    reason: str = ""
    #: True when an opponent or the server failed rather than BOT.
    internal: bool = False
    command: str = ""
    #: The hand in which the bot failed (None: before the first).
    hand: int | None = None
    #: The last line of the failing bot's stderr: with ``reason``, tells failures apart.
    last_words: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def failure(self) -> tuple[str, str]:
        """What makes two failures the same one: the reason and the last line of stderr."""
        return self.reason, self.last_words


def plan(names: list[str], players: list[int] | None, rounds: int, seed: int) -> list[Case]:
    """Every case: each game, each table size it allows, each seat, ``rounds`` seeds."""
    cases = []
    number = 0
    for name in names:
        game = games.get(name)
        sizes = players or [p for p in DEFAULT_PLAYERS
                            if game.min_players <= p <= game.max_players]
        for n in sizes:
            for seat in range(n):
                for _ in range(rounds):
                    cases.append(Case(name, n, seat, seed + number))
                    number += 1
    return cases


def opponent_spec(seed: int, command: str | None) -> BotSpec:
    if command is not None:
        spec = parse_bot(command)
        return BotSpec(spec.label, spec.argv)
    argv = (sys.executable, "-m", "pokerbots.server.play.smoke_random", "--seed", str(seed))
    return BotSpec("random", argv)


def run_case(case: Case, bot: BotSpec, *, hands: int, logs: Path, limits: Limits,
             game_texts: dict[str, str] | None = None, opponent: str | None = None) -> Result:
    """Play one smoke match and judge it (``game_texts``: the game's flags as typed)."""
    texts = game_texts or {}
    specs = [
        bot if s == case.seat else opponent_spec(case.seed * 16 + s, opponent)
        for s in range(case.players)
    ]
    config = MatchConfig(bots=specs, game=case.game,
                         game_options=parse_game_options(case.game, texts), seed=case.seed,
                         hands=hands, logs=logs, limits=limits, cpu=None)
    result = Result(case, passed=False, command=_reproduce(case, specs, hands, texts))
    started = time.perf_counter()
    match = prepare(config)
    result.logs = match.log.path
    outcome = run_prepared(match)
    result.seconds = time.perf_counter() - started
    if outcome.failure is not None:  # the server's own failure, not the bot's: say so loudly
        result.internal = True
        result.reason = "the server could not go on"
        result.report = outcome.failure.paragraph(logs=str(match.log.path),
                                                   hands=match.log.written)
        return result
    result.hands = outcome.hands
    result.bankroll = outcome.bankrolls[case.seat] if outcome.bankrolls else 0
    fault = outcome.fault
    if fault is None:
        result.passed = True
        return result
    result.internal = fault.seat != case.seat
    result.reason = fault.reason
    result.hand = fault.hand
    text = fault.paragraph(logs=str(match.log.path))
    text += f"\nTranscript of seat {fault.seat}: {match.log.path / f'seat{fault.seat}.in'}"
    text += f"\nIts stderr: {match.log.stderr_path(fault.seat)}"
    tail = stderr_tail(match.log.stderr_path(fault.seat))
    result.last_words = tail.splitlines()[-1].strip() if tail else ""
    if tail:
        text += "\nLast lines of its stderr:\n" + "\n".join("    " + t for t in tail.splitlines())
    if result.internal:
        text = ("The random opponent failed, not the bot under test: this is a bug in"
                " pokerbots.\n" + text)
    result.report = text
    return result


def _reproduce(case: Case, specs: list[BotSpec], hands: int, texts: dict[str, str]) -> str:
    bots = [s.label if s.label != "random" else shlex.join(s.argv) for s in specs]
    words = " ".join(shlex.quote(b) for b in bots)
    extra = f" --game {case.game}" if case.game != games.DEFAULT else ""
    extra += texts_as_flags(texts)
    return f"pokerbots run {words}{extra} --hands {hands} --seed {case.seed}"


def format_line(result: Result) -> str:
    case = result.case
    head = f"{case.game:<12} {case.players}p  seat {case.seat}  seed {case.seed:<4}"
    if result.passed:
        return (f"PASS  {head}  {result.hands:>4} hands  bankroll {result.bankroll:+6d}"
                f"  {result.seconds:5.2f} s")
    word = "ERROR" if result.internal else "FAIL"
    return f"{word:<5} {head}  {result.reason}"


def write_junit(results: list[Result], path: Path, bot_label: str, seconds: float) -> None:
    """A JUnit XML report: one test suite per game, one test case per match."""
    root = ET.Element("testsuites", name=f"pokerbots smoke {bot_label}",
                      tests=str(len(results)),
                      failures=str(sum(not r.passed and not r.internal for r in results)),
                      errors=str(sum(r.internal for r in results)), time=f"{seconds:.3f}")
    games: dict[str, list[Result]] = {}
    for r in results:
        games.setdefault(r.case.game, []).append(r)
    for game, group in games.items():
        suite = ET.SubElement(
            root, "testsuite", name=f"smoke {game}", tests=str(len(group)),
            failures=str(sum(not r.passed and not r.internal for r in group)),
            errors=str(sum(r.internal for r in group)),
            time=f"{sum(r.seconds for r in group):.3f}",
        )
        for r in group:
            c = r.case
            case = ET.SubElement(suite, "testcase", classname=f"smoke.{c.game}.{c.players}p",
                                 name=f"seat {c.seat} seed {c.seed}", time=f"{r.seconds:.3f}")
            if not r.passed:
                tag = "error" if r.internal else "failure"
                node = ET.SubElement(case, tag, message=r.reason,
                                     type="InternalError" if r.internal else "BotFault")
                node.text = r.report
            out = ET.SubElement(case, "system-out")
            out.text = f"Logs: {r.logs}\nReproduce: {r.command}\n"
    tree = ET.ElementTree(root)
    ET.indent(tree)
    path.parent.mkdir(parents=True, exist_ok=True)
    tree.write(path, encoding="utf-8", xml_declaration=True)


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
        click.option("--rounds", "-r", type=click.IntRange(min=1), default=2, show_default=True,
                     help="Rounds (different seeds) for each table size and seat."),
        click.option("--hands", "-n", type=click.IntRange(min=1), default=30, show_default=True,
                     help="Hands in each round."),
        click.option("--seed", type=int, default=1, show_default=True,
                     help="Seed of the first round; the others count up from it."),
        click.option("--logs", type=click.Path(file_okay=False, path_type=Path), default=None,
                     help="Folder for the match logs [default: a new temporary folder]."),
        click.option("--junit-xml", type=click.Path(dir_okay=False, path_type=Path),
                     default=None, help="Also write a JUnit XML report to this file."),
        click.option("--reply-timeout", type=click.FloatRange(min=0, min_open=True), default=5.0,
                     show_default=True, help="Seconds the bot has for each reply."),
        click.option("--startup-timeout", type=click.FloatRange(min=0, min_open=True),
                     default=10.0, show_default=True,
                     help="Seconds the bot has to start and answer init_round."),
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
    limits = Limits(startup=startup_timeout, reply=reply_timeout)
    sys.exit(run_all(cases, spec, hands=hands, logs=logs, limits=limits, texts=texts,
                     opponent=opponent, junit_xml=junit_xml, exitfirst=exitfirst,
                     game_texts=game_texts))


def run_all(cases, spec, *, hands, logs, limits, texts, opponent, junit_xml, exitfirst,
            game_texts=None) -> int:
    temporary = logs is None
    if temporary:
        logs = Path(tempfile.mkdtemp(prefix="pokerbots-smoke-"))
    tty = sys.stdout.isatty()
    click.echo(f"Smoke-testing {spec.label}: {len(cases)} matches of {hands} hands"
               f" against random bots." + ("" if temporary else f" Logs: {logs}"))
    note = sandbox.note_once(limits.sandbox, limits.resources.processes)
    if note:
        click.echo(note, err=True)
    results: list[Result] = []
    first: dict[tuple[str, str], Result] = {}  # each distinct failure, where it was first seen
    started = time.perf_counter()
    status = None
    if tty:
        from rich.console import Console

        status = Console(stderr=True).status("")
        status.start()
    try:
        for case in cases:
            if status is not None:
                status.update(f"playing {case.name}")
            try:
                result = run_case(case, spec, hands=hands, logs=logs, limits=limits,
                                  game_texts=texts[case.game], opponent=opponent)
            except MatchSetupError as exc:
                raise click.UsageError(str(exc)) from None
            except ServerFault as exc:
                click.echo(exc.paragraph(), err=True)
                return EXIT_INTERNAL
            results.append(result)
            if status is not None:
                status.stop()
            click.echo(format_line(result))
            if not result.passed:
                seen = first.get(result.failure)
                if seen is None:
                    first[result.failure] = result
                    click.echo("\n" + _indent(result.report) + "\n")
                    click.echo(_indent(f"Reproduce: {result.command}") + "\n")
                else:
                    click.echo(f"      (the same failure as {seen.case.name}, above)")
            if status is not None:
                status.start()
            if exitfirst and not result.passed:
                break
    except KeyboardInterrupt:
        click.echo(f"Interrupted. Logs: {logs}", err=True)
        return 130
    finally:
        if status is not None:
            status.stop()
    seconds = time.perf_counter() - started
    failed = [r for r in results if not r.passed and not r.internal]
    errors = [r for r in results if r.internal]
    passed = len(results) - len(failed) - len(errors)
    summary = f"{len(results)} matches in {seconds:.1f} s: {passed} passed"
    if failed:
        summary += f", {len(failed)} failed"
    if errors:
        summary += f", {len(errors)} internal errors"
    if len(results) < len(cases):
        summary += f", {len(cases) - len(results)} not played (--exitfirst)"
    click.echo(summary)
    if len(first) > 0 and len(failed) + len(errors) > 1:
        click.echo(f"{len(first)} distinct failure{'s' if len(first) > 1 else ''}:")
        for key, seen in first.items():
            count = sum(r.failure == key for r in results if not r.passed)
            last = f" (its stderr ended: {seen.last_words})" if seen.last_words else ""
            click.echo(f"  {count} x {seen.reason}{last}; first in {seen.case.name}")
    for line in suggest_games(results, spec, hands=hands, logs=logs, limits=limits,
                              game_texts=game_texts or {}, opponent=opponent):
        click.echo(line)
    if junit_xml is not None:
        write_junit(results, junit_xml, spec.label, seconds)
        click.echo(f"JUnit report: {junit_xml}")
    if temporary and not failed and not errors:
        shutil.rmtree(logs, ignore_errors=True)
        click.echo("Every match passed: the temporary logs are deleted (--logs DIR keeps them).")
    elif temporary:
        click.echo(f"Logs kept in {logs}")
    if errors:
        return EXIT_INTERNAL
    return EXIT_FAULT if failed else 0


def suggest_games(results: list[Result], spec: BotSpec, **play) -> list[str]:
    """When every match of a game failed in its first hand, the bot probably plays another
    game: try it once in each game not played, and name those where it passes."""
    played = {r.case.game for r in results}
    lines = []
    for game in sorted(played):
        mine = [r for r in results if r.case.game == game]
        if not mine or any(r.passed or r.internal or r.hand not in (None, 0) for r in mine):
            continue
        passes = []
        for other in games.names():
            if other in played:
                continue
            kind = games.get(other)
            case = Case(other, max(2, kind.min_players), 0, 1)
            texts = {f: t for f, t in play["game_texts"].items()
                     if any(o.flag == f for o in kind.options)}
            try:
                trial = run_case(case, spec, hands=2, logs=play["logs"], limits=play["limits"],
                                 game_texts=texts, opponent=play["opponent"])
            except (MatchSetupError, ServerFault):
                continue
            if trial.passed:
                passes.append(other)
        if passes:
            names = " and ".join(passes)
            flags = " or ".join(f"--game {g}" for g in passes)
            lines.append(f"Every {game} match failed in its first hand, and {spec.label} passes a"
                         f" short match of {names}: it is probably written for"
                         f" {'that game' if len(passes) == 1 else 'one of those'}. Try {flags}.")
    return lines


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else line for line in text.splitlines())

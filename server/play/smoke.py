"""The smoke test: short matches against random bots, made for CI (``pokerbots smoke BOT``,
whose command is server/cli/smoke.py; the service's quarantine plays the same matches).

BOT plays every seat position at tables of several sizes, a few short rounds each with
different (fixed) seeds, against the random bot that ships with the package
(:mod:`pokerbots.server.play.smoke_random`). One line per match; a failure prints the server's
whole error paragraph and the path of the failing seat's transcript (``seatN.in``), which
``./mybot < seatN.in`` replays without a server.

This module plans the matches (:func:`plan`), plays and judges one (:func:`run_case`, a
:class:`Result`), plays a plan under the smoke test's policy (:class:`SmokeRun`, the one loop
of ``pokerbots smoke`` and of the service's quarantine: each kind of failure told once, a game
whose first matches all failed the same way at the start given up (:func:`same_early_failures`),
with ``exitfirst`` the first failure ends it), tells which game the bot plays instead
(:func:`suggest_games`), and writes the JUnit report (:func:`write_junit`).
"""

from __future__ import annotations

import re
import shlex
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pokerbots.server import games
from pokerbots.server.errors import ServerFault, printable, stderr_section
from pokerbots.server.logs.folder import MatchFolder
from pokerbots.server.play.match import MatchConfig, prepare, run_prepared
from pokerbots.server.play.options import MatchSetupError, game_options_from_texts, texts_as_flags
from pokerbots.server.seats.arguments import parse_bot
from pokerbots.server.seats.bots import BotSpec
from pokerbots.server.seats.limits import Limits

#: Table sizes played by default (each capped to what the game allows).
DEFAULT_PLAYERS = (2, 3, 6)
#: Rounds (seeds) per table size and seat, hands per round, and the first round's seed, unless
#: ``pokerbots smoke`` is told otherwise (the quarantine plays these).
ROUNDS = 2
HANDS = 30
SEED = 1
#: A number in a reason or a line of stderr (a time, an amount, a hand): two failures that
#: differ only in these are the same kind (a raise short by 10 in one match, by 1689 in another).
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
#: What the server adds to a time-out when the machine was busy (see confine/fairness.py): a
#: fact about the machine, not about the bot's failure.
_NOTE = re.compile(r" \(note: .*\)$")
#: How the random opponent is named in results and in Reproduce lines: a command a person can
#: type (a module of pokerbots runs under the server's own Python, see seats/bots.py).
OPPONENT = "python3 -m pokerbots.server.play.smoke_random"
#: A game's first matches that fail the same way before their first hand is over, after which
#: its other matches are not played (:func:`same_early_failures`): the bot cannot start it.
EARLY_REPEATS = 3


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

    @property
    def junit(self) -> tuple[str, str]:
        """The test's class (after the command's name) and name in a JUnit report."""
        return f"{self.game}.{self.players}p", f"seat {self.seat} seed {self.seed}"


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
    #: The kind of message the failing reply answered (``play``, ``end_action``...).
    kind: str | None = None
    extra: dict = field(default_factory=dict)

    @property
    def failure(self) -> tuple[str | None, str, str]:
        """What makes two failures the same kind: the message they answered, and the shape of
        the reason and of the last line of stderr, their numbers left out (a raise short of
        the 10 needed to call is the same bug as one short of 1689; a time-out taking
        10.01 s the same as one taking 10.00 s, with or without a note that the machine was
        busy)."""
        reason = _NUMBER.sub("#", _NOTE.sub("", self.reason))
        return self.kind, reason, _NUMBER.sub("#", self.last_words)


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


def opponent_spec(command: str | None) -> BotSpec:
    """The opponents' seat: ``command`` (``--opponent``), else the random opponent, whose
    random numbers come from the seed its seat is given (``POKERBOTS_SEED``)."""
    spec = parse_bot(command if command is not None else OPPONENT)
    return BotSpec(spec.label, spec.argv)


def run_case(case: Case, bot: BotSpec, *, hands: int, logs: Path, limits: Limits,
             game_texts: dict[str, str] | None = None, opponent: str | None = None) -> Result:
    """Play one smoke match and judge it (``game_texts``: the game's flags as typed).
    MatchSetupError when the options cannot make the match, ServerFault when the server
    cannot start it."""
    texts = game_texts or {}
    specs = [bot if s == case.seat else opponent_spec(opponent) for s in range(case.players)]
    config = MatchConfig(bots=specs, game=case.game,
                         game_options=game_options_from_texts(case.game, texts), seed=case.seed,
                         hands=hands, logs=logs, limits=limits, cpu=None)
    result = Result(case, passed=False, command=_reproduce(case, specs, hands, texts))
    return play_and_judge(config, case.seat, result)


def play_and_judge(config: MatchConfig, seat: int, result: Result, *,
                   opponents: str = "The random opponent") -> Result:
    """Play the match ``config`` and fill in ``result``: passed, or why the bot in ``seat``
    failed (a failure of another seat, named ``opponents``, or of the server is ``internal``).
    MatchSetupError when the options cannot make the match, ServerFault when the server
    cannot start it."""
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
    result.bankroll = outcome.bankrolls[seat] if outcome.bankrolls else 0
    fault = outcome.fault
    if fault is None:
        result.passed = True
        return result
    result.internal = fault.seat != seat
    result.reason = fault.reason
    result.hand = fault.hand
    result.kind = fault.kind
    folder = MatchFolder(match.log.path)
    text = fault.paragraph(logs=str(match.log.path))
    text += f"\nTranscript of seat {fault.seat}: {folder.transcript_path(fault.seat)}"
    text += f"\nIts stderr: {folder.stderr_path(fault.seat)}"
    excerpt = folder.stderr_excerpt(fault.seat)
    result.last_words = printable(excerpt[-1].strip()) if excerpt else ""
    if excerpt:
        text += "\n" + stderr_section(excerpt)
    if result.internal:
        text = (f"{opponents} failed, not the bot under test: this is a bug in"
                " pokerbots.\n" + text)
    result.report = text
    return result


def _reproduce(case: Case, specs: list[BotSpec], hands: int, texts: dict[str, str]) -> str:
    """The ``pokerbots run`` command that plays the match again: each bot as it was typed."""
    words = " ".join(shlex.quote(s.label) for s in specs)
    extra = f" --game {case.game}" if case.game != games.DEFAULT else ""
    extra += texts_as_flags(texts)
    return f"pokerbots run {words}{extra} --hands {hands} --seed {case.seed}"


@dataclass
class Step:
    """One match of a :class:`SmokeRun`, as it is played: its result, and what the run makes
    of it."""

    result: Result
    #: The result where the same kind of failure (:attr:`Result.failure`) was first seen; None
    #: when the match passed or failed in a new way.
    same_as: Result | None = None
    #: This failure gives the game up: its other matches are not played
    #: (:func:`same_early_failures`).
    gave_up: bool = False


class SmokeRun:
    """The smoke test of ``bot`` over the planned ``cases`` (:func:`plan`), under the smoke
    test's policy: the one loop of ``pokerbots smoke`` and of the service's quarantine.

    Iterating plays the cases in turn, yielding a :class:`Step` after each match: each kind of
    failure is told apart (:attr:`Step.same_as`); a game whose first matches all failed the
    same way before their first hand was over is given up (:attr:`given_up`: its other
    matches are counted, not played); with ``exitfirst`` the first failure (the bot's, or an
    internal error) ends the run. ``game_texts``: each game's flags as typed; ``on_case`` is
    told each case before it is played. MatchSetupError when a case cannot make a match,
    ServerFault when the server cannot start one.
    """

    def __init__(self, cases: list[Case], bot: BotSpec, *, hands: int, logs: Path,
                 limits: Limits, game_texts: Mapping[str, dict[str, str]] | None = None,
                 opponent: str | None = None, exitfirst: bool = False,
                 on_case: Callable[[Case], None] | None = None) -> None:
        self.cases = cases
        self.bot = bot
        self.hands = hands
        self.logs = logs
        self.limits = limits
        self.game_texts = game_texts or {}
        self.opponent = opponent
        self.exitfirst = exitfirst
        self.on_case = on_case
        #: Every match played, in order.
        self.results: list[Result] = []
        #: Each kind of failure, and where it was first seen.
        self.first: dict[tuple, Result] = {}
        #: The games given up, and how many of their matches were not played.
        self.given_up: dict[str, int] = {}
        #: Seconds the run took.
        self.seconds = 0.0

    def __iter__(self) -> Iterator[Step]:
        started = time.perf_counter()
        try:
            for case in self.cases:
                if case.game in self.given_up:
                    self.given_up[case.game] += 1
                    continue
                if self.on_case is not None:
                    self.on_case(case)
                result = run_case(case, self.bot, hands=self.hands, logs=self.logs,
                                  limits=self.limits,
                                  game_texts=self.game_texts.get(case.game),
                                  opponent=self.opponent)
                self.results.append(result)
                step = Step(result)
                if not result.passed:
                    seen = self.first.setdefault(result.failure, result)
                    step.same_as = None if seen is result else seen
                    if same_early_failures(self.results, case.game):
                        self.given_up[case.game] = 0
                        step.gave_up = True
                self.seconds = time.perf_counter() - started
                yield step
                if self.exitfirst and not result.passed:
                    break
        finally:
            self.seconds = time.perf_counter() - started

    @property
    def failure(self) -> Result | None:
        """The first match that did not pass (the bot's failure or an internal error)."""
        return next((r for r in self.results if not r.passed), None)

    @property
    def not_played(self) -> int:
        """Planned matches neither played nor given up (``exitfirst`` stopped the run)."""
        return len(self.cases) - len(self.results) - sum(self.given_up.values())

    def summary(self) -> tuple[list[Result], list[Result], str]:
        """The failed results (the bot's faults), the internal errors, and the run's summary
        line (:func:`tally`, with the matches not played and why)."""
        failed, errors, text = tally(self.results, ("match", "matches"), self.seconds)
        skipped = sum(self.given_up.values())
        if skipped:
            text += (f", {skipped} not played (the same failure at the start of "
                     + " and ".join(self.given_up) + ")")
        if self.not_played:
            text += f", {self.not_played} not played (--exitfirst)"
        return failed, errors, text


def format_line(result: Result) -> str:
    case = result.case
    head = f"{case.game:<12} {case.players}p  seat {case.seat}  seed {case.seed:<4}"
    if result.passed:
        return (f"PASS  {head}  {result.hands:>4} hands  bankroll {result.bankroll:+6d}"
                f"  {result.seconds:5.2f} s")
    word = "ERROR" if result.internal else "FAIL"
    return f"{word:<5} {head}  {result.reason}"


#: What a case that passed without its situation arising is (certify's ``Case.reach``).
NOT_REACHED = "not reached: the bot's own play went around it"


def not_reached(result: Result) -> bool:
    """Whether ``result`` broke no rule but its situation never arose (certify)."""
    return result.passed and result.extra.get("reached") is False


def tally(results: list[Result], nouns: tuple[str, str], seconds: float
          ) -> tuple[list, list, str]:
    """The failed results (BOT's faults), the internal errors, and the summary's words
    (``nouns``: singular and plural): ``'12 matches in 3.1 s: 11 passed, 1 failed'``; the
    cases not reached (:func:`not_reached`) are counted apart from the passed ones."""
    failed = [r for r in results if not r.passed and not r.internal]
    errors = [r for r in results if r.internal]
    around = sum(map(not_reached, results))
    passed = len(results) - len(failed) - len(errors) - around
    noun = nouns[len(results) != 1]
    summary = f"{len(results)} {noun} in {seconds:.1f} s: {passed} passed"
    if around:
        summary += f", {around} not reached"
    if failed:
        summary += f", {len(failed)} failed"
    if errors:
        summary += f", {len(errors)} internal errors"
    return failed, errors, summary


def write_junit(results: list[Result], path: Path, bot_label: str, seconds: float, *,
                command: str = "smoke") -> None:
    """A JUnit XML report of ``pokerbots COMMAND``: one test suite per game, one test case per
    match (named by its case's ``junit``)."""
    root = ET.Element("testsuites", name=f"pokerbots {command} {bot_label}",
                      tests=str(len(results)),
                      failures=str(sum(not r.passed and not r.internal for r in results)),
                      errors=str(sum(r.internal for r in results)),
                      skipped=str(sum(map(not_reached, results))), time=f"{seconds:.3f}")
    games: dict[str, list[Result]] = {}
    for r in results:
        games.setdefault(r.case.game, []).append(r)
    for game, group in games.items():
        suite = ET.SubElement(
            root, "testsuite", name=f"{command} {game}", tests=str(len(group)),
            failures=str(sum(not r.passed and not r.internal for r in group)),
            errors=str(sum(r.internal for r in group)),
            skipped=str(sum(map(not_reached, group))),
            time=f"{sum(r.seconds for r in group):.3f}",
        )
        for r in group:
            kind, name = r.case.junit
            case = ET.SubElement(suite, "testcase", classname=f"{command}.{kind}", name=name,
                                 time=f"{r.seconds:.3f}")
            if not_reached(r):
                ET.SubElement(case, "skipped", message=NOT_REACHED)
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


def same_early_failures(results: list[Result], game: str) -> bool:
    """Whether the matches of ``game`` played so far are :data:`EARLY_REPEATS` or more, and
    every one failed the same way, by the bot under test, before its first hand was over (the
    bot cannot play this game at all: its other matches would only repeat the failure, a
    time-out costing seconds each)."""
    mine = [r for r in results if r.case.game == game]
    return (len(mine) >= EARLY_REPEATS
            and all(not r.passed and not r.internal and r.hand in (None, 0) for r in mine)
            and len({r.failure for r in mine}) == 1)


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

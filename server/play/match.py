"""One match from start to finish: options checked, bots started, round played, logs written.

This is what ``pokerbots run`` (and everything else that plays a match) calls; the CLI only
adds presentation. The options it takes are read by :mod:`.options`.
"""

from __future__ import annotations

import dataclasses
import errno
import functools
import itertools
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import trio

from pokerbots.server import games, seeds
from pokerbots.server.confine import sandbox
from pokerbots.server.confine.cpus import Trial
from pokerbots.server.errors import ServerFault
from pokerbots.server.games.base import Deal, Game
from pokerbots.server.logs.writer import MatchLog, new_match_dir
from pokerbots.server.play.options import MatchSetupError
from pokerbots.server.referee.referee import Referee
from pokerbots.server.seats.bots import BotSpec
from pokerbots.server.seats.limits import Limits
from pokerbots.server.seats.runner import MatchOutcome, play


@dataclass
class MatchConfig:
    bots: list[BotSpec]
    game: str = games.DEFAULT
    #: The game's options, as keyword arguments of its ``make`` (see the game's module).
    game_options: dict = field(default_factory=dict)
    seed: int | None = None
    hands: int | None = None
    end_prob: tuple[int, int] = (1, 1000)
    cards: Path | None = None
    logs: Path = Path("logs")
    limits: Limits = field(default_factory=Limits)
    #: CPU to pin the server and its bots to; None leaves scheduling to the system; a
    #: :class:`~pokerbots.server.confine.cpus.Trial` measures which of the two is faster
    #: (``--cpu auto`` for a match alone on the machine).
    cpu: int | Trial | None = None
    #: Seat transcripts (seatN.in): "full" (kept), "failed" (kept when the round did not
    #: complete) or "none".
    transcripts: str = "full"
    #: ``deals(game, h)``: the cards of hand ``h`` (a tournament's duplicate deals); None: the
    #: seed deals. ``button``: the first hand's button; None: drawn from the seed.
    deals: Callable[[Game, int], Deal] | None = None
    button: int | None = None
    #: Create exactly this log folder (it must not exist) instead of a new one under ``logs``.
    folder: Path | None = None


@dataclass
class PreparedMatch:
    config: MatchConfig
    game: Game
    referee: Referee
    log: MatchLog
    #: The seed that deals: the one given, or one drawn at random (recorded in the summary).
    seed: int = 0
    #: Where the match runs is being measured (``--cpu auto``, alone on the machine).
    trial: Trial | None = None


def read_cards(path: Path, game: Game) -> tuple[int | None, list[Deal]]:
    """Parse a ``--cards`` file: an optional ``button: N`` line, then one deal per line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MatchSetupError(f"cannot read the cards file {path}: {exc}; give --cards a readable"
                              " text file (see PROTOCOL.md)") from None
    button = None
    deals = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.lower().startswith("button:"):
            if deals or button is not None:
                raise MatchSetupError(
                    f"{path}:{number}: 'button:' must come once, before the deals")
            value = line.split(":", 1)[1].strip()
            if not value.isdigit() or int(value) >= game.players:
                raise MatchSetupError(
                    f"{path}:{number}: the button must be a seat from 0 to {game.players - 1}"
                )
            button = int(value)
            continue
        try:
            deals.append(game.parse_deal(line))
        except ValueError as exc:
            raise MatchSetupError(f"{path}:{number}: {exc}") from None
    if not deals:
        raise MatchSetupError(f"the cards file {path} holds no deal")
    return button, deals


def prepare(config: MatchConfig, on_hand: Callable[[dict], None] | None = None) -> PreparedMatch:
    """Check every option and create the log folder; nothing is started yet."""
    try:
        game = games.make_game(config.game, len(config.bots), **config.game_options)
    except KeyError as exc:
        raise MatchSetupError(exc.args[0]) from None
    except (TypeError, ValueError) as exc:
        raise MatchSetupError(str(exc)) from None
    a, b = config.end_prob
    if not (0 <= a <= b and b > 0):
        raise MatchSetupError(f"the end probability {a}/{b} is not between 0 and 1")
    if config.hands is not None and config.hands < 1:
        raise MatchSetupError("--hands must be at least 1")
    if config.hands is None and a == 0:
        raise MatchSetupError("with an end probability of 0 the round never ends: give --hands")
    if config.limits.sandbox:
        try:
            sandbox.check()
        except sandbox.SandboxUnavailable as exc:
            raise MatchSetupError(str(exc)) from None
    trial = config.cpu if isinstance(config.cpu, Trial) else None
    if trial is not None and _person_at_table(config):
        trial = None  # a person at the table: the messages go out as the hand starts, spread
        config = dataclasses.replace(config, cpu=None)
    if config.cpu is not None:
        check_cpu(trial.cpu if trial is not None else config.cpu)
    button, deals = (config.button, None)
    if config.cards is not None:
        if config.deals is not None:
            raise MatchSetupError("give either cards or deals, not both")
        button, deals = read_cards(config.cards, game)
    elif config.deals is not None:
        if config.hands is None:
            raise MatchSetupError("a match dealt by a function needs a number of hands")
        deal = config.deals
        deals = (deal(game, h) for h in itertools.count())
    if button is not None and not 0 <= button < game.players:
        raise MatchSetupError(f"the button must be a seat from 0 to {game.players - 1}")
    # A seed is always drawn, so that any match can be replayed from its summary.
    seed = config.seed if config.seed is not None else seeds.draw()
    rng = random.Random(seed)
    hands = config.hands
    if deals is not None and hands is None:
        hands = len(deals)
    if config.cards is not None and hands > len(deals):
        raise MatchSetupError(
            f"the cards file {config.cards} holds {len(deals)} deals, fewer than the {hands}"
            f" hands asked for: add deals, or give --hands {len(deals)} (or leave --hands out)")
    try:
        if config.folder is not None:
            path = Path(config.folder)
            path.mkdir(parents=True)
        else:
            path = new_match_dir(config.logs, f"{config.game}-{len(config.bots)}p")
        log = MatchLog(path, [b.label for b in config.bots], game.structure.streets,
                       transcripts=config.transcripts, ante=game.structure.ante)
    except OSError as exc:
        where = config.folder or config.logs
        if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO):
            raise ServerFault(f"creating a log folder under {where}", exc.strerror,
                              str(where), "Free some space (pokerbots logs prune removes"
                              " old matches) or give --logs a folder on another disk.") from None
        raise MatchSetupError(f"cannot create a log folder under {where}: {exc}; give --logs"
                              " a folder you can write to") from None

    def record(hand: dict) -> None:
        if on_hand is not None:
            on_hand(hand)  # first: it may add to the record (a tournament's all-in equity)
        log.hand(hand)
        if trial is not None:
            pinned = trial.hand_over(referee.hands_played)
            if pinned is not None:
                referee.defer = pinned

    referee = Referee(game, rng, end_prob=config.end_prob, hands=hands, button=button,
                      deals=deals, on_hand=record, labels=[b.label for b in config.bots],
                      defer=_defer(config))
    return PreparedMatch(config, game, referee, log, seed, trial)


def run_prepared(match: PreparedMatch) -> MatchOutcome:
    """Play the match and write its summary; the log folder is complete when this returns."""
    config = match.config
    previous = os.sched_getaffinity(0)
    if isinstance(config.cpu, int):
        _pin(config.cpu)
    outcome: MatchOutcome | None = None
    try:
        outcome = trio.run(functools.partial(play, seed=match.seed), match.referee,
                           config.bots, match.log, config.limits)
    except Exception as exc:  # the server's own failure (play ends the bots): exit code 3
        referee = match.referee
        outcome = MatchOutcome(referee.hands_played, list(referee.bankrolls),
                               failure=match.log.failure(exc))
    finally:
        if config.cpu is not None:
            os.sched_setaffinity(0, previous)
        def failed(exc: ServerFault | None) -> None:
            if exc is not None and outcome is not None and outcome.failure is None:
                outcome.failure = exc

        try:
            match.log.flush()
        except ServerFault as exc:
            failed(exc)
        completed = describe(match, outcome)[0]["result"] == "completed"
        failed(match.log.close(completed=completed))
        summary, timing = describe(match, outcome)
        try:
            match.log.write_summary(summary, timing)
        except ServerFault as exc:
            failed(exc)
        if outcome is not None and outcome.failure is not None:
            match.log.repair()
    if outcome.interrupted == "SIGINT":
        raise KeyboardInterrupt  # the bots are ended and the logs complete
    return outcome


def run_match(config: MatchConfig, on_hand=None) -> tuple[MatchOutcome, Path]:
    """Prepare and play a match; returns the outcome and the log folder."""
    match = prepare(config, on_hand)
    return run_prepared(match), match.log.path


def describe(match: PreparedMatch, outcome: MatchOutcome | None) -> tuple[dict, dict]:
    """The summary (byte-identical between identical runs) and the timing figures."""
    config = match.config
    referee = match.referee
    if outcome is None or outcome.interrupted:
        result, error = "interrupted", None
    elif outcome.failure is not None:
        result, error = "server-error", None
    elif outcome.left is not None:
        result, error = "left", None
    elif outcome.fault is not None:
        result, error = "failed", outcome.fault.as_dict()
    else:
        result, error = "completed", None
    summary = {
        "result": result,
        "game": config.game,
        "game_options": config.game_options,
        "bots": [b.label for b in config.bots],
        "seed": match.seed,
        "seed_given": config.seed is not None,
        "first_button": referee.button,
        "end_prob": list(referee.end_prob),
        "hands_played": referee.hands_played,
        "bankrolls": list(referee.bankrolls),
        **referee.game.standing(),
        "error": error,
    }
    if outcome is not None and outcome.interrupted:
        summary["interrupted_by"] = outcome.interrupted
    if outcome is not None and outcome.failure is not None:
        summary["server_error"] = outcome.failure.as_dict()
    if outcome is not None and outcome.left is not None and result == "left":
        left = outcome.left
        summary["left"] = {"seat": left.seat, "bot": left.bot, "hand": left.hand}
    timing = {}
    if outcome is not None:
        timing = {
            "seconds": round(outcome.seconds, 6),
            "hands_per_second": (round(outcome.hands / outcome.seconds, 1)
                                 if outcome.seconds else None),
            "bot_seconds": [round(t, 6) for t in outcome.time_used],
        }
        if match.trial is not None:
            timing["placement"] = match.trial.as_dict()
    return summary, timing


def check_cpu(cpu: int) -> None:
    """MatchSetupError unless ``cpu`` is one this process may run on, naming those."""
    allowed = sorted(os.sched_getaffinity(0))
    if cpu not in allowed:
        raise MatchSetupError(f"there is no CPU {cpu} here: this machine lets pokerbots use"
                              f" {cpu_list(allowed)} (give one of those, 'auto' or 'none')")


def cpu_list(cpus: list[int]) -> str:
    """``[0, 1, 2, 5]`` -> ``'CPUs 0-2 and 5'``; ``[0]`` -> ``'CPU 0'``."""
    runs: list[list[int]] = []
    for cpu in cpus:
        if runs and cpu == runs[-1][-1] + 1:
            runs[-1].append(cpu)
        else:
            runs.append([cpu])
    parts = []
    for r in runs:
        parts += [f"{r[0]}-{r[-1]}"] if len(r) > 2 else [str(c) for c in r]
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return ("CPU " if len(cpus) == 1 else "CPUs ") + text


def _defer(config: MatchConfig) -> bool:
    """Whether a seat's init_hand and end-of-hand messages wait for its next turn (see
    :class:`~.referee.referee.Referee`). Yes when the match runs on one CPU: the bots could not read
    them side by side anyway, and each write saved is a wake-up saved (3-player Kuhn: five
    writes a hand become three). No on several CPUs, where the bots read them at the same
    time, nor with a person at the table (a seat with a reply limit of its own), who should see
    the cards when the hand starts."""
    if _person_at_table(config):
        return False
    if isinstance(config.cpu, Trial):
        return False  # until the trial pins the match
    return config.cpu is not None or len(os.sched_getaffinity(0)) == 1


def _person_at_table(config: MatchConfig) -> bool:
    """Whether a person plays a seat (:attr:`~pokerbots.server.seats.bots.BotSpec.person`)."""
    return any(bot.person for bot in config.bots)


def _pin(cpu: int) -> None:
    # Bots inherit the affinity. Server and bots take turns, so one CPU serves them all, and
    # waking a process on the same CPU is far cheaper here than waking one on another.
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError as exc:
        raise MatchSetupError(f"cannot pin the match to CPU {cpu}: {exc.strerror}") from None

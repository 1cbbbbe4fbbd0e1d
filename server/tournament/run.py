"""A tournament from start to finish, as a library: :class:`TournamentConfig` in, an
:class:`Ending` out, a :class:`~.director.TournamentError` when it cannot be played.

:func:`run_tournament` checks everything before any bot starts (a usage error on a bad
option, or on options that differ from those recorded in ``out``), creates or resumes the
store, plays the pending matches on a local pool or a Dask cluster, and writes
``standings.json`` and ``report.html`` from the store. Ctrl-C (KeyboardInterrupt) or SIGTERM
stop it cleanly: the running matches are put back, the standings so far written, and the same
config resumes.

``pokerbots tournament`` (server/cli/) parses its options into a config; the service runs the
config of each of its tournaments in a process of its own (:mod:`.service.jobs.tournaments`).
"""

from __future__ import annotations

import enum
import json
import os
import shutil
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from pokerbots.server import games, seeds
from pokerbots.server.play.options import (
    LIMIT_DEFAULTS,
    LIMIT_OPTIONS,
    MatchSetupError,
    game_options_from_texts,
    limits_as_dict,
    limits_from_options,
)
from pokerbots.server.seats.bots import BotSpecError
from pokerbots.server.tournament import plan, report, results_store, standings
from pokerbots.server.tournament.director import MATCHES, Director, TournamentError
from pokerbots.server.tournament.entrants import parse_entrants
from pokerbots.server.tournament.progress import PlainProgress, RichProgress
from pokerbots.server.tournament.results_store import StoreError
from pokerbots.server.tournament.text import standings_text

__all__ = ["FLAGS", "STANDINGS_FILE", "Ending", "TournamentConfig", "TournamentError",
           "check_game_fits", "check_rank_by", "config_from_options", "read_tournament",
           "run_tournament", "write_results"]

#: The command-line flag of each recorded option, for the message when a resume differs.
FLAGS = {"game": "--game", "game_options": "the game's options (--stack, --blinds...)",
         "players": "--players", "hands": "--hands", "rounds": "--rounds",
         "duplicate": "--duplicate", "max_faults": "--max-faults", "refine": "--refine",
         "refine_steps": "--refine-steps", "rank_by": "--rank-by", "adjust": "--no-adjust"}

#: What a store recorded before an option existed meant (a resume of it compares with this).
_RECORDED_DEFAULTS = {"rank_by": "raw", "adjust": True}

STANDINGS_FILE = "standings.json"

class Ending(enum.Enum):
    """How :func:`run_tournament` returned (named as the exit code each is:
    ``Exit[ending.name]``, see :class:`pokerbots.server.errors.Exit`)."""

    #: Every match played, the standings and the report written.
    DONE = "done"
    #: Ctrl-C: the same config resumes.
    INTERRUPTED = "interrupted"
    #: SIGTERM: the same config resumes.
    TERMINATED = "terminated"


@dataclass(frozen=True)
class TournamentConfig:
    """A tournament, as ``pokerbots tournament`` takes it (see its ``--help``)."""

    #: ``BOT`` or ``NAME=BOT`` arguments, as ``pokerbots run`` takes them.
    bots: tuple[str, ...]
    game: str = games.DEFAULT
    #: The game's options, as keyword arguments of its ``make``.
    game_options: dict = field(default_factory=dict)
    #: Table size K (None: the number of bots, capped at the game's maximum).
    players: int | None = None
    hands: int = 3000
    rounds: int = 1
    #: None: drawn (a new tournament) or the recorded one (a resume).
    seed: int | None = None
    duplicate: bool = False
    #: Matches at once on this machine (None: the CPUs this process may use).
    jobs: int | None = None
    #: The tournament folder (None: logs/tournament-DATE-TIME); the same folder resumes.
    out: Path | None = None
    #: A Dask scheduler's address: play on that cluster.
    scheduler: str | None = None
    max_faults: int = 3
    refine: int | None = None
    refine_steps: int = 5
    transcripts: str = "full"
    #: ``--rank-by``: the figure the ranking, the run-off and ``--refine`` use: ``raw``,
    #: ``allin`` (all-in adjusted) or ``luck`` (luck-adjusted).
    rank_by: str = "raw"
    #: Compute the all-in and luck-adjusted figures (``--no-adjust``: neither).
    adjust: bool = True
    #: The bot-limit options by keyword (see :data:`~pokerbots.server.play.options.LIMITS`);
    #: those left out take their defaults.
    limit_options: dict = field(default_factory=dict)

    @property
    def limit_flags(self) -> dict:
        """Every bot-limit option as its flag -> value, as the store records them."""
        given = {**LIMIT_DEFAULTS, **self.limit_options}
        return {"--" + name.replace("_", "-"): given[name] for name in LIMIT_OPTIONS}


def config_from_options(options: dict) -> TournamentConfig:
    """The config of ``pokerbots tournament``'s keyword arguments (the game's flags as typed in
    ``game_texts``, ``out`` a path or a string, the bot-limit options by name): what the
    command parses, and what the service records as a tournament's job."""
    options = dict(options)
    game = options.pop("game", games.DEFAULT)
    try:
        given = game_options_from_texts(game, options.pop("game_texts", {}) or {})
    except MatchSetupError as exc:
        raise TournamentError(str(exc), usage=True, option=exc.option) from None
    limit_options = {name: options.pop(name) for name in LIMIT_OPTIONS if name in options}
    out = options.pop("out", None)
    return TournamentConfig(bots=tuple(options.pop("bots")), game=game, game_options=given,
                            out=Path(out) if out is not None else None,
                            limit_options=limit_options, **options)


def default_out() -> Path:
    return Path("logs") / f"tournament-{time.strftime('%Y%m%d-%H%M%S')}"


def _say(text: str) -> None:
    print(text, flush=True)


def _warn(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run_tournament(config: TournamentConfig) -> Ending:
    """Play the tournament of ``config`` (or resume it), printing its progress and standings.
    TournamentError when it cannot be played (``usage``: nothing was started) or cannot go
    on."""
    try:
        entrants = parse_entrants(list(config.bots))
    except BotSpecError as exc:
        raise TournamentError(str(exc), usage=True) from None
    if len(entrants) < 2:
        raise TournamentError("a tournament needs at least 2 bots, and 1 is given", usage=True)
    kind = games.get(config.game)
    k = config.players if config.players is not None else min(len(entrants), kind.max_players)
    if k > len(entrants):
        raise TournamentError(f"{k} players need at least {k} bots, and {len(entrants)}"
                              " are given", usage=True, option="--players")
    check_game_fits(config.game, k, config.game_options, config.refine)
    check_rank_by(config.game, config.rank_by, config.adjust)
    limits = limits_from_options(**config.limit_options)
    options = {"game": config.game, "game_options": config.game_options, "players": k,
               "hands": config.hands, "rounds": config.rounds, "duplicate": config.duplicate,
               "max_faults": config.max_faults, "refine": config.refine,
               "refine_steps": config.refine_steps, "limits": config.limit_flags,
               "rank_by": config.rank_by, "adjust": config.adjust}
    out = config.out or default_out()
    seed = config.seed
    cluster = _open_cluster(config.scheduler) if config.scheduler is not None else None

    if results_store.exists(out):
        try:
            results = results_store.open_store(out)
        except StoreError as exc:
            raise TournamentError(str(exc)) from None
        seed = _check_resume(results, options, entrants, seed, out)
        resumed = True
    else:
        if out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise TournamentError(f"{out} exists and is not a tournament folder: give a new"
                                  " folder (or an empty one)", usage=True, option="--out")
        if seed is None:
            seed = seeds.draw()
        planned = plan.matches([e.name for e in entrants], k, rounds=config.rounds,
                               duplicate=config.duplicate, seed=seed)
        try:
            results = results_store.create(out, options, seed, entrants, planned)
        except StoreError as exc:
            raise TournamentError(str(exc)) from None
        resumed = False

    if cluster is not None:
        pool = cluster
    else:
        from pokerbots.server.confine import sandbox
        from pokerbots.server.tournament.pool import LocalPool

        # As `run` says it: how this machine confines the bots, once, before the first match
        # (a Dask worker's machine may differ, so only for matches played here).
        note = sandbox.note_once(limits.sandbox, limits.resources.processes)
        if note:
            _warn(note)
        pool = LocalPool(config.jobs or len(os.sched_getaffinity(0)), out / "workers.log")
    return _conduct(results, out, pool, limits_as_dict(limits), resumed=resumed,
                    transcripts=config.transcripts)


def check_game_fits(game: str, k: int, options_given: dict, refine: int | None) -> None:
    """A usage TournamentError unless ``game`` can be played at tables of ``k`` with these
    options (and ``--refine`` makes at least one table)."""
    try:
        games.make_game(game, k, **options_given)
    except ValueError as exc:
        raise TournamentError(str(exc), usage=True) from None
    if refine is not None and refine < k:
        raise TournamentError(f"the top T must make at least one table of {k}", usage=True,
                              option="--refine")


def check_rank_by(game: str, rank_by: str, adjust: bool) -> None:
    """A usage TournamentError unless the figure ``rank_by`` exists in this tournament:
    adjusted figures need the adjustments (not ``--no-adjust``), and the all-in adjusted one a
    game scored by all-in equity."""
    if rank_by not in standings.FIGURES:
        raise TournamentError(f"--rank-by {rank_by}: choose one of"
                              f" {', '.join(standings.FIGURES)}", usage=True,
                              option="--rank-by")
    if rank_by != "raw" and not adjust:
        raise TournamentError(f"{rank_by} is an adjusted figure, and --no-adjust turns the"
                              " adjustments off: give one or the other",
                              usage=True, option="--rank-by")
    if rank_by == "allin" and not games.get(game).allin_equity:
        raise TournamentError(f"{game} has no all-in adjusted figure (only the games scored"
                              " by all-in equity have one)", usage=True,
                              option="--rank-by")


def _differs(message: str) -> TournamentError:
    return TournamentError(message, usage=True)


def _check_resume(results, options: dict, entrants, seed: int | None, out: Path) -> int:
    """The recorded seed, after checking that this config is the one recorded in ``out``."""
    recorded = results.meta("options")
    for key, flag in FLAGS.items():
        then = recorded.get(key, _RECORDED_DEFAULTS.get(key))
        if then != options[key]:
            raise _differs(
                f"{flag} differs from the tournament in {out}: {_show(options[key])} here,"
                f" {_show(then)} there (give the same options to resume, or"
                " another --out)")
    for flag, value in options["limits"].items():
        if recorded["limits"].get(flag) != value:
            raise _differs(
                f"{flag} differs from the tournament in {out}: {_show(value)} here,"
                f" {_show(recorded['limits'].get(flag))} there (give the same options to"
                " resume, or another --out)")
    before = results.entrants()
    if [(e.name, e.arg) for e in before] != [(e.name, e.arg) for e in entrants]:
        raise _differs(
            f"the bots differ from the tournament in {out}:"
            f" {' '.join(e.name + '=' + e.arg for e in entrants)} here,"
            f" {' '.join(e.name + '=' + e.arg for e in before)} there")
    for old, new in zip(before, entrants):
        if old.sha256 != new.sha256:
            raise _differs(
                f"bot {new.name} ({new.program}) changed since the tournament in {out} started"
                f" (sha256 {old.sha256[:12]}… then, {new.sha256[:12]}… now): restore it, or"
                " start a new tournament with another --out")
    recorded_seed = results.meta("seed")
    if seed is not None and seed != recorded_seed:
        raise _differs(f"--seed differs from the tournament in {out}: {seed} here,"
                       f" {recorded_seed} there")
    return recorded_seed


def _show(value) -> str:
    return json.dumps(value)


def _open_cluster(scheduler: str):
    """The Dask pool, before anything is written: an unreachable cluster leaves no trace."""
    from pokerbots.server.tournament.cluster import ClusterPool, ClusterUnavailable

    try:
        return ClusterPool(scheduler)
    except ClusterUnavailable as exc:
        raise TournamentError(str(exc)) from None


def _conduct(results, out: Path, pool, limits: dict, *, resumed: bool,
             transcripts: str = "full") -> Ending:
    """Play the pending matches; write the standings and the report; how it ended."""
    stopped_by: list[int] = []

    def on_term(signum, frame):
        stopped_by.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, on_term)
    # Ctrl-C stops the tournament even where it started with SIGINT ignored (a background
    # job of a script, which the shell starts so), as it stops `pokerbots run`.
    previous_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        for row in results.reset_running():
            _remove_match_folder(out, row["log_dir"])
        counts = results.counts()
        names = [e.name for e in results.entrants()]
        head = (f"Tournament in {out}: {len(names)} bots, {sum(counts.values())} matches"
                f" ({counts['done'] + counts['failed']} played, {counts['skipped']} skipped"
                f"{', resumed' if resumed else ''}), seed {results.meta('seed')}")
        _say(head)
        live = sys.stdout.isatty()
        if live:
            progress = RichProgress(counts, names, lambda: standings.document(results))
        else:
            progress = PlainProgress(counts, names)
        director = Director(results, out, pool, progress, limits=limits,
                            transcripts=transcripts)
        ending = Ending.DONE
        failure: str | None = None
        try:
            with progress:
                director.run()
        except KeyboardInterrupt:
            ending = Ending.TERMINATED if stopped_by else Ending.INTERRUPTED
        except (TournamentError, StoreError) as exc:
            failure = f"the tournament cannot go on: {exc}"
        finally:
            pool.close()
        try:
            document = write_results(results, out)
        except (OSError, StoreError) as exc:
            unwritten = f"cannot write the standings in {out}: {exc}"
            # Both said, as they happened: the cli prints "Error: " before the message.
            raise TournamentError(unwritten if failure is None
                                  else f"{failure}\nError: {unwritten}") from None
        if failure is not None:
            raise TournamentError(failure)
        if ending is Ending.DONE:
            _say("")
            _say(standings_text(document))
            _say(f"\nStandings: {out / STANDINGS_FILE}\nReport: {out / report.FILE}")
        else:
            _warn(f"Interrupted. The same command resumes; results so far: {out}")
        return ending
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGINT, previous_int)
        results.close()


def _remove_match_folder(out: Path, log_dir: str | None) -> None:
    """An unfinished match's folder goes: the match is played again from scratch."""
    if not log_dir:
        return
    path = Path(log_dir)
    if path.is_dir() and (out / MATCHES).resolve() in path.resolve().parents:
        shutil.rmtree(path, ignore_errors=True)


def write_results(results, out: Path) -> dict:
    """``standings.json`` and ``report.html`` from the store (each written whole, then moved
    into place, so a reader never sees half a file)."""
    document = standings.document(results)
    _write(out / STANDINGS_FILE, json.dumps(document, indent=2) + "\n")
    _write(out / report.FILE, report.render(results, out, document))
    return document


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def read_tournament(folder: Path) -> tuple[dict, list[dict]]:
    """The standings and the matches of the tournament in ``folder`` (a usage
    TournamentError if there is none)."""
    if not folder.exists():
        raise TournamentError(f"{folder} does not exist: give a tournament's --out folder",
                              usage=True)
    try:
        results = results_store.open_store(folder)
    except StoreError as exc:
        raise TournamentError(str(exc), usage=True) from None
    try:
        return standings.document(results), results.matches()
    finally:
        results.close()

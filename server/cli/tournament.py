"""``pokerbots tournament`` and ``pokerbots standings``: the command line of tournaments.

``tournament`` checks everything before any bot starts (exit 2 on a bad command line, or on
options that differ from those recorded in ``--out``), creates or resumes the store, plays the
pending matches on a local pool or a Dask cluster, and writes ``standings.json`` and
``report.html`` from the store. Exit codes: 0 the tournament completed (bots breaking rules is
a result), 2 bad command line, 3 the tournament itself could not go on (disk, store, cluster),
130 Ctrl-C (143 SIGTERM), after which the same command resumes.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import sys
import time
from pathlib import Path

import click

from pokerbots.server import games
from pokerbots.server.cli.options import (
    bot_limit_options,
    game_options,
    make_limits,
    parse_game_options,
)
from pokerbots.server.logs.writer import TRANSCRIPTS
from pokerbots.server.seats.bots import BotSpecError
from pokerbots.server.tournament import plan, report, standings, store
from pokerbots.server.tournament.director import MATCHES, Director, TournamentError
from pokerbots.server.tournament.entrants import parse_entrants
from pokerbots.server.tournament.job import limits_as_dict
from pokerbots.server.tournament.progress import PlainProgress, RichProgress
from pokerbots.server.tournament.store import StoreError
from pokerbots.server.tournament.text import matches_text, standings_text

EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143

#: The command-line flag of each recorded option, for the message when a resume differs.
FLAGS = {"game": "--game", "game_options": "the game's options (--stack, --blinds...)",
         "players": "--players", "hands": "--hands", "rounds": "--rounds",
         "duplicate": "--duplicate", "max_faults": "--max-faults", "refine": "--refine",
         "refine_steps": "--refine-steps"}

STANDINGS_FILE = "standings.json"


class Internal(click.ClickException):
    """The tournament itself cannot go on (exit 3)."""

    exit_code = EXIT_INTERNAL

    def show(self, file=None) -> None:
        click.echo(f"Error: {self.message}", err=True)


def _default_out() -> Path:
    return Path("logs") / f"tournament-{time.strftime('%Y%m%d-%H%M%S')}"


def tournament(bots, game, game_texts, players, hands, rounds, seed, duplicate, jobs, out,
               scheduler, max_faults, refine, refine_steps, transcripts, reply_timeout,
               startup_timeout, **limit_options):
    """Play every table of K bots out of BOTS and rank them.

    BOT is as in `pokerbots run` (a program, a .py file or a quoted command line), optionally
    NAME=BOT. Every combination of --players bots plays --rounds deal sets; with --duplicate
    each deal set is played once per seating (2 players: both, 3: all six, more: the
    rotations) with the same cards per seat. Results go to --out (results.sqlite,
    standings.json, report.html, one folder per match); running the same command again with
    the same --out resumes. Exit code: 0 completed, 2 bad command line, 3 the tournament could
    not go on, 130 Ctrl-C.
    """
    options_given = parse_game_options(game, game_texts)
    try:
        entrants = parse_entrants(list(bots))
    except BotSpecError as exc:
        raise click.UsageError(str(exc)) from None
    kind = games.get(game)
    k = players if players is not None else min(len(entrants), kind.max_players)
    if k > len(entrants):
        raise click.BadParameter(f"{k} players need at least {k} bots, and {len(entrants)}"
                                 " are given", param_hint="--players")
    check_table(game, k, options_given, refine)
    limits = make_limits(startup_timeout, reply_timeout, **limit_options)
    limit_flags = {"--startup-timeout": startup_timeout, "--reply-timeout": reply_timeout,
                   **{"--" + key.replace("_", "-"): value for key, value in limit_options.items()}}
    options = {"game": game, "game_options": options_given, "players": k, "hands": hands,
               "rounds": rounds, "duplicate": duplicate, "max_faults": max_faults,
               "refine": refine, "refine_steps": refine_steps, "limits": limit_flags}
    out = out or _default_out()
    cluster = _open_cluster(scheduler) if scheduler is not None else None

    if store.exists(out):
        try:
            results = store.open_store(out)
        except StoreError as exc:
            raise Internal(str(exc)) from None
        seed = _check_resume(results, options, entrants, seed, out)
        resumed = True
    else:
        if out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise click.BadParameter(f"{out} exists and is not a tournament folder: give a new"
                                     " folder (or an empty one)", param_hint="--out")
        if seed is None:
            seed = secrets.randbelow(2 ** 31)
        planned = plan.matches([e.name for e in entrants], k, rounds=rounds,
                               duplicate=duplicate, seed=seed)
        try:
            results = store.create(out, options, seed, entrants, planned)
        except StoreError as exc:
            raise Internal(str(exc)) from None
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
            click.echo(note, err=True)
        pool = LocalPool(jobs or len(os.sched_getaffinity(0)), out / "workers.log")
    code = _conduct(results, out, pool, limits_as_dict(limits), resumed=resumed,
                    transcripts=transcripts)
    sys.exit(code)


def check_table(game: str, k: int, options_given: dict, refine: int | None) -> None:
    """A usage error unless ``game`` can be played at tables of ``k`` with these options."""
    try:
        games.make_game(game, k, **options_given)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if refine is not None and refine < k:
        raise click.BadParameter(f"the top T must make at least one table of {k}",
                                 param_hint="--refine")


def _check_resume(results, options: dict, entrants, seed: int | None, out: Path) -> int:
    """The recorded seed, after checking that this command is the one recorded in ``out``."""
    recorded = results.meta("options")
    for key, flag in FLAGS.items():
        if recorded.get(key) != options[key]:
            raise click.UsageError(
                f"{flag} differs from the tournament in {out}: {_show(options[key])} here,"
                f" {_show(recorded.get(key))} there (give the same options to resume, or"
                " another --out)")
    for flag, value in options["limits"].items():
        if recorded["limits"].get(flag) != value:
            raise click.UsageError(
                f"{flag} differs from the tournament in {out}: {_show(value)} here,"
                f" {_show(recorded['limits'].get(flag))} there (give the same options to"
                " resume, or another --out)")
    before = results.entrants()
    if [(e.name, e.arg) for e in before] != [(e.name, e.arg) for e in entrants]:
        raise click.UsageError(
            f"the bots differ from the tournament in {out}:"
            f" {' '.join(e.name + '=' + e.arg for e in entrants)} here,"
            f" {' '.join(e.name + '=' + e.arg for e in before)} there")
    for old, new in zip(before, entrants):
        if old.sha256 != new.sha256:
            raise click.UsageError(
                f"bot {new.name} ({new.program}) changed since the tournament in {out} started"
                f" (sha256 {old.sha256[:12]}… then, {new.sha256[:12]}… now): restore it, or"
                " start a new tournament with another --out")
    recorded_seed = results.meta("seed")
    if seed is not None and seed != recorded_seed:
        raise click.UsageError(f"--seed differs from the tournament in {out}: {seed} here,"
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
        raise Internal(str(exc)) from None


def _conduct(results, out: Path, pool, limits: dict, *, resumed: bool,
             transcripts: str = "full") -> int:
    """Play the pending matches; write the standings and the report; the exit code."""
    stopped_by: list[int] = []

    def on_term(signum, frame):
        stopped_by.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        for row in results.reset_running():
            _remove_match_folder(out, row["log_dir"])
        counts = results.counts()
        names = [e.name for e in results.entrants()]
        head = (f"Tournament in {out}: {len(names)} bots, {sum(counts.values())} matches"
                f" ({counts['done'] + counts['failed']} played, {counts['skipped']} skipped"
                f"{', resumed' if resumed else ''}), seed {results.meta('seed')}")
        click.echo(head)
        live = sys.stdout.isatty()
        if live:
            progress = RichProgress(counts, names, lambda: standings.document(results)["bots"])
        else:
            progress = PlainProgress(counts, names)
        director = Director(results, out, pool, progress, limits=limits,
                            transcripts=transcripts)
        code = 0
        try:
            with progress:
                director.run()
        except KeyboardInterrupt:
            code = EXIT_TERMINATED if stopped_by else EXIT_INTERRUPTED
        except (TournamentError, StoreError) as exc:
            click.echo(f"Error: the tournament cannot go on: {exc}", err=True)
            code = EXIT_INTERNAL
        finally:
            pool.close()
        try:
            document = write_results(results, out)
        except (OSError, StoreError) as exc:
            click.echo(f"Error: cannot write the standings in {out}: {exc}", err=True)
            return EXIT_INTERNAL
        if code == 0:
            click.echo("")
            click.echo(standings_text(document))
            click.echo(f"\nStandings: {out / STANDINGS_FILE}\nReport: {out / report.FILE}")
        elif code in (EXIT_INTERRUPTED, EXIT_TERMINATED):
            click.echo(f"Interrupted. The same command resumes; results so far: {out}",
                       err=True)
        return code
    finally:
        signal.signal(signal.SIGTERM, previous)
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


def _read(folder: Path) -> tuple[dict, list[dict]]:
    """The standings and the matches of the tournament in ``folder`` (a usage error if there
    is none)."""
    try:
        results = store.open_store(folder)
    except StoreError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        return standings.document(results), results.matches()
    finally:
        results.close()


def standings_cmd(folder, as_json):
    """Print the standings of the tournament in FOLDER, computed again from its store."""
    document, _ = _read(folder)
    click.echo(json.dumps(document, indent=2) if as_json else standings_text(document))


def show_text(folder: Path) -> str:
    """``pokerbots show`` of a tournament folder: the standings, then every match."""
    document, rows = _read(folder)
    return (f"Tournament: {folder}\n" + standings_text(document) + "\n\n" + matches_text(rows)
            + "\n")


def _limit_options(func):
    func = click.option("--startup-timeout", type=click.FloatRange(min=0, min_open=True),
                        default=10.0, show_default=True,
                        help="Seconds a bot has to start and answer init_round.")(func)
    return click.option("--reply-timeout", type=click.FloatRange(min=0, min_open=True),
                        default=5.0, show_default=True,
                        help="Seconds a bot has for each reply.")(func)


def options() -> dict:
    """The tournament's command-line parameters by name, in the order of its ``--help``
    (``pokerbots serve`` takes them too, less those it sets itself)."""
    return {
        "bots": click.argument("bots", nargs=-1, required=True),
        "game": game_options(),
        "players": click.option(
            "--players", "-p", type=click.IntRange(min=2), default=None,
            help="Table size K (default: the number of bots, capped at the game's"
                 " maximum). Every combination of K bots plays."),
        "hands": click.option("--hands", "-n", type=click.IntRange(min=1), default=3000,
                              show_default=True, help="Hands per match."),
        "rounds": click.option("--rounds", "-r", type=click.IntRange(min=1), default=1,
                               show_default=True, help="Deal sets per table."),
        "seed": click.option("--seed", type=int, default=None,
                             help="Seed of every deal (default: drawn, and recorded)."),
        "duplicate": click.option(
            "--duplicate", is_flag=True,
            help="Play each deal set once per seating, same cards per seat."),
        "jobs": click.option(
            "--jobs", "-j", type=click.IntRange(min=1), default=None,
            help="Matches at once, each on a CPU of its own (default: the CPUs this"
                 " process may use)."),
        "out": click.option(
            "--out", "-o", type=click.Path(path_type=Path), default=None,
            help="Tournament folder (default logs/tournament-DATE-TIME); the same"
                 " --out resumes."),
        "scheduler": click.option(
            "--scheduler", metavar="ADDRESS", default=None,
            help="Play on a Dask cluster (tcp://host:port); needs pokerbots[dask]."),
        "max_faults": click.option(
            "--max-faults", type=click.IntRange(min=1), default=3, show_default=True,
            help="Drop a bot from the rest of the tournament after this many faults."),
        "refine": click.option(
            "--refine", type=click.IntRange(min=2), default=None, metavar="T",
            help="After the round robin, more deal sets among the top T bots until"
                 " their intervals separate."),
        "refine_steps": click.option(
            "--refine-steps", type=click.IntRange(min=1), default=5, show_default=True,
            help="With --refine: at most this many extra steps of --rounds deal"
                 " sets per table."),
        "transcripts": click.option(
            "--transcripts", type=click.Choice(TRANSCRIPTS), default="full",
            show_default=True,
            help="Keep each seat's transcript (seatN.in): always, only for failed"
                 " matches, or never (a big tournament saves most of its disk)."),
        "timeouts": _limit_options,
        "limits": bot_limit_options,
    }


def command() -> click.Command:
    """The ``tournament`` command (built on each call, as ``show`` is)."""
    def func(**kwargs):  # a fresh function: click keeps its parameters on it
        return tournament(**kwargs)

    func.__doc__ = tournament.__doc__
    for param in reversed(options().values()):
        func = param(func)
    return click.command(name="tournament",
                         short_help="Every table of K bots, duplicate deals, rankings.")(func)


def standings_command() -> click.Command:
    def func(**kwargs):
        return standings_cmd(**kwargs)

    func.__doc__ = standings_cmd.__doc__
    func = click.option("--json", "as_json", is_flag=True,
                        help="Print standings.json.")(func)
    func = click.argument("folder", type=click.Path(path_type=Path))(func)
    return click.command(name="standings",
                         short_help="The standings of a tournament folder.")(func)


__all__ = ["check_table", "command", "options", "show_text", "standings_command",
           "tournament", "write_results"]

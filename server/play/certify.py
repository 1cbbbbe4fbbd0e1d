"""The certificate of conformance: ``pokerbots certify BOT`` (its command is
server/cli/certify.py).

``smoke`` plays random hands, so the rare situations of a game (split pots with an odd chip,
side pots, a short all-in that does not reopen the betting, run-outs, ten players) may never
come up. Certify deals known cards (a ``--cards`` file) and seats scripted opponents
(:mod:`pokerbots.server.play.scripted_bot`) whose fixed actions steer each match into one such
situation, with BOT in a seat where it arises from the scripted seats' actions whatever legal
reply BOT gives; the server judges every reply as in any match.

A few situations need BOT's help: they arise when BOT checks or calls, and BOT's own bet can go
around them (a bot that goes all-in first never faces a short all-in afterwards). Such a case
names a pattern of the messages BOT receives once the situation has arisen (``Case.reach``);
a case that passes without it is reported apart from the passed ones, as not reached (BOT's
own play went around the situation): no rule was broken, and nothing was certified either.

Every game gets a heads-up case and one for each larger table; its rare situations are the
game's own data, declared in its module (:attr:`~pokerbots.server.games.base.GameType.certify`,
:class:`~pokerbots.server.games.base.CertifyCase`). This module makes the cases of a game
(:func:`cases_for`), plays one (:func:`run_case`) or those of several games
(:func:`play_cases`); matches are played and
judged by smoke's path (:func:`~pokerbots.server.play.smoke.play_and_judge`), and the JUnit
report is smoke's.
"""

from __future__ import annotations

import os
import random
import re
import shlex
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pokerbots.server import games
from pokerbots.server.games.base import Shuffled
from pokerbots.server.logs.folder import MatchFolder
from pokerbots.server.play.match import MatchConfig
from pokerbots.server.play.options import game_options_from_texts, texts_as_flags
from pokerbots.server.play.smoke import NOT_REACHED, Result, not_reached, play_and_judge
from pokerbots.server.seats.bots import BotSpec
from pokerbots.server.seats.limits import Limits

SCRIPTED = "pokerbots.server.play.scripted_bot"


@dataclass(frozen=True)
class Case:
    """One certify match: BOT in ``seat`` of a ``players``-seat table of ``game``.

    ``deals`` are the lines of its cards file (absolute seats) and ``button`` the first hand's
    button; ``scripts[s]`` is seat ``s``'s script (None at BOT's seat); seats in ``rebuy``
    answer REBUY when below their starting stack. ``options`` are the game's flags as typed.
    ``reach``: a pattern of BOT's transcript once the situation has arisen (None: it always
    does). ``pinned``: play on one CPU, so that messages wait for BOT's next turn.
    """

    name: str
    game: str
    players: int
    seat: int
    deals: tuple[str, ...]
    button: int
    scripts: tuple[str | None, ...]
    options: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    rebuy: tuple[int, ...] = ()
    reach: str | None = None
    pinned: bool = False

    @property
    def junit(self) -> tuple[str, str]:
        """The test's class (after ``certify.``) and name in a JUnit report."""
        return self.game, self.name

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", f"{self.game} {self.name}".lower()).strip("-")

    def cards_text(self) -> str:
        return f"button: {self.button}\n" + "".join(f"{d}\n" for d in self.deals)


# -- the cards ---------------------------------------------------------------------------------


def shuffled_deals(game: str, players: int, hands: int, seed: int) -> tuple[str, ...]:
    """``hands`` deals of ``game`` for ``players`` seats, shuffled from ``seed`` (for the cases
    whose cards do not matter)."""
    made = games.make_game(game, players)
    deck, k, dealt = list(made.deck), made.hole_cards, players * made.hole_cards
    rng = random.Random(seed)
    deals = []
    for _ in range(hands):
        rng.shuffle(deck)
        text = " ".join("".join(deck[k * s:k * s + k]) for s in range(players))
        if made.board_cards:
            text += " | " + " ".join(deck[dealt:dealt + made.board_cards])
        deals.append(text)
    return tuple(deals)


def _scripts(players: int, seat: int, default: str,
             by_seat: dict[int, str] | None = None) -> tuple[str | None, ...]:
    """Every seat's script: ``default``, or ``by_seat``'s for a seat it names; None at
    BOT's."""
    by_seat = by_seat or {}
    return tuple(None if s == seat else by_seat.get(s, default) for s in range(players))


def _deals(game: str, players: int, deals: tuple[str | Shuffled, ...]) -> tuple[str, ...]:
    """The lines of a cards file: each :class:`~pokerbots.server.games.base.Shuffled` dealt
    from ``game``'s deck for ``players`` seats."""
    lines: list[str] = []
    for deal in deals:
        if isinstance(deal, Shuffled):
            lines += shuffled_deals(game, players, deal.hands, deal.seed)
        else:
            lines.append(deal)
    return tuple(lines)


# -- the table ---------------------------------------------------------------------------------


def _every_game(game: str) -> list[Case]:
    """The cases every game has: heads-up, each larger table."""
    kind = games.get(game)
    cases = [Case("heads-up", game, 2, 0, shuffled_deals(game, 2, 2, 1), 0,
                  _scripts(2, 0, "r c|c|r c|c/r c|c|r c|c"))]
    for n in range(3, kind.max_players + 1):
        seat = n // 2
        cases.append(Case(f"{n} players", game, n, seat, shuffled_deals(game, n, 2, n), 0,
                          _scripts(n, seat, "c", {(seat + 1) % n: "r c/r c"})))
    return cases


def _declared(game: str) -> list[Case]:
    """The cases the game declares (:attr:`~pokerbots.server.games.base.GameType.certify`)."""
    declare = games.get(game).certify
    return [Case(c.name, game, c.players, c.seat, _deals(game, c.players, c.deals), 0,
                 _scripts(c.players, c.seat, c.script, c.scripts), options=dict(c.options),
                 rebuy=c.rebuy, reach=c.reach, pinned=c.pinned)
            for c in (declare() if declare is not None else ())]


def cases_for(game: str) -> list[Case]:
    """The cases of ``game``, heads-up first: those of every game, then the game's own."""
    return _every_game(game) + _declared(game)


def all_cases() -> list[Case]:
    """Every case of every game, in the order they are played."""
    return [case for game in games.names() for case in cases_for(game)]


# -- playing a case ----------------------------------------------------------------------------


def scripted_spec(script: str, rebuy: bool) -> BotSpec:
    argv = (sys.executable, "-m", SCRIPTED, script, *(["--rebuy"] if rebuy else []))
    return BotSpec(f"scripted {script!r}" + (" --rebuy" if rebuy else ""), argv)


def run_case(case: Case, bot: BotSpec, *, logs: Path, limits: Limits) -> Result:
    """Play ``case`` with BOT (``bot``) in its seat and judge it; ``result.extra['reached']``
    says whether the situation arose (False: BOT's own play went around it). MatchSetupError
    when the case cannot make a match, ServerFault when the server cannot start it."""
    logs.mkdir(parents=True, exist_ok=True)
    cards = logs / f"{case.slug}.cards"
    cards.write_text(case.cards_text(), encoding="utf-8")
    specs = [bot if s == case.seat else scripted_spec(script, s in case.rebuy)
             for s, script in enumerate(case.scripts)]
    cpu = min(os.sched_getaffinity(0)) if case.pinned else None
    config = MatchConfig(bots=specs, game=case.game,
                         game_options=game_options_from_texts(case.game, case.options),
                         seed=1, cards=cards, logs=logs, limits=limits, cpu=cpu)
    result = Result(case, passed=False, command=_reproduce(case, specs, cards, cpu))
    play_and_judge(config, case.seat, result, opponents="A scripted opponent")
    if result.passed and case.reach is not None and result.logs is not None:
        seen = MatchFolder(result.logs).transcript_path(case.seat)
        text = seen.read_text(encoding="utf-8", errors="replace") if seen.exists() else ""
        result.extra["reached"] = re.search(case.reach, text) is not None
    return result


@dataclass(frozen=True)
class Skipped:
    """A game BOT is not certified for: it failed the first hand of the game's first case."""

    game: str
    reason: str


def play_cases(bot: BotSpec, names: list[str], *, logs: Path, limits: Limits,
               only: tuple[str, ...] = (), probe: bool = False) -> Iterator[Result | Skipped]:
    """Play the cases of each game of ``names`` in turn (only those named in ``only``, if
    any), yielding each :class:`Result`. With ``probe`` (no game was named) a game whose
    first case BOT fails in its first hand yields :class:`Skipped` instead, and no more of
    its cases. MatchSetupError and ServerFault as :func:`run_case`."""
    for name in names:
        cases = cases_for(name)
        if only and not any(c.name in only for c in cases):
            continue
        for number, case in enumerate(cases):
            probing = probe and number == 0
            if only and case.name not in only and not probing:
                continue
            result = run_case(case, bot, logs=logs, limits=limits)
            if probing and not result.passed and not result.internal and result.hand in (None, 0):
                yield Skipped(name, result.reason)
                break
            if not only or case.name in only:
                yield result


def _reproduce(case: Case, specs: list[BotSpec], cards: Path, cpu: int | None) -> str:
    # A scripted opponent as a short command (a module of pokerbots: `pokerbots run` starts it
    # under its own Python); the bot as it was typed.
    words = [shlex.join(("python3", *s.argv[1:])) if s.argv[1:3] == ("-m", SCRIPTED)
             else s.label for s in specs]
    bots = " ".join(shlex.quote(w) for w in words)
    return (f"pokerbots run {bots} --game {case.game}{texts_as_flags(case.options)}"
            f" --cards {shlex.quote(str(cards))} --cpu {'none' if cpu is None else cpu}")


def format_line(result: Result) -> str:
    case = result.case
    head = f"{case.game:<12} {case.name:<30} {case.players:>2}p seat {case.seat}"
    if result.passed:
        if not_reached(result):
            return f"SKIP  {head}  {result.seconds:5.2f} s  ({NOT_REACHED})"
        return f"PASS  {head}  {result.seconds:5.2f} s"
    word = "ERROR" if result.internal else "FAIL"
    return f"{word:<5} {head}  {result.reason}"

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

This module holds the table of cases (:data:`CASES`, :func:`cases_for`) and plays one
(:func:`run_case`) or those of several games (:func:`play_cases`); matches are played and
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


def _scripts(players: int, seat: int, default: str, **by_seat: str) -> tuple[str | None, ...]:
    """Every seat's script: ``default``, or ``s<N>=script`` for seat N; None at BOT's."""
    return tuple(None if s == seat else by_seat.get(f"s{s}", default) for s in range(players))


def _facing(actions: str, stacks: str, raise_line: str) -> str:
    """The pattern of a flop ``play`` message with these Action lines (comma-separated, BOT's
    first), Stacks and Raise line."""
    lines = "".join(f"Action: {a}\\n" for a in actions.split(","))
    return rf"play\n{lines}Board: \S+ \S+ \S+\nPot: \d+\nStacks: {stacks}\nRaise: {raise_line}"


# -- the table ---------------------------------------------------------------------------------


def _every_game(game: str) -> list[Case]:
    """The cases every game has: heads-up, each larger table, the end of the round while BOT
    waits for its turn."""
    kind = games.get(game)
    cases = [Case("heads-up", game, 2, 0, shuffled_deals(game, 2, 2, 1), 0,
                  _scripts(2, 0, "r c|c|r c|c/r c|c|r c|c"))]
    for n in range(3, kind.max_players + 1):
        seat = n // 2
        raiser = f"s{(seat + 1) % n}"
        cases.append(Case(f"{n} players", game, n, seat, shuffled_deals(game, n, 2, n), 0,
                          _scripts(n, seat, "c", **{raiser: "r c/r c"})))
    if games.make_game(game, 3).structure.stacks is None:  # nobody can be all-in
        # Everyone acts in every hand: BOT acts first in the last one, and the rest of it, its
        # end and the end of the round come while BOT waits.
        cases.append(Case("end of round while waiting", game, 3, 2,
                          shuffled_deals(game, 3, 2, 30), 0, _scripts(3, 2, "r c"),
                          pinned=True))
    else:
        # BOT is all-in from its big blind in the last hand: it is never asked to act in it.
        cases.append(Case("end of round while waiting", game, 3, 0,
                          shuffled_deals(game, 3, 2, 30), 0, _scripts(3, 0, "c"),
                          options={"--stack": "10,2000,2000"}, pinned=True))
    return cases


def _leduc(game: str) -> list[Case]:
    return [
        # BOT acts first in both rounds and the others only check or call: BOT never faces a
        # bet, everyone puts in the same odd amount (1 + 2s and 4s), and BOT's king ties the
        # other king: a split pot with an odd chip, whatever BOT plays.
        Case("odd chip", game, 3, 1, ("K K Q | J",), 0, _scripts(3, 1, "c")),
        # A bet and a raise before BOT: the cap of two bets is reached.
        Case("raise cap", game, 3, 0, ("K Q A | J",), 0, _scripts(3, 0, "r c|c")),
    ]


def _holdem(game: str) -> list[Case]:
    limit = not games.make_game(game, 3).structure.no_limit
    cases = [
        # The button limps, the small blind folds, BOT in the big blind never faces a bet; the
        # board (a royal flush) plays for BOT and the button: they split 5 + 2x chips.
        Case("odd chip", game, 3, 2, ("2c3d 4c5d 2d3c | Ah Kh Qh Jh Th",), 0,
             _scripts(3, 2, "c", s1="f")),
        # Three all-ins of 15, 25 and 35 before BOT (the small blind); the big blind calls.
        # The shortest stack holds the best hand, the next one the second best.
        Case("two side pots", game, 5, 1, ("QsQd 5h6h 3c4d KhKd AsAd | 2c 7d 9h Jc Ks",), 0,
             _scripts(5, 1, "a", s2="c"), options={"--stack": "35,2000,2000,15,25"}),
        Case("three side pots", game, 6, 1,
             ("TsTd 5h6h 3c4d KhKd AsAd QsQd | 2c 7d 9h Jc Ks",), 0,
             _scripts(6, 1, "a", s2="c"), options={"--stack": "45,2000,2000,15,25,35"}),
        # BOT (big blind, 18 chips) checks the flop; the next player bets its last 5, which is
        # less than a full bet, and the button calls: BOT may only call or fold.
        Case("short all-in does not reopen", game, 4, 2,
             ("AsAd 2c7d KsKd QsQc | 3c 8h 9d 4s Jc",), 0,
             _scripts(4, 2, "c", s1="f", s3="c|a"), options={"--stack": "2000,2000,18,15"},
             reach=_facing("BET 0,BET 5,BET 5,FOLD 0", r"8,0,\d+,\d+", "-")),
        # BOT checks the flop; short all-ins (a bet of 5, raises to 10, 15, 20) add up to a
        # full bet: BOT may raise again. Had BOT raised to 20 before the flop (limit's only
        # raise, no-limit's smallest), the 25 and 30 stacks make a bet of 5 and a raise to 10.
        Case("short all-ins that reopen", game, 7, 2,
             ("AsAd 2c7d KsKd QsQc JhJd ThTd 9s9c | 3c 8h 4d 4s 2h",), 0,
             _scripts(7, 2, "c|a", s0="c", s1="f"),
             options={"--stack": "2000,2000,40,15,20,25,30"},
             reach=r"play\nAction: BET 0\n(Action: [^\n]+\n)+Board: \S+ \S+ \S+\nPot: \d+\n"
                   r"Stacks: [^\n]+\nRaise: \d"),
        # The button and the small blind are all-in before BOT acts: whatever BOT does, the
        # board is dealt out before the flop.
        Case("run-out before the flop", game, 3, 2, ("AsKs QdQc 7h2c | Jd 8s 4h 3c 9d",), 0,
             _scripts(3, 2, "a"), options={"--stack": "20,20,2000"}),
        Case("run-out on the flop", game, 3, 2, ("AsKs QdQc 7h2c | Jd 8s 4h 3c 9d",), 0,
             _scripts(3, 2, "c|a"), options={"--stack": "50,50,2000"},
             reach=r"play\n(Action: [^\n]+\n){3}Board: \S+ \S+ \S+\n"),
        Case("run-out on the turn", game, 3, 2, ("AsKs QdQc 7h2c | Jd 8s 4h 3c 9d",), 0,
             _scripts(3, 2, "c|c|a"), options={"--stack": "90,90,2000"},
             reach=r"play\n(Action: [^\n]+\n){3}Board: \S+ \S+ \S+ \S+\n"),
        # Everyone folds to BOT in the big blind (hand 0); BOT acts in hand 1.
        Case("fold to the big blind", game, 3, 2, shuffled_deals(game, 3, 2, 40), 0,
             _scripts(3, 2, "f/c")),
        # BOT all-in from its big blind of 10 loses hand 0 and must answer REBUY; the button,
        # which lost its call, rebuys too.
        Case("carry with a rebuy", game, 3, 2,
             ("7c2d AsAd 8h3c | Kd Qs 9c 5h 4d", *shuffled_deals(game, 3, 1, 50)), 0,
             _scripts(3, 2, "c"), options={"--stack": "2000,2000,10", "--stacks": "carry"},
             rebuy=(0,)),
        # Every player antes 5; seat 1 has 3 chips and is all-in from its ante.
        Case("antes and per-seat stacks", game, 4, 3, shuffled_deals(game, 4, 2, 60), 0,
             _scripts(4, 3, "c", s0="r c"),
             options={"--ante": "5", "--stack": "300,3,500,800"}),
        # Each seat's stack, a big-blind ante, carried stacks (and the bet sizes in limit).
        Case("init_round with every field", game, 3, 1, shuffled_deals(game, 3, 2, 70), 0,
             _scripts(3, 1, "c"),
             options={"--stack": "1000,1500,800", "--big-blind-ante": "20",
                      "--blinds": "10/20", "--stacks": "carry",
                      **({"--bet-sizes": "20/40"} if limit else {})}),
        # Ten players, stacks of 14 digits, everyone all-in: pots and bankrolls of 15 digits,
        # the most a reply may carry.
        Case("largest stacks", game, 10, 0, shuffled_deals(game, 10, 1, 80), 0,
             _scripts(10, 0, "a"),
             options=({"--stack": "99999999999996", "--blinds": "12499999999999/24999999999999",
                       "--bet-sizes": "24999999999999/49999999999998"} if limit
                      else {"--stack": "99999999999999"})),
    ]
    if limit:
        # Three raises before BOT (the big blind): the cap of four bets is reached.
        cases.append(Case("raise cap", game, 4, 2, ("AsAd 2c7d KsKd QsQc | 3c 8h 9d 4s 2h",), 0,
                          _scripts(4, 2, "r c")))
    return cases


def _table() -> tuple[Case, ...]:
    cases = []
    for game in games.names():
        cases += _every_game(game)
        made = games.make_game(game, 3)
        if made.structure.stacks is not None:  # blinds, stacks, all-ins: Hold'em's cases
            cases += _holdem(game)
        elif made.board_cards:  # a board and a raise cap, no stacks: Leduc's
            cases += _leduc(game)
    return tuple(cases)


#: Every case of every game, in the order they are played (a game's heads-up case first).
CASES: tuple[Case, ...] = _table()


def cases_for(game: str) -> list[Case]:
    """The cases of ``game``, heads-up first."""
    return [c for c in CASES if c.game == game]


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

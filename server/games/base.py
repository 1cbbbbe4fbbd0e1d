"""What a game is, as data: the record each game module registers, and the table it makes.

A game module (``kuhn.py``, ``holdem.py``, ``leduc.py``) declares one or more
:class:`GameType` values in a module-level ``GAMES`` tuple: the names, the players it allows,
its options (with their command-line flags, help text and validation), the lines it adds to
the protocol's messages (its :class:`~pokerbots.protocol.wire.Shape`), a ``make`` function and
its own certify cases (:class:`CertifyCase`: the rare situations of the game, their cards and
the opponents' scripts).
``make`` turns chosen options into a :class:`Game`: a deck, a hand-ranking function and a
:class:`Structure` (streets, bet sizes, raise cap, blinds and antes, stacks), which the one
betting engine (:mod:`.engine.betting`) plays. Every tool reads these records; nothing outside
``server/games/`` names a game.

Seats are absolute (0 .. players-1); turning them into each bot's view ("you are player 0") is
the referee's job. Every amount is an integer number of chips. Plain synchronous code: no
processes, no clocks, no printing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pokerbots.protocol import games as protocol_games
from pokerbots.protocol.wire import Shape, join, rotate
from pokerbots.server.games.engine.deck import deal


class IllegalMove(Exception):
    """A reply that the rules forbid. ``str()`` says why, in words a bot author understands."""


# -- options ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One option of a game, as the command line offers it.

    ``parse`` turns the text typed after ``flag`` into keyword arguments of the game's
    ``make`` (one option may set several, as ``--blinds 5/10`` sets both blinds) and raises
    ValueError with a message that says what to type instead. ``choices`` lists the accepted
    words for an option that takes one of a few.
    """

    flag: str
    help: str
    parse: Callable[[str], dict]
    metavar: str = "VALUE"
    choices: tuple[str, ...] = ()


def whole_number(name: str, minimum: int = 1) -> Callable[[str], int]:
    """A parser of a whole number of at least ``minimum`` for an option's text."""

    def parse(text: str) -> int:
        if not text.strip().isdigit() or int(text) < minimum:
            raise ValueError(f"{text!r}: the {name} must be a whole number of at least {minimum}")
        return int(text)

    return parse


def number_pair(text: str, what: str = "it", form: str = "a/b",
                example: str = "5/10") -> tuple[int, int]:
    """Two whole numbers written ``a/b`` or ``a,b`` (``'5/10'`` -> ``(5, 10)``; spaces around
    each number are allowed): the one reader of a pair typed on the command line (the blinds,
    the bet sizes, the end probability). ValueError says what to type instead: ``what`` names
    the value, ``form`` and ``example`` show how to write it."""
    parts = text.replace(",", "/").split("/")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"{text!r}: write {what} as {form}, e.g. {example} (two whole"
                         " numbers)")
    return int(parts[0]), int(parts[1])


# -- the shape of the betting ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Street:
    """One betting round: its name, the board cards dealt as it starts, and its bet size (the
    fixed bet and raise in limit games, the smallest bet in no-limit)."""

    name: str
    board: int
    bet: int


@dataclass(frozen=True)
class Structure:
    """How a hand is bet, as data (after PokerKit's state machine).

    ``ante`` is posted by every seat as money in front on the first street and opens no
    betting (Kuhn's and Leduc's antes). ``dead_ante`` goes straight into the pot before the
    blinds, never in front (Hold'em's ``--ante``): every seat posts it, or with
    ``big_blind_ante`` the big blind alone posts it for the table; all dead antes form part of
    the main pot, which every seat still in can win whatever it bets afterwards (PHH's rule, its
    ``ante_trimming_status = false``). ``blinds`` (small, big) are posted left of the button
    (heads-up the button posts the small one) and count as the street's first bet. ``cap`` is
    the most bets a street allows, a blind counting as the first (None: no cap); in
    ``no_limit`` a raise goes up to all-in and must raise by the street's largest raise so far.
    ``stacks`` are the chips each seat starts a hand with, by seat (None: no limit, as in
    Kuhn); a seat with none sits every hand out.
    An uncalled bet goes back to its owner when ``return_uncalled`` (else it stays in the pot,
    as the Kuhn protocol shows it).
    """

    streets: tuple[Street, ...]
    no_limit: bool = False
    cap: int | None = None
    ante: int = 0
    blinds: tuple[int, ...] = ()
    stacks: tuple[int, ...] | None = None
    return_uncalled: bool = True
    dead_ante: int = 0
    big_blind_ante: bool = False

    def forced(self, players: int, button: int) -> list[int]:
        """The chips each seat must post in front before the first decision of a hand."""
        forced = [self.ante] * players
        if self.blinds:
            small, big = self.blinds
            small_seat, big_seat = blind_seats(players, button)
            forced[small_seat] += small
            forced[big_seat] += big
        return forced

    def antes(self, players: int, button: int) -> list[int]:
        """The dead ante each seat owes in a hand with this button (all 0 without one)."""
        if self.big_blind_ante:
            antes = [0] * players
            antes[blind_seats(players, button)[1]] = self.dead_ante
            return antes
        return [self.dead_ante] * players


def blind_seats(players: int, button: int) -> tuple[int, int]:
    """The seats of the small and the big blind: left of the button, then the next; heads-up
    the button posts the small blind."""
    if players == 2:
        return button, 1 - button
    return (button + 1) % players, (button + 2) % players


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one hand: each seat's hole cards, then the whole board (maybe empty)."""

    holes: tuple[tuple[str, ...], ...]
    board: tuple[str, ...] = ()


# -- the game's certify cases -----------------------------------------------------------------


@dataclass(frozen=True)
class Shuffled:
    """``hands`` deals shuffled from ``seed`` out of the table's own deck: the cards of a
    certify case where they do not matter (``pokerbots certify`` deals them)."""

    hands: int
    seed: int


@dataclass(frozen=True)
class CertifyCase:
    """A rare situation of a game that ``pokerbots certify`` steers a bot into: known cards and
    scripted opponents (:mod:`pokerbots.server.play.certify` plays it), declared by the game
    itself (:attr:`GameType.certify`) beside the cases every game gets (heads-up, each
    larger table).

    BOT sits in ``seat`` of a ``players``-seat table. ``deals`` are the lines of its cards
    file (absolute seats), a :class:`Shuffled` standing for that many shuffled lines; the
    first hand's button is seat 0. Every other seat plays ``script`` (the scripted opponent's
    letters: :mod:`pokerbots.server.play.scripted_bot`), or its own from ``scripts`` (seat ->
    script); seats in ``rebuy`` answer REBUY when below their starting stack. ``options`` are
    the game's flags as typed. ``reach``: a pattern of BOT's transcript once the situation has
    arisen, for a situation BOT's own bet can go around (None: it always arises). ``pinned``:
    play on one CPU, so that messages wait for BOT's next turn.
    """

    name: str
    players: int
    seat: int
    deals: tuple[str | Shuffled, ...]
    script: str
    scripts: dict[int, str] = field(default_factory=dict, hash=False)
    options: dict[str, str] = field(default_factory=dict, hash=False)
    rebuy: tuple[int, ...] = ()
    reach: str | None = None
    pinned: bool = False


#: The end of a round while BOT waits for its turn, in a game where everyone acts in every
#: hand (no stacks, so nobody is all-in): BOT acts first in the last hand, and the rest of it,
#: its end and the end of the round come while BOT waits.
END_OF_ROUND_WHILE_WAITING = CertifyCase(
    "end of round while waiting", 3, 2, (Shuffled(2, 30),), "r c", pinned=True)


# -- the registry record ---------------------------------------------------------------------


@dataclass(frozen=True)
class GameType:
    """What the registry knows of a game, before any table is made.

    ``make(players, **options)`` returns a :class:`Game` or raises ValueError saying what is
    wrong. ``options`` are what the command line offers for it. ``phh_variant`` is its code in
    the PHH hand-history format (None: PHH has none). ``allin_equity`` marks the games whose
    tournaments score all-in hands by their expected value (the ACPC's no-limit practice).
    ``certify`` returns the game's own certify cases (:class:`CertifyCase`: its rare
    situations, their cards and scripts), made when certify asks (None: it has none beyond the
    cases every game gets).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    make: Callable[..., Game]
    options: tuple[Option, ...] = ()
    phh_variant: str | None = None
    allin_equity: bool = False
    read_round: Callable[[int, list[int], int, dict[str, str]], dict] | None = None
    certify: Callable[[], tuple[CertifyCase, ...]] | None = None

    #: What the game adds to the protocol's messages: the protocol's own table says it
    #: (:mod:`pokerbots.protocol.games`), for the client library reads it too. Looked up once
    #: here, since every hand's messages are rendered by it.
    shape: Shape = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", protocol_games.get(self.name).shape)

    def from_round(self, players: int, blinds: list[int], button: int,
                   lines: dict[str, str]) -> Game:
        """The table an ``init_round`` message describes, as the seat that received it sees it
        (itself seat 0): the inverse of the lines the game adds to ``init_round``. ValueError
        says what in the message does not make a table of this game."""
        options = self.read_round(players, blinds, button, lines) if self.read_round else {}
        return self.make(players, **options)

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} is played by {self.min_players} to"
                             f" {self.max_players} players, not {players}")


# -- a table ---------------------------------------------------------------------------------


class Game:
    """A game at a table of ``players``, alive for one round.

    It deals the hands (played by :mod:`~.engine.betting`), says what the
    game adds to each message, and holds what carries from hand to hand: with ``carry`` the
    stacks, which a seat may top up with ``REBUY`` after a hand.

    ``rank(hole, board)`` ranks a hand (higher wins). A game may also offer ``ranking``: a
    function returning ``(evaluate, cards)``, the same ranking on its own card values
    (``evaluate(cards of hole + board)``, ``cards`` mapping each card's text to its value), for
    what ranks many boards of one hand (the all-in equity: :mod:`pokerbots.server.scoring`);
    None: ``rank`` is the only way.
    """

    def __init__(self, type: GameType, players: int, structure: Structure, *,
                 deck: Sequence[str], hole_cards: int, rank: Callable,
                 parse_deal: Callable[[Game, str], Deal], carry: bool = False,
                 round_fields: Callable[[Game, int], list[tuple[str, str]]] | None = None,
                 ranking: Callable[[], tuple[Callable, dict]] | None = None) -> None:
        type.check_players(players)
        if structure.stacks is not None and len(structure.stacks) != players:
            raise ValueError(f"give one stack per seat: {players} stacks, not"
                             f" {len(structure.stacks)}")
        if carry and structure.stacks is None:
            raise ValueError(f"{type.name} has no stacks to carry")
        self.type = type
        self.name = type.name
        self.players = players
        self.structure = structure
        self.deck = tuple(deck)
        self.hole_cards = hole_cards
        self.board_cards = sum(s.board for s in structure.streets)
        self.rank = rank
        self.ranking = ranking
        self._parse_deal = parse_deal
        self._round_fields = round_fields
        self.carry = carry
        #: Carry mode: each seat's chips between hands.
        self.stacks = list(structure.stacks) if structure.stacks is not None else None
        #: Carry mode: the chips each seat has bought with REBUY so far.
        self.rebuys = [0] * players

    def blinds(self, button: int) -> list[int]:
        """The forced bets per seat of a hand with this button (the ``Blinds:`` line)."""
        return self.structure.forced(self.players, button)

    def deal(self, rng: random.Random) -> Deal:
        """Random cards for one hand: each seat's hole cards, then the board."""
        return Deal(*deal(rng, self.deck, self.players, self.hole_cards, self.board_cards))

    def ranked_by(self, rank: Callable) -> Game:
        """This table with hands ranked by ``rank(hole, board)`` (and by nothing else: no
        ``ranking``) and nothing carried from hand to hand: the table a hand's actions are
        played again on with made-up strengths (the all-in and luck adjustments)."""
        return Game(self.type, self.players, self.structure, deck=self.deck,
                    hole_cards=self.hole_cards, rank=rank, parse_deal=self._parse_deal,
                    round_fields=self._round_fields)

    def parse_deal(self, text: str) -> Deal:
        """A :class:`Deal` from one line of a ``--cards`` file; ValueError says what is wrong."""
        return self._parse_deal(self, text)

    def round_lines(self, view: int) -> str:
        """The lines this game adds to ``init_round`` for seat ``view``."""
        if self._round_fields is None:
            return ""
        return "".join(f"{name}: {value}\n" for name, value in self._round_fields(self, view))

    def hand_over(self, hand) -> None:
        """Called by a hand once its pots are paid."""
        stacks = self.stacks
        if self.carry and stacks is not None:
            stacks[:] = hand.stack

    def end_reply(self, seat: int, rebuy: bool) -> None:
        """Judge a seat's end-of-hand answer (``REBUY`` or ``OK``) after the last hand dealt.

        Raises :class:`IllegalMove` when the answer is not allowed (a rebuy where none exists,
        OK with an empty stack in carry mode). A rebuy never changes a bankroll: the bankroll is
        the net result, which already counts the chips the seat lost.
        """
        start = self.structure.stacks
        if not self.carry:
            if not rebuy:
                return
            if start is None:
                raise IllegalMove(f"REBUY is not allowed in {self.name}: there is nothing to rebuy")
            raise IllegalMove(f"REBUY is not allowed in {self.name} with stacks reset every"
                              f" hand: every hand starts with {start[seat]} chips")
        stacks = self.stacks
        assert stacks is not None and start is not None  # carry mode has stacks (__init__)
        have = stacks[seat]
        if rebuy:
            if have >= start[seat]:
                raise IllegalMove(f"REBUY is only allowed below the starting stack of"
                                  f" {start[seat]}, and you have {have}")
            stacks[seat] = start[seat]
            self.rebuys[seat] += start[seat] - have
        elif have == 0:
            raise IllegalMove("you have no chips: answer REBUY")

    def end_choices(self, seat: int) -> str:
        """The answers to ``end_hand`` that :meth:`end_reply` accepts from ``seat`` now."""
        stacks, start = self.stacks, self.structure.stacks
        if not self.carry or stacks is None or start is None:
            return "OK"
        have = stacks[seat]
        if have == 0:
            return "REBUY"
        return "OK" if have >= start[seat] else "OK or REBUY"

    def standing(self) -> dict:
        """What the match summary records about the game's state beyond the bankrolls."""
        if not self.carry or self.stacks is None:
            return {}
        return {"stacks": list(self.stacks), "rebuys": list(self.rebuys)}


__all__ = [
    "END_OF_ROUND_WHILE_WAITING", "CertifyCase", "Deal", "Game", "GameType", "IllegalMove",
    "Option", "Shuffled", "Street", "Structure", "blind_seats", "join", "number_pair", "rotate",
    "whole_number",
]

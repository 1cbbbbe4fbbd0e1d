"""The one game interface: what the referee may ask of a poker variant.

A :class:`Game` lives for a whole round (it holds anything that carries from hand to hand, such
as stacks); it deals :class:`Hand` objects, one per hand. Both are plain synchronous state
machines: no processes, no clocks, no printing. Seats are absolute (0 .. players-1); turning
seats into each bot's own view ("you are player 0") is the referee's job, helped by
:func:`rotate`.

Every amount is an integer number of chips. "Money in front" (``front``) is what a seat has put
in on the current street, the value every BET/FOLD reply must state exactly.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field


class IllegalMove(Exception):
    """A reply that the rules forbid. ``str()`` says why, in words a bot author understands."""


@dataclass(frozen=True, slots=True)
class Legal:
    """What the seat to act may reply, as money-in-front values.

    ``call`` is the value of ``BET`` that checks or calls (it equals ``front`` when checking is
    free). ``raise_min``/``raise_max`` bound a raising ``BET`` (both ``None`` when no raise is
    allowed). ``fold`` says whether ``FOLD <front>`` is allowed: it is not when checking is free.
    ``opened`` says that a bet (a blind counts, an ante does not) already stands on the street,
    so that a higher ``BET`` is called a raise in error messages even when checking is free.
    """

    front: int
    call: int
    fold: bool
    raise_min: int | None = None
    raise_max: int | None = None
    opened: bool = field(default=False, compare=False)

    def describe(self) -> str:
        """Every legal reply, e.g. ``BET 1 (check) or BET 2 (bet)``."""
        choices = [f"BET {self.call} ({'check' if self.call == self.front else 'call'})"]
        if self.raise_min is not None:
            verb = "bet" if self.call == self.front and not self.opened else "raise"
            if self.raise_min == self.raise_max:
                choices.append(f"BET {self.raise_min} ({verb})")
            else:
                choices.append(f"BET {self.raise_min} to BET {self.raise_max} ({verb})")
        if self.fold:
            choices.append(f"FOLD {self.front}")
        return " or ".join(choices)


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one hand: each seat's hole cards, then the board (empty for Kuhn).

    Cards are text: a rank (``23456789TJQKA``) for Kuhn, rank and suit (``Ah``) for Hold'em.
    """

    holes: tuple[tuple[str, ...], ...]
    board: tuple[str, ...] = ()


class Hand(ABC):
    """One hand in progress. The referee drives it with :meth:`call`, :meth:`raise_to` and
    :meth:`fold` for the seat in :attr:`to_act`, after checking the reply against :meth:`legal`.
    """

    #: Seat whose decision is due, or ``None`` once the hand is over.
    to_act: int | None
    #: Index of the betting round in progress, or of the last one played once betting is over.
    street: int
    #: Money in front of each seat on the current street.
    front: list[int]
    #: Forced bets posted at the start of the hand (antes or blinds), per seat.
    forced: list[int]
    #: Whether each seat has folded.
    folded: list[bool]

    @abstractmethod
    def legal(self) -> Legal:
        """The legal replies of the seat in :attr:`to_act`."""

    @abstractmethod
    def call(self) -> None:
        """Check or call for the seat to act."""

    @abstractmethod
    def raise_to(self, front: int) -> None:
        """Bet or raise so that the seat to act has ``front`` in front; the caller checked it."""

    @abstractmethod
    def fold(self) -> None:
        """Fold the seat to act."""

    @abstractmethod
    def hole_text(self, seat: int) -> str:
        """The ``Cards:`` value for ``seat`` (``Q``; ``Ah Kd``)."""

    @abstractmethod
    def showdown_text(self, seat: int) -> str:
        """Once over: the cards ``seat`` shows (only winners of a pot show), else ``-``."""

    @property
    @abstractmethod
    def pots(self) -> list[tuple[int, int]]:
        """Once over: ``(amount, seat)`` for each pot share won, in the order they are paid."""

    @property
    @abstractmethod
    def deltas(self) -> list[int]:
        """Once over: each seat's net chip result for the hand."""

    def state_lines(self, view: int) -> str:
        """Extra lines of a ``play`` message for the bot in seat ``view`` ('' for Kuhn)."""
        return ""

    def end_lines(self, view: int) -> str:
        """Extra lines of an ``end_hand`` message for the bot in seat ``view`` ('' for Kuhn)."""
        return ""

    def record(self) -> dict:
        """Game-specific facts for the machine-readable hand history (e.g. the board)."""
        return {}


class Game(ABC):
    """A poker variant for a fixed number of players, alive for one round."""

    #: Name used on the command line and in ``POKERBOTS_GAME``.
    name: str
    min_players: int
    max_players: int

    def __init__(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players,"
                f" not {players}"
            )
        self.players = players

    @abstractmethod
    def blinds(self, button: int) -> list[int]:
        """The forced bets per seat of a hand with this button (the ``Blinds:`` line)."""

    @abstractmethod
    def deal(self, rng: random.Random) -> Deal:
        """Random cards for one hand."""

    @abstractmethod
    def parse_deal(self, text: str) -> Deal:
        """A :class:`Deal` from one line of a ``--cards`` file; ValueError says what is wrong."""

    @abstractmethod
    def new_hand(self, button: int, deal: Deal) -> Hand:
        """Start a hand (forced bets posted) with ``button`` on that seat."""

    def round_lines(self, view: int) -> str:
        """Extra lines of ``init_round`` ('' for Kuhn)."""
        return ""

    def end_reply(self, seat: int, rebuy: bool) -> None:
        """Judge a seat's end-of-hand answer (``REBUY`` or ``OK``) after the last hand dealt.

        Raises :class:`IllegalMove` when the answer is not allowed (a rebuy where none exists,
        OK with an empty stack in carry mode). A rebuy never changes a bankroll: the bankroll is
        the net result, which already counts the chips the seat lost.
        """
        if rebuy:
            raise IllegalMove(f"REBUY is not allowed in {self.name}: there is nothing to rebuy")

    def end_choices(self, seat: int) -> str:
        """The answers to ``end_hand`` that :meth:`end_reply` accepts from ``seat`` now."""
        return "OK"

    def standing(self) -> dict:
        """What the match summary should record about the game's state beyond the bankrolls."""
        return {}


def rotate(values: list, view: int) -> list:
    """``values`` (by absolute seat) as seat ``view`` sees them: itself first, then clockwise."""
    return values[view:] + values[:view]


def join(values) -> str:
    """A protocol list: comma-separated, no spaces."""
    return ",".join(map(str, values))

"""A hand's record played again on the one betting engine.

:func:`replay` deals the record's cards to a :class:`~pokerbots.server.games.engine.betting.Hand`
(a board the hand ended before is filled out with cards nobody holds: a hand folded out never
shows them) and plays each recorded action for the seat the rules have to act, on the street
they have, read as :func:`~.follow.play_recorded` reads it, keeping each
:class:`~.follow.Act`. Export (PHH, ACPC), the site's replayer and the all-in adjustment play
records this way; export also checks that the hand reaches its recorded result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from pokerbots.server.games.base import Deal, Game, IllegalMove
from pokerbots.server.games.engine.betting import Hand
from pokerbots.server.hands.follow import Act, play_recorded
from pokerbots.server.hands.record import HandRecord


class ReplayError(ValueError):
    """A record the engine cannot play again (or not to its recorded result); the message says
    why."""


@dataclass(frozen=True, slots=True)
class Replayed:
    """A record played again: the finished hand and every action, in order."""

    hand: Hand
    acts: list[Act]


def replay(game: Game, record: HandRecord, *, deal: Deal | None = None, check: bool = False,
           each: Callable[[Hand, Act | None], None] | None = None) -> Replayed:
    """Play ``record`` again on ``game``'s engine (a table of the record's size).

    ``deal``: the cards to play it with, where the caller's game ranks something else (the
    all-in adjustment ranks placeholders); by default the record's own (:func:`deal_of`).
    ``check``: the hand must reach its recorded result (every seat's delta).
    ``each(hand, act)``: called once the cards are dealt (``act`` None), then after each
    action with the hand as it left it.

    :class:`ReplayError` when the record is not one of ``game`` (its seats, its cards), an
    action is not the turn or is against the rules, or, with ``check``, the result differs.
    """
    try:
        hand = Hand(game, record["button"], deal_of(game, record) if deal is None else deal,
                    record.get("stacks_start"))
    except ReplayError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise ReplayError(f"its cards cannot be dealt again ({_why(exc)})") from None
    acts: list[Act] = []
    if each is not None:
        each(hand, None)
    for action in _actions(record):
        try:
            seat, word, value, street = action
            if hand.to_act != seat or hand.street != street:
                raise ReplayError(f"seat {seat} acts on street {street}, the rules have seat"
                                  f" {hand.to_act} on street {hand.street}")
            play_recorded(hand, word, value, acts)
        except ReplayError:
            raise
        except (TypeError, ValueError, IllegalMove) as exc:
            raise ReplayError(_why(exc)) from None
        if each is not None:
            each(hand, acts[-1])
    if check and (hand.to_act is not None or hand.deltas != record.get("deltas")):
        raise ReplayError("it does not reach its recorded result")
    return Replayed(hand, acts)


def deal_of(game: Game, record: HandRecord) -> Deal:
    """The record's cards as the engine deals them: its board filled out, where the hand ended
    before it was dealt, with cards nobody holds (the first of the deck's order)."""
    holes = tuple(tuple(text.split()) for text in record["cards"])
    board = list(record.get("board") or ())
    if len(board) < game.board_cards:
        spare = Counter(game.deck)
        spare.subtract(card for hole in holes for card in hole)
        spare.subtract(board)
        while len(board) < game.board_cards:
            card = next((c for c, left in spare.items() if left > 0), None)
            if card is None:
                raise ReplayError("its cards leave too few in the deck for its board")
            spare[card] -= 1
            board.append(card)
    return Deal(holes, tuple(board))


def _actions(record: HandRecord) -> list:
    try:
        return list(record["actions"])
    except (KeyError, TypeError) as exc:
        raise ReplayError(f"its actions cannot be read ({_why(exc)})") from None


def _why(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"no {exc.args[0]!r}" if exc.args else "a field is missing"
    return str(exc)

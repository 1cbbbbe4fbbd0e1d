"""Every action of a hand, in order, as far as one seat's messages make it certain.

Foreign protocols tell a bot more than ours does: an ACPC ``MATCHSTATE`` carries the whole
betting of the hand, Lean Poker counts each player's bets over the whole hand and the betting
opportunities so far. A relay seat (:mod:`pokerbots.server.seats.relays`) sees only our messages,
whose ``Action`` lines give each player's latest action since the seat's previous decision, on
the current street. :class:`HandFollower` rebuilds the rest on a shadow of the one betting
engine (:class:`~pokerbots.server.games.engine.betting.Hand`), in the seat's own view (itself
seat 0):

* Before each decision of the seat the history is always certain. Between two decisions every
  other player acted once, in turn order, and the line shows that action; on a street that
  ended after the seat's last decision the others could only call or fold (a raise would have
  come back to the seat), and a player shown ``FOLD 0`` may have folded then or called then and
  folded on the new street: the one reading whose stacks and pot match the message is taken.
* At the end of a hand the rest is certain only when nobody bet or raised after the seat's
  last decision (always so while the seat is still in with chips: a bet would have come back
  to it). Otherwise, after the seat folded or went all-in, the latest actions shown cannot tell
  a bet and a call from a check, a bet and a raise ... and the hand's last actions stay unknown
  (:attr:`HandFollower.complete` is False).

Plain synchronous code, no I/O.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pokerbots.server.games.base import Game, IllegalMove
from pokerbots.server.games.engine.betting import Hand

FOLD, CALL, RAISE = "fold", "call", "raise"


@dataclass(frozen=True, slots=True)
class Act:
    """One action: who (a seat in the follower's view), what, the money in front it left on the
    street, the chips that seat has put in the hand after it (antes included), and the street."""

    seat: int
    word: str
    front: int
    total: int
    street: int


class OutOfStep(Exception):
    """The messages contradict the shadow hand: a bug (in the server or the follower)."""


class HandFollower:
    """One hand, followed from the messages of the seat that is seat 0 of ``game`` (a table as
    :func:`.games.seat_table` makes it), with ``button`` and the seats'
    ``stacks`` at the start of the hand (None where the game has no stacks)."""

    def __init__(self, game: Game, button: int, stacks: list[int] | None) -> None:
        self.game = game
        self.hand = Hand(game, button, game.deal(random.Random(0)), stacks)  # cards: no matter
        self._start = self.hand.clone()
        #: Every action known so far, in order.
        self.acts: list[Act] = []
        #: False once the end of the hand could not be followed for certain.
        self.complete = True
        shown = 0
        self._street_of_board = {}
        for index, street in enumerate(game.structure.streets):
            shown += street.board
            self._street_of_board[shown] = index

    @property
    def over(self) -> bool:
        return self.hand.to_act is None

    # -- the seat's own turn -------------------------------------------------------------------

    def before_decision(self, state) -> None:
        """Bring the hand to the seat's decision described by ``state`` (a client-library
        :class:`~pokerbots.protocol.client.State`). Raises :class:`OutOfStep` if no reading of
        the message fits."""
        street = self._street_of_board[len(state.board)]
        lines = state.actions

        def fits(hand: Hand) -> bool:
            return (hand.to_act == 0 and hand.street == street and _same_folds(hand, lines)
                    and hand.front == state.fronts
                    and sum(hand.total) - sum(hand.front) == state.pot
                    and (state.stacks is None or hand.stack == state.stacks))

        found = self._readings(lines, street, fits, stop_at_seat=True, raises=True)
        if len(found) != 1:
            raise OutOfStep(f"{len(found)} readings of the message fit the hand so far")
        self.hand, acts = found[0]
        self.acts += acts

    def mine(self, reply: str) -> None:
        """The seat's own reply (``BET v`` or ``FOLD v``), once sent."""
        hand = self.hand
        word, _, value = reply.partition(" ")
        value = int(value)
        if word == "FOLD":
            play(hand, FOLD, self.acts)
        elif value == hand.legal().call:
            play(hand, CALL, self.acts)
        else:
            play(hand, RAISE, self.acts, value)

    # -- the end of the hand -------------------------------------------------------------------

    def at_end(self, result) -> bool:
        """Complete the hand from its ``end_hand`` (a client-library
        :class:`~pokerbots.protocol.client.HandResult`) when certain; returns
        :attr:`complete`."""
        if self.over:
            return True
        won = [0] * len(result.deltas)
        for amount, winner in result.pots:
            won[winner] += amount
        spent = [w - d for w, d in zip(won, result.deltas)]
        fronts = [value for _, value in result.actions]
        found = []
        for street in range(self.hand.street, len(self.game.structure.streets)):

            def fits(hand: Hand, street=street) -> bool:
                return (hand.street == street and _same_folds(hand, result.actions)
                        and hand.front == fronts and hand.total == spent)

            found += self._readings(result.actions, street, fits, stop_at_seat=False,
                                    raises=False)
        if len(found) != 1:
            self.complete = False
            return False
        self.hand, acts = found[0]
        self.acts += acts
        return True

    def replay(self, actions: list, me: int) -> None:
        """Rebuild the whole hand from its action list, as the server's hand feed gives it
        (``[seat, word, value, street]`` with absolute seats; this seat is ``me``); the hand is
        then :attr:`complete`. Raises :class:`OutOfStep` if the list does not fit the hand."""
        n = self.game.players
        hand = self._start.clone()
        acts: list[Act] = []
        try:
            for seat, word, value, _ in actions:
                if hand.to_act != (seat - me) % n:
                    raise OutOfStep(f"seat {seat} acts out of turn in the hand's record")
                play_recorded(hand, word, value, acts)
        except (IllegalMove, ValueError) as exc:
            raise OutOfStep(f"the hand's record does not fit the rules: {exc}") from None
        self.hand, self.acts, self.complete = hand, acts, True

    # -- readings ------------------------------------------------------------------------------

    def _readings(self, lines, street: int, fits, *, stop_at_seat: bool, raises: bool) -> list:
        """Every way the players before the next stop could have acted that ``fits`` the
        message: ``[(hand, new acts), ...]``. Before ``street`` a player called or folded (a
        ``FOLD 0`` line may mean either); on ``street`` its line is its one action. The seat
        itself (seat 0) acts only when asked: a reading that gives it a turn it did not have is
        no reading (unless that turn is the decision being followed, ``stop_at_seat``)."""
        found = []
        pending = [(self.hand.clone(), [])]
        while pending:
            hand, acts = pending.pop()
            while True:
                seat = hand.to_act
                if seat is None or seat == 0:
                    if fits(hand) and (seat is None or stop_at_seat):
                        found.append((hand, acts))
                    break
                if hand.street > street:
                    break
                word, value = lines[seat]
                if hand.street < street:
                    if word == "FOLD" and value == 0 and hand.bet > hand.front[seat]:
                        other, branch = hand.clone(), list(acts)
                        if self._try(other, FOLD, branch):
                            pending.append((other, branch))
                    if not self._try(hand, CALL, acts):
                        break
                elif word == "FOLD":
                    if value != hand.front[seat] or not self._try(hand, FOLD, acts):
                        break
                elif word == "BET" and value == hand.legal().call:
                    if not self._try(hand, CALL, acts):
                        break
                elif word == "BET" and raises:
                    if not self._try(hand, RAISE, acts, value):
                        break
                else:
                    break  # PASS/BLIND for a player who must have acted, or a raise unseen
        return found

    @staticmethod
    def _try(hand: Hand, word: str, acts: list, value: int | None = None) -> bool:
        try:
            play(hand, word, acts, value)
        except (IllegalMove, ValueError):
            return False
        return True


def play(hand: Hand, word: str, acts: list, value: int | None = None) -> None:
    """Play ``word`` (:data:`FOLD`, :data:`CALL`, or :data:`RAISE` to ``value`` in front) for
    the seat to act in ``hand`` and append its :class:`Act` to ``acts`` (front and total taken
    before the engine moves on to the next street or pays the pots). IllegalMove if the rules
    forbid it."""
    seat, street = hand.to_act, hand.street
    front, total = hand.front[seat], hand.total[seat]
    if word == FOLD:
        if hand.bet <= front:
            raise IllegalMove("folding is not allowed when checking is free")
        hand.fold()
    elif word == CALL:
        added = max(0, min(hand.bet - front, hand.stack[seat]))
        hand.call()
        front, total = front + added, total + added
    else:
        hand.raise_to(value)
        front, total = value, total + value - front
    acts.append(Act(seat, word, front, total, street))


def play_recorded(hand: Hand, word: str, value: int, acts: list) -> None:
    """Play an action as ``hands.jsonl`` records it (``FOLD``, or the money in front after it:
    a call when that is what calling puts in front, a raise otherwise), as :func:`play`."""
    if word == "FOLD":
        play(hand, FOLD, acts)
    elif value == hand.legal().call:
        play(hand, CALL, acts)
    else:
        play(hand, RAISE, acts, value)


def _same_folds(hand: Hand, lines) -> bool:
    """Whether the players shown ``FOLD`` have folded in ``hand`` and those shown ``BET`` or
    ``BLIND`` have not (a player who folded on the street before the seat's previous decision
    is shown ``PASS``, as one who did not act since)."""
    for seat, (word, _) in enumerate(lines):
        if hand.stacks_start[seat] and (word == "FOLD") != hand.folded[seat] and word != "PASS":
            return False
    return True

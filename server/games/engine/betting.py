"""The one betting engine: a hand of any game, played by the game's :class:`~.base.Structure`.

Rules that hold in every game (each game's structure fills in the sizes):

* Forced bets: dead antes first (straight into the pot, never in front), then antes in front
  (opening no betting), the small blind left of the button and the big blind next (heads-up the
  button posts the small blind). A seat that cannot post a whole forced bet posts what it has
  and is all-in; an empty stack sits the hand out.
* Order: on the first street the seat left of the big blind acts first (left of the button when
  there are no blinds); on every later street the first seat left of the button still in with
  chips.
* Bets: money in front is per street. In a limit game a bet or raise goes to the table bet plus
  the street's bet size, at most ``cap`` bets a street (a blind counting as the first). In
  no-limit the smallest bet is the street's bet size and a raise must raise by at least the
  street's largest full raise so far, up to all-in. A short all-in (less than a full raise)
  does not reopen the betting for a seat that already acted on the street unless the raises
  since its last action add up to a full raise (the TDA rule), and never counts toward the cap.
  Nobody may raise when no other seat could put in more than the table bet.
* A street ends when every seat still in with chips has acted and matched the table bet; when
  at most one seat could still bet, the board is dealt out with no more decisions.
* Pots: an uncalled bet goes back to its owner (if the structure says so; a dead ante is no
  bet and never comes back). The rest is split into a main pot and side pots by contribution
  level (dead antes left out), folded chips staying in; every dead ante goes to the main pot.
  Each pot goes to the best hand (the game's ``rank``) among the seats still in that reached
  its level. A split
  pot gives the odd chips one each to the first winners clockwise from the button. Only a seat
  that wins a share of a pot contested by at least two seats shows its cards.

The engine gives numbers (chips, seats, streets, cards) and writes no protocol text: the
referee's render (:mod:`pokerbots.server.referee.render`) writes the messages from them.

Performance: per action the work is a scan of the seats with no allocation beyond the
:class:`~pokerbots.protocol.wire.Legal` answer, which is shared between identical situations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from pokerbots.protocol.memo import Memo
from pokerbots.protocol.wire import Legal
from pokerbots.server.games.base import Deal, Game, IllegalMove, Street

#: A stack that never runs out (games without stacks); never shown to anyone.
UNLIMITED = 1 << 62

#: Legal answers are immutable and recur often (a check, a call of the big blind): shared, by
#: the numbers they are made of. 4096: the situations of one match's hands.
_LEGAL: Final[Memo[tuple, Legal]] = Memo("engine.legal", 4096)

#: :func:`seat_orders` by table size: 16, more sizes than any game allows (2 to 10 players).
_ORDERS: Final[Memo[int, tuple[tuple[int, ...], ...]]] = Memo("engine.orders", 16)


#: What :meth:`Hand.clone` copies: the state that changes as a hand is played.
_SCALARS = ("street", "revealed", "returned", "bet", "_base", "inc", "raises", "to_act",
            "_decision", "_rr", "_rr_decision", "_live", "_active")
_LISTS = ("stack", "front", "folded", "acted", "_shown", "_pots", "forced", "total")


def seat_orders(n: int) -> tuple[tuple[int, ...], ...]:
    """``seat_orders(n)[start]``: the ``n`` seats clockwise from ``start``."""
    orders = _ORDERS.get(n)
    if orders is None:
        orders = _ORDERS.keep(n, tuple(tuple((s + i) % n for i in range(n)) for s in range(n)))
    return orders


class Hand:
    """One hand in progress. The referee drives it with :meth:`call`, :meth:`raise_to` and
    :meth:`fold` for the seat in :attr:`to_act`, after checking the reply against
    :meth:`legal`. ``stacks`` are the chips each seat brings (None: no limit)."""

    def __init__(self, game: Game, button: int, deal: Deal, stacks: Sequence[int] | None
                 ) -> None:
        n: int = game.players
        structure = game.structure
        if len(deal.holes) != n or len(deal.board) != game.board_cards:
            raise ValueError(f"a deal of {game.name} needs {n} hands of {game.hole_cards}"
                             f" card(s) and {game.board_cards} board card(s)")
        self.players = n
        self.button = button
        self.holes = deal.holes
        self.board = deal.board
        self._game = game
        self._streets: tuple[Street, ...] = structure.streets
        self._limit: bool = not structure.no_limit
        self._cap: int | None = structure.cap
        self._return: bool = structure.return_uncalled
        self._orders = seat_orders(n)
        self.limited = stacks is not None
        self.stacks_start: list[int] = list(stacks) if stacks is not None else [UNLIMITED] * n
        self.stack: list[int] = list(self.stacks_start)
        stack = self.stack
        self.front: list[int] = [0] * n
        front = self.front
        self.folded: list[bool] = [s == 0 for s in stack]
        folded = self.folded  # an empty stack sits the hand out
        if n - sum(folded) < 2:
            raise ValueError("a hand needs at least two players with chips")
        #: Index of the betting round in progress, or of the last one played once it is over.
        self.street = 0
        #: Board cards shown so far.
        self.revealed = 0
        # acted[s]: the table bet s left or faced at its latest action this street, -1 if none.
        self.acted: list[int] = [-1] * n
        self._shown: list[bool] = [False] * n
        self._pots: list[tuple[int, int]] = []
        self.returned = 0
        #: Dead antes posted, per seat (straight into the pot), or None in a game without them.
        self.antes: list[int] | None = None
        if structure.dead_ante:
            self.antes = antes = structure.antes(n, button)
            for seat in range(n):
                antes[seat] = posted = min(antes[seat], stack[seat])
                stack[seat] -= posted
        for seat, chips in enumerate(structure.forced(n, button)):
            if chips and not folded[seat]:
                posted = min(chips, stack[seat])
                stack[seat] -= posted
                front[seat] = posted
        #: Forced bets posted in front at the start of the hand, per seat.
        self.forced: list[int] = list(front)
        # chips put in this hand, current street and dead antes included
        self.total: list[int] = list(front) if self.antes is None else [
            f + a for f, a in zip(front, self.antes)]
        self.bet: int = max(front)
        # A bet "opens" the street only above the antes (blinds count as a bet).
        self._base: int = structure.ante
        # The largest full raise increment of the street (limit: the bet size).
        self.inc: int = self._streets[0].bet
        self.raises: int = 1 if structure.blinds else 0  # bets this street (a blind is the first)
        #: Seat whose decision is due, or ``None`` once the hand is over.
        self.to_act: int | None = None
        self._decision = 0  # counts the decisions asked for
        self._rr: tuple[int, int] | None = None
        self._rr_decision = -1  # the decision _rr was worked out for
        self._live = n - sum(folded)  # players not folded
        self._active = len([s for s in range(n) if stack[s] and not folded[s]])
        if structure.blinds:
            first = button if n == 2 else (button + 3) % n
        else:
            first = button + 1
        self._find(first)

    # -- the seat to act -------------------------------------------------------------------

    def _raise_range(self) -> tuple[int, int] | None:
        """The legal raise of the seat to act as (min, max) money in front, or None (worked out
        once per decision: the legal line, the Raise line and the judging all ask)."""
        if self._rr_decision != self._decision:
            self._rr = self._work_out_raise()
            self._rr_decision = self._decision
        return self._rr

    def _work_out_raise(self) -> tuple[int, int] | None:
        s = self.to_act
        assert s is not None  # asked only while a decision is due
        bet = self.bet
        most = self.front[s] + self.stack[s]
        if most <= bet or self._active < 2:
            return None  # cannot put in more than a call, or nobody left to answer a raise
        acted = self.acted[s]
        if acted >= 0 and bet - acted < self.inc:
            return None  # betting not reopened since s acted: call or fold only
        front, stack, folded = self.front, self.stack, self.folded
        for t in self._orders[s]:
            if t != s and not folded[t] and front[t] + stack[t] > bet:
                break
        else:
            return None  # nobody else can put in more than the table bet: a raise is pointless
        if self._limit:
            if self._cap is not None and self.raises >= self._cap:
                return None
            to = bet + self.inc
            if to > most:
                to = most
            return to, to
        to = bet + self.inc
        return (to if to < most else most), most

    def legal(self) -> Legal:
        """The legal replies of the seat in :attr:`to_act`."""
        s = self.to_act
        if s is None:
            raise IllegalMove("the hand is over")
        front = self.front[s]
        bet = self.bet
        most = front + self.stack[s]
        rr = self._raise_range()
        key = (front, bet if bet < most else most, bet > front, rr, bet > self._base)
        legal = _LEGAL.get(key)
        if legal is None:
            if rr is None:
                legal = Legal(front, key[1], key[2], opened=key[4])
            else:
                legal = Legal(front, key[1], key[2], rr[0], rr[1], opened=key[4])
            _LEGAL.keep(key, legal)
        return legal

    def call_value(self) -> int:
        """The ``BET`` value that checks or calls for the seat in :attr:`to_act` (its
        :meth:`legal` answer's ``call``: the table bet, or all its chips when they are
        fewer)."""
        s = self.to_act
        if s is None:
            raise IllegalMove("the hand is over")
        most = self.front[s] + self.stack[s]
        return self.bet if self.bet < most else most

    def call(self) -> None:
        """Check or call for the seat to act."""
        s = self.to_act
        if s is None:
            raise IllegalMove("the hand is over")
        bet = self.bet
        amount = bet - self.front[s]
        if amount > 0:
            stack = self.stack
            if amount >= stack[s]:
                amount = stack[s]
                self._active -= 1  # all-in
            stack[s] -= amount
            self.front[s] += amount
            self.total[s] += amount
        self.acted[s] = bet
        self._find(s + 1)

    def raise_to(self, front: int) -> None:
        """Bet or raise so that the seat to act has ``front`` in front."""
        s = self.to_act
        if s is None:
            raise IllegalMove("the hand is over")
        rr = self._raise_range()
        if rr is None:
            raise IllegalMove(f"BET {front} is a raise, and no raise is allowed here")
        if not rr[0] <= front <= rr[1]:
            raise IllegalMove(f"a raise here goes to between {rr[0]} and {rr[1]}, not {front}")
        amount = front - self.front[s]
        self.stack[s] -= amount
        if not self.stack[s]:
            self._active -= 1  # all-in
        self.front[s] = front
        self.total[s] += amount
        increment = front - self.bet
        if increment >= self.inc:  # a full raise (else a short all-in)
            if not self._limit:
                self.inc = increment
            self.raises += 1
        self.bet = front
        self.acted[s] = front
        self._find(s + 1)

    def fold(self) -> None:
        """Fold the seat to act."""
        s = self.to_act
        if s is None:
            raise IllegalMove("the hand is over")
        if self.bet <= self.front[s]:
            raise IllegalMove("folding is not allowed when checking is free")
        self.folded[s] = True
        self._live -= 1
        self._active -= 1
        self._find(s + 1)

    # -- moving on -------------------------------------------------------------------------

    def _find(self, start: int) -> None:
        """Give the turn to the first seat from ``start`` that must act, or end the street."""
        if self._live == 1:
            self._finish()  # everyone else folded: no more cards
            return
        folded, stack, front, acted = self.folded, self.stack, self.front, self.acted
        bet = self.bet
        for t in self._orders[start % self.players]:
            if not folded[t] and stack[t] and (acted[t] < 0 or front[t] < bet):
                if self._active > 1 or front[t] < bet:
                    self.to_act = t
                    self._decision += 1
                    return
                break
        if self._active > 1 and self.street < len(self._streets) - 1:
            self._new_street()
        else:
            self.revealed = len(self.board)  # betting is over: run the board out
            self._finish()

    def _new_street(self) -> None:
        n = self.players
        self.street = street = self.street + 1
        self.revealed += self._streets[street].board
        self.front = [0] * n
        self.acted = [-1] * n
        self.bet = 0
        self._base = 0
        self.inc = self._streets[street].bet
        self.raises = 0
        self._find(self.button + 1)

    def _finish(self) -> None:
        self.to_act = None
        n = self.players
        total, stack, folded = self.total, self.stack, self.folded
        antes = self.antes
        if self._return:
            # The uncalled part of the largest bet goes back to its owner (antes are no bets).
            bets = total if antes is None else [t - a for t, a in zip(total, antes)]
            top = 0  # the first seat with the largest bet, and the largest of the others
            for s in range(1, n):
                if bets[s] > bets[top]:
                    top = s
            second = bets[1] if top == 0 else bets[0]
            for s in range(n):
                if s != top and bets[s] > second:
                    second = bets[s]
            if bets[top] > second:
                self.returned = back = bets[top] - second
                total[top] -= back
                stack[top] += back
        order = self._orders[(self.button + 1) % n]
        live = [s for s in order if not folded[s]]
        pots = self._pots
        if len(live) == 1:
            winner = live[0]
            amount = _sum(total)
            stack[winner] += amount
            pots.append((amount, winner))
        else:
            rank, board, holes = self._game.rank, self.board, self.holes
            score = {s: rank(holes[s], board) for s in live}
            # Levels of the chips bet; the dead antes all go to the main pot.
            bets, dead = total, 0
            if antes is not None:
                bets, dead = [t - a for t, a in zip(total, antes)], sum(antes)
            levels = sorted({bets[s] for s in live})
            paid = 0
            prev = 0
            for i, level in enumerate(levels):
                if i == len(levels) - 1:
                    amount = _sum(total) - paid  # (nothing can lie above the top level)
                else:
                    amount = _between(bets, prev, level)
                    if i == 0:
                        amount += dead
                prev = level
                if amount <= 0:
                    continue
                paid += amount
                eligible = [s for s in live if bets[s] >= level]
                best = max([score[s] for s in eligible])
                winners = [s for s in eligible if score[s] == best]
                share, odd = divmod(amount, len(winners))
                contested = len(eligible) > 1
                for k, w in enumerate(winners):
                    won = share + 1 if k < odd else share
                    stack[w] += won
                    pots.append((won, w))
                    if contested:
                        self._shown[w] = True
        self._game.hand_over(self)

    def clone(self) -> Hand:
        """A copy of this hand in progress that can be played on without touching this one
        (explicit, because a compiled Hand cannot be copied by ``copy.copy``)."""
        other = Hand(self._game, self.button, Deal(self.holes, self.board),
                     self.stacks_start if self.limited else None)
        for name in _SCALARS:
            setattr(other, name, getattr(self, name))
        for name in _LISTS:
            setattr(other, name, list(getattr(self, name)))
        return other

    # -- what the referee reads ------------------------------------------------------------

    @property
    def pots(self) -> list[tuple[int, int]]:
        """Once over: ``(amount, seat)`` for each pot share won, in the order they are paid."""
        return self._pots

    @property
    def deltas(self) -> list[int]:
        """Once over: each seat's net chip result for the hand."""
        start = self.stacks_start
        return [self.stack[s] - start[s] for s in range(self.players)]

    @property
    def pot(self) -> int:
        """The chips in the pot from the streets before this one (dead antes included)."""
        return _sum(self.total) - _sum(self.front)

    def raise_range(self) -> tuple[int, int] | None:
        """The legal bet or raise of the seat to act as (min, max) money in front, or None
        (none allowed, or the hand is over)."""
        return self._raise_range() if self.to_act is not None else None

    def shows(self, seat: int) -> bool:
        """Once over: whether ``seat`` shows its cards (only winners of a contested pot do)."""
        return self._shown[seat]

    def record(self) -> dict:
        """What the machine-readable hand history records beyond the common facts."""
        record: dict = {}
        if self.antes is not None:
            record["antes"] = list(self.antes)
        if self.board:
            record["board"] = list(self.board[: self.revealed])
        if self.limited:
            record["stacks_start"] = list(self.stacks_start)
            record["stacks_end"] = list(self.stack)
        return record


def _between(bets: list[int], low: int, high: int) -> int:
    """The chips of ``bets`` between the levels ``low`` and ``high``: one pot's size."""
    total = 0
    for t in bets:
        total += (t if t < high else high) - (t if t < low else low)
    return total


def _sum(chips: list[int]) -> int:
    """``sum(chips)`` as native arithmetic: the builtin is a generic call from compiled code,
    twice in every Hold'em play message and in every showdown."""
    total = 0
    for c in chips:
        total += c
    return total


def start_hand(game: Game, button: int, deal: Deal) -> Hand:
    """Start a hand of ``game`` (forced bets posted) with ``button`` on that seat: in carry
    mode from the chips each seat kept, else from the table's stacks."""
    stacks = game.stacks if game.stacks is not None and game.carry else game.structure.stacks
    return Hand(game, button, deal, stacks)

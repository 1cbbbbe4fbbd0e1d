"""Texas Hold'em, no-limit and limit, 2 to 10 players, behind the one game interface.

Rules (the protocol document has them in prose for bot authors):

* 52 cards, two hole cards each, a flop of three, a turn and a river; the best five of seven
  wins (ranked by ``eval7``). The five board cards are dealt up front and revealed by street.
* Three or more players: small blind left of the button, big blind next, first to act pre-flop
  left of the big blind; after the flop the first player still in (not folded, not all-in) left
  of the button. Heads-up: the button posts the small blind and acts first pre-flop; the big
  blind acts first after the flop.
* No-limit: the minimum bet is the big blind; a raise must raise by at least the largest full
  raise increment of the street so far (pre-flop the big blind counts as the first one); all-in
  for less is always allowed. A short all-in (less than a full raise) does not reopen the
  betting to a player who has already acted on the street unless the raises since that
  player's last action add up to a full raise (TDA rule); such a player may only call or fold.
  Nobody may raise when no other player could put in more than the table bet.
* Limit: small bet pre-flop and on the flop, big bet on the turn and river, at most four bets
  per street (pre-flop the big blind is the first). A short all-in raise in limit follows the
  no-limit rule: it does not reopen the betting unless the raises since a player's last action
  add up to a full bet, and it never counts toward the four-bet cap.
* Money in front (``front``) is per street: ``BET <v>`` raises TO ``v`` on the current street.
  The table bet is the largest money in front (pre-flop: the largest blind actually posted).
* Pots: an uncalled bet or raise portion goes back to its owner (it is no pot). The rest is
  split into a main pot and side pots by contribution level; folded chips stay in. Each pot
  goes to the best hand among the players still in who contributed to that level; a split pot
  gives the odd chips one each to the first winners clockwise from the button. Only a player
  who wins a share of a pot contested by at least two players shows cards.
* Money: Doyle's game by default (every hand starts with the starting stack). With
  ``carry=True`` stacks carry from hand to hand; after a hand ``REBUY`` tops a short stack up to
  the starting stack and a player with no chips must rebuy. The bankroll is the net result in
  both modes (chips won minus chips lost), so the chips a rebuy replaces were charged to it when
  they were lost and the rebuy itself leaves it alone; ``rebuys`` counts the chips bought. A
  player who cannot post a whole blind posts what they have (all-in).

Performance: per action the work is a scan of at most ten seats with no allocation beyond the
:class:`~.base.Legal` answer; ``eval7`` runs only at a showdown, on cards looked up in a dict
built once at import.
"""

from __future__ import annotations

import random

import eval7

from .base import Deal, Game, Hand, IllegalMove, Legal, join, rotate

RANKS = "23456789TJQKA"
SUITS = "cdhs"
#: The 52 cards as text, rank then suit (``Ah``; ten is ``T``).
DECK = tuple(r + s for r in RANKS for s in SUITS)
_EVAL7 = {c: eval7.Card(c) for c in DECK}

#: Bets per street in limit, the big blind counting as the first pre-flop.
LIMIT_CAP = 4
_BOARD_SHOWN = (0, 3, 4, 5)
# Legal answers are immutable and recur often: share them (bounded, cleared when full).
_LEGAL: dict = {}
_LEGAL_CACHE = 4096  # board cards revealed on each street

# _ORDERS[n][start]: the n seats clockwise from ``start``.
_ORDERS = {n: tuple(tuple((s + i) % n for i in range(n)) for s in range(n)) for n in range(2, 11)}


class HoldemHand(Hand):
    """One hand of Hold'em. ``stacks`` are the chips each seat brings to the hand."""

    def __init__(self, game: _Holdem, button: int, deal: Deal, stacks: list[int]) -> None:
        n = game.players
        if len(deal.holes) != n or len(deal.board) != 5:
            raise ValueError(f"a Hold'em deal needs {n} hands of two cards and 5 board cards")
        self.players = n
        self.button = button
        self.holes = deal.holes
        self.board = deal.board
        self._game = game
        self._limit = game.limit
        self._bb = game.big_blind
        self._orders = _ORDERS[n]
        self.stacks_start = list(stacks)
        self.stack = stack = list(stacks)
        self.front = front = [0] * n
        self.folded = folded = [s == 0 for s in stacks]  # an empty stack sits the hand out
        if n - sum(folded) < 2:
            raise ValueError("a hand needs at least two players with chips")
        self.street = 0
        self.revealed = 0
        # acted[s]: the table bet s left or faced at its latest action this street, -1 if none.
        self.acted = [-1] * n
        self._shown = [False] * n
        self._pots: list[tuple[int, int]] = []
        self.returned = 0
        if n == 2:
            sb_seat, bb_seat = button, 1 - button
            first = button
        else:
            sb_seat, bb_seat = (button + 1) % n, (button + 2) % n
            first = (button + 3) % n
        for seat, blind in ((sb_seat, game.small_blind), (bb_seat, game.big_blind)):
            posted = min(blind, stack[seat])
            stack[seat] -= posted
            front[seat] = posted
        self.forced = list(front)
        self.total = list(front)  # chips put in this hand, current street included
        self.bet = max(front)
        # The largest full raise increment of the street (limit: the bet size).
        self.inc = game.small_bet if self._limit else self._bb
        self.raises = 1  # limit: bets this street (the big blind is the first)
        self.to_act: int | None = None
        self._live = n - sum(folded)  # players not folded
        self._active = sum(1 for s in range(n) if stack[s])  # not folded and not all-in
        self._find(first)

    # -- the seat to act -------------------------------------------------------------------

    def _raise_range(self) -> tuple[int, int] | None:
        """The legal raise of the seat to act as (min, max) money in front, or None."""
        s = self.to_act
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
            if self.raises >= LIMIT_CAP:
                return None
            to = bet + self.inc
            if to > most:
                to = most
            return to, to
        to = bet + self.inc
        return (to if to < most else most), most

    def legal(self) -> Legal:
        s = self.to_act
        if s is None:
            raise IllegalMove("the hand is over")
        front = self.front[s]
        bet = self.bet
        most = front + self.stack[s]
        rr = self._raise_range()
        key = (front, bet if bet < most else most, bet > front, rr)
        legal = _LEGAL.get(key)
        if legal is None:
            if len(_LEGAL) >= _LEGAL_CACHE:
                _LEGAL.clear()
            if rr is None:
                legal = Legal(front, key[1], key[2], opened=bet > 0)
            else:
                legal = Legal(front, key[1], key[2], rr[0], rr[1], opened=bet > 0)
            _LEGAL[key] = legal
        return legal

    def call(self) -> None:
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
                    return
                break
        if self._active > 1 and self.street < 3:
            self._new_street()
        else:
            self.revealed = 5  # betting is over: run the board out
            self._finish()

    def _new_street(self) -> None:
        n = self.players
        self.street = street = self.street + 1
        self.revealed = _BOARD_SHOWN[street]
        self.front = [0] * n
        self.acted = [-1] * n
        self.bet = 0
        game = self._game
        self.inc = (game.big_bet if street >= 2 else game.small_bet) if self._limit else self._bb
        self.raises = 0
        self._find(self.button + 1)

    def _finish(self) -> None:
        self.to_act = None
        n = self.players
        total, stack, folded = self.total, self.stack, self.folded
        # The uncalled part of the largest contribution goes back to its owner.
        top = max(range(n), key=total.__getitem__)
        second = max(total[s] for s in range(n) if s != top)
        if total[top] > second:
            self.returned = back = total[top] - second
            total[top] = second
            stack[top] += back
        order = self._orders[(self.button + 1) % n]
        live = [s for s in order if not folded[s]]
        pots = self._pots
        if len(live) == 1:
            winner = live[0]
            amount = sum(total)
            stack[winner] += amount
            pots.append((amount, winner))
        else:
            board = [_EVAL7[c] for c in self.board]
            score = {}
            for s in live:
                a, b = self.holes[s]
                score[s] = eval7.evaluate(board + [_EVAL7[a], _EVAL7[b]])
            levels = sorted({total[s] for s in live})
            paid = 0
            prev = 0
            for i, level in enumerate(levels):
                if i == len(levels) - 1:
                    amount = sum(total) - paid  # (nothing can lie above the top level)
                else:
                    amount = sum(min(t, level) - min(t, prev) for t in total)
                prev = level
                if amount <= 0:
                    continue
                paid += amount
                eligible = [s for s in live if total[s] >= level]
                best = max(score[s] for s in eligible)
                winners = [s for s in eligible if score[s] == best]
                share, odd = divmod(amount, len(winners))
                contested = len(eligible) > 1
                for k, w in enumerate(winners):
                    won = share + 1 if k < odd else share
                    stack[w] += won
                    pots.append((won, w))
                    if contested:
                        self._shown[w] = True
        self._game._hand_over(self)

    # -- what the referee reads ------------------------------------------------------------

    @property
    def pots(self) -> list[tuple[int, int]]:
        return self._pots

    @property
    def deltas(self) -> list[int]:
        start = self.stacks_start
        return [self.stack[s] - start[s] for s in range(self.players)]

    def hole_text(self, seat: int) -> str:
        a, b = self.holes[seat]
        return f"{a} {b}"

    def showdown_text(self, seat: int) -> str:
        return self.hole_text(seat) if self._shown[seat] else "-"

    def board_text(self) -> str:
        return " ".join(self.board[: self.revealed]) or "-"

    def state_lines(self, view: int) -> str:
        pot = sum(self.total) - sum(self.front)
        rr = self._raise_range() if self.to_act is not None else None
        raise_text = "-" if rr is None else f"{rr[0]},{rr[1]}"
        return (
            f"Board: {self.board_text()}\nPot: {pot}\n"
            f"Stacks: {join(rotate(self.stack, view))}\nRaise: {raise_text}\n"
        )

    def end_lines(self, view: int) -> str:
        return f"Board: {self.board_text()}\nStacks: {join(rotate(self.stack, view))}\n"

    def record(self) -> dict:
        return {
            "board": list(self.board[: self.revealed]),
            "stacks_start": list(self.stacks_start),
            "stacks_end": list(self.stack),
        }


def _whole(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number of chips, not {value!r}")
    return value


class _Holdem(Game):
    """The shared implementation of both betting structures."""

    min_players = 2
    max_players = 10
    limit = False

    def __init__(self, players: int, *, stack: int = 2000, small_blind: int = 5,
                 big_blind: int = 10, small_bet: int = 10, big_bet: int = 20,
                 carry: bool = False) -> None:
        super().__init__(players)
        stack = _whole("the stack", stack)
        small_blind = _whole("the small blind", small_blind)
        big_blind = _whole("the big blind", big_blind)
        if not 0 < small_blind <= big_blind:
            raise ValueError(
                f"blinds must satisfy 0 < small <= big, not {small_blind}/{big_blind}")
        if stack < big_blind:
            raise ValueError(f"the stack ({stack}) must be at least the big blind ({big_blind})")
        if self.limit:
            small_bet = _whole("the small bet", small_bet)
            big_bet = _whole("the big bet", big_bet)
            if not 0 < small_bet <= big_bet:
                raise ValueError(
                    f"bet sizes must satisfy 0 < small <= big, not {small_bet}/{big_bet}")
        if not isinstance(carry, bool):
            raise ValueError(f"carry must be True or False, not {carry!r}")
        self.stack = stack
        self.small_blind = small_blind
        self.big_blind = big_blind
        self.small_bet = small_bet
        self.big_bet = big_bet
        self.carry = carry
        #: Carry mode: each seat's chips between hands.
        self.stacks = [stack] * players
        #: Carry mode: the chips each seat has bought with REBUY so far.
        self.rebuys = [0] * players

    def blinds(self, button: int) -> list[int]:
        n = self.players
        forced = [0] * n
        if n == 2:
            forced[button], forced[1 - button] = self.small_blind, self.big_blind
        else:
            forced[(button + 1) % n], forced[(button + 2) % n] = self.small_blind, self.big_blind
        return forced

    def round_lines(self, view: int) -> str:
        mode = "carry" if self.carry else "reset"
        lines = f"Game: {self.name}\nStack: {self.stack}\nStackMode: {mode}\n"
        if self.limit:
            lines += f"BetSizes: {self.small_bet},{self.big_bet}\n"
        return lines

    def deal(self, rng: random.Random) -> Deal:
        n = self.players
        cards = rng.sample(DECK, 2 * n + 5)
        return Deal(tuple(zip(cards[0:2 * n:2], cards[1:2 * n:2])), tuple(cards[2 * n:]))

    def parse_deal(self, text: str) -> Deal:
        n = self.players
        if text.count("|") != 1:
            raise ValueError("expected each seat's two cards, then '|' and the 5 board cards")
        left, right = text.split("|")
        hands = left.split()
        board = right.split()
        if len(hands) != n:
            raise ValueError(f"expected {n} hands of two cards (one per seat) before '|',"
                             f" found {len(hands)}")
        if len(board) != 5:
            raise ValueError(f"expected 5 board cards after '|', found {len(board)}")
        for h in hands:
            if len(h) != 4:
                raise ValueError(f"{h!r} is not two cards written together, like 'AhKd'")
        holes = tuple((h[:2], h[2:]) for h in hands)
        cards = [c for hole in holes for c in hole] + board
        seen = set()
        for card in cards:
            if card not in _EVAL7:
                raise ValueError(f"{card!r} is not a card: a rank of {RANKS} then a suit of"
                                 f" {SUITS}, like 'Ah' or 'Td'")
            if card in seen:
                raise ValueError(f"{card} is dealt twice")
            seen.add(card)
        return Deal(holes, tuple(board))

    def new_hand(self, button: int, deal: Deal) -> HoldemHand:
        stacks = self.stacks if self.carry else [self.stack] * self.players
        return HoldemHand(self, button, deal, stacks)

    def _hand_over(self, hand: HoldemHand) -> None:
        if self.carry:
            self.stacks[:] = hand.stack

    def end_reply(self, seat: int, rebuy: bool) -> None:
        if not self.carry:
            if rebuy:
                raise IllegalMove(f"REBUY is not allowed in {self.name} with stacks reset every"
                                  f" hand: every hand starts with {self.stack} chips")
            return
        have = self.stacks[seat]
        if rebuy:
            if have >= self.stack:
                raise IllegalMove(f"REBUY is only allowed below the starting stack of"
                                  f" {self.stack}, and you have {have}")
            self.stacks[seat] = self.stack
            self.rebuys[seat] += self.stack - have
        elif have == 0:
            raise IllegalMove("you have no chips: answer REBUY")

    def end_choices(self, seat: int) -> str:
        if not self.carry:
            return "OK"
        have = self.stacks[seat]
        if have == 0:
            return "REBUY"
        return "OK" if have >= self.stack else "OK or REBUY"

    def standing(self) -> dict:
        if not self.carry:
            return {}
        return {"stacks": list(self.stacks), "rebuys": list(self.rebuys)}


class HoldemNoLimit(_Holdem):
    name = "holdem-nl"
    limit = False

    def __init__(self, players: int, *, stack: int = 2000, small_blind: int = 5,
                 big_blind: int = 10, carry: bool = False) -> None:
        super().__init__(players, stack=stack, small_blind=small_blind, big_blind=big_blind,
                         carry=carry)


class HoldemLimit(_Holdem):
    name = "holdem-limit"
    limit = True

    def __init__(self, players: int, *, stack: int = 2000, small_blind: int = 5,
                 big_blind: int = 10, small_bet: int = 10, big_bet: int = 20,
                 carry: bool = False) -> None:
        super().__init__(players, stack=stack, small_blind=small_blind, big_blind=big_blind,
                         small_bet=small_bet, big_bet=big_bet, carry=carry)

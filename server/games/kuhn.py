"""N-player Kuhn poker (2 to 6 players).

One card each from a deck of N+1 cards, an ante of 1 each, one betting round with at most one
bet of 1 and no raises. The two-player deck is J Q K (the classic game); from three players on it
is the N+1 highest cards (three players: J Q K A; six players: 8 9 T J Q K A).

Play starts left of the button. While nobody has bet, each player checks (``BET 1``) or bets
(``BET 2``); once someone has bet, every other player still in answers once, in order, by calling
(``BET 2``) or folding (``FOLD 1``). The highest card among the players still in wins the pot.
"""

from __future__ import annotations

import random

from .base import Deal, Game, Hand, IllegalMove, Legal

RANKS = "23456789TJQKA"

_CHECK_OR_BET = Legal(front=1, call=1, fold=False, raise_min=2, raise_max=2)
_CALL_OR_FOLD = Legal(front=1, call=2, fold=True)


def deck_for(players: int) -> str:
    """The ranks in play for ``players`` players, lowest first."""
    return "JQK" if players == 2 else RANKS[-(players + 1):]


class KuhnHand(Hand):
    def __init__(self, players: int, button: int, cards: list[str], strength: dict[str, int]):
        self.players = players
        self.cards = cards
        self._strength = strength
        self.street = 0
        self.front = [1] * players
        self.forced = [1] * players
        self.folded = [False] * players
        self.bettor: int | None = None
        # Seats still due to act, in order; refilled once when someone bets.
        first = (button + 1) % players
        self._queue = [(first + i) % players for i in range(players)]
        self._queue.reverse()  # pop() from the end is the next to act
        self.to_act = self._queue.pop()
        self._winner: int | None = None

    def legal(self) -> Legal:
        return _CHECK_OR_BET if self.bettor is None else _CALL_OR_FOLD

    def call(self) -> None:
        if self.bettor is not None:
            self.front[self.to_act] = 2
        self._next()

    def raise_to(self, front: int) -> None:
        if self.bettor is not None or front != 2:
            raise IllegalMove("Kuhn poker allows one bet of 1 and no raise")
        seat = self.to_act
        self.bettor = seat
        self.front[seat] = 2
        n = self.players
        # Everyone else answers once, starting left of the bettor.
        self._queue = [(seat + i) % n for i in range(n - 1, 0, -1)]
        self._next()

    def fold(self) -> None:
        if self.bettor is None:
            raise IllegalMove("folding is not allowed when checking is free")
        self.folded[self.to_act] = True
        self._next()

    def _next(self) -> None:
        if self._queue:
            self.to_act = self._queue.pop()
            return
        self.to_act = None
        live = [s for s in range(self.players) if not self.folded[s]]
        self._winner = max(live, key=lambda s: self._strength[self.cards[s]])

    @property
    def pots(self) -> list[tuple[int, int]]:
        return [(sum(self.front), self._winner)]

    @property
    def deltas(self) -> list[int]:
        pot = sum(self.front)
        return [(pot if s == self._winner else 0) - self.front[s] for s in range(self.players)]

    def hole_text(self, seat: int) -> str:
        return self.cards[seat]

    def showdown_text(self, seat: int) -> str:
        # Automatic mucking: only the winner of a contested pot shows; an uncontested pot shows
        # nothing, as in the protocol document's example.
        contested = sum(not f for f in self.folded) > 1
        return self.cards[seat] if contested and seat == self._winner else "-"


class Kuhn(Game):
    name = "kuhn"
    min_players = 2
    max_players = 6

    def __init__(self, players: int) -> None:
        super().__init__(players)
        self.deck = deck_for(players)
        self._strength = {rank: i for i, rank in enumerate(self.deck)}

    def blinds(self, button: int) -> list[int]:
        return [1] * self.players

    def deal(self, rng: random.Random) -> Deal:
        return Deal(tuple((c,) for c in rng.sample(self.deck, self.players)))

    def parse_deal(self, text: str) -> Deal:
        cards = text.split()
        if len(cards) != self.players:
            raise ValueError(f"expected {self.players} cards (one per seat), found {len(cards)}")
        for card in cards:
            if card not in self._strength:
                raise ValueError(f"{card!r} is not in the {self.players}-player deck {self.deck}")
        if len(set(cards)) != len(cards):
            raise ValueError("a card is dealt twice")
        return Deal(tuple((c,) for c in cards))

    def new_hand(self, button: int, deal: Deal) -> KuhnHand:
        return KuhnHand(self.players, button, [h[0] for h in deal.holes], self._strength)

"""N-player Kuhn poker (2 to 6 players), as data for the betting engine.

One card each from a deck of N+1 cards, an ante of 1 each, one betting round with at most one
bet of 1 and no raises. The two-player deck is J Q K (the classic game); from three players on
it is the N+1 highest cards (three players: J Q K A; six players: 8 9 T J Q K A).

Play starts left of the button. While nobody has bet, each player checks (``BET 1``) or bets
(``BET 2``); once someone has bet, every other player still in answers once, in order, by
calling (``BET 2``) or folding (``FOLD 1``): the engine's limit betting with a cap of one bet.
The highest card among the players still in wins the whole pot (an uncalled bet stays in it,
as the protocol's example shows: ``Pots: 4,0``).
"""

from __future__ import annotations

from pokerbots.server.games.base import (
    END_OF_ROUND_WHILE_WAITING,
    CertifyCase,
    Deal,
    Game,
    GameType,
    Street,
    Structure,
)

RANKS = "23456789TJQKA"

STRUCTURE = Structure(streets=(Street("preflop", board=0, bet=1),), cap=1, ante=1,
                      return_uncalled=False)


def deck_for(players: int) -> str:
    """The ranks in play for ``players`` players, lowest first."""
    return "JQK" if players == 2 else RANKS[-(players + 1):]


def parse_deal(game: Game, text: str) -> Deal:
    """One card per seat, separated by spaces: ``Q J K``."""
    cards = text.split()
    if len(cards) != game.players:
        raise ValueError(f"expected {game.players} cards (one per seat), found {len(cards)}")
    deck = "".join(game.deck)
    for card in cards:
        if card not in game.deck:
            raise ValueError(f"{card!r} is not in the {game.players}-player deck {deck}")
    if len(set(cards)) != len(cards):
        raise ValueError("a card is dealt twice")
    return Deal(tuple((c,) for c in cards))


def make(players: int) -> Game:
    deck = deck_for(players)
    strength = {rank: i for i, rank in enumerate(deck)}
    return Game(KUHN, players, STRUCTURE, deck=tuple(deck), hole_cards=1,
                rank=lambda hole, board: strength[hole[0]], parse_deal=parse_deal)


def certify_cases() -> tuple[CertifyCase, ...]:
    """Kuhn's certify cases beyond every game's: the end of the round while BOT waits."""
    return (END_OF_ROUND_WHILE_WAITING,)


KUHN = GameType(name="kuhn", title="Kuhn poker", min_players=2, max_players=6, make=make,
                certify=certify_cases)

GAMES = (KUHN,)

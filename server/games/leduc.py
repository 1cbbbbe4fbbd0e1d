"""Leduc Hold'em (Southey et al. 2005), 2 to 10 players, as data for the betting engine.

The deck has two cards of each of N+1 ranks for N players (two players: J J Q Q K K; from three
players on the N+1 highest ranks, three players: J J Q Q K K A A, as OpenSpiel sizes it). Each
player antes 1 and gets one private card; a first betting round; one board card; a second
betting round. Bets are fixed: 2 in the first round, 4 in the second, at most two bets a round
(a bet and one raise). The first player after the button acts first in both rounds. A pair with
the board wins; otherwise the higher card; equal cards split the pot. An uncalled bet goes back
to its owner. There are no stacks: as in Kuhn, bankrolls may go negative.

On the wire the ante appears as Kuhn's does (``BLIND 1``, money in front on the first round);
money in front restarts at 0 in the second round, as in Hold'em. ``play`` adds the board, the
pot of earlier rounds and the legal raise; ``end_hand`` adds the board and each player's chips
put in this hand (``Totals``), from which a bot keeps the score.
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

STRUCTURE = Structure(
    streets=(Street("preflop", board=0, bet=2), Street("flop", board=1, bet=4)),
    cap=2, ante=1)


def ranks_for(players: int) -> str:
    """The ranks in play for ``players`` players, lowest first (two cards of each): J Q K for
    two players (the classic game), else the N+1 highest."""
    return "JQK" if players == 2 else RANKS[-(players + 1):]


def parse_deal(game: Game, text: str) -> Deal:
    """One card per seat, then ``|`` and the board card: ``J Q | K``."""
    if text.count("|") != 1:
        raise ValueError("expected one card per seat, then '|' and the board card")
    left, right = text.split("|")
    holes, board = left.split(), right.split()
    if len(holes) != game.players:
        raise ValueError(f"expected {game.players} cards (one per seat) before '|',"
                         f" found {len(holes)}")
    if len(board) != 1:
        raise ValueError(f"expected 1 board card after '|', found {len(board)}")
    ranks = "".join(dict.fromkeys(game.deck))
    for card in holes + board:
        if card not in ranks:
            raise ValueError(f"{card!r} is not in the {game.players}-player deck {ranks}"
                             " (two of each)")
    for card in set(holes + board):
        if (holes + board).count(card) > 2:
            raise ValueError(f"{card} is dealt more than twice; the deck has two of each")
    return Deal(tuple((c,) for c in holes), tuple(board))


def make(players: int) -> Game:
    ranks = ranks_for(players)
    strength = {rank: i for i, rank in enumerate(ranks)}
    pair = len(ranks)

    def rank(hole: tuple[str, ...], board: tuple[str, ...]) -> int:
        card = hole[0]
        return pair + strength[card] if card == board[0] else strength[card]

    return Game(LEDUC, players, STRUCTURE, deck=tuple(r for r in ranks for _ in "12"),
                hole_cards=1, rank=rank, parse_deal=parse_deal,
                round_fields=lambda game, view: [("Game", LEDUC.name)])


def certify_cases() -> tuple[CertifyCase, ...]:
    """Leduc's certify cases beyond every game's: the end of the round while BOT waits, a
    split pot with an odd chip, the raise cap."""
    return (
        END_OF_ROUND_WHILE_WAITING,
        # BOT acts first in both rounds and the others only check or call: BOT never faces a
        # bet, everyone puts in the same odd amount (1 + 2s and 4s), and BOT's king ties the
        # other king: a split pot with an odd chip, whatever BOT plays.
        CertifyCase("odd chip", 3, 1, ("K K Q | J",), "c"),
        # A bet and a raise before BOT: the cap of two bets is reached.
        CertifyCase("raise cap", 3, 0, ("K Q A | J",), "r c|c"),
    )


LEDUC = GameType(
    name="leduc", title="Leduc Hold'em", min_players=2, max_players=10, make=make,
    certify=certify_cases)

GAMES = (LEDUC,)

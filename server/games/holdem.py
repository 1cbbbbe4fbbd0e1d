"""Texas Hold'em, no-limit and limit, 2 to 10 players, as data for the betting engine.

52 cards, two hole cards each, a flop of three, a turn and a river; the best five of seven wins
(ranked by ``eval7``). The five board cards are dealt up front and revealed by street. Blinds
5/10 by default; no-limit raises go up to all-in, limit bets are 10 before the turn and 20 from
it, four bets a street. Money: Doyle's game by default (every hand starts with the starting
stack); with ``carry`` stacks carry from hand to hand and a seat may ``REBUY`` up to the
starting stack (a seat with no chips must). The starting stack is one number or one per seat
(``--stack 100,250,80``), and a dead ante (``--ante``, or ``--big-blind-ante`` posted by the big
blind for the table) may come before the blinds, so that real hands replay as they were dealt.
The betting rules themselves are the engine's (:mod:`.betting`); the protocol document has them
in prose for bot authors.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Callable

from pokerbots.protocol.wire import MAX_DIGITS, join, parse_list
from pokerbots.server.games.base import (
    BySeat,
    Deal,
    Game,
    GameType,
    Option,
    RoundFact,
    Street,
    Structure,
    blind_seats,
    number_pair,
    whole_number,
)

RANKS = "23456789TJQKA"
SUITS = "cdhs"
#: The 52 cards as text, rank then suit (``Ah``; ten is ``T``).
DECK = tuple(r + s for r in RANKS for s in SUITS)
_CARDS = frozenset(DECK)

#: Bets per street in limit, the big blind counting as the first pre-flop.
LIMIT_CAP = 4
STREET_NAMES = ("preflop", "flop", "turn", "river")
BOARD_DEALT = (0, 3, 1, 1)

# eval7 is loaded once, at the first showdown or before (ranking(): the site loads it before
# it answers), and only the part that ranks hands (_eval7_ranking). Ranking keeps two module
# values, both safe to share between threads: what ranking() loaded, set once under its lock,
# and the last board as eval7's cards (_last_board), a tuple replaced whole, never changed,
# so that a thread reads a board and its cards that belong together.
_eval7: tuple[Callable, dict] | None = None
_loading = threading.Lock()
_last_board: tuple = ((), [])


def rank(hole: tuple[str, ...], board: tuple[str, ...]) -> int:
    """The strength of the best five of ``hole`` + ``board`` (higher wins), by eval7."""
    global _last_board
    evaluate, cards = _eval7 or ranking()
    last_board, last_cards = _last_board
    if last_board is not board:
        last_cards = [cards[c] for c in board]
        _last_board = (board, last_cards)
    return evaluate(last_cards + [cards[hole[0]], cards[hole[1]]])


def ranking() -> tuple[Callable, dict]:
    """eval7's ``evaluate`` and the deck as eval7's cards (text -> card), loaded the first
    time, once, whichever threads ask at the same time."""
    global _eval7
    with _loading:
        if _eval7 is None:
            evaluate, card = _eval7_ranking()
            _eval7 = (evaluate, {c: card(c) for c in DECK})
        return _eval7


def _eval7_ranking() -> tuple[Callable, Callable]:
    """eval7's ``evaluate`` and ``Card``, from its two compiled modules that hold them.

    ``import eval7`` also loads its hand ranges, which load pyparsing: 60 ms, a tenth of what a
    whole ``pokerbots run`` of 5,000 Hold'em hands spends besides its hands. The two modules
    are loaded under the package's name without running its ``__init__`` (the name is the
    half-made package only while they load, under :func:`ranking`'s lock: the server imports
    eval7 nowhere else); a later ``import eval7`` runs it then and finds these very modules
    loaded.
    """
    if "eval7" in sys.modules:
        import eval7

        return eval7.evaluate, eval7.Card
    spec = importlib.util.find_spec("eval7")
    if spec is None:
        raise ImportError("eval7 is not installed: pip install eval7")
    sys.modules["eval7"] = importlib.util.module_from_spec(spec)  # its __init__ not run
    try:
        from eval7.cards import Card
        from eval7.evaluate import evaluate
    finally:
        del sys.modules["eval7"]
    return evaluate, Card


def parse_deal(game: Game, text: str) -> Deal:
    """Each seat's two cards written together, then ``|`` and the five board cards:
    ``AhKd QsQc 2c3c | 7h 8h 9h Td Jd``."""
    n = game.players
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
    seen = set()
    for card in [c for hole in holes for c in hole] + board:
        if card not in _CARDS:
            raise ValueError(f"{card!r} is not a card: a rank of {RANKS} then a suit of"
                             f" {SUITS}, like 'Ah' or 'Td'")
        if card in seen:
            raise ValueError(f"{card} is dealt twice")
        seen.add(card)
    return Deal(holes, tuple(board))


#: The most chips a table may hold: every amount a bot answers has at most MAX_DIGITS digits.
LARGEST_AMOUNT = 10**MAX_DIGITS - 1


def _whole(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number of chips, not {value!r}")
    return value


def _stacks(players: int, stack, big_blind: int) -> tuple[int, ...]:
    """Each seat's starting stack from one number (every seat) or one per seat."""
    if isinstance(stack, (list, tuple)):
        stacks = tuple(_whole("a stack", s) for s in stack)
        if len(stacks) != players:
            raise ValueError(f"give one stack per seat: {players} stacks, not {len(stacks)}"
                             f" ({join(stacks)})")
        if any(s < 0 for s in stacks) or sum(1 for s in stacks if s) < 2:
            raise ValueError(f"stacks {join(stacks)}: each must be 0 or more (0: the seat sits"
                             " out), and at least two seats need chips")
        return stacks
    stack = _whole("the stack", stack)
    if stack < big_blind:
        raise ValueError(f"the stack ({stack}) must be at least the big blind ({big_blind})")
    return (stack,) * players


def _make(type: GameType, players: int, *, stack: object = 2000, small_blind: object = 5,
          big_blind: object = 10, small_bet: object = None, big_bet: object = None,
          carry: object = False, ante: object = 0, big_blind_ante: object = 0) -> Game:
    # The options are typed as what they are, untrusted (a tournament's file gives them):
    # each is checked below, and a wrong one is a ValueError saying so, compiled or not.
    type.check_players(players)
    small_blind = _whole("the small blind", small_blind)
    big_blind = _whole("the big blind", big_blind)
    if not 0 < small_blind <= big_blind:
        raise ValueError(f"blinds must satisfy 0 < small <= big, not {small_blind}/{big_blind}")
    stacks = _stacks(players, stack, big_blind)
    if sum(stacks) > LARGEST_AMOUNT:
        raise ValueError(f"the stacks add up to {sum(stacks)} chips: a bet a bot may answer has"
                         f" at most {MAX_DIGITS} digits, so the table holds at most"
                         f" {LARGEST_AMOUNT} chips")
    ante = _whole("the ante", ante)
    big_blind_ante = _whole("the big blind ante", big_blind_ante)
    if ante < 0 or big_blind_ante < 0:
        raise ValueError("an ante is a whole number of chips, 0 or more")
    if ante and big_blind_ante:
        raise ValueError("give --ante (every player antes) or --big-blind-ante (the big blind"
                         " antes for the table), not both")
    limit = type is LIMIT
    bet_sizes: tuple[int, int] = (0, 0)
    if limit:
        small_bet = _whole("the small bet", 10 if small_bet is None else small_bet)
        big_bet = _whole("the big bet", 20 if big_bet is None else big_bet)
        if not 0 < small_bet <= big_bet:
            raise ValueError(f"bet sizes must satisfy 0 < small <= big, not {small_bet}/{big_bet}")
        sizes = (small_bet, small_bet, big_bet, big_bet)
        bet_sizes = (small_bet, big_bet)
    else:
        if small_bet is not None or big_bet is not None:
            raise ValueError("bet sizes apply to limit Hold'em only")
        sizes = (big_blind,) * 4
    if not isinstance(carry, bool):
        raise ValueError(f"carry must be True or False, not {carry!r}")
    carried: bool = carry
    structure = Structure(
        streets=tuple(Street(name, board, bet)
                      for name, board, bet in zip(STREET_NAMES, BOARD_DEALT, sizes)),
        no_limit=not limit, cap=LIMIT_CAP if limit else None, blinds=(small_blind, big_blind),
        stacks=stacks, dead_ante=ante or big_blind_ante, big_blind_ante=bool(big_blind_ante))
    same = len(set(stacks)) == 1

    def round_facts(game: Game) -> list[RoundFact]:
        # One stack for all, or each seat's; an ante line only when there is one.
        facts: list[RoundFact] = [("Game", type.name),
                                  ("Stack", stacks[0] if same else BySeat(stacks))]
        if ante:
            facts.append(("Ante", ante))
        elif big_blind_ante:
            facts.append(("BigBlindAnte", big_blind_ante))
        facts.append(("StackMode", "carry" if carried else "reset"))
        if limit:
            facts.append(("BetSizes", bet_sizes))
        return facts

    return Game(type, players, structure, deck=DECK, hole_cards=2, rank=rank,
                parse_deal=parse_deal, carry=carried, round_facts=round_facts)


def read_round(players: int, blinds: list[int], button: int, lines: dict[str, str]) -> dict:
    """The options of the table a seat's ``init_round`` describes, in that seat's view: the
    blinds from the ``Blinds`` list and the ``Button``, the rest from the lines written above."""
    small_seat, big_seat = blind_seats(players, button)
    stacks = parse_list(lines["Stack"])
    options = {"small_blind": blinds[small_seat], "big_blind": blinds[big_seat],
               "stack": stacks[0] if len(stacks) == 1 else stacks,
               "carry": _stack_mode(lines["StackMode"])["carry"]}
    if "Ante" in lines:
        options["ante"] = int(lines["Ante"])
    if "BigBlindAnte" in lines:
        options["big_blind_ante"] = int(lines["BigBlindAnte"])
    if "BetSizes" in lines:
        options["small_bet"], options["big_bet"] = parse_list(lines["BetSizes"])
    return options


def _blinds(text: str) -> dict:
    small, big = number_pair(text, "blinds")
    return {"small_blind": small, "big_blind": big}


def _bet_sizes(text: str) -> dict:
    small, big = number_pair(text, "bet sizes")
    return {"small_bet": small, "big_bet": big}


def _stack_mode(text: str) -> dict:
    if text not in ("reset", "carry"):
        raise ValueError(f"{text!r}: the stack mode is reset or carry")
    return {"carry": text == "carry"}


_parse_stack = whole_number("stack")
_parse_ante = whole_number("ante", minimum=0)


def _stack(text: str) -> dict:
    if "," not in text:
        return {"stack": _parse_stack(text)}
    parts = text.split(",")
    if not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"{text!r}: give one whole number of chips per seat, comma-separated,"
                         " e.g. 100,250,80")
    return {"stack": tuple(int(p) for p in parts)}


STACK = Option("--stack", "Hold'em: chips each player starts a hand with (default 2000), or one"
               " number per seat: 100,250,80.", _stack, metavar="CHIPS")
ANTE = Option("--ante", "Hold'em: a dead ante every player posts before the blinds (default 0).",
              lambda text: {"ante": _parse_ante(text)}, metavar="CHIPS")
BIG_BLIND_ANTE = Option("--big-blind-ante", "Hold'em: a dead ante the big blind posts for the"
                        " whole table (default 0).",
                        lambda text: {"big_blind_ante": _parse_ante(text)}, metavar="CHIPS")
BLINDS = Option("--blinds", "Hold'em: small and big blind (default 5/10).", _blinds,
                metavar="SB/BB")
BET_SIZES = Option("--bet-sizes", "Limit Hold'em: small and big bet (default 10/20).",
                   _bet_sizes, metavar="SMALL/BIG")
STACK_MODE = Option("--stacks", "Hold'em: reset stacks every hand (Doyle's game, the default)"
                    " or carry them, with REBUY.", _stack_mode, metavar="MODE",
                    choices=("reset", "carry"))

# The lines Hold'em adds to the messages are the protocol's (pokerbots.protocol.games): there
# the ante lines are the optional ones, only a table with an ante has them.

NO_LIMIT: GameType = GameType(
    name="holdem-nl", title="no-limit Texas Hold'em", min_players=2, max_players=10,
    make=lambda players, **options: _make(NO_LIMIT, players, **options),
    options=(STACK, BLINDS, ANTE, BIG_BLIND_ANTE, STACK_MODE),
    phh_variant="NT", allin_equity=True, read_round=read_round)

LIMIT: GameType = GameType(
    name="holdem-limit", title="limit Texas Hold'em", min_players=2, max_players=10,
    make=lambda players, **options: _make(LIMIT, players, **options),
    options=(STACK, BLINDS, BET_SIZES, ANTE, BIG_BLIND_ANTE, STACK_MODE),
    phh_variant="FT", read_round=read_round)

GAMES = (NO_LIMIT, LIMIT)

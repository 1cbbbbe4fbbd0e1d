"""Texas Hold'em, no-limit and limit, 2 to 10 players, as data for the betting engine.

52 cards, two hole cards each, a flop of three, a turn and a river; the best five of seven wins
(ranked by ``eval7``). The five board cards are dealt up front and revealed by street. Blinds
5/10 by default; no-limit raises go up to all-in, limit bets are 10 before the turn and 20 from
it, four bets a street. Money: Doyle's game by default (every hand starts with the starting
stack); with ``carry`` stacks carry from hand to hand and a seat may ``REBUY`` up to the
starting stack (a seat with no chips must). The starting stack is one number or one per seat
(``--stack 100,250,80``), and a dead ante (``--ante``, or ``--big-blind-ante`` posted by the big
blind for the table) may come before the blinds, so that real hands replay as they were dealt.
The betting rules themselves are the engine's (:mod:`.engine.betting`); the protocol document
has them in prose for bot authors.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Callable

from pokerbots.protocol.wire import MAX_DIGITS, join, parse_list, rotate
from pokerbots.server.games.base import (
    CertifyCase,
    Deal,
    Game,
    GameType,
    Option,
    Shuffled,
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
    if limit:
        small_bet = _whole("the small bet", 10 if small_bet is None else small_bet)
        big_bet = _whole("the big bet", 20 if big_bet is None else big_bet)
        if not 0 < small_bet <= big_bet:
            raise ValueError(f"bet sizes must satisfy 0 < small <= big, not {small_bet}/{big_bet}")
        sizes = (small_bet, small_bet, big_bet, big_bet)
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

    def round_fields(game: Game, view: int) -> list[tuple[str, str]]:
        # One stack for all, or each seat's (you first); an ante line only when there is one.
        fields = [("Game", type.name),
                  ("Stack", str(stacks[0]) if same else join(rotate(list(stacks), view)))]
        if ante:
            fields.append(("Ante", str(ante)))
        elif big_blind_ante:
            fields.append(("BigBlindAnte", str(big_blind_ante)))
        fields.append(("StackMode", "carry" if carried else "reset"))
        if limit:
            fields.append(("BetSizes", f"{small_bet},{big_bet}"))
        return fields

    return Game(type, players, structure, deck=DECK, hole_cards=2, rank=rank,
                parse_deal=parse_deal, carry=carried, round_fields=round_fields,
                ranking=ranking)


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
    small, big = number_pair(text, "the blinds", "SB/BB")
    return {"small_blind": small, "big_blind": big}


def _bet_sizes(text: str) -> dict:
    small, big = number_pair(text, "the bet sizes", "SMALL/BIG", "10/20")
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

# -- certify cases ---------------------------------------------------------------------------


def _facing(actions: str, stacks: str, raise_line: str) -> str:
    """The pattern of a flop ``play`` message with these Action lines (comma-separated, BOT's
    first), Stacks and Raise line."""
    lines = "".join(f"Action: {a}\\n" for a in actions.split(","))
    return rf"play\n{lines}Board: \S+ \S+ \S+\nPot: \d+\nStacks: {stacks}\nRaise: {raise_line}"


def certify_cases(limit: bool) -> tuple[CertifyCase, ...]:
    """Hold'em's certify cases beyond every game's (blinds, stacks, all-ins, side pots,
    run-outs, rebuys; the raise cap in ``limit``)."""
    cases = [
        # BOT is all-in from its big blind in the last hand: it is never asked to act in it.
        CertifyCase("end of round while waiting", 3, 0, (Shuffled(2, 30),), "c",
                    options={"--stack": "10,2000,2000"}, pinned=True),
        # The button limps, the small blind folds, BOT in the big blind never faces a bet; the
        # board (a royal flush) plays for BOT and the button: they split 5 + 2x chips.
        CertifyCase("odd chip", 3, 2, ("2c3d 4c5d 2d3c | Ah Kh Qh Jh Th",), "c",
                    scripts={1: "f"}),
        # Three all-ins of 15, 25 and 35 before BOT (the small blind); the big blind calls.
        # The shortest stack holds the best hand, the next one the second best.
        CertifyCase("two side pots", 5, 1, ("QsQd 5h6h 3c4d KhKd AsAd | 2c 7d 9h Jc Ks",), "a",
                    scripts={2: "c"}, options={"--stack": "35,2000,2000,15,25"}),
        CertifyCase("three side pots", 6, 1,
                    ("TsTd 5h6h 3c4d KhKd AsAd QsQd | 2c 7d 9h Jc Ks",), "a",
                    scripts={2: "c"}, options={"--stack": "45,2000,2000,15,25,35"}),
        # BOT (big blind, 18 chips) checks the flop; the next player bets its last 5, which is
        # less than a full bet, and the button calls: BOT may only call or fold.
        CertifyCase("short all-in does not reopen", 4, 2,
                    ("AsAd 2c7d KsKd QsQc | 3c 8h 9d 4s Jc",), "c", scripts={1: "f", 3: "c|a"},
                    options={"--stack": "2000,2000,18,15"},
                    reach=_facing("BET 0,BET 5,BET 5,FOLD 0", r"8,0,\d+,\d+", "-")),
        # BOT checks the flop; short all-ins (a bet of 5, raises to 10, 15, 20) add up to a
        # full bet: BOT may raise again. Had BOT raised to 20 before the flop (limit's only
        # raise, no-limit's smallest), the 25 and 30 stacks make a bet of 5 and a raise to 10.
        CertifyCase("short all-ins that reopen", 7, 2,
                    ("AsAd 2c7d KsKd QsQc JhJd ThTd 9s9c | 3c 8h 4d 4s 2h",), "c|a",
                    scripts={0: "c", 1: "f"}, options={"--stack": "2000,2000,40,15,20,25,30"},
                    reach=r"play\nAction: BET 0\n(Action: [^\n]+\n)+Board: \S+ \S+ \S+\n"
                          r"Pot: \d+\nStacks: [^\n]+\nRaise: \d"),
        # The button and the small blind are all-in before BOT acts: whatever BOT does, the
        # board is dealt out before the flop.
        CertifyCase("run-out before the flop", 3, 2, ("AsKs QdQc 7h2c | Jd 8s 4h 3c 9d",), "a",
                    options={"--stack": "20,20,2000"}),
        CertifyCase("run-out on the flop", 3, 2, ("AsKs QdQc 7h2c | Jd 8s 4h 3c 9d",), "c|a",
                    options={"--stack": "50,50,2000"},
                    reach=r"play\n(Action: [^\n]+\n){3}Board: \S+ \S+ \S+\n"),
        CertifyCase("run-out on the turn", 3, 2, ("AsKs QdQc 7h2c | Jd 8s 4h 3c 9d",), "c|c|a",
                    options={"--stack": "90,90,2000"},
                    reach=r"play\n(Action: [^\n]+\n){3}Board: \S+ \S+ \S+ \S+\n"),
        # Everyone folds to BOT in the big blind (hand 0); BOT acts in hand 1.
        CertifyCase("fold to the big blind", 3, 2, (Shuffled(2, 40),), "f/c"),
        # BOT all-in from its big blind of 10 loses hand 0 and must answer REBUY; the button,
        # which lost its call, rebuys too.
        CertifyCase("carry with a rebuy", 3, 2,
                    ("7c2d AsAd 8h3c | Kd Qs 9c 5h 4d", Shuffled(1, 50)), "c",
                    options={"--stack": "2000,2000,10", "--stacks": "carry"}, rebuy=(0,)),
        # Every player antes 5; seat 1 has 3 chips and is all-in from its ante.
        CertifyCase("antes and per-seat stacks", 4, 3, (Shuffled(2, 60),), "c",
                    scripts={0: "r c"}, options={"--ante": "5", "--stack": "300,3,500,800"}),
        # Each seat's stack, a big-blind ante, carried stacks (and the bet sizes in limit).
        CertifyCase("init_round with every field", 3, 1, (Shuffled(2, 70),), "c",
                    options={"--stack": "1000,1500,800", "--big-blind-ante": "20",
                             "--blinds": "10/20", "--stacks": "carry",
                             **({"--bet-sizes": "20/40"} if limit else {})}),
        # Ten players, stacks of 14 digits, everyone all-in: pots and bankrolls of 15 digits,
        # the most a reply may carry.
        CertifyCase("largest stacks", 10, 0, (Shuffled(1, 80),), "a",
                    options=({"--stack": "99999999999996",
                              "--blinds": "12499999999999/24999999999999",
                              "--bet-sizes": "24999999999999/49999999999998"} if limit
                             else {"--stack": "99999999999999"})),
    ]
    if limit:
        # Three raises before BOT (the big blind): the cap of four bets is reached.
        cases.append(CertifyCase("raise cap", 4, 2, ("AsAd 2c7d KsKd QsQc | 3c 8h 9d 4s 2h",),
                                 "r c"))
    return tuple(cases)


# The lines Hold'em adds to the messages are the protocol's (pokerbots.protocol.games): there
# the ante lines are the optional ones, only a table with an ante has them.

NO_LIMIT: GameType = GameType(
    name="holdem-nl", title="no-limit Texas Hold'em", min_players=2, max_players=10,
    make=lambda players, **options: _make(NO_LIMIT, players, **options),
    options=(STACK, BLINDS, ANTE, BIG_BLIND_ANTE, STACK_MODE),
    phh_variant="NT", allin_equity=True, read_round=read_round,
    certify=lambda: certify_cases(limit=False))

LIMIT: GameType = GameType(
    name="holdem-limit", title="limit Texas Hold'em", min_players=2, max_players=10,
    make=lambda players, **options: _make(LIMIT, players, **options),
    options=(STACK, BLINDS, BET_SIZES, ANTE, BIG_BLIND_ANTE, STACK_MODE),
    phh_variant="FT", read_round=read_round, certify=lambda: certify_cases(limit=True))

GAMES = (NO_LIMIT, LIMIT)

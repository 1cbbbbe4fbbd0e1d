"""The ACPC's text formats, made from our games: game definition files, ``MATCHSTATE`` strings
(ACPC protocol 2.0.0), agents' actions, and the dealer's log lines (``STATE``, ``SCORE``).

Facts are those of the protocol document and of the dealer's own ``game.c``:

* A game definition lists, per *position* (position 0 sits left of the button; heads-up it is
  the big blind), the blinds (``blind``: the chips in at the start, antes in front included),
  the stacks, and per round the first player to act (1-based), the raise sizes and the most
  raises (limit), the board cards; then the deck as a number of suits and of ranks (the highest
  ranks of ``23456789TJQKA``, the last suits of ``cdhs``).
* A betting string lists the actions of the hand: ``f``, ``c`` (check or call), ``r`` (limit)
  or ``r<N>`` (no-limit: a raise *to* N chips put in over the whole hand), with ``/`` before each
  new round; a hand that ends in a showdown is printed in its last round (an all-in hand shows
  the rounds it skipped as empty ones).
* Cards are rank then suit, ``|`` between the positions' hole cards, ``/`` before each round's
  board cards.

Our games map onto this when their stacks are the same for every seat and reset every hand
(ACPC stacks belong to positions, fixed by the game file) and they have no dead ante (the ACPC
has none): :func:`unsupported` says why a table does not. Rank-only decks (Kuhn, Leduc) get the
ACPC's top ranks with one suit per copy of a rank, given out in the order the copies are seen.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pokerbots.server.games.base import Game, blind_seats
from pokerbots.server.games.engine.betting import UNLIMITED, Hand
from pokerbots.server.hands.follow import FOLD, RAISE, Act

RANKS = "23456789TJQKA"
SUITS = "cdhs"
VERSION = "VERSION:2.0.0"
#: A stack that never runs out, as the dealer writes it (INT32_MAX).
UNLIMITED_STACK = 2 ** 31 - 1
#: The characters the dealer's readAction takes for each action (game.c charToAction).
ACTION_CHARS = {"f": FOLD, "F": FOLD, "c": "call", "C": "call", "k": "call", "K": "call",
                "r": RAISE, "R": RAISE, "b": RAISE, "B": RAISE}


def unsupported(game: Game) -> str | None:
    """Why ``game`` cannot be written as an ACPC game, or None when it can."""
    structure = game.structure
    if structure.dead_ante:
        return "ACPC games have no antes (a blind is money in front; a dead ante is not)"
    if structure.stacks is not None:
        if len(set(structure.stacks)) != 1:
            return ("ACPC stacks belong to positions around the button, so every seat needs the"
                    " same stack (--stack one number)")
        if game.carry:
            return "ACPC stacks are the same every hand: play with --stacks reset"
    try:
        Cards(game.deck)
    except ValueError as exc:
        return str(exc)
    return None


# -- cards ---------------------------------------------------------------------------------------


class Cards:
    """Our card texts as ACPC cards. With a rank-only deck a card may exist in several copies:
    each copy seen in a hand takes the next suit (:meth:`start_hand` forgets them)."""

    def __init__(self, deck) -> None:
        deck = list(deck)
        if all(len(card) == 2 for card in deck):
            ranks = sorted({c[0] for c in deck}, key=RANKS.index)
            suits = sorted({c[1] for c in deck}, key=SUITS.index)
            if any(c[0] not in RANKS or c[1] not in SUITS for c in deck) or (
                    len(deck) != len(ranks) * len(suits) or len(set(deck)) != len(deck)):
                raise ValueError("the deck is not whole ranks times whole suits")
            self.copies = 0
        elif all(len(card) == 1 and card in RANKS for card in deck):
            ranks = sorted(set(deck), key=RANKS.index)
            copies = {deck.count(r) for r in ranks}
            if len(copies) != 1:
                raise ValueError("the deck has different numbers of each rank")
            self.copies = copies.pop()
            suits = SUITS[len(SUITS) - self.copies:]
        else:
            raise ValueError("the deck's cards are not ranks of 23456789TJQKA (with suits cdhs)")
        self.num_ranks = len(ranks)
        self.num_suits = len(suits)
        top = RANKS[len(RANKS) - self.num_ranks:]
        self._rank = {r: top[i] for i, r in enumerate(ranks)}
        self._suit = {s: SUITS[len(SUITS) - self.num_suits + j] for j, s in enumerate(suits)}
        self._seen: dict[str, int] = {}
        self._given: dict[tuple[str, int], str] = {}

    def start_hand(self) -> None:
        self._seen.clear()
        self._given.clear()

    def card(self, card: str, key=None) -> str:
        """The ACPC text of ``card``. For a rank-only deck, ``key`` names which copy (the same
        key gives the same copy within a hand; a new key takes the next suit)."""
        if not self.copies:
            return self._rank[card[0]] + self._suit[card[1]]
        given = self._given.get((card, key))
        if given is None:
            copy = self._seen.get(card, 0)
            if copy >= self.copies:
                raise ValueError(f"more than {self.copies} copies of {card} in a hand")
            self._seen[card] = copy + 1
            given = self._given[card, key] = self._rank[card] + SUITS[
                len(SUITS) - self.copies + copy]
        return given

    def cards(self, cards, key=None) -> str:
        return "".join(self.card(c, (key, i)) for i, c in enumerate(cards))


# -- game definition files -----------------------------------------------------------------------


@dataclass(frozen=True)
class AcpcGame:
    """A game as an ACPC game definition sees it (positions from the button's left)."""

    no_limit: bool
    players: int
    rounds: int
    stack: int | None
    blinds: tuple[int, ...]
    raise_sizes: tuple[int, ...]
    first_player: tuple[int, ...]  # 0-based positions
    max_raises: tuple[int, ...] | None
    num_suits: int
    num_ranks: int
    hole_cards: int
    board_cards: tuple[int, ...]

    @classmethod
    def of(cls, game: Game) -> AcpcGame:
        """``game`` (one of ours) as an ACPC game; ValueError when :func:`unsupported`."""
        why = unsupported(game)
        if why:
            raise ValueError(why)
        structure = game.structure
        n = game.players
        seat = [(1 + p) % n for p in range(n)]  # position p with the button on seat 0
        forced = structure.forced(n, 0)
        # The engine's own first player of the first round (stacks that never run short).
        first = Hand(game, 0, game.deal(_NO_RANDOM), [UNLIMITED] * n).to_act
        cap = structure.cap
        cards = Cards(game.deck)
        streets = structure.streets
        return cls(
            no_limit=structure.no_limit, players=n, rounds=len(streets),
            stack=structure.stacks[0] if structure.stacks is not None else None,
            blinds=tuple(forced[s] for s in seat),
            raise_sizes=tuple(s.bet for s in streets),
            first_player=((first - 1) % n,) + (0,) * (len(streets) - 1),
            max_raises=None if cap is None else tuple(
                cap - (1 if i == 0 and structure.blinds else 0) for i in range(len(streets))),
            num_suits=cards.num_suits, num_ranks=cards.num_ranks, hole_cards=game.hole_cards,
            board_cards=tuple(s.board for s in streets))

    def text(self) -> str:
        """The game definition file, as the dealer's printGame writes one."""
        lines = ["GAMEDEF", "nolimit" if self.no_limit else "limit",
                 f"numPlayers = {self.players}", f"numRounds = {self.rounds}"]
        stack = self.stack
        if stack is None and self.players > 4:
            # No limit: the dealer's readGame fills in 4 unlimited stacks only, and refuses a
            # game of more players without a stack line.
            stack = UNLIMITED_STACK
        if stack is not None:
            lines.append("stack = " + " ".join([str(stack)] * self.players))
        lines.append("blind = " + " ".join(map(str, self.blinds)))
        if not self.no_limit:
            lines.append("raiseSize = " + " ".join(map(str, self.raise_sizes)))
        lines.append("firstPlayer = " + " ".join(str(p + 1) for p in self.first_player))
        if self.max_raises is not None:
            lines.append("maxRaises = " + " ".join(map(str, self.max_raises)))
        lines += [f"numSuits = {self.num_suits}", f"numRanks = {self.num_ranks}",
                  f"numHoleCards = {self.hole_cards}",
                  "numBoardCards = " + " ".join(map(str, self.board_cards)), "END GAMEDEF"]
        return "\n".join(lines) + "\n"


class _NoRandom:
    """Cards for a hand whose cards do not matter (the first player to act)."""

    @staticmethod
    def sample(population, k):
        return list(population)[:k]


_NO_RANDOM = _NoRandom()


def position_seats(players: int, button: int) -> list[int]:
    """``[seat of position 0, seat of position 1, ...]``: positions start left of the button."""
    return [(button + 1 + p) % players for p in range(players)]


def big_blind_position(players: int) -> int:
    """The position of the big blind (heads-up the non-button, position 0)."""
    return (blind_seats(players, 0)[1] - 1) % players


# -- states --------------------------------------------------------------------------------------


def betting(acts: list[Act], rounds_shown: int, no_limit: bool) -> str:
    """The betting string of ``acts``, with rounds 0 .. ``rounds_shown - 1``."""
    parts = [[] for _ in range(rounds_shown)]
    for act in acts:
        if act.word == FOLD:
            parts[act.street].append("f")
        elif act.word == RAISE:
            parts[act.street].append(f"r{act.total}" if no_limit else "r")
        else:
            parts[act.street].append("c")
    return "/".join("".join(p) for p in parts)


def board_text(board: list[str], board_cards: tuple[int, ...], rounds_shown: int) -> str:
    """``/flop/turn...`` for the rounds shown (round 0's board, if any, comes first)."""
    out, start = [], 0
    for r in range(rounds_shown):
        out.append("".join(board[start:start + board_cards[r]]))
        start += board_cards[r]
    return "/".join(out)


def state_text(prefix: str, hand_number: int, acts: list[Act], rounds_shown: int,
               holes: list[str], board: list[str], game: AcpcGame) -> str:
    """``<prefix>:<hand>:<betting>:<holes><board>``, ``prefix`` being ``MATCHSTATE:<position>``
    or ``STATE``. ``holes`` are the positions' hole cards (ACPC texts, '' when unknown),
    ``board`` the ACPC texts of the board cards dealt so far."""
    return (f"{prefix}:{hand_number}:{betting(acts, rounds_shown, game.no_limit)}:"
            + "|".join(holes) + board_text(board, game.board_cards, rounds_shown))


def final_rounds(acts: list[Act], folded_out: bool, rounds: int) -> int:
    """How many rounds a finished hand prints: up to its last action's when everyone else
    folded, else every round (an all-in hand shows the rounds it skipped, empty)."""
    if folded_out:
        return acts[-1].street + 1 if acts else 1
    return rounds


# -- agents' actions -----------------------------------------------------------------------------


@dataclass(frozen=True)
class AgentAction:
    """An action read from an agent: ``word`` is fold, call or raise; ``size`` the no-limit
    raise-to size (chips over the whole hand), else None."""

    word: str
    size: int | None


def read_action(text: str, no_limit: bool) -> AgentAction:
    """Read an action as the dealer's readAction does (``f``, ``c``/``k``, ``r``/``b``, either
    case; a no-limit raise needs a size). ValueError says what is wrong; unlike the dealer,
    nothing may follow the action."""
    if not text or text[0] not in ACTION_CHARS:
        raise ValueError(f"{text[:40]!r} is not an ACPC action (f, c or r" +
                         ("<size>)" if no_limit else ")"))
    word = ACTION_CHARS[text[0]]
    rest = text[1:]
    if word == RAISE and no_limit:
        if not rest.isdigit():
            raise ValueError(f"{text[:40]!r}: a no-limit raise needs its size, the chips put in"
                             " over the whole hand after raising, as in r300")
        return AgentAction(RAISE, int(rest))
    if rest:
        raise ValueError(f"{text[:40]!r}: nothing may follow the action {text[0]!r}")
    return AgentAction(word, None)


# -- the dealer's log ----------------------------------------------------------------------------


def value_text(value: float) -> str:
    """A value as the dealer logs it (``%.6f`` without trailing zeros)."""
    text = f"{value:.6f}".rstrip("0")
    return text[:-1] if text.endswith(".") else text


def log_name(label: str) -> str:
    """A bot's label as a name in the log: the dealer's names are single words, and ``:`` and
    ``|`` separate fields there."""
    return "".join(c if c.isalnum() or c in "._-/+@" else "_" for c in label) or "_"


def log_names(labels: list[str]) -> list[str]:
    """The name of each seat's bot in the log, in seat order: its label as :func:`log_name`
    makes it, followed by ``-seatN`` (N the seat, from 0, as the match numbers them) where two
    seats would otherwise share a name (three copies of one bot), so every result and the
    ``SCORE`` line can be told apart."""
    names = [log_name(label) for label in labels]
    count = Counter(names)
    names = [f"{name}-seat{s}" if count[name] > 1 else name for s, name in enumerate(names)]
    if len(set(names)) < len(names):  # a label that already ended in -seatN: number them all
        names = [f"seat{s}-{log_name(label)}" for s, label in enumerate(labels)]
    return names

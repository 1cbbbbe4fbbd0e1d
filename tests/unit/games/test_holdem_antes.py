"""Hold'em with dead antes (``--ante``, ``--big-blind-ante``) and a stack per seat
(``--stack 100,250,80``): the rules, what the bots are told, what the logs keep, the command
line, and PokerKit (ante trimming off, as in the PHH files) as an oracle over random hands.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from pokerbots.protocol.client import Bot, Client
from pokerbots.server import games
from pokerbots.server.cli.main import main
from pokerbots.server.cli.options import parse_game_options
from pokerbots.server.games import make_game, seat_table
from pokerbots.server.games.base import Deal
from pokerbots.server.games.engine.betting import start_hand
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

ROOT = Path(__file__).resolve().parents[3]

DEAL3 = Deal((("Ah", "Kd"), ("Qs", "Qc"), ("2c", "7d")), ("3h", "8h", "9s", "Td", "4c"))


def hand_of(options: dict, button: int = 0, deal: Deal = DEAL3, game: str = "holdem-nl"):
    return start_hand(make_game(game, len(deal.holes), **options), button, deal)


# -- the rules -----------------------------------------------------------------------------------


def test_antes_are_posted_before_the_blinds_and_are_not_money_in_front():
    hand = hand_of({"ante": 5})  # button 0: seat 1 small blind, seat 2 big blind
    assert hand.antes == [5, 5, 5]
    assert hand.front == [0, 5, 10] and hand.forced == [0, 5, 10]
    assert hand.stack == [1995, 1990, 1985]
    assert hand.pot == 15  # the antes are in the pot from the start
    legal = hand.legal()  # seat 0 faces the big blind: the ante opened nothing
    assert hand.to_act == 0 and legal.call == 10 and legal.raise_range == (20, 1995)


def test_an_uncalled_bet_comes_back_but_an_ante_never_does():
    hand = hand_of({"ante": 5})
    hand.fold()  # seat 0
    hand.fold()  # seat 1, the small blind: the big blind wins
    assert hand.pots == [(25, 2)]  # antes 15 + small blind 5 + the 5 the small blind matched
    assert hand.returned == 5 and hand.deltas == [-5, -10, 15]


def test_a_big_blind_ante_is_posted_by_the_big_blind_alone_and_moves_with_it():
    hand = hand_of({"big_blind_ante": 30})
    assert hand.antes == [0, 0, 30] and hand.front == [0, 5, 10]
    assert hand_of({"big_blind_ante": 30}, button=1).antes == [30, 0, 0]
    heads_up = Deal(DEAL3.holes[:2], DEAL3.board)
    assert hand_of({"big_blind_ante": 30}, button=0, deal=heads_up).antes == [0, 30]


def test_all_the_antes_go_to_the_main_pot_even_for_a_player_all_in_on_the_ante():
    # Seat 2 has 3 chips: all-in on its ante, it posts no big blind and can win no bet, but
    # every ante (5 + 5 + 3) is in the main pot, which its aces win.
    deal = Deal((("Kh", "Kd"), ("Qs", "Qc"), ("Ac", "As")), DEAL3.board)
    hand = hand_of({"ante": 5, "stack": (500, 500, 3)}, deal=deal)
    assert hand.antes == [5, 5, 3] and hand.stack[2] == 0 and hand.front == [0, 5, 0]
    assert hand.to_act == 0 and hand.legal().raise_range == (15, 495)
    hand.raise_to(100)
    hand.call()  # seat 1
    while hand.to_act is not None:  # both check it down
        hand.call()
    assert hand.pots == [(13, 2), (200, 0)]
    assert hand.deltas == [95, -105, 10]


def test_an_empty_seat_sits_out_and_the_next_player_posts_the_big_blind():
    # The PHH "one blind only" hands: the small blind's seat is empty.
    deal = Deal(DEAL3.holes + (("5s", "6s"),), DEAL3.board)
    hand = hand_of({"stack": (100, 0, 100, 100), "small_blind": 10, "big_blind": 10},
                   button=0, deal=deal)
    assert hand.front == [0, 0, 10, 0] and hand.folded[1]
    assert hand.to_act == 3  # left of the big blind
    hand.call()
    hand.call()  # the button
    hand.call()  # the big blind checks
    assert hand.street == 1 and hand.to_act == 2  # after the flop: first left of the button


# -- what the bots are told ----------------------------------------------------------------------


def round_of(options: dict, players: int = 3, hands: int = 2, seed: int = 3):
    """A short round of check/call bots: (transcript, hand records, referee)."""
    referee = Referee(make_game("holdem-nl", players, **options), random.Random(seed),
                      hands=hands, button=0, on_hand=(records := []).append)
    transcript: list = []
    play_local(referee, [Client(lambda s: s.check_or_call(), game="holdem-nl")
                         for _ in range(players)], transcript=transcript)
    return transcript, records, referee


def test_init_round_names_the_ante_and_each_seats_stack_and_the_pot_counts_the_antes():
    transcript, records, referee = round_of({"ante": 5, "stack": (300, 250, 80)})
    first = {seat: message for seat, kind, message, _ in transcript if kind.value == "init_round"}
    assert first[1].decode().endswith(
        "Game: holdem-nl\nStack: 250,80,300\nAnte: 5\nStackMode: reset\n")
    play = next(m for s, k, m, _ in transcript if k.value == "play").decode()
    assert "Action: BLIND 0\nAction: BLIND 5\nAction: BLIND 10\n" in play
    assert "Pot: 15\n" in play and "Stacks: 295,240,65\n" in play
    assert records[0]["antes"] == [5, 5, 5] and records[0]["forced"] == [0, 5, 10]
    assert records[0]["stacks_start"] == [300, 250, 80]
    assert sum(referee.bankrolls) == 0


def test_the_big_blind_ante_line():
    transcript, records, _ = round_of({"big_blind_ante": 20})
    init = next(m for s, k, m, _ in transcript if k.value == "init_round").decode()
    assert "Stack: 2000\nBigBlindAnte: 20\nStackMode: reset\n" in init
    assert [r["antes"] for r in records] == [[0, 0, 20], [20, 0, 0]]


def test_without_an_ante_or_unequal_stacks_nothing_changes():
    transcript, records, _ = round_of({"stack": (2000, 2000, 2000)})
    init = next(m for s, k, m, _ in transcript if k.value == "init_round").decode()
    assert init.endswith("Game: holdem-nl\nStack: 2000\nStackMode: reset\n")
    assert "antes" not in records[0]


class Keeper(Bot):
    """Random legal play; rebuys whenever it may."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def decide(self, state) -> str:
        legal = state.legal
        choices = [legal.check_or_call()] * 3
        if legal.can_fold:
            choices.append(legal.fold())
        if legal.raise_range:
            choices.append(legal.raise_to(self.rng.randint(*legal.raise_range)))
        return self.rng.choice(choices)

    def rebuy(self, result) -> bool:
        return True


@pytest.mark.parametrize("options", [
    {"ante": 7, "stack": (400, 90, 1500, 35)},
    {"big_blind_ante": 10, "stack": (400, 90, 1500, 35), "carry": True},
    {"ante": 3, "carry": True, "stack": 120},
])
def test_clients_keep_every_bankroll_and_stack_right(options):
    """The referee checks every Money reply: the client library follows unequal stacks,
    antes and rebuys up to each seat's own stack for 80 hands."""
    players = 4
    referee = Referee(make_game("holdem-nl", players, **options), random.Random(5), hands=80)
    clients = [Client(Keeper(s), game="holdem-nl") for s in range(players)]
    play_local(referee, clients)
    assert referee.hands_played == 80 and sum(referee.bankrolls) == 0
    assert [c.bankrolls for c in clients] == [
        referee.bankrolls[s:] + referee.bankrolls[:s] for s in range(players)]


@pytest.mark.parametrize("game, options", [
    ("holdem-nl", {"ante": 5, "stack": (300, 250, 80)}),
    ("holdem-limit", {"big_blind_ante": 20, "small_blind": 10, "big_blind": 20,
                      "small_bet": 20, "big_bet": 40, "carry": True}),
    ("holdem-nl", {}),
    ("kuhn", {}),
    ("leduc", {}),
])
def test_a_seat_rebuilds_the_table_from_init_round(game, options):
    """``seat_table(client)`` is the inverse of the lines a game adds: the same structure, seen
    from the seat (stacks rotated)."""
    players = 3
    table = make_game(game, players, **options)
    for seat in range(players):
        referee = Referee(table, random.Random(1), hands=1, button=2)
        exchanges = referee.exchanges()
        (message,) = next(exchanges).messages[seat]  # init_round, to every seat
        client = Client(lambda s: s.check_or_call(), game=game)
        client.receive(message)
        mine = seat_table(client).structure
        expected = table.structure
        if expected.stacks is not None:
            assert mine.stacks == expected.stacks[seat:] + expected.stacks[:seat]
        assert (mine.blinds, mine.dead_ante, mine.big_blind_ante, mine.streets, mine.cap) == (
            expected.blinds, expected.dead_ante, expected.big_blind_ante, expected.streets,
            expected.cap)
        assert seat_table(client).carry == table.carry


def test_a_client_that_learns_the_game_late_skips_the_ante_line(monkeypatch):
    """Without POKERBOTS_GAME the client reads init_round as the default game's, then takes the
    rest in: the extra Ante line must not be counted as one of the game's lines."""
    monkeypatch.delenv("POKERBOTS_GAME", raising=False)
    referee = Referee(make_game("holdem-nl", 2, ante=5), random.Random(1), hands=1, button=0)
    (message,) = next(referee.exchanges()).messages[0]
    client = Client(lambda s: s.check_or_call())
    replies = [client.feed(line) for line in message.splitlines()]
    assert replies[:5] == [None, None, None, None, b"READY"] and set(replies[5:]) == {None}
    assert client.game == "holdem-nl" and seat_table(client).structure.dead_ante == 5
    assert client.receive(b"init_hand\nHand: 0\nCards: Ah Kd\n") == b"READY"


# -- the command line ----------------------------------------------------------------------------


def test_the_options_as_typed():
    assert parse_game_options("holdem-nl", {"--stack": "100,250,80", "--ante": "5"}) == {
        "stack": (100, 250, 80), "ante": 5}
    assert parse_game_options("holdem-limit", {"--big-blind-ante": "20"}) == {
        "big_blind_ante": 20}
    with pytest.raises(ValueError, match="one stack per seat: 3 stacks, not 2"):
        make_game("holdem-nl", 3, stack=(100, 200))
    with pytest.raises(ValueError, match="not both"):
        make_game("holdem-nl", 3, ante=1, big_blind_ante=2)
    with pytest.raises(ValueError, match="at least two seats need chips"):
        make_game("holdem-nl", 3, stack=(100, 0, 0))


@pytest.mark.parametrize("args, message", [
    (["--stack", "100,250"], "give one stack per seat: 3 stacks, not 2"),
    (["--stack", "100,x,5"], "one whole number of chips per seat"),
    (["--ante", "-1"], "the ante must be a whole number"),
    (["--ante", "1", "--big-blind-ante", "2"], "not both"),
    (["--game", "kuhn", "--ante", "1"], "--ante applies to holdem-nl and holdem-limit"),
])
def test_bad_ante_and_stack_options_are_usage_errors(tmp_path, args, message):
    bot = str(ROOT / "bots" / "call_bot.py")
    result = CliRunner().invoke(main, [
        "run", bot, bot, bot, "--hands", "1", "--logs", str(tmp_path),
        *(["--game", "holdem-nl"] if "--game" not in args else []), *args])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert not any(tmp_path.iterdir())  # nothing started, no log folder


# -- PokerKit as an oracle -----------------------------------------------------------------------

pokerkit = pytest.importorskip("pokerkit")
from pokerkit import Automation, NoLimitTexasHoldem  # noqa: E402

AUTOMATIONS = (
    Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING, Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
)


def settle(hand) -> tuple[list[int], bool]:
    """Each seat's final stack, settled here from what each put in (an independent reading of
    the pot rules): levels of the chips bet, every dead ante in the main pot, the odd chips of a
    split one each to the first winners clockwise from the button. Also whether a pot split
    with odd chips: PokerKit then may differ by a chip (it gives all odd chips to one winner,
    after merging pots by the players left at its showdown, whose order decides who mucks)."""
    n = hand.players
    order = [(hand.button + 1 + i) % n for i in range(n)]
    live = [s for s in order if not hand.folded[s]]
    antes = hand.antes or [0] * n
    bets = [t - a for t, a in zip(hand.total, antes)]
    final = [hand.stacks_start[s] - hand.total[s] for s in range(n)]
    if len(live) == 1:
        final[live[0]] += sum(hand.total)
        return final, False
    score = {s: hand._game.rank(hand.holes[s], hand.board) for s in live}
    pots, prev = [], 0
    for level in sorted({bets[s] for s in live}):
        amount = sum(min(b, level) - min(b, prev) for b in bets) + (sum(antes) if not pots else 0)
        pots.append([amount, [s for s in live if bets[s] >= level]])
        prev = level
    pots[-1][0] += sum(hand.total) - sum(amount for amount, _ in pots)  # folded chips above
    odd_split = False
    for amount, eligible in pots:
        best = max(score[s] for s in eligible)
        winners = [s for s in eligible if score[s] == best]
        share, odd = divmod(amount, len(winners))
        odd_split |= bool(odd)
        for k, w in enumerate(winners):
            final[w] += share + (k < odd)
    return final, odd_split


def oracle_hand(rng: random.Random) -> tuple[list[int], list[int]]:
    """One random hand with antes and unequal stacks on both engines: checks that ours settles
    as :func:`settle` does and PokerKit's the same (but for odd chips of a split pot); returns
    whether a pot split with odd chips. Our player raises only by full raises and never short
    all-in, so that the rules where PokerKit deliberately differs on betting
    (tests/oracles/test_holdem_vs_pokerkit.py) never arise."""
    n = rng.randint(2, 6)
    big = rng.choice((2, 10, 20))
    small = rng.choice((1, big // 2))
    ante = rng.choice((1, 3, big // 2, big))
    bb_ante = rng.random() < 0.4
    stacks = [rng.choice((rng.randint(1, 3 * big), rng.randint(big, 60 * big)))
              for _ in range(n)]
    button = rng.randrange(n)
    options = {"stack": tuple(stacks), "small_blind": small, "big_blind": big}
    options["big_blind_ante" if bb_ante else "ante"] = ante
    game = make_game("holdem-nl", n, **options)
    deal = game.deal(rng)
    ours = start_hand(game, button, deal)
    seat = [(button + 1 + i) % n for i in range(n)]  # PokerKit player i -> our seat
    antes = [ante] * n
    if bb_ante:  # PokerKit's player 1 is the big blind (heads-up, it reverses the list)
        antes = [0] * n
        antes[1] = ante
    pk = NoLimitTexasHoldem.create_state(
        AUTOMATIONS, False, tuple(antes), (small, big), big,
        tuple(stacks[s] for s in seat), n)
    for i in range(n):
        pk.deal_hole("".join(deal.holes[seat[i]]))
    dealt = 0
    while ours.to_act is not None:
        while pk.can_deal_board():
            count = len(pk.board_cards) and 1 or 3
            pk.deal_board("".join(deal.board[dealt:dealt + count]))
            dealt += count
        who = ours.to_act
        while pk.actor_index is not None and seat[pk.actor_index] != who:
            assert pk.checking_or_calling_amount == 0  # PokerKit's idle free check
            pk.check_or_call()
        assert seat[pk.actor_index] == who
        legal = ours.legal()
        choices = ["call", "call"] + (["fold"] if legal.can_fold else [])
        if legal.raise_min is not None and legal.raise_min == ours.bet + ours.inc:
            choices.append("raise")
        choice = rng.choice(choices)
        if choice == "fold":
            ours.fold()
            pk.fold()
        elif choice == "call":
            ours.call()
            pk.check_or_call()
        else:
            to = rng.choice((legal.raise_min, legal.raise_max))
            ours.raise_to(to)
            pk.complete_bet_or_raise_to(to)
    while pk.status:
        if pk.can_deal_board():
            count = len(pk.board_cards) and 1 or 3
            pk.deal_board("".join(deal.board[dealt:dealt + count]))
            dealt += count
        elif pk.actor_index is not None:
            pk.check_or_call()
        else:
            break
    theirs = [pk.stacks[seat.index(s)] for s in range(n)]
    expected, odd_split = settle(ours)
    assert ours.stack == expected
    assert sum(theirs) == sum(expected)
    if not odd_split:
        assert theirs == expected
    return odd_split


def test_final_stacks_match_pokerkit_with_antes():
    """Both engines settle every hand as :func:`settle` does, but for the odd chips of a
    split pot (a few hands)."""
    odd = sum(oracle_hand(random.Random(seed)) for seed in range(150))
    assert odd < 10


@pytest.mark.slow
def test_final_stacks_match_pokerkit_with_antes_over_many_hands():
    odd = sum(oracle_hand(random.Random(seed)) for seed in range(150, 2000))
    assert odd < 60


def test_the_registry_offers_antes_to_hold_em_only():
    takers = {game.name for game in games.all_types()
              if any(o.flag == "--ante" for o in game.options)}
    assert takers == {"holdem-nl", "holdem-limit"}

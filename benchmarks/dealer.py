"""How fast is the Hold'em dealer alone? Random legal no-limit hands per CPU second.

Run as ``python benchmarks/dealer.py``. No processes, no referee: a seeded random policy drives
no-limit Hold'em hands directly, and the same policy drives PokerKit (if installed; it is a test
dependency) on the same machine for comparison. Cards are dealt by each engine's own means
(``game.deal(rng)``; PokerKit's automatic dealing). Time is CPU time of this process.

Policy at each decision: fold 1/4 of the time when folding is legal, otherwise call 2/3 and raise
1/3 (the raise to a uniform amount between the minimum and the maximum, the maximum half the
time). Each measurement runs for about ``--seconds`` CPU seconds.
"""

from __future__ import annotations

import argparse
import random
import time

from pokerbots.server.games import make_game
from pokerbots.server.games.engine.betting import start_hand

STACK = 2000
SMALL, BIG = 5, 10


def _choose(rng: random.Random, can_fold: bool, can_raise: bool) -> int:
    """0 fold, 1 check/call, 2 raise."""
    if can_fold and rng.random() < 0.25:
        return 0
    if can_raise and rng.random() < 1 / 3:
        return 2
    return 1


def _raise_amount(rng: random.Random, low: int, high: int) -> int:
    return high if rng.random() < 0.5 else rng.randint(low, high)


def ours(players: int, seconds: float, seed: int) -> tuple[int, float, int]:
    """(hands, CPU seconds, decisions) for our dealer."""
    rng = random.Random(seed)
    game = make_game("holdem-nl", players, stack=STACK, small_blind=SMALL, big_blind=BIG)
    hands = decisions = 0
    button = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(50):
            hand = start_hand(game, button, game.deal(rng))
            while hand.to_act is not None:
                legal = hand.legal()
                choice = _choose(rng, legal.can_fold, legal.raise_min is not None)
                if choice == 0:
                    hand.fold()
                elif choice == 2:
                    hand.raise_to(_raise_amount(rng, legal.raise_min, legal.raise_max))
                else:
                    hand.call()
                decisions += 1
            _ = hand.deltas  # settle the hand, as the referee does
            button = (button + 1) % players
            hands += 1
        now = time.process_time()
        if now >= deadline:
            return hands, now - start, decisions


def pokerkit(players: int, seconds: float, seed: int) -> tuple[int, float, int] | None:
    """(hands, CPU seconds, decisions) for PokerKit, or None if it is not installed."""
    try:
        from pokerkit import Automation, Mode, NoLimitTexasHoldem
    except ImportError:
        return None
    import warnings

    warnings.simplefilter("ignore")
    automations = tuple(Automation)  # everything automatic, including dealing
    rng = random.Random(seed)
    hands = decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(5):
            state = NoLimitTexasHoldem.create_state(
                automations, False, 0, (SMALL, BIG), BIG, (STACK,) * players, players,
                mode=Mode.CASH_GAME,
            )
            while state.status:
                choice = _choose(rng, state.can_fold(), state.can_complete_bet_or_raise_to())
                if choice == 0:
                    state.fold()
                elif choice == 2:
                    state.complete_bet_or_raise_to(_raise_amount(
                        rng,
                        state.min_completion_betting_or_raising_to_amount,
                        state.max_completion_betting_or_raising_to_amount,
                    ))
                else:
                    state.check_or_call()
                decisions += 1
            hands += 1
        now = time.process_time()
        if now >= deadline:
            return hands, now - start, decisions


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="CPU seconds per measurement")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 6, 10])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    print(f"Hold'em no-limit dealer, random legal actions, stacks {STACK}, blinds {SMALL}/{BIG}")
    print(f"{'players':>7}  {'ours hands/s':>13}  {'decisions/s':>12}  "
          f"{'PokerKit hands/s':>16}  {'ratio':>6}")
    for n in args.players:
        h, t, d = ours(n, args.seconds, args.seed)
        rate = h / t
        pk = pokerkit(n, args.seconds / 2, args.seed)
        if pk is None:
            pk_text, ratio = "n/a", ""
        else:
            ph, pt, _ = pk
            pk_rate = ph / pt
            pk_text, ratio = f"{pk_rate:,.0f}", f"{rate / pk_rate:.0f}x"
        print(f"{n:>7}  {rate:>13,.0f}  {d / t:>12,.0f}  {pk_text:>16}  {ratio:>6}", flush=True)
    print("goal: 50x PokerKit (PokerKit measured ~590 random 3-player hands per CPU second)")


if __name__ == "__main__":
    main()

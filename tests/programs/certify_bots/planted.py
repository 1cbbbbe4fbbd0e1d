#!/usr/bin/env python3
"""A bot with one planted bug, for the tests of ``pokerbots certify``: ``planted.py BUG``
(``planted.py odd chip``).

It checks and calls (the client library keeps its score) except in the one situation its BUG
names, where it does what a real bot with that bug would do. Each BUG is the name of the
certify case that must catch it (``heads-up``, ``odd chip``, ...), and no other case of the
games it is run against may. ``planted.py --list`` lists them.
"""

from __future__ import annotations

import sys

from pokerbots.protocol.client import Bot, Client
from pokerbots.protocol.wire import money_reply, parse_list

BUGS = {
    "heads-up": "heads-up, it checks when it faces a bet",
    "8 players": "it keeps a table of at most seven players and crashes at eight",
    "odd chip": "it gives itself the odd chip of a split pot",
    "two side pots": "facing three all-ins of different sizes before the flop, it calls the"
                     " second largest",
    "three side pots": "facing four all-ins of different sizes before the flop, it calls the"
                       " second largest",
    "short all-in does not reopen": "after it acted, it raises over a short all-in anyway",
    "short all-ins that reopen": "its smallest raise is the table bet plus the last (short)"
                                 " raise, not plus the last full raise",
    "run-out before the flop": "after an all-in run-out before the flop it miscounts Money",
    "run-out on the flop": "after an all-in run-out on the flop it miscounts Money",
    "run-out on the turn": "after an all-in run-out on the turn it miscounts Money",
    "fold to the big blind": "when everyone folds to its big blind it miscounts Money",
    "raise cap": "it raises on its first decision even when the cap is reached",
    "carry with a rebuy": "it answers OK when it has no chips",
    "antes and per-seat stacks": "it counts its ante as money in front",
    "init_round with every field": "it crashes on a BigBlindAnte line",
    "largest stacks": "it keeps bankrolls in 32-bit integers",
    "end of round while waiting": "it expects a play in every hand and says goodbye wrongly"
                                  " when the round ends before one",
}
RUN_OUTS = {"run-out before the flop": 0, "run-out on the flop": 3, "run-out on the turn": 4}


class Planted(Bot):
    def __init__(self, bug: str) -> None:
        self.bug = bug
        self.client: PlantedClient | None = None

    def on_round_start(self, info) -> None:
        if self.bug == "8 players" and info.players == 8:
            raise RuntimeError("more players than my table of seven")

    def decide(self, state) -> str:
        client = self.client
        client.played = True
        n = state.players
        stacks = state.stacks
        others = [i for i in range(1, n) if state.actions[i][0] != "FOLD"]
        all_in = [i for i in others if stacks is not None and stacks[i] == 0]
        client.last_board = len(state.board)
        client.all_in_seen = bool(all_in)
        bug = self.bug
        facing = state.table_bet > state.front
        if bug == "heads-up" and n == 2 and facing:
            return f"BET {state.front}"
        if bug in ("two side pots", "three side pots") and not state.board:
            fronts = sorted({state.fronts[i] for i in all_in})
            if len(all_in) == len(fronts) == (3 if bug == "two side pots" else 4):
                return f"BET {fronts[-2]}"
        if (bug == "short all-in does not reopen" and state.raise_range is None and all_in
                and any(stacks[i] for i in others)  # someone could call a raise
                and state.actions[0][0] == "BET" and stacks[0] + state.front > state.legal.call):
            return f"BET {state.front + stacks[0]}"
        if bug == "short all-ins that reopen" and state.raise_range is not None:
            bets = sorted({state.fronts[i] for i in others if state.actions[i][0] == "BET"})
            if len(bets) >= 2:
                top, second = bets[-1], bets[-2]
                if 0 < top - second < state.raise_range[0] - top:
                    return f"BET {2 * top - second}"
        if (bug == "raise cap" and facing and state.raise_range is None and not all_in
                and state.actions[0][0] == "BLIND"
                and (stacks is None or state.front + stacks[0] > state.legal.call)):
            return f"BET {state.table_bet + (state.round.bet_sizes or (2, 2))[0]}"
        if bug == "antes and per-seat stacks" and "Ante" in state.round.lines:
            return f"BET {state.legal.call + int(state.round.lines['Ante'])}"
        return state.check_or_call()

    def on_hand_end(self, result) -> None:
        client = self.client
        bug = self.bug
        wrong = False
        if bug in RUN_OUTS:
            wrong = (client.last_board == RUN_OUTS[bug] and len(result.board) == 5
                     and client.all_in_seen and len(result.deltas) == 3)
        elif bug == "fold to the big blind":
            wrong = result.actions[0][0] == "BLIND" and all(
                a[0] == "FOLD" for a in result.actions[1:])
        elif bug == "odd chip":
            shares = [amount for amount, _ in result.pots]
            wrong = any(abs(a - b) == 1 for a in shares for b in shares)
        client.wrong = wrong
        client.last_board = None


class PlantedClient(Client):
    def __init__(self, bot: Planted) -> None:
        super().__init__(bot, check=False)
        bot.client = self
        self.planted = bot
        self.played = False
        self.wrong = False
        self.last_board: int | None = None
        self.all_in_seen = False

    def _init_round(self, lines):
        if self.planted.bug == "init_round with every field" and any(
                line.startswith(b"BigBlindAnte:") for line in lines):
            raise RuntimeError(f"unknown init_round line in {lines!r}")
        return super()._init_round(lines)

    def _init_hand(self, lines):
        self.played = False
        return super()._init_hand(lines)

    def _rebuy_reply(self, result):
        if self.planted.bug == "carry with a rebuy":
            return b"OK"
        return super()._rebuy_reply(result)

    def _end_action(self, lines):
        reply = super()._end_action(lines)
        values = parse_list(reply[len(b"Money: "):])
        if self.wrong:
            values[0] += 1
            self.wrong = False
        if self.planted.bug == "largest stacks":
            values = [(v + 2**31) % 2**32 - 2**31 for v in values]
        return money_reply(values)

    def _end_round(self, lines):
        reply = super()._end_round(lines)
        if self.planted.bug == "end of round while waiting" and not self.played:
            return b"Goodbye"
        return reply


def main() -> None:
    if sys.argv[1:] == ["--list"]:
        print("\n".join(BUGS))
        return
    bug = " ".join(sys.argv[1:])  # planted.py odd chip
    if bug not in BUGS:
        sys.exit(f"usage: planted.py BUG, one of: {', '.join(BUGS)}")
    client = PlantedClient(Planted(bug))
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    for line in stdin:
        reply = client.feed(line)
        if reply is not None:
            stdout.write(reply + b"\n")
            stdout.flush()
            if client.done:
                break


if __name__ == "__main__":
    main()

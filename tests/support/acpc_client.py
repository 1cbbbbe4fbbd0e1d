"""An ACPC agent for the tests, written from the ACPC protocol 2.0.0 document
(``shared/reference/acpc-protocol-2.0.0.txt``) and nothing else.

    python tests/support/acpc_client.py GAMEFILE HOST PORT [--seed S] [--mode M] [--log FILE]

It connects, sends ``VERSION:2.0.0``, and reads ``MATCHSTATE`` lines. It replays the betting of
every state by the document's rules (who acts next, when a round ends, which raises are valid,
fold only when facing a bet), checks that its own cards and the board are there, and exits with
code 3 and a message on stderr if a state breaks a rule. When it is to act it answers a random
valid action (seeded): fold, call, or raise (no-limit: a random size from the smallest valid one
to all-in). ``--log`` writes every state received, one per line; ``--save-game`` keeps a copy of
the game definition file (the relay removes its own once the agent has connected).

``--mode raise`` raises whenever it may (the smallest raise). Other modes misbehave:
``fold-free`` folds when it could check, ``small-raise`` raises by less than allowed
(no-limit), ``over-raise`` raises every time (limit: also at the cap), ``no-size`` sends ``r``
without a size (no-limit), ``garbage`` answers ``x``, ``not-a-raise`` raises to the chips it
already has in, ``no-version`` sends a state instead of its version, ``exit`` exits before
connecting, ``hang`` never connects, ``slow`` sleeps 30 s before its first answer, ``close``
closes the connection at its first decision.
"""

from __future__ import annotations

import argparse
import random
import shutil
import socket
import sys
import time

RANKS = "23456789TJQKA"
SUITS = "cdhs"
BIG = 2 ** 31 - 1


class Broken(Exception):
    """A state from the server that breaks the protocol."""


def read_game(path: str) -> dict:
    """The game definition: key = value lines between GAMEDEF and END GAMEDEF."""
    game = {"limit": True, "stack": None, "maxraises": None, "raisesize": None}
    with open(path, encoding="ascii") as f:
        for line in f:
            line = line.strip()
            low = line.lower()
            if not line or line.startswith("#") or low in ("gamedef",):
                continue
            if low.startswith("end gamedef"):
                break
            if low in ("limit", "nolimit"):
                game["limit"] = low == "limit"
                continue
            key, _, value = line.partition("=")
            game[key.strip().lower()] = [int(v) for v in value.split()]
    n = game["numplayers"][0]
    game["n"] = n
    game["rounds"] = game["numrounds"][0]
    game["stacks"] = game["stack"] or [BIG] * n
    game["first"] = [p - 1 for p in game["firstplayer"]]
    return game


class Hand:
    """The betting of one hand, replayed by the document's rules."""

    def __init__(self, game: dict) -> None:
        self.g = game
        n = game["n"]
        self.spent = list(game["blind"][:n])
        self.folded = [False] * n
        self.round = 0
        self.over = False
        self.big = max(self.spent) or 1  # the big blind: smallest bet in a round
        self._start_round()

    def _start_round(self) -> None:
        self.raises = 0
        self.raise_by = self.big  # the largest raise-by in the round (a bet counts as one)
        self.called: set[int] = set()  # active players who called or made the current bet
        self.to_act = self._next(self.g["first"][self.round] - 1)

    def active(self, p: int) -> bool:
        return not self.folded[p] and self.spent[p] < self.g["stacks"][p]

    def _next(self, p: int) -> int | None:
        n = self.g["n"]
        for d in range(1, n + 1):
            q = (p + d) % n
            if self.active(q):
                return q
        return None

    def max_spent(self) -> int:
        return max(self.spent)

    def raise_range(self) -> tuple[int, int] | None:
        """The valid raise-to sizes (no-limit), or (0, 0) for a valid limit raise, or None."""
        p = self.to_act
        stack = self.g["stacks"][p]
        if self.g["limit"]:
            cap = self.g["maxraises"]
            if cap is not None and self.raises >= cap[self.round]:
                return None
        if sum(1 for q in range(self.g["n"]) if self.active(q)) < 2:
            return None
        top = self.max_spent()
        if stack <= top:
            return None
        if self.g["limit"]:
            return (0, 0)
        low = top + self.raise_by
        return (min(low, stack), stack)

    def apply(self, action: str) -> None:
        if self.over or self.to_act is None:
            raise Broken(f"an action {action!r} after the hand is over")
        p = self.to_act
        top = self.max_spent()
        stack = self.g["stacks"][p]
        if action == "f":
            if self.spent[p] >= top:
                raise Broken("a fold where checking is free")
            self.folded[p] = True
        elif action == "c":
            self.spent[p] = min(top, stack)
            if self.active(p):
                self.called.add(p)
        else:
            valid = self.raise_range()
            if valid is None:
                raise Broken(f"a raise {action!r} where none is valid")
            if self.g["limit"]:
                if action != "r":
                    raise Broken(f"a limit raise with a size: {action!r}")
                to = min(top + self.g["raisesize"][self.round], stack)
            else:
                to = int(action[1:])
                if not valid[0] <= to <= valid[1]:
                    raise Broken(f"a raise to {to}, outside {valid}")
                self.raise_by = max(self.raise_by, to - top)
            self.spent[p] = to
            self.raises += 1
            self.called = {p} if self.active(p) else set()
        if sum(not f for f in self.folded) == 1:
            self.over = True
            self.to_act = None
            return
        acting = [q for q in range(self.g["n"]) if self.active(q)]
        if all(q in self.called for q in acting):
            if len(acting) > 1 and self.round + 1 < self.g["rounds"]:
                self.round += 1
                self._start_round()
            else:
                self.over = True
                self.to_act = None
            return
        self.to_act = self._next(p)


def parse_state(line: str, game: dict) -> tuple[int, int, Hand, list[list[str]], list[str]]:
    """``MATCHSTATE:position:hand:betting:cards`` -> (position, hand number, the replayed
    hand, hole cards by position, board cards by round)."""
    parts = line.split(":")
    if len(parts) != 5 or parts[0] != "MATCHSTATE":
        raise Broken(f"not a MATCHSTATE: {line!r}")
    position, number = int(parts[1]), int(parts[2])
    hand = Hand(game)
    betting, i = parts[3], 0
    rounds_seen = 0
    while i < len(betting):
        ch = betting[i]
        if ch == "/":
            rounds_seen += 1
            if hand.round != rounds_seen and not hand.over:
                raise Broken(f"'/' before round {rounds_seen} ended: {line!r}")
            i += 1
            continue
        j = i + 1
        if ch == "r" and not game["limit"]:
            while j < len(betting) and betting[j].isdigit():
                j += 1
        if ch not in "fcr":
            raise Broken(f"unknown action {ch!r} in {line!r}")
        hand.apply(betting[i:j])
        i = j
    cards = parts[4].split("/")
    holes_text = cards[0].split("|")
    if len(holes_text) != game["n"]:
        raise Broken(f"{len(holes_text)} hole card sections for {game['n']} players")
    holes = [[h[k:k + 2] for k in range(0, len(h), 2)] for h in holes_text]
    for cards_of in holes:
        if cards_of and len(cards_of) != game["numholecards"][0]:
            raise Broken(f"hole cards {cards_of} in {line!r}")
        for card in cards_of:
            if card[0] not in RANKS or card[1] not in SUITS:
                raise Broken(f"not a card: {card!r}")
    if not holes[position]:
        raise Broken(f"no cards of its own in {line!r}")
    board = cards[1:]
    shown_round = max(rounds_seen, hand.round)
    if len(board) != shown_round:
        raise Broken(f"{len(board)} board sections in round {shown_round}: {line!r}")
    for r, section in enumerate(board, 1):
        if len(section) != 2 * game["numboardcards"][r]:
            raise Broken(f"board section {section!r} of round {r} in {line!r}")
    return position, number, hand, holes, board


def choose(hand: Hand, rng: random.Random, mode: str) -> str:
    top = hand.max_spent()
    me = hand.to_act
    facing = hand.spent[me] < top
    valid = hand.raise_range()
    if mode == "fold-free" and not facing:
        return "f"
    if mode == "over-raise" and hand.g["limit"]:
        return "r"  # raise every time, also when the cap is reached
    if mode == "raise" and valid is not None:
        return "r" if hand.g["limit"] else f"r{valid[0]}"
    if mode == "small-raise" and not hand.g["limit"] and valid is not None and valid[0] > top + 1:
        return f"r{top + 1}"
    if mode == "no-size" and not hand.g["limit"] and valid is not None:
        return "r"
    if mode == "not-a-raise" and not hand.g["limit"]:
        return f"r{hand.spent[me]}"
    if mode == "garbage":
        return "x"
    options = ["c", "c"] + (["f"] if facing else [])
    if valid is not None:
        if hand.g["limit"]:
            options.append("r")
        else:
            low, high = valid
            options.append(f"r{rng.choice((low, high, rng.randint(low, high)))}")
    return rng.choice(options)


def play(game_path: str, host: str, port: int, seed: int, mode: str, log) -> int:
    game = read_game(game_path)
    rng = random.Random(seed)
    if mode == "exit":
        return 4
    if mode == "hang":
        time.sleep(60)
        return 0
    sock = socket.create_connection((host, port))
    sock.sendall(b"MATCHSTATE:0:0::\r\n" if mode == "no-version" else b"VERSION:2.0.0\r\n")
    reader = sock.makefile("rb")
    decided = 0
    for raw in reader:
        line = raw.decode().rstrip("\r\n")
        if log:
            log.write(line + "\n")
            log.flush()
        if line.startswith(("#", ";")):
            continue
        try:
            position, _, hand, _, _ = parse_state(line, game)
        except Broken as exc:
            print(f"acpc_client: the server broke the protocol: {exc}", file=sys.stderr)
            return 3
        if hand.over or hand.to_act != position:
            continue
        decided += 1
        if mode == "close":
            sock.close()
            return 0
        if mode == "slow":
            time.sleep(30)
        sock.sendall(f"{line}:{choose(hand, rng, mode)}\r\n".encode())
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description="An ACPC 2.0.0 agent for the tests.")
    parser.add_argument("game")
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", default="play")
    parser.add_argument("--log")
    parser.add_argument("--save-game", help="copy the game definition file here first")
    args = parser.parse_args()
    if args.save_game:
        shutil.copyfile(args.game, args.save_game)
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    try:
        return play(args.game, args.host, args.port, args.seed, args.mode, log)
    finally:
        if log:
            log.close()


if __name__ == "__main__":
    sys.exit(main())

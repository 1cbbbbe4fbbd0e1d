"""A small client for the pokerbots protocol: one file, the standard library only.

It answers every bookkeeping message itself (READY, OK or REBUY, Money, the goodbye line),
keeps everyone's bankroll and, in Hold'em, everyone's stack, and calls your ``decide(state)``
for each ``play`` message. ``decide`` returns the reply, made with the state's helpers:
``state.check_or_call()``, ``state.fold()``, ``state.raise_to(value)``, or a mix of them,
``state.mix({reply: weight, ...})``, from which the server draws the action.

Every list is rotated by the server so that you are player 0. The protocol is PROTOCOL.md.
"""

import os
import random
import sys

#: For each game, the last line of init_round, play and end_hand (None: play ends after the
#: Action lines). Ante and BigBlindAnte lines of init_round are read wherever they come.
LAST_LINE = {
    # __GAME_LINES__ (one row per game, written by pokerbots new)
}
GOODBYE = "Thank you dealer, have a nice day!"
#: A mix's bounds: each weight a whole number from 1 to MIX_MAX_WEIGHT, at most MIX_MAX_ITEMS.
MIX_MAX_WEIGHT = 1000000
MIX_MAX_ITEMS = 64


def ints(text):
    """``'3,-1,0'`` -> ``[3, -1, 0]``."""
    return [int(v) for v in text.split(",")]


def cards(text):
    """``'Ah Kd'`` -> ``['Ah', 'Kd']``; ``'-'`` -> ``[]``."""
    return [] if text == "-" else text.split(" ")


class State:
    """A ``play`` message: what you need to decide. Index 0 of every list is you."""

    def __init__(self, client, actions, fields):
        self.game = client.game
        self.players = client.players
        self.hand = client.hand                      # hand number, from 0
        self.button = (client.button + client.hand) % client.players  # seats left of you
        self.cards = client.cards                    # ['Q'] or ['Ah', 'Kd']
        self.board = cards(fields.get("Board", "-"))
        self.pot = int(fields.get("Pot", 0))         # chips from earlier betting rounds
        self.words = [word for word, _ in actions]   # BLIND, PASS, BET or FOLD
        self.fronts = [value for _, value in actions]  # money in front on this round
        self.stacks = ints(fields["Stacks"]) if "Stacks" in fields else None  # Hold'em
        self.bankrolls = list(client.bankrolls)
        self.front = self.fronts[0]
        self.table_bet = max(self.fronts)
        # The legal replies, as money-in-front values.
        self.call = self.table_bet                   # BET call checks or calls
        if self.stacks is not None:
            self.call = min(self.call, self.front + self.stacks[0])  # all-in for less
        self.can_fold = self.table_bet > self.front  # FOLD front: only when facing a bet
        self.raise_min = self.raise_max = None       # BET min..max bets or raises
        line = fields.get("Raise")
        if line is None:                             # Kuhn: one bet of 1, while nobody bet
            if self.table_bet == self.front:
                self.raise_min = self.raise_max = self.front + 1
        elif line != "-":
            self.raise_min, self.raise_max = ints(line)

    @property
    def to_call(self):
        """Chips you add to check (0) or call."""
        return self.call - self.front

    @property
    def pot_total(self):
        """Everything in the middle: the pot and all money in front."""
        return self.pot + sum(self.fronts)

    @property
    def first_action_on_round(self):
        """True until you act on this betting round."""
        return self.words[0] in ("BLIND", "PASS")

    @property
    def can_raise(self):
        return self.raise_min is not None

    def legal(self):
        """The legal replies, as the server would list them."""
        replies = [f"BET {self.call} ({'check' if self.to_call == 0 else 'call'})"]
        if self.can_raise:
            replies.append(f"BET {self.raise_min} to BET {self.raise_max} (bet or raise)")
        if self.can_fold:
            replies.append(f"FOLD {self.front}")
        return ", ".join(replies)

    def check_or_call(self):
        return f"BET {self.call}"

    def fold(self):
        if not self.can_fold:
            raise ValueError(f"folding is not allowed when checking is free; legal: {self.legal()}")
        return f"FOLD {self.front}"

    def raise_to(self, value):
        if not self.can_raise or not self.raise_min <= value <= self.raise_max:
            raise ValueError(f"BET {value} is not a legal raise; legal: {self.legal()}")
        return f"BET {value}"

    def is_legal(self, reply):
        """Whether the server takes ``reply`` (such as ``'BET 10'``) as a single reply here."""
        word, _, value = reply.partition(" ")
        if not (value.isascii() and value.isdigit()) or value != str(int(value)):
            return False
        value = int(value)
        if word == "FOLD":
            return self.can_fold and value == self.front
        return word == "BET" and (value == self.call or (
            self.can_raise and self.raise_min <= value <= self.raise_max))

    def mix(self, weights):
        """A mixed reply: the server plays each reply with probability weight / total.
        ``weights`` is a dict ``{reply: weight}`` (or ``(reply, weight)`` pairs), each reply one
        the helpers return, given once, each weight a whole number from 1 to MIX_MAX_WEIGHT, at
        most MIX_MAX_ITEMS items: ``{'BET 1': 3, 'BET 2': 1}`` -> ``'MIX 3 BET 1,1 BET 2'``
        (checks three times in four). One item is that reply. ValueError, naming the item,
        for anything the server would refuse."""
        items = list(weights.items() if isinstance(weights, dict) else weights)
        if not 1 <= len(items) <= MIX_MAX_ITEMS:
            raise ValueError(f"a mix has 1 to {MIX_MAX_ITEMS} items, not {len(items)};"
                             f" legal: {self.legal()}")
        seen = set()
        for number, (reply, weight) in enumerate(items, 1):
            item = f"item {number} of the mix, {reply!r}"
            if type(weight) is not int or not 1 <= weight <= MIX_MAX_WEIGHT:
                raise ValueError(f"{item}: its weight must be a whole number from 1 to"
                                 f" {MIX_MAX_WEIGHT}, not {weight!r}; legal: {self.legal()}")
            if not isinstance(reply, str) or not self.is_legal(reply):
                raise ValueError(f"{item}, is not a legal reply; legal: {self.legal()}")
            if reply in seen:
                raise ValueError(f"{item}, appears twice; legal: {self.legal()}")
            seen.add(reply)
        if len(items) == 1:
            return items[0][0]
        return "MIX " + ",".join(f"{weight} {reply}" for reply, weight in items)


class Client:
    """Reads the server's messages line by line and keeps the round's state."""

    def __init__(self, decide, stdin=sys.stdin, stdout=sys.stdout):
        self.decide = decide
        self.stdin, self.stdout = stdin, stdout
        self.game = os.environ.get("POKERBOTS_GAME") or "__DEFAULT_GAME__"
        self.players = 0
        self.bankrolls = []
        self.button = 0
        self.hand = 0
        self.cards = []
        self.start_stacks = None   # Hold'em: each seat's starting stack
        self.stacks = None         # Hold'em: each seat's stack at the start of this hand
        self.carry = False         # stacks carry from hand to hand (StackMode: carry)
        self.deltas = []           # the last hand's result for each player

    def line(self):
        text = self.stdin.readline()
        if not text:
            sys.exit(0)  # the server closed the pipe
        return text.rstrip("\r\n")

    def fields(self, last, into=None):
        """Read ``Key: value`` lines up to the one named ``last``."""
        into = {} if into is None else into
        while True:
            key, _, value = self.line().partition(": ")
            into[key] = value
            if key == last:
                return into

    def actions(self):
        result = []
        for _ in range(self.players):
            _, word, value = self.line().split(" ")
            result.append((word, int(value)))
        return result

    def send(self, reply):
        self.stdout.write(reply + "\n")
        self.stdout.flush()

    def round_fields(self, f):
        if f.get("Game", self.game) != self.game:
            self.game = f["Game"]
        if "Stack" in f:
            stacks = ints(f["Stack"])
            self.start_stacks = stacks * self.players if len(stacks) == 1 else stacks
            self.stacks = list(self.start_stacks)
        self.carry = f.get("StackMode") == "carry"

    def run(self):
        while True:
            line = self.line()
            if line == "init_round":
                f = self.fields(LAST_LINE[self.game][0])
                self.bankrolls = ints(f["Money"])
                self.players = len(self.bankrolls)
                self.button = int(f["Button"])
                self.round_fields(f)
                self.send("READY")
            elif line.startswith("Game: "):
                # POKERBOTS_GAME was not set: the rest of init_round comes after our READY.
                self.game = line[6:]
                f = {"Game": self.game}
                if LAST_LINE[self.game][0] != "Game":
                    self.fields(LAST_LINE[self.game][0], f)
                self.round_fields(f)
            elif line == "init_hand":
                f = self.fields("Cards")
                self.hand = int(f["Hand"])
                self.cards = cards(f["Cards"])
                if self.start_stacks is not None and not self.carry:
                    self.stacks = list(self.start_stacks)
                self.send("READY")
            elif line == "play":
                actions = self.actions()
                last = LAST_LINE[self.game][1]
                state = State(self, actions, self.fields(last) if last else {})
                self.send(self.decide(state))
            elif line == "end_hand":
                self.send(self.end_hand())
            elif line.startswith("EndAction: "):
                answers = [line] + [self.line() for _ in range(self.players - 1)]
                self.bankrolls = [m + d for m, d in zip(self.bankrolls, self.deltas)]
                for seat, answer in enumerate(answers):
                    if answer.endswith("REBUY"):  # topped up to the starting stack
                        self.stacks[seat] = self.start_stacks[seat]
                self.send("Money: " + ",".join(map(str, self.bankrolls)))
            elif line == "end_round":
                self.fields("NumHands")
                self.send(GOODBYE)
                return
            else:
                sys.exit(f"pokerclient: unexpected line {line!r}")

    def end_hand(self):
        """Work out everyone's result for the hand; answer OK, or REBUY when broke."""
        actions = self.actions()
        f = self.fields(LAST_LINE[self.game][2])
        if "Stacks" in f:  # Hold'em: the change of each stack
            after = ints(f["Stacks"])
            self.deltas = [a - b for a, b in zip(after, self.stacks)]
            self.stacks = after
            if self.carry and after[0] == 0 < self.start_stacks[0]:
                return "REBUY"  # a broke player must buy back in
            return "OK"
        # Kuhn and Leduc: the pots won less the chips put in
        spent = ints(f["Totals"]) if "Totals" in f else [value for _, value in actions]
        self.deltas = [-c for c in spent]
        for pot in f["Pots"].split(" "):
            amount, winner = ints(pot)
            self.deltas[winner] += amount
        return "OK"


def seeded_random():
    """A ``random.Random`` for your strategy, seeded with the seed the server gives this seat
    (``POKERBOTS_SEED``): replayed with the same seed, a match plays the same again. Outside
    a match, seeded from the system's randomness."""
    text = os.environ.get("POKERBOTS_SEED", "")
    return random.Random(int(text) if text.isdigit() else None)


def run(decide):
    """Play one round on stdin and stdout, calling ``decide(state)`` for every decision."""
    Client(decide).run()

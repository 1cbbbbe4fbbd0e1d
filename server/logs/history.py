"""The hand history people read: a hand's record (a line of ``hands.jsonl``) in words.

Written like a poker site's hand history: the forced bets posted, every action (``checks``,
``calls 10``, ``bets 20``, ``raises to 60``, ``and is all-in``) naming the player by label and
seat, street headings with the board, the uncalled bet returned, what is shown and won.
The words of each action are :mod:`pokerbots.server.hands.words`'s, as in the site's replayer.
``hands.txt`` is rendered from each hand's record as the match writes it (the logs' writer),
and ``pokerbots show`` renders the same from ``hands.jsonl`` at any time. Compiled with the
per-message modules (see setup.py): every hand of a match is rendered.
"""

from __future__ import annotations

from pokerbots.server.hands.record import HandRecord
from pokerbots.server.hands.words import Phrases, all_in


def render_hand(record: HandRecord, labels: list[str], streets=(), ante: int = 0) -> str:
    """A hand as a person reads it, like a poker site's hand history: the forced bets posted
    (dead antes first, from the record's ``antes``), then every action in words (``checks``,
    ``calls 10``, ``bets 20``, ``raises to 60``, ``and is all-in``), each naming the player by
    its label and seat. ``streets`` are the game's
    :class:`~pokerbots.server.games.base.Street` values (headed when there are several);
    ``ante`` the ante every seat posts (the rest of a forced bet is a blind)."""
    return HandHistory(labels, streets, ante).render(record)


class HandHistory:
    """Renders the hands of one match (:func:`render_hand`), with what every hand shares (the
    players' names, the street headings) worked out once."""

    def __init__(self, labels: list[str], streets=(), ante: int = 0) -> None:
        self.players = len(labels)
        self.names = [f"{label} (seat {s})" for s, label in enumerate(labels)]
        self.phrases = Phrases([f"  {name}" for name in self.names])
        self._no_antes = [0] * self.players  # read only
        self.streets = list(streets)
        self.ante = ante
        self.headed = len(self.streets) > 1
        # The board cards shown once each street has started.
        self.shown_after: list[int] = []
        count = 0
        for street in self.streets:
            count += street.board
            self.shown_after.append(count)

    def render(self, record: HandRecord) -> str:
        n, names, ante, headed = self.players, self.names, self.ante, self.headed
        phrases = self.phrases
        button: int = record["button"]
        stacks: list[int] | None = record.get("stacks_start")
        board: list[str] = record.get("board") or []
        number: int = record["hand"]
        lines = [f"Hand {number}: the button is {names[button]}"]
        cards: list[str] = record["cards"]
        for s in range(n):
            chips = f", {stacks[s]} in chips" if stacks else ""
            lines.append(f"  {names[s]} holds {cards[s]}{chips}")
        front: list[int] = list(record["forced"])
        # Dead antes go straight into the pot, never in front.
        dead: list[int] = record.get("antes") or self._no_antes
        earlier = list(dead)  # chips put in before this street's money in front
        # Posted in order from the small blind (heads-up the button posts it).
        small = button if n == 2 else (button + 1) % n
        big = (small + 1) % n
        order = [(small + i) % n for i in range(n)]
        for s in order:
            if dead[s]:
                lines.append(f"  {names[s]} posts a dead ante of {dead[s]}"
                             + (all_in(dead[s], stacks[s]) if stacks else ""))
        for s in order:
            if ante and front[s]:
                lines.append(f"  {names[s]} posts an ante of {min(ante, front[s])}"
                             + ("" if front[s] > ante else _all_in(stacks, earlier, front, s)))
            blind = front[s] - ante
            if blind > 0:
                which = "big" if s == big else "small"
                lines.append(f"  {names[s]} posts the {which} blind {blind}"
                             + _all_in(stacks, earlier, front, s))
        street = 0
        if headed:
            lines.append(self._heading(0, board))
        actions: list[list] = record["actions"]
        for played in actions:
            seat: int = played[0]
            word: str = played[1]
            value: int = played[2]
            st: int = played[3]
            while st > street:
                street += 1
                for s in range(n):
                    earlier[s] += front[s]
                    front[s] = 0
                if headed:
                    lines.append(self._heading(street, board))
            folds = word == "FOLD"
            lines.append(phrases.action(seat, folds, value, front, ante if street == 0 else 0,
                                        earlier[seat] + value, stacks[seat] if stacks else 0))
            if not folds and value != front[seat]:
                front[seat] = value
        # Streets dealt with no betting left (everyone all-in but one, or all).
        streets = len(self.streets)
        while headed and street + 1 < streets and self.shown_after[street + 1] <= len(board):
            street += 1
            lines.append(self._heading(street, board))
        pots: list[list[int]] = record["pots"]
        put = [earlier[s] + front[s] for s in range(n)]
        returned = _sum(put)
        for amount, _ in pots:
            returned -= amount
        if returned > 0:
            owner = max(range(n), key=put.__getitem__)
            lines.append(f"  uncalled bet of {returned} returned to {names[owner]}")
        if board and headed:
            lines.append(f"  board: {' '.join(board)}")
        showdown: list[str] = record["showdown"]
        for s, shown in enumerate(showdown):
            if shown != "-":
                lines.append(f"  {names[s]} shows {shown}")
        for amount, seat in pots:
            lines.append(phrases.wins(seat, amount))
        deltas: list[int] = record["deltas"]
        bankrolls: list[int] = record["bankrolls"]
        # str() of a typed int compiles to a direct conversion; a format spec does not.
        results = ", ".join([str(d) if d < 0 else "+" + str(d) for d in deltas])
        lines.append(f"  result: {results}; bankrolls: {', '.join([str(b) for b in bankrolls])}")
        return "\n".join(lines) + "\n\n"

    def _heading(self, street: int, board: list[str]) -> str:
        cards = " ".join(board[: self.shown_after[street]])
        return f"  *** {self.streets[street].name} ***" + (f" [{cards}]" if cards else "")


def _sum(chips: list[int]) -> int:
    """``sum(chips)`` as native arithmetic (the builtin is a generic call from compiled code,
    twice in every hand)."""
    total = 0
    for c in chips:
        total += c
    return total


def _all_in(stacks: list[int] | None, earlier: list[int], front: list[int], s: int) -> str:
    """`` and is all-in`` when seat ``s`` has put in its whole stack."""
    return all_in(earlier[s] + front[s], stacks[s]) if stacks else ""

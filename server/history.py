"""The hand history people read: a hand's record (a line of ``hands.jsonl``) in words.

Written like a poker site's hand history: the forced bets posted, every action (``checks``,
``calls 10``, ``bets 20``, ``raises to 60``, ``and is all-in``) naming the player by label and
seat, street headings with the board, the uncalled bet returned, what is shown and won.
``hands.txt`` is rendered from ``hands.jsonl`` when a round ends (:func:`render_history`), and
``pokerbots show`` renders the same at any time. Compiled with the per-message modules (see
setup.py): a long match's history is rendered once, at its end.
"""

from __future__ import annotations

import json
from pathlib import Path


def render_hand(record: dict, labels: list[str], streets=(), ante: int = 0) -> str:
    """A hand as a person reads it, like a poker site's hand history: the forced bets posted
    (dead antes first, from the record's ``antes``), then every action in words (``checks``,
    ``calls 10``, ``bets 20``, ``raises to 60``, ``and is all-in``), each naming the player by
    its label and seat. ``streets`` are the game's
    :class:`~pokerbots.server.games.base.Street` values (headed when there are several);
    ``ante`` the ante every seat posts (the rest of a forced bet is a blind)."""
    n = len(labels)
    names = [f"{label} (seat {s})" for s, label in enumerate(labels)]
    button = record["button"]
    stacks = record.get("stacks_start")
    board = record.get("board") or []
    lines = [f"Hand {record['hand']}: the button is {names[button]}"]
    for s in range(n):
        chips = f", {stacks[s]} in chips" if stacks else ""
        lines.append(f"  {names[s]} holds {record['cards'][s]}{chips}")
    front = list(record["forced"])
    dead = record.get("antes") or [0] * n  # dead antes: straight into the pot, never in front
    earlier = list(dead)  # chips put in before this street's money in front

    def all_in(s: int) -> str:
        return " and is all-in" if stacks and earlier[s] + front[s] >= stacks[s] > 0 else ""

    # Posted in order from the small blind (heads-up the button posts it).
    small = button if n == 2 else (button + 1) % n
    big = (small + 1) % n
    order = [(small + i) % n for i in range(n)]
    for s in order:
        if dead[s]:
            lines.append(f"  {names[s]} posts a dead ante of {dead[s]}"
                         + (" and is all-in" if stacks and dead[s] >= stacks[s] else ""))
    for s in order:
        if ante and front[s]:
            lines.append(f"  {names[s]} posts an ante of {min(ante, front[s])}"
                         + ("" if front[s] > ante else all_in(s)))
        blind = front[s] - ante
        if blind > 0:
            which = "big" if s == big else "small"
            lines.append(f"  {names[s]} posts the {which} blind {blind}{all_in(s)}")
    headed = len(streets) > 1
    shown_after = []
    count = 0
    for st in streets:
        count += st.board
        shown_after.append(count)
    street = 0

    def head(st: int) -> None:
        cards = " ".join(board[: shown_after[st]])
        lines.append(f"  *** {streets[st].name} ***" + (f" [{cards}]" if cards else ""))

    if headed:
        head(0)
    for seat, word, value, st in record["actions"]:
        while st > street:
            street += 1
            for s in range(n):
                earlier[s] += front[s]
                front[s] = 0
            if headed:
                head(street)
        mine = front[seat]
        table = max(front)
        if word == "FOLD":
            text = "folds"
        elif value == mine:
            text = "checks"
        elif value <= table:
            text = f"calls {value - mine}"
        elif table > (ante if street == 0 else 0):
            text = f"raises to {value}"
        else:
            text = f"bets {value - mine}"
        front[seat] = value
        lines.append(f"  {names[seat]} {text}{all_in(seat) if word != 'FOLD' else ''}")
    # Streets dealt with no betting left (everyone all-in but one, or all).
    while headed and street + 1 < len(streets) and shown_after[street + 1] <= len(board):
        street += 1
        head(street)
    pots = record["pots"]
    put = [earlier[s] + front[s] for s in range(n)]
    returned = sum(put) - sum(amount for amount, _ in pots)
    if returned > 0:
        owner = max(range(n), key=put.__getitem__)
        lines.append(f"  uncalled bet of {returned} returned to {names[owner]}")
    if board and headed:
        lines.append(f"  board: {' '.join(board)}")
    for s, shown in enumerate(record["showdown"]):
        if shown != "-":
            lines.append(f"  {names[s]} shows {shown}")
    for amount, seat in pots:
        lines.append(f"  {names[seat]} wins {amount}")
    results = ", ".join(f"{d:+d}" for d in record["deltas"])
    bankrolls = ", ".join(str(b) for b in record["bankrolls"])
    lines.append(f"  result: {results}; bankrolls: {bankrolls}")
    return "\n".join(lines) + "\n\n"


def render_history(source: Path, target: Path, labels: list[str], streets=(),
                   ante: int = 0) -> None:
    """``hands.txt`` from ``hands.jsonl``, hand by hand (a line cut short by a crash ends it)."""
    with open(source, encoding="utf-8") as lines, open(target, "w", encoding="utf-8") as out:
        for line in lines:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                break
            out.write(render_hand(record, labels, streets, ante))

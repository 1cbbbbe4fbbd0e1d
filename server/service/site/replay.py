"""A hand, step by step, for the replayer page: what the table looks like after each action.

The states come from the one betting engine: the hand's record (a line of ``hands.jsonl``)
is played again by :func:`~pokerbots.server.hands.replay.replay`, and a snapshot of the seats
(chips behind, money in front, folded), the pot and the board is taken after each action, said
in the words of the hand history (:mod:`~pokerbots.server.hands.words`). The street is named as
the game's own structure names it, and not at all in a game of one betting round (Kuhn's), as
the hand history heads no street there. After the last action the chips still in front are
collected: a step with nothing in front and the pot as it is awarded (an uncalled bet returned
to its owner's chips); then the result: the pot awarded (0 in the middle, the winners' chips
grown by what they won), the cards shown, each seat's delta. The pot of every step holds every
chip put in, those in front included.

Which hole cards a step carries is the viewer's :class:`~.visibility.Sight`: every step
carries the cards the viewer may see from the deal on; cards shown at the showdown only
in the last step. The states are plain data, handed to the page as JSON.
"""

from __future__ import annotations

import math

from pokerbots.server import games
from pokerbots.server.games.engine.betting import Hand
from pokerbots.server.hands import words
from pokerbots.server.hands.follow import FOLD, Act
from pokerbots.server.hands.record import HandRecord
from pokerbots.server.hands.replay import ReplayError, replay
from pokerbots.server.service.site.visibility import HIDDEN, Sight


class NoReplay(Exception):
    """The record cannot be played again (an unknown game, or actions the rules refuse)."""


def seat_places(n: int) -> list[dict]:
    """Where each of ``n`` seats sits around an oval table, in percent of the table's box
    (seat 0 at the bottom, the others clockwise)."""
    return [{"x": round(50 + 42 * math.sin(-2 * math.pi * s / n), 1),
             "y": round(50 + 38 * math.cos(2 * math.pi * s / n), 1)} for s in range(n)]


def steps(record: HandRecord, summary: dict, labels: list[str], sight: Sight) -> dict:
    """The replay of hand ``record`` of the match whose ``summary.json`` is ``summary``, seats
    named ``labels``, as ``sight`` may see it: ``{"seats", "streets", "steps", "complete"}``.
    NoReplay if the engine cannot play it again."""
    n = len(record["cards"])
    try:
        game = games.make_game(summary["game"], n, **(summary.get("game_options") or {}))
    except (KeyError, TypeError, ValueError) as exc:
        raise NoReplay(f"the match's game cannot be made again: {exc}") from None
    # one betting round: nothing to tell apart, no name (as hands.txt heads no street)
    streets = [s.name for s in game.structure.streets] if len(game.structure.streets) > 1 \
        else []
    ante = game.structure.ante
    shown = record.get("showdown") or [HIDDEN] * n
    known = [cards if sight.sees_cards(s) else None for s, cards in enumerate(record["cards"])]
    said = words.Phrases([f"{labels[s]} (seat {s})" for s in range(n)])
    found: list[dict] = []

    def state(hand: Hand, text: str, actor: int | None) -> dict:
        return {
            "text": text, "actor": actor, "street": streets[hand.street] if streets else "",
            "board": list(record.get("board") or [])[:hand.revealed],
            "pot": sum(hand.total),
            "behind": ([start - put for start, put in zip(hand.stacks_start, hand.total)]
                       if hand.limited else None),
            "front": list(hand.front), "folded": list(hand.folded),
            "to_act": hand.to_act, "cards": known,
        }

    def step(hand: Hand, act: Act | None) -> None:
        if act is None:
            found.append(state(hand, f"Hand {record['hand']}: cards dealt, forced bets posted",
                               None))
            return
        seat = act.seat
        front = found[-1]["front"]  # the money in front as the seat acted
        found.append(state(hand, said.action(seat, act.word == FOLD, act.front, front,
                                             ante if act.street == 0 else 0, act.total,
                                             hand.stacks_start[seat] if hand.limited else 0),
                           seat))

    try:
        hand = replay(game, record, each=step).hand
    except ReplayError as exc:
        raise NoReplay(f"the hand's record does not fit the rules: {exc}") from None
    limited = hand.limited
    pots = record.get("pots") or []
    won = [sum(amount for amount, w in pots if w == s) for s in range(n)]
    awarded = sum(won)
    stacks_end = record.get("stacks_end")
    if any(hand.front):
        # The chips in front go to the pot; an uncalled bet goes back to its owner (the
        # engine took it out of the pot when the hand ended).
        text = f"The bets go to the pot: {awarded}"
        if hand.returned:
            owner = max(range(n), key=hand.front.__getitem__)
            text += f"; an uncalled {hand.returned} goes back to {labels[owner]}"
        found.append({**found[-1], "text": text, "actor": None, "to_act": None,
                      "pot": awarded, "front": [0] * n,
                      "behind": ([end - gain for end, gain in zip(stacks_end, won)]
                                 if limited and stacks_end else found[-1]["behind"])})
    winners = words.Phrases(labels)
    said_won = [winners.wins(w, amount) for amount, w in pots]
    last = {**found[-1], "text": "Result: " + ("; ".join(said_won) or "no pot"), "actor": None,
            "to_act": None, "board": list(record.get("board") or []), "pot": 0,
            "front": [0] * n, "behind": stacks_end if limited else None,
            "cards": [c if c is not None else (shown[s] if shown[s] != HIDDEN else None)
                      for s, c in enumerate(known)],
            "deltas": record.get("deltas"), "winners": sorted({w for _, w in pots})}
    found.append(last)
    places = seat_places(n)
    seats = [{"seat": s, "name": labels[s], "button": s == record["button"], **places[s]}
             for s in range(n)]
    return {"seats": seats, "steps": found, "hand": record["hand"], "limited": limited}

"""A match's hands in other tools' formats (``pokerbots export LOGDIR --format phh|acpc``).

* ``phh``: every hand as a PHH file (the Poker Hand History format of the PokerKit community),
  one per hand, in ``LOGDIR/export-phh/`` by default: the variant, antes, blinds, bet sizes,
  starting stacks, every card dealt and every action in PHH notation, the cards of every player
  who reached a showdown, the players (the bots' labels), seats and final stacks.
* ``acpc``: the ACPC dealer's log format, ``LOGDIR/match.acpc.log`` by default: a ``STATE``
  line per hand (the betting, every hole card by position, the board, each position's result,
  the bots by position, each seat's bot named once: :func:`acpc_format.log_names`) and the
  ``SCORE`` line (each bot's total, in seat order), with the
  game definition file beside it (``match.acpc.game``), so the ACPC's analysis tools read our
  matches.

Each hand is replayed on the game's engine from its record (cards, actions) before it is
written, and must reach its recorded result: a log folder that is not a match, that cannot be
read or whose hands do not replay is refused with the reason (:class:`ExportError`). A failed
or interrupted match exports the hands it completed.
"""

from __future__ import annotations

import json
from pathlib import Path

from pokerbots.server import games
from pokerbots.server.games.base import Game
from pokerbots.server.games.engine.betting import Hand
from pokerbots.server.hands.follow import CALL, FOLD, RAISE, Act
from pokerbots.server.hands.record import HandRecord
from pokerbots.server.hands.replay import ReplayError, replay
from pokerbots.server.logs import acpc_format
from pokerbots.server.logs.folder import HANDS, SUMMARY, LogFolderError, MatchFolder


class ExportError(Exception):
    """A match that cannot be exported; the message says why, and what to give instead."""


# -- reading a log folder ------------------------------------------------------------------------


def read_match(logdir: Path) -> tuple[dict, list[HandRecord], Game]:
    """The summary, the hand records and the game (a table as the match made it)."""
    if not logdir.is_dir():
        raise ExportError(f"{logdir} is not a folder: give a match's log folder")
    folder = MatchFolder(logdir)
    for name in (SUMMARY, HANDS):
        if not (logdir / name).is_file():
            raise ExportError(f"{logdir} is not a match's log folder: it has no {name}")
    summary_path = folder.summary_path
    try:
        summary = json.loads(summary_path.read_text(encoding="utf-8"))
        name, bots = summary["game"], summary["bots"]
        options = summary.get("game_options") or {}
        if not isinstance(bots, list) or not isinstance(options, dict):
            raise TypeError("bots or game_options")
    except (ValueError, KeyError, TypeError) as exc:
        raise ExportError(f"{summary_path} cannot be read ({exc.__class__.__name__}: {exc})"
                          ) from None
    try:
        game = games.make_game(name, len(bots), **options)
    except (KeyError, TypeError, ValueError) as exc:
        raise ExportError(f"{summary_path} names no table of a game we have: {exc}") from None
    try:
        records = folder.strict_hands()
    except LogFolderError as exc:
        raise ExportError(str(exc)) from None
    return summary, records, game


def _replay(game: Game, record: HandRecord) -> tuple[Hand, list[Act]]:
    """The hand of ``record`` played again on the engine to its recorded result (the one
    replay of a record: :func:`~pokerbots.server.hands.replay.replay`), and its acts.
    ExportError if it does not get there."""
    try:
        played = replay(game, record, check=True)
    except ReplayError as exc:
        raise ExportError(f"hand {record.get('hand')} of the log does not replay: {exc}"
                          ) from None
    return played.hand, played.acts


# -- PHH -----------------------------------------------------------------------------------------


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string: the same escapes
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


def phh_text(game: Game, record: HandRecord, labels: list[str], title: str) -> str:
    """One hand as a PHH file."""
    hand, acts = _replay(game, record)
    structure = game.structure
    n = game.players
    button = record["button"]
    # PHH players: p1 left of the button ... the button last (heads-up: p1 the big blind),
    # leaving out an empty seat (it is dealt no hand).
    seats = [(button + k) % n for k in range(1, n + 1) if hand.stacks_start[(button + k) % n]]
    player = {seat: i + 1 for i, seat in enumerate(seats)}
    forced = structure.forced(n, button)
    antes = structure.antes(n, button)
    blinds = [forced[s] for s in seats]
    antes = [antes[s] for s in seats]
    if len(seats) == 2:  # PHH lists heads-up blinds and antes reversed
        blinds.reverse()
        antes.reverse()
    fields = {"variant": game.type.phh_variant, "antes": antes, "blinds_or_straddles": blinds}
    if structure.no_limit:
        fields["min_bet"] = structure.streets[0].bet
    else:
        fields["small_bet"] = structure.streets[0].bet
        fields["big_bet"] = structure.streets[-1].bet
    if structure.dead_ante:
        fields["ante_trimming_status"] = False  # all antes in the main pot, as ours
    fields["starting_stacks"] = [hand.stacks_start[s] for s in seats]
    actions = [f"d dh p{player[s]} {''.join(hand.holes[s])}" for s in seats]
    board, dealt, street = hand.board, 0, 0
    shown_after = []
    for s in structure.streets:
        dealt += s.board
        shown_after.append(dealt)
    for act in acts:
        while street < act.street:
            street += 1
            actions.append(f"d db {''.join(board[shown_after[street - 1]:shown_after[street]])}")
        if act.word == FOLD:
            actions.append(f"p{player[act.seat]} f")
        elif act.word == CALL:
            actions.append(f"p{player[act.seat]} cc")
        else:
            actions.append(f"p{player[act.seat]} cbr {act.front}")
    live = [s for s in seats if not hand.folded[s]]
    if len(live) > 1:  # a showdown: every player still in shows, then the board runs out
        # (PokerKit's state machine has the players show as soon as the betting is over, so
        # after an all-in before the river the cards are shown before the rest of the board)
        last = [a.seat for a in acts if a.word == RAISE and a.street == acts[-1].street]
        first = seats.index(last[-1]) if last else 0
        for s in seats[first:] + seats[:first]:
            if s in live:
                actions.append(f"p{player[s]} sm {''.join(hand.holes[s])}")
        while street < len(structure.streets) - 1:
            street += 1
            actions.append(f"d db {''.join(board[shown_after[street - 1]:shown_after[street]])}")
    fields["actions"] = actions
    fields["event"] = title
    fields["hand"] = record["hand"]
    fields["players"] = [labels[s] for s in seats]
    fields["seats"] = [s + 1 for s in seats]
    fields["seat_count"] = n
    fields["finishing_stacks"] = [hand.stack[s] for s in seats]
    return "".join(f"{key} = {_toml(value)}\n" for key, value in fields.items())


def export_phh(logdir: Path, out: Path | None) -> str:
    summary, records, game = read_match(logdir)
    if game.type.phh_variant is None:
        raise ExportError(f"PHH has no variant for {game.name}: export it with --format acpc")
    out = out or logdir / "export-phh"
    texts = [(record["hand"], phh_text(game, record, summary["bots"], _title(logdir)))
             for record in records]
    try:
        out.mkdir(parents=True, exist_ok=True)
        for number, text in texts:
            (out / f"hand{number:06d}.phh").write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ExportError(f"cannot write to {out}: {exc.strerror or exc}") from None
    return f"Wrote {len(texts)} PHH files to {out}"


# -- ACPC ----------------------------------------------------------------------------------------


def acpc_lines(game: Game, records: list[HandRecord], labels: list[str], summary: dict,
               title: str) -> list[str]:
    """The ACPC log of a match: comments, a STATE line per hand, the SCORE line."""
    why = acpc_format.unsupported(game)
    if why:
        raise ExportError(f"this match cannot be written as an ACPC log: {why}")
    spec = acpc_format.AcpcGame.of(game)
    cards = acpc_format.Cards(game.deck)
    n = game.players
    names = acpc_format.log_names(labels)
    lines = [f"# name/game/hands/seed {acpc_format.log_name(title)} {game.name}.{n}p.game"
             f" {len(records)} {summary.get('seed') or 0}"]
    for record in records:
        hand, acts = _replay(game, record)
        cards.start_hand()
        seats = acpc_format.position_seats(n, record["button"])
        holes = [cards.cards(hand.holes[s], ("hole", s)) for s in seats]
        board = [cards.card(c, ("board", i))
                 for i, c in enumerate(hand.board[:hand.revealed])]
        folded_out = sum(1 for f in hand.folded if not f) == 1
        rounds = acpc_format.final_rounds(acts, folded_out, spec.rounds)
        by_position = [Act(seats.index(a.seat), a.word, a.front, a.total, a.street)
                       for a in acts]
        state = acpc_format.state_text("STATE", record["hand"], by_position, rounds, holes,
                                       board, spec)
        values = "|".join(acpc_format.value_text(record["deltas"][s]) for s in seats)
        lines.append(f"{state}:{values}:" + "|".join(names[s] for s in seats))
    totals = records[-1]["bankrolls"] if records else [0] * n
    lines.append("SCORE:" + "|".join(acpc_format.value_text(t) for t in totals) + ":"
                 + "|".join(names))
    return lines


def export_acpc(logdir: Path, out: Path | None) -> str:
    summary, records, game = read_match(logdir)
    out = out or logdir / "match.acpc.log"
    lines = acpc_lines(game, records, summary["bots"], summary, _title(logdir))
    game_file = out.with_suffix(".game") if out.suffix == ".log" else Path(f"{out}.game")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        game_file.write_text(acpc_format.AcpcGame.of(game).text(), encoding="ascii")
    except OSError as exc:
        raise ExportError(f"cannot write {out}: {exc.strerror or exc}") from None
    return f"Wrote {out} ({len(records)} hands) and its game definition {game_file}"


def _title(logdir: Path) -> str:
    return f"pokerbots match {logdir.resolve().name}"


#: The formats, by the name ``--format`` takes: each writes a match and says what it wrote.
FORMATS = {"phh": export_phh, "acpc": export_acpc}

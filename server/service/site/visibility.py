"""What each viewer may see of a match: the one place that decides it.

Three kinds of viewer (:func:`sight`): the public (no token), a team (its token: a
:class:`~.data.teams.Team`), and the organiser (a team with the organiser flag). While the
competition runs:

* the public sees the standings, the cross-tables, each match's result (``summary.json``
  without what the server sent a culprit and its reply) and the hands with only the cards
  shown at a showdown (the protocol shows a player's cards only when it wins a
  share of a contested pot: the hand record's ``showdown``, ``-`` for every other seat);
* a team sees that, and of a match it sat in its own seat's transcript (``seatN.in``) and
  stderr, its own hole cards, and the whole error paragraph of a match its bot broke;
* the organiser sees everything.

Nobody but the organiser is ever given another seat's transcript, stderr or hole cards that
were not shown, or another bot's error paragraph past its first line (a fault paragraph
quotes the culprit's messages, its hole cards among them, and the end of its stderr).

Nor is anyone but the organiser given a seed, which would tell every hidden card: not a
match's (``summary.json``'s ``seed``), not a tournament's (its row's ``seed``, ``salt`` and
``job``, its standings' ``seed``, its digits in its error paragraph), while it plays or
after. Everyone sees a tournament's commitment (:mod:`.data.commitments`) from the start, and its
seed and salt once the organiser has revealed them (a finished tournament's); the match
seeds stay out of the summaries even then (anyone derives them from the revealed seed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pokerbots.server.hands import record as record_

# HIDDEN: how a hidden hand looks in a hand record as served (the protocol's "no cards").
from pokerbots.server.hands.record import HIDDEN, HandRecord
from pokerbots.server.logs import folder as folder_
from pokerbots.server.logs.history import HandHistory

#: How a hidden hand reads in the hand history.
HIDDEN_TEXT = "(hidden)"

#: What a failed match's error in ``summary.json`` tells only the culprit's team: the
#: messages the server sent it (its cards) and its reply.
PRIVATE_ERROR = ("sent", "received", "received_length", "legal", "hint")
#: The fields of a match's ``summary.json`` that only the organiser sees: the match seed.
SECRET_SUMMARY = ("seed",)
#: The fields of a tournament's row that only the organiser sees until it is revealed (the
#: ``job`` it was started with holds the seed too: it is the organiser's only, always).
SECRET_TOURNAMENT = ("seed", "salt")
#: How a seed's digits read in a text where they are hidden.
HIDDEN_SEED = "(hidden)"

#: What a served file is: the file itself, made from the hand records for the viewer, none.
WHOLE, FILTERED, NONE = "whole", "filtered", "none"


@dataclass(frozen=True)
class Sight:
    """What one viewer may see of one match: ``everything`` (the organiser), else the hole
    cards, transcripts and stderr of ``seats`` only (a team's own seats; none for the
    public)."""

    everything: bool
    seats: frozenset[int]

    def file(self, name: str) -> str:
        """How the match file ``name`` may be served: :data:`WHOLE`, :data:`FILTERED` (the
        hand records and their history, rebuilt with :meth:`hand`) or :data:`NONE`."""
        if self.everything:
            return WHOLE
        if name in (folder_.HANDS, folder_.HISTORY, folder_.SUMMARY):
            return FILTERED
        if name == folder_.TIMING:
            return WHOLE
        return WHOLE if any(name in (folder_.transcript_name(s), folder_.stderr_name(s))
                            for s in self.seats) else NONE

    def sees_cards(self, seat: int) -> bool:
        """Whether seat ``seat``'s hole cards are the viewer's to see from the deal on."""
        return self.everything or seat in self.seats

    def hand(self, record: HandRecord) -> HandRecord | dict[str, object]:
        """The hand record as the viewer may see it: the organiser's is the record; anyone
        else's is its public view for the viewer's seats
        (:func:`~pokerbots.server.hands.record.public_view`: what every player may know once
        the hand is over, the viewer's own hole cards and those shown, and the bankrolls)."""
        if self.everything:
            return record
        return record_.public_view(record, self.seats)

    def error(self, text: str | None, culprit_seat: int | None) -> str | None:
        """A match's error paragraph as the viewer may read it: whole for the organiser and
        for the culprit's own team, else its first line (who broke which rule)."""
        if not text or self.everything or (culprit_seat is not None
                                           and culprit_seat in self.seats):
            return text
        return text.split("\n", 1)[0]

    def summary(self, summary: dict) -> dict:
        """``summary.json`` for the viewer: the organiser's is the file; anyone else's has no
        match seed, and a failed match's error keeps what the server sent the culprit and
        what it replied (its hole cards among them) for the culprit's team only."""
        if self.everything:
            return summary
        found = {key: value for key, value in summary.items() if key not in SECRET_SUMMARY}
        error = summary.get("error")
        if isinstance(error, dict) and error.get("seat") not in self.seats:
            found["error"] = {key: value for key, value in error.items()
                              if key not in PRIVATE_ERROR}
        return found

    def tournament(self, row: dict) -> dict:
        """A tournament's row (as the service's store has it) for the viewer: the
        organiser's is the row; anyone else's has no ``job``, no seed or salt until they are
        revealed (its commitment always), its error paragraph with the seed's digits
        hidden, and its standings as :meth:`standings` gives them."""
        if self.everything:
            return row
        revealed = row.get("revealed") is not None
        found = {key: value for key, value in row.items() if key != "job"
                 and (revealed or key not in SECRET_TOURNAMENT)}
        if not revealed and row.get("error"):
            found["error"] = hide_number(row["error"], row.get("seed"))
        if row.get("standings") is not None:
            found["standings"] = self.standings(row["standings"])
        return found

    def standings(self, document: dict) -> dict:
        """A tournament's ``standings.json`` for the viewer: without its seed but for the
        organiser."""
        if self.everything:
            return document
        return {key: value for key, value in document.items() if key != "seed"}

    def jsonl(self, records: list[HandRecord]) -> str:
        """``hands.jsonl`` for the viewer (written by the records' one encoder)."""
        return "".join(record_.encode(self.hand(r)) + "\n" for r in records)

    def history(self, records: list[HandRecord], labels: list[str], streets=(), ante: int = 0
                ) -> list[str]:
        """Each hand of ``hands.txt`` for the viewer (the one renderer, on :meth:`hand`)."""
        history = HandHistory(labels, streets, ante)
        return [history.render(self._readable(r)) for r in records]

    def _readable(self, record: HandRecord) -> dict:
        found = self.hand(record)
        return {**found, "cards": [HIDDEN_TEXT if c == HIDDEN else c for c in found["cards"]]}


PUBLIC = Sight(False, frozenset())
EVERYTHING = Sight(True, frozenset())


def sight(viewer, seating: list[str] | tuple[str, ...] = ()) -> Sight:
    """What ``viewer`` (a :class:`~.data.teams.Team` or None) may see of a match seated
    ``seating`` (one bot name per seat): a team's bot is the bot of its name. Without a
    seating: what the viewer may see of what is no one match's (a tournament's row, its
    standings)."""
    if viewer is None:
        return PUBLIC
    if viewer.organiser:
        return EVERYTHING
    return Sight(False, frozenset(s for s, name in enumerate(seating) if name == viewer.name))


def sees_team(viewer, name: str) -> bool:
    """Whether ``viewer`` may see team ``name``'s own things (its page, its versions' smoke
    logs and transcripts): the team itself and the organiser."""
    return viewer is not None and (viewer.organiser or viewer.name == name)


def hide_number(text: str, number: int | None) -> str:
    """``text`` with every whole occurrence of ``number``'s decimal digits (not part of a
    longer run of digits) replaced by :data:`HIDDEN_SEED`."""
    if number is None:
        return text
    return re.sub(rf"(?<![0-9]){int(number)}(?![0-9])", HIDDEN_SEED, text)

"""``pokerbots certify``'s cases played in-process, every seat a client-library bot.

``pokerbots certify`` plays each case of its table (:func:`~pokerbots.server.play.certify.
cases_for`) with processes: the bot and the scripted opponents
(:mod:`pokerbots.server.play.scripted_bot`). What its slow tests check of the table itself
(that the scripted seats steer whatever legal reply the bot gives into each case's situation,
and that a bot with a planted bug fails exactly the case that names it) does not depend on
the processes: :func:`verdict` plays a case on the referee (:func:`~pokerbots.server.referee.
driver.play_local`) with the same cards, button, options and scripted opponents, each seat
receiving the bytes it would receive from the server, and judges it as certify does. The
command itself, with processes, is played end to end in tests/unit/play/test_certify.py and
on every bundled bot and kit in ``.ci/run``.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable

from pokerbots.protocol.client import Client
from pokerbots.server import games
from pokerbots.server.errors import BotFault
from pokerbots.server.play.certify import Case
from pokerbots.server.play.options import game_options_from_texts
from pokerbots.server.play.scripted_bot import ScriptedBot, parse_script
from pokerbots.server.referee.driver import play_local
from pokerbots.server.referee.referee import Referee

#: What certify prints for a case: passed, passed without reaching its situation, the bot
#: broke a rule, another seat did.
PASS, SKIP, FAIL, ERROR = "PASS", "SKIP", "FAIL", "ERROR"


class _Crashes:
    """The bot's seat: an exception in its code is a bot that stops replying, as a process
    that crashes is (its reply missing: the referee's fault for the seat)."""

    def __init__(self, client: Client) -> None:
        self.client = client

    def receive(self, message: bytes) -> bytes | None:
        try:
            return self.client.receive(message)
        except Exception:
            return None


def verdict(case: Case, bot: Callable[[], Client]) -> str:
    """Play ``case`` with ``bot()`` (a new :class:`Client`, made while POKERBOTS_GAME names
    the case's game, as the server sets it) in its seat: PASS, SKIP (passed, the situation not
    reached), FAIL (the bot broke a rule) or ERROR (a scripted seat did)."""
    game = games.make_game(case.game, case.players,
                           **game_options_from_texts(case.game, case.options))
    deals = [game.parse_deal(deal) for deal in case.deals]
    referee = Referee(game, random.Random(1), hands=len(deals), button=case.button,
                      deals=deals)
    before = os.environ.get("POKERBOTS_GAME")
    os.environ["POKERBOTS_GAME"] = case.game
    try:
        seats = [_Crashes(bot()) if script is None else
                 Client(ScriptedBot(parse_script(script), s in case.rebuy), game=case.game)
                 for s, script in enumerate(case.scripts)]
    finally:
        if before is None:
            del os.environ["POKERBOTS_GAME"]
        else:
            os.environ["POKERBOTS_GAME"] = before
    transcript: list = []
    try:
        play_local(referee, seats, transcript=transcript)
    except BotFault as fault:
        return FAIL if fault.seat == case.seat else ERROR
    if case.reach is None:
        return PASS
    seen = b"".join(message for seat, _, message, _ in transcript if seat == case.seat)
    return PASS if re.search(case.reach, seen.decode("utf-8", "replace")) else SKIP

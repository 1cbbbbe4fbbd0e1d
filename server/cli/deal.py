"""``pokerbots deal``: the exact text one seat receives in a short round, without any server
(:mod:`pokerbots.server.referee.transcript` plays it).

The round is played in-process by the real referee with **every seat checking or calling**
(the chosen seat included), so the printed text is exactly what a check/call bot receives.
A bot that plays differently sees the same text up to its first different decision and then
diverges (the seat's replies change what the others are told); for an exact replay of a real
match use that match's ``seatN.in`` log file instead.

With the same ``--seed``, ``--hands``, game and number of players, the deal matches
``pokerbots run ... --seed S --hands N``: same button, same cards. So::

    pokerbots deal --seed 7 --seat 1 > seat1.txt
    ./mybot < seat1.txt

shows a bot's replies to a real round with nothing else running.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pokerbots.server import games
from pokerbots.server.cli.options import game_options, parse_game_options
from pokerbots.server.referee.transcript import seat_text


def deal_options(func):
    options = [
        click.option("--players", "-p", type=click.IntRange(min=2), default=2,
                     show_default=True, help="Players at the table."),
        click.option("--seed", type=int, default=1, show_default=True,
                     help="Seed of the deal; the same seed in `pokerbots run` deals the"
                          " same cards."),
        click.option("--hands", "-n", type=click.IntRange(min=1), default=3, show_default=True,
                     help="Hands in the round."),
        click.option("--seat", "-s", type=click.IntRange(min=0), default=0, show_default=True,
                     help="The seat whose messages are printed."),
        click.option("--replies", is_flag=True,
                     help="Also print the seat's check/call replies: a whole transcript to read,"
                          " not to feed to a bot."),
        click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
                     default=None, help="Write to this file instead of standard output."),
    ]
    for option in reversed(options):
        func = option(func)
    return game_options()(func)


def command() -> click.Command:
    """The ``deal`` command, built when cli registers it."""
    return click.command(
        name="deal", short_help="Print the exact text a seat receives, to feed to a bot.")(
        deal_options(deal))


def deal(game, game_texts, players, seed, hands, seat, replies, output):
    """Print the exact server text one seat receives in a short round, to feed to a bot.

    Every seat checks or calls, so this is what a check/call bot sees; a bot that plays
    otherwise diverges after its first different decision (replay a real match's seatN.in
    log for that). With the same --seed and --hands, `pokerbots run` deals the same cards.

    \b
        pokerbots deal --players 3 --seed 7 --seat 1 > seat1.txt
        ./mybot < seat1.txt
    """
    options = parse_game_options(game, game_texts)
    try:
        rules = games.make_game(game, players, **options)
    except (TypeError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
    if seat >= players:
        raise click.BadParameter(f"seat {seat} does not exist at a table of {players}"
                                 f" (seats are 0 to {players - 1})", param_hint="--seat")
    text = seat_text(rules, seat, seed=seed, hands=hands, replies=replies)
    if output is not None:
        output.write_bytes(text)
    else:
        sys.stdout.buffer.write(text)
        sys.stdout.flush()

"""Each thing the command line reads is declared once: every bot limit (its default, flag, help
text and unit on its field), the grammar of a time, and the reader of a pair ``a/b``.

``run --help``, ``tournament --help`` and ``serve --help`` show every limit with the default its
field declares; ``logs prune --older-than`` and serve's times read one grammar; ``--blinds``,
``--bet-sizes`` and ``--end-prob`` one reader of pairs.
"""

from __future__ import annotations

import dataclasses
import re

import click
import pytest
from click.testing import CliRunner

from pokerbots.server.cli.main import main
from pokerbots.server.cli.options import parse_duration
from pokerbots.server.cli.run import parse_fraction
from pokerbots.server.confine.limits import OFFERED, ResourceLimits
from pokerbots.server.games import holdem
from pokerbots.server.games.base import number_pair
from pokerbots.server.play.options import LIMIT_DEFAULTS, LIMITS, limits_from_options
from pokerbots.server.seats.limits import Limits
from pokerbots.server.tournament.run import TournamentConfig

PLAYING = ("run", "tournament", "serve")


def help_text(*command: str) -> str:
    result = CliRunner().invoke(main, [*command, "--help"], prog_name="pokerbots",
                                terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.output


def params(command: str) -> dict[str, click.Parameter]:
    """The command's options by their flag."""
    ctx = click.Context(main)
    found = main.get_command(ctx, command)
    return {flag: param for param in found.params for flag in param.opts}


# -- the bot limits ----------------------------------------------------------------------------


def test_each_limit_is_declared_once_on_its_field():
    declared = [f for kind in (Limits, ResourceLimits) for f in dataclasses.fields(kind)
                if OFFERED in f.metadata]
    assert len(declared) == len(LIMITS) == 12
    assert [o.name for o in LIMITS] == list(LIMIT_DEFAULTS)
    assert len({o.flag for o in LIMITS}) == len(LIMITS)
    # The options' defaults make the fields' defaults: no second list of defaults anywhere.
    assert limits_from_options() == Limits()
    assert LIMIT_DEFAULTS["stderr_cap"] * 1024 == Limits().stderr_cap
    assert LIMIT_DEFAULTS["max_memory"] == ResourceLimits().memory_mib == 2048


@pytest.mark.parametrize("command", PLAYING)
def test_every_command_that_plays_offers_each_limit_as_declared(command):
    found = params(command)
    for option in LIMITS:
        param = found[option.flag]
        assert param.default == option.default, (command, option.flag)
        assert param.help == option.offered.help, (command, option.flag)
        assert param.name == option.name


def test_the_help_of_run_tournament_and_serve_shows_the_same_defaults():
    texts = {command: " ".join(help_text(command).split()) for command in PLAYING}
    for option in LIMITS:
        if isinstance(option.default, bool):
            continue
        shown = re.compile(rf"{re.escape(option.flag)} [A-Z ]+ .*?\[default: ([^;\]]+)")
        for command, text in texts.items():
            found = shown.search(text)
            assert found is not None, (command, option.flag)
            assert found.group(1) == str(option.default), (command, option.flag)


def test_the_tournament_records_each_limit_by_its_flag_with_its_default():
    flags = TournamentConfig(bots=("a", "b")).limit_flags
    assert flags == {o.flag: o.default for o in LIMITS}
    assert TournamentConfig(bots=("a", "b"), limit_options={"max_cpu": 9}).limit_flags[
        "--max-cpu"] == 9


def test_a_limit_option_becomes_its_field():
    limits = limits_from_options(time_bank=0, stderr_cap=2, max_procs=5, reply_timeout=1.5,
                                 sandbox=True)
    assert limits.time_bank is None  # 0: no bank
    assert limits.stderr_cap == 2048  # KiB
    assert limits.resources.processes == 5 and limits.reply == 1.5 and limits.sandbox
    with pytest.raises(TypeError, match="not bot-limit options: max_pies"):
        limits_from_options(max_pies=3)


# -- the grammar of a time ---------------------------------------------------------------------


@pytest.mark.parametrize("text, seconds", [
    ("90s", 90), ("15m", 900), ("12h", 43_200), ("7d", 604_800), ("2w", 1_209_600),
    ("1h30m", 5400), ("1h 30m", 5400), (" 7 d ", 604_800), ("0.5h", 1800), ("1d12h", 129_600),
    ("0s", 0),
])
def test_a_time_is_numbers_with_units(text, seconds):
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", [
    "", " ", "7", "90", "h", "a week", "-5m", "1.2.3h", "1.h", "1h 30m x", "7D", "1y", "1h30",
])
def test_a_time_without_a_unit_or_with_anything_else_is_refused(text):
    with pytest.raises(ValueError, match=r"give a number and a unit \(s, m, h, d or w\)"):
        parse_duration(text)


def test_prune_and_serve_read_the_same_grammar(tmp_path):
    runner = CliRunner()
    said = []
    for args in (["logs", "prune", str(tmp_path), "--older-than", "7"],
                 ["serve", str(tmp_path), "--no-sandbox", "--every", "7"],
                 ["serve", str(tmp_path), "--no-sandbox", "--upload-interval", "7"]):
        result = runner.invoke(main, args, prog_name="pokerbots")
        assert result.exit_code == 2, result.output
        said.append(result.output.rsplit(": '7': ", 1)[1])
    assert said[0] == said[1] == said[2]
    assert said[0].startswith("give a number and a unit")
    result = runner.invoke(main, ["logs", "prune", str(tmp_path), "--older-than", "1d12h",
                                  "--dry-run"], prog_name="pokerbots")
    assert result.exit_code == 0 and "Would delete 0 match folders" in result.output
    for command in (("logs", "prune"), ("serve",)):
        assert "a number and a unit" in help_text(*command)


# -- pairs -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, pair", [
    ("5/10", (5, 10)), ("5,10", (5, 10)), (" 5 / 10 ", (5, 10)), ("0/1", (0, 1)),
])
def test_a_pair_is_two_whole_numbers_with_a_slash_or_a_comma(text, pair):
    assert number_pair(text) == pair


@pytest.mark.parametrize("text", ["5", "5/10/15", "a/b", "-5/10", "5:10", "", "/", "1.5/2"])
def test_anything_else_is_refused_saying_how_to_write_it(text):
    with pytest.raises(ValueError, match=r"write the blinds as SB/BB, e\.g\. 5/10"):
        number_pair(text, "the blinds", "SB/BB")


def test_blinds_bet_sizes_and_the_end_probability_are_read_by_it():
    assert holdem.BLINDS.parse("5,10") == {"small_blind": 5, "big_blind": 10}
    assert holdem.BET_SIZES.parse("10/20") == {"small_bet": 10, "big_bet": 20}
    assert parse_fraction("1,1000") == parse_fraction("1/1000") == (1, 1000)
    for parse in (holdem.BLINDS.parse, holdem.BET_SIZES.parse):
        with pytest.raises(ValueError, match="two whole numbers"):
            parse("5:10")
    with pytest.raises(click.BadParameter, match="write it as a/b, e.g. 1/1000"):
        parse_fraction("5:10")
    with pytest.raises(click.BadParameter, match="is not a probability"):
        parse_fraction("3/2")

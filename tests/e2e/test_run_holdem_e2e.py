"""`pokerbots run --game holdem-nl|holdem-limit` end to end, with real bot processes.

The bots are the bundled ones (bots/random_bot.py, bots/call_bot.py, on the client library) and
tests/programs/bad_bots/holdem_bot.py, which parses the protocol itself and can be told to
break a rule.
Every bot is a private copy under tmp_path, so the test can check that none outlives its match.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from processes import only_match_dir, pokerbots, processes_mentioning

ROOT = Path(__file__).resolve().parents[2]
HOLDEM_BOT = ROOT / "tests" / "programs" / "bad_bots" / "holdem_bot.py"
GOODBYE = "Thank you dealer, have a nice day!"
HANDS = 12


def read_match(logs: Path) -> tuple[Path, dict, list[dict]]:
    match = only_match_dir(logs)
    summary = json.loads((match / "summary.json").read_text())
    lines = (match / "hands.jsonl").read_text().splitlines()
    return match, summary, [json.loads(line) for line in lines]


def rotate(values: list, seat: int) -> list:
    return values[seat:] + values[:seat]


@pytest.fixture
def bots(tmp_path):
    """Private copies of the bots: (random_bot, call_bot, holdem_bot)."""
    folder = tmp_path / "bots"
    folder.mkdir()
    sources = [ROOT / "bots" / "random_bot.py", ROOT / "bots" / "call_bot.py", HOLDEM_BOT]
    return tuple(Path(shutil.copy(source, folder)) for source in sources)


def no_bot_left(tmp_path) -> bool:
    return processes_mentioning(str(tmp_path / "bots")) == []


def replay(bot: Path, seat_in: Path) -> list[str]:
    """Feed a seat's logged input to a bot, as a bot author would; return its replies."""
    with seat_in.open("rb") as stdin:
        result = subprocess.run([sys.executable, bot], stdin=stdin, capture_output=True,
                                timeout=30, env={**os.environ, "POKERBOTS_GAME": ""})
    assert result.returncode == 0, result.stderr
    return result.stdout.decode().splitlines()


# -- complete rounds ----------------------------------------------------------------------------


# 3 players of each game in the default run; heads-up and 6 players are slow tests (CI runs them)
@pytest.mark.parametrize("players", [pytest.param(2, marks=pytest.mark.slow), 3,
                                     pytest.param(6, marks=pytest.mark.slow)])
@pytest.mark.parametrize("game", ["holdem-nl", "holdem-limit"])
def test_a_holdem_round_with_the_bundled_bots_completes(tmp_path, bots, game, players):
    random_bot, call_bot, holdem_bot = bots
    table = [f"{random_bot} --seed {s}" if s % 2 == 0 else call_bot for s in range(players)]
    logs = tmp_path / "logs"
    result = pokerbots("run", *table, "--game", game, "--hands", HANDS, "--seed", 7,
                       "--logs", logs)
    assert result.returncode == 0, result.stderr
    match, summary, hands = read_match(logs)
    assert str(match) in result.stdout
    assert summary["result"] == "completed" and summary["game"] == game
    assert summary["hands_played"] == HANDS and summary["error"] is None
    assert sum(summary["bankrolls"]) == 0 and summary["bankrolls"] == hands[-1]["bankrolls"]
    assert "stacks" not in summary and "rebuys" not in summary  # reset mode: nothing carries

    assert [h["hand"] for h in hands] == list(range(HANDS))
    first = summary["first_button"]
    assert [h["button"] for h in hands] == [(first + k) % players for k in range(HANDS)]
    for h in hands:
        assert h["stacks_start"] == [2000] * players
        assert sum(h["stacks_end"]) == 2000 * players and sum(h["deltas"]) == 0
        assert len(h["board"]) in (0, 3, 4, 5)
        if any(shown != "-" for shown in h["showdown"]):
            assert len(h["board"]) == 5
        cards = " ".join(h["cards"]).split() + h["board"]
        assert len(set(cards)) == len(cards) == 2 * players + len(h["board"])
    assert any(len(h["board"]) == 5 for h in hands)

    for seat in range(players):
        sent = (match / f"seat{seat}.in").read_text()
        assert sent.startswith("init_round\n") and sent.endswith(f"NumHands: {HANDS}\n")
        assert f"Button: {(first - seat) % players}\nEndProb: 0,1\n" in sent
        mode = "StackMode: reset\n" + ("BetSizes: 10,20\n" if game == "holdem-limit" else "")
        assert f"Game: {game}\nStack: 2000\n{mode}init_hand\nHand: 0\n" in sent
        assert sent.count("\ninit_hand\n") == HANDS
        for h in hands:
            assert f"\nHand: {h['hand']}\nCards: {h['cards'][seat]}\n" in sent
        # Replayed by a bot that parses every line itself, the seat's input is complete and
        # its Stacks lines add up to the bankrolls of the summary.
        replies = replay(holdem_bot, match / f"seat{seat}.in")
        assert replies[-1] == GOODBYE
        money = [r for r in replies if r.startswith("Money: ")]
        assert len(money) == HANDS
        assert money[-1] == "Money: " + ",".join(map(str, rotate(summary["bankrolls"], seat)))
    assert no_bot_left(tmp_path)


def test_carried_stacks_complete_and_the_summary_has_stacks_and_rebuys(tmp_path, bots):
    random_bot, call_bot, holdem_bot = bots
    table = [f"{random_bot} --seed 1", call_bot, f"{random_bot} --seed 2"]
    logs = tmp_path / "logs"
    result = pokerbots("run", *table, "--game", "holdem-nl", "--stacks", "carry", "--stack", 100,
                       "--hands", 30, "--seed", 4, "--logs", logs)
    assert result.returncode == 0, result.stderr
    match, summary, hands = read_match(logs)
    assert summary["result"] == "completed" and summary["hands_played"] == 30
    stacks, rebuys, bankrolls = summary["stacks"], summary["rebuys"], summary["bankrolls"]
    assert sum(rebuys) > 0  # someone went broke and bought back in
    assert sum(bankrolls) == 0 and bankrolls == hands[-1]["bankrolls"]
    # The bankroll is the net result: a rebuy is not charged to it a second time.
    for seat in range(3):
        assert stacks[seat] - 100 - rebuys[seat] == bankrolls[seat]
    # Each stack carries to the next hand (and to the summary), or was topped up to 100.
    starts = [h["stacks_start"] for h in hands[1:]] + [stacks]
    for hand, start in zip(hands, starts):
        for seat in range(3):
            end = hand["stacks_end"][seat]
            assert start[seat] == end or start[seat] == 100 > end
    sent = (match / "seat0.in").read_text()
    assert "Game: holdem-nl\nStack: 100\nStackMode: carry\n" in sent
    assert "\nEndAction: REBUY\n" in sent
    assert no_bot_left(tmp_path)


@pytest.mark.parametrize("game", ["holdem-nl", "holdem-limit"])
def test_every_bot_is_told_the_game_in_POKERBOTS_GAME(tmp_path, bots, game):
    random_bot, call_bot, holdem_bot = bots
    table = [f"{holdem_bot} --show-env", f"{random_bot} --seed 3", f"{holdem_bot} --show-env"]
    logs = tmp_path / "logs"
    # Carried short stacks: holdem_bot must rebuy when broke and keep the score right.
    result = pokerbots("run", *table, "--game", game, "--stacks", "carry", "--stack", 60,
                       "--hands", 20, "--seed", 2, "--logs", logs)
    assert result.returncode == 0, result.stderr
    match, summary, hands = read_match(logs)
    assert summary["result"] == "completed"
    for seat in (0, 2):
        assert (match / f"seat{seat}.stderr").read_text() == f"POKERBOTS_GAME={game}\n"
    assert no_bot_left(tmp_path)


# -- given cards --------------------------------------------------------------------------------

# Three seats, blinds 5/9: with call bots every hand is checked down to a pot of 27.
CARDS = """\
# seat 0    seat 1  seat 2  | board
button: 2
AsAh KsKh 2c7d | Ac Kd 8h 5c 3d   # seat 0: three aces beat three kings
2h3h AdQc AcQd | Ks Js Td 4c 4h   # seats 1 and 2 split with a straight; 27 is odd
2s3s 4d5d 9h9d | 9c Kh 7s Qd Jc   # seat 2: three nines
"""


def test_given_cards_decide_the_deal_the_button_and_the_winners(tmp_path, bots):
    random_bot, call_bot, holdem_bot = bots
    cards = tmp_path / "cards.txt"
    cards.write_text(CARDS)
    logs = tmp_path / "logs"
    result = pokerbots("run", call_bot, call_bot, call_bot, "--game", "holdem-nl",
                       "--blinds", "5/9", "--cards", cards, "--logs", logs)
    assert result.returncode == 0, result.stderr
    match, summary, hands = read_match(logs)
    assert summary["hands_played"] == 3 and summary["first_button"] == 2
    assert [h["button"] for h in hands] == [2, 0, 1]
    assert [h["cards"] for h in hands] == [["As Ah", "Ks Kh", "2c 7d"],
                                           ["2h 3h", "Ad Qc", "Ac Qd"],
                                           ["2s 3s", "4d 5d", "9h 9d"]]
    assert [" ".join(h["board"]) for h in hands] == ["Ac Kd 8h 5c 3d", "Ks Js Td 4c 4h",
                                                     "9c Kh 7s Qd Jc"]
    # The better hand wins the whole pot and alone shows its cards; a split pot gives the odd
    # chip to the first winner left of the button and shows both winners.
    assert [h["pots"] for h in hands] == [[[27, 0]], [[14, 1], [13, 2]], [[27, 2]]]
    assert [h["showdown"] for h in hands] == [["As Ah", "-", "-"], ["-", "Ad Qc", "Ac Qd"],
                                              ["-", "-", "9h 9d"]]
    assert [h["deltas"] for h in hands] == [[18, -9, -9], [-9, 5, 4], [-9, -9, 18]]
    assert summary["bankrolls"] == [0, -13, 13]

    seat1 = (match / "seat1.in").read_text()
    # Seat 1 sees the first button one seat to its left and the blinds from its own seat.
    assert seat1.startswith("init_round\nMoney: 0,0,0\nBlinds: 9,0,5\nButton: 1\n")
    assert "Showdown: -,-,As Ah\nPots: 27,2\nBoard: Ac Kd 8h 5c 3d\nStacks: 1991,1991,2018\n" \
        in seat1
    for seat in range(3):
        sent = (match / f"seat{seat}.in").read_text()
        own = [line for line in sent.splitlines() if line.startswith("Cards: ")]
        assert own == [f"Cards: {h['cards'][seat]}" for h in hands]  # its own cards only
    assert no_bot_left(tmp_path)


# -- bots that break the rules ------------------------------------------------------------------

# Seat 1 breaks the rule in hand `at` or at its first chance after (`hand`: exactly when
# known). `legal` is (part of) the line of legal replies.
FAULTS = {
    "wrong-value": dict(
        game=["--game", "holdem-nl"], seats=3, at=2, kind="play", hand=None,
        reason="BET 9 leaves less than the 10 needed to", reply="BET 9", legal="BET 10 (c"),
    "raise-too-small": dict(
        game=["--game", "holdem-nl"], seats=3, at=2, kind="play", hand=None,
        reason="BET 19 raises less than the minimum, BET 20", reply="BET 19",
        legal="BET 10 (call) or BET 20 to BET 2000 (raise) or FOLD "),
    "raise-too-big": dict(
        game=["--game", "holdem-nl"], seats=3, at=2, kind="play", hand=None,
        reason="BET 2001 is more than the maximum, BET 2000", reply="BET 2001",
        legal="BET 10 (call) or BET 20 to BET 2000 (raise) or FOLD "),
    # Two raising bots in limit: whoever faces the fourth bet gets 'Raise: -'.
    "raise-not-allowed": dict(
        game=["--game", "holdem-limit"], seats=2, at=1, kind="play", hand=None, raises=True,
        reason="BET 41 is a raise, and no raise is allowed here", reply="BET 41",
        legal="BET 40 (call) or FOLD 30."),
    "rebuy": dict(
        game=["--game", "holdem-nl"], seats=2, at=1, kind="end_hand", hand=1,
        reason="REBUY is not allowed in holdem-nl with stacks reset every hand: every hand"
               " starts with 2000 chips", reply="REBUY", legal="OK"),
    # Seat 1 wins the first hand, then asks to rebuy with 2010 chips.
    "rebuy-full": dict(
        fault="rebuy", game=["--game", "holdem-nl", "--stacks", "carry"], seats=2, at=0,
        kind="end_hand", hand=0, cards="button: 0\n2c7d AsAh | Ac Kd 8h 5c 3d\n",
        reason="REBUY is only allowed below the starting stack of 2000, and you have 2010",
        reply="REBUY", legal="OK"),
    # Stacks of one big blind: both are all-in pre-flop and seat 1 loses everything.
    "ok-broke": dict(
        game=["--game", "holdem-nl", "--stacks", "carry", "--stack", "10"], seats=2, at=0,
        kind="end_hand", hand=0, cards="button: 0\nAsAh 2c7d | Ac Kd 8h 5c 3d\n",
        reason="you have no chips: answer REBUY", reply="OK", legal="REBUY"),
}


def run_fault(tmp_path, bots, name):
    """Play FAULTS[name] with holdem_bot copies; return the bad bot's label and the result."""
    case = FAULTS[name]
    holdem_bot = bots[2]
    good = f"{holdem_bot} --raise" if case.get("raises") else str(holdem_bot)
    bad = f"{good} --fault {case.get('fault', name)} --at-hand {case['at']}"
    table = [good, bad] + [good] * (case["seats"] - 2)
    options = [*case["game"], "--seed", 5, "--logs", tmp_path / "logs"]
    if "cards" in case:  # one hand per deal (fewer deals than --hands is a usage error)
        (tmp_path / "cards.txt").write_text(case["cards"])
        options += ["--cards", tmp_path / "cards.txt"]
    else:
        options += ["--hands", 6]
    return bad, pokerbots("run", *table, *options)


@pytest.mark.parametrize("name", list(FAULTS))
def test_a_holdem_bot_that_breaks_a_rule_ends_the_round_with_one_clear_paragraph(
        tmp_path, bots, name):
    case = FAULTS[name]
    bad, result = run_fault(tmp_path, bots, name)
    assert result.returncode == 1, result.stderr
    match, summary, hands = read_match(tmp_path / "logs")
    error = summary["error"]
    assert summary["result"] == "failed"
    assert error["seat"] == 1 and error["bot"] == bad and case["reason"] in error["reason"]
    assert error["received"] == case["reply"]  # the text received, not a Python repr
    hand = error["hand"]
    assert hand == case["hand"] if case["hand"] is not None else hand >= case["at"]

    # The paragraph opens stderr, after the one-line notices a machine without bubblewrap
    # prints first ("pokerbots: bots run without a PID namespace ...").
    err = "".join(line for line in result.stderr.splitlines(keepends=True)
                  if not line.startswith("pokerbots: "))
    assert err.startswith(f"Bot at seat 1 ({bad}) failed in hand {hand}: {case['reason']}")
    assert f"The server sent:\n    {case['kind']}\n    Action: " in err
    assert f"The bot replied: {case['reply']!r}\n" in err
    (legal,) = [line for line in err.splitlines() if line.startswith("Legal replies were: ")]
    assert case["legal"] in legal
    assert f"Logs: {match}\n" in err
    assert f"about to break the rules: {case.get('fault', name)}" in err  # the tail of its stderr
    assert "Traceback" not in err
    # Every hand played before the fault is kept (a fault in end_hand comes after its hand).
    assert len(hands) == (hand + 1 if case["kind"] == "end_hand" else hand)
    if case["kind"] == "play":
        assert summary["hands_played"] == hand
    assert no_bot_left(tmp_path)


# -- command-line errors ------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["holdem-nl", "holdem-limit"])
@pytest.mark.parametrize("players", [1, 11])
def test_holdem_needs_2_to_10_players_before_any_bot_starts(tmp_path, game, players):
    marker = tmp_path / "marker_bot.py"
    marker.write_text(f"open({str(tmp_path / 'STARTED')!r}, 'w').close()\n")
    logs = tmp_path / "logs"
    result = pokerbots("run", *[marker] * players, "--game", game, "--logs", logs)
    assert result.returncode == 2
    assert f"{game} is played by 2 to 10 players, not {players}" in result.stderr
    assert not (tmp_path / "STARTED").exists()
    assert not logs.exists() or not any(logs.iterdir())


# -- found by these tests (each was a bug once) ----------------------------------------------------


@pytest.mark.parametrize("name, legal", [("rebuy", "OK"), ("ok-broke", "REBUY")])
def test_an_end_hand_fault_names_the_one_answer_that_was_legal(tmp_path, bots, name, legal):
    """When REBUY or OK is refused, the legal line names the answer that was legal, not
    'OK or REBUY' (which offered the very answer just refused)."""
    bad, result = run_fault(tmp_path, bots, name)
    assert result.returncode == 1
    assert f"\nLegal replies were: {legal}.\n" in result.stderr
    assert no_bot_left(tmp_path)


def test_hands_played_counts_the_settled_hand_after_an_end_hand_fault(tmp_path, bots):
    """A fault in answer to end_hand of hand 1 comes after hand 1 is settled, credited and
    logged: summary.json counts it in hands_played (it once said 1 while hands.jsonl and the
    bankrolls had two hands, and `pokerbots show` divided by 1)."""
    holdem_bot = bots[2]
    logs = tmp_path / "logs"
    result = pokerbots("run", holdem_bot, f"{holdem_bot} --fault rebuy --at-hand 1",
                       "--game", "holdem-nl", "--hands", 6, "--seed", 5, "--logs", logs)
    assert result.returncode == 1
    match, summary, hands = read_match(logs)
    assert summary["bankrolls"] == hands[-1]["bankrolls"]  # the summary counts hand 1's result
    assert summary["hands_played"] == len(hands) == 2
    assert no_bot_left(tmp_path)


def test_python_dash_m_cli_show_takes_its_logdir_argument(tmp_path, bots):
    """`python -m pokerbots.server.cli.main show LOGDIR` works like `pokerbots show LOGDIR`. Under
    -m the cli module runs twice (as __main__ and as pokerbots.server.cli.main), so show.command()
    is called twice; it once lost LOGDIR and its options on the second call."""
    holdem_bot = bots[2]
    logs = tmp_path / "logs"
    result = pokerbots("run", holdem_bot, holdem_bot, "--game", "holdem-nl", "--hands", 2,
                       "--seed", 1, "--logs", logs)
    assert result.returncode == 0, result.stderr
    shown = pokerbots("show", only_match_dir(logs))
    assert shown.returncode == 0, shown.stderr
    assert "Game: holdem-nl, 2 players" in shown.stdout

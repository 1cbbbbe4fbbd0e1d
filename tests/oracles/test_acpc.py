"""ACPC agents as seats (``pokerbots run 'acpc:COMMAND {game} {host} {port}' ...``).

The agents are tests/support/acpc_client.py (written from the ACPC protocol document; it
checks every
state it receives by the document's rules and exits with code 3 on a broken one) and, when a C
compiler and the ACPC dealer's source are here, the ACPC's own code: the always-call player
built on the dealer's game.c (its readMatchState parses every state we send), and the
reference dealer itself, which checks that the test client plays by the same rules.
PokerKit's ACPC conversion of the exported hands is a second oracle for the states sent.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pokerbots.server.cli.main import main
from pokerbots.server.games import make_game
from pokerbots.server.logs.acpc_format import AcpcGame, Cards, read_action, unsupported
from pokerbots.server.seats.relays import acpc

import acpc_build
import acpc_client
import oracle_data
from processes import only_match_dir, processes_mentioning

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "tests" / "support" / "acpc_client.py"
RANDOM_BOT = str(ROOT / "bots" / "random_bot.py")
CALL_BOT = str(ROOT / "bots" / "call_bot.py")
reference = oracle_data.needs(acpc_build.missing())


@pytest.fixture(scope="module")
def programs(request, tmp_path_factory) -> dict[str, Path]:
    return acpc_build.build_for(request.config, tmp_path_factory)


def agent(*options: str) -> str:
    """The bot argument of the test client, with its options."""
    return f"acpc:{CLIENT} {{game}} {{host}} {{port}} " + " ".join(options)


def run(tmp_path: Path, *seats: str, game: str = "holdem-nl", hands: int = 20, extra=()):
    """``pokerbots run SEATS`` in this process (bots and relays are processes)."""
    logs = tmp_path / "logs"
    result = CliRunner().invoke(main, ["run", *seats, "--game", game, "--hands", str(hands),
                                       "--seed", "4", "--logs", str(logs), *map(str, extra)])
    return result, logs


def summary_of(logs: Path) -> dict:
    return json.loads((only_match_dir(logs) / "summary.json").read_text())


# -- game definitions, cards, actions ------------------------------------------------------------


@oracle_data.needs(None if (acpc_build.ACPC / "kuhn.limit.3p.game").is_file() else
                   f"the ACPC's game files are not here ({acpc_build.ACPC})")
@pytest.mark.parametrize("name, game", [
    ("kuhn.limit.3p.game", ("kuhn", 3, {})),
    ("holdem.nolimit.3p.game", ("holdem-nl", 3, {"small_blind": 50, "big_blind": 100,
                                                 "stack": 20000})),
])
def test_our_game_files_are_the_acpcs_own(name, game):
    """3-player Kuhn and no-limit Hold'em (blinds 50/100, stacks 20000) are written byte for
    byte as the ACPC's upstream game files."""
    game_name, players, options = game
    ours = AcpcGame.of(make_game(game_name, players, **options)).text()
    assert ours == (acpc_build.ACPC / name).read_text()


def test_heads_up_and_limit_game_files():
    text = AcpcGame.of(make_game("holdem-limit", 2)).text()
    assert "blind = 10 5\n" in text  # position 0 is the big blind heads-up (reverse blinds)
    assert "firstPlayer = 2 1 1 1\n" in text  # the button acts first before the flop
    assert "raiseSize = 10 10 20 20\n" in text and "maxRaises = 3 4 4 4\n" in text


@reference
@pytest.mark.parametrize("game, players, options", [
    ("kuhn", 2, {}), ("kuhn", 6, {}), ("holdem-nl", 2, {}), ("holdem-limit", 6, {}),
    ("leduc", 3, {}),
])
def test_the_dealers_readgame_reads_every_game_file(tmp_path, programs, game, players,
                                                     options):
    path = tmp_path / "game"
    path.write_text(AcpcGame.of(make_game(game, players, **options)).text())
    empty = tmp_path / "log"
    empty.write_text("")
    result = subprocess.run([programs["acpc_log_check"], path, empty], capture_output=True,
                            text=True)
    assert result.stdout == "ok 0\n", result.stdout + result.stderr


def test_cards_take_the_acpcs_top_ranks():
    assert [Cards("JQKA").card(c) for c in "JQKA"] == ["Js", "Qs", "Ks", "As"]  # 3-player Kuhn
    assert [Cards("JQK").card(c) for c in "JQK"] == ["Qs", "Ks", "As"]  # 2-player: 3 ranks
    leduc = Cards("JJQQKK")
    assert [leduc.card("J", "hole"), leduc.card("J", "board"), leduc.card("J", "hole")] == [
        "Qh", "Qs", "Qh"]  # each copy of a rank its own suit, the same for the same card
    with pytest.raises(ValueError):
        leduc.card("J", "third")


@pytest.mark.parametrize("text, no_limit, action", [
    ("f", True, ("fold", None)), ("c", False, ("call", None)), ("k", True, ("call", None)),
    ("r", False, ("raise", None)), ("r300", True, ("raise", 300)), ("B450", True,
                                                                    ("raise", 450)),
])
def test_actions_are_read_as_the_dealer_reads_them(text, no_limit, action):
    read = read_action(text, no_limit)
    assert (read.word, read.size) == action


@pytest.mark.parametrize("text, no_limit, says", [
    ("r", True, "needs its size"), ("x", False, "not an ACPC action"), ("", True, "not an"),
    ("c5", False, "nothing may follow"), ("r-5", True, "needs its size"),
])
def test_what_is_no_action(text, no_limit, says):
    with pytest.raises(ValueError, match=says):
        read_action(text, no_limit)


@pytest.mark.parametrize("game, options, says", [
    ("holdem-nl", {"ante": 5}, "ACPC games have no antes"),
    ("holdem-nl", {"stack": (100, 200, 300)}, "every seat needs the same stack"),
    ("holdem-nl", {"carry": True}, "--stacks reset"),
])
def test_tables_the_acpc_format_cannot_hold(game, options, says):
    assert says in unsupported(make_game(game, 3, **options))


def test_leduc_is_refused_to_an_agent():
    """Leduc's messages give no player's chips, so a seat cannot always rebuild the betting."""
    assert unsupported(make_game("leduc", 3)) is None  # the log format holds it
    assert "cannot always be rebuilt" in acpc.unsupported(make_game("leduc", 3))


# -- matches -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", [pytest.param("kuhn", marks=pytest.mark.slow), "holdem-nl",
                                  pytest.param("holdem-limit", marks=pytest.mark.slow)])
def test_an_acpc_agent_plays_a_round(tmp_path, game):
    log = tmp_path / "states.txt"
    result, logs = run(tmp_path, agent("--log", str(log)), RANDOM_BOT, CALL_BOT, game=game)
    assert result.exit_code == 0, result.output
    summary = summary_of(logs)
    assert summary["result"] == "completed" and summary["hands_played"] == 20
    states = log.read_text().splitlines()
    assert states[0].startswith("MATCHSTATE:") and states[0].endswith("||") or "|" in states[0]
    assert {int(s.split(":")[2]) for s in states} == set(range(20))  # every hand, in order
    assert processes_mentioning(str(CLIENT)) == []


@pytest.mark.parametrize("players", [3, 6])
def test_an_agent_that_left_a_hand_early_still_gets_its_final_state(tmp_path, players):
    """After the agent folds or goes all-in and the others bet on, our messages do not tell
    every action; the server's hand feed does, so every hand ends with its final state."""
    log, game_file = tmp_path / "states.txt", tmp_path / "game.txt"
    seats = [agent("--log", str(log), "--save-game", str(game_file), "--seed", "7")]
    seats += [RANDOM_BOT] * (players - 1)
    result, logs = run(tmp_path, *seats, hands=40)
    assert result.exit_code == 0, result.output
    game = acpc_client.read_game(str(game_file))
    last: dict[int, str] = {}
    for line in log.read_text().splitlines():
        last[int(line.split(":")[2])] = line
    assert sorted(last) == list(range(40))
    unfinished = [line for line in last.values() if not acpc_client.parse_state(line, game)[2].over]
    assert unfinished == []
    # Hands the agent left early are there: it folded in some of them (its fold, then more).
    folded = [line for line in last.values()
              if acpc_client.parse_state(line, game)[2].folded[int(line.split(":")[1])]]
    assert folded


@reference
@pytest.mark.slow
def test_the_acpcs_own_parser_reads_every_state(tmp_path, programs):
    """The always-call player built on the dealer's game.c parses every MATCHSTATE with
    readMatchState (it exits on one it cannot read) and answers the right ones."""
    player = f"acpc:{programs['acpc_call_player']} {{game}} {{host}} {{port}}"
    result, logs = run(tmp_path, player, agent("--seed", "2"), RANDOM_BOT, hands=60)
    assert result.exit_code == 0, result.output
    assert summary_of(logs)["hands_played"] == 60


@reference
@pytest.mark.slow
@pytest.mark.parametrize("game_file", ["kuhn.limit.3p.game", "holdem.nolimit.3p.game"])
def test_the_test_client_plays_by_the_reference_dealers_rules(tmp_path, programs, game_file):
    """Three test clients against the ACPC's dealer: it changes no action (it warns when it
    must) and ends the match."""
    game = acpc_build.ACPC / game_file
    dealer = subprocess.Popen([programs["dealer"], "m", game, "150", "3", "a", "b", "c", "-q"],
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    ports = dealer.stdout.readline().split()
    clients = [subprocess.Popen([sys.executable, CLIENT, game, "127.0.0.1", port, "--seed",
                                 str(i)]) for i, port in enumerate(ports)]
    _, errors = dealer.communicate(timeout=60)
    assert [c.wait(timeout=30) for c in clients] == [0, 0, 0]
    assert dealer.returncode == 0 and "WARNING" not in errors and "ERROR" not in errors, errors
    assert (tmp_path / "m.log").read_text().count("\nSTATE:") == 150


def test_the_states_are_pokerkits_acpc_conversion_of_the_same_hands(tmp_path):
    """Heads-up, PokerKit converts each exported hand to the ACPC protocol for the agent's
    position: every state before the last is the same, and the last has the same betting."""
    from pokerkit import HandHistory

    log = tmp_path / "states.txt"
    result, logs = run(tmp_path, agent("--log", str(log)), RANDOM_BOT, hands=30)
    assert result.exit_code == 0, result.output
    match = only_match_dir(logs)
    assert CliRunner().invoke(main, ["export", str(match), "--format", "phh"]).exit_code == 0
    ours: dict[int, list[str]] = {}
    for line in log.read_text().splitlines():
        ours.setdefault(int(line.split(":")[2]), []).append(line)
    for line in (match / "hands.jsonl").read_text().splitlines():
        record = json.loads(line)
        with open(match / "export-phh" / f"hand{record['hand']:06d}.phh", "rb") as f:
            history = HandHistory.load(f)
        player = 0 if record["button"] == 1 else 1  # PHH p1 is the seat left of the button
        theirs = [text.strip() for who, text in history.to_acpc_protocol(player, record["hand"])
                  if who == "S->"]
        mine = ours[record["hand"]]
        assert mine[:-1] == theirs[:-1]
        assert mine[-1].split(":")[3] == theirs[-1].split(":")[3]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["kuhn", "holdem-nl", "holdem-limit"])
def test_acpc_agents_play_1000_hands_without_a_fault(tmp_path, game):
    seats = [agent("--seed", "7"), RANDOM_BOT, CALL_BOT]
    if acpc_build.missing() is None:
        built = acpc_build.build(tmp_path / "build")
        seats[2] = f"acpc:{built['acpc_call_player']} {{game}} {{host}} {{port}}"
    result, logs = run(tmp_path, *seats, game=game, hands=1000)
    assert result.exit_code == 0, result.output
    summary = summary_of(logs)
    assert summary["result"] == "completed" and summary["hands_played"] == 1000


# -- faults of the seat --------------------------------------------------------------------------


def fault_of(result, logs: Path) -> dict:
    assert result.exit_code == 1, result.output
    error = summary_of(logs)["error"]
    assert error["seat"] == 0
    return error


SLOW = pytest.mark.slow  # the default run keeps one fault of each side (relay, server)


@pytest.mark.parametrize("mode, game, reason, says", [
    pytest.param("exit", "holdem-nl", "exited with code 1 instead of replying",
                 "the agent exited with code 4 before connecting", marks=SLOW),
    pytest.param("no-version", "holdem-nl", "exited with code 1",
                 "first line must be VERSION:2.0.0", marks=SLOW),
    ("garbage", "holdem-nl", "exited with code 1", ":x: 'x' is not an ACPC action"),
    pytest.param("no-size", "holdem-nl", "exited with code 1", "a no-limit raise needs its size",
                 marks=SLOW),
    pytest.param("not-a-raise", "holdem-nl", "exited with code 1", "is not above the call",
                 marks=SLOW),
    pytest.param("close", "holdem-nl", "exited with code 1",
                 "the agent closed the connection instead of sending its answer", marks=SLOW),
    ("small-raise", "holdem-nl", "raises less than the minimum", "which is BET"),
    pytest.param("fold-free", "holdem-nl", "folding is not allowed when checking is free",
                 "which is FOLD", marks=SLOW),
    pytest.param("over-raise", "holdem-limit", "is a raise, and no raise is allowed here",
                 "which is BET", marks=SLOW),
])
def test_every_fault_of_an_agent_ends_the_round_on_its_seat(tmp_path, mode, game, reason,
                                                           says):
    # Against an agent that raises whenever it may, so that the limit cap comes at once.
    opponent = agent("--mode", "raise") if mode == "over-raise" else CALL_BOT
    result, logs = run(tmp_path, agent("--mode", mode), opponent, game=game, hands=40)
    error = fault_of(result, logs)
    assert reason in error["reason"]
    stderr = (only_match_dir(logs) / "seat0.stderr").read_text()
    assert says in stderr, stderr
    assert "Last lines of its stderr" in result.stderr
    assert processes_mentioning(str(CLIENT)) == []  # the agent went with its relay


@pytest.mark.slow
@pytest.mark.parametrize("mode, limit, reason", [
    ("hang", "--startup-timeout", "start-up limit"),  # it never connects
    ("slow", "--reply-timeout", "no reply within the 0.5 s time limit"),
])
def test_an_agent_that_takes_too_long_breaks_the_limit(tmp_path, mode, limit, reason):
    result, logs = run(tmp_path, agent("--mode", mode), CALL_BOT, extra=[limit, "0.5"])
    error = fault_of(result, logs)
    assert reason in error["reason"]
    assert "starting the agent:" in (only_match_dir(logs) / "seat0.stderr").read_text()
    assert processes_mentioning(str(CLIENT)) == []


@pytest.mark.parametrize("seat, extra, says", [
    (f"acpc:{CLIENT} {{game}} {{host}}", [], "must pass {port}"),
    (f"acpc:{CLIENT} {{game}} {{hots}} {{port}}", [], "unknown placeholder {hots}"),
    ("acpc:./no-such-agent {game} {host} {port}", [], "does not exist"),
    (f"acpc:{CLIENT} {{game}} {{host}} {{port}}", ["--ante", "5"], "ACPC games have no antes"),
    (f"acpc:{CLIENT} {{game}} {{host}} {{port}}", ["--stack", "100,200"],
     "every seat needs the same stack"),
    (f"acpc:{CLIENT} {{game}} {{host}} {{port}}", ["--game", "leduc"],
     "cannot always be rebuilt"),
])
def test_seats_an_agent_cannot_take_are_usage_errors(tmp_path, seat, extra, says):
    args = ["run", seat, CALL_BOT, "--logs", str(tmp_path), "--hands", "1",
            *(["--game", "holdem-nl"] if "--game" not in extra else []), *extra]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert says in " ".join(result.output.split())
    assert not any(tmp_path.iterdir())

"""Each game declares its own certify cases, in its own module (``GameType.certify``); certify
adds only the cases every game gets (heads-up, each larger table), dealt from the game's own
deck. So a new game gets no other game's situations or cards: one with stacks and no board is
not dealt Hold'em's two-card hands."""

from __future__ import annotations

import dataclasses

import pytest

from pokerbots.server import games
from pokerbots.server.games import holdem, kuhn, leduc
from pokerbots.server.games.base import CertifyCase, Game, Street, Structure
from pokerbots.server.play.certify import all_cases, cases_for
from pokerbots.server.play.options import game_options_from_texts


def every_game_gets(game: str) -> list[str]:
    return ["heads-up", *(f"{n} players" for n in range(3, games.get(game).max_players + 1))]


@pytest.mark.parametrize("game", games.names())
def test_each_game_declares_its_own_cases_after_those_every_game_gets(game):
    declare = games.get(game).certify
    assert declare is not None
    declared = declare()
    assert declared and all(isinstance(case, CertifyCase) for case in declared)
    assert [c.name for c in cases_for(game)] == every_game_gets(game) + [c.name for c in declared]


def test_the_games_modules_hold_their_situations():
    names = {game.name: {c.name for c in game.certify()} for game in games.all_types()}
    assert games.get("kuhn").certify is kuhn.KUHN.certify
    assert names["kuhn"] == {"end of round while waiting"}
    assert names["leduc"] == {"end of round while waiting", "odd chip", "raise cap"}
    assert "two side pots" in names["holdem-nl"] and "raise cap" not in names["holdem-nl"]
    assert names["holdem-limit"] == names["holdem-nl"] | {"raise cap"}
    assert leduc.LEDUC.certify is not None and holdem.LIMIT.certify is not None


@pytest.mark.parametrize("game", games.names())
def test_every_case_is_a_table_of_its_game_with_deals_it_can_play(game):
    for case in cases_for(game):
        table = games.make_game(game, case.players,
                                **game_options_from_texts(game, case.options))
        assert case.deals and all(table.parse_deal(line) for line in case.deals), case.name
        assert len(case.scripts) == case.players and case.scripts[case.seat] is None
        assert all(case.scripts[s] for s in range(case.players) if s != case.seat)


def test_the_cases_are_played_game_by_game_in_the_registry_order():
    played = all_cases()
    assert [c.game for c in played] == sorted((c.game for c in played),
                                              key=list(games.names()).index)
    assert len(played) == sum(len(cases_for(g)) for g in games.names())


def stacked_kuhn() -> games.GameType:
    """A game with stacks and blinds but no board: Kuhn's cards, bet from stacks of 20."""

    def make(players: int) -> Game:
        structure = Structure(streets=(Street("preflop", board=0, bet=1),), cap=1,
                              blinds=(1, 2), stacks=(20,) * players)
        deck = kuhn.deck_for(players)
        return Game(stacked, players, structure, deck=tuple(deck), hole_cards=1,
                    rank=lambda hole, board: deck.index(hole[0]), parse_deal=kuhn.parse_deal)

    stacked = dataclasses.replace(kuhn.KUHN, make=make, certify=None)
    return stacked


def test_a_game_with_stacks_and_no_board_gets_no_holdem_deals(monkeypatch):
    stacked = stacked_kuhn()
    monkeypatch.setitem(games._load(), "kuhn", stacked)
    assert games.make_game("kuhn", 3).structure.stacks == (20, 20, 20)
    cases = cases_for("kuhn")
    assert [c.name for c in cases] == every_game_gets("kuhn")
    for case in cases:
        table = games.make_game("kuhn", case.players)
        for line in case.deals:
            assert "|" not in line and len(line.split()) == case.players  # one card a seat
            assert all(len(hole) == 1 for hole in table.parse_deal(line).holes)
        assert not case.options  # no --stack: that is Hold'em's flag

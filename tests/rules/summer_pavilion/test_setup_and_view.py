"""Game setup, the options, and what the table shows: the view (the text picture of the
emails: ``tests/mail/test_positions.py``)."""

import json
import random

import pytest

from games.rules.summer_pavilion import (
    NAME,
    OPTIONS,
    PLAYERS,
    GameStarted,
    Phase,
    Side,
    start,
    to_move,
    view,
)

from .tables import phase_two, started, tiles


@pytest.mark.parametrize(("players", "factories"), [(2, 5), (3, 7), (4, 9)])
def test_setup_draws_ten_supply_tiles_and_four_on_each_factory(players, factories):
    """Rulebook setup 2, 6, 7: 5/7/9 factory displays; 10 supply tiles; 4 tiles each."""
    (event,) = start(players, {}, random.Random(players))
    assert isinstance(event, GameStarted) and event.side is Side.COLOURED
    assert len(event.supply) == 10
    assert [len(display) for display in event.displays] == [4] * factories
    state = started(players)
    assert state.round == 1 and state.wild == 0 and state.phase is Phase.ACQUIRE
    assert sum(state.bag) == 132 - 10 - 4 * factories
    assert [p.score for p in state.players] == [5] * players
    assert to_move(state) == 0 and state.token_taker is None


def test_the_contract_names_the_game_its_players_and_options():
    assert NAME == "summer-pavilion"
    assert list(PLAYERS) == [2, 3, 4]
    assert OPTIONS == {"board": ("colored", "grey")}


def test_the_view_shows_the_table_and_the_bag_only_as_a_count():
    state = phase_two(beside=tiles(blue=2), placed={(4, 6): 4}, side=Side.GREY)
    shown = view(state)
    json.dumps(shown)
    assert shown["bag"] == sum(state.bag) and shown["side"] == "grey"
    assert shown["wild"] == "purple" and shown["to_move"] == 0
    assert shown["boards"][0]["beside"] == {"blue": 2}
    assert shown["boards"][0]["stars"][4][5] == "blue"

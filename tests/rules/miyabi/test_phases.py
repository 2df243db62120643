"""Passing, the end of a building phase, the level-5 bonus tiles and the end of the game
(rulebook pp.4–5 and the rules reference)."""

import random
from collections import Counter

import pytest

from games.rules.miyabi import (
    PROVISIONAL,
    BonusTileTaken,
    GardenObject,
    IllegalMove,
    MajoritiesScored,
    Pass,
    Passed,
    PhaseBegan,
    PhaseEnded,
    decide,
    evolve,
    is_over,
    legal_commands,
    outcome,
    replay,
    start,
    to_move,
)
from games.rules.miyabi.data import BONUS_POINTS, MAJORITY_POINTS, PHASE_MIX, PHASES, SHAPES
from games.rules.miyabi.engine import majority_points
from tests.rules.miyabi.tables import garden, play, table, tile, with_garden


def test_each_phase_lays_out_six_tiles_per_player_in_the_phase_mix():
    """p.4: the tiles for the player count, taken from the box and laid face up; the
    reference: 6 × players (2 players: 4 singles, 4 straight-2, 2 straight-3, 2 angles)."""
    for players in (2, 3, 4):
        _, began = start(players, {}, random.Random(players))
        shapes = Counter(tile.shape for tile in began.tiles)
        assert len(began.tiles) == 6 * players
        assert tuple(shapes[shape] for shape in SHAPES) == PHASE_MIX[players]
    assert PHASE_MIX[2] == (4, 4, 2, 2)


def test_the_youngest_player_starts_with_the_bonsai():
    """p.4: "La persona más joven recibe el bonsái y comienza la primera fase" (seat 0)."""
    events = start(3, {}, random.Random(1))
    assert events[1].bonsai == 0


def test_turns_pass_to_the_left():
    """p.4: "A continuación, será el turno de la persona situada a tu izquierda"."""
    state, _ = play(table("1M1", "1M1", "1M1", players=3), "1M1 a1")
    assert to_move(state) == 1
    state, _ = play(state, "1M1 b1")
    assert to_move(state) == 2


def test_a_player_who_cannot_place_must_pass():
    """p.4: "Si no pudieses colocar ninguna pieza, entonces tendrás que pasar … (no
    colocarás faroles ni ganarás puntos)"."""
    state = with_garden(
        table("3P3", "3P3"),
        0,
        garden("000000", "000001", "000000", "000000", "000000", "000000", lanterns="LLLLL."),
    )
    assert legal_commands(state) == [Pass()]
    state, events = play(state, "pass")
    assert events[0] == Passed(0, forced=True)
    assert state.points == (0, 0)
    assert state.gardens[0].lanterns == (True, True, True, True, True, False)


def test_a_player_may_pass_by_choice():
    """Reference [public]: a player may also pass by choice."""
    state, events = play(table("1M1", "1M1"), "pass")
    assert events[0] == Passed(0, forced=False)
    assert state.gardens[0].passed


def test_passing_ends_your_phase_while_the_others_play_on():
    """p.4: "Los demás jugadores/as continúan jugando" — the passed player is skipped."""
    state, _ = play(table("1M1", "1M1", "1M1", "1P1"), "pass", "1M1 a1")
    assert to_move(state) == 1
    state, _ = play(state, "1M1 b1")
    assert to_move(state) == 1
    assert state.gardens[0].passed and not any(state.gardens[0].lanterns)


def test_a_player_with_every_lantern_placed_is_out_of_the_phase():
    """p.5: a player's phase is over once all six lantern spaces are occupied."""
    state = with_garden(
        table("1M1", "1M1", "1M1", "1M1"), 1, garden(*["000000"] * 6, lanterns="LLLLL.")
    )
    state, _ = play(state, "1M1 a1", "1M1 f1")
    assert state.gardens[1].lanterns == (True,) * 6
    assert to_move(state) == 0
    state, _ = play(state, "1M1 b1")
    assert to_move(state) == 0


def test_the_phase_ends_when_everyone_has_passed_or_used_all_lanterns():
    """p.5: the phase ends when all lantern spaces are occupied or the players passed;
    unused tiles leave the game, lanterns come off, new tiles come out of the box and the
    bonsai passes to the left, who starts the next phase."""
    full_but_one = garden(*["000000"] * 6, lanterns="LLLLL.")
    state = with_garden(table("1M1", "1M1", "2P2", "3S3"), 1, full_but_one)
    state, events = play(state, "1M1 a1", "1M1 f1", "pass")
    ended = next(event for event in events if isinstance(event, PhaseEnded))
    began = next(event for event in events if isinstance(event, PhaseBegan))
    assert ended.removed == (tile("2P2"), tile("3S3"))
    assert sum(state.removed) == 2
    assert began.phase == 2 and began.bonsai == 1
    assert state.display == began.tiles
    assert to_move(state) == 1
    assert all(not any(g.lanterns) and not g.passed for g in state.gardens)
    assert state.gardens[0].heights[0] == 1


def test_the_bonsai_passes_left_each_phase():
    """p.5: "El bonsái pasa a la persona de la izquierda y esta comienza la siguiente fase"."""
    rng = random.Random(5)
    state = replay(start(3, {}, rng))
    starters = [(state.phase, to_move(state))]
    while not is_over(state):
        events = decide(state, Pass(), rng)
        for event in events:
            state = evolve(state, event)
        if isinstance(events[-1], PhaseBegan):
            starters.append((state.phase, to_move(state)))
    assert starters == [(1, 0), (2, 1), (3, 2), (4, 0), (5, 1)]
    assert len(starters) == PHASES[3]


def test_the_first_object_on_level_five_takes_its_bonus_tile():
    """p.4: "Recibirás la ficha de bonificación de un objeto cuando seas el primero en
    colocar una pieza con este objeto en el quinto nivel"."""
    state = table("1P1", "1P1", "1P1", "1M1")
    state = with_garden(state, 0, garden("000000", "444000", *["000000"] * 4))
    state = with_garden(state, 1, garden("000000", "444000", *["000000"] * 4))
    state, events = play(state, "1P1 a2")
    assert events[-1] == BonusTileTaken(0, GardenObject.PAGODA, BONUS_POINTS[GardenObject.PAGODA])
    assert state.points[0] == 5 + BONUS_POINTS[GardenObject.PAGODA]
    assert state.bonus_takers[GardenObject.PAGODA] == 0


def test_only_the_first_player_per_object_takes_the_bonus():
    """p.4: the bonus tile is turned over and leaves the game once taken."""
    state = table("1P1", "1P1", "1P1", "1M1")
    state = with_garden(state, 0, garden("040000", "444000", *["000000"] * 4))
    state = with_garden(state, 1, garden("000000", "444000", *["000000"] * 4))
    state, _ = play(state, "1P1 a2")
    state, events = play(state, "1P1 b2")
    assert not any(isinstance(event, BonusTileTaken) for event in events)
    assert state.points[1] == 5
    state, events = play(state, "1M1 b1")
    assert events[-1].object == GardenObject.MAPLE


def test_a_tile_above_level_five_takes_no_bonus():
    """The rulebook says "en el quinto nivel": the fifth level exactly."""
    state = table("1P1", "1M1")
    state = with_garden(state, 0, garden("000000", "555000", *["000000"] * 4))
    _, events = play(state, "1P1 a2")
    assert events[-1].level == 6
    assert not any(isinstance(event, BonusTileTaken) for event in events)


def test_majorities_count_visible_objects_with_provisional_values():
    """Reference [public]: most visible objects in a row score the higher printed value,
    the second most the lower. The values and ties are provisional (PROVISIONAL)."""
    first, second = MAJORITY_POINTS[GardenObject.MAPLE]
    assert majority_points((5, 3, 1), GardenObject.MAPLE) == (first, second, 0)
    assert majority_points((0, 0), GardenObject.MAPLE) == (0, 0)
    assert majority_points((2, 0), GardenObject.MAPLE) == (first, 0)


def test_tied_players_share_the_rank_under_the_provisional_ruling():
    """Provisional: 'competition' ranking, two tied for most both score the higher value
    and nobody the lower."""
    assert PROVISIONAL["majority_ties"].value == "competition"
    first, second = MAJORITY_POINTS[GardenObject.STONE]
    assert majority_points((4, 4, 2), GardenObject.STONE) == (first, first, 0)
    assert majority_points((4, 2, 2), GardenObject.STONE) == (first, second, second)


def test_the_game_ends_after_the_last_phase_with_majorities_and_a_winner():
    """Reference: 6 phases with 2 players; majorities per object row, most points wins."""
    state = table("1M1", "1M1", "1P1", players=2, phase=PHASES[2])
    state, events = play(state, "1M1 a1", "1M1 a1", "1P1 b2", "pass", "pass")
    scored = events[-1]
    assert isinstance(scored, MajoritiesScored)
    assert scored.counts[GardenObject.MAPLE] == (1, 1)
    assert scored.counts[GardenObject.PAGODA] == (1, 0)
    assert is_over(state) and to_move(state) is None
    assert legal_commands(state) == []
    maple, pagoda = MAJORITY_POINTS[GardenObject.MAPLE], MAJORITY_POINTS[GardenObject.PAGODA]
    assert state.points == (1 + 1 + maple[0] + pagoda[0], 1 + maple[0])
    assert outcome(state).winners == (0,)
    with pytest.raises(IllegalMove) as refused:
        decide(state, Pass(), None)
    assert refused.value.code == "game_over"


def test_equal_scores_share_the_victory():
    """Provisional: no final tie-break, so equal scores share the victory."""
    assert PROVISIONAL["final_tie_breaks"].value == ()
    state = table("1M1", "1M1", players=2, phase=PHASES[2])
    state, _ = play(state, "1M1 a1", "1M1 a1", "pass", "pass")
    assert outcome(state).winners == (0, 1)

"""The bots play every game to its end with legal commands, repeat themselves for a seed,
and decide only from what their seat may see. No database: bots are pure."""

import random
from dataclasses import replace

import pytest

from games.bots import LEVELS, choose, knowledge_for, search
from games.bots.search import Edge, Node, _settled
from games.bots.summer_pavilion import PARTIAL_BONUS, SUPPLY_TILE, _supply_promise
from games.registry import GAME_TYPES
from games.rules import azul, miyabi, summer_pavilion
from games.rules.summer_pavilion.board import BOARD_SPACES, index

GAMES = sorted(GAME_TYPES)
FEW_SIMULATIONS = 3
"""Hard searches this many simulations per move in tests: the search runs, quickly."""


def position(engine, players: int, moves: int, seed: int = 7, options=None):
    """A game ``moves`` commands in, every seat playing the engine's default command."""
    rng = random.Random(seed)
    state = engine.replay(engine.start(players, options or {}, rng))
    for _ in range(moves):
        if engine.is_over(state):
            break
        for event in engine.decide(state, engine.default_command(state), rng):
            state = engine.evolve(state, event)
    return state


def bot_game(engine, levels, seed: int, options=None) -> list:
    """A whole game between bots of ``levels`` (one per seat); the commands played. Every
    command is checked against the engine's legal commands."""
    rng = random.Random(seed)
    state = engine.replay(engine.start(len(levels), options or {}, rng))
    played = []
    while not engine.is_over(state):
        seat = engine.to_move(state)
        command = choose(
            engine, state, seat, levels[seat], seed + len(played), simulations=FEW_SIMULATIONS
        )
        assert command in engine.legal_commands(state)
        played.append(command)
        for event in engine.decide(state, command, rng):
            state = engine.evolve(state, event)
    assert engine.outcome(state).winners
    return played


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", GAMES)
def test_every_level_plays_legal_commands_to_the_end(game, players, level):
    bot_game(knowledge_for(game).engine, (level,) * players, seed=players)


@pytest.mark.parametrize(
    ("engine", "options"),
    [(azul, {"wall": "grey"}), (summer_pavilion, {"board": "grey"})],
)
def test_bots_play_the_other_board_side_to_the_end(engine, options):
    bot_game(engine, ("hard", "medium"), seed=3, options=options)


def test_a_bot_game_replays_identically_for_its_seeds():
    levels = ("hard", "easy")
    assert bot_game(azul, levels, seed=11) == bot_game(azul, levels, seed=11)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game", GAMES)
def test_a_level_chooses_the_same_command_for_the_same_seed(game, level):
    engine = knowledge_for(game).engine
    state = position(engine, 2, moves=9)
    seat = engine.to_move(state)
    first = choose(game, state, seat, level, seed=5, simulations=20)
    random.seed(99)  # the bots have their own RNG: the shared one must not matter
    assert choose(game, state, seat, level, seed=5, simulations=20) == first


def test_hard_within_a_cpu_budget_stops_after_the_budget():
    state = position(azul, 2, moves=1)
    found = search(azul, state, azul.to_move(state), "hard", seed=1, budget_seconds=0.05)
    assert found.simulations >= 1
    assert found.command in azul.legal_commands(state)
    assert sum(visits for _, visits, _ in found.values) > 0


def test_a_timed_search_stops_once_the_simulations_left_cannot_change_its_choice():
    first, second = azul.legal_commands(position(azul, 2, moves=1))[:2]
    root = Node([Edge(first, 50, [25.0, 25.0]), Edge(second, 10, [5.0, 5.0])])
    assert _settled(root, remaining=39)
    assert not _settled(root, remaining=40)


def test_the_bag_order_and_the_game_rng_never_reach_a_bot():
    """Azul and Miyabi hold the bag (box) as counts the table deduces; the order of the next
    draw lives in the game's RNG, which ``choose`` is never given. Whatever that RNG will
    draw, the bot's command is the same: the worlds it searches are its own."""
    for engine in (azul, miyabi):
        state = position(engine, 2, moves=5)
        seat = engine.to_move(state)
        assert knowledge_for(engine).determinize(state, seat, random.Random(1)) is state
        moves = set()
        for game_seed in range(3):
            game_rng = random.Random(game_seed)
            moves.add(choose(engine, state, seat, "hard", seed=4, simulations=15))
            engine.decide(state, engine.default_command(state), game_rng)
        assert len(moves) == 1


def tower_variant(state):
    """The same table with the unseen tiles split differently between bag and tower: the
    sizes (all a seat sees of them) are kept."""
    bag, tower = list(state.bag), list(state.tower)
    give = next(c for c in range(len(bag)) if bag[c])
    take = next(c for c in range(len(tower)) if tower[c] and c != give)
    bag[give] -= 1
    tower[give] += 1
    tower[take] -= 1
    bag[take] += 1
    return replace(state, bag=tuple(bag), tower=tuple(tower))


@pytest.mark.parametrize("level", LEVELS)
def test_summer_pavilion_bots_cannot_tell_which_unseen_tiles_are_in_the_tower(level):
    """Summer Pavilion shows the bag and the tower as counts only: two tables that differ
    only in which unseen colours lie in the bag and which in the tower get the same
    command from every level."""
    state = position(summer_pavilion, 2, moves=40)
    assert sum(state.tower) and state.phase is not summer_pavilion.model.Phase.GAME_OVER
    variant = tower_variant(state)
    assert variant.bag != state.bag
    seat = summer_pavilion.to_move(state)
    assert choose(summer_pavilion, variant, seat, level, seed=8, simulations=30) == choose(
        summer_pavilion, state, seat, level, seed=8, simulations=30
    )


def test_summer_pavilion_worlds_depend_only_on_what_the_seat_sees():
    state = position(summer_pavilion, 2, moves=40)
    determinize = knowledge_for(summer_pavilion).determinize
    world = determinize(state, 0, random.Random(3))
    assert world == determinize(tower_variant(state), 0, random.Random(3))
    assert sum(world.bag) == sum(state.bag)
    assert sum(world.tower) == sum(state.tower)


def test_a_bot_refuses_a_seat_not_to_move_and_an_unknown_level():
    state = position(azul, 2, moves=0)
    seat = azul.to_move(state)
    with pytest.raises(ValueError, match="seat 2 is not to move"):
        choose(azul, state, 1 - seat, "easy", seed=1)
    with pytest.raises(ValueError, match="easy, medium, hard"):
        choose(azul, state, seat, "grandmaster", seed=1)


def test_on_the_grey_side_an_unfinished_window_promises_some_of_its_supply_tiles():
    """Rulebook "Scoring": surrounding a window earns 3 supply tiles. Half surrounded, it
    promises a share of them; once surrounded its tiles lie beside the board instead."""
    empty = (None,) * BOARD_SPACES
    half = tuple(0 if space == index(3, 5) else None for space in range(BOARD_SPACES))
    window = (index(3, 5), index(3, 6))
    whole = tuple(0 if space in window else None for space in range(BOARD_SPACES))
    assert _supply_promise(empty) == 0
    assert _supply_promise(half) == pytest.approx(PARTIAL_BONUS * 0.5**2 * 3 * SUPPLY_TILE)
    assert _supply_promise(whole) == 0

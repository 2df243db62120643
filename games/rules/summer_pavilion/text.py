"""A plain-text picture of the table, for turn emails."""

from games.rules.summer_pavilion.board import (
    COLOUR_LETTERS,
    COLOURS,
    COSTS,
    ROUNDS,
    SPACES_PER_STAR,
    STAR_COLOUR,
    STAR_LETTERS,
    STARS,
    Side,
)
from games.rules.summer_pavilion.model import Counts, Phase, Player, State


def render_text(state: State) -> str:
    """The round, wild colour, sources, supply and every player's board as plain text."""
    lines = [
        f"Azul: Summer Pavilion ({state.side.value} side) - round {state.round} of {ROUNDS}, "
        f"wild colour {COLOURS[state.wild]}, phase: {state.phase.value}",
        _to_move_line(state),
        "Factories: "
        + " | ".join(
            f"{number}: {_tile_list(tiles)}" for number, tiles in enumerate(state.factories, 1)
        ),
        f"Centre: {_tile_list(state.centre)}"
        + ("; start player token" if state.token_taker is None else ""),
        f"Supply: {_cells(state.supply)}",
        f"Bag: {sum(state.bag)} tiles; tower: {sum(state.tower)} tiles",
        f"Costs: {_costs(state.side)}",
    ]
    for seat, player in enumerate(state.players):
        lines.append("")
        lines.extend(_player_lines(state, seat, player))
    return "\n".join(lines)


def _to_move_line(state: State) -> str:
    if state.phase is Phase.GAME_OVER:
        return "The game is over."
    if state.bonus_due:
        chooser = state.current + 1
        return f"Player {chooser} chooses {state.bonus_due} bonus tile(s) from the supply."
    if state.phase is Phase.ROUND_OVER:
        return "The next round is being prepared."
    return f"Player {state.current + 1} to move."


def _costs(side: Side) -> str:
    if side is Side.COLOURED:
        return "each space costs its number"
    outer = " ".join(map(str, COSTS[side][SPACES_PER_STAR : 2 * SPACES_PER_STAR]))
    return f"centre star 3 each; outer stars, spaces 1-6: {outer}"


def _tile_list(tiles: Counts) -> str:
    """'2 blue, 1 red', or '-' for none."""
    listed = [f"{count} {COLOURS[c]}" for c, count in enumerate(tiles) if count]
    return ", ".join(listed) or "-"


def _cells(spaces: tuple[int | None, ...]) -> str:
    """Tile letters in capitals, '.' for an empty space."""
    return " ".join("." if t is None else COLOUR_LETTERS[t].upper() for t in spaces)


def _player_lines(state: State, seat: int, player: Player) -> list[str]:
    status = []
    if state.token_taker == seat:
        status.append("start player token")
    if player.passed:
        status.append("passed")
    lines = [
        f"Player {seat + 1}: {player.score} points" + (f" ({', '.join(status)})" if status else ""),
        f"  beside the board: {_tile_list(player.beside)}; corners: {_tile_list(player.corners)}",
        "  star       1 2 3 4 5 6",
    ]
    for star in range(STARS):
        spaces = player.board[star * SPACES_PER_STAR : (star + 1) * SPACES_PER_STAR]
        lines.append(f"  {STAR_LETTERS[star]} {_star_name(state.side, star):8} {_cells(spaces)}")
    return lines


def _star_name(side: Side, star: int) -> str:
    if star == 0:
        return "centre"
    if side is Side.COLOURED:
        return COLOURS[STAR_COLOUR[star]]
    return f"star {star}"

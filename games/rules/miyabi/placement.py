"""Where a tile may lie in a garden (rulebook p.4): the squares it covers in every
orientation and the placement rules. Pure functions of a garden and a tile."""

from collections.abc import Iterator
from functools import lru_cache

from games.rules.miyabi.data import PROVISIONAL, SHAPE_SQUARES
from games.rules.miyabi.model import GRID, Garden, PlaceTile, Shape, Tile

ORIENTATIONS = range(8)
"""Ruling (the rulebook does not say whether tiles may be turned or flipped): every
rotation and reflection is allowed. 0–3 turn a quarter clockwise each; 4–7 flip the tile
left to right first."""

Square = tuple[int, int]


# Geometry: where a tile's squares go.


def _turned(square: Square, orientation: int) -> Square:
    row, column = square
    if orientation >= 4:
        column = -column
    for _ in range(orientation % 4):
        row, column = column, -row
    return row, column


def offsets(shape: Shape, orientation: int) -> tuple[Square, ...]:
    """The tile's squares relative to its object square, after turning it."""
    squares = SHAPE_SQUARES[shape]
    anchor_row, anchor_column = squares[PROVISIONAL["object_square"].value[shape]]
    return tuple(
        sorted(
            _turned((row - anchor_row, column - anchor_column), orientation)
            for row, column in squares
        )
    )


CANONICAL: dict[Shape, tuple[int, ...]] = {
    shape: tuple(
        min(o for o in ORIENTATIONS if offsets(shape, o) == offsets(shape, orientation))
        for orientation in ORIENTATIONS
    )
    for shape in Shape
}
"""For each shape and orientation, the lowest orientation that lays the same squares with
the object on the same square: each distinct placement has one name."""

DISTINCT_ORIENTATIONS: dict[Shape, tuple[int, ...]] = {
    shape: tuple(sorted(set(canonical))) for shape, canonical in CANONICAL.items()
}


def _footprint(shape: Shape, orientation: int, cell: int) -> tuple[int, ...] | None:
    row, column = divmod(cell, GRID)
    squares = [(row + dr, column + dc) for dr, dc in offsets(shape, orientation)]
    if all(0 <= r < GRID and 0 <= c < GRID for r, c in squares):
        return tuple(r * GRID + c for r, c in squares)
    return None


FOOTPRINTS: dict[tuple[Shape, int], tuple[tuple[int, ...] | None, ...]] = {
    (shape, orientation): tuple(_footprint(shape, orientation, cell) for cell in range(GRID * GRID))
    for shape in Shape
    for orientation in ORIENTATIONS
}
"""The squares (``row * 6 + column``) a tile covers with its object square on a cell, or
``None`` where it would stick out of the grid."""


def footprint(shape: Shape, orientation: int, row: int, column: int) -> tuple[int, ...] | None:
    """The squares a tile covers, or ``None`` if it sticks out of the 6×6 grid (p.4:
    "no podrán sobresalir")."""
    return FOOTPRINTS[(shape, orientation)][row * GRID + column]


# The placement rules.


def placement_problem(garden: Garden, command: PlaceTile) -> tuple[str, dict] | None:
    """Why the tile may not lie there — the code of the ``IllegalMove`` and its facts — or
    ``None``. Rulebook p.4: objects in their own row,
    in a column whose lantern space is empty, wholly inside the grid, and on top of other
    tiles only overlapping them completely — all its squares on one level."""
    tile, row, column, orientation = command.tile, command.row, command.column, command.orientation
    if not (0 <= row < GRID and 0 <= column < GRID):
        return "no_such_square", {"row": row, "column": column, "rows": GRID}
    if orientation not in ORIENTATIONS:
        return "no_such_orientation", {"orientation": orientation, "last": len(ORIENTATIONS) - 1}
    canonical = CANONICAL[tile.shape][orientation]
    if canonical != orientation:
        return "orientation_not_canonical", {"orientation": orientation, "canonical": canonical}
    if row != tile.object.row:
        return "object_wrong_row", {
            "object": int(tile.object),
            "row": row,
            "own_row": tile.object.row,
        }
    if garden.lanterns[column]:
        return "column_has_lantern", {"column": column}
    cells = footprint(tile.shape, orientation, row, column)
    if cells is None:
        return "tile_off_grid", {"rows": GRID}
    levels = sorted({garden.heights[cell] for cell in cells})
    if len(levels) > 1:
        return "uneven_levels", {"levels": tuple(levels)}
    return None


def placements(garden: Garden, display: tuple[Tile, ...]) -> Iterator[PlaceTile]:
    """Every distinct legal placement of a displayed tile in this garden (the same rules
    as ``placement_problem``, walked without building reasons)."""
    height = garden.heights.__getitem__
    free = [column for column, lit in enumerate(garden.lanterns) if not lit]
    for tile in _distinct(display):
        row = tile.object.row
        for column in free:
            cell = row * GRID + column
            for orientation in DISTINCT_ORIENTATIONS[tile.shape]:
                cells = FOOTPRINTS[(tile.shape, orientation)][cell]
                if cells is not None and len(set(map(height, cells))) == 1:
                    yield PlaceTile(tile, row, column, orientation)


@lru_cache(maxsize=1024)
def _distinct(display: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """The different tiles on display, in order (displays recur from listing to listing)."""
    return tuple(sorted(set(display)))


def level_of(garden: Garden, command: PlaceTile) -> int:
    """The level a placed tile lies on: one above the squares it covers (all on one level)."""
    cells = footprint(command.tile.shape, command.orientation, command.row, command.column)
    return garden.heights[cells[0]] + 1

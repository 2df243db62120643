"""The moves of a position: every legal command (``legal_commands``) and the one a timeout
or a bot plays (``default_command``). Rules reference ``rules/azul.md``."""

from functools import lru_cache
from typing import assert_never

from games.rules.azul.board import (
    COLOURS,
    FACTORIES,
    PATTERN_LINES,
    Colour,
    grey_wall_columns,
    score_wall_placement,
)
from games.rules.azul.engine import complete_line, not_now
from games.rules.azul.model import (
    CENTRE,
    FLOOR,
    Command,
    Counts,
    Phase,
    PlaceOnWall,
    PlayerBoard,
    State,
    TakeTiles,
)

ALL_LINES = (1 << PATTERN_LINES) - 1
_TAKES = {
    (source, colour, line): TakeTiles(source, colour, line)
    for source in (CENTRE, *range(max(FACTORIES.values())))
    for colour in Colour
    for line in (*range(PATTERN_LINES), FLOOR)
}
"""Every ``TakeTiles`` command, built once: commands are values, shared safely."""


def legal_commands(state: State) -> list[Command]:
    """Every command the player to move may give, each once: factory displays in order,
    then the centre; colours in wall order; pattern lines top to bottom, then the floor."""
    match state.phase:
        case Phase.OFFER:
            accepting = _lines_accepting(state.boards[state.turn])
            commands: list[Command] = []
            for source, offer in _offers(state):
                for colour in _colours_in(offer):
                    lines = accepting >> colour * PATTERN_LINES & ALL_LINES
                    commands.extend(_takes(source, colour, lines))
            return commands
        case Phase.TILING:
            board = state.boards[state.turn]
            row = complete_line(board)
            assert row is not None, "decide stops in the tiling phase only for a choice"
            columns = grey_wall_columns(board.wall, row, board.lines[row].colour)
            return [PlaceOnWall(column) for column in columns]
        case Phase.REFILL | Phase.OVER:
            return []
        case _:
            assert_never(state.phase)


def default_command(state: State) -> Command:
    """The command that wastes least, for timeouts and bots. Taking tiles: fewest tiles
    (and the first player marker) on the floor line or in the lid, then most tiles on the
    pattern line, then the first factory display (the centre last), colour and line in
    ``legal_commands`` order. Choosing a grey wall column: the most points, then the
    leftmost column."""
    commands = legal_commands(state)
    if not commands:
        raise not_now(state, "command")
    if state.phase is Phase.TILING:
        board = state.boards[state.turn]
        row = complete_line(board)
        return max(
            commands,
            key=lambda command: (
                score_wall_placement(board.wall, row, command.column),
                -command.column,
            ),
        )

    lines = state.boards[state.turn].lines
    marker = state.marker_in_centre

    def waste(command: TakeTiles) -> tuple[int, int]:
        # ``take_tiles``'s arithmetic without building its event: bots' playouts ask for
        # the default command of every position they pass through.
        source, line = command.source, command.line
        count = (state.centre if source == CENTRE else state.factories[source])[command.colour]
        placed = 0 if line == FLOOR else min(count, line + 1 - lines[line].count)
        return (count - placed + (source == CENTRE and marker), -placed)

    return min(commands, key=waste)


def _offers(state: State) -> list[tuple[int, Counts]]:
    return [*enumerate(state.factories), (CENTRE, state.centre)]


def _lines_accepting(board: PlayerBoard) -> int:
    """Phase A: the pattern lines that may take each colour (an empty line whose wall row
    lacks the colour, or a line of that colour not yet complete), as the bits
    ``colour * PATTERN_LINES + line`` of one number: cheap to work out and to cache by."""
    accepting = 0
    for line, held in enumerate(board.lines):
        if not held.count:
            accepting |= _colours_missing(board.wall[line]) << line
        elif held.count <= line:
            accepting |= 1 << (held.colour * PATTERN_LINES + line)
    return accepting


@lru_cache(maxsize=1024)
def _colours_missing(wall_row: tuple[int | None, ...]) -> int:
    """The colours a wall row lacks, as the bits ``colour * PATTERN_LINES``."""
    missing = (colour for colour in range(COLOURS) if colour not in wall_row)
    return sum(1 << colour * PATTERN_LINES for colour in missing)


@lru_cache(maxsize=4096)
def _colours_in(offer: Counts) -> tuple[int, ...]:
    return tuple(colour for colour in range(COLOURS) if offer[colour])


@lru_cache(maxsize=2048)
def _takes(source: int, colour: int, lines: int) -> tuple[TakeTiles, ...]:
    """The takes of one colour from one source onto each pattern line in ``lines`` (bits),
    top to bottom, then onto the floor line."""
    onto = [line for line in range(PATTERN_LINES) if lines >> line & 1]
    return tuple(_TAKES[source, colour, line] for line in (*onto, FLOOR))

"""Azul drawn from ``view(state)``: the factory displays, the centre, and each player's
board — the pattern lines, the 5×5 wall (coloured or grey side) and the floor line with
the points each of its spaces loses (rulebook, "The player board")."""

from django.utils.translation import pgettext_lazy

from games.boards import words
from games.boards.svg import (
    Palette,
    centre,
    document,
    element,
    factories,
    factories_height,
    group,
    hit_area,
    kept,
    slot,
    start_token,
    text,
)
from games.boards.words import gettext, ngettext
from games.rules.azul.board import (
    COLOUR_BONUS,
    COLUMN_BONUS,
    FLOOR_PENALTIES,
    GREY,
    PATTERN_LINES,
    ROW_BONUS,
    WALL_SIZE,
    Colour,
    wall_colour,
)
from games.rules.azul.model import (
    CENTRE,
    FLOOR,
    FloorLineCleared,
    GameEnded,
    TilesTaken,
    WallTiled,
)

# The game's name on the pages: the published editions have their own in each language.
TITLE = pgettext_lazy("game title", "Azul")

NAMES = tuple(colour.name.lower() for colour in Colour)
PALETTE = Palette(
    {
        "blue": ("#1f5fae", "B", "#fff"),
        "yellow": ("#f0c419", "Y", "#3b3000"),
        "red": ("#c62f2f", "R", "#fff"),
        "black": ("#24242a", "K", "#fff"),
        "white": ("#dcebf5", "W", "#1f5fae"),
    }
)
FADED = {
    "blue": "#c4d6ee",
    "yellow": "#f8ebb9",
    "red": "#efc3c3",
    "black": "#c6c6ca",
    "white": "#eef5fa",
}
CELL = 40.0
ROW = 60.0
"""The height of a pattern line and a wall row: on a 390 px phone the board is drawn about
354 px wide, and a pattern line, one target, is then 45 px tall (at least 44 px to tap)."""
SPACE, SPACE_EDGE = "#e9e2d0", "#b9ac8c"
LINES_RIGHT = 236.0
WALL_LEFT = 256.0
WIDTH = WALL_LEFT + CELL * WALL_SIZE + 14
FLOOR_TOP = 20 + ROW * PATTERN_LINES + 26


def _tiles(counts: list[int]) -> list[str]:
    return [NAMES[colour] for colour, count in enumerate(counts) for _ in range(count)]


def table_svg(view: dict, *, picks: bool) -> str:
    """The factory displays and the centre of the table."""
    width = 600.0
    displays = [_tiles(counts) for counts in view["factories"]]
    top = factories_height(len(displays))
    counts = dict(zip(NAMES, view["centre"], strict=True))
    parts = [
        factories(0, width, displays, PALETTE, picks=picks),
        centre(top, width, counts, PALETTE, token=view["marker_in_centre"], picks=picks),
    ]
    label = gettext("Factory displays and centre, round %(round)s") % {"round": view["round"]}
    return document(width, top + 104, *parts, label=label, class_="board table-board")


def player_svg(view: dict, seat: int, *, picks: bool) -> str:
    """One board: pattern lines on the left, the wall on the right, the floor line below."""
    board = view["boards"][seat]
    grey = view["wall_side"] == GREY
    parts = [
        element(
            "rect",
            x=3,
            y=3,
            width=WIDTH - 6,
            height=FLOOR_TOP + 78,
            rx=18,
            fill="#2f4f7a",
            stroke="#1b2f4b",
            stroke_width=3,
        )
    ]
    for line, held in enumerate(board["lines"]):
        parts.append(_pattern_line(line, held["colour"], held["count"], picks))
    tiling = _tiling_row(board) if picks else None
    for row in range(WALL_SIZE):
        for column in range(WALL_SIZE):
            placed = board["wall"][row][column]
            pick = f"wall:{column}" if row == tiling else None
            parts.append(_wall_space(row, column, placed, grey, pick))
    parts.append(_floor(board["marker"], tuple(board["floor"]), picks))
    label = gettext("Board of player %(number)s: %(points)s") % {
        "number": seat + 1,
        "points": words.points(view["scores"][seat]),
    }
    return document(WIDTH, FLOOR_TOP + 84, *parts, label=label, class_="board player-board")


def _tiling_row(board: dict) -> int | None:
    """Grey wall: the complete pattern line whose tile is placed next (top line first)."""
    for line, held in enumerate(board["lines"]):
        if held["colour"] is not None and held["count"] == line + 1:
            return line
    return None


@kept
def _pattern_line(line: int, colour, count: int, picks: bool) -> str:
    y = 20 + ROW * line + ROW / 2
    parts = [
        hit_area(8, y - ROW / 2, LINES_RIGHT - 8, ROW),
        text(14, y + 5, str(line + 1), font_size=14, fill="#cfe0f5", font_weight="700"),
    ]
    for place in range(line + 1):
        x = LINES_RIGHT - CELL * place - CELL / 2
        parts.append(slot(x, y, 34, SPACE, SPACE_EDGE))
        if colour is not None and place < count:
            parts.append(PALETTE.tile(NAMES[colour], x, y, 32))
    return group(
        element("title", gettext("pattern line %(number)s") % {"number": line + 1}),
        *parts,
        class_="pattern-line",
        data_pick=f"line:{line}" if picks else None,
        data_spot=f"line:{line}",
    )


@kept
def _wall_space(row, column, placed, grey, pick) -> str:
    x = WALL_LEFT + CELL * column + CELL / 2
    y = 20 + ROW * row + ROW / 2
    if placed is not None:
        return group(PALETTE.tile(NAMES[placed], x, y, 34), class_="wall-space", data_pick=pick)
    if grey:
        fill, mark = "#bdbdbd", ""
    else:
        name = NAMES[wall_colour(row, column)]
        fill, mark = FADED[name], PALETTE.letter(name).lower()
    return group(
        slot(x, y, 34, fill, "#8d8d8d"),
        text(x, y + 5, mark, font_size=14, text_anchor="middle", fill="#6d6d6d"),
        class_="wall-space",
        data_pick=pick,
    )


@kept
def _floor(marker: bool, floor: tuple, picks: bool) -> str:
    top = FLOOR_TOP
    parts = [
        text(14, top - 6, gettext("Floor line"), font_size=13, fill="#cfe0f5", font_weight="700")
    ]
    held = (["marker"] if marker else []) + [NAMES[c] for c in floor]
    for place, penalty in enumerate(FLOOR_PENALTIES):
        x = 14 + 22 + place * 46
        parts.append(
            text(x, top + 12, str(penalty), font_size=12, fill="#ffd1d1", text_anchor="middle")
        )
        parts.append(slot(x, top + 37, 38, SPACE, SPACE_EDGE))
        if place < len(held):
            name = held[place]
            if name == "marker":
                parts.append(start_token(x, top + 37, 32))
            else:
                parts.append(PALETTE.tile(name, x, top + 37, 34))
    extra = len(held) - len(FLOOR_PENALTIES)
    if extra > 0:
        parts.append(
            text(
                WIDTH - 20,
                top + 42,
                # Translators: tiles beyond the floor line's last space go to the box lid.
                ngettext("+%(count)s to the box lid", "+%(count)s to the box lid", extra)
                % {"count": extra},
                font_size=12,
                fill="#fff",
                text_anchor="end",
            )
        )
    # The whole floor line is one target, over its spaces and their gaps (drawn last, so
    # that the first space keeps the outlines of the last move).
    parts.append(hit_area(8, top - 20, WIDTH - 16, 80))
    return group(
        element("title", gettext("floor line")),
        *parts,
        class_="floor-line",
        data_pick="line:floor" if picks else None,
        data_spot="line:floor",
    )


def facts(view: dict, names: list[str]) -> list[tuple[str, str]]:
    """The round, the phase, the wall side and what the bag and the box lid hold."""
    phases = {
        "offer": gettext("factory offer"),
        "tiling": gettext("wall tiling"),
        "refill": gettext("preparing the next round"),
        "over": gettext("game over"),
    }
    return [
        (gettext("Round"), str(view["round"])),
        (gettext("Phase"), phases.get(view["phase"], view["phase"])),
        (
            gettext("Wall"),
            gettext("grey (free placement)") if view["wall_side"] == GREY else gettext("coloured"),
        ),
        (gettext("Bag"), tiles(view["bag"])),
        (gettext("Box lid"), tiles(sum(view["lid"]))),
    ]


def tiles(count: int) -> str:
    return words.tiles(count)


def describe(events: list, player: str) -> str:
    """A move in words, from the rules events it caused: "Bob took 3 blue tiles from
    factory 2 → line 4 (1 to the floor)", or on the grey wall where the tile went and what
    it scored. Whole sentences, one per place taken from and put to, for translators."""
    for event in events:
        match event:
            case TilesTaken(source=source, colour=colour, count=count, line=line):
                values = {
                    "player": player,
                    "tiles": words.tiles(count, NAMES[colour]),
                    "factory": source + 1,
                    "line": line + 1,
                }
                if source == CENTRE and line == FLOOR:
                    # Translators: %(tiles)s is a number of tiles of one colour, "2 blue
                    # tiles"; "line" is a pattern line, numbered from the top.
                    said = gettext("%(player)s took %(tiles)s from the centre → the floor line")
                elif source == CENTRE:
                    said = gettext("%(player)s took %(tiles)s from the centre → line %(line)s")
                elif line == FLOOR:
                    said = gettext(
                        "%(player)s took %(tiles)s from factory %(factory)s → the floor line"
                    )
                else:
                    said = gettext(
                        "%(player)s took %(tiles)s from factory %(factory)s → line %(line)s"
                    )
                said %= values
                dropped = event.floored if line != FLOOR else 0
                if dropped and event.marker:
                    return ngettext(
                        "%(move)s (%(count)s to the floor, and the first player marker)",
                        "%(move)s (%(count)s to the floor, and the first player marker)",
                        dropped,
                    ) % {"move": said, "count": dropped}
                if dropped:
                    return ngettext(
                        "%(move)s (%(count)s to the floor)",
                        "%(move)s (%(count)s to the floor)",
                        dropped,
                    ) % {"move": said, "count": dropped}
                if event.marker:
                    return gettext("%(move)s (and the first player marker)") % {"move": said}
                return said
            case WallTiled(row=row, column=column, colour=colour, points=points):
                return gettext(
                    # Translators: %(colour)s is a colour adjective (one tile).
                    "%(player)s placed a %(colour)s tile on the wall, row %(row)s column "
                    "%(column)s (%(points)s)"
                ) % {
                    "player": player,
                    "colour": words.colour(NAMES[colour]),
                    "row": row + 1,
                    "column": column + 1,
                    "points": words.points(points),
                }
    return player


def colour_name(colour: int, count: int = 1) -> str:
    return words.colour(NAMES[colour], count)


def points_text(points: int) -> str:
    return words.points(points)


def breakdown(events: list, seats: int) -> list[tuple[str, list[int]]]:
    """The final score, line by line, from the rules events (rulebook, "End of the game"):
    wall tiles placed, floor line penalties, then the bonuses for complete rows (2 each),
    columns (7 each) and colours (10 each)."""
    wall, floor = [0] * seats, [0] * seats
    rows, columns, colours = [0] * seats, [0] * seats, [0] * seats
    for event in events:
        match event:
            case WallTiled(seat=seat, points=points):
                wall[seat] += points
            case FloorLineCleared(seat=seat, points=points):
                floor[seat] += points
            case GameEnded(bonuses=bonuses):
                for seat, bonus in enumerate(bonuses):
                    rows[seat] = bonus.rows * ROW_BONUS
                    columns[seat] = bonus.columns * COLUMN_BONUS
                    colours[seat] = bonus.colours * COLOUR_BONUS
    return [
        (gettext("Tiles placed on the wall"), wall),
        (gettext("Floor line"), floor),
        (gettext("Complete rows"), rows),
        (gettext("Complete columns"), columns),
        (gettext("Complete colours"), colours),
    ]


def steps(command: dict, view: dict) -> tuple[list[tuple[str, str]], list[str]]:
    """Factory offer: source, colour, then a pattern line or the floor line. Grey wall
    tiling: the wall column."""
    match command["type"]:
        case "TakeTiles":
            source, line, colour = command["source"], command["line"], command["colour"]
            name = NAMES[colour]
            offer = view["centre"] if source == CENTRE else view["factories"][source]
            count = offer[colour]
            where = (
                ("src:c", gettext("the centre"))
                if source == CENTRE
                else (f"src:f{source}", gettext("factory %(number)s") % {"number": source + 1})
            )
            # Translators: a step of choosing a move; %(tiles)s is "2 blue tiles".
            taken = gettext("take %(tiles)s") % {"tiles": words.tiles(count, name)}
            if line == FLOOR:
                return [
                    where,
                    (f"col:{name}", taken),
                    ("line:floor", gettext("all to the floor line")),
                ], ["line:floor"]
            held = view["boards"][view["to_move"]]["lines"][line]["count"]
            overflow = max(0, count - (line + 1 - held))
            if overflow:
                to = ngettext(
                    "line %(number)s (%(count)s to the floor)",
                    "line %(number)s (%(count)s to the floor)",
                    overflow,
                ) % {"number": line + 1, "count": overflow}
            else:
                to = gettext("line %(number)s") % {"number": line + 1}
            preview = [f"line:{line}"] + (["line:floor"] if overflow else [])
            return [where, (f"col:{name}", taken), (f"line:{line}", to)], preview
        case "PlaceOnWall":
            column = command["column"]
            label = gettext("wall column %(number)s") % {"number": column + 1}
            return [(f"wall:{column}", label)], [f"wall:{column}"]
    raise ValueError(f"not an Azul command: {command['type']}")


def notes(view: dict) -> None:
    """Nothing to add under the boards: every number of this game comes from its rulebook."""
    return None

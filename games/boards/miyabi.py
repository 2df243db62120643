"""Miyabi drawn from ``view(state)``: each player's 6×6 garden with the stacking level of
every square (shading and a number), the objects showing on top, the lantern spaces above
the columns; and the tiles displayed in the centre, the level-5 bonus tiles and the
end-of-game majority values (rulebook pp.4-5). Values our sources do not give are marked
as provisional (``games.rules.miyabi.PROVISIONAL``). The objects, tiles, turns and
provisional values in words: ``games.boards.miyabi_words``."""

from django.utils.translation import pgettext_lazy

from games.boards import words
from games.boards.miyabi_words import (
    OBJECT_NAMES,
    OBJECT_WORDS,
    TURN_WORDS,
    object_name,
    provisional_entries,
    shape_words,
)
from games.boards.svg import (
    Palette,
    document,
    element,
    group,
    hit_area,
    kept,
    text,
    wrapped_text,
)
from games.boards.words import gettext
from games.rules.miyabi.model import (
    GRID,
    BonusTileTaken,
    GardenObject,
    MajoritiesScored,
    Passed,
    Shape,
    TilePlaced,
)
from games.rules.miyabi.notation import ORIENTATION_NAMES
from games.rules.miyabi.placement import footprint

# The game's name on the pages: the published editions have their own in each language.
TITLE = pgettext_lazy("game title", "Miyabi")

OBJECTS = tuple(garden_object.name.lower() for garden_object in GardenObject)
LETTERS = "MPFABS"
"""The notation's object letters, in row order (F: the koi pond's fish)."""
PALETTE = Palette(
    {
        "maple": ("#c8452c", "M", "#fff"),
        "pagoda": ("#7a3b8f", "P", "#fff"),
        "pond": ("#2b7bb9", "F", "#fff"),
        "azalea": ("#d9609e", "A", "#fff"),
        "boxwood": ("#3f7f30", "B", "#fff"),
        "stone": ("#777777", "S", "#fff"),
    }
)
LEVELS = ("#eadcc0", "#d4e6b5", "#b0d28c", "#89bb66", "#62a049", "#467f34", "#2f5f24")
"""Square shading by stacking level: bare board, then greener for every tile on it."""
COLUMNS = "abcdef"
SQUARE = 60.0
"""A garden square, one target: about 45 px on a 390 px phone (at least 44 px to tap)."""
LEFT = 96.0
TOP = 78.0
GREEN = "#7fb069"


def square_name(row: int, column: int) -> str:
    return f"{COLUMNS[column]}{row + 1}"


def square_words(row: int, column: int, level: int, showing: int) -> str:
    """A garden square in words: its name, the level of its top tile and the objects it
    shows ("c4: level 2, 2 azaleas"), green, or the bare board."""
    values = {"square": square_name(row, column), "level": level}
    if showing:
        return gettext("%(square)s: level %(level)s, %(objects)s") % {
            **values,
            "objects": object_name(GardenObject(row), showing),
        }
    if level:
        # Translators: a square of a Miyabi garden; "green" is a tile's square without
        # objects.
        return gettext("%(square)s: level %(level)s, green") % values
    return gettext("%(square)s: level %(level)s, bare board") % values


def tile_code(tile: dict) -> str:
    """A displayed tile as the notation writes it: shape, object letter, count (``LP3``)."""
    return f"{tile['shape']}{LETTERS[OBJECTS.index(tile['object'])]}{tile['count']}"


def table_svg(view: dict, *, picks: bool) -> str:
    """The displayed tiles, then the bonus tiles and the majority values."""
    width = 600.0
    parts = [
        text(20, 22, gettext("Displayed tiles"), font_size=14, font_weight="700", fill="#5a4526")
    ]
    x, y, row_height = 20.0, 34.0, 0.0
    for tile, count in _kinds(view["display"]):
        card_width, card_height = _card_size(tile)
        if x + card_width > width - 20:
            x, y, row_height = 20.0, y + row_height + CARD_GAP, 0.0
        parts.append(_display_tile(x, y, tile, count, picks))
        x += card_width + CARD_GAP
        row_height = max(row_height, card_height)
    if not view["display"]:
        parts.append(
            text(20, y + 18, gettext("none left this phase"), font_size=13, fill="#8a7a66")
        )
        row_height = 34.0
    y += row_height + 34
    parts.append(
        wrapped_text(
            20,
            y - 5,
            gettext("Bonus tiles (level 5)"),
            300,
            14,
            lines=1,
            font_weight="700",
            fill="#5a4526",
        )
    )
    parts.append(
        wrapped_text(
            330,
            y - 5,
            gettext("Majorities: most / second"),
            260,
            14,
            lines=1,
            font_weight="700",
            fill="#5a4526",
        )
    )
    for number, bonus in enumerate(view["bonus_tiles"]):
        row_y = y + 24 + number * 30
        name = bonus["object"]
        taken = bonus["taken_by"]
        parts.append(PALETTE.tile(name, 34, row_y, 24))
        garden_object = GardenObject(OBJECTS.index(name))
        values = {
            "object": OBJECT_NAMES[garden_object],
            "points": points_text(bonus["points"]),
            "number": (taken or 0) + 1,
        }
        detail = (
            # Translators: a level-5 bonus tile; the * marks a provisional value.
            gettext("%(object)s: %(points)s* (taken by player %(number)s)") % values
            if taken is not None
            else gettext("%(object)s: %(points)s*") % values
        )
        parts.append(
            text(
                54,
                row_y + 5,
                detail,
                font_size=13,
                fill="#8a7a66" if taken is not None else "#2b2b2b",
            )
        )
        most, second = view["majority_values"][name]
        parts.append(PALETTE.tile(name, 344, row_y, 24))
        parts.append(
            text(
                364,
                row_y + 5,
                f"{OBJECT_NAMES[garden_object]}: {most} / {second}*",
                font_size=13,
            )
        )
    bottom = y + 24 + len(view["bonus_tiles"]) * 30
    parts.append(
        text(
            20,
            bottom + 4,
            gettext("* provisional values: see the note below the gardens"),
            font_size=12,
            fill="#8a4b2a",
        )
    )
    return document(
        width,
        bottom + 16,
        *parts,
        label=gettext("Displayed tiles and bonus tiles"),
        class_="board table-board",
    )


CELL = 28.0
"""A square of a displayed tile as drawn."""
CARD = 76.0
"""The least side of a displayed tile's card, the target that takes it: 47 px on a 390 px
phone, where the table is drawn at about 0.62 of its size."""
CARD_GAP = 8.0


def _kinds(display: list[dict]) -> list[tuple[dict, int]]:
    """The displayed tiles, identical ones together with their number, in display order:
    identical tiles are one card (a take names the kind of tile, never which one)."""
    kinds: dict[str, tuple[dict, int]] = {}
    for tile in display:
        code = tile_code(tile)
        kinds[code] = (kinds[code][0], kinds[code][1] + 1) if code in kinds else (tile, 1)
    return list(kinds.values())


def _extent(tile: dict) -> tuple[int, int]:
    """How many squares a displayed tile spans across and down."""
    return 1 + max(c for _, c in tile["squares"]), 1 + max(r for r, _ in tile["squares"])


def _card_size(tile: dict) -> tuple[float, float]:
    columns, rows = _extent(tile)
    return max(CARD, columns * CELL + 16), max(CARD, rows * CELL + 30)


def _display_tile(x, y, tile, count, picks) -> str:
    """A card for one kind of displayed tile: its notation and number on top (distinct
    from every other card's), the tile drawn below, the whole card the target."""
    code = tile_code(tile)
    card_width, card_height = _card_size(tile)
    columns, rows = _extent(tile)
    left = x + (card_width - columns * CELL) / 2
    top = y + 22 + (card_height - 30 - rows * CELL) / 2
    said = f"{code}, {tile_words(tile)}"
    if count > 1:
        # Translators: a kind of tile on display and how many of it lie there.
        said = gettext("%(tile)s (%(count)s of them)") % {"tile": said, "count": count}
    parts = [
        element("title", said),
        element(
            "rect",
            x=x,
            y=y,
            width=card_width,
            height=card_height,
            rx=6,
            fill="#fbf5e8",
            stroke="#d8c29c",
            class_="card",
        ),
    ]
    for index, (row, column) in enumerate(tile["squares"]):
        cx, cy = left + column * CELL + CELL / 2, top + row * CELL + CELL / 2
        if index == 0:
            parts.append(PALETTE.tile(tile["object"], cx, cy, CELL, rx=3, count=tile["count"]))
        else:
            parts.append(
                element(
                    "rect",
                    x=cx - CELL / 2,
                    y=cy - CELL / 2,
                    width=CELL,
                    height=CELL,
                    rx=3,
                    fill=GREEN,
                    stroke="#4d7a3a",
                )
            )
    label = f"{code} ×{count}" if count > 1 else code
    parts.append(
        text(x + 6, y + 16, label, font_size=14, font_weight="700", fill="#5a4526", class_="label")
    )
    return group(*parts, class_="display-tile", data_pick=f"tile:{code}" if picks else None)


def player_svg(view: dict, seat: int, *, picks: bool) -> str:
    """One garden: lantern spaces on top, object rows labelled on the left, the level of
    every square as shading and a number, the objects showing on top."""
    garden = view["gardens"][seat]
    width = LEFT + SQUARE * GRID + 12
    height = TOP + SQUARE * GRID + 12
    parts = [
        element(
            "rect",
            x=2,
            y=2,
            width=width - 4,
            height=height - 4,
            rx=16,
            fill="#f2e7d0",
            stroke="#9c7a4b",
            stroke_width=3,
        ),
        text(LEFT - 10, 30, gettext("lanterns"), font_size=11, text_anchor="end", fill="#5a4526"),
    ]
    for column in range(GRID):
        x = LEFT + SQUARE * column + SQUARE / 2
        parts.append(
            text(x, TOP - 4, COLUMNS[column], font_size=12, text_anchor="middle", fill="#5a4526")
        )
        parts.append(_lantern(x, 28, garden["lanterns"][column]))
    for row in range(len(OBJECTS)):
        parts.append(_row_label(row))
        for column in range(GRID):
            level, showing = garden["heights"][row][column], garden["objects"][row][column]
            parts.append(_square(row, column, level, showing, picks))
    label = gettext("Garden of player %(number)s: %(points)s") % {
        "number": seat + 1,
        "points": points_text(view["scores"][seat]),
    }
    return document(width, height, *parts, label=label, class_="board player-board garden")


@kept
def _row_label(row: int) -> str:
    """A row of the garden: its object's tile and its number and name."""
    y = TOP + SQUARE * row + SQUARE / 2
    name = f"{row + 1} {OBJECT_NAMES[GardenObject(row)]}"
    return PALETTE.tile(OBJECTS[row], 20, y, 22) + wrapped_text(
        34, y, name, LEFT - 37, 11, fill="#3a2d1a"
    )


@kept
def _lantern(x, y, lit: bool) -> str:
    if not lit:
        return element(
            "rect",
            x=x - 11,
            y=y - 15,
            width=22,
            height=30,
            rx=5,
            fill="none",
            stroke="#b59d77",
            stroke_dasharray="3 2",
        )
    return group(
        element("title", gettext("lantern (this column is closed for the phase)")),
        element("rect", x=x - 9, y=y - 15, width=18, height=6, rx=2, fill="#3a2d1a"),
        element(
            "rect",
            x=x - 11,
            y=y - 9,
            width=22,
            height=18,
            rx=6,
            fill="#ffcf4a",
            stroke="#a0520f",
            stroke_width=2,
        ),
        element("rect", x=x - 7, y=y + 9, width=14, height=5, rx=2, fill="#3a2d1a"),
        class_="lantern",
    )


@kept
def _square(row, column, level, showing, picks) -> str:
    x = LEFT + SQUARE * column
    y = TOP + SQUARE * row
    middle_x, middle_y = x + SQUARE / 2, y + SQUARE / 2
    name = square_name(row, column)
    parts = [
        element(
            "rect",
            x=x + 1,
            y=y + 1,
            width=SQUARE - 2,
            height=SQUARE - 2,
            rx=4,
            fill=LEVELS[min(level, len(LEVELS) - 1)],
            stroke="#8c7a5c",
        ),
    ]
    # The whole square, its edge included, is the target (drawn last, over the tile).
    hit = hit_area(x, y, SQUARE, SQUARE)
    said = square_words(row, column, level, showing)
    if showing:
        parts.append(PALETTE.tile(OBJECTS[row], middle_x, middle_y, 34, count=showing))
    if level:
        parts.append(
            group(
                element(
                    "rect", x=x + 3, y=y + SQUARE - 17, width=22, height=14, rx=3, fill="#3a2d1a"
                ),
                text(
                    x + 14,
                    y + SQUARE - 6,
                    f"L{level}",
                    font_size=10,
                    fill="#fff",
                    text_anchor="middle",
                ),
                class_="level",
            )
        )
    parts.insert(0, element("title", said))
    return group(
        *parts,
        hit,
        class_="square",
        data_pick=f"sq:{name}" if picks else None,
        data_spot=f"sq:{name}",
    )


def facts(view: dict, names: list[str]) -> list[tuple[str, str]]:
    """The building phase, who holds the bonsai, and the tiles left."""
    holder = view["start_player"]
    return [
        (
            gettext("Building phase"),
            gettext("%(phase)s of %(phases)s") % {"phase": view["round"], "phases": view["rounds"]},
        ),
        (gettext("Bonsai"), names[holder] if holder < len(names) else str(holder + 1)),
        (gettext("Tiles in the box"), str(view["box"])),
        (gettext("Tiles out of the game"), str(view["removed"])),
    ]


def points_text(points: int) -> str:
    return words.points(points)


def tile_words(tile: dict) -> str:
    """A displayed tile in words: its shape and its objects, "angled tile with 2 maples"."""
    return shape_words(tile["shape"], GardenObject(OBJECTS.index(tile["object"])), tile["count"])


def describe(events: list, player: str) -> str:
    """A move in words, from the rules events it caused: the tile, where its objects lie,
    the level it rests on and what it scored (with a level-5 bonus tile), or a pass."""
    text = player
    for event in events:
        match event:
            case TilePlaced(tile=tile, row=row, column=column, level=level, points=points):
                text = gettext(
                    "%(player)s placed a tile with %(objects)s on %(square)s, level %(level)s "
                    "(%(points)s)"
                ) % {
                    "player": player,
                    "objects": object_name(tile.object, tile.count),
                    "square": square_name(row, column),
                    "level": level,
                    "points": points_text(points),
                }
            case BonusTileTaken(points=points):
                text = gettext("%(move)s, and took a bonus tile (%(points)s)") % {
                    "move": text,
                    "points": points_text(points),
                }
            case Passed(forced=forced):
                return (
                    gettext("%(player)s had no tile that fits and passed")
                    if forced
                    else gettext("%(player)s passed")
                ) % {"player": player}
    return text


def breakdown(events: list, seats: int) -> list[tuple[str, list[int]]]:
    """The final score, line by line, from the rules events (rulebook p.5): tiles placed,
    level-5 bonus tiles, then the majority of each object row."""
    placed, bonus = [0] * seats, [0] * seats
    majorities: list[tuple[str, list[int]]] = []
    for event in events:
        match event:
            case TilePlaced(seat=seat, points=points):
                placed[seat] += points
            case BonusTileTaken(seat=seat, points=points):
                bonus[seat] += points
            case MajoritiesScored(points=rows):
                majorities = [
                    (
                        gettext("Majority: %(object)s") % {"object": OBJECT_WORDS[garden_object]},
                        list(rows[garden_object]),
                    )
                    for garden_object in GardenObject
                ]
    return [
        (gettext("Tiles placed"), placed),
        (gettext("Level-5 bonus tiles"), bonus),
        *majorities,
    ]


def steps(command: dict, view: dict) -> tuple[list[tuple[str, str]], list[str]]:
    """A placement: the displayed tile, the square of its objects, then how it is turned
    (labelled with the squares it covers; the page chooses the first way at once, and the
    player turns the tile from there). Passing is one click."""
    match command["type"]:
        case "Pass":
            return [("pass", gettext("pass (out of this building phase)"))], []
        case "PlaceTile":
            tile = command["tile"]
            code = f"{tile['shape']}{LETTERS[tile['object']]}{tile['count']}"
            row, column, orientation = command["row"], command["column"], command["orientation"]
            cells = footprint(Shape(tile["shape"]), orientation, row, column) or ()
            covered = [f"sq:{square_name(*divmod(cell, GRID))}" for cell in cells]
            names = ", ".join(pick[3:] for pick in covered)
            said = shape_words(tile["shape"], GardenObject(tile["object"]), tile["count"])
            return [
                (
                    f"tile:{code}",
                    # Translators: %(tile)s is a tile in the notation, "LP3" (never
                    # translated); %(words)s says it, "angled tile with 3 pagodas".
                    gettext("take %(tile)s, %(words)s") % {"tile": code, "words": said},
                ),
                (
                    f"sq:{square_name(row, column)}",
                    gettext("objects on %(square)s") % {"square": square_name(row, column)},
                ),
                (
                    f"turn:{ORIENTATION_NAMES[orientation]}",
                    # Translators: %(turn)s says how the tile is turned, "turned a quarter
                    # clockwise"; %(squares)s lists squares, "a1, a2".
                    gettext("%(turn)s: covers %(squares)s")
                    % {"turn": TURN_WORDS[orientation], "squares": names},
                ),
            ], covered
    raise ValueError(f"not a Miyabi command: {command['type']}")


def notes(view: dict) -> tuple[str, dict]:
    """The provisional values, said plainly (``docs/miyabi-provisional.md``)."""
    return "boards/miyabi_provisional.html", {"provisional": provisional_entries(view)}

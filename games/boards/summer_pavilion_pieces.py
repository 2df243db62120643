"""The pieces of Azul: Summer Pavilion's drawings (``games.boards.summer_pavilion`` lays
them out): the tiles' colours, and a player's board — seven stars of six diamond spaces
placed round its centre with their printed numbers, the pillars, statues and windows
between them, the four corner spaces and the tiles beside the board (rules reference,
"Player board")."""

import math

from games.boards import words
from games.boards.svg import (
    Palette,
    element,
    group,
    kept,
    polygon,
    slot,
    text,
    tile_groups,
)
from games.boards.words import gettext, ngettext
from games.rules.summer_pavilion.board import (
    COLOURS,
    COSTS,
    SPACES_PER_STAR,
    STAR_COLOUR,
    Side,
    index,
)

FILL = {
    "purple": "#7b4aa6",
    "green": "#2f9a4c",
    "orange": "#ec8124",
    "yellow": "#f1c232",
    "blue": "#2c6cc0",
    "red": "#d1353a",
}
TINT = {
    "purple": "#e4d6f0",
    "green": "#d3ecd9",
    "orange": "#fbe1c8",
    "yellow": "#fbf0c6",
    "blue": "#d3e2f5",
    "red": "#f6d3d3",
}
PALETTE = Palette(
    {
        name: (FILL[name], name[0].upper(), "#3b3000" if name == "yellow" else "#fff")
        for name in COLOURS
    }
)
STAR_NAMES = ("centre", "purple", "orange", "red", "blue", "yellow", "green")
"""Each star position named after its colour on the coloured side, as in the notation."""

SIDE = 30.0  # a diamond's side
RING = 100.0  # from the board's centre to an outer star's centre
BOARD = 380.0


def _unit(degrees: float) -> tuple[float, float]:
    return math.cos(math.radians(degrees)), -math.sin(math.radians(degrees))


def star_angle(star: int) -> float:
    """Outer stars go clockwise from 9 o'clock (rules reference)."""
    return 180.0 - 60.0 * (star - 1)


def star_centre(star: int) -> tuple[float, float]:
    middle = BOARD / 2
    if star == 0:
        return middle, middle
    dx, dy = _unit(star_angle(star))
    return middle + RING * dx, middle + RING * dy


def space_angle(star: int, space: int) -> float:
    """Spaces run clockwise; the centre star's space 1 points to 12 o'clock and every outer
    star turns so that its spaces 2 and 3 face the centre (where its pillar stands)."""
    turn = 0.0 if star == 0 else -60.0 * (star - 1)
    return 90.0 + turn - 60.0 * (space - 1)


def diamond(star: int, space: int, shrink: float = 0.9) -> list[tuple[float, float]]:
    cx, cy = star_centre(star)
    angle = space_angle(star, space)
    left, right = _unit(angle + 30), _unit(angle - 30)
    corners = [(0.0, 0.0), left, (left[0] + right[0], left[1] + right[1]), right]
    mx, my = (left[0] + right[0]) / 2, (left[1] + right[1]) / 2
    return [
        (cx + SIDE * (mx + (x - mx) * shrink), cy + SIDE * (my + (y - my) * shrink))
        for x, y in corners
    ]


def diamond_middle(star: int, space: int) -> tuple[float, float]:
    cx, cy = star_centre(star)
    dx, dy = _unit(space_angle(star, space))
    reach = SIDE * math.sqrt(3) / 2
    return cx + reach * dx, cy + reach * dy


def tiles_of(counts: dict) -> list[str]:
    """Tiles counted by colour as a colour's name per tile, in the colours' order."""
    return [name for name in COLOURS for _ in range(counts.get(name, 0))]


STAR_REACH = 48.0
"""A star's target: a circle of this radius round its centre (stars stand 100 apart, so
the circles never meet). On a phone a space is too small to tap (about 25×44 px): the
star is tapped first, and then fills the picture, its spaces large."""


@kept
def star_drawing(star, spaces, side, picks) -> str:
    """A star of six spaces: one target on a phone, its spaces the targets once chosen."""
    costs = COSTS[side]
    x, y = star_centre(star)
    reach = STAR_REACH * 1.7  # the star and what stands round it
    return group(
        element("title", words.star(STAR_NAMES[star])),
        element("circle", cx=x, cy=y, r=STAR_REACH, fill="transparent", class_="hit"),
        *(
            _space(star, space, spaces[space - 1], costs, side, picks)
            for space in range(1, SPACES_PER_STAR + 1)
        ),
        class_="star",
        data_pick=f"star:{star}" if picks else None,
        data_zoom=f"{x - reach:.0f} {y - reach:.0f} {2 * reach:.0f} {2 * reach:.0f}"
        if picks
        else None,
    )


def _space(star, space, placed, costs, side, picks) -> str:
    position = index(star, space)
    cost = costs[position]
    points = diamond(star, space)
    x, y = diamond_middle(star, space)
    printed = STAR_COLOUR[star]
    spot = f"sp:{star}-{space}"
    pick = f"star:{star} {spot}" if picks else None
    where = {"star": words.star(STAR_NAMES[star]), "space": space, "cost": cost}
    if placed:
        return group(
            element(
                "title",
                # Translators: %(colour)s is a colour adjective (one tile); %(star)s
                # is a star ("the orange star"); %(cost)s is the number printed on the space.
                gettext("%(colour)s tile on %(star)s, space %(space)s (costs %(cost)s)")
                % {**where, "colour": words.colour(placed)},
            ),
            polygon(points, fill=FILL[placed], stroke="#fff", stroke_width=1.5),
            text(
                x,
                y + 5,
                PALETTE.letter(placed),
                font_size=14,
                font_weight="700",
                text_anchor="middle",
                fill=PALETTE.ink(placed),
            ),
            class_="space filled",
            data_pick=pick,
            data_spot=spot,
        )
    if side is Side.COLOURED and printed is not None:
        fill, ink = TINT[COLOURS[printed]], FILL[COLOURS[printed]]
    elif side is Side.COLOURED:
        fill, ink = "#fffaf0", "#8a6d3b"
    else:
        fill, ink = "#d9d6d0", "#555"
    return group(
        element("title", gettext("%(star)s, space %(space)s (costs %(cost)s)") % where),
        polygon(points, fill=fill, stroke=ink, stroke_width=1.2),
        text(x, y + 4, str(cost), font_size=12, font_weight="700", text_anchor="middle", fill=ink),
        class_="space empty",
        data_pick=pick,
    )


@kept
def structure_drawing(structure, surrounded: bool) -> str:
    """A pillar, statue or window between the stars, in gold once its spaces are covered."""
    middle = BOARD / 2
    angle = star_angle(structure.star)
    if structure.kind == "pillar":
        distance = RING / 2
    elif structure.kind == "statue":
        distance, angle = RING * math.cos(math.radians(30)), angle - 30
    else:
        distance = RING + SIDE * 1.25
    dx, dy = _unit(angle)
    x, y = middle + distance * dx, middle + distance * dy
    stroke = "#c9a227" if surrounded else "#7d6a52"
    fill = "#fff3c4" if surrounded else "#efe6d6"
    title = element("title", _structure_words(structure.kind, surrounded))
    match structure.kind:
        case "pillar":
            shape = group(
                element("circle", cx=x, cy=y, r=9, fill=fill, stroke=stroke, stroke_width=2),
                element("rect", x=x - 3, y=y - 6, width=6, height=12, fill=stroke),
            )
        case "statue":
            shape = group(
                element("circle", cx=x, cy=y, r=10, fill=fill, stroke=stroke, stroke_width=2),
                element("circle", cx=x, cy=y - 3.5, r=2.6, fill=stroke),
                polygon(
                    [(x - 4, y + 6), (x + 4, y + 6), (x + 2, y - 0.5), (x - 2, y - 0.5)],
                    fill=stroke,
                ),
            )
        case _:
            shape = element(
                "path",
                d=f"M{x - 7:.1f},{y + 7:.1f} v-7 a7,7 0 0 1 14,0 v7 z",
                fill=fill,
                stroke=stroke,
                stroke_width=2,
            )
    return group(title, shape, class_=f"structure {structure.kind}")


def _structure_words(kind: str, surrounded: bool) -> str:
    """A pillar, statue or window, and whether its spaces are all covered."""
    match kind, surrounded:
        case "pillar", True:
            return gettext("pillar (surrounded)")
        case "pillar", False:
            return gettext("pillar (not surrounded yet)")
        case "statue", True:
            return gettext("statue (surrounded)")
        case "statue", False:
            return gettext("statue (not surrounded yet)")
        case _, True:
            return gettext("window (surrounded)")
    return gettext("window (not surrounded yet)")


def corners_drawing(corners: dict) -> str:
    """The four corner spaces and the tiles kept on them."""
    kept = tiles_of(corners)
    parts = []
    for number, (x, y) in enumerate(
        ((26, 26), (BOARD - 26, 26), (26, BOARD - 26), (BOARD - 26, BOARD - 26))
    ):
        parts.append(slot(x, y, 34, "#e8d6b3", "#a4825a", rx=5))
        if number < len(kept):
            name = kept[number]
            parts.append(PALETTE.tile(name, x, y, 28))
    return group(*parts, class_="corners")


def beside_drawing(beside: dict, picks: bool) -> str:
    """The tiles beside the board, by colour: each colour a target (to place or to keep)."""
    said = gettext("Beside the board:") if beside else gettext("Beside the board: no tiles")
    parts = [text(10, BOARD + 20, said, font_size=13, fill="#5a4526")]
    parts += tile_groups(
        36,
        BOARD + 58,
        beside,
        PALETTE,
        size=36,
        step=52,
        pick="tile:{}|keep:{}" if picks else None,
        title=_beside_the_board,
        hit=50,
    )
    return group(*parts, class_="beside")


def _beside_the_board(name: str, count: int) -> str:
    return ngettext(
        # Translators: %(colour)s is a colour adjective agreeing with the number.
        "%(count)s %(colour)s tile beside the board",
        "%(count)s %(colour)s tiles beside the board",
        count,
    ) % {"count": count, "colour": words.colour(name, count)}

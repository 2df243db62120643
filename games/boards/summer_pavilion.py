"""Azul: Summer Pavilion drawn from ``view(state)``: the factory displays, the centre, the
supply, and each player's board — seven stars of six diamond spaces with their printed
numbers, the pillars, statues and windows between them, the four corner spaces and the
tiles beside the board (rules reference, "Player board")."""

import math

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
    kept,
    polygon,
    slot,
    start_token,
    text,
    tile_groups,
)
from games.boards.words import gettext, ngettext, pgettext
from games.rules.summer_pavilion.board import (
    COLOURS,
    COSTS,
    ROUNDS,
    SPACES_PER_STAR,
    STAR_COLOUR,
    STARS,
    START_SCORE,
    STRUCTURES,
    Side,
    index,
)
from games.rules.summer_pavilion.model import (
    BonusTilesTaken,
    GameEnded,
    Passed,
    TilePlaced,
    TilesTaken,
)

# The game's name on the pages: the published editions have their own in each language.
TITLE = pgettext_lazy("game title", "Azul: Summer Pavilion")

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


def table_svg(view: dict, *, picks: bool) -> str:
    """The factory displays, the centre and the supply."""
    width = 600.0
    displays = [_tiles(counts) for counts in view["factories"]]
    top = factories_height(len(displays))
    parts = [
        factories(0, width, displays, PALETTE, picks=picks),
        centre(
            top, width, view["centre"], PALETTE, token=view["start_token_in_centre"], picks=picks
        ),
        _supply(width, top + 124, view["supply"], picks),
        _wild(top + 240, view),
    ]
    label = gettext("Factory displays, centre and supply, round %(round)s") % {
        "round": view["round"]
    }
    return document(width, top + 264, *parts, label=label, class_="board table-board")


def _wild(y, view) -> str:
    """Round r's wild colour (rulebook "The wild color"), shown as its tile, drawn before
    the sentence so that a longer translation never runs under it."""
    return group(
        PALETTE.tile(view["wild"], 44, y, 28),
        text(
            66,
            y + 5,
            # Translators: %(colour)s is a colour adjective (the wild tiles' colour).
            gettext("Round %(round)s of %(rounds)s: the wild colour is %(colour)s")
            % {"round": view["round"], "rounds": ROUNDS, "colour": words.colour(view["wild"], 2)},
            font_size=14,
            fill="#5a4526",
            font_weight="700",
        ),
        class_="wild",
    )


def _tiles(counts: dict) -> list[str]:
    return [name for name in COLOURS for _ in range(counts.get(name, 0))]


def _supply(width, top, supply, picks) -> str:
    """The supply's tiles grouped by colour, each group one tile with its number: a bonus
    tile is chosen by its colour, so a colour is one target (76 units: 47 px on a phone)."""
    counts = {name: supply.count(name) for name in COLOURS}
    parts = [
        element(
            "rect",
            x=20,
            y=top,
            width=width - 40,
            height=88,
            rx=10,
            fill="#8c6239",
            stroke="#5d3f22",
        ),
        text(30, top - 6, gettext("Supply"), font_size=13, fill="#5a4526", font_weight="700"),
    ]
    if not supply:
        parts.append(text(40, top + 50, gettext("no tiles"), font_size=14, fill="#f3e6cc"))
    parts += tile_groups(
        68,
        top + 44,
        counts,
        PALETTE,
        size=44,
        step=84,
        pick="bonus:{}" if picks else None,
        title=_in_the_supply,
        hit=76,
    )
    return group(*parts, class_="supply")


def _in_the_supply(name: str, count: int) -> str:
    return ngettext(
        # Translators: %(colour)s is a colour adjective agreeing with the number.
        "%(count)s %(colour)s tile in the supply",
        "%(count)s %(colour)s tiles in the supply",
        count,
    ) % {"count": count, "colour": words.colour(name, count)}


def player_svg(view: dict, seat: int, *, picks: bool) -> str:
    """One player's board: stars, structures, corner spaces, and the tiles beside it."""
    player = view["boards"][seat]
    side = Side(view["side"])
    parts = [
        element(
            "rect",
            x=4,
            y=4,
            width=BOARD - 8,
            height=BOARD - 8,
            rx=26,
            fill="#f3e6cc" if side is Side.COLOURED else "#e4e0da",
            stroke="#a4825a",
            stroke_width=3,
        ),
        element(
            "circle",
            cx=BOARD / 2,
            cy=BOARD / 2,
            r=176,
            fill="#fbf5e8" if side is Side.COLOURED else "#f1efeb",
            stroke="#d8c29c",
        ),
    ]
    board = player["stars"]
    filled = {
        index(star, space)
        for star in range(STARS)
        for space in range(1, SPACES_PER_STAR + 1)
        if board[star][space - 1]
    }
    for star in range(STARS):
        parts.append(_star(star, tuple(board[star]), side, picks))
    for structure in STRUCTURES:
        parts.append(_structure(structure, set(structure.spaces) <= filled))
    parts.append(_corners(player["corners"]))
    if player["has_start_token"]:
        parts.append(start_token(BOARD - 30, BOARD + 58, 30))
    parts.append(_beside(player["beside"], picks))
    label = gettext("Board of player %(number)s: %(points)s") % {
        "number": seat + 1,
        "points": words.points(view["scores"][seat]),
    }
    return document(BOARD, BOARD + 88, *parts, label=label, class_="board player-board")


STAR_REACH = 48.0
"""A star's target: a circle of this radius round its centre (stars stand 100 apart, so
the circles never meet). On a phone a space is too small to tap (about 25×44 px): the
star is tapped first, and then fills the picture, its spaces large."""


@kept
def _star(star, spaces, side, picks) -> str:
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
def _structure(structure, surrounded: bool) -> str:
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


def _corners(corners: dict) -> str:
    kept = _tiles(corners)
    parts = []
    for number, (x, y) in enumerate(
        ((26, 26), (BOARD - 26, 26), (26, BOARD - 26), (BOARD - 26, BOARD - 26))
    ):
        parts.append(slot(x, y, 34, "#e8d6b3", "#a4825a", rx=5))
        if number < len(kept):
            name = kept[number]
            parts.append(PALETTE.tile(name, x, y, 28))
    return group(*parts, class_="corners")


def _beside(beside: dict, picks: bool) -> str:
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


def facts(view: dict, names: list[str]) -> list[tuple[str, str]]:
    """The round, the wild colour, the phase, the board side, the bag and the tower."""
    phases = {
        "acquire": gettext("taking tiles"),
        "play": gettext("placing tiles"),
        "round_over": gettext("preparing the next round"),
        "game_over": gettext("game over"),
    }
    side = (
        pgettext("board side", "grey")
        if view["side"] == Side.GREY.value
        else pgettext("board side", "coloured")
    )
    result = [
        (
            gettext("Round"),
            gettext("%(round)s of %(rounds)s") % {"round": view["round"], "rounds": ROUNDS},
        ),
        (gettext("Wild colour"), words.colour(view["wild"], 2)),
        (gettext("Phase"), phases.get(view["phase"], view["phase"])),
        (gettext("Board side"), side),
        (gettext("Bag"), tiles(view["bag"])),
        (gettext("Tower"), tiles(view["tower"])),
    ]
    if view["bonus_due"]:
        result.append((gettext("Bonus tiles to choose"), str(view["bonus_due"])))
    return result


def tiles(count: int) -> str:
    return words.tiles(count)


def _counted(counts) -> str:
    """Tile counts per colour as words: "2 orange tiles and 1 purple tile"."""
    parts = [words.tiles(count, COLOURS[colour]) for colour, count in enumerate(counts) if count]
    return words.listing(parts) if parts else gettext("no tiles")


def describe(events: list, player: str) -> str:
    """A move in words, from the rules events it caused: what was taken and from where,
    where a tile was placed and what it scored, what a pass kept."""
    for event in events:
        match event:
            case TilesTaken(source=source, taken=taken, start_token=token):
                values = {"player": player, "tiles": _counted(taken), "factory": (source or 0) + 1}
                if source is None:
                    # Translators: %(tiles)s lists tiles by colour, "2 orange tiles and 1
                    # purple tile".
                    said = gettext("%(player)s took %(tiles)s from the centre") % values
                else:
                    said = gettext("%(player)s took %(tiles)s from factory %(factory)s") % values
                if token:
                    lost = event.points_lost
                    return ngettext(
                        "%(move)s, and the first player marker (%(count)s point lost)",
                        "%(move)s, and the first player marker (%(count)s points lost)",
                        lost,
                    ) % {"move": said, "count": lost}
                return said
            case TilePlaced(star=star, space=space, colour=colour, points=points):
                return gettext(
                    # Translators: %(colour)s is a colour adjective (one tile); %(star)s is
                    # a star of the board, "the orange star".
                    "%(player)s placed 1 %(colour)s tile on %(star)s, space %(space)s (%(points)s)"
                ) % {
                    "player": player,
                    "colour": words.colour(COLOURS[colour]),
                    "star": words.star(STAR_NAMES[star]),
                    "space": space,
                    "points": words.points(points),
                }
            case BonusTilesTaken(tiles=taken):
                count = len(taken)
                return ngettext(
                    "%(player)s took a bonus tile: %(tiles)s",
                    "%(player)s took bonus tiles: %(tiles)s",
                    count,
                ) % {
                    "player": player,
                    "tiles": _counted([taken.count(c) for c in range(len(COLOURS))]),
                }
            case Passed(kept=kept, points_lost=lost):
                said = gettext("%(player)s passed, keeping %(tiles)s") % {
                    "player": player,
                    "tiles": _counted(kept),
                }
                if lost:
                    return ngettext(
                        "%(move)s (%(count)s point lost)",
                        "%(move)s (%(count)s points lost)",
                        lost,
                    ) % {"move": said, "count": lost}
                return said
    return player


def points_text(points: int) -> str:
    return words.points(points)


def breakdown(events: list, seats: int) -> list[tuple[str, list[int]]]:
    """The final score, line by line, from the rules events (rulebook, "Game end"): the
    starting points, tiles placed, points lost while playing, then the bonuses for
    surrounded pillars and statues, complete stars and numbers, and the corner penalty."""
    placed, lost = [0] * seats, [0] * seats
    stars, numbers, corners = [0] * seats, [0] * seats, [0] * seats
    for event in events:
        match event:
            case TilePlaced(seat=seat, points=points):
                placed[seat] += points
            case TilesTaken(seat=seat, points_lost=points) | Passed(seat=seat, points_lost=points):
                lost[seat] -= points
            case GameEnded():
                stars = list(event.star_points)
                numbers = list(event.number_points)
                corners = [-points for points in event.corner_points_lost]
    return [
        (gettext("Starting points"), [START_SCORE] * seats),
        (gettext("Tiles placed"), placed),
        (gettext("Points lost while playing"), lost),
        (gettext("Complete stars"), stars),
        (gettext("Complete numbers"), numbers),
        (gettext("Tiles left on the corners"), corners),
    ]


def steps(command: dict, view: dict) -> tuple[list[tuple[str, str]], list[str]]:
    """Phase 1: source, then colour. Phase 2: the tile, the star, its space, the wild tiles
    spent.
    Bonus tiles: one supply tile after another. Pass: the tiles kept, then done."""
    match command["type"]:
        case "TakeTiles":
            source = command["source"]
            name = COLOURS[command["colour"]]
            where = (
                ("src:c", gettext("the centre"))
                if source is None
                else (f"src:f{source}", gettext("factory %(number)s") % {"number": source + 1})
            )
            return [
                where,
                (
                    f"col:{name}",
                    # Translators: %(colour)s is a colour adjective (tiles of that colour).
                    gettext("take the %(colour)s tiles") % {"colour": words.colour(name, 2)},
                ),
            ], []
        case "PlaceTile":
            star, space, wilds = command["star"], command["space"], command["wilds"]
            name = COLOURS[command["colour"]]
            cost = COSTS[Side(view["side"])][index(star, space)]
            paid = words.tiles(cost - wilds, name)
            if wilds:
                # Translators: %(tiles)s is "2 blue tiles"; %(wilds)s is the wild tiles
                # also spent, "1 orange tile".
                pay = gettext("pay %(tiles)s + %(wilds)s (wild)") % {
                    "tiles": paid,
                    "wilds": words.tiles(wilds, view["wild"]),
                }
            else:
                pay = gettext("pay %(tiles)s") % {"tiles": paid}
            target = f"sp:{star}-{space}"
            return [
                (
                    f"tile:{name}",
                    # Translators: %(colour)s is a colour adjective (one tile).
                    gettext("place one %(colour)s tile") % {"colour": words.colour(name)},
                ),
                (f"star:{star}", words.star(STAR_NAMES[star])),
                (
                    target,
                    gettext("%(star)s, space %(space)s (costs %(cost)s)")
                    % {"star": words.star(STAR_NAMES[star]), "space": space, "cost": cost},
                ),
                (f"wild:{wilds}", pay),
            ], [target]
        case "ChooseBonusTiles":
            return [
                (
                    f"bonus:{COLOURS[c]}",
                    # Translators: %(colour)s is a colour adjective (one tile).
                    gettext("one %(colour)s bonus tile") % {"colour": words.colour(COLOURS[c])},
                )
                for c in command["colours"]
            ], []
        case "Pass":
            kept = [COLOURS[c] for c in command["keep"]]
            done = (
                gettext("keep %(tiles)s, discard the rest")
                % {"tiles": _counted([kept.count(name) for name in COLOURS])}
                if kept
                else gettext("keep nothing, discard the rest")
            )
            return [
                ("pass", gettext("pass (end your turns this round)")),
                *(
                    (
                        f"keep:{name}",
                        # Translators: %(colour)s is a colour adjective (one tile).
                        gettext("keep one %(colour)s tile") % {"colour": words.colour(name)},
                    )
                    for name in kept
                ),
                ("keep:end", done),
            ], []
    raise ValueError(f"not a Summer Pavilion command: {command['type']}")


def notes(view: dict) -> None:
    """Nothing to add under the boards: every number of this game comes from its rulebook."""
    return None

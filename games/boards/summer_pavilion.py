"""Azul: Summer Pavilion drawn from ``view(state)``: the factory displays, the centre, the
supply, and each player's board — seven stars of six diamond spaces with their printed
numbers, the pillars, statues and windows between them, the four corner spaces and the
tiles beside the board (rules reference, "Player board")."""

import math

from django.utils.translation import gettext, ngettext

from games.boards.svg import (
    Palette,
    centre,
    document,
    element,
    factories,
    factories_height,
    group,
    polygon,
    slot,
    start_token,
    text,
    tile_groups,
)
from games.rules.summer_pavilion.board import (
    COLOURS,
    COSTS,
    ROUNDS,
    SPACES_PER_STAR,
    STAR_COLOUR,
    STARS,
    START_SCORE,
    STRUCTURES,
    SUPPLY_SPACES,
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
        _wild(top + 222, view),
    ]
    label = f"Factory displays, centre and supply, round {view['round']}"
    return document(width, top + 246, *parts, label=label, class_="board table-board")


def _wild(y, view) -> str:
    """Round r's wild colour (rulebook "The wild color"), shown as its tile."""
    return group(
        text(
            30,
            y + 5,
            f"Round {view['round']} of {ROUNDS}: the wild colour is {view['wild']}",
            font_size=14,
            fill="#5a4526",
            font_weight="700",
        ),
        PALETTE.tile(view["wild"], 350, y, 28),
        class_="wild",
    )


def _tiles(counts: dict) -> list[str]:
    return [name for name in COLOURS for _ in range(counts.get(name, 0))]


def _supply(width, top, supply, picks) -> str:
    parts = [
        element(
            "rect",
            x=20,
            y=top,
            width=width - 40,
            height=66,
            rx=10,
            fill="#8c6239",
            stroke="#5d3f22",
        ),
        text(30, top - 6, "Supply", font_size=13, fill="#5a4526", font_weight="700"),
    ]
    step = (width - 60) / SUPPLY_SPACES
    for place in range(SUPPLY_SPACES):
        x = 30 + step * (place + 0.5)
        name = supply[place] if place < len(supply) else None
        parts.append(slot(x, top + 33, 40, "#6f4b2a", "#5d3f22", rx=5))
        if name:
            parts.append(
                PALETTE.tile(
                    name,
                    x,
                    top + 33,
                    36,
                    pick=f"bonus:{name}" if picks else None,
                    title=f"{name} tile in the supply",
                )
            )
    return group(*parts, class_="supply")


def player_svg(view: dict, seat: int, *, picks: bool) -> str:
    """One player's board: stars, structures, corner spaces, and the tiles beside it."""
    player = view["boards"][seat]
    side = Side(view["side"])
    costs = COSTS[side]
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
    for structure in STRUCTURES:
        parts.append(_structure(structure, set(structure.spaces) <= filled))
    for star in range(STARS):
        for space in range(1, SPACES_PER_STAR + 1):
            parts.append(_space(star, space, board[star][space - 1], costs, side, picks))
    parts.append(_corners(player["corners"]))
    if player["has_start_token"]:
        parts.append(start_token(BOARD - 30, BOARD + 40, 30))
    parts.append(_beside(player["beside"], picks))
    label = gettext("Board of player %(number)s: %(points)s points") % {
        "number": seat + 1,
        "points": view["scores"][seat],
    }
    return document(BOARD, BOARD + 70, *parts, label=label, class_="board player-board")


def _space(star, space, placed, costs, side, picks) -> str:
    position = index(star, space)
    cost = costs[position]
    points = diamond(star, space)
    x, y = diamond_middle(star, space)
    printed = STAR_COLOUR[star]
    spot = f"sp:{star}-{space}"
    pick = spot if picks else None
    where = f"{STAR_NAMES[star]} star, space {space} (costs {cost})"
    if placed:
        return group(
            element("title", f"{placed} tile on the {where}"),
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
        element("title", f"the {where}"),
        polygon(points, fill=fill, stroke=ink, stroke_width=1.2),
        text(x, y + 4, str(cost), font_size=12, font_weight="700", text_anchor="middle", fill=ink),
        class_="space empty",
        data_pick=pick,
    )


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
    title = element("title", f"{structure.kind} ({'surrounded' if surrounded else 'open'})")
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
    parts = [text(10, BOARD + 18, "Beside the board:", font_size=13, fill="#5a4526")]
    if not beside:
        parts.append(text(130, BOARD + 18, "no tiles", font_size=13, fill="#8a7a66"))
    parts += tile_groups(
        140,
        BOARD + 40,
        beside,
        PALETTE,
        size=34,
        step=46,
        pick="tile:{}|keep:{}" if picks else None,
        where="beside the board",
    )
    return group(*parts, class_="beside")


def facts(view: dict, names: list[str]) -> list[tuple[str, str]]:
    """The round, the wild colour, the phase, the board side, the bag and the tower."""
    phases = {
        "acquire": gettext("taking tiles"),
        "play": gettext("placing tiles"),
        "round_over": gettext("preparing the next round"),
        "game_over": gettext("game over"),
    }
    side = gettext("grey") if view["side"] == Side.GREY.value else gettext("coloured")
    result = [
        (
            gettext("Round"),
            gettext("%(round)s of %(rounds)s") % {"round": view["round"], "rounds": ROUNDS},
        ),
        (gettext("Wild colour"), colour_name(view["wild"])),
        (gettext("Phase"), phases.get(view["phase"], view["phase"])),
        (gettext("Board side"), side),
        (gettext("Bag"), tiles(view["bag"])),
        (gettext("Tower"), tiles(view["tower"])),
    ]
    if view["bonus_due"]:
        result.append((gettext("Bonus tiles to choose"), str(view["bonus_due"])))
    return result


def tiles(count: int) -> str:
    return ngettext("%(count)s tile", "%(count)s tiles", count) % {"count": count}


def colour_name(name: str) -> str:
    return {
        "purple": gettext("purple"),
        "green": gettext("green"),
        "orange": gettext("orange"),
        "yellow": gettext("yellow"),
        "blue": gettext("blue"),
        "red": gettext("red"),
    }[name]


def _counted(counts) -> str:
    """Tile counts per colour as words: "2 orange and 1 purple"."""
    parts = [
        f"{count} {colour_name(COLOURS[colour])}" for colour, count in enumerate(counts) if count
    ]
    return gettext(" and ").join(parts) if parts else gettext("nothing")


def describe(events: list, player: str) -> str:
    """A move in words, from the rules events it caused: what was taken and from where,
    where a tile was placed and what it scored, what a pass kept."""
    for event in events:
        match event:
            case TilesTaken(source=source, taken=taken, start_token=token):
                where = (
                    gettext("the centre")
                    if source is None
                    else gettext("factory %(number)s") % {"number": source + 1}
                )
                text = gettext("%(player)s took %(tiles)s from %(where)s") % {
                    "player": player,
                    "tiles": _counted(taken),
                    "where": where,
                }
                if token:
                    text += " " + gettext("(start player token, %(lost)s)") % {
                        "lost": points_text(-event.points_lost)
                    }
                return text
            case TilePlaced(star=star, space=space, colour=colour, points=points):
                return gettext(
                    "%(player)s placed %(colour)s on the %(star)s star, space %(space)s "
                    "(%(points)s)"
                ) % {
                    "player": player,
                    "colour": colour_name(COLOURS[colour]),
                    "star": colour_name(STAR_NAMES[star]) if star else gettext("centre"),
                    "space": space,
                    "points": points_text(points),
                }
            case BonusTilesTaken(tiles=taken):
                names = ", ".join(colour_name(COLOURS[c]) for c in taken)
                return gettext("%(player)s took bonus tiles: %(tiles)s") % {
                    "player": player,
                    "tiles": names,
                }
            case Passed(kept=kept, points_lost=lost):
                text = gettext("%(player)s passed, keeping %(tiles)s") % {
                    "player": player,
                    "tiles": _counted(kept),
                }
                if lost:
                    text += f" ({points_text(-lost)})"
                return text
    return player


def points_text(points: int) -> str:
    return ngettext("%(points)s point", "%(points)s points", abs(points)) % {"points": points}


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
    """Phase 1: source, then colour. Phase 2: the tile, the space, the wild tiles spent.
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
                (f"col:{name}", gettext("take %(colour)s") % {"colour": colour_name(name)}),
            ], []
        case "PlaceTile":
            star, space, wilds = command["star"], command["space"], command["wilds"]
            name = COLOURS[command["colour"]]
            cost = COSTS[Side(view["side"])][index(star, space)]
            pay = gettext("pay %(count)s %(colour)s") % {
                "count": cost - wilds,
                "colour": colour_name(name),
            }
            if wilds:
                pay += " " + gettext("+ %(count)s wild %(colour)s") % {
                    "count": wilds,
                    "colour": colour_name(view["wild"]),
                }
            target = f"sp:{star}-{space}"
            star_name = colour_name(STAR_NAMES[star]) if star else gettext("centre")
            return [
                (f"tile:{name}", gettext("place %(colour)s") % {"colour": colour_name(name)}),
                (
                    target,
                    gettext("%(star)s star, space %(space)s") % {"star": star_name, "space": space},
                ),
                (f"wild:{wilds}", pay),
            ], [target]
        case "ChooseBonusTiles":
            return [
                (
                    f"bonus:{COLOURS[c]}",
                    gettext("bonus %(colour)s") % {"colour": colour_name(COLOURS[c])},
                )
                for c in command["colours"]
            ], []
        case "Pass":
            kept = [COLOURS[c] for c in command["keep"]]
            done = (
                gettext("keep %(tiles)s, discard the rest")
                % {"tiles": ", ".join(map(colour_name, kept))}
                if kept
                else gettext("keep nothing, discard the rest")
            )
            return [
                ("pass", gettext("pass (end your turns this round)")),
                *(
                    (
                        f"keep:{name}",
                        gettext("keep one %(colour)s tile") % {"colour": colour_name(name)},
                    )
                    for name in kept
                ),
                ("keep:end", done),
            ], []
    raise ValueError(f"not a Summer Pavilion command: {command['type']}")


def notes(view: dict) -> None:
    """Nothing to add under the boards: every number of this game comes from its rulebook."""
    return None

"""Azul: Summer Pavilion drawn from ``view(state)``: the factory displays, the centre, the
supply, and each player's board laid out from its pieces (``summer_pavilion_pieces``: the
stars, the structures between them, the corner spaces and the tiles beside the board); the
table's facts, a move and the final score in words, and the clicks that make a move."""

from django.utils.translation import pgettext_lazy

from games.boards import words
from games.boards.summer_pavilion_pieces import (
    BOARD,
    PALETTE,
    STAR_NAMES,
    beside_drawing,
    corners_drawing,
    star_drawing,
    structure_drawing,
    tiles_of,
)
from games.boards.svg import (
    centre,
    document,
    element,
    factories,
    factories_height,
    group,
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


def table_svg(view: dict, *, picks: bool) -> str:
    """The factory displays, the centre and the supply."""
    width = 600.0
    displays = [tiles_of(counts) for counts in view["factories"]]
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
        parts.append(star_drawing(star, tuple(board[star]), side, picks))
    for structure in STRUCTURES:
        parts.append(structure_drawing(structure, set(structure.spaces) <= filled))
    parts.append(corners_drawing(player["corners"]))
    if player["has_start_token"]:
        parts.append(start_token(BOARD - 30, BOARD + 58, 30))
    parts.append(beside_drawing(player["beside"], picks))
    label = gettext("Board of player %(number)s: %(points)s") % {
        "number": seat + 1,
        "points": words.points(view["scores"][seat]),
    }
    return document(BOARD, BOARD + 88, *parts, label=label, class_="board player-board")


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

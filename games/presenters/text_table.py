"""The text table (issue 56): the whole position a seat may see, for a screen reader, as
sections of headings, lists and tables, every tile said by its colour or object in words
(nothing told by colour alone). Built from the engine's ``view`` and said with the boards'
own words (``games.boards.words``, ``miyabi_words`` and the boards' helpers), so the text
table and the pictures' labels never disagree.

A section is ``{"id", "heading", "items": [(id, words, counts)], "tables": [...]}``: an
item's ``counts`` (what it holds, by colour or object, in the notation's names) let the
page answer "where is red?" without a request. A table is ``{"caption", "head": [...],
"rows": [[row heading, cell, …], …]}``."""

import random

from games.boards import azul as azul_board
from games.boards import miyabi as miyabi_board
from games.boards import words
from games.boards.miyabi_words import OBJECT_NAMES
from games.boards.summer_pavilion_pieces import PALETTE as PAVILION_PALETTE
from games.boards.summer_pavilion_pieces import STAR_NAMES
from games.boards.words import gettext, ngettext
from games.rules.azul.board import FLOOR_PENALTIES, GREY, wall_colour
from games.rules.miyabi.model import GardenObject
from games.rules.summer_pavilion.board import COLOURS as PAVILION_COLOURS


def text_table_context(game, context: dict) -> dict:
    """What the text table adds to the game page's context (``game_context``): the
    position in sections, the legal moves in words, and the names a "where" question
    may use."""
    seat = context["seat"]
    viewer = seat.position if seat is not None else None
    table = context["table"]
    return {
        "sections": sections(game.game_type, context["view"], context["names"], viewer),
        "said_moves": [
            {
                "move": m["move"],
                "words": " → ".join(label for _, label in m["steps"]),
                "scores": _scores_at_once(table, m["move"]),
            }
            for m in context["moves"]
        ],
        "where_names": colour_names(game.game_type),
    }


# The tiles a move would draw (a round ending) are not known: the points a move scores at
# once are worked out with any draw, the same one each time.
WHATEVER_IS_DRAWN = 0


def _scores_at_once(table, move: str) -> str:
    """What a legal move scores at once for the player to move, in words (Azul's pattern
    lines score only when the round ends: nothing at once, unless the move ends it)."""
    engine, seat = table.engine, table.to_move()
    _, after = engine.decide_and_evolve(
        table.state, engine.parse(move), random.Random(WHATEVER_IS_DRAWN)
    )
    gained = engine.scores(after)[seat] - engine.scores(table.state)[seat]
    if not gained:
        return gettext("scores nothing at once")
    return gettext("scores %(points)s at once") % {"points": words.points(gained)}


def sections(game_type: str, view: dict, names: list[str], viewer: int | None) -> list[dict]:
    """The position of a game of ``game_type`` in sections, the viewer's own board first
    among the players'."""
    table, player = {
        "azul": (_azul_table, _azul_player),
        "summer-pavilion": (_pavilion_table, _pavilion_player),
        "miyabi": (_miyabi_table, _miyabi_player),
    }[game_type]
    seats = list(range(len(names)))
    if viewer is not None:
        seats.sort(key=lambda seat: seat != viewer)
    return table(view) + [player(view, seat, _whose(names, seat, viewer)) for seat in seats]


def colour_names(game_type: str) -> dict[str, list[str]]:
    """The colours (or Miyabi's objects) a "where" question may name, by their notation
    name: that name, the notation's letter and the word of the reader's language (the
    first said back)."""
    if game_type == "miyabi":
        return {
            o.name.lower(): [str(OBJECT_NAMES[o]), o.name.lower(), miyabi_board.LETTERS[o]]
            for o in GardenObject
        }
    palette = azul_board.PALETTE if game_type == "azul" else PAVILION_PALETTE
    names = azul_board.NAMES if game_type == "azul" else PAVILION_COLOURS
    return {name: [words.colour(name, 1), name, palette.letter(name)] for name in names}


def _whose(names: list[str], seat: int, viewer: int | None) -> str:
    if seat == viewer:
        # Translators: the heading of the reader's own board on the text table.
        return gettext("%(name)s (you)") % {"name": names[seat]}
    return names[seat]


def _section(key: str, heading: str, items=(), tables=()) -> dict:
    return {"id": key, "heading": heading, "items": list(items), "tables": list(tables)}


def _held(counts: dict[str, int], extra: list[str] = ()) -> str:
    said = [words.tiles(count, name) for name, count in counts.items() if count]
    return words.listing(said + list(extra)) or gettext("no tiles")


def _by_colour(counts: list[int]) -> dict[str, int]:
    return {azul_board.NAMES[c]: n for c, n in enumerate(counts) if n}


def _azul_table(view: dict) -> list[dict]:
    items = [
        (f"f{number}", _factory(number, _held(_by_colour(tiles))), _by_colour(tiles))
        for number, tiles in enumerate(view["factories"], 1)
    ]
    marker = [gettext("the first player marker")] if view["marker_in_centre"] else []
    centre = _by_colour(view["centre"])
    items.append(("c", _centre(_held(centre, marker)), centre))
    items.append(("bag", gettext("Bag: %(tiles)s") % {"tiles": words.tiles(view["bag"])}, {}))
    items.append(
        ("lid", gettext("Box lid: %(tiles)s") % {"tiles": _held(_by_colour(view["lid"]))}, {})
    )
    return [_section("table", gettext("Factory displays and the centre"), items)]


def _factory(number: int, held: str) -> str:
    return gettext("Factory %(number)s: %(tiles)s") % {"number": number, "tiles": held}


def _centre(held: str) -> str:
    return gettext("Centre: %(tiles)s") % {"tiles": held}


def _azul_player(view: dict, seat: int, name: str) -> dict:
    board = view["boards"][seat]
    grey = view["wall_side"] == GREY
    lines = []
    for number, line in enumerate(board["lines"], 1):
        held = (
            words.tiles(line["count"], azul_board.NAMES[line["colour"]])
            if line["count"]
            else gettext("empty")
        )
        room = ngettext("%(count)s space", "%(count)s spaces", number) % {"count": number}
        lines.append([gettext("line %(line)s") % {"line": number}, room, held])
    wall = []
    for row, placed in enumerate(board["wall"], 1):
        cells = []
        for column, tile in enumerate(placed):
            if tile is not None:
                cells.append(words.colour(azul_board.NAMES[tile], 1))
            elif grey:
                cells.append(gettext("empty"))
            else:
                # Translators: an empty space of the coloured wall, with its printed colour.
                cells.append(
                    gettext("empty (%(colour)s)")
                    % {"colour": words.colour(azul_board.NAMES[wall_colour(row - 1, column)], 1)}
                )
        wall.append([gettext("row %(row)s") % {"row": row}, *cells])
    floor = [words.colour(azul_board.NAMES[t], 1) for t in board["floor"]]
    if board["marker"]:
        floor.insert(0, gettext("the first player marker"))
    lost = sum(FLOOR_PENALTIES[: len(floor)])
    items = [
        (
            f"p{seat}-score",
            gettext("Score: %(points)s") % {"points": words.points(view["scores"][seat])},
            {},
        ),
        (
            f"p{seat}-floor",
            gettext("Floor line: %(tiles)s (%(points)s)")
            % {"tiles": words.listing(floor) or gettext("empty"), "points": words.points(lost)},
            {},
        ),
    ]
    return _section(
        f"p{seat}",
        name,
        items,
        tables=[
            {
                "caption": gettext("Pattern lines"),
                "head": [gettext("Line"), gettext("Size"), gettext("Tiles")],
                "rows": lines,
            },
            {
                "caption": gettext("Wall"),
                "head": [gettext("Row"), *[str(c) for c in range(1, 6)]],
                "rows": wall,
            },
        ],
    )


def _pavilion_table(view: dict) -> list[dict]:
    items = [
        (f"f{number}", _factory(number, _held(tiles)), tiles)
        for number, tiles in enumerate(view["factories"], 1)
    ]
    token = [gettext("the start player marker")] if view["start_token_in_centre"] else []
    items.append(("c", _centre(_held(view["centre"], token)), view["centre"]))
    supply = {}
    for name in view["supply"]:
        if name is not None:
            supply[name] = supply.get(name, 0) + 1
    items += [
        ("supply", gettext("Supply: %(tiles)s") % {"tiles": _held(supply)}, {}),
        (
            "wild",
            gettext("Wild colour: %(colour)s") % {"colour": words.colour(view["wild"], 2)},
            {},
        ),
        ("bag", gettext("Bag: %(tiles)s") % {"tiles": words.tiles(view["bag"])}, {}),
        ("tower", gettext("Tower: %(tiles)s") % {"tiles": words.tiles(view["tower"])}, {}),
    ]
    return [_section("table", gettext("Factory displays, the centre and the supply"), items)]


def _pavilion_player(view: dict, seat: int, name: str) -> dict:
    board = view["boards"][seat]
    stars = [
        [
            words.star(STAR_NAMES[star]),
            *[words.colour(tile, 1) if tile else gettext("empty") for tile in spaces],
        ]
        for star, spaces in enumerate(board["stars"])
    ]
    items = [
        (
            f"p{seat}-score",
            gettext("Score: %(points)s") % {"points": words.points(view["scores"][seat])},
            {},
        ),
        (
            f"p{seat}-beside",
            gettext("Beside the board: %(tiles)s") % {"tiles": _held(board["beside"])},
            {},
        ),
    ]
    if board["has_start_token"]:
        items.append((f"p{seat}-token", gettext("Has the start player marker"), {}))
    if board["passed"]:
        items.append((f"p{seat}-passed", gettext("Has passed this round"), {}))
    head = [gettext("Star"), *[gettext("space %(space)s") % {"space": n} for n in range(1, 7)]]
    return _section(
        f"p{seat}", name, items, tables=[{"caption": gettext("Stars"), "head": head, "rows": stars}]
    )


def _miyabi_table(view: dict) -> list[dict]:
    kinds: dict[str, tuple[dict, int]] = {}
    for tile in view["display"]:
        code = miyabi_board.tile_code(tile)
        kinds[code] = (tile, kinds[code][1] + 1 if code in kinds else 1)
    items = []
    for code, (tile, count) in kinds.items():
        said = f"{code}, {miyabi_board.tile_words(tile)}"
        if count > 1:
            said = gettext("%(tile)s (%(count)s of them)") % {"tile": said, "count": count}
        items.append((code, said, {tile["object"]: tile["count"]}))
    items.append(("box", gettext("Box: %(tiles)s") % {"tiles": words.tiles(view["box"])}, {}))
    bonus = []
    for tile in view["bonus_tiles"]:
        garden_object = GardenObject[tile["object"].upper()]
        taken = tile["taken_by"]
        bonus.append(
            [
                str(OBJECT_NAMES[garden_object]),
                words.points(tile["points"]),
                gettext("taken") if taken is not None else gettext("still there"),
            ]
        )
    return [
        _section(
            "table",
            gettext("Displayed tiles"),
            items,
            tables=[
                {
                    "caption": gettext("Bonus tiles (level 5)"),
                    "head": [gettext("Object"), gettext("Points"), gettext("Bonus tile")],
                    "rows": bonus,
                }
            ],
        )
    ]


def _miyabi_player(view: dict, seat: int, name: str) -> dict:
    garden = view["gardens"][seat]
    rows = []
    for row, levels in enumerate(garden["heights"]):
        label = str(OBJECT_NAMES[GardenObject(row)])
        rows.append(
            [
                label,
                *[
                    miyabi_board.square_words(row, column, level, garden["objects"][row][column])
                    for column, level in enumerate(levels)
                ],
            ]
        )
    lanterns = [miyabi_board.COLUMNS[c] for c, lit in enumerate(garden["lanterns"]) if lit]
    lit = (
        gettext("Lanterns on columns: %(columns)s") % {"columns": words.listing(lanterns)}
        if lanterns
        else gettext("No lantern lit yet")
    )
    items = [
        (
            f"p{seat}-score",
            gettext("Score: %(points)s") % {"points": words.points(view["scores"][seat])},
            {},
        ),
        (f"p{seat}-lanterns", lit, {}),
    ]
    if garden["passed"]:
        items.append((f"p{seat}-passed", gettext("Has passed this phase"), {}))
    head = [gettext("Row"), *miyabi_board.COLUMNS]
    return _section(
        f"p{seat}", name, items, tables=[{"caption": gettext("Garden"), "head": head, "rows": rows}]
    )

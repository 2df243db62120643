"""The boards of a game as one PNG picture for the HTML email, drawn from the same SVG
boards as the game's page (``games.boards``) and rendered on the server with resvg (mail
clients show no SVG). The reader's own board comes right after the table, full width; the
other players' boards follow two to a row."""

import re

import resvg_py

from games.boards import board_of
from games.boards.svg import element, text

# Width of the picture in pixels: twice what a phone shows (390 px) for a sharp picture,
# and as wide as the HTML email's column on a desktop (600 px) with room to spare.
WIDTH = 600
GAP = 12
CAPTION = 28
BACKGROUND = "#ffffff"
VIEW_BOX = re.compile(r'viewBox="\s*[-\d.]+\s+[-\d.]+\s+([\d.]+)\s+([\d.]+)\s*"')


def boards_png(game_type: str, view, captions: dict[int, str], reader: int | None) -> bytes:
    """The table and every seat's board (``captions``: seat -> its caption), the reader's
    first, as PNG bytes."""
    board = board_of(game_type)
    parts, y = [], 0.0
    panel, height = _placed(board.table_svg(view, picks=False), 0, y, WIDTH)
    parts.append(panel)
    y += height + GAP
    others = [seat for seat in sorted(captions) if seat != reader]
    rows = [[reader]] if reader in captions else []
    rows += [others[index : index + 2] for index in range(0, len(others), 2)]
    column = (WIDTH - GAP) / 2
    for row in rows:
        width = WIDTH if row == [reader] else column
        row_height = 0.0
        for index, seat in enumerate(row):
            x = index * (column + GAP)
            caption = text(x + 4, y + CAPTION - 8, captions[seat], font_size=17, fill="#222")
            panel, height = _placed(
                board.player_svg(view, seat, picks=False), x, y + CAPTION, width
            )
            parts += [caption, panel]
            row_height = max(row_height, CAPTION + height + GAP)
        y += row_height
    picture = element(
        "svg",
        "".join(parts),
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {WIDTH} {y:.0f}",
        width=WIDTH,
        height=f"{y:.0f}",
        font_family="DejaVu Sans, Helvetica, Arial, sans-serif",
    )
    return bytes(resvg_py.svg_to_bytes(svg_string=picture, background=BACKGROUND))


def _placed(svg: str, x: float, y: float, width: float) -> tuple[str, float]:
    """A board's SVG document placed at (x, y), scaled to ``width``; and its height."""
    found = VIEW_BOX.search(svg)
    if found is None:
        raise ValueError("a board picture without a viewBox")
    height = width * float(found.group(2)) / float(found.group(1))
    placed = svg.replace(
        "<svg ", f'<svg x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}" ', 1
    )
    return placed, height

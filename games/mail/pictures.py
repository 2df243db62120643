"""The boards of a game as one PNG picture for the HTML email, drawn from the same SVG
boards as the game's page (``games.boards``) and rendered on the server with resvg (mail
clients show no SVG). The reader's own board comes right after the table, full width; the
other players' boards follow two to a row.

Issue 33: a picture costs 100–300 ms of CPU to rasterize, most of it spent by resvg drawing
its shapes and text, in proportion to its pixels (``bench/email_pictures.py``). So a
picture is drawn once per drawing (the game's view, the reader's seat that puts their
board first, the captions in the reader's language) and kept in the shared cache: every
further email of it (another reader who sees the same, a reminder, the deadline warning, a
confirmation) costs a cache read. And a picture is a palette PNG of a few dozen colours (the
boards use a handful; text's anti-aliasing needs the rest): a third of an RGBA PNG's bytes."""

import hashlib
import io
import re

import resvg_py
from django.core.cache import cache
from PIL import Image

from games.boards import board_of
from games.boards.svg import element, text

# The layout's width in SVG units, as wide as the HTML email's column on a desktop (600 px).
WIDTH = 600
# The picture's width in pixels: twice what a phone shows of it (390 px), for a sharp
# picture on a phone's screen.
PIXELS = 780
GAP = 12
CAPTION = 28
BACKGROUND = "#ffffff"
# Enough for the boards' colours and smooth text; more adds bytes, not looks.
COLOURS = 32
# A picture of a position stays the same forever; a day covers its reminders and warnings.
KEPT_FOR = 24 * 3600
# Part of every cached picture's name: change it when the boards' drawing changes, so that no
# email shows a picture drawn by the code before.
DRAWN_BY = f"2026-11 {PIXELS} {COLOURS}"
VIEW_BOX = re.compile(r'viewBox="\s*[-\d.]+\s+[-\d.]+\s+([\d.]+)\s+([\d.]+)\s*"')

_drawn_here: set[str] = set()


def boards_png(game_type: str, view, captions: dict[int, str], reader: int | None) -> bytes:
    """The table and every seat's board (``captions``: seat -> its caption), the reader's
    first, as PNG bytes: from the cache, without drawing anything, when the same picture
    (the same game, view, reader's seat and captions) was drawn before."""
    drawing = repr((DRAWN_BY, game_type, view, reader, sorted(captions.items())))
    key = "mail-picture:" + hashlib.sha256(drawing.encode()).hexdigest()
    png = cache.get(key)
    if png is None:
        png = rasterized(boards_svg(game_type, view, captions, reader))
        cache.set(key, png, KEPT_FOR)
        _drawn_here.add(key)
    return png


def boards_svg(game_type: str, view, captions: dict[int, str], reader: int | None) -> str:
    """The picture as one SVG document ``WIDTH`` units wide."""
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
    return element(
        "svg",
        "".join(parts),
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {WIDTH} {y:.0f}",
        width=WIDTH,
        height=f"{y:.0f}",
        font_family="DejaVu Sans, Helvetica, Arial, sans-serif",
    )


def rasterized(picture: str) -> bytes:
    """``picture`` drawn ``PIXELS`` wide as a palette PNG. Shapes are drawn without
    anti-aliasing (the boards are mostly upright squares; at twice the shown size the mail
    client's scaling smooths the rest) and text with it: a third fewer colours and bytes,
    and a fifth less CPU."""
    png = resvg_py.svg_to_bytes(
        svg_string=picture,
        background=BACKGROUND,
        zoom=PIXELS / WIDTH,
        shape_rendering="crisp_edges",
    )
    image = Image.open(io.BytesIO(png)).convert("RGB")
    palette = image.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, "PNG", compress_level=6)
    return out.getvalue()


def forget() -> None:
    """Drop the pictures this process drew from the cache (benches and tests)."""
    cache.delete_many(list(_drawn_here))
    _drawn_here.clear()


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

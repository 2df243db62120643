"""The boards' pictures for the emails (issue 33): a picture drawn from what a process kept
of the pictures before it (``games.notify.channels.email.raster.Sheet``) is the picture
drawn whole, and a strict PNG reader accepts it."""

import io
import random
import struct
import zlib

import pytest
from PIL import Image, ImageChops

from games.boards import board_of
from games.notify.channels.email import pictures, raster
from games.registry import GAME_TYPES


def pictures_of_a_game(slug: str, players: int, moves: int) -> list[tuple[str, int]]:
    """The SVG of the table and of every board, at both widths, every third position of a
    game played at random: what a worker draws, position after position."""
    engine = GAME_TYPES[slug].engine
    rng = random.Random(33)
    options = {key: values[0] for key, values in engine.OPTIONS.items()}
    state = engine.replay(engine.start(players, options, rng))
    board = board_of(slug)
    drawn = []
    for move in range(moves):
        if move % 3 == 0:
            view = engine.view(state)
            svgs = [board.table_svg(view, picks=False)]
            svgs += [board.player_svg(view, seat, picks=False) for seat in range(players)]
            drawn += [(svg, width) for svg in svgs for width in (pictures.WIDE, pictures.NARROW)]
        if engine.is_over(state):
            break
        command = rng.choice(engine.legal_commands(state))
        for event in engine.decide(state, command, rng):
            state = engine.evolve(state, event)
    return drawn


def strictly_read(png: bytes) -> tuple[int, int, bytes]:
    """Width, height and rows of a palette PNG, its deflated data's checksum checked."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    at, chunks = 8, {}
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        assert struct.unpack(">I", png[at + 8 + length : at + 12 + length])[0] == zlib.crc32(
            kind + data
        )
        chunks[kind] = chunks.get(kind, b"") + data
        at += 12 + length
    width, height, depth, colour_type = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (depth, colour_type) == (8, 3), "8-bit palette"
    return width, height, zlib.decompress(chunks[b"IDAT"])


def rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize(("slug", "players"), [("azul", 4), ("summer-pavilion", 3), ("miyabi", 2)])
@pytest.mark.parametrize("kept", [raster.BANDS_KEPT, 1], ids=["kept", "started-anew"])
def test_a_picture_drawn_from_what_was_kept_is_the_picture_drawn_whole(
    slug, players, kept, monkeypatch
):
    monkeypatch.setattr(raster, "BANDS_KEPT", kept)
    svgs = pictures_of_a_game(slug, players, 40)
    raster.sheet_of.cache_clear()
    in_turn = [raster.png(svg, width) for svg, width in svgs]
    for png, (svg, width) in zip(in_turn, svgs, strict=True):
        raster.sheet_of.cache_clear()
        whole = raster.png(svg, width)
        assert ImageChops.difference(rgb(png), rgb(whole)).getbbox() is None
        pixels, rows, data = strictly_read(png)
        assert pixels == width
        assert len(data) == rows * (width + 1), "each row after its filter byte"
        assert len(png) <= 60 * 1024


def test_a_translucent_shape_over_a_kept_band_is_blended_over_what_is_drawn_there():
    def svg(extra: str) -> str:
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            '<rect x="0" y="0" width="100" height="20" fill="#1f5fae"/>'
            '<rect x="0" y="10" width="100" height="60" fill="rgba(255,255,255,.45)"/>'
            f"{extra}</svg>"
        )

    raster.sheet_of.cache_clear()
    raster.png(svg(""), 100)
    # Only the bands of the new circle are drawn again; the translucent rectangle reads
    # its colour in the first band, kept, and must blend over the blue drawn there.
    changed = raster.png(svg('<circle cx="50" cy="80" r="5" fill="#c62f2f"/>'), 100)
    raster.sheet_of.cache_clear()
    whole = raster.png(svg('<circle cx="50" cy="80" r="5" fill="#c62f2f"/>'), 100)
    assert ImageChops.difference(rgb(changed), rgb(whole)).getbbox() is None

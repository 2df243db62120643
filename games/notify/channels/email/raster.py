"""The boards' SVG drawn as a palette PNG with Pillow, for the emails (mail clients show no
SVG).

Issue 33: resvg was slow for these pictures: it draws into a full RGBA canvas, encodes it
as PNG, and the picture then had to be decoded and reduced to a palette. The boards draw with
a handful of shapes (rectangles, circles, polygons, one kind of arched path) and short
texts (``games.boards``), so this module draws exactly those, straight into a palette
image: shapes without anti-aliasing (as resvg's ``crisp_edges`` drew them; at twice the
shown size the mail client's scaling smooths them), text with four levels of anti-aliasing
blended over the colour beneath it.

A cold turn email's pictures spend their time drawing and deflating the PNG more than
writing and parsing the boards' SVG (``bench/email_pictures.py``; the figures are in
docs/service.md, "The boards' pictures in the emails"). So each element's drawing is worked
out once per process at each place and size (``plan``: a board draws the same spaces at the
same places position after position), texts and rounded rectangles are kept in their
palette entries (``lettered``, ``stamped``), and the PNG is deflated at zlib's level 2. And
a process keeps, per board and width, what it drew before (``Sheet``): the drawings of each
piece of the SVG (read with two regular expressions, no XML tree), and the picture's rows
deflated in bands, each under the drawings that touch it. A picture draws and deflates only
the bands whose drawings changed (a move changes a few tiles), and writes the PNG around
the kept ones: the pictures come out pixel for pixel as drawn whole, a little heavier
(bands deflated apart), at a fraction of the time.

It reads only the SVG the boards write: an element or attribute it does not know is
skipped (titles, classes, data attributes), never guessed."""

import itertools
import math
import re
import struct
import threading
import zlib
from dataclasses import dataclass, field
from functools import cache, lru_cache
from html import unescape
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from games.notify.channels.email.raster_paint import blend, paint, path_points, rgb

VIEW_BOX = re.compile(r'<svg\b[^>]*?\sviewBox="([^"]*)"')
# The elements drawn, in the order they are written: a shape's attributes, or a text's
# attributes and words (the boards write no element inside a shape or a text).
ELEMENT = re.compile(r"<(rect|circle|polygon|path)\b([^>]*)>|<text\b([^>]*)>([^<]*)</text>")
ATTRIBUTE = re.compile(r'([\w:-]+)="([^"]*)"')
FONTS = Path("/usr/share/fonts/truetype/dejavu")
# Text's coverage drawn in these steps (of 255): the first three blend the text's colour
# into the colour beneath, the last is the text's colour itself.
COVERAGE = ((40, 0.25), (100, 0.5), (160, 0.75), (215, 1.0))
# Pillow's lookup table from coverage to its step (a table is applied in C, a function per
# pixel is not).
STEPS = [sum(value >= threshold for threshold, _ in COVERAGE) for value in range(256)]
INKED = [255 if step else 0 for step in STEPS]
ANYWHERE = [0] + [255] * 255
# zlib's level 2: well under half of level 6's time on these pictures, for some half again
# the bytes (the figures are in docs/service.md, "The boards' pictures in the emails").
COMPRESS_LEVEL = 2
# A picture's rows are deflated and kept in bands of this many rows (``Sheet``).
BAND = 16
# Per sheet, the SVG pieces and bands kept; past them it starts anew. A band deflates to
# about 500 bytes: 2 MB a sheet at most, and a process draws some 20 sheets (3 games, 2
# widths, the tables' heights).
PIECES_KEPT = 4096
BANDS_KEPT = 4096
# A sheet's palette starts anew past this many colours, so that a picture's new colours
# (64 at most on the boards) always find a free entry.
COLOURS_KEPT = 192
SIGNATURE = b"\x89PNG\r\n\x1a\n"
# A raw deflate block that ends the stream (final, fixed codes, nothing in it).
LAST_BLOCK = b"\x03\x00"
# The rows a drawing may paint (top, bottom) and the row it reads a colour at.
Rows = tuple[int, int, int]
# Each drawing's number, never given twice (an ``id`` is, once its object is gone): a kept
# band is named by the numbers of the drawings that touch it.
SERIALS = itertools.count()


@cache
def font(pixels: int, bold: bool) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans (the boards' first font) at ``pixels``, loaded once per process;
    Pillow's own font where DejaVu is not installed."""
    path = FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    if path.exists():
        return ImageFont.truetype(str(path), pixels)
    return ImageFont.load_default(pixels)


def png(svg: str, width: int, background: str = "#ffffff") -> bytes:
    """The SVG document ``svg`` drawn ``width`` pixels wide as a palette PNG."""
    box = [float(v) for v in VIEW_BOX.search(svg).group(1).split()]
    scale = width / box[2]
    height = max(1, round(box[3] * scale))
    sheet = sheet_of(width, height, (scale, -box[0] * scale, -box[1] * scale), background)
    with sheet.lock:
        return sheet.picture(sheet.pieces_of(svg))


@lru_cache(maxsize=32)
def sheet_of(width: int, height: int, transform: tuple, background: str) -> "Sheet":
    """The sheet of the pictures of this size, drawn at ``transform`` (scale, dx, dy)."""
    return Sheet(width, height, transform, background)


class Sheet:
    """What a process keeps of the pictures of one board at one width, so that a picture
    costs what changed since the pictures before it: the drawings of its SVG's pieces
    (a board writes the same spaces, tiles and labels position after position, each
    piece of its SVG from one ``<g`` to the next), and its rows deflated in bands of
    ``BAND``, each under the drawings that touch it. A band whose drawings are all as
    before is neither drawn nor deflated again: the board's frame, its empty spaces and
    labels, and every band the last move left alone. The palette is the sheet's, so that
    a kept band's entries mean the same colours in every picture.

    A band that is not kept is drawn with every drawing that touches it, in the SVG's
    order; a drawing blended over the colour beneath it reads that colour in another band
    maybe, which is then drawn as well (``draw``): the picture is the same as one drawn
    whole (``tests/mail/test_raster.py``)."""

    def __init__(self, width: int, height: int, transform: tuple, background: str) -> None:
        self.width, self.height = width, height
        self.transform = transform
        self.background = background
        self.lock = threading.Lock()
        self.pieces: dict[str, tuple] = {}
        self.renew()

    def renew(self) -> None:
        """A new palette, and no band kept (their entries were the old palette's)."""
        self.palette = Palette()
        self.palette.index(rgb(self.background))
        self.bands: dict[tuple, tuple[bytes, int, int]] = {}

    def pieces_of(self, svg: str) -> list["Piece"]:
        """What ``svg`` draws, piece by piece."""
        found = []
        for written in svg.split("<g "):
            piece = self.pieces.get(written)
            if piece is None:
                if len(self.pieces) >= PIECES_KEPT:
                    self.pieces.clear()
                piece = self.pieces[written] = self.piece(written)
            found.append(piece)
        return found

    def piece(self, written: str) -> "Piece":
        drawings = read(written, *self.transform)
        last = self.height - 1
        spans = tuple(
            (max(top, 0) // BAND, min(bottom, last) // BAND, min(max(probe, 0), last) // BAND)
            for top, bottom, probe in (drawing.rows for drawing in drawings)
        )
        touching: dict[int, list[int]] = {}
        for drawing, (first, end, _probe) in zip(drawings, spans, strict=True):
            for band in range(first, end + 1):
                touching.setdefault(band, []).append(drawing.serial)
        bands = tuple((band, tuple(serials)) for band, serials in touching.items())
        return Piece(drawings, spans, bands)

    def picture(self, pieces: list["Piece"]) -> bytes:
        """The PNG of ``pieces``: the kept bands, and the others drawn and deflated."""
        if len(self.palette.entries) > COLOURS_KEPT or len(self.bands) >= BANDS_KEPT:
            self.renew()
        touching: list[list[int]] = [[] for _ in range((self.height - 1) // BAND + 1)]
        for piece in pieces:
            for band, serials in piece.bands:
                touching[band] += serials
        keys = [(band, tuple(serials)) for band, serials in enumerate(touching)]
        missing = [band for band, key in enumerate(keys) if key not in self.bands]
        if missing:
            self.draw(pieces, missing, keys)
        return self.encode([self.bands[key] for key in keys])

    def draw(self, pieces: list["Piece"], missing: list[int], keys: list) -> None:
        """Draw the ``missing`` bands and keep them deflated: every drawing that touches
        them, and the bands those drawings read a colour in, until none is left out."""
        drawings = [drawing for piece in pieces for drawing in piece.drawings]
        spans = [span for piece in pieces for span in piece.spans]
        needed = set(missing)
        grown = True
        while grown:
            grown = False
            for first, end, probe in spans:
                if probe not in needed and not needed.isdisjoint(range(first, end + 1)):
                    needed.add(probe)
                    grown = True
        canvas = Canvas(self.width, self.height, self.background, self.palette)
        for drawing, (first, end, _probe) in zip(drawings, spans, strict=True):
            if not needed.isdisjoint(range(first, end + 1)):
                drawing.paint(canvas)
        deflate = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
        # Each row after its filter byte (0: none): the picture pasted one pixel to the
        # right of a column of zeros.
        width = self.width + 1
        framed = Image.new("P", (width, self.height), 0)
        framed.im.paste(canvas.image.im, (1, 0, width, self.height))
        pixels = memoryview(framed.tobytes())
        for band in missing:
            rows = pixels[band * BAND * width : min((band + 1) * BAND, self.height) * width]
            # A full flush: the band's deflated bytes refer to none before them, so they
            # follow any other band's in a picture.
            self.bands[keys[band]] = (
                deflate.compress(rows) + deflate.flush(zlib.Z_FULL_FLUSH),
                zlib.adler32(rows),
                len(rows),
            )

    def encode(self, bands: list[tuple[bytes, int, int]]) -> bytes:
        """The PNG file of the deflated ``bands``, in the sheet's palette."""
        check = 1
        for _deflated, adler, length in bands:
            check = adler32_combine(check, adler, length)
        data = b"".join(
            (b"\x78\x01", *(deflated for deflated, _, _ in bands), LAST_BLOCK)
        ) + check.to_bytes(4, "big")
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 3, 0, 0, 0)
        return b"".join(
            (
                SIGNATURE,
                png_chunk(b"IHDR", header),
                png_chunk(b"PLTE", self.palette.chunk()),
                png_chunk(b"IDAT", data),
                png_chunk(b"IEND", b""),
            )
        )


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece of SVG as a sheet draws it: its drawings, the bands each touches (the
    first, the last, and the one it reads a colour in), and each band's drawings."""

    drawings: tuple
    spans: tuple[tuple[int, int, int], ...]
    bands: tuple[tuple[int, tuple[int, ...]], ...]


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
    )


def adler32_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 checksum of two byte strings one after the other, from the first's,
    the second's and the second's ``length`` (zlib's ``adler32_combine``)."""
    base = 65521
    rest = length % base
    low = first & 0xFFFF
    high = rest * low % base
    low = (low + (second & 0xFFFF) + base - 1) % base
    high = (high + (first >> 16) + (second >> 16) + base - rest) % base
    return high << 16 | low


def read(piece: str, scale: float, dx: float, dy: float) -> tuple:
    """What a piece of SVG draws, at ``scale`` and moved by (dx, dy)."""
    found = []
    for shape, attributes, lettering, words in ELEMENT.findall(piece):
        named = tuple(
            (name, unescape(value) if "&" in value else value)
            for name, value in ATTRIBUTE.findall(attributes or lettering)
        )
        drawn = plan(shape or "text", named, unescape(words).strip(), scale, dx, dy)
        if drawn is not None:
            found.append(drawn)
    return tuple(found)


def reach(top: float, bottom: float, at: tuple[float, float], margin: float = 0) -> Rows:
    """The ``Rows`` of a drawing from ``top`` to ``bottom`` that reads a colour ``at``,
    with room for strokes (``margin``) and rounding."""
    probe = int(at[1])
    return (
        math.floor(min(top, probe) - margin) - 2,
        math.ceil(max(bottom, probe) + margin) + 2,
        probe,
    )


Paint = tuple[tuple[int, int, int], float]


@dataclass(frozen=True, slots=True)
class Look:
    """A shape's fill and stroke (colour and opacity), the share of its stroke that is
    dashes (1 for a whole one), the stroke's width in pixels, and the point a translucent
    colour is blended over."""

    fill: Paint | None
    stroke: Paint | None
    dashes: float
    width: int
    at: tuple[float, float]


def look(node: dict, scale: float, at: tuple[float, float]) -> Look:
    """The ``Look`` of a shape's attributes ``node``, ``scale`` pixels to the unit."""
    fill, stroke = paint(node.get("fill", "#000")), paint(node.get("stroke"))
    if stroke is None:
        return Look(fill, None, 1, 0, at)
    dashes = node.get("stroke-dasharray")
    share = 1.0
    if dashes:
        on, off = (float(v) for v in dashes.replace(",", " ").split()[:2])
        share = on / (on + off)
    return Look(fill, stroke, share, max(1, round(float(node.get("stroke-width", 1)) * scale)), at)


class Palette:
    """The colours of a sheet's pictures, each at its entry for good: a band kept deflated
    (``Sheet``) holds entries, so they mean the same colours in every picture of it."""

    def __init__(self) -> None:
        self.colours: dict[tuple[int, int, int], int] = {}
        self.entries: list[tuple[int, int, int]] = []
        self.inks: dict[tuple, tuple[int, ...]] = {}

    def index(self, colour: tuple[int, int, int]) -> int:
        """The palette entry of ``colour`` (the nearest one when all 256 are taken)."""
        found = self.colours.get(colour)
        if found is not None:
            return found
        if len(self.colours) < 256:
            self.colours[colour] = len(self.entries)
            self.entries.append(colour)
            return self.colours[colour]
        return min(
            self.colours.items(),
            key=lambda item: sum((a - b) ** 2 for a, b in zip(item[0], colour, strict=True)),
        )[1]

    def chunk(self) -> bytes:
        return b"".join(bytes(colour) for colour in self.entries)


class Canvas:
    """A palette image in a sheet's palette, drawn on element by element."""

    def __init__(self, width: int, height: int, background: str, palette: Palette) -> None:
        self.palette = palette
        self.entries = palette.entries
        self.index = palette.index
        self.image = Image.new("P", (width, height), self.index(rgb(background)))
        self.pen = ImageDraw.Draw(self.image)

    def ink(self, found: Paint | None, x: float, y: float) -> int | None:
        """The palette entry of a fill or stroke; a translucent colour is blended over
        the colour at (x, y); ``None`` for none."""
        if found is None:
            return None
        colour, alpha = found
        if alpha == 1:
            return self.index(colour)
        return self.index(blend(self.under(x, y), colour, alpha))

    def under(self, x: float, y: float) -> tuple[int, int, int]:
        """The colour drawn at (x, y) so far."""
        width, height = self.image.size
        at = self.image.im.getpixel(
            (min(max(int(x), 0), width - 1), min(max(int(y), 0), height - 1))
        )
        return self.entries[at]

    def inked(self, look: Look) -> tuple[int | None, int | None]:
        """The palette entries of a shape's fill and stroke. A dashed stroke is drawn whole
        in its dashes' colour diluted by their gaps over the colour at ``look.at``: at
        this size the eye sees the same, and a ring costs a seventieth of its dashes."""
        x, y = look.at
        fill = self.ink(look.fill, x, y)
        stroke = self.ink(look.stroke, x, y)
        if stroke is not None and look.dashes < 1:
            stroke = self.index(blend(self.under(x, y), self.entries[stroke], look.dashes))
        return fill, stroke

    def stamp(self, box, radius: int, fill, stroke, width: int) -> None:
        """A rounded rectangle, pasted from its shape in its colours (``stamped``)."""
        size = (box[2] - box[0] + 1, box[3] - box[1] + 1)
        inks, mask = stamped(size, radius, fill, stroke, width)
        self.image.im.paste(inks, (box[0], box[1], box[0] + size[0], box[1] + size[1]), mask)

    def shades(self, beneath: tuple[int, int, int], colour: tuple[int, int, int]) -> tuple:
        """The palette entries of ``colour`` blended over ``beneath`` at each step of a
        text's coverage."""
        key = (beneath, colour)
        inks = self.palette.inks
        if key not in inks:
            inks[key] = tuple(self.index(blend(beneath, colour, share)) for _, share in COVERAGE)
        return inks[key]


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle in pixels (inclusive corners), rounded when ``radius`` ≥ 1."""

    box: tuple[int, int, int, int]
    radius: int
    look: Look
    rows: Rows
    serial: int = field(default_factory=lambda: next(SERIALS), compare=False)

    def paint(self, canvas: Canvas) -> None:
        fill, stroke = canvas.inked(self.look)
        if self.radius >= 1:
            canvas.stamp(self.box, self.radius, fill, stroke, self.look.width)
        else:
            canvas.pen.rectangle(self.box, fill, stroke, self.look.width)


@dataclass(frozen=True, slots=True)
class Ellipse:
    """A circle, in the box it fills (inclusive corners)."""

    box: tuple[int, int, int, int]
    look: Look
    rows: Rows
    serial: int = field(default_factory=lambda: next(SERIALS), compare=False)

    def paint(self, canvas: Canvas) -> None:
        fill, stroke = canvas.inked(self.look)
        canvas.pen.ellipse(self.box, fill, stroke, self.look.width)


@dataclass(frozen=True, slots=True)
class Outline:
    """A polygon, filled and stroked along its closed outline."""

    points: tuple[tuple[float, float], ...]
    look: Look
    rows: Rows
    serial: int = field(default_factory=lambda: next(SERIALS), compare=False)

    def paint(self, canvas: Canvas) -> None:
        fill, stroke = canvas.inked(self.look)
        if fill is not None:
            canvas.pen.polygon(self.points, fill)
        if stroke is not None:
            canvas.pen.line([*self.points, self.points[0]], stroke, self.look.width, "curve")


@dataclass(frozen=True, slots=True)
class Words:
    """A text (``coverage``'s arguments ``drawn``, and its mask) pasted at ``box``,
    blended over the colour at ``beneath``."""

    drawn: tuple
    mask: object
    box: tuple[int, int, int, int]
    beneath: tuple[float, float]
    colour: tuple[int, int, int]
    rows: Rows
    serial: int = field(default_factory=lambda: next(SERIALS), compare=False)

    def paint(self, canvas: Canvas) -> None:
        under = canvas.under(*self.beneath)
        inks = lettered(self.drawn, canvas.shades(under, self.colour))
        # Palette entries pasted as they are: the core's paste, which copies the bytes
        # (an ``L`` picture pasted by ``Image.paste`` would be converted to the palette).
        canvas.image.im.paste(inks, self.box, self.mask)


@lru_cache(maxsize=1 << 14)
def plan(tag: str, attributes: tuple, words: str, scale: float, dx: float, dy: float):
    """What an element draws, in pixels, at ``scale`` and moved by (dx, dy); ``None`` for
    nothing. Kept per process: a board draws the same spaces, tiles and numbers at the
    same places position after position, and working them out from the SVG's attributes
    was a fifth of a picture's drawing."""
    return PLANNED[tag](dict(attributes), words, scale, dx, dy)


def rect(node, _words, scale, dx, dy) -> Box | None:
    x = dx + float(node.get("x", 0)) * scale
    y = dy + float(node.get("y", 0)) * scale
    w = float(node.get("width", 0)) * scale
    h = float(node.get("height", 0)) * scale
    radius = float(node.get("rx", node.get("ry", 0))) * scale
    seen = look(node, scale, (x + max(1, radius), y + max(1, radius)))
    # An SVG stroke is centred on the edge; Pillow's outline lies inside the box.
    grow = seen.width / 2 if seen.stroke is not None else 0
    box = (round(x - grow), round(y - grow), round(x + w + grow) - 1, round(y + h + grow) - 1)
    if box[2] < box[0] or box[3] < box[1] or seen.fill is None and seen.stroke is None:
        return None
    return Box(box, round(radius) if radius >= 1 else 0, seen, reach(box[1], box[3], seen.at))


def circle(node, _words, scale, dx, dy) -> Ellipse | None:
    cx = dx + float(node.get("cx", 0)) * scale
    cy = dy + float(node.get("cy", 0)) * scale
    r = float(node.get("r", 0)) * scale
    seen = look(node, scale, (cx, cy))
    if seen.fill is None and seen.stroke is None:
        return None
    out = r + (seen.width / 2 if seen.stroke is not None else 0)
    box = (round(cx - out), round(cy - out), round(cx + out), round(cy + out))
    return Ellipse(box, seen, reach(box[1], box[3], seen.at))


def polygon(node, _words, scale, dx, dy) -> Outline | None:
    numbers = [float(v) for v in re.split(r"[\s,]+", node.get("points", "").strip()) if v]
    points = [
        (dx + numbers[i] * scale, dy + numbers[i + 1] * scale)
        for i in range(0, len(numbers) - 1, 2)
    ]
    return outline(node, scale, points)


def path(node, _words, scale, dx, dy) -> Outline | None:
    points = [(dx + x * scale, dy + y * scale) for x, y in path_points(node.get("d", ""))]
    return outline(node, scale, points)


def outline(node, scale, points) -> Outline | None:
    if len(points) < 2:
        return None
    centre = (
        sum(x for x, _ in points) / len(points),
        sum(y for _, y in points) / len(points),
    )
    seen = look(node, scale, centre)
    if seen.fill is None and seen.stroke is None:
        return None
    ys = [y for _, y in points]
    return Outline(tuple(points), seen, reach(min(ys), max(ys), centre, seen.width))


def text(node, words, scale, dx, dy) -> Words | None:
    if not words:
        return None
    pixels = max(6, round(float(node.get("font-size", 16)) * scale))
    bold = node.get("font-weight") in ("bold", "700", "800", "900")
    anchor = {"middle": "ms", "end": "rs"}.get(node.get("text-anchor", ""), "ls")
    x = dx + float(node.get("x", 0)) * scale
    y = dy + float(node.get("y", 0)) * scale
    levels, mask, (left, top) = coverage(words, pixels, bold, anchor)
    at = (round(x) + left, round(y) + top)
    box = (*at, at[0] + levels.width, at[1] + levels.height)
    beneath = (at[0] + levels.width / 2, y - pixels * 0.3)
    return Words(
        (words, pixels, bold, anchor),
        mask.im,
        box,
        beneath,
        rgb(node.get("fill", "#000")),
        reach(box[1], box[3], beneath),
    )


@lru_cache(maxsize=4096)
def stamped(size: tuple[int, int], radius: int, fill, stroke, width: int) -> tuple:
    """A rounded rectangle in the palette entries ``fill`` and ``stroke``, and its mask;
    kept per process (pictures of one board give its colours the same entries)."""
    regions, mask = rounded(size, radius, fill is not None, stroke is not None, width)
    return regions.point([0, fill or 0, stroke or 0] + [0] * 253, "L"), mask


@lru_cache(maxsize=8192)
def lettered(drawn: tuple, entries: tuple[int, ...]):
    """A text (``coverage``'s arguments) in the palette entries of its coverage steps;
    kept per process, as ``stamped``."""
    levels = coverage(*drawn)[0]
    return levels.im.point([0, *entries] + [0] * (255 - len(entries)), "L")


@lru_cache(maxsize=1024)
def rounded(size: tuple[int, int], radius: int, filled: bool, stroked: bool, width: int):
    """A rounded rectangle's shape: 1 where it is filled and 2 where it is stroked, and
    the mask of both; kept per process (a board repeats its tiles and spaces, and a paste
    costs a tenth of a drawing)."""
    regions = Image.new("L", size, 0)
    corners = (0, 0, size[0] - 1, size[1] - 1)
    ImageDraw.Draw(regions).rounded_rectangle(
        corners, radius, 1 if filled else None, 2 if stroked else None, width
    )
    return regions.im, regions.point(ANYWHERE).im


@lru_cache(maxsize=4096)
def coverage(words: str, pixels: int, bold: bool, anchor: str) -> tuple:
    """The text drawn as its step of ``COVERAGE`` per pixel (0 where it is not, 1 to 4),
    the mask of where it is, and its offset from the anchor; kept per process (the boards
    repeat their letters and numbers)."""
    face = font(pixels, bold)
    left, top, right, bottom = face.getbbox(words, anchor=anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), words, 255, font=face, anchor=anchor)
    return mask.point(STEPS), mask.point(INKED), (left, top)


PLANNED = {"rect": rect, "circle": circle, "polygon": polygon, "path": path, "text": text}

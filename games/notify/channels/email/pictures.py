"""The boards of a game as PNG pictures for the HTML email, drawn from the same SVG boards
as the game's page (``games.boards``) by ``games.notify.channels.email.raster`` (mail
clients show no SVG): one picture of the table (the sources), one of each player's board.
The email's HTML puts the reader's board right after the table, full width, and the other
boards two to a row, each under its caption (the player's name and score), which stays out
of the pictures.

Issue 33: so a picture shows a position and nothing of its reader, it is drawn once for
everyone and kept in the shared cache under its drawing: every further email that shows it
(another reader, a reminder, the deadline warning, the next move's email for every board
the move left alone) costs a cache read. Drawing one is cheap: its process keeps what it
drew of the board before, and draws again only what the moves changed (``raster.Sheet``),
so a 4-player game's five cost less than the rest of its turn email
(``bench/email_pictures.py`` prints the ratio; the figures are in docs/service.md, "The
boards' pictures in the emails")."""

import hashlib
import re
from dataclasses import dataclass
from html import unescape

from django.core.cache import cache
from django.utils.translation import get_language

from games.boards import board_of
from games.notify.channels.email import raster

# A board shown the email column's width (600 px on a desktop) is drawn 780 pixels wide:
# twice what a phone shows of it (390 px), for a sharp picture on a phone's screen.
WIDE = 780
# A board shown half that width, two to a row.
NARROW = 384
# A picture of a position stays the same forever; a day covers its reminders and warnings.
KEPT_FOR = 24 * 3600
# Part of every cached picture's name: change it when the drawing of the pictures changes,
# so that no email shows a picture drawn by the code before.
DRAWN_BY = "2026-11 pillow palette 4"
LABEL = re.compile(r'aria-label="([^"]*)"')

_drawn_here: set[str] = set()


@dataclass(frozen=True)
class Panel:
    """One picture of the boards: the table's (``seat`` is ``None``) or a seat's board,
    ``pixels`` wide, and its SVG's label (said in the reader's language)."""

    seat: int | None
    png: bytes
    pixels: int
    label: str

    @property
    def wide(self) -> bool:
        return self.pixels == WIDE


def panels(game_type: str, view, seats: list[int], reader: int | None) -> list[Panel]:
    """The table, then the reader's board (wide), then the other ``seats``' boards. The
    position's pictures are looked up together, under the position (no board drawn as
    SVG when all are there); the pictures missing there are looked up together under
    their drawing (a board the last move left alone was drawn for the position before),
    and the rest drawn: three cache round trips at most, whatever the number of boards."""
    board = board_of(game_type)
    wanted = [(None, WIDE)] + ([(reader, WIDE)] if reader in seats else [])
    wanted += [(seat, NARROW) for seat in seats if seat != reader]
    position = repr((DRAWN_BY, game_type, get_language(), view))
    named = {
        part: "mail-position:" + hashlib.sha256(f"{position} {part}".encode()).hexdigest()
        for part in wanted
    }
    found = cache.get_many(list(named.values()))
    missing = [part for part in wanted if named[part] not in found]
    if missing:
        svgs = {
            (seat, pixels): board.table_svg(view, picks=False)
            if seat is None
            else board.player_svg(view, seat, picks=False)
            for seat, pixels in missing
        }
        drawings = {
            part: "mail-picture:"
            + hashlib.sha256(f"{DRAWN_BY} {part[1]} {svg}".encode()).hexdigest()
            for part, svg in svgs.items()
        }
        known = cache.get_many(list(drawings.values()))
        new = {}
        for part in missing:
            svg, drawing = svgs[part], drawings[part]
            if drawing not in known:
                known[drawing] = new[drawing] = raster.png(svg, part[1])
            label = LABEL.search(svg)
            found[named[part]] = new[named[part]] = (
                known[drawing],
                unescape(label.group(1)) if label else "",
            )
        cache.set_many(new, KEPT_FOR)
        _drawn_here.update(new)
    panels = []
    for seat, pixels in wanted:
        png, label = found[named[(seat, pixels)]]
        panels.append(Panel(seat, png, pixels, label))
    return panels


def forget() -> None:
    """Drop the pictures this process drew from the cache (benches and tests)."""
    cache.delete_many(list(_drawn_here))
    _drawn_here.clear()

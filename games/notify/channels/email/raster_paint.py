"""Colours and paths as the boards' SVG writes them, for the emails' pictures (``raster``):
a paint (a colour and its opacity), two colours blended, a path's points (its lines and
arcs)."""

import math
import re
from functools import cache

PATH_TOKEN = re.compile(r"[MmVvHhLlAaZz]|-?\d*\.?\d+(?:e-?\d+)?")


RGBA = re.compile(r"rgba\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*([\d.]+)\s*\)")


@cache
def paint(value: str | None) -> tuple[tuple[int, int, int], float] | None:
    """A fill or stroke as its colour and opacity; ``None`` for none."""
    if not value or value in ("none", "transparent"):
        return None
    found = RGBA.fullmatch(value.replace(" ", ""))
    if found is None:
        return rgb(value), 1
    return tuple(int(found.group(i)) for i in (1, 2, 3)), float(found.group(4))


@cache
def rgb(value: str) -> tuple[int, int, int]:
    """A ``#rgb`` or ``#rrggbb`` colour (the only kinds the boards write but ``rgba``)."""
    value = value.strip().lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def blend(under, over, share: float) -> tuple[int, int, int]:
    return tuple(round(u + (o - u) * share) for u, o in zip(under, over, strict=True))


def path_points(d: str) -> list[tuple[float, float]]:
    """The outline of a path of lines and circular arcs (``M``, ``L``, ``H``, ``V``, ``A``,
    ``Z``, absolute or relative), arcs as short lines."""
    tokens = PATH_TOKEN.findall(d)
    points: list[tuple[float, float]] = []
    x = y = 0.0
    command = "M"
    at = 0

    def number() -> float:
        nonlocal at
        at += 1
        return float(tokens[at - 1])

    while at < len(tokens):
        if tokens[at].isalpha():
            command = tokens[at]
            at += 1
            if command in "Zz":
                continue
        relative = command.islower()
        kind = command.upper()
        if kind in "ML":
            nx, ny = number(), number()
            x, y = (x + nx, y + ny) if relative else (nx, ny)
        elif kind == "H":
            value = number()
            x = x + value if relative else value
        elif kind == "V":
            value = number()
            y = y + value if relative else value
        elif kind == "A":
            radius, _ry, _turn, large, sweep = (number() for _ in range(5))
            nx, ny = number(), number()
            end = (x + nx, y + ny) if relative else (nx, ny)
            points += arc_points((x, y), end, radius, bool(large), bool(sweep))
            x, y = end
        else:
            break
        points.append((x, y))
    return points


def arc_points(start, end, radius, large: bool, sweep: bool) -> list[tuple[float, float]]:
    """Points along a circular arc from ``start`` to ``end`` (SVG's endpoint form)."""
    (x1, y1), (x2, y2) = start, end
    chord = math.dist(start, end)
    if chord == 0:
        return []
    radius = max(radius, chord / 2)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    offset = math.sqrt(max(radius * radius - chord * chord / 4, 0))
    ux, uy = (y1 - y2) / chord, (x2 - x1) / chord
    sign = -1 if large == sweep else 1
    cx, cy = mx + sign * offset * ux, my + sign * offset * uy
    a1 = math.atan2(y1 - cy, x1 - cx)
    a2 = math.atan2(y2 - cy, x2 - cx)
    turn = a2 - a1
    if sweep and turn < 0:
        turn += 2 * math.pi
    if not sweep and turn > 0:
        turn -= 2 * math.pi
    steps = 12
    return [
        (cx + radius * math.cos(angle), cy + radius * math.sin(angle))
        for angle in (a1 + turn * i / steps for i in range(1, steps))
    ]

"""The rating history chart, drawn on the server as SVG: coordinates computed here, the
markup in ``templates/ratings/_chart.html`` (no chart library, nothing loaded at run time)."""

from dataclasses import dataclass

from django.utils import formats
from django.utils.timezone import localtime

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 28
GRID_LINES = 4


@dataclass(frozen=True)
class Chart:
    """What the template draws: the rating line, the uncertainty band, axis labels."""

    width: int
    height: int
    line: str
    band: str
    dots: list[dict]
    y_labels: list[dict]
    x_labels: list[dict]


def rating_chart(points: list[dict]) -> Chart | None:
    """A line of ``rating`` after each game with a band of ± ``uncertainty`` around it;
    ``None`` with no game to draw."""
    if not points:
        return None
    low = min(p["rating"] - p["uncertainty"] for p in points)
    high = max(p["rating"] + p["uncertainty"] for p in points)
    step = max(50, _nice((high - low) / GRID_LINES))
    low, high = (low // step) * step, -(-high // step) * step
    span_x = max(len(points) - 1, 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return round(LEFT + plot_w * (index / span_x if len(points) > 1 else 0.5), 1)

    def y(value: float) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    line = " ".join(f"{x(i)},{y(p['rating'])}" for i, p in enumerate(points))
    upper = [f"{x(i)},{y(p['rating'] + p['uncertainty'])}" for i, p in enumerate(points)]
    lower = [f"{x(i)},{y(p['rating'] - p['uncertainty'])}" for i, p in enumerate(points)]
    dots = [
        {"x": x(i), "y": y(p["rating"]), "label": f"{p['rating']} ± {p['uncertainty']}"}
        for i, p in enumerate(points)
    ]
    y_labels = [{"y": y(value), "text": str(value)} for value in range(low, high + 1, step)]
    ends = {0, len(points) - 1}
    x_labels = [
        {
            "x": x(i),
            "text": formats.date_format(localtime(points[i]["ended_at"]), "SHORT_DATE_FORMAT"),
        }
        for i in sorted(ends)
    ]
    return Chart(WIDTH, HEIGHT, line, " ".join(upper + lower[::-1]), dots, y_labels, x_labels)


def _nice(raw: float) -> int:
    """A round step for grid lines: 50, 100, 200, 250, 500…"""
    for step in (50, 100, 200, 250, 500, 1000, 2000, 5000):
        if step >= raw:
            return step
    return 10000

"""A player's score history as a picture, in the style of the boards: paper, wood and the game's colours."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from PIL import Image, ImageDraw

from i18n import _, format_date, format_number, ngettext

from . import palette as pal
from . import text
from .draw import panel, wood

WIDTH, HEIGHT = 1200, 720
HEADER = 84
PLOT = (110, HEADER + 70, WIDTH - 50, HEIGHT - 90)  # left, top, right, bottom of the plotting area
AVERAGE_OF = 10  # games in the moving average


def _date(stamp: float) -> str:
    return format_date(dt.datetime.fromtimestamp(stamp, dt.UTC), "medium")


def _ticks(low: int, high: int) -> list[int]:
    span = max(high - low, 1)
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500) if span / s <= 8)
    first = (low // step) * step
    return list(range(first, high + step, step))


def draw_history(name: str, points: Sequence[tuple[float, int]], subtitle: str = "") -> Image.Image:
    """The picture: one dot per finished game (oldest left), the moving average, and the best game marked."""
    img = Image.new("RGB", (WIDTH, HEIGHT), pal.BACKGROUND)
    d = ImageDraw.Draw(img)
    wood(img, (0, 0, WIDTH, HEADER))
    text.draw(d, (36, HEADER // 2), name, 34, pal.CREAM, bold=True, anchor="lm", max_width=560)
    text.draw(d, (WIDTH - 36, HEADER // 2), subtitle or _("score history"), 22, pal.GOLD_LIGHT, anchor="rm")
    panel(d, (24, HEADER + 20, WIDTH - 24, HEIGHT - 24))
    left, top, right, bottom = PLOT
    if not points:
        text.draw(d, (WIDTH // 2, (top + bottom) // 2), _("No finished games yet"), 30, pal.INK_SOFT, anchor="mm")
        return img
    totals = [total for _unused, total in points]
    low, high = min(0, min(totals)), max(totals)
    ticks = _ticks(low, high)
    low, high = ticks[0], ticks[-1]

    def y_of(value: float) -> float:
        return bottom - (value - low) / max(high - low, 1) * (bottom - top)

    def x_of(i: int) -> float:
        return (left + right) / 2 if len(points) == 1 else left + i / (len(points) - 1) * (right - left)

    for tick in ticks:
        y = y_of(tick)
        d.line((left, y, right, y), fill=pal.SLOT if tick else pal.INK_SOFT, width=1 if tick else 2)
        text.draw(d, (left - 12, y), text.number(tick), 16, pal.INK_SOFT, anchor="rm")
    d.line((left, top, left, bottom), fill=pal.INK_SOFT, width=2)
    games = ngettext("{count} game", "{count} games", len(points)).format(count=format_number(len(points)))
    if len(points) == 1:
        text.draw(d, ((left + right) / 2, bottom + 26), _date(points[0][0]), 16, pal.INK_SOFT, anchor="mm")
        text.draw(d, (right, bottom + 26), games, 16, pal.INK_SOFT, anchor="rm")
    else:
        text.draw(d, (left, bottom + 26), _date(points[0][0]), 16, pal.INK_SOFT, anchor="lm")
        text.draw(d, (right, bottom + 26), _date(points[-1][0]), 16, pal.INK_SOFT, anchor="rm")
        text.draw(d, ((left + right) / 2, bottom + 26), games, 16, pal.INK_SOFT, anchor="mm")

    xy = [(x_of(i), y_of(total)) for i, total in enumerate(totals)]
    if len(xy) > 1:
        d.line(xy, fill=pal.LINE, width=2)
    average = []
    for i in range(len(totals)):
        window = totals[max(0, i - AVERAGE_OF + 1) : i + 1]
        average.append((x_of(i), y_of(sum(window) / len(window))))
    if len(average) > 2:
        d.line(average, fill=pal.VERMILION, width=4, joint="curve")
    radius = 6 if len(points) <= 60 else 3
    best = max(range(len(totals)), key=lambda i: (totals[i], -i))
    for i, (x, y) in enumerate(xy):
        fill = pal.GOLD if i == best else pal.LINE_DARK
        r = radius + 4 if i == best else radius
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=pal.CREAM, width=2 if i == best else 1)
    bx, by = xy[best]
    legend_y = top - 30
    # The best game's label goes above its point, or below it when the legend line is in the way.
    above = by - 16 - 24 > legend_y + 12
    best_label = _("best {points}").format(points=text.number(totals[best]))
    # Centred on its point, but kept inside the panel when the best game is the first or the last.
    half = text.width(best_label, 18, True) / 2
    bx = min(max(bx, 24 + 12 + half), WIDTH - 24 - 12 - half)
    text.draw(
        d, (bx, by - 16 if above else by + 16), best_label, 18, pal.INK, bold=True, anchor="mb" if above else "ma"
    )
    d.line((left, legend_y, left + 40, legend_y), fill=pal.LINE, width=3)
    each = _("score of each game")
    text.draw(d, (left + 50, legend_y), each, 16, pal.INK_SOFT, anchor="lm")
    x = left + 50 + max(190, round(text.width(each, 16)) + 24)
    d.line((x, legend_y, x + 40, legend_y), fill=pal.VERMILION, width=4)
    average_label = _("average of the last {count}").format(count=AVERAGE_OF)
    text.draw(d, (x + 50, legend_y), average_label, 16, pal.INK_SOFT, anchor="lm")
    return img

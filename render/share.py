"""A challenge result as a small card to share: the score, the rank, the streak and a bar per score item; no board."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import palette as pal
from . import text
from .draw import panel, wood

WIDTH, HEIGHT = 800, 420
HEADER = 76
# One colour per score item, in the score sheet's order, taken round again past the sixth: gold, green, blue, violet,
# pink, vermilion.
BAR_COLOURS = (pal.GOLD, (120, 180, 98), (84, 152, 214), (152, 118, 196), (240, 150, 172), pal.VERMILION)


@dataclass(frozen=True)
class ShareCard:
    """What a share card shows, in words already in the reader's language: nothing of the board or the moves."""

    title: str  # "Daily challenge · 28 Nov 2026"
    player: str
    total: str  # the score, as the language writes it
    points: str  # "points"
    lines: tuple[str, ...]  # the rank, the streak, a win over the automa
    items: tuple[tuple[str, int], ...]  # (item name, points), in the score sheet's order
    game: str = "Kokeshi"  # the game's title, on the wooden bar


def draw_share_card(card: ShareCard) -> Image.Image:
    """The card: a wooden title bar, the player's score large with the rank and streak beside it, and one bar per
    score item scaled to the largest."""
    img = Image.new("RGB", (WIDTH, HEIGHT), pal.BACKGROUND)
    d = ImageDraw.Draw(img)
    wood(img, (0, 0, WIDTH, HEADER))
    text.draw(d, (28, HEADER // 2), card.game, 32, pal.CREAM, bold=True, anchor="lm")
    text.draw(d, (WIDTH - 28, HEADER // 2), card.title, 22, pal.GOLD_LIGHT, anchor="rm", max_width=520)
    panel(d, (20, HEADER + 16, WIDTH - 20, HEIGHT - 20))
    # The score, large, on the left; the player, the rank and the streak under it.
    left = 48
    text.draw(d, (left, HEADER + 40), card.player, 26, pal.INK, bold=True, max_width=300)
    text.draw(d, (left, HEADER + 80), card.total, 84, pal.VERMILION, bold=True, max_width=300)
    text.draw(d, (left, HEADER + 178), card.points, 24, pal.INK_SOFT, max_width=300)
    for i, line in enumerate(card.lines[:3]):
        text.draw(d, (left, HEADER + 214 + i * 32), line, 24, pal.INK, max_width=300)
    _bars(d, card.items, (370, HEADER + 40, WIDTH - 48, HEIGHT - 48))
    return img


def _bars(d: ImageDraw.ImageDraw, items: Sequence[tuple[str, int]], box: tuple[int, int, int, int]) -> None:
    """One row per score item: its name, a bar as long as its points (negative ones in vermilion), the points."""
    x0, y0, x1, y1 = box
    if not items:
        return
    row = (y1 - y0) / len(items)
    label_w, value_w = 130, 56
    longest = max((abs(v) for _name, v in items), default=0) or 1
    span = x1 - x0 - label_w - value_w - 16
    for i, (name, value) in enumerate(items):
        cy = y0 + row * i + row / 2
        text.draw(d, (x0, cy), name, 22, pal.INK, anchor="lm", max_width=label_w - 8)
        bx = x0 + label_w
        d.rounded_rectangle((bx, cy - 11, bx + span, cy + 11), radius=6, fill=pal.SLOT)
        length = round(span * abs(value) / longest)
        if length:
            colour = pal.VERMILION if value < 0 else BAR_COLOURS[i % len(BAR_COLOURS)]
            d.rounded_rectangle((bx, cy - 11, bx + max(length, 12), cy + 11), radius=6, fill=colour)
        text.draw(d, (x1, cy), text.number(value), 22, pal.INK, bold=True, anchor="rm")


__all__ = ["ShareCard", "draw_share_card"]

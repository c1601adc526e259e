"""Drawing helpers shared by every picture: panels, wood, dashed frames, pasting sprites, small badges."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from . import palette as pal
from . import text as tx
from .palette import RGB
from .pen import Pen, render, star_points

Box = tuple[int, int, int, int]


def paste(img: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Alpha-composite a sprite with its top-left corner at (x, y), clipped to the image."""
    x, y = round(x), round(y)
    if img.mode == "RGB":
        # Pictures are RGB (a quarter less memory for the cached layers); the sprite's alpha is the mask.
        img.paste(sprite, (x, y), sprite)
        return
    if x >= 0 and y >= 0 and x + sprite.width <= img.width and y + sprite.height <= img.height:
        img.alpha_composite(sprite, (x, y))
        return
    sx0, sy0 = max(0, -x), max(0, -y)
    sx1, sy1 = min(sprite.width, img.width - x), min(sprite.height, img.height - y)
    if sx1 > sx0 and sy1 > sy0:
        img.alpha_composite(sprite, (x + sx0, y + sy0), (sx0, sy0, sx1, sy1))


def paste_center(img: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    """Alpha-composite a sprite centred on (cx, cy)."""
    paste(img, sprite, cx - sprite.width / 2, cy - sprite.height / 2)


def panel(d: ImageDraw.ImageDraw, box: Box, fill: RGB = pal.PAPER, radius: int = 14) -> None:
    """A sheet of paper with a soft drop shadow."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle((x0 + 1, y0 + 3, x1 + 2, y1 + 4), radius=radius, fill=pal.shade(pal.BACKGROUND, 0.86))
    d.rounded_rectangle(box, radius=radius, fill=fill, outline=pal.PAPER_EDGE, width=2)


def wood(img: Image.Image, box: Box, base: RGB = pal.WOOD_DARK, seed: int = 1) -> None:
    """A plank with a faint, deterministic grain."""
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=base)
    for i in range(y0 + 3, y1 - 2, 5):
        phase = (i * 0.37 + seed) % 6.28
        tone = pal.shade(base, 1.06 + 0.05 * math.sin(phase * 3.1))
        pts = [(x, i + 1.6 * math.sin(x / 90 + phase)) for x in range(x0, x1 + 1, 40)]
        d.line(pts, fill=tone, width=1)


def dashed_rect(d: ImageDraw.ImageDraw, box: Box, fill: RGB, width: int = 2, dash: int = 6) -> None:
    """A dashed rectangle outline: an empty place."""
    x0, y0, x1, y1 = box
    for x in range(x0, x1, dash * 2):
        d.line((x, y0, min(x + dash, x1), y0), fill=fill, width=width)
        d.line((x, y1, min(x + dash, x1), y1), fill=fill, width=width)
    for y in range(y0, y1, dash * 2):
        d.line((x0, y, x0, min(y + dash, y1)), fill=fill, width=width)
        d.line((x1, y, x1, min(y + dash, y1)), fill=fill, width=width)


@lru_cache(maxsize=128)
def pill(label: str, size: int, fill: RGB, ink: RGB, min_w: int = 0) -> Image.Image:
    """A rounded label: scores, penalties, 'to play' badges."""
    w = max(min_w, round(tx.width(label, size, True)) + size)
    h = size + 8
    img = render(
        w, h, w, lambda pen: pen.rect((0, 0, w, h), fill=fill, outline=pal.shade(fill, 0.7), width=1, radius=h / 2)
    )
    tx.draw(ImageDraw.Draw(img), (w / 2, h / 2), label, size, ink, bold=True, anchor="mm")
    return img


@lru_cache(maxsize=256)
def glow(w: int, h: int, radius: int = 10, color: RGB = pal.GOLD, width: int = 4) -> Image.Image:
    """A smooth highlight frame `w` x `h` px: what changed during the last turn."""
    pad = width + 2

    def paint(pen: Pen) -> None:
        pen.rect((1, 1, w + 2 * pad - 1, h + 2 * pad - 1), fill=(*pal.GOLD_LIGHT, 150), radius=radius + pad)
        pen.rect((2, 2, w + 2 * pad - 2, h + 2 * pad - 2), outline=color, width=width, radius=radius + pad - 2)

    return render(w + 2 * pad, h + 2 * pad, w + 2 * pad, paint)


@lru_cache(maxsize=32)
def burst(label: str, size: int) -> Image.Image:
    """A gold star burst with points on it: points scored this turn."""
    s = size

    def paint(pen: Pen) -> None:
        pen.poly(star_points(50, 50, 49, 0.72, 10), fill=pal.GOLD, outline=pal.INK, width=3)

    img = render(s, s, 100, paint)
    tx.draw(ImageDraw.Draw(img), (s / 2, s / 2 + 1), label, tx.MIN_SIZE, pal.INK, bold=True, anchor="mm")
    return img

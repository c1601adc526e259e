"""Kokeshi's icons (figures, animals, paws, effect sides, the bag, medals), drawn with the shared pen."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image

from render.pen import SUPER, Pen, crown, render, seat_disc, star, star_points

from . import model as m
from . import palette as pal
from .palette import RGB

__all__ = [
    "SUPER",
    "Pen",
    "animal",
    "bag",
    "crown",
    "kokeshi",
    "kokeshi_head",
    "medal",
    "paw",
    "render",
    "seat_disc",
    "side",
    "star",
    "star_points",
]

HAIR: RGB = (40, 28, 26)
FACE: RGB = (255, 236, 214)
CHEEK: RGB = (240, 140, 140)


# ---------------------------------------------------------------- kokeshi figures (design box 100 x 200)


def _paint_kokeshi(pen: Pen, name: str, color: RGB, dark: RGB) -> None:
    wide = name == "sumotori"
    bx0, bx1 = (8, 92) if wide else (22, 78)
    # Body: a rounded column, as on the turned wooden dolls; the sumotori's is wider.
    pen.rect((bx0, 92, bx1, 196), fill=color, outline=dark, width=4, radius=22 if wide else 16)
    pen.rect((bx0 + 4, 178, bx1 - 4, 192), fill=pal.shade(color, 0.82), radius=6)
    # Body motif, different per figure so they differ without colour.
    if name == "princess":
        for cx, cy in ((50, 130), (36, 156), (64, 156)):
            for a in range(5):
                ang = math.radians(a * 72 - 90)
                pen.circle(cx + 6 * math.cos(ang), cy + 6 * math.sin(ang), 4.2, fill=pal.CREAM)
            pen.circle(cx, cy, 3, fill=dark)
    elif name == "batchan":
        pen.poly([(bx0, 100), (50, 140), (bx1, 100), (bx1, 116), (50, 156), (bx0, 116)], fill=pal.CREAM)
        pen.circle(50, 168, 6, fill=dark)
    elif name == "fisherman":
        for y in (124, 146, 168):
            pts = [(bx0 + 4 + i * 6, y + (4 if i % 2 else -4)) for i in range(9)]
            pen.line(pts, fill=pal.CREAM, width=5)
    elif name == "samurai":
        for y in (112, 134, 156):
            pen.rect((bx0 + 6, y, bx1 - 6, y + 14), fill=pal.shade(color, 0.7), radius=3)
        pen.line([(50, 104), (50, 172)], fill=pal.CREAM, width=4)
    else:
        pen.rect((bx0 + 2, 140, bx1 - 2, 162), fill=pal.shade(color, 0.55), radius=4)
        pen.rect((44, 140, 56, 176), fill=pal.shade(color, 0.55), radius=3)
    # Head.
    hx0, hx1 = (18, 82)
    pen.ellipse((hx0, 30, hx1, 100), fill=FACE, outline=dark, width=3)
    # Hair cap and the silhouette feature on top.
    pen.pie((hx0, 30, hx1, 100), 180, 360, fill=HAIR)
    pen.rect((hx0 + 1, 56, hx1 - 1, 66), fill=HAIR, radius=2)
    if name == "princess":
        pen.poly(
            [(30, 34), (30, 10), (40, 22), (50, 4), (60, 22), (70, 10), (70, 34)], fill=pal.GOLD, outline=dark, width=2
        )
        pen.circle(14, 62, 9, fill=HAIR)
        pen.circle(86, 62, 9, fill=HAIR)
    elif name == "batchan":
        pen.circle(50, 20, 16, fill=HAIR)
        pen.line([(30, 14), (70, 26)], fill=pal.CREAM, width=3)
    elif name == "fisherman":
        pen.poly([(0, 44), (50, 2), (100, 44), (84, 48), (16, 48)], fill=(214, 176, 96), outline=dark, width=3)
        pen.line([(20, 44), (50, 10), (80, 44)], fill=pal.shade((214, 176, 96), 0.75), width=2)
    elif name == "samurai":
        pen.poly([(26, 36), (10, 0), (40, 30)], fill=pal.GOLD, outline=dark, width=2)
        pen.poly([(74, 36), (90, 0), (60, 30)], fill=pal.GOLD, outline=dark, width=2)
        pen.rect((40, 16, 60, 34), fill=HAIR, radius=4)
    else:
        pen.ellipse((34, 8, 66, 30), fill=HAIR)
        pen.rect((46, 22, 54, 38), fill=HAIR)
    # Face: closed eyes (arcs) and cheeks.
    pen.arc((30, 70, 44, 80), 200, 340, fill=HAIR, width=3)
    pen.arc((56, 70, 70, 80), 200, 340, fill=HAIR, width=3)
    pen.circle(30, 86, 4.5, fill=CHEEK)
    pen.circle(70, 86, 4.5, fill=CHEEK)
    pen.ellipse((46, 86, 54, 92), fill=(200, 70, 70))


@lru_cache(maxsize=256)
def kokeshi(name: str, width: int) -> Image.Image:
    """A standing kokeshi figure `width` px wide and twice as tall."""
    color_name = m.KOKESHI_COLOR.get(name, "yellow")
    color, dark = pal.TILE[color_name], pal.TILE_DARK[color_name]
    return render(width, width * 2, 100, lambda pen: _paint_kokeshi(pen, name, color, dark))


@lru_cache(maxsize=64)
def kokeshi_head(name: str, size: int) -> Image.Image:
    """The top part of a figure (head and headwear), square, for small tile icons."""
    full = kokeshi(name, size)
    return full.crop((0, 0, size, round(size * 1.18))).resize((size, size), Image.Resampling.LANCZOS)


# ---------------------------------------------------------------- animals (design box 100 x 100)


def _paint_animal(pen: Pen, animal: str) -> None:
    ink = pal.INK
    if animal == "panda":
        pen.circle(22, 24, 14, fill=ink)
        pen.circle(78, 24, 14, fill=ink)
        pen.ellipse((10, 16, 90, 92), fill=(250, 250, 246), outline=ink, width=3)
        pen.ellipse((26, 42, 46, 66), fill=ink)
        pen.ellipse((54, 42, 74, 66), fill=ink)
        pen.circle(38, 52, 3.5, fill=pal.CREAM)
        pen.circle(62, 52, 3.5, fill=pal.CREAM)
        pen.ellipse((43, 66, 57, 76), fill=ink)
    elif animal == "fox":
        orange = (232, 128, 44)
        pen.poly([(10, 4), (40, 30), (14, 46)], fill=orange, outline=ink, width=3)
        pen.poly([(90, 4), (60, 30), (86, 46)], fill=orange, outline=ink, width=3)
        pen.poly([(6, 30), (94, 30), (50, 96)], fill=orange, outline=ink, width=3)
        pen.poly([(14, 44), (50, 58), (50, 92)], fill=(255, 246, 232))
        pen.poly([(86, 44), (50, 58), (50, 92)], fill=(255, 246, 232))
        pen.ellipse((44, 84, 56, 94), fill=ink)
        pen.line([(26, 44), (38, 50)], fill=ink, width=5)
        pen.line([(74, 44), (62, 50)], fill=ink, width=5)
    elif animal == "cat":
        grey = (176, 164, 150)
        pen.poly([(12, 6), (42, 26), (12, 50)], fill=grey, outline=ink, width=3)
        pen.poly([(88, 6), (58, 26), (88, 50)], fill=grey, outline=ink, width=3)
        pen.ellipse((8, 20, 92, 94), fill=grey, outline=ink, width=3)
        pen.rect((44, 22, 56, 40), fill=pal.shade(grey, 0.75), radius=3)
        pen.ellipse((28, 46, 40, 62), fill=(150, 190, 90))
        pen.ellipse((60, 46, 72, 62), fill=(150, 190, 90))
        pen.rect((32, 47, 36, 61), fill=ink)
        pen.rect((64, 47, 68, 61), fill=ink)
        pen.poly([(44, 68), (56, 68), (50, 75)], fill=(220, 120, 130))
        for y, dy in ((72, -6), (78, 0), (84, 6)):
            pen.line([(4, y + dy), (34, y)], fill=ink, width=2)
            pen.line([(96, y + dy), (66, y)], fill=ink, width=2)
    else:
        white = (252, 246, 240)
        pen.ellipse((16, 0, 42, 56), fill=white, outline=ink, width=3)
        pen.ellipse((58, 0, 84, 56), fill=white, outline=ink, width=3)
        pen.ellipse((23, 8, 35, 46), fill=(242, 170, 180))
        pen.ellipse((65, 8, 77, 46), fill=(242, 170, 180))
        pen.ellipse((12, 38, 88, 98), fill=white, outline=ink, width=3)
        pen.circle(36, 62, 5, fill=ink)
        pen.circle(64, 62, 5, fill=ink)
        pen.poly([(44, 74), (56, 74), (50, 80)], fill=(220, 110, 130))
        pen.circle(28, 78, 5, fill=(250, 190, 196))
        pen.circle(72, 78, 5, fill=(250, 190, 196))


@lru_cache(maxsize=64)
def animal(name: str, size: int) -> Image.Image:
    """An animal face, square."""
    return render(size, size, 100, lambda pen: _paint_animal(pen, name))


def _paint_paw(pen: Pen, color: RGB) -> None:
    pen.ellipse((26, 44, 74, 90), fill=color)
    for cx, cy in ((16, 40), (36, 18), (64, 18), (84, 40)):
        pen.ellipse((cx - 11, cy - 13, cx + 11, cy + 13), fill=color)


@lru_cache(maxsize=32)
def paw(size: int, color: RGB = pal.INK) -> Image.Image:
    """A paw print: 'an animal of your choice'."""
    return render(size, size, 100, lambda pen: _paint_paw(pen, color))


# ---------------------------------------------------------------- arrows, coins, bag, stars


def _rainbow(pen: Pen, y: float, r: float = 7) -> None:
    # The five tile colours side by side stand for "any kokeshi" / "any track".
    for i, name in enumerate(pal.TILE):
        x = 14 + i * 18
        pen.circle(x, y, r, fill=pal.TILE[name], outline=pal.INK, width=2)


def _paint_side(pen: Pen, word: str) -> None:
    ink = pal.INK
    if word in ("left", "right"):
        sign = -1 if word == "left" else 1
        tip, tail = 50 + 44 * sign, 50 - 40 * sign
        pen.line([(tail, 50), (tip - 14 * sign, 50)], fill=ink, width=14)
        pen.poly([(tip, 50), (tip - 30 * sign, 24), (tip - 30 * sign, 76)], fill=ink)
    elif word in ("any", "any2"):
        ys = (8,) if word == "any" else (0, 26)
        for y in ys:
            pen.line([(20, y + 40), (50, y + 12), (80, y + 40)], fill=ink, width=12)
        _rainbow(pen, 84)
    elif word in ("buy_any", "buy_here"):
        gold, dark = (240, 196, 70), (150, 104, 10)
        cy = 40 if word == "buy_here" else 38
        pen.circle(50, cy, 34, fill=gold, outline=dark, width=5)
        pen.circle(50, cy, 24, outline=pal.shade(gold, 0.8), width=3)
        pen.rect((42, cy - 8, 58, cy + 8), fill=pal.PAPER, outline=dark, width=3)
        if word == "buy_here":
            pen.line([(50, 74), (50, 90)], fill=ink, width=8)
            pen.poly([(36, 86), (64, 86), (50, 100)], fill=ink)
        else:
            _rainbow(pen, 88, 6)


@lru_cache(maxsize=128)
def side(word: str, size: int) -> Image.Image:
    """The icon of one non-kokeshi, non-animal effect side (left, right, any, any2, buy_any, buy_here)."""
    return render(size, size, 100, lambda pen: _paint_side(pen, word))


def _paint_bag(pen: Pen) -> None:
    cloth, dark = (176, 92, 64), (104, 48, 30)
    pen.poly([(30, 30), (70, 30), (92, 70), (86, 94), (14, 94), (8, 70)], fill=cloth, outline=dark, width=4)
    pen.ellipse((6, 50, 94, 98), fill=cloth, outline=dark, width=4)
    pen.rect((10, 56, 90, 90), fill=cloth)
    pen.ellipse((26, 6, 74, 34), fill=cloth, outline=dark, width=4)
    pen.line([(28, 32), (72, 32)], fill=(240, 200, 90), width=7)
    pen.circle(64, 40, 7, fill=(240, 200, 90))
    # Asanoha-like cross motif.
    for dx in (-14, 14):
        pen.line([(50 + dx, 60), (50 - dx, 84)], fill=pal.shade(cloth, 1.35), width=3)


@lru_cache(maxsize=16)
def bag(size: int) -> Image.Image:
    """The draw bag."""
    return render(size, size, 100, _paint_bag)


def _paint_medal(pen: Pen, color: RGB, dark: RGB) -> None:
    pen.circle(50, 50, 48, fill=pal.CREAM, outline=dark, width=6)
    for i in range(8):
        ang = math.radians(i * 45)
        pen.circle(50 + 34 * math.cos(ang), 50 + 34 * math.sin(ang), 11, fill=color)
    pen.circle(50, 50, 27, fill=pal.CREAM, outline=dark, width=3)


@lru_cache(maxsize=64)
def medal(color_name: str, size: int) -> Image.Image:
    """A flower medallion in a tile colour: the quality tile motif."""
    return render(size, size, 100, lambda pen: _paint_medal(pen, pal.TILE[color_name], pal.TILE_DARK[color_name]))

"""Colours of the pictures: paper and wood, tile and kokeshi colours, seat colours that differ in grey too."""

from __future__ import annotations

import games.kokeshi.vocab as vocab
from engine.data import COLORS

RGB = tuple[int, int, int]

# Paper, wood and ink.
BACKGROUND: RGB = (239, 226, 204)
PAPER: RGB = (251, 245, 234)
PAPER_EDGE: RGB = (214, 190, 156)
WOOD_DARK: RGB = (92, 58, 38)
WOOD: RGB = (196, 150, 102)
WOOD_LIGHT: RGB = (232, 206, 166)
SLOT: RGB = (222, 196, 156)
SLOT_EDGE: RGB = (190, 158, 116)
THRESHOLD: RGB = (240, 214, 150)  # the band behind heights that unlock a quality level or a track value
INK: RGB = (43, 29, 20)
INK_SOFT: RGB = (104, 82, 64)
CREAM: RGB = (255, 250, 240)

# A vermilion for the red line and penalties, a gold for "changed this turn".
VERMILION: RGB = (200, 58, 40)
GOLD: RGB = (236, 160, 0)
GOLD_LIGHT: RGB = (255, 226, 140)
GOOD: RGB = (46, 122, 60)

# Tile and kokeshi colours in the engine's colour order (pink, violet, blue, green, yellow). Violet and blue are
# close in grey, so every tile also carries its letter.
TILE: dict[str, RGB] = dict(
    zip(COLORS, ((240, 150, 172), (152, 118, 196), (84, 152, 214), (120, 180, 98), (244, 204, 72)), strict=True)
)
TILE_DARK: dict[str, RGB] = dict(
    zip(COLORS, ((176, 70, 100), (92, 62, 140), (34, 88, 150), (58, 112, 46), (170, 124, 10)), strict=True)
)
# Letters on tiles and colour words, from the vocabulary in the current language: no two colours share a letter.
LETTER = vocab.Names(COLORS, vocab.color_letter)
COLOR_WORD = vocab.Names(COLORS, vocab.color)

# Seats in turn order: yellow, green, red, blue, with lightness falling in that order so they also differ in grey.
SEAT: tuple[RGB, ...] = ((250, 208, 60), (110, 186, 100), (192, 52, 44), (28, 44, 110))
SEAT_MARK: tuple[RGB, ...] = (INK, INK, CREAM, CREAM)
SEAT_SHAPES: tuple[str, ...] = ("circle", "triangle", "square", "diamond")

# Pale row tints of the happiness board, one per animal.
ANIMAL_TINT: dict[str, RGB] = {
    "panda": (240, 240, 232),
    "fox": (250, 226, 200),
    "cat": (232, 228, 220),
    "rabbit": (250, 236, 232),
}


def shade(color: RGB, factor: float) -> RGB:
    """The colour darkened (factor < 1) or lightened towards white (factor > 1)."""
    if factor <= 1:
        return tuple(round(c * factor) for c in color)  # type: ignore[return-value]
    t = factor - 1
    return tuple(round(c + (255 - c) * t) for c in color)  # type: ignore[return-value]

"""Kokeshi's colours: tile and figure colours with their letters and words, the animals' row tints; the rest shared."""

from __future__ import annotations

import games.kokeshi.vocab as vocab
from games.kokeshi.engine.data import COLORS
from render.palette import (
    BACKGROUND,
    CREAM,
    GOLD,
    GOLD_LIGHT,
    GOOD,
    INK,
    INK_SOFT,
    PAPER,
    PAPER_EDGE,
    RGB,
    SEAT,
    SEAT_MARK,
    SEAT_SHAPES,
    SLOT,
    SLOT_EDGE,
    THRESHOLD,
    VERMILION,
    WOOD,
    WOOD_DARK,
    WOOD_LIGHT,
    shade,
)

__all__ = [
    "ANIMAL_TINT",
    "BACKGROUND",
    "COLOR_WORD",
    "CREAM",
    "GOLD",
    "GOLD_LIGHT",
    "GOOD",
    "INK",
    "INK_SOFT",
    "LETTER",
    "PAPER",
    "PAPER_EDGE",
    "RGB",
    "SEAT",
    "SEAT_MARK",
    "SEAT_SHAPES",
    "SLOT",
    "SLOT_EDGE",
    "THRESHOLD",
    "TILE",
    "TILE_DARK",
    "VERMILION",
    "WOOD",
    "WOOD_DARK",
    "WOOD_LIGHT",
    "shade",
]

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

# Pale row tints of the happiness board, one per animal.
ANIMAL_TINT: dict[str, RGB] = {
    "panda": (240, 240, 232),
    "fox": (250, 226, 200),
    "cat": (232, 228, 220),
    "rabbit": (250, 236, 232),
}

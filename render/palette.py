"""Colours every game's pictures share: paper and wood, ink, gold and vermilion, seat colours that differ in grey."""

from __future__ import annotations

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
# A calm blue for lines of figures over time, and its dark edge.
LINE: RGB = (84, 152, 214)
LINE_DARK: RGB = (34, 88, 150)

# Seats in turn order: yellow, green, red, blue, with lightness falling in that order so they also differ in grey.
SEAT: tuple[RGB, ...] = ((250, 208, 60), (110, 186, 100), (192, 52, 44), (28, 44, 110))
SEAT_MARK: tuple[RGB, ...] = (INK, INK, CREAM, CREAM)
SEAT_SHAPES: tuple[str, ...] = ("circle", "triangle", "square", "diamond")


def shade(color: RGB, factor: float) -> RGB:
    """The colour darkened (factor < 1) or lightened towards white (factor > 1)."""
    if factor <= 1:
        return tuple(round(c * factor) for c in color)  # type: ignore[return-value]
    t = factor - 1
    return tuple(round(c + (255 - c) * t) for c in color)  # type: ignore[return-value]

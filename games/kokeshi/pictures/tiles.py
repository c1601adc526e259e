"""Tile sprites: colour, colour letter, and an icon per effect side so every type reads without text."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from i18n import current
from render import text as tx

from . import icons
from . import model as m
from . import palette as pal

# Dots on the divider tell the kokeshi pairs apart: start1/start2 and plus1/plus4 have the same kind of icons
# (plus3 is a tile of rules version 1 only).
_DIVIDER_PIPS = {"start1": 1, "start2": 2, "plus1": 1, "plus3": 3, "plus4": 4}
FULL_MIN_HEIGHT = 48  # below this a tile shows only its colour, letter and kind


def split_effect(effect: str) -> tuple[str, list[str]]:
    """("/", [a, b]) for a choice, ("&", [a, b]) for both, ("", []) for a quality tile."""
    for mode in ("/", "&"):
        if mode in effect:
            return mode, effect.split(mode)
    return "", []


def _side_icon(word: str, size: int) -> Image.Image:
    if word in m.KOKESHI:
        return icons.kokeshi(word, size // 2)
    if word in m.ANIMALS:
        return icons.animal(word, size)
    if word == "animal":
        return icons.paw(size)
    return icons.side(word, size)


def _key(tile: Mapping[str, Any]) -> tuple[Any, ...]:
    return (
        tile.get("kind"),
        tile.get("color"),
        tile.get("type"),
        tile.get("effect"),
        tile.get("level"),
        tile.get("points"),
    )


def sprite(tile: Mapping[str, Any], w: int, h: int, text: int = tx.MIN_SIZE, letter: bool = True) -> Image.Image:
    """The RGBA picture of a tile dict from the view, `w` x `h` px, its letters at least `text` px (cached).
    Without `letter`, a tile drawn in full leaves out its colour letter, whose badge at `text` px would hide half
    of a small tile's art (the other players' boards on a phone)."""
    return _sprite(_key(tile), w, h, text, current(), letter)


def _paint_base(pen: icons.Pen, w: float, h: float, color: str, starting: bool) -> None:
    fill, dark = pal.TILE[color], pal.TILE_DARK[color]
    pen.rect((1, 2, w - 1, h - 1), fill=pal.shade(dark, 0.8), radius=9)
    pen.rect((1, 1, w - 1, h - 3), fill=fill, outline=dark, width=1.6, radius=9)
    # A lighter upper edge suggests a thick wooden tile.
    pen.rect((4, 3, w - 4, 8), fill=pal.shade(fill, 1.25), radius=3)
    if starting:
        pen.poly([(w * 0.5, 0.5), (w * 0.68, 0.5), (w * 0.5, h - 3), (w * 0.32, h - 3)], fill=(252, 252, 248))


@lru_cache(maxsize=1024)
def _sprite(
    key: tuple, w: int, h: int, text: int = tx.MIN_SIZE, locale: str = "en", letter: bool = True
) -> Image.Image:
    """A tile's picture; `locale` keys the cache, as the colour letter depends on the language."""
    kind, color, type_, effect, level, points = key
    color = color if color in pal.TILE else "yellow"
    starting = kind == "starting"
    img = icons.render(w, h, w, lambda pen: _paint_base(pen, w, h, color, starting))
    d = ImageDraw.Draw(img)
    if h < FULL_MIN_HEIGHT:
        _small_marks(img, d, w, h, color, kind, level, text)
        return img
    if kind == "quality":
        _quality(img, d, w, h, color, level, points, text)
    else:
        _sides(img, w, h, type_, effect)
    if not letter:
        return img
    # Colour letter on a cream badge, top left.
    r = max(9, h // 8, round(text * 0.68) if text > tx.MIN_SIZE else 0)
    d.ellipse((2, 2, 2 + 2 * r, 2 + 2 * r), fill=pal.CREAM, outline=pal.TILE_DARK[color], width=1)
    tx.draw(d, (2 + r, 2 + r), pal.LETTER[color], text, pal.INK, bold=True, anchor="mm")
    return img


def _sides(img: Image.Image, w: int, h: int, type_: str, effect: str) -> None:
    mode, words = split_effect(effect)
    plate = round(min(w * 0.44, h * 0.62))
    cy = h * 0.54
    centres = ((w * 0.27, cy), (w * 0.73, cy))
    deco = icons.render(w, h, w, lambda pen: _paint_divider(pen, w, h, mode, type_, centres, plate))
    img.alpha_composite(deco)
    for (cx, cy), word in zip(centres, words, strict=False):
        size = round(plate * 0.84)
        icon = _side_icon(word, size)
        img.alpha_composite(icon, (round(cx - icon.width / 2), round(cy - icon.height / 2)))


def _paint_divider(pen: icons.Pen, w: float, h: float, mode: str, type_: str, centres, plate: float) -> None:
    for cx, cy in centres:
        pen.circle(cx, cy, plate / 2, fill=pal.CREAM, outline=pal.shade(pal.INK_SOFT, 1.2), width=1)
    if mode == "&":
        # "Do both": a plus between the two sides.
        cx, cy, r = w / 2, centres[0][1], w * 0.07
        pen.circle(cx, cy, r + 3, fill=pal.CREAM)
        pen.line([(cx - r, cy), (cx + r, cy)], fill=pal.INK, width=3.4)
        pen.line([(cx, cy - r), (cx, cy + r)], fill=pal.INK, width=3.4)
        return
    top, bottom = (w * 0.58, h * 0.1), (w * 0.42, h * 0.92)
    if type_ not in ("start1", "start2"):
        pen.line([top, bottom], fill=pal.INK, width=2.6)
    pips = _DIVIDER_PIPS.get(type_, 0)
    for i in range(pips):
        t = 0.5 + (i - (pips - 1) / 2) * 0.16
        x, y = top[0] + (bottom[0] - top[0]) * t, top[1] + (bottom[1] - top[1]) * t
        pen.circle(x, y, 3.4, fill=pal.INK, outline=pal.CREAM, width=1)


def _quality(img: Image.Image, d: ImageDraw.ImageDraw, w: int, h: int, color: str, level, points, text: int) -> None:
    """A flower medallion with the points, and one star per level down the right edge."""
    size = round(h * 0.74)
    cx, cy = round(w * 0.46), round(h * 0.54)
    img.alpha_composite(icons.medal(color, size), (cx - size // 2, cy - size // 2))
    label = str(points if points is not None else "?")
    tx.draw(d, (cx, cy), label, max(text, h // 4), pal.INK, bold=True, anchor="mm")
    n = max(0, min(3, int(level or 0)))
    star = icons.star(max(10, h // 6))
    top = cy - (n * (star.height - 1)) // 2
    for i in range(n):
        img.alpha_composite(star, (w - 3 - star.width, top + i * (star.height - 1)))


def _small_marks(img: Image.Image, d: ImageDraw.ImageDraw, w: int, h: int, color: str, kind, level, text: int) -> None:
    if kind == "quality":
        star = icons.star(max(10, h // 2 - 2))
        img.alpha_composite(star, (w - star.width - 1, 1))
    tx.draw(
        d,
        (w / 2 - (3 if kind == "quality" else 0), h / 2),
        pal.LETTER[color],
        text,
        pal.INK,
        bold=True,
        anchor="mm",
    )


@lru_cache(maxsize=1)
def split_sample() -> Image.Image:
    """A tiny '/' and '+' pair, for legends."""
    img = Image.new("RGBA", (56, 24), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    tx.draw(d, (14, 12), "/", 20, pal.INK, bold=True, anchor="mm")
    tx.draw(d, (42, 12), "+", 20, pal.INK, bold=True, anchor="mm")
    return img

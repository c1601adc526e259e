"""A pen for icons: Pillow primitives drawn at 4x and scaled down for smooth edges, and the icons every game uses."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from . import palette as pal
from .palette import RGB

SUPER = 4  # supersampling factor: Pillow's primitives are not antialiased


class Pen:
    """Draws in a design box of `w` x `h` units onto a supersampled canvas of the final pixel size."""

    def __init__(self, draw: ImageDraw.ImageDraw, scale: float) -> None:
        self.d = draw
        self.k = scale

    def _p(self, pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x * self.k, y * self.k) for x, y in pts]

    def _w(self, width: float) -> int:
        return max(1, round(width * self.k))

    def ellipse(self, box, fill=None, outline=None, width: float = 0) -> None:
        x0, y0, x1, y1 = box
        self.d.ellipse(
            (x0 * self.k, y0 * self.k, x1 * self.k, y1 * self.k),
            fill=fill,
            outline=outline,
            width=self._w(width) if outline else 0,
        )

    def circle(self, cx: float, cy: float, r: float, fill=None, outline=None, width: float = 0) -> None:
        self.ellipse((cx - r, cy - r, cx + r, cy + r), fill, outline, width)

    def poly(self, pts, fill=None, outline=None, width: float = 0) -> None:
        self.d.polygon(self._p(pts), fill=fill, outline=outline, width=self._w(width) if outline else 0)

    def line(self, pts, fill, width: float, joint: bool = True) -> None:
        self.d.line(self._p(pts), fill=fill, width=self._w(width), joint="curve" if joint else None)
        # Round caps: Pillow's lines end square.
        r = width / 2
        for x, y in (pts[0], pts[-1]):
            self.circle(x, y, r, fill=fill)

    def rect(self, box, fill=None, outline=None, width: float = 0, radius: float = 0) -> None:
        x0, y0, x1, y1 = box
        self.d.rounded_rectangle(
            (x0 * self.k, y0 * self.k, x1 * self.k, y1 * self.k),
            radius=radius * self.k,
            fill=fill,
            outline=outline,
            width=self._w(width) if outline else 0,
        )

    def pie(self, box, start: float, end: float, fill) -> None:
        x0, y0, x1, y1 = box
        self.d.pieslice((x0 * self.k, y0 * self.k, x1 * self.k, y1 * self.k), start, end, fill=fill)

    def arc(self, box, start: float, end: float, fill, width: float) -> None:
        x0, y0, x1, y1 = box
        self.d.arc((x0 * self.k, y0 * self.k, x1 * self.k, y1 * self.k), start, end, fill=fill, width=self._w(width))


def render(width: int, height: int, design_w: float, paint: Callable[[Pen], None]) -> Image.Image:
    """An RGBA image of `width` x `height` px painted in a design box `design_w` units wide."""
    big = Image.new("RGBA", (width * SUPER, height * SUPER), (0, 0, 0, 0))
    paint(Pen(ImageDraw.Draw(big), width * SUPER / design_w))
    return big.resize((width, height), Image.Resampling.LANCZOS)


def star_points(cx: float, cy: float, r: float, inner: float = 0.45, n: int = 5) -> list[tuple[float, float]]:
    """Corners of an n-pointed star, first point up."""
    pts = []
    for i in range(2 * n):
        rr = r if i % 2 == 0 else r * inner
        ang = math.pi * i / n - math.pi / 2
        pts.append((cx + rr * math.cos(ang), cy + rr * math.sin(ang)))
    return pts


@lru_cache(maxsize=64)
def star(size: int, fill: RGB = pal.GOLD, outline: RGB = pal.INK) -> Image.Image:
    """A five-pointed star."""
    return render(size, size, 100, lambda pen: pen.poly(star_points(50, 54, 46), fill=fill, outline=outline, width=5))


def _paint_crown(pen: Pen) -> None:
    pen.poly(
        [(6, 84), (6, 24), (30, 50), (50, 10), (70, 50), (94, 24), (94, 84)], fill=pal.GOLD, outline=pal.INK, width=6
    )


@lru_cache(maxsize=16)
def crown(size: int) -> Image.Image:
    """The lead marker of an animal track."""
    return render(size, size, 100, _paint_crown)


def _paint_seat(pen: Pen, seat: int, ring: RGB | None) -> None:
    fill, mark = pal.SEAT[seat % 4], pal.SEAT_MARK[seat % 4]
    shape = pal.SEAT_SHAPES[seat % 4]
    if ring is not None:
        pen.circle(50, 50, 49, fill=ring)
        pen.circle(50, 50, 38, fill=fill, outline=pal.INK, width=5)
    else:
        pen.circle(50, 50, 46, fill=fill, outline=pal.INK, width=6)
    r = 15 if ring is not None else 19
    if shape == "circle":
        pen.circle(50, 50, r, fill=mark)
    elif shape == "triangle":
        pen.poly([(50, 50 - r * 1.25), (50 + r * 1.15, 50 + r * 0.85), (50 - r * 1.15, 50 + r * 0.85)], fill=mark)
    elif shape == "square":
        pen.rect((50 - r * 0.95, 50 - r * 0.95, 50 + r * 0.95, 50 + r * 0.95), fill=mark)
    else:
        pen.poly([(50, 50 - r * 1.3), (50 + r * 1.1, 50), (50, 50 + r * 1.3), (50 - r * 1.1, 50)], fill=mark)


@lru_cache(maxsize=64)
def seat_disc(seat: int, size: int, ring: RGB | None = None) -> Image.Image:
    """A player's disc: the seat colour with its shape marker (circle, triangle, square, diamond)."""
    return render(size, size, 100, lambda pen: _paint_seat(pen, seat, ring))

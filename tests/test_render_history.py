"""The score-history picture of /kokeshi stats: every game drawn, any count, any name, phone-friendly size."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

import render

DAY = 86400.0


def _points(count: int, seed: int = 1) -> list[tuple[float, int]]:
    rng = random.Random(seed)
    return [(1.76e9 + i * DAY, max(-10, int(rng.gauss(45, 15)))) for i in range(count)]


@pytest.mark.parametrize("count", [0, 1, 2, 200])
def test_the_history_picture_is_a_landscape_png_under_a_megabyte_and_stable(count):
    data = render.history("aiko", _points(count))
    img = Image.open(io.BytesIO(data))
    assert data.startswith(b"\x89PNG") and len(data) < 1_000_000
    assert img.width <= 1600 and img.width != img.height
    assert render.history("aiko", _points(count)) == data


def test_each_game_changes_the_picture():
    points = _points(20)
    base = render.draw_history("aiko", points)
    moved = list(points)
    moved[7] = (moved[7][0], moved[7][1] + 25)
    assert ImageChops.difference(base, render.draw_history("aiko", moved)).getbbox() is not None
    assert ImageChops.difference(base, render.draw_history("aiko", points[:-1])).getbbox() is not None


def test_exotic_and_long_names_are_drawn_safely():
    for name in ("🌸🌸🌸", "مرحبا", "東京の人", "x" * 32, ""):
        assert render.history(name, _points(3)).startswith(b"\x89PNG")

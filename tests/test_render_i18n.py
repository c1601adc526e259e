"""Pictures in every language: each line of text stays inside its picture and clear of every other line."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from PIL import Image, ImageDraw

import games.kokeshi.pictures as pictures
import i18n
import render
from games.kokeshi.pictures import phone, sheets
from render import text as tx
from tests.golden import CASES

Box = tuple[float, float, float, float]
# Names drawn in the golden cases: only these may be shortened with an ellipsis (a label never is).
PLAYER_NAMES = ("Aiko", "Botan", "Chiyo", "Daiki", "automa", "jogador fictício")


def _clear_caches() -> None:
    for module in (
        render,
        pictures,
        render.draw,
        render.pen,
        *(getattr(pictures, n) for n in ("boards", "scenes", "sheets", "phone", "rules", "tiles", "icons")),
    ):
        for value in vars(module).values():
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()


@contextmanager
def recorded() -> Iterator[list[tuple[tuple[int, int], str, Box, bool]]]:
    """Every line drawn with its canvas size, its words, its box and whether it was shortened to fit."""
    lines: list[tuple[tuple[int, int], str, Box, bool]] = []
    draw, paste_text = tx.draw, phone._text

    def box_of(xy, text: str, size: int, bold: bool, anchor: str) -> Box:
        x0, y0, x1, y1 = tx.font(size, bold).getbbox(text, anchor=anchor)
        return (xy[0] + x0, xy[1] + y0, xy[0] + x1, xy[1] + y1)

    def record(canvas_size, xy, text, size, bold, anchor, max_width) -> None:
        shown = tx.fit(text, size, bold, max_width) if max_width is not None else text
        cut = shown != tx.sanitize(text) and max_width is not None
        lines.append((canvas_size, shown, box_of(xy, shown, size, bold, anchor), cut))

    def spy_draw(canvas, xy, text, size, fill, *, bold=False, anchor="la", max_width=None):
        record(canvas._image.size, xy, text, size, bold, anchor, max_width)
        return draw(canvas, xy, text, size, fill, bold=bold, anchor=anchor, max_width=max_width)

    def spy_text(img, xy, text, size, fill, *, bold=False, anchor="la", max_width=None):
        record(img.size, xy, text, size, bold, anchor, max_width)
        return paste_text(img, xy, text, size, fill, bold=bold, anchor=anchor, max_width=max_width)

    _clear_caches()
    tx.draw, phone._text = spy_draw, spy_text
    try:
        yield lines
    finally:
        tx.draw, phone._text = draw, paste_text
        _clear_caches()


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


def check_lines(make: Callable[[], bytes]) -> list[str]:
    """The problems of one picture's text: lines outside their canvas, lines over each other, labels cut short."""
    with recorded() as lines:
        png = make()
    size = Image.open(io.BytesIO(png)).size
    problems = []
    on_picture = [(text, box) for canvas, text, box, _ in lines if canvas == size and text.strip()]
    for canvas, text, box, cut in lines:
        if box[0] < -1 or box[1] < -1 or box[2] > canvas[0] + 1 or box[3] > canvas[1] + 1:
            problems.append(f"outside its {canvas} canvas: {text!r} at {tuple(round(v) for v in box)}")
        if cut and not any(tx.sanitize(name).startswith(text.rstrip("…").rstrip()) for name in PLAYER_NAMES):
            problems.append(f"label cut short: {text!r}")
    for i, (text, box) in enumerate(on_picture):
        for other, other_box in on_picture[i + 1 :]:
            if box != other_box and _overlap(box, other_box) > 4:
                problems.append(f"{text!r} overlaps {other!r}")
    return problems


@pytest.mark.parametrize("locale", ["en", "pt_BR"])
@pytest.mark.parametrize("name", [n for n in CASES if not n.startswith("pt_BR_")])
def test_every_line_fits_in_every_language(name: str, locale: str) -> None:
    with i18n.using(locale):
        problems = check_lines(CASES[name])
    assert problems == []


def test_the_checker_sees_an_overflow() -> None:
    def overflowing() -> bytes:
        img = Image.new("RGB", (300, 200))
        d = ImageDraw.Draw(img)
        tx.draw(d, (10, 10), "Peças de reconhecimento de qualidade", 16, (255, 255, 255))
        tx.draw(d, (12, 14), "Bolsa", 16, (255, 255, 255))
        return render.encode(img)

    problems = check_lines(overflowing)
    assert any("outside" in p for p in problems) and any("overlaps" in p for p in problems)


def test_glossary_descriptions_fit_their_three_lines_in_every_language() -> None:
    import textwrap

    for locale in i18n.LOCALES:
        with i18n.using(locale):
            for title, body in sheets._TYPE_TEXT.values():
                text = i18n._(body).format(levels=3, heights="3 / 5 / 7")
                lines = textwrap.wrap(text, sheets.GLOSSARY_WRAP)
                assert len(lines) <= 3, (locale, text)
                assert all(tx.width(line, 15) < sheets.GLOSSARY_COLUMN - 130 for line in lines), (locale, text)
                assert tx.width(i18n._(title), 17, True) < sheets.GLOSSARY_COLUMN / 2


@pytest.mark.parametrize("locale", ["en", "pt_BR"])
@pytest.mark.parametrize("games", [0, 1, 12])
@pytest.mark.parametrize("trend", [1, -1, 0])
def test_the_history_picture_fits_in_every_language(locale: str, games: int, trend: int) -> None:
    # Scores that zigzag, or climb (the best game last, at the right edge), or fall (the best first).
    points = [(1_780_000_000 + i * 86_400, 40 + (trend * i * 3 if trend else (i * 7) % 30)) for i in range(games)]
    with i18n.using(locale):
        assert check_lines(lambda: render.history("Aiko", points)) == []


def test_final_score_hints_fit_their_column_in_every_language() -> None:
    # The final picture explains each score item under the happiness board, three to a row of 300 px.
    for locale in i18n.LOCALES:
        with i18n.using(locale):
            items = [(label, hint) for label, hint in sheets.SCORE_LABELS.values() if hint]
            for i, (label, hint) in enumerate(items):
                room = 292 if i % 3 < 2 else 940 - 8 - (sheets.MARGIN + 16 + 600)
                item = i18n._("{item}:").format(item=label)
                assert tx.width(item, tx.MIN_SIZE, True) + 6 + tx.width(hint, tx.MIN_SIZE) <= room, (locale, hint)

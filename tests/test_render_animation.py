"""Any game's finished match as one animation: a frame per step, each the game's own picture under its caption."""

from __future__ import annotations

import io
import pickle

import pytest
from PIL import Image, ImageChops

import games
import render.animation as animation
from bench.replay_bench import contract_played
from render import palette as pal
from render.animation import FRAME_MS, FRAME_WIDTH, LAST_FRAME_MS, PROGRESS_H, caption_height, captioned, film


def frames_of(data: bytes) -> list[Image.Image]:
    with Image.open(io.BytesIO(data)) as img:
        out = []
        for i in range(img.n_frames):
            img.seek(i)
            out.append(img.convert("RGB"))
        return out


def body(frame: Image.Image, picture: Image.Image) -> Image.Image:
    """The part of a frame where the step's picture (already at the frame's scale) was put."""
    left, top = (frame.width - picture.width) // 2, caption_height(frame.width)
    return frame.crop((left, top, left + picture.width, top + picture.height))


def same(a: Image.Image, b: Image.Image) -> bool:
    """Equal but for the shared palette's rounding: a colour missing from it (a mark of one turn only) is shown as
    the nearest it has, a little off, on a few pixels."""
    if a.size != b.size:
        return False
    grey = ImageChops.difference(a, b).convert("L").histogram()
    return sum(grey[24:]) <= a.width * a.height // 250 and sum(grey[64:]) == 0


def picture(png: bytes, width: int) -> Image.Image:
    with Image.open(io.BytesIO(png)) as img:
        return animation.scaled(img.convert("RGB"), width)


@pytest.fixture(scope="module")
def kohaku_steps() -> list[tuple]:
    return contract_played("kohaku", 2, 3)[:5]


@pytest.mark.slow
def test_every_frame_is_its_steps_table_picture_under_its_caption_looping(kohaku_steps):
    kohaku = games.get("kohaku")
    captions = [f"turn {n} of {len(kohaku_steps)}" for n in range(1, len(kohaku_steps) + 1)]
    data = film(kohaku.table_picture, kohaku_steps, "Kōhaku #7", captions, "en")
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "GIF" and img.is_animated and img.info["loop"] == 0
        assert img.n_frames == len(kohaku_steps)
        durations = []
        for i in range(img.n_frames):
            img.seek(i)
            durations.append(img.info["duration"])
    assert durations == [FRAME_MS] * (len(kohaku_steps) - 1) + [LAST_FRAME_MS]
    shown = frames_of(data)
    # The 900 px table picture is scaled to a phone's 600, every frame one size however tall its picture.
    assert {f.size for f in shown} == {shown[0].size} and shown[0].width == FRAME_WIDTH
    for step, frame in zip(kohaku_steps, shown, strict=True):
        expected = picture(kohaku.table_picture(*step), FRAME_WIDTH)
        assert same(body(frame, expected), expected)
    # Each caption is its own: the bands differ, and the first is the caption drawn alone.
    band = (0, 0, FRAME_WIDTH, caption_height(FRAME_WIDTH))
    assert len({f.crop(band).tobytes() for f in shown}) == len(shown)
    alone = captioned(Image.new("RGB", (900, 10)), "Kōhaku #7", captions[0], FRAME_WIDTH, shown[0].height)
    assert same(shown[0].crop(band), alone.crop(band))


def test_a_small_picture_is_not_blown_up_and_the_progress_bar_fills_at_the_end(bids):
    steps = contract_played("bids", 2, 5)
    captions = [f"turn {n}" for n in range(1, len(steps) + 1)]
    shown = frames_of(film(bids.table_picture, steps, "Bids #1", captions, "en"))
    first = picture(bids.table_picture(*steps[0]), FRAME_WIDTH)
    last = picture(bids.table_picture(*steps[-1]), FRAME_WIDTH)
    assert shown[0].width == first.width == 240
    assert same(body(shown[0], first), first) and same(body(shown[-1], last), last)
    assert not same(first, last)  # the points changed: the test can tell the frames apart

    def gold(frame: Image.Image) -> int:
        row = [frame.getpixel((x, frame.height - PROGRESS_H // 2)) for x in range(frame.width)]
        return sum(1 for c in row if near(c, pal.GOLD) < near(c, pal.INK_SOFT))

    filled = [gold(f) for f in shown]
    assert filled == sorted(filled) and filled[-1] == 240 and filled[0] < 240


@pytest.mark.slow
def test_a_game_too_long_for_the_limit_is_drawn_narrower_then_refused(kohaku_steps, monkeypatch):
    kohaku = games.get("kohaku")
    captions = ["turn"] * len(kohaku_steps)
    whole = film(kohaku.table_picture, kohaku_steps, "Kōhaku #7", captions, "en")
    monkeypatch.setattr(animation, "MAX_BYTES", len(whole) - 1)
    smaller = film(kohaku.table_picture, kohaku_steps, "Kōhaku #7", captions, "en")
    assert frames_of(smaller)[0].width == animation.SMALLER_WIDTHS[0] and len(smaller) < len(whole)
    monkeypatch.setattr(animation, "MAX_BYTES", 1000)
    with pytest.raises(animation.TooLarge):
        film(kohaku.table_picture, kohaku_steps, "Kōhaku #7", captions, "en")


def test_the_game_words_its_pictures_in_the_watchers_language_and_the_work_travels_to_a_worker(kohaku_steps):
    kohaku = games.get("kohaku")
    step = kohaku_steps[:1]
    english = frames_of(film(kohaku.table_picture, step, "Kōhaku #7", ["turn 1 of 1"], "en"))[0]
    portuguese = frames_of(film(kohaku.table_picture, step, "Kōhaku #7", ["turn 1 of 1"], "pt_BR"))[0]
    # Only the game's own words differ (its header, "Board", "Scores"...): the caption is given already worded.
    band = (0, 0, FRAME_WIDTH, caption_height(FRAME_WIDTH))
    assert same(english.crop(band), portuguese.crop(band))
    assert not same(english, portuguese)
    work = (film, kohaku.table_picture, kohaku_steps, "Kōhaku #7", ["c"] * len(kohaku_steps), "en")
    assert pickle.loads(pickle.dumps(work))[2] == kohaku_steps
    with pytest.raises(ValueError):
        film(kohaku.table_picture, kohaku_steps, "Kōhaku #7", ["only one"], "en")


def near(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """How far apart two colours are (squared)."""
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=False))

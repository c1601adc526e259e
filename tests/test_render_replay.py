"""The replay's pictures: a turn's record picture and the whole game's animation, from public views only."""

from __future__ import annotations

import io
import pickle

import pytest
from PIL import Image, ImageChops, ImageStat

import games.kokeshi.pictures.replay as replay
from bench.replay_bench import played
from games.kokeshi.pictures import palette as pal
from games.kokeshi.pictures.replay import ReplayTurn, animation, draw_animation, draw_turn_record
from render.animation import FRAME_MS, FRAME_WIDTH, LAST_FRAME_MS, PROGRESS_H
from tests.test_render_animation import frames_of, near


@pytest.fixture(scope="module")
def turns() -> list[ReplayTurn]:
    """The first turns of a 4-player game played by the greedy policy."""
    return played(4, 11)[:6]


@pytest.mark.slow
def test_every_frame_of_the_gif_shows_its_turn_record_picture_scaled_to_a_phone(turns):
    data = animation(turns, "en")
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "GIF" and img.info["loop"] == 0
        durations = []
        for i in range(img.n_frames):
            img.seek(i)
            durations.append(img.info["duration"])
    assert durations == [FRAME_MS] * (len(turns) - 1) + [LAST_FRAME_MS]
    shown = frames_of(data)
    assert len(shown) == len(turns)
    for turn, frame in zip(turns, shown, strict=True):
        record = draw_turn_record(turn).convert("RGB")
        expected = record.resize(frame.size, Image.Resampling.BOX)
        # Only the changed part of a frame is stored; decoded, each frame is its own turn's picture (give or take
        # the shared palette), with the progress bar at its foot.
        body = (0, 0, frame.width, frame.height - PROGRESS_H)
        diff = ImageStat.Stat(ImageChops.difference(frame.crop(body), expected.crop(body))).mean
        assert max(diff) < 3, diff
    assert shown[0].width == FRAME_WIDTH


def test_the_progress_bar_grows_turn_by_turn_to_the_whole_width_at_the_end(turns):
    def gold(frame: Image.Image) -> int:
        row = [frame.getpixel((x, frame.height - 2)) for x in range(frame.width)]
        return sum(1 for c in row if near(c, pal.GOLD) < near(c, pal.INK_SOFT))

    filled = [gold(f) for f in frames_of(animation(turns, "en"))]
    assert filled == sorted(filled) and len(set(filled)) == len(filled)
    assert filled[-1] == FRAME_WIDTH and filled[0] == round(FRAME_WIDTH / len(turns))


@pytest.mark.slow
def test_a_game_too_long_for_8_mib_is_drawn_again_smaller(turns, monkeypatch):
    whole = animation(turns, "en")
    monkeypatch.setattr(replay, "MAX_BYTES", len(whole) - 1)
    smaller = animation(turns, "en")
    assert frames_of(smaller)[0].width == replay.SMALL_WIDTH < FRAME_WIDTH
    assert len(smaller) < len(whole)


def test_the_turns_travel_to_a_worker_process_and_the_webp_form_is_there_to_compare(turns):
    assert pickle.loads(pickle.dumps((animation, turns))) == (animation, turns)
    webp = draw_animation(turns[:2], kind="webp")
    assert webp[:4] == b"RIFF" and webp[8:12] == b"WEBP"
    with pytest.raises(ValueError):
        draw_animation(turns, kind="apng")
    with pytest.raises(ValueError):
        draw_animation([])

"""A finished game as one looping animated picture, a frame per step, sized for a phone and Discord's upload limit.

Any game's pictures can be put end to end here: `film` draws each step with the game's own picture function (PNG
bytes), captions it and makes one file; Kokeshi's replay uses the same frames' scaling, progress bar and encoding.
The inputs are plain data and a picklable function, so the whole of it can run in another process.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw

import i18n

from . import palette as pal
from . import text

# Frames 600 px wide: a 900 px phone picture at two thirds, its smallest text (28 px) still about 19 px once the
# file is opened on a phone. A picture narrower than that is never blown up.
FRAME_WIDTH = 600
# The widths tried, in turn, for a game too long to fit `MAX_BYTES` at the one before.
SMALLER_WIDTHS = (450, 300)
# How long each step shows, and the last one (the end) before the animation starts again.
FRAME_MS = 1200
LAST_FRAME_MS = 4000
# A thin bar at the foot of every frame shows how far into the game the step is.
PROGRESS_H = 8
# GIF, chosen by measurement (`bench/replay_bench.py`): every Discord client animates it, and flat-coloured art with
# a shared palette and only the changed part of each frame stored is small; animated WebP is not animated by every
# Discord client, and its lossy form blurs small text.
FORMAT = "gif"
EXTENSIONS = {"gif": "gif", "webp": "webp"}
# Under Discord's smallest upload limit for a bot's message, with room to spare.
MAX_BYTES = 8 * 1024 * 1024
# The caption band above each step's picture: its text size as a share of the frame's width, and the smallest.
CAPTION_SHARE = 0.04
CAPTION_MIN = 14

# A game's picture function: (public view, the players' names, the step's events) to PNG bytes.
Draw = Callable[[Any, Sequence[str], Sequence[Any]], bytes]


class TooLarge(ValueError):
    """Even at the smallest width, the animation would not fit `MAX_BYTES`."""


def extension(kind: str = FORMAT) -> str:
    """The attachment extension of an animation of this kind."""
    return EXTENSIONS[kind]


def scaled(img: Image.Image, width: int) -> Image.Image:
    """`img` at `width` px wide (never wider than it is), its proportions kept."""
    if img.width <= width:
        return img
    # An area average: as sharp as Lanczos at two thirds (side by side), and about 3 times faster.
    return img.resize((width, round(img.height * width / img.width)), Image.Resampling.BOX)


def progress(img: Image.Image, index: int, count: int) -> None:
    """Step `index` (0 is the first) of `count` as a bar along the foot of `img`, drawn in place."""
    d = ImageDraw.Draw(img)
    top = img.height - PROGRESS_H
    filled = round(img.width * (index + 1) / max(count, 1))
    d.rectangle((0, top, img.width - 1, img.height - 1), fill=pal.INK_SOFT)
    d.rectangle((0, top, filled - 1, img.height - 1), fill=pal.GOLD)  # both corners inclusive


def encode(frames: Sequence[Image.Image], kind: str = FORMAT, quality: int = 80) -> bytes:
    """The frames (RGB, one size) as one looping animation, each for `FRAME_MS` and the last for `LAST_FRAME_MS`:
    GIF bytes, or animated WebP with `kind="webp"` (lossy at `quality`, or lossless at 100)."""
    if not frames:
        raise ValueError("an animation needs at least one frame")
    if kind == "webp":
        lossless = quality >= 100
        return _saved(frames, "WEBP", lossless=lossless, quality=100 if lossless else quality, method=4)
    if kind != "gif":
        raise ValueError(f"unknown animation format {kind!r}")
    palette = shared_palette(frames[0], frames[-1])
    return gif([indexed(f, palette) for f in frames])


def shared_palette(first: Image.Image, last: Image.Image) -> Image.Image:
    """One palette for the whole game, taken from its first and last frame (between them, every colour of the
    boards and pieces has appeared), so that a colour never flickers from frame to frame."""
    sample = Image.new("RGB", (max(first.width, last.width), first.height + last.height))
    sample.paste(first, (0, 0))
    sample.paste(last, (0, first.height))
    return sample.quantize(colors=255, method=Image.Quantize.MEDIANCUT)


def indexed(frame: Image.Image, palette: Image.Image) -> Image.Image:
    """An RGB frame in the shared palette (undithered: flat colours stay flat)."""
    return frame.quantize(palette=palette, dither=Image.Dither.NONE)


def gif(frames: Sequence[Image.Image]) -> bytes:
    """Frames in one palette (`indexed`) as a looping GIF."""
    # Pillow stores only what changed since the previous frame, the rest left transparent: about a third of the size
    # of whole frames.
    return _saved(frames, "GIF", optimize=True, disposal=1)


def _saved(frames: Sequence[Image.Image], fmt: str, **options: Any) -> bytes:
    out = io.BytesIO()
    frames[0].save(
        out,
        fmt,
        save_all=True,
        append_images=list(frames[1:]),
        duration=[FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS],
        loop=0,
        **options,
    )
    return out.getvalue()


def captioned(picture: Image.Image, title: str, caption: str, width: int, height: int) -> Image.Image:
    """One frame, `width` × `height`: a band with `title` and `caption`, the picture scaled to fit under it (its
    own edge colour below it when it is shorter than the others) and room for the progress bar at the foot."""
    picture = scaled(picture.convert("RGB"), width)
    size = max(CAPTION_MIN, round(width * CAPTION_SHARE))
    band = caption_height(width)
    frame = Image.new("RGB", (width, height), picture.getpixel((0, picture.height - 1)))
    d = ImageDraw.Draw(frame)
    d.rectangle((0, 0, width - 1, band - 1), fill=pal.WOOD_DARK)
    pad = size // 2
    said = text.fit(caption, size, False, width - 2 * pad)
    right = round(text.width(said, size))
    text.draw(d, (width - pad, band // 2), said, size, pal.GOLD_LIGHT, anchor="rm")
    room = width - 3 * pad - right
    if room > size:
        text.draw(d, (pad, band // 2), title, size, pal.CREAM, bold=True, anchor="lm", max_width=room)
    frame.paste(picture, ((width - picture.width) // 2, band))
    return frame


def caption_height(width: int) -> int:
    """The height of the caption band over a frame `width` px wide."""
    return 2 * max(CAPTION_MIN, round(width * CAPTION_SHARE))


def film(
    draw: Draw,
    steps: Sequence[tuple[Any, Sequence[str], Sequence[Any]]],
    title: str,
    captions: Sequence[str],
    locale: str,
    widths: Sequence[int] = (FRAME_WIDTH, *SMALLER_WIDTHS),
) -> bytes:
    """In a worker: every step drawn by `draw(*step)` in `locale` (the game's own picture), with `title` and its
    caption above it and the progress bar at its foot, as one animation (`FORMAT`) at the first of `widths` that
    fits `MAX_BYTES`. Raises `TooLarge` if none does."""
    if not steps or len(steps) != len(captions):
        raise ValueError("a film needs one caption for each of at least one step")
    with i18n.using(locale):
        pictures = [draw(*step) for step in steps]
    sizes = [_size(png) for png in pictures]
    widest = max(w for w, _h in sizes)
    for width in dict.fromkeys(min(w, widest) for w in widths):
        height = caption_height(width) + max(round(h * min(1, width / w)) for w, h in sizes) + PROGRESS_H

        def frame(i: int, width: int = width, height: int = height) -> Image.Image:
            with Image.open(io.BytesIO(pictures[i])) as picture:
                out = captioned(picture, title, captions[i], width, height)
            progress(out, i, len(pictures))
            return out

        # Each frame is made and put in the palette in turn, so a long game's frames never all sit in memory as RGB.
        palette = shared_palette(frame(0), frame(len(pictures) - 1))
        data = gif([indexed(frame(i), palette) for i in range(len(pictures))])
        if len(data) <= MAX_BYTES:
            return data
    raise TooLarge(f"{len(steps)} steps do not fit {MAX_BYTES} bytes even {width} px wide")


def _size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as img:
        return img.size


__all__ = [
    "FORMAT",
    "FRAME_MS",
    "FRAME_WIDTH",
    "LAST_FRAME_MS",
    "MAX_BYTES",
    "PROGRESS_H",
    "SMALLER_WIDTHS",
    "TooLarge",
    "caption_height",
    "captioned",
    "encode",
    "extension",
    "film",
    "gif",
    "indexed",
    "progress",
    "scaled",
    "shared_palette",
]

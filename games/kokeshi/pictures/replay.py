"""A finished game replayed: each turn's record picture, and the whole game as one animated picture for a phone.

Everything here is drawn from public views (`Game.view()`) and the events of each turn, as the table saw them when
the turn was played: a replay never needs the seed or the bag's order, and so can never show them. The inputs are
plain data, so the animation can be drawn in another process.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

import games.kokeshi.story as story
import games.kokeshi.vocab as vocab
import i18n
from i18n import _

from . import palette as pal
from .phone import draw_table_phone

# The animation's frames: the 900 px phone picture scaled to two thirds. Its smallest text (28 px) stays at about
# 19 px, readable once the picture is opened on a phone, and a 4-player game stays far under Discord's 8 MiB.
FRAME_WIDTH = 600
# For a game too long to fit 8 MiB at that size (none of the measured games comes near).
SMALL_WIDTH = 450
# How long each turn shows, and the last one (the end) before the animation starts again.
FRAME_MS = 1200
LAST_FRAME_MS = 4000
# A thin bar at the foot of every frame shows how far into the game the turn is.
PROGRESS_H = 8
# GIF, chosen by measurement (`bench/replay_bench.py`): every Discord client animates it, and this flat-coloured art
# with a shared palette and only the changed part of each frame stored is small; animated WebP is not animated by
# every Discord client, and its lossy form blurs the small text.
FORMAT = "gif"
EXTENSIONS = {"gif": "gif", "webp": "webp"}
MAX_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class ReplayTurn:
    """One finished turn: who played it, the public view before and after it, and its events (their dicts)."""

    player: str
    before: Mapping[str, Any]
    after: Mapping[str, Any]
    events: Sequence[Mapping[str, Any]] = field(default_factory=tuple)


def draw_turn_record(turn: ReplayTurn) -> Image.Image:
    """The picture of a turn's record: the workshop of the player who just played, for a phone, the turn's changes
    marked and every player's points for the turn (the picture the thread showed after that turn)."""
    old, new = turn.before, turn.after
    names = [str(p.get("name")) for p in new.get("players") or []]
    gains = {name: story.score_change(name, old, new)[0] for name in names}
    change, total, _items = story.score_change(turn.player, old, new)
    title = _("this turn: {gained} → {total}").format(
        gained=f"+{change}" if change >= 0 else vocab.signed(change), total=vocab.points(total)
    )
    return draw_table_phone(new, turn.events, turn.player, title=title, gains=gains)


def _frame(turn: ReplayTurn, index: int, count: int, width: int) -> Image.Image:
    """A turn's picture scaled to `width`, with the game's progress along its foot."""
    img = draw_turn_record(turn).convert("RGB")
    if img.width != width:
        # An area average: as sharp as Lanczos at this two-thirds scale (side by side), and about 3 times faster.
        img = img.resize((width, round(img.height * width / img.width)), Image.Resampling.BOX)
    d = ImageDraw.Draw(img)
    top = img.height - PROGRESS_H
    filled = round(img.width * (index + 1) / max(count, 1))
    d.rectangle((0, top, img.width - 1, img.height - 1), fill=pal.INK_SOFT)
    d.rectangle((0, top, filled - 1, img.height - 1), fill=pal.GOLD)  # both corners inclusive
    return img


def draw_animation(
    turns: Sequence[ReplayTurn], *, width: int = FRAME_WIDTH, kind: str = FORMAT, quality: int = 80
) -> bytes:
    """The whole game turn by turn, one frame per turn (each as `draw_turn_record`, `width` px wide), looping:
    GIF bytes, or animated WebP with `kind="webp"` (lossy at `quality`, or lossless at 100)."""
    if not turns:
        raise ValueError("a replay needs at least one turn")
    frames = [_frame(turn, i, len(turns), width) for i, turn in enumerate(turns)]
    if kind == "webp":
        lossless = quality >= 100
        return _saved(frames, "WEBP", lossless=lossless, quality=100 if lossless else quality, method=4)
    if kind != "gif":
        raise ValueError(f"unknown animation format {kind!r}")
    # One palette for the whole game, taken from the first and the last frame (between them, every colour of the
    # boards and tiles has appeared), so a colour never flickers from frame to frame.
    sample = Image.new("RGB", (width, frames[0].height + frames[-1].height))
    sample.paste(frames[0], (0, 0))
    sample.paste(frames[-1], (0, frames[0].height))
    palette = sample.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    indexed = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    # Pillow stores only what changed since the previous frame, the rest left transparent: about a third of the size
    # of whole frames.
    return _saved(indexed, "GIF", optimize=True, disposal=1)


def _saved(frames: Sequence[Image.Image], fmt: str, **options: Any) -> bytes:
    """The frames as one looping animation in Pillow's format `fmt`: each turn for `FRAME_MS`, the last one for
    `LAST_FRAME_MS`."""
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


def animation(turns: Sequence[ReplayTurn], locale: str, kind: str = FORMAT) -> bytes:
    """In a worker: `draw_animation` worded in `locale` (the pictures' few words: rounds, titles, names). A game
    so long that its animation would pass 8 MiB is drawn again smaller."""
    with i18n.using(locale):
        data = draw_animation(turns, kind=kind)
        if len(data) > MAX_BYTES:
            data = draw_animation(turns, kind=kind, width=SMALL_WIDTH)
        return data


def extension(kind: str = FORMAT) -> str:
    """The attachment extension of an animation of this kind."""
    return EXTENSIONS[kind]


__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "ReplayTurn",
    "animation",
    "draw_animation",
    "draw_turn_record",
    "extension",
]

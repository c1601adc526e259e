"""A finished game replayed: each turn's record picture, and the whole game as one animated picture for a phone.

Everything here is drawn from public views (`Game.view()`) and the events of each turn, as the table saw them when
the turn was played: a replay never needs the seed or the bag's order, and so can never show them. The inputs are
plain data, so the animation can be drawn in another process.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

import games.kokeshi.story as story
import games.kokeshi.vocab as vocab
import i18n
from i18n import _
from render.animation import FORMAT, FRAME_WIDTH, MAX_BYTES, SMALLER_WIDTHS, encode, extension, progress, scaled

from .phone import draw_table_phone

# The animation's frames are 600 px wide (`render.animation.FRAME_WIDTH`), or 450 for a game too long to fit 8 MiB
# at that size (none of the measured games comes near); GIF, a turn a frame, as every game's animation.
SMALL_WIDTH = SMALLER_WIDTHS[0]


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
    img = scaled(draw_turn_record(turn).convert("RGB"), width)
    progress(img, index, count)
    return img


def draw_animation(
    turns: Sequence[ReplayTurn], *, width: int = FRAME_WIDTH, kind: str = FORMAT, quality: int = 80
) -> bytes:
    """The whole game turn by turn, one frame per turn (each as `draw_turn_record`, `width` px wide), looping:
    GIF bytes, or animated WebP with `kind="webp"` (lossy at `quality`, or lossless at 100)."""
    if not turns:
        raise ValueError("a replay needs at least one turn")
    return encode([_frame(turn, i, len(turns), width) for i, turn in enumerate(turns)], kind, quality)


def animation(turns: Sequence[ReplayTurn], locale: str, kind: str = FORMAT) -> bytes:
    """In a worker: `draw_animation` worded in `locale` (the pictures' few words: rounds, titles, names). A game
    so long that its animation would pass 8 MiB is drawn again smaller."""
    with i18n.using(locale):
        data = draw_animation(turns, kind=kind)
        if len(data) > MAX_BYTES:
            data = draw_animation(turns, kind=kind, width=SMALL_WIDTH)
        return data


__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "ReplayTurn",
    "animation",
    "draw_animation",
    "draw_turn_record",
    "extension",
]

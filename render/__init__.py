"""Board pictures drawn with Pillow from the engine's view."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image

from .history import draw_history
from .scenes import TableLayout, draw_table
from .sheets import draw_board, draw_final, draw_glossary

__all__ = [
    "TableLayout",
    "board",
    "draw_board",
    "draw_final",
    "draw_glossary",
    "draw_history",
    "draw_table",
    "encode",
    "final",
    "glossary",
    "history",
    "table",
]

# Level 1 is several times faster than the default 6 for ~10% more bytes; a table picture stays far below 1 MB.
PNG_COMPRESS_LEVEL = 1


def encode(img: Image.Image) -> bytes:
    """PNG bytes with fixed options and no metadata, so the same picture always gives the same bytes."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def table(view: Mapping[str, Any], events: Sequence[Any] = (), focus: str | None = None) -> bytes:
    """The turn picture: the focused (default: next to act) player's workshop large, the others small, the
    happiness board, the offer, the bag, the scores and the round; `events` of the last turn are highlighted.
    `events` are engine Events or their `to_dict()` form."""
    return encode(draw_table(view, events, focus))


def board(view: Mapping[str, Any], player: str) -> bytes:
    """One player's workshop board, large, with their score and discs. Raises ValueError for an unknown name."""
    return encode(draw_board(view, player))


def final(view: Mapping[str, Any], scores: Mapping[str, Any], ranking: Sequence[str]) -> bytes:
    """The end-of-game picture: the ranking with each score item, the happiness board and every workshop.
    `scores` maps names to engine Scores or their dicts; `ranking` lists names best first."""
    return encode(draw_final(view, scores, ranking))


@lru_cache(maxsize=1)
def glossary() -> bytes:
    """Every tile type with what it does, and the marks used on the boards."""
    return encode(draw_glossary())


def history(name: str, points: Sequence[tuple[float, int]], subtitle: str = "") -> bytes:
    """A player's scores over time: `points` are (UNIX time, total) of finished games, oldest first."""
    return encode(draw_history(name, points, subtitle))

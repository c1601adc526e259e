"""Board pictures drawn with Pillow from the engine's view."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from isal import isal_zlib
from PIL import Image

from i18n import current

from .history import draw_history
from .phone import draw_table_phone, draw_turn
from .rules import draw_rules_phone
from .scenes import TableLayout, draw_table
from .share import ShareCard, draw_share_card
from .sheets import draw_board, draw_final, draw_glossary

__all__ = [
    "ShareCard",
    "TableLayout",
    "board",
    "draw_board",
    "draw_final",
    "draw_glossary",
    "draw_history",
    "draw_rules_phone",
    "draw_share_card",
    "draw_table",
    "draw_table_phone",
    "draw_turn",
    "encode",
    "filename",
    "final",
    "glossary",
    "history",
    "rules_phone",
    "share_card",
    "table",
    "table_phone",
    "turn",
]

# Pictures are PNG: every Discord client and the sandbox page show it inline. Chosen by measurement
# (`bench/render_bench.py` compares the encoders side by side): Pillow's PNG at level 1 spends most of its time
# choosing a row filter per line and in zlib; lossless WebP at its fastest method is no faster. Rows left
# unfiltered (flat-colour pictures gain little from filters) and deflated by ISA-L's zlib-compatible level 1 give
# the same size several times faster.
PNG_COMPRESS_LEVEL = 1
EXTENSION = "png"
_COLOUR_TYPE = {"L": 0, "RGB": 2, "RGBA": 6}
_CHANNELS = {"L": 1, "RGB": 3, "RGBA": 4}


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode(img: Image.Image) -> bytes:
    """PNG bytes, rows unfiltered and deflated at level 1, no metadata: the same picture always gives the same bytes."""
    return png_unfiltered(img, isal_zlib.compress)


def png_unfiltered(img: Image.Image, deflate: Callable[[bytearray, int], bytes] = zlib.compress) -> bytes:
    """PNG bytes with every row unfiltered, compressed by `deflate(data, level)` (a zlib-format compressor)."""
    if img.mode not in _COLOUR_TYPE:
        img = img.convert("RGBA" if "A" in img.getbands() or img.mode == "P" else "RGB")
    width, height = img.size
    stride = width * _CHANNELS[img.mode]
    raw = memoryview(img.tobytes())
    rows = bytearray((stride + 1) * height)  # each row: filter type 0 ("none"), then its bytes
    for y in range(height):
        rows[y * (stride + 1) + 1 : (y + 1) * (stride + 1)] = raw[y * stride : (y + 1) * stride]
    header = struct.pack(">IIBBBBB", width, height, 8, _COLOUR_TYPE[img.mode], 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", deflate(rows, PNG_COMPRESS_LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


def filename(stem: str) -> str:
    """The attachment name of a picture: `stem` plus the encoding's extension."""
    return f"{stem}.{EXTENSION}"


def table(view: Mapping[str, Any], events: Sequence[Any] = (), focus: str | None = None) -> bytes:
    """The turn picture: the focused (default: next to act) player's workshop large, the others small, the
    happiness board, the offer, the bag, the scores and the round; `events` of the last turn are highlighted.
    `events` are engine Events or their `to_dict()` form."""
    return encode(draw_table(view, events, focus))


def turn(
    view: Mapping[str, Any],
    prompt: Any = None,
    player: str | None = None,
    events: Sequence[Any] = (),
    outcomes: Mapping[str, Any] | None = None,
) -> bytes:
    """The phone picture of one decision (900 px wide, portrait, no text under 28 px): whose turn and the question,
    then what the decision is about first and everything it depends on: the deciding player's workshop with the
    quality tiles left, the numbered offer and the bag, the happiness board, every score and recognition count.
    `prompt` is an engine Prompt or the view's prompt dict (default: the view's); `player` whose workshop to show
    (default: the one deciding); `events` since the last picture (engine Events or their dicts) mark the tile an
    effect choice is about; `outcomes` (`engine.preview.preview_all`) mark where each choice leads: each kokeshi's
    landing, the space a tile goes to and the pairs it makes, each disc's next space."""
    return encode(draw_turn(view, prompt, player, events, outcomes))


def table_phone(
    view: Mapping[str, Any],
    events: Sequence[Any] = (),
    focus: str | None = None,
    *,
    others: bool = False,
    title: str | None = None,
    gains: Mapping[str, int] | None = None,
) -> bytes:
    """The table for a phone (900 px wide, no text under 28 px): the focused player's workshop (default: the one
    who just played) with what `events` changed marked, the happiness board, the offer, the scores with the turn's
    `gains`; with `others`, every other player's workshop too, tiles drawn in full."""
    return encode(draw_table_phone(view, events, focus, others, title, gains))


def board(view: Mapping[str, Any], player: str) -> bytes:
    """One player's workshop board, large, with their score and discs. Raises ValueError for an unknown name."""
    return encode(draw_board(view, player))


def final(view: Mapping[str, Any], scores: Mapping[str, Any], ranking: Sequence[str]) -> bytes:
    """The end-of-game picture: the ranking with each score item, the happiness board and every workshop.
    `scores` maps names to engine Scores or their dicts; `ranking` lists names best first."""
    return encode(draw_final(view, scores, ranking))


def glossary() -> bytes:
    """Every tile type with what it does, and the marks used on the boards, in the current language."""
    return _glossary_png(current())


@lru_cache(maxsize=4)
def _glossary_png(locale: str) -> bytes:
    return encode(draw_glossary())


def rules_phone() -> list[bytes]:
    """The rules for a phone as pages, each 900 px wide, portrait and no taller than a phone screen's shape, with no
    text under 28 px: a turn, every tile type, the marks of the pictures, scoring and the end, in the current
    language."""
    return list(_rules_png(current()))


@lru_cache(maxsize=4)
def _rules_png(locale: str) -> tuple[bytes, ...]:
    return tuple(encode(page) for page in draw_rules_phone())


def history(name: str, points: Sequence[tuple[float, int]], subtitle: str = "") -> bytes:
    """A player's scores over time: `points` are (UNIX time, total) of finished games, oldest first."""
    return encode(draw_history(name, points, subtitle))


def share_card(card: ShareCard) -> bytes:
    """A challenge result to share (800 × 420): score, rank, streak and a bar per score item, never the board."""
    return encode(draw_share_card(card))

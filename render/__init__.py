"""Pictures every game shares: the PNG encoding, a player's score history and a challenge's share card."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Sequence

from isal import isal_zlib
from PIL import Image

from .history import draw_history
from .share import ShareCard, draw_share_card

__all__ = [
    "EXTENSION",
    "ShareCard",
    "draw_history",
    "draw_share_card",
    "encode",
    "filename",
    "history",
    "png_unfiltered",
    "share_card",
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


def png_unfiltered(img: Image.Image, deflate: Callable[[bytes, int], bytes] = zlib.compress) -> bytes:
    """PNG bytes with every row unfiltered, compressed by `deflate(data, level)` (a zlib-format compressor)."""
    if img.mode not in _COLOUR_TYPE:
        img = img.convert("RGBA" if "A" in img.getbands() or img.mode == "P" else "RGB")
    width, height = img.size
    stride = width * _CHANNELS[img.mode]
    raw = memoryview(img.tobytes())
    # Each row: filter type 0 ("none"), then its bytes; one join is a quarter of the time of a copy per row.
    rows = b"\x00".join([b"", *(raw[y * stride : (y + 1) * stride] for y in range(height))])
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


def history(name: str, points: Sequence[tuple[float, int]], subtitle: str = "") -> bytes:
    """A player's scores over time: `points` are (UNIX time, total) of finished games, oldest first."""
    return encode(draw_history(name, points, subtitle))


def share_card(card: ShareCard) -> bytes:
    """A challenge result to share (800 × 420): score, rank, streak and a bar per score item, never the board."""
    return encode(draw_share_card(card))

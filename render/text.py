"""Shipped fonts, glyph coverage from the font's cmap, safe shortening of names and cached text drawing."""

from __future__ import annotations

import struct
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageDraw, ImageFont

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

PLACEHOLDER = "\u25a1"  # WHITE SQUARE: neutral, covered by DejaVu, same width in every script
ELLIPSIS = "\u2026"
MIN_SIZE = 14  # the readability floor at full size

# Zero-width and joining characters that only make sense with a glyph the font lacks (emoji sequences,
# skin tones, variation selectors, tag characters): dropping them keeps one placeholder per emoji.
_JOINERS = {0x200D, 0xFE0E, 0xFE0F, 0x20E3}
_MODIFIERS = range(0x1F3FB, 0x1F400)
_TAGS = range(0xE0000, 0xE0080)
_FLAGS = range(0x1F1E6, 0x1F200)  # regional indicators: two make one flag


def _cmap_codepoints(path: Path) -> frozenset[int]:
    """Every code point the font maps to a real glyph, read from its Unicode cmap subtables (formats 4 and 12)."""
    data = path.read_bytes()
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap_offset = None
    for i in range(num_tables):
        tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap_offset = offset
            break
    if cmap_offset is None:
        return frozenset()
    covered: set[int] = set()
    n_sub = struct.unpack_from(">H", data, cmap_offset + 2)[0]
    for i in range(n_sub):
        platform, encoding, sub_offset = struct.unpack_from(">HHI", data, cmap_offset + 4 + 8 * i)
        if not (platform == 0 or (platform == 3 and encoding in (1, 10))):
            continue
        base = cmap_offset + sub_offset
        fmt = struct.unpack_from(">H", data, base)[0]
        if fmt == 4:
            covered |= _format4(data, base)
        elif fmt == 12:
            covered |= _format12(data, base)
    return frozenset(covered)


def _format4(data: bytes, base: int) -> set[int]:
    seg_x2 = struct.unpack_from(">H", data, base + 6)[0]
    n = seg_x2 // 2
    ends = struct.unpack_from(f">{n}H", data, base + 14)
    starts = struct.unpack_from(f">{n}H", data, base + 16 + seg_x2)
    deltas = struct.unpack_from(f">{n}h", data, base + 16 + 2 * seg_x2)
    range_base = base + 16 + 3 * seg_x2
    offsets = struct.unpack_from(f">{n}H", data, range_base)
    out: set[int] = set()
    for i in range(n):
        for cp in range(starts[i], ends[i] + 1):
            if cp == 0xFFFF:
                continue
            if offsets[i] == 0:
                glyph = (cp + deltas[i]) & 0xFFFF
            else:
                # idRangeOffset is relative to its own slot in the table, as the spec defines it.
                at = range_base + 2 * i + offsets[i] + 2 * (cp - starts[i])
                glyph = struct.unpack_from(">H", data, at)[0]
                if glyph:
                    glyph = (glyph + deltas[i]) & 0xFFFF
            if glyph:
                out.add(cp)
    return out


def _format12(data: bytes, base: int) -> set[int]:
    n_groups = struct.unpack_from(">I", data, base + 12)[0]
    out: set[int] = set()
    for i in range(n_groups):
        start, end, glyph = struct.unpack_from(">III", data, base + 16 + 12 * i)
        out.update(range(start if glyph else start + 1, end + 1))
    return out


@lru_cache(maxsize=1)
def coverage() -> frozenset[int]:
    """Code points that both shipped fonts draw (bold and regular are used interchangeably for names)."""
    return _cmap_codepoints(REGULAR) & _cmap_codepoints(BOLD)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu face at this pixel size."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


def sanitize(text: str) -> str:
    """Text the shipped font can draw: controls and stray joiners dropped, other missing glyphs made placeholders."""
    covered = coverage()
    out: list[str] = []
    joined = False
    for ch in text:
        cp = ord(ch)
        category = unicodedata.category(ch)
        if category in ("Cc", "Zl", "Zp"):
            ch, cp, category = " ", 0x20, "Zs"
        if cp in _JOINERS or cp in _MODIFIERS or cp in _TAGS:
            joined = joined or cp == 0x200D
            continue
        if category == "Cf":
            # Bidi overrides and other format characters could reorder the whole picture's text run.
            continue
        if cp in covered:
            out.append(ch)
            joined = False
            continue
        if category in ("Mn", "Me"):
            continue
        if not (joined and out and out[-1] == PLACEHOLDER):
            out.append(PLACEHOLDER)
        joined = cp in _FLAGS and not joined
    return " ".join("".join(out).split())


@lru_cache(maxsize=2048)
def fit(text: str, size: int, bold: bool, width: int) -> str:
    """`text` made safe and shortened with an ellipsis so it is at most `width` pixels wide."""
    safe = sanitize(text) or "?"
    face = font(size, bold)
    if face.getlength(safe) <= width:
        return safe
    lo, hi = 0, len(safe)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if face.getlength(safe[:mid].rstrip() + ELLIPSIS) <= width:
            lo = mid
        else:
            hi = mid - 1
    return safe[:lo].rstrip() + ELLIPSIS


def width(text: str, size: int, bold: bool = False) -> float:
    """Advance width of already-safe text."""
    return font(size, bold).getlength(text)


def draw(
    canvas: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, ...],
    *,
    bold: bool = False,
    anchor: str = "la",
    max_width: int | None = None,
) -> None:
    """Draw one line of text; with `max_width` the text is sanitised and ellipsised first (for player names)."""
    if max_width is not None:
        text = fit(text, size, bold, max_width)
    canvas.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)


def number(value: int, sign: bool = False) -> str:
    """An integer with a true minus sign (and a plus when `sign`)."""
    text = f"{value:+d}" if sign else str(value)
    return text.replace("-", "\u2212")

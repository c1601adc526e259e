"""The action log's shared forms: the flag bits of a logged action, and a finished game's packed log."""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence

# Bits of `actions.flags`: what undo needs to know about an action without replaying the game.
ENDS_TURN = 1
REVEALS = 2
# The sources an action may have (`actions.source`), by their number in a packed log.
SOURCES = ("player", "timeout", "ai")


def pack_log(rows: Sequence[tuple[int, str, str, str, float, int]], created_at: float) -> bytes:
    """A finished game's action log as one compressed value: [player, action, source, ms after creation] each."""
    items = [[p, a, SOURCES.index(src), round((at - created_at) * 1000)] for _, p, a, src, at, _ in rows]
    return zlib.compress(json.dumps(items, separators=(",", ":"), ensure_ascii=False).encode(), 9)


def unpack_log(blob: bytes, created_at: float) -> list[tuple[int, str, str, str, float, int]]:
    """The rows `pack_log` packed: (seq, player, action, source, created_at, flags); flags are not kept."""
    items = json.loads(zlib.decompress(blob))
    return [(i, p, a, SOURCES[src], created_at + ms / 1000, 0) for i, (p, a, src, ms) in enumerate(items, start=1)]

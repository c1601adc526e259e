"""Readings of a `Game.view()` that the words and the pictures share, so both say the same thing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def idle_warning(view: Mapping[str, Any], player: str | None = None) -> tuple[str | None, int] | None:
    """Whether the idle-turn end is near, from a `view()`: (whose count, or None for a count shared by the whole
    table; idle turns left) once the count closest to its limit has a quarter of the limit or less left (so always
    on the turn before it would trigger); None when it is not near, already triggered, or the game has none.
    `player`'s own count is named first when it is as close as any."""
    idle = view.get("idle")
    if not idle or view.get("end_triggered"):
        return None
    counts = dict(idle["counts"])
    if not counts:
        return None
    top = max(counts.values())
    name = player if counts.get(player) == top else next(n for n, c in counts.items() if c == top)
    left = idle["limit"] - top
    if left > max(1, idle["limit"] // 4):
        return None
    return (None if idle["shared"] else name, max(0, left))

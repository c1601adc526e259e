"""Reading the engine's view for drawing: board constants, seats, and what the last turn's events changed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import games.kokeshi.vocab as vocab

# Printed board values come from the engine's component table (components.toml), never duplicated here.
from games.kokeshi.engine.data import (
    ADJACENCY_PENALTY,
    ANIMAL_POINTS,
    ANIMALS,
    COLORS,
    HEIGHTS,
    KOKESHI,
    LEAD_BONUS,
    LEVEL_THRESHOLDS,
    MAX_POSITION,
    RED_LINE,
    TOP_POINTS,
    TRACK_SCORE,
)

# Names as players read them, from the vocabulary, in the current language when read.
KOKESHI_LABEL = vocab.Names(KOKESHI, vocab.kokeshi)
KOKESHI_COLOR = dict(zip(KOKESHI, COLORS, strict=True))
ANIMAL_LABEL = vocab.Names(ANIMALS, vocab.animal)
TRACK_POINTS = dict(TRACK_SCORE)  # height -> points of a track reaching it
LEVEL_AT = {h: i + 1 for i, h in enumerate(LEVEL_THRESHOLDS)}  # height -> quality level allowed from there
PAIR_LABEL = f"\u2212{ADJACENCY_PENALTY}"
# The threshold the legends use as their example: the middle quality level.
SAMPLE_HEIGHT = sorted(LEVEL_AT)[len(LEVEL_AT) // 2] if LEVEL_AT else 1

__all__ = [
    "ADJACENCY_PENALTY",
    "ANIMALS",
    "ANIMAL_LABEL",
    "HEIGHTS",
    "KOKESHI",
    "KOKESHI_COLOR",
    "KOKESHI_LABEL",
    "LEAD_BONUS",
    "LEVEL_AT",
    "LEVEL_THRESHOLDS",
    "MAX_POSITION",
    "PAIR_LABEL",
    "RED_LINE",
    "SAMPLE_HEIGHT",
    "TOP_POINTS",
    "TRACK_POINTS",
    "Highlights",
    "animal_points",
    "focus_index",
    "gains",
    "highlights",
    "seat_of",
]


def animal_points(side: str) -> dict[str, tuple[int, ...]]:
    """Points printed above positions 0..7 of each animal track, for this side of the happiness board."""
    table = ANIMAL_POINTS.get(side) or ANIMAL_POINTS["basic"]
    return dict(zip(ANIMALS, table, strict=True))


def seat_of(view: Mapping[str, Any], name: str | None) -> int:
    """Seat index of a player name, or -1."""
    for i, p in enumerate(view.get("players", ())):
        if p.get("name") == name:
            return i
    return -1


@dataclass
class Highlights:
    """What the last turn changed, keyed by player name, kokeshi, animal, tile id or slot."""

    actor: str | None = None
    moved: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)  # (player, kokeshi) -> (from, to)
    top: dict[tuple[str, str], int] = field(default_factory=dict)  # (player, kokeshi) -> points for passing the top
    tiles: set[str] = field(default_factory=set)  # tile ids placed, bought or taken this turn
    discs: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)  # (player, animal) -> (from, to)
    placed: list[tuple[str, str, int, int]] = field(default_factory=list)  # (player, tile id, height, new pairs)
    offer: set[int] = field(default_factory=set)  # offer slots refilled
    bonus: set[str] = field(default_factory=set)  # bonus slots emptied


def _as_triplet(event: Any) -> tuple[str, str, Mapping[str, Any]]:
    if isinstance(event, Mapping):
        return str(event.get("kind", "")), str(event.get("player", "")), event.get("data") or {}
    return str(getattr(event, "kind", "")), str(getattr(event, "player", "")), getattr(event, "data", None) or {}


def highlights(events: Iterable[Any]) -> Highlights:
    """Collect the changes of a turn from engine Events or their `to_dict()` form."""
    hl = Highlights()
    for event in events or ():
        kind, player, data = _as_triplet(event)
        if kind in ("turn_ended", "setup_done", "game_over"):
            continue
        if player and player != "automa":
            hl.actor = player
        try:
            if kind == "kokeshi_moved":
                key = (player, data["kokeshi"])
                start = hl.moved.get(key, (int(data["start"]), 0))[0]
                hl.moved[key] = (start, int(data["to"]))
            elif kind == "top_passed":
                key = (player, data["kokeshi"])
                hl.top[key] = hl.top.get(key, 0) + int(data.get("points", 0))
                start = hl.moved.get(key, (int(data.get("height", 0)), 0))[0]
                hl.moved[key] = (start, 0)
            elif kind in (
                "tile_placed",
                "automa_tile",
                "automa_quality",
                "tile_bought",
                "quality_bought",
                "bonus_taken",
            ):
                hl.tiles.add(str(data["tile"]))
                if kind in ("tile_placed", "automa_tile", "automa_quality"):
                    pairs = int(data.get("pairs", 0) or 0)
                    hl.placed.append((player, str(data["tile"]), int(data["height"]), pairs))
                if kind == "bonus_taken":
                    hl.bonus.add(str(data.get("slot")))
            elif kind == "tile_drawn":
                hl.offer.add(int(data["slot"]))
            elif kind == "disc_moved":
                key = (player, data["animal"])
                to = int(data["to"])
                start = hl.discs.get(key, (to - 1, 0))[0]
                hl.discs[key] = (start, to)
        except (KeyError, TypeError, ValueError):
            # An event from a newer or older engine with other fields: draw without that highlight.
            continue
    return hl


def gains(view: Mapping[str, Any], hl: Highlights) -> dict[tuple[str, str], int]:
    """Points each player scored this turn per score item that the events tell exactly (not leads, which
    depend on everyone's discs)."""
    out: dict[tuple[str, str], int] = {}

    def add(player: str, key: str, value: int) -> None:
        if value:
            out[(player, key)] = out.get((player, key), 0) + value

    for (player, _), points in hl.top.items():
        add(player, "in_play", points)
    values = animal_points(str(view.get("side", "basic")))
    for (player, animal), (start, to) in hl.discs.items():
        curve = values.get(animal)
        if curve and 0 <= start < len(curve) and 0 <= to < len(curve):
            add(player, "animals", curve[to] - curve[start])
    by_id = {}
    for p in view.get("players") or ():
        for column in (p.get("tracks") or {}).values():
            for tile in column or ():
                if tile:
                    by_id[tile.get("id")] = tile
    for player, tile_id, height, pairs in hl.placed:
        below = [h for h in TRACK_POINTS if h < height]
        if height in TRACK_POINTS:
            add(player, "tracks", TRACK_POINTS[height] - (TRACK_POINTS[max(below)] if below else 0))
        quality = (by_id.get(tile_id) or {}).get("points")
        if quality:
            add(player, "quality", int(quality))
        add(player, "adjacency", -ADJACENCY_PENALTY * pairs)
    return out


def focus_index(view: Mapping[str, Any], focus: str | None, hl: Highlights | None = None) -> int:
    """Seat shown large: the named player, else the one to act, else the last actor, else the first seat."""
    for name in (focus, view.get("current"), hl.actor if hl else None):
        if name is not None:
            i = seat_of(view, name)
            if i >= 0:
                return i
    return 0

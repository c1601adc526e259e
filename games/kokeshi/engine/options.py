"""Every option a prompt can offer, built once: an action id, what it is as a code with values, and an internal code."""

from __future__ import annotations

from typing import Any

from .data import (
    ANIMALS,
    KOKESHI,
    N_TRACKS,
    OFFER_SIZE,
    QUALITY_LEVELS,
    TILESETS,
    Atom,
)
from .model import Option


def said(option: Option) -> list[Any]:
    """An option's `words` as JSON keeps them (lists, not tuples), for events and views."""
    if not option.words:
        return []
    name, args = option.words
    return [name, [list(a) if isinstance(a, tuple) else a for a in args]]


ADVANCE: tuple[Option, ...] = tuple(
    Option(f"advance:{KOKESHI[k]}", ("advance", (k,)), ("advance", k)) for k in range(N_TRACKS)
)

EFFECT: dict[tuple[int, Atom], Option] = {}
# The same side when it can do nothing here (rules version 2 on: it may still be chosen).
EFFECT_VOID: dict[tuple[int, Atom], Option] = {}
for _tiles in TILESETS.values():
    for _tile in _tiles:
        for _side, _atom in enumerate(_tile.atoms):
            EFFECT.setdefault(
                (_side, _atom),
                Option(f"effect:{_side}", ("effect_choice", (_atom,)), ("effect", _side)),
            )
            EFFECT_VOID.setdefault(
                (_side, _atom),
                Option(f"effect:{_side}", ("effect_void", (_atom,)), ("effect", _side)),
            )

# KOKESHI_CHOICE[steps - 1][kokeshi]
KOKESHI_CHOICE: tuple[tuple[Option, ...], ...] = tuple(
    tuple(Option(f"kokeshi:{KOKESHI[k]}", ("advance", (k, steps)), ("kokeshi", k)) for k in range(N_TRACKS))
    for steps in (1, 2)
)

ANIMAL_CHOICE: tuple[Option, ...] = tuple(
    Option(f"animal:{ANIMALS[a]}", ("move_disc", (a,)), ("animal", a)) for a in range(len(ANIMALS))
)

# MARKETS[rules][slot][tile]: the slot is numbered from 1 in the words, as in the pictures.
MARKETS: dict[int, tuple[tuple[Option, ...], ...]] = {
    rules: tuple(
        tuple(Option(f"market:{slot}", ("buy", (slot + 1, t.index, rules)), ("market", slot)) for t in tiles)
        for slot in range(OFFER_SIZE)
    )
    for rules, tiles in TILESETS.items()
}

# QUALITY[kokeshi][level - 1]
QUALITY: tuple[tuple[Option, ...], ...] = tuple(
    tuple(Option(f"quality:{lv}", ("take_quality", (k, lv)), ("quality", lv)) for lv in QUALITY_LEVELS)
    for k in range(N_TRACKS)
)

# PLACES[rules][tile][track]
PLACES: dict[int, tuple[tuple[Option, ...], ...]] = {
    rules: tuple(
        tuple(
            Option(f"place:{t.id}:{KOKESHI[k]}", ("place", (t.index, k, rules)), ("place", t.index, k))
            for k in range(N_TRACKS)
        )
        for t in tiles
    )
    for rules, tiles in TILESETS.items()
}

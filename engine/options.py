"""Every option a prompt can offer, built once: an action id, a button label and an internal code."""

from __future__ import annotations

from . import vocab
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


def atom_label(atom: Atom) -> str:
    """What one effect side does, as a button label."""
    return vocab.effect_choice(atom)


ADVANCE: tuple[Option, ...] = tuple(
    Option(f"advance:{KOKESHI[k]}", vocab.advance(k), ("advance", k), ("advance", (k,))) for k in range(N_TRACKS)
)

EFFECT: dict[tuple[int, Atom], Option] = {}
# The same side when it can do nothing here (rules version 2 on: it may still be chosen).
EFFECT_VOID: dict[tuple[int, Atom], Option] = {}
for _tiles in TILESETS.values():
    for _tile in _tiles:
        for _side, _atom in enumerate(_tile.atoms):
            EFFECT.setdefault(
                (_side, _atom),
                Option(f"effect:{_side}", atom_label(_atom), ("effect", _side), ("effect_choice", (_atom,))),
            )
            EFFECT_VOID.setdefault(
                (_side, _atom),
                Option(f"effect:{_side}", vocab.effect_void(_atom), ("effect", _side), ("effect_void", (_atom,))),
            )

# KOKESHI_CHOICE[steps - 1][kokeshi]
KOKESHI_CHOICE: tuple[tuple[Option, ...], ...] = tuple(
    tuple(
        Option(f"kokeshi:{KOKESHI[k]}", vocab.advance(k, steps), ("kokeshi", k), ("advance", (k, steps)))
        for k in range(N_TRACKS)
    )
    for steps in (1, 2)
)

ANIMAL_CHOICE: tuple[Option, ...] = tuple(
    Option(f"animal:{ANIMALS[a]}", vocab.move_disc(a), ("animal", a), ("move_disc", (a,))) for a in range(len(ANIMALS))
)

# MARKETS[rules][slot][tile]: the slot is numbered from 1 in labels, as in the pictures.
MARKETS: dict[int, tuple[tuple[Option, ...], ...]] = {
    rules: tuple(
        tuple(
            Option(
                f"market:{slot}",
                vocab.buy(slot + 1, t.index, rules),
                ("market", slot),
                ("buy", (slot + 1, t.index, rules)),
            )
            for t in tiles
        )
        for slot in range(OFFER_SIZE)
    )
    for rules, tiles in TILESETS.items()
}

# QUALITY[kokeshi][level - 1]
QUALITY: tuple[tuple[Option, ...], ...] = tuple(
    tuple(
        Option(f"quality:{lv}", vocab.take_quality(k, lv), ("quality", lv), ("take_quality", (k, lv)))
        for lv in QUALITY_LEVELS
    )
    for k in range(N_TRACKS)
)

# PLACES[rules][tile][track]
PLACES: dict[int, tuple[tuple[Option, ...], ...]] = {
    rules: tuple(
        tuple(
            Option(
                f"place:{t.id}:{KOKESHI[k]}",
                vocab.place(t.index, k, rules),
                ("place", t.index, k),
                ("place", (t.index, k, rules)),
            )
            for k in range(N_TRACKS)
        )
        for t in tiles
    )
    for rules, tiles in TILESETS.items()
}

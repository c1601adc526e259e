"""Every option a prompt can offer, built once: an action id, a button label and an internal code."""

from __future__ import annotations

from .data import (
    ADV,
    ANIMAL,
    ANIMAL_ANY,
    ANIMAL_NAMES,
    ANIMALS,
    ANY,
    ANY2,
    BUY_ANY,
    BUY_HERE,
    KOKESHI,
    KOKESHI_NAMES,
    LEFT,
    N_TRACKS,
    OFFER_SIZE,
    QUALITY_LEVELS,
    QUALITY_POINTS,
    RIGHT,
    TILESETS,
    Atom,
)
from .model import Option


def atom_label(atom: Atom) -> str:
    """What one effect side does, as a button label."""
    op, arg = atom
    if op == ADV:
        return f"Advance the {KOKESHI_NAMES[arg]}"
    if op == ANIMAL:
        return f"Advance your {ANIMAL_NAMES[arg]} disc"
    return {
        LEFT: "Advance a kokeshi to the left",
        RIGHT: "Advance a kokeshi to the right",
        ANY: "Advance any kokeshi",
        ANY2: "Advance any kokeshi two spaces",
        ANIMAL_ANY: "Advance a disc on an animal track",
        BUY_ANY: "Buy a tile for any track",
        BUY_HERE: "Buy a tile for this track",
    }[op]


ADVANCE: tuple[Option, ...] = tuple(
    Option(f"advance:{KOKESHI[k]}", f"Advance the {KOKESHI_NAMES[k]}", ("advance", k)) for k in range(N_TRACKS)
)

EFFECT: dict[tuple[int, Atom], Option] = {}
# The same side when it can do nothing here (rules version 2 on: it may still be chosen).
EFFECT_VOID: dict[tuple[int, Atom], Option] = {}
for _tiles in TILESETS.values():
    for _tile in _tiles:
        for _side, _atom in enumerate(_tile.atoms):
            EFFECT.setdefault((_side, _atom), Option(f"effect:{_side}", atom_label(_atom), ("effect", _side)))
            EFFECT_VOID.setdefault(
                (_side, _atom), Option(f"effect:{_side}", f"{atom_label(_atom)} (does nothing)", ("effect", _side))
            )

# KOKESHI_CHOICE[steps - 1][kokeshi]
KOKESHI_CHOICE: tuple[tuple[Option, ...], ...] = (
    tuple(Option(f"kokeshi:{KOKESHI[k]}", f"Advance the {KOKESHI_NAMES[k]}", ("kokeshi", k)) for k in range(N_TRACKS)),
    tuple(
        Option(f"kokeshi:{KOKESHI[k]}", f"Advance the {KOKESHI_NAMES[k]} two spaces", ("kokeshi", k))
        for k in range(N_TRACKS)
    ),
)

ANIMAL_CHOICE: tuple[Option, ...] = tuple(
    Option(f"animal:{ANIMALS[a]}", f"Advance your {ANIMAL_NAMES[a]} disc", ("animal", a)) for a in range(len(ANIMALS))
)

# MARKETS[rules][slot][tile]: labels name the tile as its rules version has it.
MARKETS: dict[int, tuple[tuple[Option, ...], ...]] = {
    rules: tuple(
        tuple(Option(f"market:{slot}", f"Buy the {t.name} tile", ("market", slot)) for t in tiles)
        for slot in range(OFFER_SIZE)
    )
    for rules, tiles in TILESETS.items()
}

# QUALITY[kokeshi][level - 1]
QUALITY: tuple[tuple[Option, ...], ...] = tuple(
    tuple(
        Option(
            f"quality:{lv}",
            f"Take the level {lv} {KOKESHI_NAMES[k]} quality tile ({QUALITY_POINTS[lv - 1]} points)",
            ("quality", lv),
        )
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
                f"Place {t.name} on the {KOKESHI_NAMES[k]} track",
                ("place", t.index, k),
            )
            for k in range(N_TRACKS)
        )
        for t in tiles
    )
    for rules, tiles in TILESETS.items()
}

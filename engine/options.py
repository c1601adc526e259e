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
    TILES,
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
for _tile in TILES:
    for _side, _atom in enumerate(_tile.atoms):
        EFFECT.setdefault((_side, _atom), Option(f"effect:{_side}", atom_label(_atom), ("effect", _side)))

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

# MARKET[slot][tile]
MARKET: tuple[tuple[Option, ...], ...] = tuple(
    tuple(Option(f"market:{slot}", f"Buy the {t.name} tile", ("market", slot)) for t in TILES)
    for slot in range(OFFER_SIZE)
)

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

# PLACE[tile][track]
PLACE: tuple[tuple[Option, ...], ...] = tuple(
    tuple(
        Option(
            f"place:{t.id}:{KOKESHI[k]}",
            f"Place {t.name} on the {KOKESHI_NAMES[k]} track",
            ("place", t.index, k),
        )
        for k in range(N_TRACKS)
    )
    for t in TILES
)

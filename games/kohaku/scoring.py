"""Scoring a pond: the seven feature scorings, coins, the goal cards, and what placing one tile would change.

A pond maps a packed cell (`cell(x, y)`) to a tile index. Koi lie on cells with x + y even, features on the
others; the first koi of a pond is at (0, 0), x grows to the right and y downwards.
"""

from __future__ import annotations

from .data import (
    ALL_COLOURS,
    BABY_KOI,
    BUTTERFLIES,
    BUTTERFLIES_EACH,
    COIN,
    COIN_POINTS,
    COLOUR_BIT,
    COLOURS,
    COLOURS_OF,
    DRAGONFLIES,
    FLOWER,
    FLOWER_EACH,
    FLOWER_FOUR,
    FROG,
    FROG_EACH,
    GOAL_VALUES,
    IS_KOI,
    KIND_OF,
    KINDS,
    ROCKS,
    ROCKS_EACH,
    STATUE,
    STATUE_POINTS,
    TURTLE,
    TURTLE_POINTS,
    TWO_FLOWERS,
    TWO_FLOWERS_BOTH,
    TWO_FLOWERS_ONE,
)

Pond = dict[int, int]

WIDTH = 256  # packed cells: (y + OFFSET) * WIDTH + (x + OFFSET); a pond never reaches 128 cells from its origin
OFFSET = 128
STEPS = (-1, 1, -WIDTH, WIDTH)
ORIGIN = OFFSET * WIDTH + OFFSET


def cell(x: int, y: int) -> int:
    """The packed cell of pond coordinates (x, y)."""
    return (y + OFFSET) * WIDTH + (x + OFFSET)


def xy(c: int) -> tuple[int, int]:
    """The pond coordinates (x, y) of a packed cell."""
    row, col = divmod(c, WIDTH)
    return col - OFFSET, row - OFFSET


def koi_cell(c: int) -> bool:
    """Whether a cell takes koi tiles (x + y even) rather than features."""
    row, col = divmod(c, WIDTH)
    return (row + col) % 2 == 0


def _line_koi(pond: Pond, c: int, colours: int) -> int:
    """Koi tiles having one of `colours` in the row or the column of cell `c` (the cell itself excluded)."""
    row, col = divmod(c, WIDTH)
    count = 0
    for other, tile in pond.items():
        if other != c and IS_KOI[tile] and COLOURS_OF[tile] & colours:
            orow, ocol = divmod(other, WIDTH)
            if orow == row or ocol == col:
                count += 1
    return count


def feature_points(pond: Pond, c: int, tile: int) -> int:
    """What the feature `tile` at cell `c` scores in `pond` (the tile need not be in the pond yet)."""
    kind = KIND_OF[tile]
    if kind == TURTLE:
        return TURTLE_POINTS
    if kind == BUTTERFLIES:
        return BUTTERFLIES_EACH * _line_koi(pond, c, COLOURS_OF[tile])
    koi = [pond[n] for n in (c - 1, c + 1, c - WIDTH, c + WIDTH) if n in pond]
    if kind == FLOWER:
        colour = COLOURS_OF[tile]
        matching = sum(1 for k in koi if COLOURS_OF[k] & colour)
        return FLOWER_FOUR if matching == 4 else FLOWER_EACH * matching
    if kind == TWO_FLOWERS:
        colours = COLOURS_OF[tile]
        points = 0
        for k in koi:
            shared = COLOURS_OF[k] & colours
            if shared == colours:
                points += TWO_FLOWERS_BOTH
            elif shared:
                points += TWO_FLOWERS_ONE
        return points
    if kind == ROCKS:
        return ROCKS_EACH * sum(BABY_KOI[k] for k in koi)
    if kind == FROG:
        return FROG_EACH * sum(DRAGONFLIES[k] for k in koi)
    if kind == STATUE:
        return STATUE_POINTS[len(koi)]
    raise ValueError(f"not a feature tile: {tile}")


def details(pond: Pond, goal: str | None = None) -> dict[str, int]:
    """The pond's score item by item (`model.SCORE_KEYS`): each feature kind, coins, the goal card and the total."""
    out = dict.fromkeys(KINDS, 0)
    coins = 0
    for c, tile in pond.items():
        if IS_KOI[tile]:
            coins += COIN[tile]
        else:
            out[KINDS[KIND_OF[tile]]] += feature_points(pond, c, tile)
    out["coins"] = COIN_POINTS * coins
    out["goal"] = goal_points(pond, goal) if goal else 0
    out["total"] = sum(out.values())
    return out


def total(pond: Pond) -> int:
    """The pond's score without a goal card."""
    points = 0
    for c, tile in pond.items():
        points += COIN_POINTS * COIN[tile] if IS_KOI[tile] else feature_points(pond, c, tile)
    return points


def coins(pond: Pond) -> int:
    """Coin symbols in the pond (the first tie-break)."""
    return sum(COIN[t] for t in pond.values())


def gain(pond: Pond, c: int, tile: int) -> int:
    """How much the pond's score (without a goal card) grows if `tile` is placed on the empty cell `c`."""
    if not IS_KOI[tile]:
        return feature_points(pond, c, tile)
    before = 0
    touched = [(n, pond[n]) for n in (c - 1, c + 1, c - WIDTH, c + WIDTH) if n in pond]
    for n, t in touched:
        before += feature_points(pond, n, t)
    pond[c] = tile
    try:
        after = 0
        for n, t in touched:
            after += feature_points(pond, n, t)
    finally:
        del pond[c]
    points = after - before + COIN_POINTS * COIN[tile]
    colours = COLOURS_OF[tile]
    row, col = divmod(c, WIDTH)
    near = {n for n, _ in touched}
    for other, t in pond.items():
        if KIND_OF[t] == BUTTERFLIES and COLOURS_OF[t] & colours and other not in near:
            # (butterflies touching the cell were scored again above)
            orow, ocol = divmod(other, WIDTH)
            if orow == row or ocol == col:
                points += BUTTERFLIES_EACH
    return points


# ---------------------------------------------------------------------- goal cards


def colour_counts(pond: Pond) -> dict[str, int]:
    """How many koi tiles have each colour (a two-colour koi counts for both)."""
    return {name: sum(1 for t in pond.values() if IS_KOI[t] and COLOURS_OF[t] & COLOUR_BIT[name]) for name in COLOURS}


def flower_counts(pond: Pond) -> dict[str, int]:
    """Flowers of each colour on flower tiles: one on a 1-flower tile, one of each colour on a 2-flower tile."""
    counts = dict.fromkeys(COLOURS, 0)
    for t in pond.values():
        if KIND_OF[t] in (FLOWER, TWO_FLOWERS):
            for name in COLOURS:
                if COLOURS_OF[t] & COLOUR_BIT[name]:
                    counts[name] += 1
    return counts


def goal_points(pond: Pond, goal: str) -> int:
    """What a goal card scores for this pond at the end of the game."""
    value = GOAL_VALUES
    koi = [(c, t) for c, t in pond.items() if IS_KOI[t]]
    if goal == "rarest_colour":
        return value["rarest_colour"] * min(colour_counts(pond).values())
    if goal == "dragonflies":
        points = 0
        for c, t in pond.items():
            if KIND_OF[t] == BUTTERFLIES:
                row, col = divmod(c, WIDTH)
                for other, k in koi:
                    orow, ocol = divmod(other, WIDTH)
                    if orow == row or ocol == col:
                        points += value["dragonflies"] * DRAGONFLIES[k]
        return points
    if goal == "statues":
        full = len(STATUE_POINTS) - 1
        return value["statues"] * sum(
            1 for c, t in pond.items() if KIND_OF[t] == STATUE and sum(1 for s in STEPS if c + s in pond) == full
        )
    if goal == "no_baby_koi":
        return value["no_baby_koi"] * sum(1 for _, t in koi if BABY_KOI[t] == 0)
    if goal == "no_dragonflies":
        return value["no_dragonflies"] * sum(1 for _, t in koi if DRAGONFLIES[t] == 0)
    if goal == "flowers":
        return value["flowers"] * min(flower_counts(pond).values())
    if goal == "frogs_and_turtles":
        kinds = [KIND_OF[t] for t in pond.values()]
        return value["frogs_and_turtles"] * min(kinds.count(FROG), kinds.count(TURTLE))
    if goal == "shelter":
        points = 0
        for c, t in koi:
            if BABY_KOI[t]:
                sheltered = any(KIND_OF[pond[c + s]] == ROCKS for s in STEPS if c + s in pond)
                points += value["shelter_rocks"] if sheltered else value["shelter_alone"]
        return points
    raise ValueError(f"unknown goal card: {goal!r}")


__all__ = [
    "ALL_COLOURS",
    "ORIGIN",
    "STEPS",
    "WIDTH",
    "Pond",
    "cell",
    "coins",
    "details",
    "feature_points",
    "gain",
    "goal_points",
    "koi_cell",
    "total",
    "xy",
]

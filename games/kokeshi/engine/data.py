"""Component tables built once from `components.toml`: tiles, board values, bonus slots."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_RAW = tomllib.loads((Path(__file__).with_name("components.toml")).read_text(encoding="utf-8"))

KOKESHI: tuple[str, ...] = tuple(_RAW["kokeshi"]["order"])
KOKESHI_NAMES: tuple[str, ...] = tuple(_RAW["kokeshi"]["names"])
COLORS: tuple[str, ...] = tuple(_RAW["kokeshi"]["colors"])
N_TRACKS = len(KOKESHI)

HEIGHTS: int = _RAW["workshop"]["heights"]
LEVEL_THRESHOLDS: tuple[int, ...] = tuple(_RAW["workshop"]["level_thresholds"])
TRACK_SCORE: tuple[tuple[int, int], ...] = tuple(
    sorted(
        zip(
            _RAW["workshop"]["track_score_heights"],
            _RAW["workshop"]["track_score_points"],
            strict=True,
        ),
        reverse=True,
    )
)
TOP_POINTS: int = _RAW["workshop"]["top_points"]
ADJACENCY_PENALTY: int = _RAW["workshop"]["adjacency_penalty"]

ANIMALS: tuple[str, ...] = tuple(_RAW["happiness"]["animals"])
ANIMAL_NAMES: tuple[str, ...] = tuple(_RAW["happiness"]["names"])
MAX_POSITION: int = _RAW["happiness"]["max_position"]
RED_LINE: int = _RAW["happiness"]["red_line"]
LEAD_BONUS: int = _RAW["happiness"]["lead_bonus"]
SIDES: tuple[str, ...] = tuple(_RAW["happiness"]["points"])
ANIMAL_POINTS: dict[str, tuple[tuple[int, ...], ...]] = {
    side: tuple(tuple(values[a]) for a in ANIMALS) for side, values in _RAW["happiness"]["points"].items()
}

QUALITY_LEVELS: tuple[int, ...] = tuple(_RAW["quality_tiles"]["levels"])
QUALITY_POINTS: tuple[int, ...] = tuple(_RAW["quality_tiles"]["points"])
SOLO_QUALITY_LEVELS: tuple[int, ...] = tuple(_RAW["quality_tiles"]["solo_levels"])
OFFER_SIZE: int = _RAW["market"]["offer_size"]
STARTING_PER_PLAYER: int = _RAW["starting_tiles"]["per_player"]
END_RECOGNITIONS: dict[int, int] = {int(k): v for k, v in _RAW["end"]["recognitions"].items()}
# Idle turns per player that trigger the end (rules version 4 on): turns in which a kokeshi passed the top, with
# no tile taken from the offer and no recognition gained.
IDLE_LIMIT: int = _RAW["end"]["idle_limit"]
# Turns per player without taking a tile from the offer, counted for the whole table, that trigger the end (rules 3).
IDLE_TURNS: int = _RAW["end"]["idle_turns"]
# The idle count, +1 per turn without a purchase and -1 per turn with one, that triggers the end (rules 2 only).
IDLE_ROUNDS: int = _RAW["end"]["idle_rounds"]
RULES_VERSIONS: tuple[int, ...] = tuple(_RAW["rules"]["versions"])
CURRENT_RULES: int = _RAW["rules"]["current"]


@dataclass(frozen=True, slots=True)
class BonusSlot:
    """A space on the happiness board that may hold a leftover starting tile."""

    id: str
    animals: tuple[int, ...]
    position: int


BONUS_SLOTS: tuple[BonusSlot, ...] = tuple(
    BonusSlot(s["id"], tuple(ANIMALS.index(a) for a in s["animals"]), s["position"])
    for s in _RAW["happiness"]["bonus_slots"]
)
_SLOT_INDEX = {s.id: i for i, s in enumerate(BONUS_SLOTS)}
BONUS_FILL: dict[int, tuple[int, ...]] = {
    int(n): tuple(_SLOT_INDEX[s] for s in ids) for n, ids in _RAW["happiness"]["bonus_fill"].items()
}
# Slots a disc reaches by arriving at (animal, position).
SLOTS_AT: dict[tuple[int, int], tuple[int, ...]] = {}
for _i, _slot in enumerate(BONUS_SLOTS):
    for _a in _slot.animals:
        SLOTS_AT[(_a, _slot.position)] = SLOTS_AT.get((_a, _slot.position), ()) + (_i,)

# Effect atoms: (op, argument). The argument is a kokeshi index for ADV, an animal index for ANIMAL.
ADV, LEFT, RIGHT, ANY, ANY2, ANIMAL_ANY, ANIMAL, BUY_ANY, BUY_HERE = range(9)
_OP_CODES = {
    "LEFT": LEFT,
    "RIGHT": RIGHT,
    "ANY": ANY,
    "ANY2": ANY2,
    "ANIMAL": ANIMAL_ANY,
    "BUY_ANY": BUY_ANY,
    "BUY_HERE": BUY_HERE,
}
_OP_WORDS = {
    LEFT: "left",
    RIGHT: "right",
    ANY: "any",
    ANY2: "any2",
    ANIMAL_ANY: "animal",
    BUY_ANY: "buy_any",
    BUY_HERE: "buy_here",
}
_OP_SHORT = {
    LEFT: "left",
    RIGHT: "right",
    ANY: "any",
    ANY2: "any×2",
    ANIMAL_ANY: "animal",
    BUY_ANY: "buy-any",
    BUY_HERE: "buy-here",
}

Atom = tuple[int, int]

NORMAL, STARTING, QUALITY = "normal", "starting", "quality"


@dataclass(frozen=True, slots=True)
class TileSpec:
    """One physical tile: its stable id, kind, colour (a kokeshi index) and effects."""

    index: int
    id: str
    kind: str
    color: int
    type: str
    mode: str  # "/" choose one side, "&" do both, "" none (quality tiles)
    atoms: tuple[Atom, ...]
    level: int  # quality tiles only, else 0
    effect: str  # short code for the view, e.g. "princess/samurai", "left/batchan", "samurai&buy_here"
    name: str  # plain English, e.g. "pink Princess/Samurai"


def _parse_atom(word: str, color: int, animals: tuple[int, ...]) -> Atom:
    if word == "K":
        return (ADV, color)
    if word.startswith("K+"):
        return (ADV, (color + int(word[2:])) % N_TRACKS)
    if word in ("A1", "A2"):
        return (ANIMAL, animals[int(word[1]) - 1])
    if word in _OP_CODES:
        return (_OP_CODES[word], 0)
    raise ValueError(f"components.toml: unknown effect word {word!r}")


def _atom_code(atom: Atom) -> str:
    op, arg = atom
    if op == ADV:
        return KOKESHI[arg]
    if op == ANIMAL:
        return ANIMALS[arg]
    return _OP_WORDS[op]


def atom_short(atom: Atom) -> str:
    """A few words naming one effect side, as printed in tile names."""
    op, arg = atom
    if op == ADV:
        return KOKESHI_NAMES[arg]
    if op == ANIMAL:
        return ANIMAL_NAMES[arg]
    return _OP_SHORT[op]


def _make_tiles(normal_types: list[dict[str, Any]]) -> tuple[TileSpec, ...]:
    tiles: list[TileSpec] = []

    def add(prefix: str, kind: str, color: int, type_: str, effect: str, animals: tuple[int, ...] = (0, 0)) -> None:
        mode = "&" if "&" in effect else "/"
        atoms = tuple(_parse_atom(w, color, animals) for w in effect.split(mode))
        sep = " & " if mode == "&" else "/"
        code = mode.join(_atom_code(a) for a in atoms)
        name = f"{COLORS[color]} {sep.join(atom_short(a) for a in atoms)}"
        n = sum(1 for t in tiles if t.kind == kind) + 1
        tiles.append(TileSpec(len(tiles), f"{prefix}{n:02d}", kind, color, type_, mode, atoms, 0, code, name))

    for color in range(N_TRACKS):
        for t in _RAW["starting_tiles"]["types"]:
            add("s", STARTING, color, t["type"], t["effect"])
    for color, kokeshi in enumerate(KOKESHI):
        animals = tuple(ANIMALS.index(a) for a in _RAW["normal_tiles"]["animals"][kokeshi])
        for t in normal_types:
            add("n", NORMAL, color, t["type"], t["effect"], animals)
    for color in range(N_TRACKS):
        for level in QUALITY_LEVELS:
            n = sum(1 for t in tiles if t.kind == QUALITY) + 1
            name = f"{KOKESHI_NAMES[color]} quality tile, level {level}"
            tiles.append(
                TileSpec(
                    len(tiles),
                    f"q{n:02d}",
                    QUALITY,
                    color,
                    "quality",
                    "",
                    (),
                    level,
                    "quality",
                    name,
                )
            )
    return tuple(tiles)


# The tiles of each rules version: same ids, kinds, colours, levels and animals; only some effects differ.
TILESETS: dict[int, tuple[TileSpec, ...]] = {
    rules: _make_tiles(_RAW["normal_tiles"]["rules1"]["types"] if rules == 1 else _RAW["normal_tiles"]["types"])
    for rules in RULES_VERSIONS
}
TILES: tuple[TileSpec, ...] = TILESETS[CURRENT_RULES]
TILE_BY_ID: dict[str, int] = {t.id: t.index for t in TILES}
STARTING_TILES: tuple[int, ...] = tuple(t.index for t in TILES if t.kind == STARTING)
NORMAL_TILES: tuple[int, ...] = tuple(t.index for t in TILES if t.kind == NORMAL)
# QUALITY_TILE[kokeshi][level - 1] -> tile index
QUALITY_TILE: tuple[tuple[int, ...], ...] = tuple(
    tuple(next(t.index for t in TILES if t.kind == QUALITY and t.color == k and t.level == lv) for lv in QUALITY_LEVELS)
    for k in range(N_TRACKS)
)
# Animal shown on a tile (rows 9-10), or -1.
TILE_ANIMAL: tuple[int, ...] = tuple(next((arg for op, arg in t.atoms if op == ANIMAL), -1) for t in TILES)
TILE_COLOR: tuple[int, ...] = tuple(t.color for t in TILES)
IS_QUALITY: tuple[bool, ...] = tuple(t.kind == QUALITY for t in TILES)
TILE_LEVEL: tuple[int, ...] = tuple(t.level for t in TILES)
for _tiles in TILESETS.values():
    _same = all(
        (a.id, a.kind, a.color, a.level) == (b.id, b.kind, b.color, b.level)
        and next((arg for op, arg in a.atoms if op == ANIMAL), -1) == TILE_ANIMAL[b.index]
        for a, b in zip(_tiles, TILES, strict=True)
    )
    if not _same:
        raise ValueError("components.toml: the rules versions must keep the same tiles, animals and ids")


def tile_view(index: int, rules: int = CURRENT_RULES) -> dict[str, Any]:
    """The JSON-safe public description of one tile, as the given rules version has it."""
    t = TILESETS[rules][index]
    d: dict[str, Any] = {"id": t.id, "kind": t.kind, "color": COLORS[t.color], "type": t.type, "effect": t.effect}
    if t.kind == QUALITY:
        d["level"] = t.level
        d["points"] = QUALITY_POINTS[t.level - 1]
    return d

"""Kōhaku's component tables, built once from `components.toml`: tiles, the board, scoring values, goal cards."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_RAW: dict[str, Any] = tomllib.loads(Path(__file__).with_name("components.toml").read_text(encoding="utf-8"))

RULES_VERSIONS: tuple[int, ...] = tuple(int(v) for v in _RAW["rules"]["versions"])
CURRENT_RULES: int = int(_RAW["rules"]["current"])

COLOURS: tuple[str, ...] = tuple(str(c) for c in _RAW["colours"]["order"])
COLOUR_BIT: dict[str, int] = {c: 1 << i for i, c in enumerate(COLOURS)}
ALL_COLOURS = (1 << len(COLOURS)) - 1

# Feature kinds, in the rulebook's order of description.
FLOWER, TWO_FLOWERS, ROCKS, STATUE, BUTTERFLIES, FROG, TURTLE = range(7)
KINDS: tuple[str, ...] = ("flower", "two_flowers", "rocks", "statue", "butterflies", "frog", "turtle")


@dataclass(frozen=True, slots=True)
class Tile:
    """One koi or feature tile. Koi tiles are indices 0-57, features 58-119."""

    index: int
    id: str
    koi: bool
    colours: int  # bit mask over COLOURS: the koi's colours, or the flowers' / butterflies' colour(s)
    kind: int  # a feature kind; -1 for koi
    baby_koi: int
    dragonflies: int
    coin: int
    stones: int  # the corner mark: 0, 3 or 4 (koi only)

    @property
    def colour_names(self) -> tuple[str, ...]:
        """The tile's colours, in COLOURS order."""
        return tuple(c for c in COLOURS if self.colours & COLOUR_BIT[c])

    @property
    def kind_name(self) -> str:
        """`koi`, or the feature kind's name."""
        return "koi" if self.koi else KINDS[self.kind]


def _mask(names: list[Any]) -> int:
    mask = 0
    for name in names:
        mask |= COLOUR_BIT[str(name)]
    return mask


def _build() -> tuple[Tile, ...]:
    tiles: list[Tile] = []
    for raw in _RAW["koi"]["tiles"]:
        tiles.append(
            Tile(
                index=len(tiles),
                id=str(raw["id"]),
                koi=True,
                colours=_mask(raw["colours"]),
                kind=-1,
                baby_koi=int(raw["baby_koi"]),
                dragonflies=int(raw["dragonflies"]),
                coin=int(raw["coin"]),
                stones=int(raw["stones"]),
            )
        )
    number = 0
    for block in _RAW["features"]["tiles"]:
        for _ in range(int(block["count"])):
            number += 1
            tiles.append(
                Tile(
                    index=len(tiles),
                    id=f"f{number:02d}",
                    koi=False,
                    colours=_mask(block["colours"]),
                    kind=KINDS.index(str(block["kind"])),
                    baby_koi=0,
                    dragonflies=0,
                    coin=0,
                    stones=0,
                )
            )
    return tuple(tiles)


TILES: tuple[Tile, ...] = _build()
TILE_BY_ID: dict[str, int] = {t.id: t.index for t in TILES}
KOI: tuple[int, ...] = tuple(t.index for t in TILES if t.koi)
FEATURES: tuple[int, ...] = tuple(t.index for t in TILES if not t.koi)
KOI_RECONSTRUCTED: bool = bool(_RAW["koi"].get("reconstructed", False))

# Flat per-tile arrays for the scoring loops.
IS_KOI: tuple[bool, ...] = tuple(t.koi for t in TILES)
COLOURS_OF: tuple[int, ...] = tuple(t.colours for t in TILES)
KIND_OF: tuple[int, ...] = tuple(t.kind for t in TILES)
BABY_KOI: tuple[int, ...] = tuple(t.baby_koi for t in TILES)
DRAGONFLIES: tuple[int, ...] = tuple(t.dragonflies for t in TILES)
COIN: tuple[int, ...] = tuple(t.coin for t in TILES)

# The board: spaces numbered 0-11 in reading order (shown as 1-12).
BOARD_ROWS: int = int(_RAW["board"]["rows"])
BOARD_COLUMNS: int = int(_RAW["board"]["columns"])
N_SPACES = BOARD_ROWS * BOARD_COLUMNS
_KOI_PARITY: int = int(_RAW["board"]["koi_parity"])
KOI_SPACE: tuple[bool, ...] = tuple(
    (s // BOARD_COLUMNS + s % BOARD_COLUMNS) % 2 == _KOI_PARITY for s in range(N_SPACES)
)
_centre = [int(r) * BOARD_COLUMNS + int(c) for r, c in _RAW["board"]["centre"]]
CENTRE_KOI: int = next(s for s in _centre if KOI_SPACE[s])
CENTRE_FEATURE: int = next(s for s in _centre if not KOI_SPACE[s])


def _pairs() -> tuple[tuple[int, int], ...]:
    out = []
    for s in range(N_SPACES):
        r, c = divmod(s, BOARD_COLUMNS)
        if c + 1 < BOARD_COLUMNS:
            out.append((s, s + 1))
        if r + 1 < BOARD_ROWS:
            out.append((s, s + BOARD_COLUMNS))
    return tuple(sorted(out))


# Every pair of orthogonally adjacent spaces, (lower, higher): always one koi space and one feature space.
BOARD_PAIRS: tuple[tuple[int, int], ...] = _pairs()

REMOVED: dict[int, int] = {int(k): int(v) for k, v in _RAW["setup"]["removed"].items()}
MAX_STONES: dict[int, int] = {int(k): int(v) for k, v in _RAW["setup"]["max_stones"].items()}


def _stones_by_rules() -> dict[int, tuple[int, ...]]:
    """Each rules version's corner mark per koi tile index: its own list if the data file keeps one, else the
    marks of the tiles themselves (the current reconstruction)."""
    kept = _RAW.get("stones_by_rules", {})
    out: dict[int, tuple[int, ...]] = {}
    for version in RULES_VERSIONS:
        marks = [t.stones for t in TILES if t.koi]
        if str(version) in kept:
            raw = kept[str(version)]
            marks = [0] * len(marks)
            for stones, key in ((3, "three"), (4, "four")):
                for tile_id in raw[key]:
                    marks[TILE_BY_ID[str(tile_id)]] = stones
        out[version] = tuple(marks)
    return out


# The corner mark of every koi tile under each rules version (index: the koi tile's index).
STONES_BY_RULES: dict[int, tuple[int, ...]] = _stones_by_rules()


def koi_in_box(seats: int, rules: int) -> list[int]:
    """The koi tiles a game of `seats` uses under `rules`, before the unseen ones are put away: sorted indices."""
    marks = STONES_BY_RULES[rules]
    return [t for t in KOI if marks[t] <= MAX_STONES[seats]]


_S = _RAW["scoring"]
COIN_POINTS: int = int(_S["coin"])
FLOWER_EACH: int = int(_S["flower_each"])
FLOWER_FOUR: int = int(_S["flower_four"])
TWO_FLOWERS_ONE: int = int(_S["two_flowers_one"])
TWO_FLOWERS_BOTH: int = int(_S["two_flowers_both"])
ROCKS_EACH: int = int(_S["rocks_each"])
FROG_EACH: int = int(_S["frog_each"])
STATUE_POINTS: tuple[int, ...] = tuple(int(v) for v in _S["statue"])
BUTTERFLIES_EACH: int = int(_S["butterflies_each"])
TURTLE_POINTS: int = int(_S["turtle"])

_D = _RAW["danny"]
DANNY_EASY_KOI: int = int(_D["easy_koi"])
DANNY_EASY_FEATURE: int = int(_D["easy_feature"])
DANNY_MEDIUM_FEATURE: int = int(_D["medium_feature"])
DANNY_HARD_COIN: int = int(_D["hard_coin"])
DANNY_HARD_FLOWER: int = int(_D["hard_flower"])
DANNY_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")

_G = _RAW["goals"]
GOALS: tuple[str, ...] = tuple(str(g) for g in _G["playable"])
GOAL_VALUES: dict[str, int] = {k: int(v) for k, v in _G.items() if isinstance(v, int)}
MISSING_GOALS: tuple[tuple[str, str], ...] = tuple((str(m["id"]), str(m["known"])) for m in _G["missing"])
GOALS_PER_PLAYER = 2

__all__ = [
    "ALL_COLOURS",
    "BOARD_COLUMNS",
    "BOARD_PAIRS",
    "BOARD_ROWS",
    "COLOURS",
    "CURRENT_RULES",
    "GOALS",
    "KINDS",
    "N_SPACES",
    "RULES_VERSIONS",
    "TILES",
    "Tile",
]

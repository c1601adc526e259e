"""Helpers for Kōhaku's tests: finding tiles by what they show, hand-built ponds, seeded playouts."""

from __future__ import annotations

import hashlib
import random

from games.kohaku import Match, deal
from games.kohaku.data import COLOUR_BIT, KINDS, TILES
from games.kohaku.scoring import Pond, cell


def koi(colours: str, baby: int | None = None, flies: int | None = None, coin: int | None = None) -> int:
    """The index of a koi tile with these colours ("white" or "white red") and, if given, critters and coin."""
    mask = 0
    for name in colours.split():
        mask |= COLOUR_BIT[name]
    for t in TILES:
        if not t.koi or t.colours != mask:
            continue
        if baby is not None and t.baby_koi != baby:
            continue
        if flies is not None and t.dragonflies != flies:
            continue
        if coin is not None and t.coin != coin:
            continue
        return t.index
    raise LookupError(f"no koi tile {colours} baby={baby} flies={flies} coin={coin}")


def feature(kind: str, colours: str = "") -> int:
    """The index of a feature tile of this kind and colour(s)."""
    mask = 0
    for name in colours.split():
        mask |= COLOUR_BIT[name]
    for t in TILES:
        if not t.koi and t.kind == KINDS.index(kind) and (not colours or t.colours == mask):
            return t.index
    raise LookupError(f"no feature {kind} {colours}")


def pond(*placed: tuple[int, int, int]) -> Pond:
    """A hand-built pond from (x, y, tile index) triples."""
    return {cell(x, y): t for x, y, t in placed}


def play_randomly(match: Match, seed: int, max_decisions: int = 5000) -> list[tuple[int, str]]:
    """Play `match` to its end with uniformly random choices (any waiting seat); returns the actions."""
    rng = random.Random(seed)
    actions = []
    for _ in range(max_decisions):
        waiting = match.waiting()
        if not waiting:
            return actions
        seat = waiting[rng.randrange(len(waiting))]
        action = rng.choice(match.legal_actions(seat))
        match.apply(seat, action)
        actions.append((seat, action))
    raise AssertionError("the game did not end")


def new(seats: int, seed: int = 1, goals: bool = False) -> Match:
    """A fresh match."""
    return deal(seats, seed=seed, goals=goals)


def fingerprints() -> str:
    """Digests of four seeded random games (1-4 seats, goal cards in one), to compare across processes."""
    out = []
    for seats, seed in [(1, 11), (2, 12), (3, 13), (4, 2**80 + 14)]:
        m = deal(seats, seed=seed, goals=seats == 3)
        rng = random.Random(seed)
        while not m.is_over:
            seat = m.waiting()[0]
            m.apply(seat, rng.choice(m.legal_actions(seat)))
        out.append(hashlib.sha256(m.to_json().encode()).hexdigest())
    return " ".join(out)

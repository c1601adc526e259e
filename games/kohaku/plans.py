"""Every way to put a taken koi and feature into a pond, with what each scores at once.

The two tiles are placed one after the other, each touching the pond as it stands (so the second may touch only
the first). The final position is what scores, so a plan is the pair of cells, whichever went first.
"""

from __future__ import annotations

from .data import BUTTERFLIES, BUTTERFLIES_EACH, COLOURS_OF, KIND_OF
from .scoring import WIDTH, Pond, feature_points, gain, koi_cell

_NEAR = (-1, 1, -WIDTH, WIDTH)


def _interacts(koi_at: int, feature: int, feature_at: int) -> bool:
    """Whether a koi at `koi_at` changes what `feature` at `feature_at` scores."""
    if feature_at - koi_at in _NEAR:
        return True
    if KIND_OF[feature] == BUTTERFLIES:
        return koi_at // WIDTH == feature_at // WIDTH or koi_at % WIDTH == feature_at % WIDTH
    return False


def plans(pond: Pond, frontier: set[int], koi: int, feature: int) -> list[tuple[int, int, int]]:
    """Every legal final position `(koi_cell, feature_cell, gain)` of the two tiles, sorted by cell.

    `frontier` is the set of empty cells touching the pond; the pond must not be empty.
    """
    koi_cells = [c for c in frontier if koi_cell(c)]
    feature_cells = [c for c in frontier if not koi_cell(c)]
    koi_gain = {k: gain(pond, k, koi) for k in koi_cells}
    feature_gain = {f: feature_points(pond, f, feature) for f in feature_cells}
    colours = COLOURS_OF[koi]
    butterflies = KIND_OF[feature] == BUTTERFLIES and bool(COLOURS_OF[feature] & colours)
    out: dict[tuple[int, int], int] = {}

    def joint(k: int, f: int, koi_points: int, feature_alone: int | None) -> int:
        if feature_alone is not None and not _interacts(k, feature, f):
            return koi_points + feature_alone
        if butterflies and f - k not in _NEAR:
            # In line but not touching: the butterflies gain exactly one more koi of their colour.
            base = feature_alone if feature_alone is not None else feature_points(pond, f, feature)
            return koi_points + base + BUTTERFLIES_EACH
        pond[k] = koi
        try:
            return koi_points + feature_points(pond, f, feature)
        finally:
            del pond[k]

    # Koi first (touching the pond), then the feature touching the pond or the new koi.
    for k in koi_cells:
        points = koi_gain[k]
        for f in feature_cells:
            out[(k, f)] = joint(k, f, points, feature_gain[f])
        for step in _NEAR:
            f = k + step
            if f not in pond and f not in frontier:
                out[(k, f)] = joint(k, f, points, None)
    # Feature first (touching the pond), then a koi touching only the new feature.
    for f in feature_cells:
        for step in _NEAR:
            k = f + step
            if k not in pond and k not in frontier:
                pond[f] = feature
                try:
                    out[(k, f)] = feature_gain[f] + gain(pond, k, koi)
                finally:
                    del pond[f]
    return [(k, f, points) for (k, f), points in sorted(out.items())]


def best_gain(pond: Pond, frontier: set[int], koi: int, feature: int) -> int:
    """The most the two tiles can add to the pond's score this turn."""
    return max(points for _, _, points in plans(pond, frontier, koi, feature))

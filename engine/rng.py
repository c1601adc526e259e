"""The engine's only source of chance: a counter-based generator kept as two plain ints in the state."""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def draw(seed: int, counter: int, n: int) -> int:
    """The `counter`-th draw of game `seed`, as an index in range(n) (SplitMix64 output)."""
    z = ((seed & _MASK) + (counter + 1) * _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    return z % n

"""The engine's only source of chance: counter-based generators, kept as plain values in the state.

Rules version 1 draws with SplitMix64 over (seed, counter): its 64-bit state can be searched from the opening.
Later versions key BLAKE2b with a digest of the whole seed (any size; new games get 128 random bits), so the
opening tells nothing that narrows the seed down.
"""

from __future__ import annotations

import hashlib

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def draw(seed: int, counter: int, n: int) -> int:
    """The `counter`-th draw of game `seed`, as an index in range(n) (SplitMix64 output; rules version 1)."""
    z = ((seed & _MASK) + (counter + 1) * _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    return z % n


def key(seed: int) -> bytes:
    """The 32-byte generator key of a seed: a digest of its every bit, sign included."""
    return hashlib.blake2b(str(seed).encode("ascii"), digest_size=32, person=b"kokeshi-seed").digest()


def draw_keyed(seed_key: bytes, counter: int, n: int) -> int:
    """The `counter`-th draw under `seed_key`, as an index in range(n) (keyed BLAKE2b, 128-bit output)."""
    block = hashlib.blake2b(counter.to_bytes(8, "little"), key=seed_key, digest_size=16).digest()
    return int.from_bytes(block, "little") % n

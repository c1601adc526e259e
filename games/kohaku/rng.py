"""Kōhaku's only source of chance: draws keyed by a digest of the game's seed and numbered by a counter.

The state keeps two plain ints, the seed and how many draws were made; a draw is an index into a sorted pool, so
no hidden order exists anywhere. The key is a digest of the whole seed, so an opening tells nothing of the seed.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache


@lru_cache(maxsize=256)
def key(seed: int) -> bytes:
    """The 32-byte generator key of a seed: a digest of its every bit, sign included."""
    return hashlib.blake2b(str(seed).encode("ascii"), digest_size=32, person=b"kohaku-seed").digest()


def draw(seed_key: bytes, counter: int, n: int) -> int:
    """The `counter`-th draw under `seed_key`, as an index in range(n) (keyed BLAKE2b, 128-bit output)."""
    block = hashlib.blake2b(counter.to_bytes(8, "little"), key=seed_key, digest_size=16).digest()
    return int.from_bytes(block, "little") % n

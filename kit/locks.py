"""One asyncio lock per key (a game, a picture being drawn), dropped once nobody holds it or waits for it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class _Entry:
    """A key's lock and how many tasks hold it or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class KeyedLocks(Generic[K]):
    """Serialises work per key: `async with locks(key): ...`. Work on different keys runs side by side.

    A key's lock lives only while some task holds it or waits for it (a cancelled wait included), so a long-running
    process keeps no lock for every game it ever saw.
    """

    def __init__(self) -> None:
        self._entries: dict[K, _Entry] = {}

    @asynccontextmanager
    async def __call__(self, key: K) -> AsyncIterator[None]:
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _Entry()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._entries[key]

    def locked(self, key: K) -> bool:
        """Whether some task holds `key`'s lock now."""
        entry = self._entries.get(key)
        return entry is not None and entry.lock.locked()

    def __len__(self) -> int:
        """How many keys have a lock now (held or waited for)."""
        return len(self._entries)


__all__ = ["KeyedLocks"]

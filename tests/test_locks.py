"""The keyed locks: one key's work is serialised, different keys run side by side, and no lock outlives its use."""

from __future__ import annotations

import asyncio

import pytest

from kit.locks import KeyedLocks


class Holder:
    """A task that takes a key's lock, says so, and keeps it until released."""

    def __init__(self, locks: KeyedLocks, key: object, log: list[str], name: str) -> None:
        self.trying, self.inside, self.release = asyncio.Event(), asyncio.Event(), asyncio.Event()
        self.task = asyncio.ensure_future(self._run(locks, key, log, name))

    async def _run(self, locks: KeyedLocks, key: object, log: list[str], name: str) -> None:
        self.trying.set()
        async with locks(key):
            log.append(f"{name} in")
            self.inside.set()
            await self.release.wait()
            log.append(f"{name} out")


async def test_work_on_one_key_runs_one_at_a_time_in_arrival_order():
    locks: KeyedLocks[int] = KeyedLocks()
    log: list[str] = []
    first = Holder(locks, 7, log, "a")
    await first.inside.wait()
    second = Holder(locks, 7, log, "b")
    await second.trying.wait()  # and, the lock being held, it is now waiting for it
    assert log == ["a in"] and locks.locked(7) and len(locks) == 1
    second.release.set()  # ready to leave at once, but it must first get in
    first.release.set()
    await asyncio.gather(first.task, second.task)
    assert log == ["a in", "a out", "b in", "b out"]
    assert len(locks) == 0 and not locks.locked(7)


async def test_work_on_different_keys_runs_side_by_side():
    locks: KeyedLocks[str] = KeyedLocks()
    log: list[str] = []
    first = Holder(locks, "one", log, "a")
    await first.inside.wait()
    second = Holder(locks, "two", log, "b")
    await asyncio.wait_for(second.inside.wait(), 5)  # while "one" is still held
    second.release.set()
    await second.task
    assert log == ["a in", "b in", "b out"] and locks.locked("one") and len(locks) == 1
    first.release.set()
    await first.task
    assert len(locks) == 0


async def test_no_lock_is_kept_after_many_keys_and_many_overlapping_users():
    locks: KeyedLocks[int] = KeyedLocks()
    for key in range(1000):
        async with locks(key):
            assert len(locks) == 1
    inside: dict[int, int] = {}
    most: dict[int, int] = {}

    async def use(key: int) -> None:
        async with locks(key):
            inside[key] = inside.get(key, 0) + 1
            most[key] = max(most.get(key, 0), inside[key])
            await asyncio.sleep(0)  # let the others queue up behind it
            inside[key] -= 1

    await asyncio.gather(*(use(n % 10) for n in range(500)))
    assert most == {key: 1 for key in range(10)}  # never two at once on a key
    assert len(locks) == 0


async def test_a_wait_cancelled_leaves_no_lock_behind_and_the_next_waiter_gets_in():
    locks: KeyedLocks[int] = KeyedLocks()
    log: list[str] = []
    holder = Holder(locks, 1, log, "a")
    await holder.inside.wait()
    cancelled = Holder(locks, 1, log, "b")
    after = Holder(locks, 1, log, "c")
    await asyncio.gather(cancelled.trying.wait(), after.trying.wait())
    cancelled.task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled.task
    assert len(locks) == 1  # still held by the first, and waited for by the third
    after.release.set()
    holder.release.set()
    await asyncio.gather(holder.task, after.task)
    assert log == ["a in", "a out", "c in", "c out"]
    assert len(locks) == 0

    # Alone in the wait: cancelling it while the lock is held, then releasing, leaves nothing.
    holder = Holder(locks, 2, log, "d")
    await holder.inside.wait()
    lone = Holder(locks, 2, log, "e")
    await lone.trying.wait()
    lone.task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await lone.task
    holder.release.set()
    await holder.task
    assert len(locks) == 0


async def test_work_that_fails_or_is_cancelled_inside_releases_its_key():
    locks: KeyedLocks[int] = KeyedLocks()
    with pytest.raises(ValueError):
        async with locks(3):
            raise ValueError("the work failed")
    assert len(locks) == 0
    log: list[str] = []
    holder = Holder(locks, 3, log, "a")
    await holder.inside.wait()
    holder.task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await holder.task
    assert len(locks) == 0 and not locks.locked(3)
    async with locks(3):  # and the key can be taken again
        assert locks.locked(3)

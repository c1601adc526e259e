"""Computer players' decisions off the event loop, in a process pool sized to the machine, for any game.

A decision is rebuilt in a worker from (game, state, seat, level, seed): the state is a copy of the match in which
everything the deciding seat cannot see is redrawn (`Match.determinized`), so the hidden order of anything never
leaves the bot's process, and the worker's choice is the one the level would make on the real match (the levels
never depend on what the seat cannot see). Forced choices are answered at once, without the pool. The pool is shared
by every bot of the process and started on first use. The replays draw a game's animation in it too
(`Thinker.run_for`).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

import games
from games.base import Match

# The level of an AI seat that has none recorded: seats handed over after time-outs or a resignation.
DEFAULT_LEVEL = "normal"

_lock = threading.Lock()
_pool: Executor | None = None
T = TypeVar("T")


def decide_match(key: str, state: str, seat: int, level: str, seed: int) -> str:
    """In a worker: the action `level` (with its own `seed`) takes for `seat` in the match `state` (the JSON of a
    copy determinized for that seat) of the game `key`."""
    module = games.get(key)
    return module.decide(module.load(state), seat, level, seed)


def advise_match(key: str, state: str, seat: int, level: str, seed: int) -> tuple[str, float | None]:
    """In a worker: what `decide_match` chooses, with the points the level expects it to gain (`GameModule.advise`)."""
    module = games.get(key)
    return module.advise(module.load(state), seat, level, seed)


def _watch_parent() -> None:
    """In a worker: end when the process that started it ends, so a killed bot leaves no worker behind."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="kokeshi-worker-watch", daemon=True).start()


def workers() -> int:
    """One process per core this bot may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def shared_pool() -> Executor:
    """The process-wide pool of decision workers, started fresh (spawn: nothing of the bot's threads is copied);
    each worker ends soon after the bot process does."""
    global _pool
    with _lock:
        if _pool is None:
            context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(max_workers=workers(), mp_context=context, initializer=_watch_parent)
        return _pool


class Thinker:
    """Asks the pool for decisions; `match_work` (a picklable top-level function) and `pool` can be replaced in
    tests."""

    def __init__(
        self, pool: Executor | None = None, match_work: Callable[[str, str, int, str, int], str] = decide_match
    ) -> None:
        self.pool = pool
        self.match_work = match_work
        # Decisions sent to the pool and not back yet (the pool's queue, for the metrics).
        self.pending = 0

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` in the pool (a picklable top-level function and arguments), counted while it waits."""
        self.pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool or shared_pool(), work, *args)
        finally:
            self.pending -= 1

    async def decide(self, key: str, match: Match, seat: int, level: str) -> str:
        """The action `level` takes for `seat` in a match of the game `key`, computed off the loop on a copy in
        which everything the seat cannot see is redrawn. A game the workers cannot import by its key (one
        registered at run time, not built in) decides in a thread of this process instead (`run_for`)."""
        prompt = next((p for p in match.prompts() if p.seat == seat), None)
        if prompt is None:
            raise ValueError(f"seat {seat} has nothing to decide")
        if len(prompt.options) == 1:
            return prompt.options[0].id
        state = match.determinized(seat, secrets.randbits(64)).to_json()
        return await self.run_for(key, self.match_work, key, state, seat, level, secrets.randbits(64))

    async def advise(self, key: str, match: Match, seat: int, level: str) -> tuple[str, float | None]:
        """As `decide`, with the points the level expects the choice to gain over the seat's others (None when it
        does not measure them, or when there is only one choice)."""
        prompt = next((p for p in match.prompts() if p.seat == seat), None)
        if prompt is None:
            raise ValueError(f"seat {seat} has nothing to decide")
        if len(prompt.options) == 1:
            return prompt.options[0].id, None
        state = match.determinized(seat, secrets.randbits(64)).to_json()
        return await self.run_for(key, advise_match, key, state, seat, level, secrets.randbits(64))

    async def run_for(self, key: str, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` for the game `key`, off the loop: in the pool, or, for a game the workers cannot import by
        its key (one registered at run time, not built in), in a thread of this process."""
        pool = self.pool or shared_pool()
        if key not in games.BUILTIN and isinstance(pool, ProcessPoolExecutor):
            return await asyncio.to_thread(work, *args)
        return await self.run(work, *args)


__all__ = ["DEFAULT_LEVEL", "Thinker", "advise_match", "decide_match", "shared_pool", "workers"]

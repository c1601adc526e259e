"""Computer players' decisions off the event loop, in a process pool sized to the machine.

A decision is rebuilt in a worker from (level, seed, state): the state is a copy of the game with draws of its own
(Kokeshi's `Game.determinized`, any other game's `Match.determinized` for the deciding seat), so the hidden bag
order never leaves the bot's process, and the worker's choice is the one the level would make on the real game
(the levels never depend on what the seat cannot see). Forced choices are answered at once, without the pool. The
pool is shared by every bot of the process and started on first use.
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

import games
from games.base import Match
from games.kokeshi.engine import LEVELS, Game, Hint, load_game, policy

# The level of an AI seat that has none recorded: seats handed over after time-outs or a resignation.
DEFAULT_LEVEL = "normal"
# The level behind `/kokeshi hint`, searching with half its budget of simulated moves so that the choice comes
# within two seconds even on a busy machine (`bench/hint_bench.py`).
HINT_LEVEL = "hard"
HINT_BUDGET = 20_000

_lock = threading.Lock()
_pool: Executor | None = None


def decide(level: str, seed: int, state: str, budget: int | None = None) -> tuple[str, float]:
    """In a worker: the action `level` (with its own `seed`, and `budget` simulated moves if given) takes in the
    game `state` (JSON), and its gain."""
    hint = policy(level, seed=seed, budget=budget).explain(load_game(state))
    return hint.action, hint.gain


def decide_match(key: str, state: str, seat: int, level: str, seed: int) -> str:
    """In a worker: the action `level` (with its own `seed`) takes for `seat` in the match `state` (the JSON of a
    copy determinized for that seat) of the game `key`."""
    module = games.get(key)
    return module.decide(module.load(state), seat, level, seed)


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
    """Asks the pool for decisions; `work` (a picklable top-level function) and `pool` can be replaced in tests."""

    def __init__(
        self,
        work: Callable[[str, int, str], tuple[str, float]] = decide,
        pool: Executor | None = None,
        match_work: Callable[[str, str, int, str, int], str] = decide_match,
    ) -> None:
        self.work = work
        self.pool = pool
        self.match_work = match_work
        # Decisions sent to the pool and not back yet (the pool's queue, for the metrics).
        self.pending = 0

    async def explain(self, level: str, seed: int, game: Game, budget: int | None = None) -> Hint:
        """The action `level` takes for the player `game` waits for, and its expected gain, computed off the loop
        (with `budget` simulated moves instead of the level's own, if given)."""
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}")
        prompt = game.prompt
        if prompt is None:
            raise ValueError("the game is over")
        if len(prompt.options) == 1:
            return Hint(prompt.options[0].id, 0.0)
        # Another copy's draws, never the game's own: whatever reaches the worker says nothing of the bag order.
        state = game.determinized(seed).to_json()
        loop = asyncio.get_running_loop()
        extra = () if budget is None else (budget,)
        self.pending += 1
        try:
            action, gain = await loop.run_in_executor(self.pool or shared_pool(), self.work, level, seed, state, *extra)
        finally:
            self.pending -= 1
        return Hint(action, gain)

    async def choose(self, level: str, seed: int, game: Game) -> str:
        """Only the action of `explain`."""
        return (await self.explain(level, seed, game)).action

    async def decide(self, key: str, match: Match, seat: int, level: str) -> str:
        """The action `level` takes for `seat` in a match of the game `key`, computed off the loop on a copy in
        which everything the seat cannot see is redrawn. A game the workers cannot import by its key (one
        registered at run time, not built in) decides in a thread of this process instead."""
        prompt = next((p for p in match.prompts() if p.seat == seat), None)
        if prompt is None:
            raise ValueError(f"seat {seat} has nothing to decide")
        if len(prompt.options) == 1:
            return prompt.options[0].id
        state = match.determinized(seat, secrets.randbits(64)).to_json()
        args = (key, state, seat, level, secrets.randbits(64))
        pool = self.pool or shared_pool()
        if key not in games.BUILTIN and isinstance(pool, ProcessPoolExecutor):
            return await asyncio.to_thread(self.match_work, *args)
        self.pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, self.match_work, *args)
        finally:
            self.pending -= 1


__all__ = ["DEFAULT_LEVEL", "HINT_BUDGET", "HINT_LEVEL", "Thinker", "decide", "decide_match", "shared_pool", "workers"]

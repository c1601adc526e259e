"""Kokeshi's computer players at its own table: its levels' decisions and hints, in the bot's pool of workers.

Kokeshi's engine decides for the player a game waits for (its seats are named, not numbered), and a hint comes with
its expected gain; so its table asks the pool through a `Thinker` of its own, on the same determinized copies as
every other game (`Game.determinized`: another copy's draws, never the game's own).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor

from games.kokeshi.engine import LEVELS, Game, Hint, load_game, policy

from .thinking import Thinker, decide_match

# The level behind `/kokeshi hint`, searching with half its budget of simulated moves so that the choice comes
# within two seconds even on a busy machine (`bench/hint_bench.py`).
HINT_LEVEL = "hard"
HINT_BUDGET = 20_000


def decide(level: str, seed: int, state: str, budget: int | None = None) -> tuple[str, float]:
    """In a worker: the action `level` (with its own `seed`, and `budget` simulated moves if given) takes in the
    game `state` (JSON), and its gain."""
    hint = policy(level, seed=seed, budget=budget).explain(load_game(state))
    return hint.action, hint.gain


class KokeshiThinker(Thinker):
    """The pool as Kokeshi's table asks it; `work` (a picklable top-level function) can be replaced in tests."""

    def __init__(
        self,
        work: Callable[..., tuple[str, float]] = decide,
        pool: Executor | None = None,
        match_work: Callable[[str, str, int, str, int], str] = decide_match,
    ) -> None:
        super().__init__(pool, match_work)
        self.work = work

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
        extra = () if budget is None else (budget,)
        action, gain = await self.run(self.work, level, seed, state, *extra)
        return Hint(action, gain)

    async def choose(self, level: str, seed: int, game: Game) -> str:
        """Only the action of `explain`."""
        return (await self.explain(level, seed, game)).action


__all__ = ["HINT_BUDGET", "HINT_LEVEL", "KokeshiThinker", "decide"]

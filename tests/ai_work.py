"""Decision functions for the bot's AI worker processes in tests: small budgets, and one that waits to be let go."""

from __future__ import annotations

import time
from pathlib import Path

from games.kokeshi.engine import load_game, policy

# Simulated moves per search decision: enough to be a real search, small enough for a quick suite.
BUDGET = 200


def quick(level: str, seed: int, state: str, budget: int | None = None) -> tuple[str, float]:
    """What `cogs.kokeshi_ai.decide` returns, on a small budget (whatever budget it is asked for)."""
    hint = policy(level, seed=seed, budget=None if level == "easy" else BUDGET).explain(load_game(state))
    return hint.action, hint.gain


def gated(folder: str, level: str, seed: int, state: str, budget: int | None = None) -> tuple[str, float]:
    """`quick`, after saying it started (a file `started`) and waiting until the test lets it go (a file `go`)."""
    here = Path(folder)
    (here / "started").write_text(str(seed))
    deadline = time.monotonic() + 120
    while not (here / "go").exists():
        if time.monotonic() > deadline:
            raise TimeoutError("the test never let the decision go")
        time.sleep(0.01)
    return quick(level, seed, state)

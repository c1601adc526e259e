"""`/kokeshi hint` speed: the wall time from asking to the choice, through the bot's own process pool, on positions
of solo games and of one person against AI seats (where hints are allowed), every decision kind."""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import percentile  # noqa: E402
from cogs.thinking import Thinker, workers  # noqa: E402
from games.kokeshi.engine import GreedyPolicy, load_game, new_game, policy  # noqa: E402
from games.kokeshi.module import HINT_BUDGET  # noqa: E402

# The level behind a hint (`cogs.matches`), searching with `HINT_BUDGET` simulated moves (the module's own).
HINT_LEVEL = "hard"

GOAL_P95_S = 2.0


def positions(count: int, seed: int) -> list:
    """`count` games waiting on a decision with two or more choices: solo (both sides) and 1 person + 2 AI seats,
    taken every few decisions from the start to the last rounds."""
    out = []
    i = 0
    while len(out) < count:
        if i % 2:
            game = new_game(["Aiko", "AI 1", "AI 2"], seed=seed + i, side="basic")
        else:
            game = new_game(["Aiko"], seed=seed + i, solo=True, side="advanced" if i % 4 else "basic")
        policy = GreedyPolicy(seed + i)
        step = 0
        while game.prompt is not None and len(out) < count:
            if step % 23 == 7 and len(game.prompt.options) > 1:
                out.append(game.clone())
            game.apply(game.prompt.player, policy.choose(game))
            step += 1
        i += 1
    return out


def hint(state: str, seed: int, budget: int) -> str:
    """In a worker: the hint's choice, as Kokeshi's `advise` searches it, with `budget` simulated moves."""
    return policy(HINT_LEVEL, seed=seed, budget=budget).explain(load_game(state)).action


async def explain(thinker: Thinker, seed: int, game, budget: int) -> str:
    """A hint through the bot's pool, on a copy whose draws are another's (as every decision is asked)."""
    return await thinker.run(hint, game.determinized(seed).to_json(), seed, budget)


async def measure(games: list, budgets: list[int]) -> tuple[float, dict[int, list[float]]]:
    thinker = Thinker()
    # The first hint after a start also starts the pool's worker processes: reported on its own.
    t0 = time.perf_counter()
    await explain(thinker, 1, games[0], budgets[0])
    cold = time.perf_counter() - t0
    # Budgets side by side on each position, in turns, so that the machine's load weighs on all alike.
    times: dict[int, list[float]] = {b: [] for b in budgets}
    for n, game in enumerate(games):
        for budget in budgets if n % 2 else reversed(budgets):
            t0 = time.perf_counter()
            await explain(thinker, n, game, budget)
            times[budget].append(time.perf_counter() - t0)
    return cold, times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer positions (a smoke run)")
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument(
        "--budgets", default=f"{HINT_BUDGET}", help="simulated moves per hint, comma-separated (compared side by side)"
    )
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    games = positions(8 if args.quick else 60, args.seed)
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    cold, times = asyncio.run(measure(games, budgets))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"hint bench: {len(games)} positions, hints by the {HINT_LEVEL} AI through the process pool ({workers()} "
        f"workers), Python {platform.python_version()}, load average {load_before:.1f} before, {load:.1f} after"
    )
    print(f"  first hint after a start (pool start included): {cold:.2f} s")
    for budget, values in times.items():
        p50, p95 = statistics.median(values), percentile(values, 0.95)
        mark = " (the bot's)" if budget == HINT_BUDGET else ""
        print(
            f"  {budget:>6,} simulated moves{mark}: asking to choice p50 {p50:.2f} s   p95 {p95:.2f} s   "
            f"max {max(values):.2f} s   goal p95 <= {GOAL_P95_S:.1f} s: {'met' if p95 <= GOAL_P95_S else 'MISSED'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

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
from cogs.thinking import HINT_BUDGET, HINT_LEVEL, Thinker, workers  # noqa: E402
from engine import GreedyPolicy, new_game  # noqa: E402

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


async def measure(games: list) -> tuple[float, list[float]]:
    thinker = Thinker()
    # The first hint after a start also starts the pool's worker processes: reported on its own.
    t0 = time.perf_counter()
    await thinker.explain(HINT_LEVEL, 1, games[0], budget=HINT_BUDGET)
    cold = time.perf_counter() - t0
    times = []
    for n, game in enumerate(games):
        t0 = time.perf_counter()
        await thinker.explain(HINT_LEVEL, n, game, budget=HINT_BUDGET)
        times.append(time.perf_counter() - t0)
    return cold, times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer positions (a smoke run)")
    parser.add_argument("--seed", type=int, default=500)
    args = parser.parse_args()
    games = positions(8 if args.quick else 60, args.seed)
    cold, times = asyncio.run(measure(games))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    p50, p95 = statistics.median(times), percentile(times, 0.95)
    print(
        f"hint bench: {len(times)} hints by the {HINT_LEVEL} AI ({HINT_BUDGET:,} simulated moves) through the process "
        f"pool ({workers()} workers), "
        f"Python {platform.python_version()}, load average {load:.1f}"
    )
    print(f"  first hint after a start (pool start included): {cold:.2f} s")
    print(f"  asking to choice: p50 {p50:.2f} s   p95 {p95:.2f} s   max {max(times):.2f} s")
    print(f"  goal: p95 <= {GOAL_P95_S:.1f} s: {'met' if p95 <= GOAL_P95_S else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

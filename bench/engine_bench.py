"""Rules-engine speed on one core: decisions/s, games/s and apply latency for seeded 4-player games."""

from __future__ import annotations

import argparse
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import percentile, pin_to_one_core  # noqa: E402
from games.kokeshi.engine import GreedyPolicy, RandomPolicy, new_game  # noqa: E402

PLAYERS = ["Aiko", "Botan", "Chiyo", "Daiki"]


@dataclass
class Run:
    """Timings of one batch of games; all durations in nanoseconds."""

    policy: str
    games: int = 0
    decisions: int = 0
    setup_ns: int = 0  # new_game
    engine_ns: int = 0  # legal_actions() + apply()
    policy_ns: int = 0  # policy.choose()
    wall_ns: int = 0  # everything, loop overhead included
    applies: list[int] = field(default_factory=list)


def play(run: Run, seed: int, policy: RandomPolicy | GreedyPolicy) -> None:
    """Play one seeded 4-player game to its end, adding its timings to `run`."""
    clock = time.perf_counter_ns
    start = clock()
    game = new_game(PLAYERS, seed=seed, side="advanced" if seed % 2 else "basic")
    run.setup_ns += clock() - start
    applies = run.applies
    while not game.is_over:
        t0 = clock()
        game.legal_actions()
        t1 = clock()
        action = policy.choose(game)
        t2 = clock()
        game.apply(game.prompt.player, action)
        t3 = clock()
        applies.append(t3 - t2)
        run.engine_ns += (t1 - t0) + (t3 - t2)
        run.policy_ns += t2 - t1
        run.decisions += 1
    run.games += 1
    run.wall_ns += clock() - start


def bench(policy_name: str, seconds: float, min_games: int) -> Run:
    """Play games with fresh seeds (0, 1, …) for `seconds` of wall time, and at least `min_games` games."""
    run = Run(policy_name)
    make = RandomPolicy if policy_name == "random" else GreedyPolicy
    deadline = time.perf_counter() + seconds
    seed = 0
    while run.games < min_games or time.perf_counter() < deadline:
        play(run, seed, make(seed))
        seed += 1
    return run


def report(runs: list[Run]) -> None:
    """Print one row per run."""
    header = (
        f"{'policy':<7} {'games':>6} {'decisions':>9} {'wall s':>7} {'games/s':>8} "
        f"{'dec/s engine':>12} {'dec/s total':>11} {'apply p50':>10} {'p99':>8} {'max':>8}"
    )
    print(header)
    print("-" * len(header))
    for r in runs:
        applies = sorted(r.applies)
        wall = r.wall_ns / 1e9
        print(
            f"{r.policy:<7} {r.games:>6} {r.decisions:>9} {wall:>7.2f} {r.games / wall:>8.1f} "
            f"{r.decisions / (r.engine_ns / 1e9):>12,.0f} {r.decisions / wall:>11,.0f} "
            f"{percentile(applies, 0.50) / 1e3:>8.1f}µs {percentile(applies, 0.99) / 1e3:>6.1f}µs "
            f"{applies[-1] / 1e3:>6.1f}µs"
        )
    print()
    for r in runs:
        print(
            f"{r.policy}: {r.decisions / r.games:.0f} decisions/game; share of wall time: "
            f"engine {r.engine_ns / r.wall_ns:.0%}, policy {r.policy_ns / r.wall_ns:.0%}, "
            f"new_game {r.setup_ns / r.wall_ns:.1%}"
        )


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a short run (about 1 s) for a smoke test")
    args = parser.parse_args()
    random_seconds, greedy_seconds = (0.8, 0.2) if args.quick else (6.0, 1.5)
    pinned = pin_to_one_core()
    print(f"Kokeshi engine bench: 4 players, Python {platform.python_version()}, {pinned}, gc on")
    print("dec/s engine = decisions per second counting legal_actions() + apply() only;")
    print("dec/s total and games/s = over wall time, policy choice and new_game included.")
    print("apply latency = time.perf_counter_ns around each apply(), automatic steps and cascades included.")
    print()
    runs = [
        bench("random", random_seconds, min_games=1),
        bench("greedy", greedy_seconds, min_games=3),
    ]
    report(runs)


if __name__ == "__main__":
    main()

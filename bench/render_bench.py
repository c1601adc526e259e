"""Picture speed: time to draw and time to PNG-encode 4-player table images from random mid-game views."""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import PIL  # noqa: E402

import render  # noqa: E402
from bench.common import percentile, pin_to_one_core  # noqa: E402
from engine import RandomPolicy, new_game  # noqa: E402

PLAYERS = ["Aiko", "Botan", "Chiyo", "Daiki"]
GOAL_MS = 80.0


def views(count: int, seed: int) -> list[tuple[dict, list]]:
    """`count` mid-game 4-player views, each with the events of its last turn, from seeded random games."""
    out = []
    for i in range(count):
        game = new_game(PLAYERS, seed=seed + i, side="advanced" if i % 2 else "basic")
        policies = {n: RandomPolicy(seed + i) for n in game.names}
        turns = 8 + (i * 7) % 36  # spread over the game, from early to the last rounds
        done, current, last = 0, [], []
        while game.prompt is not None and done < turns:
            events = game.apply(game.prompt.player, policies[game.prompt.player].choose(game))
            current.extend(events)
            if any(e.kind == "turn_ended" for e in events):
                done, last, current = done + 1, current, []
        out.append((game.view(), last))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer views and rounds (a smoke run)")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    n_views, rounds = (12, 2) if args.quick else (60, 5)
    pinned = pin_to_one_core()
    samples = views(n_views, args.seed)
    # Warm-up: the first picture builds the cached static layers and sprites; report it on its own.
    start = time.perf_counter()
    render.encode(render.draw_table(*samples[0]))
    cold_ms = (time.perf_counter() - start) * 1000
    for view, events in samples:
        render.draw_table(view, events)
    draw_ms, encode_ms, total_ms, sizes = [], [], [], []
    for _ in range(rounds):
        for view, events in samples:
            t0 = time.perf_counter()
            img = render.draw_table(view, events)
            t1 = time.perf_counter()
            png = render.encode(img)
            t2 = time.perf_counter()
            draw_ms.append((t1 - t0) * 1000)
            encode_ms.append((t2 - t1) * 1000)
            total_ms.append((t2 - t0) * 1000)
            sizes.append(len(png))
    print(
        f"render bench: {len(draw_ms)} table pictures (1600x1000) from {n_views} views, Python "
        f"{platform.python_version()}, Pillow {PIL.__version__}, {pinned}"
    )
    print(f"  first picture (cold caches): {cold_ms:.1f} ms")
    for label, values in (("draw", draw_ms), ("encode", encode_ms), ("total", total_ms)):
        print(f"  {label:<6}  median {statistics.median(values):6.1f} ms   p99 {percentile(values, 0.99):6.1f} ms")
    print(f"  PNG size  median {statistics.median(sizes) / 1024:.0f} KiB   max {max(sizes) / 1024:.0f} KiB")
    ok_total = percentile(total_ms, 0.99) <= GOAL_MS
    ok_split = statistics.median(draw_ms) <= statistics.median(encode_ms)
    print(
        f"  goal: draw + encode <= {GOAL_MS:.0f} ms (p99): {'met' if ok_total else 'MISSED'}; "
        f"draw no slower than encode (median): {'met' if ok_split else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

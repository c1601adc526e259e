"""Store benchmark: load_game + apply + commit per move on a database of 10,000 mid-game games."""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import percentile  # noqa: E402
from engine import RandomPolicy, new_game  # noqa: E402
from storage import Store  # noqa: E402

NAMES = ["Ana", "Bo", "Cy", "Di"]


def fill(path: Path, games: int, seed: int) -> None:
    """Write `games` started games, each 20–80 moves in, straight into the schema in one transaction."""
    rng = random.Random(seed)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    now = time.time()
    for game_id in range(1, games + 1):
        players = rng.choice((2, 3, 4))
        names = NAMES[:players]
        game_seed = rng.randrange(2**31)
        game = new_game(names, seed=game_seed)
        policy = RandomPolicy(game_seed)
        actions, events = [], []
        for seq in range(1, rng.randint(20, 80) + 1):
            if game.prompt is None:
                break
            player = game.prompt.player
            action = policy.choose(game)
            for idx, e in enumerate(game.apply(player, action)):
                events.append((game_id, seq, idx, e.kind, e.player, json.dumps(e.data), int(e.reveals)))
            actions.append((game_id, seq, player, action, "player", now))
        db.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_id, status, players, side, solo, turn_timer, seed, "
            "rules, version, moves, snapshot, created_at, updated_at) VALUES (?, 1, 1, 1, 'active', ?, 'basic', 0, "
            "86400, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, players, game_seed, game.rules, len(actions) + 1, len(actions), game.to_json(), now, now),
        )
        db.executemany(
            "INSERT INTO seats (game_id, seat, name, user_id, ai) VALUES (?, ?, ?, ?, 0)",
            [(game_id, i, n, 1000 + i) for i, n in enumerate(names)],
        )
        db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)", actions)
        db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", events)
    db.execute("COMMIT")
    db.close()


async def one_move(store: Store, game_id: int, policy: RandomPolicy) -> float | None:
    """Time one load_game + apply (with its commit) in ms; the policy's choice is not timed."""
    start = time.perf_counter()
    game, version = await store.load_game(game_id)
    if game.prompt is None:
        return None
    chose = time.perf_counter()
    action = policy.choose(game)
    resumed = time.perf_counter()
    await store.apply(game_id, version, game.prompt.player, action)
    return (chose - start + time.perf_counter() - resumed) * 1000


async def sequential(path: Path, games: int, moves: int, seed: int) -> list[float]:
    """Moves on random games of a freshly opened store: most loads are cold and replay the log."""
    store = await Store.open(path)
    rng = random.Random(seed)
    policy = RandomPolicy(seed)
    times = []
    try:
        for _ in range(moves):
            took = await one_move(store, rng.randint(1, games), policy)
            if took is not None:
                times.append(took)
    finally:
        await store.close()
    return times


async def concurrent(
    path: Path, games: int, tables: int, seconds: float, seed: int, rate: float | None
) -> tuple[int, float, list[float]]:
    """`tables` games played at once, one task each, for `seconds`: moves, elapsed time, per-move ms.

    With `rate` (moves/s over all tables) each table moves on a fixed schedule, as players would; without it
    every table moves as fast as it can, which measures the store's ceiling.
    """
    store = await Store.open(path)
    rng = random.Random(seed)
    chosen = rng.sample(range(1, games + 1), tables)
    times: list[float] = []
    begin = time.perf_counter()
    stop = begin + seconds
    period = tables / rate if rate else 0.0

    async def table(game_id: int, phase: float) -> None:
        policy = RandomPolicy(game_id)
        due = begin + phase - period
        while True:
            if period:
                due += period
                if due >= stop:
                    return
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
            if time.perf_counter() >= stop:
                return
            took = await one_move(store, game_id, policy)
            if took is None:
                return
            times.append(took)

    try:
        await asyncio.gather(*(table(g, rng.uniform(0, period)) for g in chosen))
    finally:
        await store.close()
    return len(times), time.perf_counter() - begin, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="1,000 games and shorter runs")
    args = parser.parse_args()
    games = 1_000 if args.quick else 10_000
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        started = time.perf_counter()
        asyncio.run(_close_after_open(path))
        fill(path, games, seed=1)
        print(
            f"filled {games:,} mid-game games in {time.perf_counter() - started:.1f} s "
            f"({path.stat().st_size / 2**20:.0f} MiB)"
        )
        seq = asyncio.run(sequential(path, games, 300 if args.quick else 2_000, seed=2))
        print(
            f"one move at a time, cold cache  : p50 {statistics.median(seq):.2f} ms  p99 {percentile(seq, 0.99):.2f} ms"
            f"  max {max(seq):.2f} ms  ({len(seq)} moves)"
        )
        seconds = 3 if args.quick else 10
        for label, rate in (("100 games at 200 moves/s", 200.0), ("100 games flat out", None)):
            count, elapsed, times = asyncio.run(concurrent(path, games, 100, seconds, seed=3, rate=rate))
            print(
                f"{label:<32}: {count / elapsed:,.0f} moves/s  p50 {statistics.median(times):.2f} ms"
                f"  p99 {percentile(times, 0.99):.2f} ms per move"
            )
        print("goal: p99 <= 10 ms per move, >= 200 moves/s across 100 concurrent games")


async def _close_after_open(path: Path) -> None:
    await (await Store.open(path)).close()


if __name__ == "__main__":
    main()

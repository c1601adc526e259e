"""Store benchmark: bytes per finished game, boards at 1M results, per-move latency, saturation and commit cost."""

from __future__ import annotations

import argparse
import asyncio
import os
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
from storage.store import flags_of  # noqa: E402

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
        actions = []
        for seq in range(1, rng.randint(20, 80) + 1):
            if game.prompt is None:
                break
            player = game.prompt.player
            action = policy.choose(game)
            flags = flags_of(game.apply(player, action))
            actions.append((game_id, seq, player, action, "player", now, flags))
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
        db.executemany(
            "INSERT INTO actions (game_id, seq, player, action, source, created_at, flags) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            actions,
        )
    db.execute("COMMIT")
    db.close()


def fill_results(path: Path, results: int, seed: int) -> tuple[int, int]:
    """About `results` stored results of finished games in 1,000 servers by 100,000 players, with their totals,
    global ratings and one day's daily challenge (10,000 players); returns (results, players)."""
    rng = random.Random(seed)
    users = 100_000
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    now = 1.7e9
    game_id, stored = 10_000_000, 0
    games, rows = [], []
    while stored < results:
        game_id += 1
        players = rng.choice((2, 3, 4))
        at = now + game_id
        games.append((game_id, rng.randrange(1000), players, rng.randrange(2**31), at, at, at))
        totals = sorted((rng.randint(20, 120) for _ in range(players)), reverse=True)
        for rank, (user, total) in enumerate(zip(rng.sample(range(1, users + 1), players), totals, strict=True), 1):
            rows.append((game_id, rank - 1, f"P{rank}", user, rank, total, at))
        stored += players
    db.executemany(
        "INSERT INTO games (id, guild_id, channel_id, host_id, status, players, side, solo, seed, version, moves, "
        "created_at, updated_at, finished_at) VALUES (?, ?, 1, 1, 'finished', ?, 'basic', 0, ?, 1, 0, ?, ?, ?)",
        games,
    )
    db.executemany(
        "INSERT INTO results (game_id, seat, name, user_id, rank, total, in_play, tracks, quality, animals, leads, "
        "adjacency, finished_at) VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0, 0, 0, 0, ?)",
        rows,
    )
    for scope, extra in (("'global'", ""), ("'guild:' || g.guild_id", "g.guild_id, ")):
        db.execute(
            "INSERT INTO player_totals (scope, solo, user_id, games, wins, best, first_at) "
            f"SELECT {scope}, 0, r.user_id, COUNT(*), SUM(r.rank = 1), MAX(r.total), MIN(r.finished_at) "
            f"FROM results r JOIN games g ON g.id = r.game_id GROUP BY {extra}r.user_id"
        )
    db.executemany(
        "INSERT INTO ratings (scope, user_id, mu, sigma, games, updated_at) VALUES ('global', ?, ?, ?, 10, 0)",
        [(u, rng.gauss(25, 5), rng.uniform(1, 8)) for u in range(1, users + 1)],
    )
    db.executemany(
        "INSERT INTO challenge_attempts (game_id, kind, key, user_id, guild_id, rated, started_at, score, won, "
        "finished_at) VALUES (?, 'daily', '2026-11-22', ?, ?, 1, 0, ?, 0, ?)",
        [(game_id + u, u, rng.randrange(1000), rng.randint(20, 120), now + u) for u in range(1, 10_001)],
    )
    db.execute(
        "INSERT INTO board_counts (scope, board, players) SELECT scope, CASE solo WHEN 1 THEN 'solo' ELSE 'multi' END, "
        "COUNT(*) FROM player_totals GROUP BY scope, solo"
    )
    db.execute(
        "INSERT INTO board_counts (scope, board, players) SELECT scope, 'rating', COUNT(*) FROM ratings GROUP BY scope"
    )
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.close()
    return stored, users


async def boards_at_scale(path: Path, users: int, repeats: int) -> dict[str, list[float]]:
    """Milliseconds per answer: board pages (first, middle, last), a player's own line, stats, status."""
    store = await Store.open(path)
    rng = random.Random(5)
    took: dict[str, list[float]] = {}

    async def timed(label: str, call) -> None:
        start = time.perf_counter()
        await call
        took.setdefault(label, []).append((time.perf_counter() - start) * 1000)

    try:
        for _ in range(repeats):
            for board in ("wins", "best", "rating"):
                _, count = await store.leaderboard_page(board, None, page=0)
                for where, page in (("first", 0), ("middle", count // 20), ("last", count // 10)):
                    await timed(f"board {board}, {where} page", store.leaderboard_page(board, None, page=page))
                await timed(
                    f"board {board}, a player's own line", store.leaderboard_entry(board, None, rng.randint(1, users))
                )
                guild = rng.randrange(1000)
                await timed(f"board {board}, server page", store.leaderboard_page(board, guild, page=0))
            await timed("board daily, first page", store.leaderboard_page("daily", None, "2026-11-22", page=0))
            user = rng.randint(1, users)
            await timed("stats", store.stats(user))
            await timed("status (a player's games)", store.games_for_user(user))
    finally:
        await store.close()
    return took


async def play_finished(path: Path, games: int, first: int) -> int:
    """Play `games` 2–4 player games to the end through the store; returns the moves made."""
    store = await Store.open(path)
    moves = 0
    try:
        for i in range(first, first + games):
            players = 2 + i % 3
            gid = await store.create_game(
                guild_id=1 + i % 5, channel_id=1, host_id=1000 + i, host_name="Ana", players=players
            )
            for k in range(1, players):
                await store.add_seat(gid, 5000 + (i * 7 + k) % 300, f"P{k}")
            await store.start_game(gid, 10**9 + i)
            policy = RandomPolicy(i)
            while True:
                game, version = await store.load_game(gid)
                if game.prompt is None:
                    break
                await store.apply(gid, version, game.prompt.player, policy.choose(game))
                moves += 1
    finally:
        await store.close()
    return moves


def db_size(path: Path) -> int:
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("VACUUM")
    db.close()
    return path.stat().st_size


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


async def bare_commits(path: Path, count: int) -> list[float]:
    """Milliseconds per bare INSERT + COMMIT on the store's own write connection and settings."""
    store = await Store.open(path)
    times = []
    try:
        async with store._tx() as db:
            await store._run(db, "CREATE TABLE IF NOT EXISTS bench_bare (id INTEGER PRIMARY KEY, v TEXT)")
        for i in range(count):
            start = time.perf_counter()
            async with store._tx() as db:
                await store._run(db, "INSERT INTO bench_bare (v) VALUES (?)", (str(i),))
            times.append((time.perf_counter() - start) * 1000)
    finally:
        await store.close()
    return times


async def saturation(path: Path, tables: int, moves: int) -> tuple[int, float, int, list[str]]:
    """`tables` games played flat out, one task each, with board reads beside them, until `moves` are made.

    Finished games are replaced by new ones. Returns (moves, seconds, games played, errors).
    """
    store = await Store.open(path)
    errors: list[str] = []
    made = games = 0
    begin = time.perf_counter()

    async def table(n: int) -> None:
        nonlocal made, games
        while made < moves:
            players = 2 + n % 3
            gid = await store.create_game(guild_id=1 + n % 7, channel_id=1, host_id=n, host_name="Ana", players=players)
            for k in range(1, players):
                await store.add_seat(gid, 10_000 + (n * 13 + k + games) % 500, f"P{k}")
            await store.start_game(gid, random.randrange(2**62))
            games += 1
            policy = RandomPolicy(gid)
            while made < moves:
                try:
                    game, version = await store.load_game(gid)
                    if game.prompt is None:
                        break
                    await store.apply(gid, version, game.prompt.player, policy.choose(game))
                    made += 1
                except Exception as exc:  # every error counts against the run
                    errors.append(f"{type(exc).__name__}: {exc}")

    async def reader() -> None:
        while made < moves:
            try:
                await store.leaderboard_page("wins", None)
                await store.stats(10_000 + made % 500)
            except Exception as exc:
                errors.append(f"read {type(exc).__name__}: {exc}")
            await asyncio.sleep(0.01)

    try:
        await asyncio.gather(*(table(n) for n in range(tables)), reader())
        elapsed = time.perf_counter() - begin
        problems = await store.verify()
        errors += [f"verify: game {g}: {p}" for g, p in problems]
    finally:
        await store.close()
    return made, elapsed, games, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller databases and shorter runs")
    args = parser.parse_args()
    quick = args.quick
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        print("== SQLite")
        # Bytes per finished game: the growth of a vacuumed file between two numbers of finished games.
        sized = folder / "size.sqlite3"
        asyncio.run(play_finished(sized, 10, 0))
        before = db_size(sized)
        extra = 40 if quick else 150
        asyncio.run(play_finished(sized, extra, 10))
        print(
            f"bytes per finished game (2–4 players, with results and ratings): {(db_size(sized) - before) / extra:,.0f}"
        )

        # Boards at scale.
        big = folder / "big.sqlite3"
        asyncio.run(_close_after_open(big))
        started = time.perf_counter()
        results, users = fill_results(big, 100_000 if quick else 1_000_000, seed=4)
        print(f"filled {results:,} results of {users:,} players in {time.perf_counter() - started:.0f} s")
        took = asyncio.run(boards_at_scale(big, users, 5 if quick else 20))
        for label, values in took.items():
            print(f"  {label:<40}: p50 {statistics.median(values):6.2f} ms  max {max(values):6.2f} ms")
        worst = max(max(v) for v in took.values())
        print(f"  slowest answer {worst:.1f} ms (goal <= 20 ms)")

        # Per-move latency on mid-game games.
        games = 1_000 if quick else 10_000
        path = folder / "bench.sqlite3"
        asyncio.run(_close_after_open(path))
        fill(path, games, seed=1)
        seq = asyncio.run(sequential(path, games, 300 if quick else 2_000, seed=2))
        print(
            f"load + apply + commit, cold cache, {games:,} games: p50 {statistics.median(seq):.2f} ms"
            f"  p99 {percentile(seq, 0.99):.2f} ms"
        )
        bare = asyncio.run(bare_commits(path, 300 if quick else 1_000))
        print(
            f"bare INSERT + COMMIT: p50 {statistics.median(bare):.2f} ms; a move's load + apply + commit is "
            f"{statistics.median(seq) / statistics.median(bare):.2f}× that"
        )

        # Saturation.
        load = folder / "load.sqlite3"
        target = 4_000 if quick else 20_000
        made, elapsed, played, errors = asyncio.run(saturation(load, 120, target))
        print(
            f"saturation: {made:,} moves over {played} games by 120 tables in {elapsed:.0f} s = "
            f"{made / elapsed:,.0f} moves/s, {len(errors)} errors (verify included)"
        )
        for error in errors[:5]:
            print("   ", error)
        print("PostgreSQL: not measured (no PostgreSQL backend yet)")
        if os.environ.get("BENCH_STRICT") and errors:
            sys.exit(1)


async def _close_after_open(path: Path) -> None:
    await (await Store.open(path)).close()


if __name__ == "__main__":
    main()

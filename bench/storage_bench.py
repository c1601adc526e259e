"""Store benchmark, SQLite and PostgreSQL side by side: bytes per game, boards at 1M results, moves, saturation."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from bench.common import percentile  # noqa: E402
from games.kokeshi.engine import RandomPolicy  # noqa: E402
from storage import Store, is_url, open_store  # noqa: E402
from storage.matches import flags_of_events  # noqa: E402
from storage.postgres import to_pg  # noqa: E402
from tests.pgserver import PgServer  # noqa: E402

NAMES = ["Ana", "Bo", "Cy", "Di"]
LOAD_TIMEOUT = 3600  # seconds a bulk-load statement may take on PostgreSQL
OPTIONS = {"side": "basic"}  # Kokeshi's settings, as a lobby completes them


async def fill(target: str, count: int, seed: int) -> None:
    """Write `count` started games of Kokeshi, each 20–80 decisions in, straight into the schema in one
    transaction, as the store writes them (the log by seat number)."""
    rng = random.Random(seed)
    now = time.time()
    kokeshi = games.get("kokeshi")
    game_rows, seat_rows, action_rows = [], [], []
    for game_id in range(1, count + 1):
        players = rng.choice((2, 3, 4))
        game_seed = rng.randrange(2**31)
        match = kokeshi.deal(OPTIONS, game_seed, players)
        policy = RandomPolicy(game_seed)
        actions = []
        for seq in range(1, rng.randint(20, 80) + 1):
            if match.is_over:
                break
            seat, before = match.waiting()[0], match.turn_key()
            action = policy.choose(match.engine)
            events = match.apply(seat, action)
            flags = flags_of_events(events, match.turn_key() != before, match.is_over)
            actions.append((game_id, seq, str(seat), action, "player", now, flags))
        game_rows.append(
            (game_id, players, game_seed, match.rules, len(actions) + 1, len(actions), match.to_json(), now, now)
        )
        seat_rows += [(game_id, i, n, 1000 + i) for i, n in enumerate(NAMES[:players])]
        action_rows += actions
    await bulk(
        target,
        [
            (
                "INSERT INTO games (id, guild_id, channel_id, host_id, status, players, side, solo, turn_timer, seed, "
                "rules, version, moves, snapshot, created_at, updated_at, settings, log_seats) VALUES (?, 1, 1, 1, "
                "'active', ?, 'basic', 0, 86400, ?, ?, ?, ?, ?, ?, ?, '{\"side\":\"basic\"}', 1)",
                game_rows,
            ),
            ("INSERT INTO seats (game_id, seat, name, user_id, ai) VALUES (?, ?, ?, ?, 0)", seat_rows),
            (
                "INSERT INTO actions (game_id, seq, player, action, source, created_at, flags) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                action_rows,
            ),
        ],
    )


async def bulk(target: str, steps: Sequence[tuple[str, Sequence[Sequence] | None]]) -> None:
    """Run statements (with many rows each, or None for one plain statement) in one transaction of the store's."""
    store = await open_store(target)
    try:
        async with store._tx() as db:
            for sql, rows in steps:
                if not is_url(target):
                    await (store._run(db, sql) if rows is None else store._run_many(db, sql, rows))
                elif rows is None:  # past the store's 60 s statement limit: a bulk load takes minutes
                    await db.connection.execute(to_pg(sql), timeout=LOAD_TIMEOUT)
                elif rows:
                    await db.connection.executemany(to_pg(sql), rows, timeout=LOAD_TIMEOUT)
    finally:
        await store.close()


async def analyze(target: str) -> None:
    """Refresh the planner's statistics after a bulk load."""
    if is_url(target):
        store = await open_store(target)
        try:
            await store.database.pool.execute(
                "VACUUM ANALYZE", timeout=LOAD_TIMEOUT
            )  # as autovacuum later: index-only scans
        finally:
            await store.close()
    else:
        db = sqlite3.connect(target)
        db.execute("ANALYZE")
        db.close()


async def fill_results(target: str, results: int, seed: int) -> tuple[int, int]:
    """About `results` stored results of finished games in 1,000 servers by 100,000 players, with their totals,
    global ratings and one day's daily challenge (10,000 players); returns (results, players)."""
    rng = random.Random(seed)
    users = 100_000
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
    challenges = [(game_id + u, u) for u in range(1, 10_001)]
    games += [(g, rng.randrange(1000), 1, rng.randrange(2**31), now + u, now + u, now + u) for g, u in challenges]
    steps: list[tuple[str, Sequence[Sequence] | None]] = [
        (
            "INSERT INTO games (id, guild_id, channel_id, host_id, status, players, side, solo, seed, version, moves, "
            "created_at, updated_at, finished_at) VALUES (?, ?, 1, 1, 'finished', ?, 'basic', 0, ?, 1, 0, ?, ?, ?)",
            games,
        ),
        (
            "INSERT INTO results (game_id, seat, name, user_id, rank, total, details, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, '{}', ?)",
            rows,
        ),
    ]
    for scope, extra in (("'kokeshi:global'", ""), ("'kokeshi:guild:' || g.guild_id", "g.guild_id, ")):
        steps.append(
            (
                "INSERT INTO player_totals (scope, solo, user_id, games, wins, best, first_at) "
                f"SELECT {scope}, 0, r.user_id, COUNT(*), SUM(CASE WHEN r.rank = 1 THEN 1 ELSE 0 END), MAX(r.total), "
                f"MIN(r.finished_at) FROM results r JOIN games g ON g.id = r.game_id GROUP BY {extra}r.user_id",
                None,
            )
        )
    steps += [
        (
            "INSERT INTO ratings (scope, user_id, mu, sigma, games, updated_at) "
            "VALUES ('kokeshi:global', ?, ?, ?, 10, 0)",
            [(u, rng.gauss(25, 5), rng.uniform(1, 8)) for u in range(1, users + 1)],
        ),
        (
            "INSERT INTO challenge_attempts (game_id, kind, key, user_id, guild_id, rated, started_at, score, won, "
            "finished_at) VALUES (?, 'daily', '2026-11-22', ?, ?, 1, 0, ?, 0, ?)",
            [(g, u, rng.randrange(1000), rng.randint(20, 120), now + u) for g, u in challenges],
        ),
        (
            "INSERT INTO board_counts (scope, board, players) SELECT scope, "
            "CASE solo WHEN 1 THEN 'solo' ELSE 'multi' END, COUNT(*) FROM player_totals GROUP BY scope, solo",
            None,
        ),
        (
            "INSERT INTO board_counts (scope, board, players) SELECT scope, 'rating', COUNT(*) FROM ratings "
            "GROUP BY scope",
            None,
        ),
    ]
    await bulk(target, steps)
    store = await open_store(target)
    try:
        await store.recount_board_steps()
    finally:
        await store.close()
    await analyze(target)
    return stored, users


async def boards_at_scale(path: Path, users: int, repeats: int) -> dict[str, list[float]]:
    """Milliseconds per answer: board pages (first, middle, last), a player's own line, stats, status."""
    store = await open_store(path)
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
    store = await open_store(path)
    moves = 0
    try:
        for i in range(first, first + games):
            players = 2 + i % 3
            gid = await store.create_game(
                guild_id=1 + i % 5, channel_id=1, host_id=1000 + i, host_name="Ana", players=players
            )
            for k in range(1, players):
                await store.add_seat(gid, 5000 + (i * 7 + k) % 300, f"P{k}")
            match, version = await store.start_match(gid, 10**9 + i)
            policy = RandomPolicy(i)
            while not match.is_over:
                played = await store.play_match(gid, version, match.waiting()[0], policy.choose(match.engine))
                match, version = played.match, played.record.version
                moves += 1
    finally:
        await store.close()
    return moves


async def db_size(target: str) -> int:
    """Bytes the database takes once compacted: the vacuumed SQLite file, or PostgreSQL's tables and indexes."""
    if not is_url(target):
        db = sqlite3.connect(target)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("VACUUM")
        db.close()
        return Path(target).stat().st_size
    store = await open_store(target)
    try:
        await store.database.pool.execute("VACUUM FULL")
        # The store's tables with their indexes and TOAST; not the catalog, whose statistics grow with every ANALYZE.
        return await store.database.pool.fetchval(
            "SELECT SUM(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind = 'r'"
        )
    finally:
        await store.close()


async def one_move(store: Store, game_id: int, policy: RandomPolicy) -> float | None:
    """Time one load_match + play_match (with its commit) in ms; the policy's choice is not timed."""
    start = time.perf_counter()
    match, version, _record = await store.load_match(game_id)
    if match.is_over:
        return None
    chose = time.perf_counter()
    action = policy.choose(match.engine)
    resumed = time.perf_counter()
    await store.play_match(game_id, version, match.waiting()[0], action)
    return (chose - start + time.perf_counter() - resumed) * 1000


async def sequential(path: Path, games: int, moves: int, seed: int) -> list[float]:
    """Moves on random games of a freshly opened store: most loads are cold and replay the log."""
    store = await open_store(path)
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
    store = await open_store(path)
    times = []
    try:
        async with store._tx() as db:
            await store._run(db, "CREATE TABLE IF NOT EXISTS bench_bare (v TEXT)")
        for i in range(count):
            start = time.perf_counter()
            async with store._tx() as db:
                await store._run(db, "INSERT INTO bench_bare (v) VALUES (?)", (str(i),))
            times.append((time.perf_counter() - start) * 1000)
    finally:
        await store.close()
    return times


async def saturation(path: str, tables: int, moves: int, *, check: bool = True) -> tuple[int, float, int, list[str]]:
    """`tables` games played flat out, one task each, with board reads beside them, until `moves` are made.

    Finished games are replaced by new ones. Returns (moves, seconds, games played, errors), `verify` included
    when `check`.
    """
    store = await open_store(path)
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
            await store.start_match(gid, random.randrange(2**62))
            games += 1
            policy = RandomPolicy(gid)
            while made < moves:
                try:
                    match, version, _record = await store.load_match(gid)
                    if match.is_over:
                        break
                    await store.play_match(gid, version, match.waiting()[0], policy.choose(match.engine))
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
        if check:
            errors += [f"verify: game {g}: {p}" for g, p in await store.verify()]
    finally:
        await store.close()
    return made, elapsed, games, errors


WORKER = """
import asyncio, json, os, sys, time
sys.path.insert(0, {root!r})
from bench.storage_bench import saturation

url, tables, moves, go = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
print("READY", flush=True)
while not os.path.exists(go):
    time.sleep(0.001)
made, elapsed, games, errors = asyncio.run(saturation(url, tables, moves, check=False))
print(json.dumps([made, elapsed, games, errors]), flush=True)
"""


def saturation_processes(target: str, processes: int, tables: int, moves: int, folder: Path) -> tuple:
    """The saturation run split over OS processes on one database, started together: (moves, s, games, errors)."""
    go = folder / f"go-{processes}"
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WORKER.format(root=str(ROOT)),
                target,
                str(tables // processes),
                str(moves // processes),
                str(go),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]
    for worker in workers:
        assert worker.stdout.readline().strip() == "READY"
    begin = time.perf_counter()
    go.touch()
    outputs = [json.loads(w.communicate()[0].strip().splitlines()[-1]) for w in workers]
    elapsed = time.perf_counter() - begin
    errors = [e for out in outputs for e in out[3]]
    errors += [f"verify: game {g}: {p}" for g, p in asyncio.run(verify(target))]
    return sum(o[0] for o in outputs), elapsed, sum(o[2] for o in outputs), errors


async def verify(target: str) -> list[tuple[int, str]]:
    store = await open_store(target)
    try:
        return await store.verify()
    finally:
        await store.close()


class Places:
    """Fresh databases of one backend: SQLite files in a folder, or databases on a throwaway PostgreSQL server."""

    def __init__(self, backend: str, folder: Path, server: PgServer | None) -> None:
        self.backend, self.folder, self.server = backend, folder, server

    def new(self, name: str) -> str:
        if self.server is None:
            return str(self.folder / f"{name}.sqlite3")
        self.server.psql(f"CREATE DATABASE {name}")
        return self.server.url(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller databases and shorter runs")
    parser.add_argument("--pg-results", type=int, help="results stored for the PostgreSQL boards (default: as SQLite)")
    args = parser.parse_args()
    quick = args.quick
    figures: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as tmp, PgServer(durable=True) as server:
        folder = Path(tmp)
        for backend in ("sqlite", "postgresql"):
            print(f"== {backend}", flush=True)
            places = Places(backend, folder, server if backend == "postgresql" else None)
            figures[backend] = run_backend(places, quick, args.pg_results)
    print("\n== side by side")
    labels = list(dict.fromkeys(k for f in figures.values() for k in f))
    for label in labels:
        print(f"{label:<58} | " + " | ".join(f"{b}: {figures[b].get(label, '-')}" for b in figures))
    if os.environ.get("BENCH_STRICT") and any(
        " 0 errors" not in v for f in figures.values() for k, v in f.items() if "saturation" in k
    ):
        sys.exit(1)


def run_backend(places: Places, quick: bool, pg_results: int | None) -> dict[str, str]:
    """Every figure on one backend."""
    out: dict[str, str] = {}

    def say(label: str, value: str) -> None:
        out[label] = value
        print(f"{label}: {value}", flush=True)

    # Bytes per finished game: the growth of a compacted database between two numbers of finished games.
    sized = places.new("size")
    asyncio.run(play_finished(sized, 10, 0))
    before = asyncio.run(db_size(sized))
    extra = 40 if quick else 150
    asyncio.run(play_finished(sized, extra, 10))
    say("bytes per finished game", f"{(asyncio.run(db_size(sized)) - before) / extra:,.0f}")

    # Boards at scale.
    big = places.new("big")
    asyncio.run(_close_after_open(big))
    wanted = 100_000 if quick else 1_000_000
    if places.server is not None and pg_results:
        wanted = pg_results
    started = time.perf_counter()
    results, users = asyncio.run(fill_results(big, wanted, seed=4))
    print(f"filled {results:,} results of {users:,} players in {time.perf_counter() - started:.0f} s")
    took = asyncio.run(boards_at_scale(big, users, 5 if quick else 20))
    for label, values in took.items():
        print(f"  {label:<40}: p50 {statistics.median(values):6.2f} ms  max {max(values):6.2f} ms")
    pages = {k: v for k, v in took.items() if "page" in k}
    say(
        f"board page at {results:,} results, p50 worst / max",
        f"{max(statistics.median(v) for v in pages.values()):.1f} / {max(max(v) for v in pages.values()):.1f} ms",
    )
    lines = [statistics.median(v) for k, v in took.items() if "own line" in k]
    status = statistics.median(took["status (a player's games)"])
    say(
        "own line p50 worst; stats; status",
        f"{max(lines):.1f}; {statistics.median(took['stats']):.1f}; {status:.1f} ms",
    )

    # Per-move latency on mid-game games.
    games = 1_000 if quick else 10_000
    path = places.new("bench")
    asyncio.run(_close_after_open(path))
    asyncio.run(fill(path, games, seed=1))
    seq = asyncio.run(sequential(path, games, 300 if quick else 2_000, seed=2))
    say(
        f"load + decision + commit, cold, {games:,} games, p50 / p99",
        f"{statistics.median(seq):.2f} / {percentile(seq, 0.99):.2f} ms",
    )
    bare = asyncio.run(bare_commits(path, 300 if quick else 1_000))
    say(
        "move ÷ bare INSERT + COMMIT, p50",
        f"{statistics.median(seq) / statistics.median(bare):.2f}× (bare {statistics.median(bare):.2f} ms)",
    )

    # Saturation: 120 tables flat out; SQLite in one process, PostgreSQL in 1, 2 and 4.
    target = 4_000 if quick else 20_000
    for processes in (1,) if places.server is None else (1, 2, 4):
        load = places.new(f"load{processes}")
        asyncio.run(_close_after_open(load))
        made, elapsed, played, errors = saturation_processes(load, processes, 120, target, places.folder)
        say(
            f"saturation, {processes} process{'es' if processes > 1 else ''}",
            f"{made / elapsed:,.0f} moves/s ({made:,} moves, {played} games, {len(errors)} errors, verify included)",
        )
        for error in errors[:5]:
            print("   ", error)
    return out


async def _close_after_open(path: Path) -> None:
    await (await open_store(path)).close()


if __name__ == "__main__":
    main()

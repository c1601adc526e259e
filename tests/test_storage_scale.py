"""The store at scale: packed finished games, totals kept with each game, reads beside writes, one commit a turn."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import json
import os
import random
import sqlite3
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

import games
from games.kokeshi.engine import RandomPolicy, new_game
from storage import Store, migrations, open_store
from storage.logs import pack_log, unpack_log
from storage.open import is_url
from tests.dbkit import decide, named_log_flags, named_log_game, play_out, sql

_HELD_READ = 4242  # the advisory lock a held read waits on (PostgreSQL)


@contextlib.asynccontextmanager
async def held_read(store: Store, database: str) -> AsyncIterator[asyncio.Task]:
    """A read that is running on the store's read connection (or one of its pool's) when this is entered, and is
    held there until this is left: its task is given. Nothing is timed: the read starts and waits on a signal."""
    loop = asyncio.get_running_loop()
    if not is_url(database):
        started, release = asyncio.Event(), threading.Event()

        def hold() -> int:  # on the read connection's own thread
            loop.call_soon_threadsafe(started.set)
            release.wait(120)
            return 1

        await store.database.reader.create_function("held", 0, hold)
        task = asyncio.create_task(store._all("SELECT held()"))
        try:
            await started.wait()
            yield task
        finally:
            release.set()
        return
    blocker = await asyncpg.connect(database)
    try:
        await blocker.execute("SELECT pg_advisory_lock($1)", _HELD_READ)
        task = asyncio.create_task(
            store._all("SELECT 1 FROM (SELECT pg_advisory_xact_lock_shared(?)) AS held", (_HELD_READ,))
        )
        waiting = "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        while not await blocker.fetchval(waiting):
            await asyncio.sleep(0.01)  # until the read is queued behind the lock
        try:
            yield task
        finally:
            await blocker.execute("SELECT pg_advisory_unlock($1)", _HELD_READ)
    finally:
        await blocker.close()


async def _own_game(store: Store, seed: int, players: int = 2, guild: int = 1, users: tuple[int, ...] = ()) -> int:
    """A game of Kokeshi as older versions stored it (its log by the players' names), seated and dealt."""
    users = users or tuple(100 + i for i in range(players))
    names = ["Ana", *(f"P{i}" for i in range(1, players))]
    return named_log_game(store.path, names, seed=seed, users=list(users), guild_id=guild)


async def _game(store: Store, seed: int, players: int = 2, guild: int = 1, users: tuple[int, ...] = ()) -> int:
    """A game of Kokeshi as the platform's table deals it (its log by seat number), seated and dealt."""
    users = users or tuple(100 + i for i in range(players))
    game_id = await store.create_game(guild_id=guild, channel_id=10, host_id=users[0], host_name="Ana", players=players)
    for i in range(1, players):
        await store.add_seat(game_id, users[i], f"P{i}")
    await store.start_match(game_id, seed)
    return game_id


async def test_a_finished_game_keeps_its_log_packed_and_still_replays_and_verifies(database):
    store = await open_store(database)
    try:
        game_id = await _game(store, 31, players=3)
        await play_out(store, game_id)
        record = await store.get_game(game_id)
        logged = await store.match_decisions(game_id)
        match, _version, _record = await store.load_match(game_id)
        assert record.status == "finished" and len(logged) == record.moves > 50
        assert await store.verify() == []
    finally:
        await store.close()
    assert sql(database, "SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)) == [(0,)]
    [(blob, snapshot)] = sql(database, "SELECT log, snapshot FROM games WHERE id = ?", (game_id,))
    assert snapshot is None and len(blob) < 4000
    # The events the log shows are the game's own, by replay from the deal.
    kokeshi = games.get("kokeshi")
    again = kokeshi.deal(kokeshi.options({}), 31, 3)
    for entry in logged:
        assert [e.to_dict() for e in again.apply(entry.seat, entry.action)] == [e.to_dict() for e in entry.events]
    assert again.to_json() == match.to_json()


def test_packing_a_log_keeps_every_player_action_source_and_time_to_the_millisecond():
    rows = [(1, "Ana", "setup", "player", 100.0, 1), (2, "Bo", "advance:geisha", "timeout", 161.25, 0)]
    rows += [(3, "Ana", "effect:0", "ai", 200.0015, 2)]
    back = unpack_log(pack_log(rows, 100.0), 100.0)
    assert [r[:4] for r in back] == [r[:4] for r in rows]
    assert all(abs(a[4] - b[4]) <= 0.001 for a, b in zip(back, rows, strict=True))


@pytest.mark.slow
async def test_leaderboard_totals_kept_with_each_game_match_a_scan_of_the_results(database):
    store = await open_store(database)
    rng = random.Random(4)
    try:
        for i in range(14):
            players = rng.choice((2, 3))
            users = tuple(rng.sample(range(1, 7), players))
            await play_out(store, await _game(store, 500 + i, players, guild=1 + i % 2, users=users), seed=i)
        for guild in (None, 1, 2):
            where = "" if guild is None else f" AND g.guild_id = {guild}"
            scan = await store._all(
                "SELECT r.user_id, SUM(CASE WHEN r.rank = 1 THEN 1 ELSE 0 END) AS wins, COUNT(*) AS games, "
                "MAX(r.total) AS best, MIN(r.finished_at) AS first_at FROM results r JOIN games g ON g.id = r.game_id "
                f"WHERE r.user_id IS NOT NULL AND g.solo = 0{where} GROUP BY r.user_id "
                "ORDER BY wins DESC, games DESC, first_at, r.user_id"
            )
            board = await store.leaderboard("wins", guild)
            assert [(b.user_id, b.value, b.games) for b in board] == [(r[0], r[1], r[2]) for r in scan]
            best = sorted(scan, key=lambda r: (-r[3], r[4], r[0]))
            assert [(b.user_id, b.value) for b in await store.leaderboard("best", guild)] == [
                (r[0], r[3]) for r in best
            ]
            # Pages and a player's own line agree with the whole board.
            for board_name in ("wins", "best", "rating"):
                whole = await store.leaderboard(board_name, guild)
                pages = []
                for page in range(-(-len(whole) // 3)):
                    rows, count = await store.leaderboard_page(board_name, guild, page=page, size=3)
                    pages += rows
                    assert count == len(whole)
                assert pages == whole and len(whole) > 3
                # A page past the end shows the last one.
                assert (await store.leaderboard_page(board_name, guild, page=99, size=3))[0] == whole[-3:][-len(rows) :]
                for row in whole:
                    assert await store.leaderboard_entry(board_name, guild, row.user_id) == row
            assert await store.leaderboard_entry("wins", guild, 999) is None
        # The steps kept game by game are the ones a recount from the totals and ratings gives.
        steps = "SELECT scope, board, fine, a, b, players FROM board_steps ORDER BY scope, board, fine, a, b"
        kept = [tuple(r) for r in await store._all(steps)]
        await store.recount_board_steps()
        assert [tuple(r) for r in await store._all(steps)] == kept and len(kept) > 20
        stats = await store.stats(1)
        assert stats.games == sum(1 for r in await store.results_for_user(1))
        assert stats.favourite is not None
    finally:
        await store.close()


async def test_pages_and_ranks_found_through_the_board_steps_agree_with_the_whole_board_in_every_step(database):
    store = await open_store(database)
    rng = random.Random(8)
    totals, ratings = [], []
    for user in range(1, 401):
        games = rng.randint(1, 6)
        first_at = 1.7e9 + rng.choice((0, 0.5, 86399.75, 86400, 3 * 86400 + 7))  # ties, and both sides of a day
        totals.append(
            ("kokeshi:global", rng.randint(0, 1), user, games, rng.randint(0, games), rng.randint(30, 40), first_at)
        )
        sigma = rng.choice((1.0, 2.5, 8.333))
        ratings.append(
            ("kokeshi:global", user, 3 * sigma + rng.choice((-2.0, -1 / 64, 0.0, 0.015625, 0.5, 3.2)), sigma)
        )
    try:
        async with store._tx() as db:
            await store._run_many(
                db,
                "INSERT INTO player_totals (scope, solo, user_id, games, wins, best, first_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                totals,
            )
            await store._run_many(
                db,
                "INSERT INTO ratings (scope, user_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, 3, 0)",
                ratings,
            )
            for kept, n in (("multi", sum(1 for t in totals if not t[1])), ("solo", sum(t[1] for t in totals))):
                await store._run(db, "INSERT INTO board_counts VALUES ('kokeshi:global', ?, ?)", (kept, n))
            await store._run(db, "INSERT INTO board_counts VALUES ('kokeshi:global', 'rating', ?)", (len(ratings),))
        await store.recount_board_steps()
        for board in ("wins", "best", "solo", "rating"):
            whole = await store.leaderboard(board, None)
            pages = []
            for page in range(-(-len(whole) // 7)):
                rows, count = await store.leaderboard_page(board, None, page=page, size=7)
                assert count == len(whole)
                pages += rows
            assert pages == whole and len(whole) > 150
            for row in whole[::3]:
                assert await store.leaderboard_entry(board, None, row.user_id) == row
    finally:
        await store.close()


async def test_a_long_read_never_holds_up_a_move_and_reads_never_see_an_uncommitted_write(database):
    store = await open_store(database)
    try:
        game_id = await _game(store, 3)
        async with held_read(store, database) as slow:
            # The read is running on its connection, and stays there until let go: the move must not wait for it.
            await asyncio.wait_for(decide(store, game_id, random.Random(1)), 60)
            assert not slow.done()
        assert await slow
        # A write transaction in progress is invisible to readers until it commits.
        entered, release = asyncio.Event(), asyncio.Event()

        async def writer() -> None:
            async with store._tx() as db:
                await store._run(db, "UPDATE games SET host_id = 4242 WHERE id = ?", (game_id,))
                entered.set()
                await release.wait()

        task = asyncio.create_task(writer())
        await entered.wait()
        assert (await store.get_game(game_id)).host_id != 4242
        release.set()
        await task
        assert (await store.get_game(game_id)).host_id == 4242
    finally:
        await store.close()


async def test_the_per_game_locks_are_dropped_once_nobody_needs_them(database):
    store = await open_store(database)
    try:
        games = [await _game(store, 60 + i) for i in range(30)]
        rng = random.Random(5)

        async def move(game_id: int) -> None:
            for _ in range(5):
                assert await decide(store, game_id, rng)

        await asyncio.gather(*(move(g) for g in games))
        assert len(store._game_locks) == 0
    finally:
        await store.close()


async def test_a_decision_that_ends_a_turn_sets_the_next_turns_timers_in_its_own_single_commit(tmp_path):
    store = await open_store(tmp_path / "timers.sqlite3")
    statements: list[str] = []
    due = [("reminder_half", 5000.0), ("deadline", 9000.0)]

    async def to_the_next_turn(rng: random.Random) -> int:
        """Random decisions with a turn's timers until one ends the turn; the version that decision was made at."""
        for _ in range(200):
            match, version, _record = await store.load_match(game_id)
            (seat,) = match.waiting()
            statements.clear()
            played = await store.play_match(game_id, version, seat, rng.choice(match.legal_actions(seat)), timers=due)
            if played.outcome.turn_changed:
                return version
        raise AssertionError("no turn ended")

    try:
        game_id = await _game(store, 12)
        await store.database.writer.set_trace_callback(statements.append)
        rng = random.Random(8)
        version = await to_the_next_turn(rng)
        assert [s for s in statements if s.startswith(("COMMIT", "BEGIN"))] == ["BEGIN IMMEDIATE", "COMMIT"]
        timers = await store.timers(game_id)
        assert [(t.kind, t.due_at, t.version) for t in timers] == [(k, d, version + 1) for k, d in due]
        # A turn handed to an AI seat gets none: the decision that begins it clears the last turn's.
        match, version, record = await store.load_match(game_id)
        await store.update_seat(game_id, record.seats[match.waiting()[0]].name, ai=True)
        await to_the_next_turn(rng)
        match, version, record = await store.load_match(game_id)
        seat = record.seats[match.waiting()[0]]
        assert seat.ai or await store.timers(game_id) != []
        if seat.ai:
            assert await store.timers(game_id) == []
    finally:
        await store.close()


@pytest.mark.slow
async def test_many_games_played_at_once_flat_out_give_no_error_and_verify_clean(database):
    """A short saturation run in the suite; `bench/storage_bench.py --saturation` runs 20,000+ moves."""
    store = await open_store(database)
    errors: list[BaseException] = []
    moves = 0
    try:
        games = [await _game(store, 900 + i, players=2 + i % 3) for i in range(100)]

        async def table(game_id: int) -> None:
            nonlocal moves
            rng = random.Random(game_id)
            for _ in range(30):
                try:
                    if not await decide(store, game_id, rng):
                        return
                    moves += 1
                    await store.leaderboard_page("wins", 1)
                except BaseException as exc:  # noqa: BLE001 - every error is a failure here
                    errors.append(exc)

        await asyncio.gather(*(table(g) for g in games))
        assert errors == [] and moves == 3000
        assert await store.verify() == []
    finally:
        await store.close()


async def test_a_shard_process_sees_only_the_timers_of_games_in_its_guilds(database):
    store = await open_store(database)
    try:
        # Discord puts a guild on shard (guild id >> 22) % shard count.
        guilds = {shard: (123_456 << 22) * 4 + (shard << 22) + 77 for shard in range(4)}
        games = {}
        for shard, guild in guilds.items():
            games[shard] = await _game(store, 40 + shard, guild=guild)
            await store.set_match_timers(games[shard], 1, [("deadline", 100.0 + shard)])
        everything = await store.due_timers(1000.0)
        assert sorted(t.game_id for t in everything) == sorted(games.values())
        mine = await store.due_timers(1000.0, (4, (1, 3)))
        assert sorted(t.game_id for t in mine) == sorted([games[1], games[3]])
        assert (await store.next_timer((4, (2,)))).game_id == games[2]
        assert (await store.next_timer()).game_id == games[0]
    finally:
        await store.close()


async def test_a_database_of_the_previous_schema_migrates_with_its_events_folded_into_flags_and_totals(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    for number, script in migrations()[:3]:
        db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
    expected_flags = {}
    for game_id, finish in ((1, True), (2, False)):
        names = ["Ana", "Bo"]
        game = new_game(names, seed=70 + game_id, rules=1)  # what a database of schema 3 holds
        policy = RandomPolicy(game_id)
        db.execute("BEGIN")
        seq = 0
        while game.prompt is not None and (finish or seq < 25):
            seq += 1
            player, action = game.prompt.player, policy.choose(game)
            events = game.apply(player, action)
            expected_flags[(game_id, seq)] = named_log_flags(events)
            db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, 'player', 5.0)", (game_id, seq, player, action))
            db.executemany(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(game_id, seq, i, e.kind, e.player, json.dumps(e.data), int(e.reveals)) for i, e in enumerate(events)],
            )
        status = "finished" if finish else "active"
        db.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_id, status, players, side, solo, seed, version, moves, "
            "snapshot, created_at, updated_at, finished_at) VALUES (?, 9, 1, 11, ?, 2, 'basic', 0, ?, ?, ?, ?, 1, 1, "
            "?)",
            (game_id, status, 70 + game_id, seq + 1, seq, game.to_json(), 9.0 if finish else None),
        )
        db.executemany(
            "INSERT INTO seats (game_id, seat, name, user_id) VALUES (?, ?, ?, ?)",
            [(game_id, i, n, 11 + i) for i, n in enumerate(names)],
        )
        if finish:
            scores = game.scores()
            for rank, name in enumerate(game.ranking(), start=1):
                score = scores[name]
                items = (score.in_play, score.tracks, score.quality, score.animals, score.leads, score.adjacency)
                db.execute(
                    "INSERT INTO results VALUES (?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?, 9.0)",
                    (game_id, names.index(name), name, 11 + names.index(name), rank, score.total, *items),
                )
        db.execute("COMMIT")
    db.close()
    store = await open_store(path)
    try:
        assert await store.schema_version() == len(migrations())
        assert await store.verify() == []
        rows = await store._all("SELECT game_id, seq, flags FROM actions")
        assert {(r["game_id"], r["seq"]): r["flags"] for r in rows} == expected_flags
        board = await store.leaderboard("wins", 9)
        assert sorted((r.user_id, r.games) for r in board) == [(11, 1), (12, 1)]
        assert [await store.leaderboard_entry("wins", 9, r.user_id) for r in board] == board
        steps = "SELECT scope, board, fine, a, b, players FROM board_steps ORDER BY scope, board, fine, a, b"
        migrated = [tuple(r) for r in await store._all(steps)]
        await store.recount_board_steps()
        assert [tuple(r) for r in await store._all(steps)] == migrated and len(migrated) == 16
        assert (await store.stats(11)).favourite is not None
        # The game in progress carries on, once its log names its seats by number.
        assert await store.to_seat_log(2)
        match, version, _record = await store.load_match(2)
        (seat,) = match.waiting()
        await store.play_match(2, version, seat, RandomPolicy(3).choose(match.engine))
        assert len(await store.match_decisions(1)) == (await store.get_game(1)).moves
        # Finished games of the old schema are packed on request, and still verify.
        before = [(d.seq, d.seat, d.action) for d in await store.match_decisions(1)]
        assert await store.compact() == 1 and await store.compact() == 0
        assert await store._all("SELECT 1 FROM actions WHERE game_id = 1") == []
        assert [(d.seq, d.seat, d.action) for d in await store.match_decisions(1)] == before
        assert await store.verify() == []
    finally:
        await store.close()


RACER = """
import asyncio, os, sys, time
from storage import StaleVersion, Store, open_store

async def main(path, game_id, go):
    store = await open_store(path)
    try:
        match, version, _record = await store.load_match(game_id)
        [seat] = match.waiting()
        print("READY", flush=True)
        while not os.path.exists(go):
            time.sleep(0.001)
        try:
            await store.play_match(game_id, version, seat, match.legal_actions(seat)[0])
            print("APPLIED", flush=True)
        except StaleVersion as exc:
            print("STALE", exc.current, flush=True)
    finally:
        await store.close()

asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
"""


@pytest.mark.slow
async def test_two_processes_racing_on_one_game_exactly_one_applies_and_the_other_is_told_it_is_stale(
    database, tmp_path
):
    path = database
    store = await open_store(path)
    game_id = await _game(store, 21)
    await store.close()
    root = Path(__file__).resolve().parent.parent
    for round_ in range(3):
        go = tmp_path / f"go{round_}"
        racers = [
            subprocess.Popen(
                [sys.executable, "-c", RACER, str(path), str(game_id), str(go)],
                cwd=root,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env={**os.environ, "PYTHONPATH": str(root)},
            )
            for _ in range(2)
        ]
        for racer in racers:  # both have loaded the game at the same version
            assert racer.stdout.readline().strip() == "READY"
        go.touch()
        outputs = [r.communicate(timeout=60) for r in racers]
        said = sorted(out.split()[0] for out, _ in outputs if out)
        assert said == ["APPLIED", "STALE"], outputs
    store = await open_store(path)
    try:
        assert len(await store.match_decisions(game_id)) == 3 and await store.verify() == []
    finally:
        await store.close()


class _TracingCursor(sqlite3.Cursor):
    """Records where it is finalised and whether it was closed first."""

    record: collections.Counter = collections.Counter()
    closed_here = False

    def close(self) -> None:
        self.closed_here = True
        super().close()

    def __del__(self) -> None:
        thread = "loop" if threading.current_thread() is threading.main_thread() else "worker"
        _TracingCursor.record[(thread, self.closed_here)] += 1


class _TracingConnection(sqlite3.Connection):
    def cursor(self, factory=_TracingCursor):
        return super().cursor(factory)

    def execute(self, sql, parameters=()):
        return self.cursor().execute(sql, parameters)

    def executemany(self, sql, parameters):
        return self.cursor().executemany(sql, parameters)


@pytest.mark.slow
async def test_no_cursor_is_left_open_for_the_event_loop_thread_to_finalise_under_concurrent_moves(
    tmp_path, monkeypatch
):
    # An unclosed cursor resets its statement when finalised, on whichever thread drops it last: on the event-loop
    # thread that touches the connection while its worker thread runs other statements.
    original = aiosqlite.connect
    monkeypatch.setattr(aiosqlite, "connect", lambda *a, **k: original(*a, factory=_TracingConnection, **k))
    _TracingCursor.record.clear()
    store = await open_store(tmp_path / "cursors.sqlite3")
    try:
        games = [await _game(store, 300 + i) for i in range(20)]

        async def table(game_id: int) -> None:
            rng = random.Random(game_id)
            for _ in range(15):
                assert await decide(store, game_id, rng)
                await store.leaderboard_page("wins", 1)

        await asyncio.gather(*(table(g) for g in games))
    finally:
        await store.close()
    gc.collect()
    assert sum(_TracingCursor.record.values()) > 600  # the tracing saw the store's cursors
    assert _TracingCursor.record[("loop", False)] == 0, dict(_TracingCursor.record)

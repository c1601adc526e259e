"""Secrets stay out of the logs, undo is versioned like apply, and `verify` copes with damaged or read-only files."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from storage import StaleVersion, Store, open_store

ROOT = Path(__file__).resolve().parent.parent


async def _two_player_game(store: Store, seed: int) -> int:
    game_id = await store.create_game(guild_id=1, channel_id=10, host_id=100, host_name="Ana", players=2)
    await store.add_seat(game_id, 101, "Bo")
    await store.start_match(game_id, seed)
    return game_id


async def _play(store: Store, game_id: int, moves: int | None = None, seed: int = 3) -> None:
    rng = random.Random(seed)
    count = 0
    while moves is None or count < moves:
        match, version, _record = await store.load_match(game_id)
        if match.is_over:
            return
        [seat] = match.waiting()
        await store.play_match(game_id, version, seat, rng.choice(match.legal_actions(seat)))
        count += 1


async def _undoable(store: Store, game_id: int) -> int:
    """Play until the seat to move has made a decision that undo accepts (one that neither ended its turn nor drew
    anything); returns that seat."""
    rng = random.Random(11)
    for _ in range(400):
        match, version, _record = await store.load_match(game_id)
        [seat] = match.waiting()
        await store.play_match(game_id, version, seat, rng.choice(match.legal_actions(seat)))
        last = (await store.match_decisions(game_id))[-1]
        if not last.ends_turn and not any(e.reveals for e in last.events):
            return seat
    raise AssertionError("no undoable decision found")


def _run(args: list[str]) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "storage", *args]
    return subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)}
    )


# ---------------------------------------------------------------- logs


async def test_no_log_level_writes_a_seed_a_snapshot_a_bag_or_the_challenge_secret(database, caplog):
    # What LOG_LEVEL=DEBUG does in bot.py: every logger at DEBUG, every record kept.
    caplog.set_level(logging.DEBUG)
    logging.getLogger("aiosqlite").setLevel(logging.DEBUG)
    try:
        seed = 918_273_645_546_372_819
        store = await open_store(database)
        try:
            game_id = await _two_player_game(store, seed)
            await _play(store, game_id)
            challenge, _ = await store.create_challenge(
                kind="daily", key="2026-11-22", guild_id=1, channel_id=10, user_id=7, name="Cy"
            )
            challenge_seed = store.challenge_seed("daily:2026-11-22")
            await store.start_match(challenge, challenge_seed)
            await _play(store, challenge, moves=30)
            secret = await store.meta("challenge_secret")
            match, _version, _record = await store.load_match(challenge)
            snapshot = match.to_json()
        finally:
            await store.close()
    finally:
        logging.getLogger("aiosqlite").setLevel(logging.NOTSET)
    text = "\n".join(f"{r.name} {r.getMessage()}" for r in caplog.records)
    assert caplog.records  # the capture works: migrations and the like are logged
    for secret_text in (str(seed), str(challenge_seed), secret, '"bag"', snapshot[:40]):
        assert secret_text not in text


# ---------------------------------------------------------------- undo races


async def test_undo_racing_a_move_from_another_connection_is_stale_and_the_log_stays_whole(database):
    first = await open_store(database)
    second = await open_store(database)
    try:
        game_id = await _two_player_game(first, 5)
        seat = await _undoable(first, game_id)
        original = first._tx

        @asynccontextmanager
        async def move_sneaks_in():
            # The other process saves the same seat's next decision between undo's checks and its commit.
            match, version, _record = await second.load_match(game_id)
            await second.play_match(game_id, version, seat, random.Random(2).choice(match.legal_actions(seat)))
            async with original() as db:
                yield db

        first._tx = move_sneaks_in
        before = (await second.get_game(game_id)).moves
        try:
            await first.undo_match(game_id, seat)
        except StaleVersion:
            pass
        else:
            raise AssertionError("an undo against a version that moved on must be refused")
        first._tx = original
        after = await second.get_game(game_id)
        assert after.moves == before + 1 == len(await second.match_decisions(game_id))
        assert await second.verify() == []
    finally:
        await first.close()
        await second.close()


async def test_undo_leaves_a_fresh_snapshot_so_a_copy_right_after_verifies_and_nothing_is_rebuilt(tmp_path, caplog):
    path = tmp_path / "undo.sqlite3"
    store = await open_store(path)
    try:
        game_id = await _two_player_game(store, 9)
        seat = await _undoable(store, game_id)
        with caplog.at_level(logging.WARNING, logger="storage"):
            match, version = await store.undo_match(game_id, seat)
            copy = tmp_path / "copy.sqlite3"
            await store.backup(copy)
            other = await open_store(path)  # a second process loading the game after the undo
            try:
                await other.load_match(game_id)
            finally:
                await other.close()
        assert not [r for r in caplog.records if "rebuilt" in r.getMessage()]
        assert version == (await store.get_game(game_id)).version
    finally:
        await store.close()
    snapshot = sqlite3.connect(copy).execute("SELECT snapshot FROM games WHERE id = ?", (game_id,)).fetchone()[0]
    assert snapshot == match.to_json()
    result = _run(["verify", str(copy)])
    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------------------- verify on bad files


@pytest.mark.slow
async def test_verify_reports_damaged_pages_and_exits_non_zero_without_a_traceback(tmp_path):
    path = tmp_path / "damaged.sqlite3"
    store = await open_store(path)
    try:
        for i in range(12):
            await _play(store, await _two_player_game(store, 100 + i))
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        pages = db.execute("PRAGMA page_count").fetchone()[0]
    data = bytearray(path.read_bytes())
    for page in range(pages // 3, pages - 1, 5):  # scribble over many pages past the schema, their headers included
        start = page * page_size
        data[start : start + 200] = b"\xa5" * 200
    path.write_bytes(bytes(data))
    result = _run(["verify", str(path)])
    assert result.returncode != 0
    assert "Traceback" not in result.stderr + result.stdout
    assert "damaged" in (result.stdout + result.stderr).lower()


@pytest.mark.slow
async def test_verify_opens_a_read_only_database_read_only_and_does_not_change_it(tmp_path):
    folder = tmp_path / "readonly"
    folder.mkdir()
    path = folder / "kokeshi.sqlite3"
    store = await open_store(path)
    try:
        await _play(store, await _two_player_game(store, 77))
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for extra in folder.glob("kokeshi.sqlite3-*"):
        extra.unlink()
    before = path.read_bytes()
    path.chmod(0o444)
    folder.chmod(0o555)
    target, mounted = path, None
    if os.geteuid() == 0:
        # Root ignores file modes: show it a read-only file system instead (a read-only bind mount).
        mounted = tmp_path / "mounted"
        mounted.mkdir()
        subprocess.run(["mount", "--bind", str(folder), str(mounted)], check=True)
        subprocess.run(["mount", "-o", "remount,ro,bind", str(mounted)], check=True)
        target = mounted / path.name
    try:
        result = _run(["verify", str(target)])
    finally:
        if mounted is not None:
            subprocess.run(["umount", str(mounted)], check=True)
        folder.chmod(0o755)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 games checked, 0 with problems" in result.stdout
    assert path.read_bytes() == before
    shutil.rmtree(folder)


# ---------------------------------------------------------------- reads under a crowd


@pytest.mark.slow
async def test_a_game_just_created_is_found_at_once_while_other_tasks_keep_reading(database):
    """Every write is visible to the next read of the task that made it, however many other reads overlap it."""
    store = await open_store(database)
    try:
        for i in range(20):
            await _two_player_game(store, i)
        stop = False

        async def crowd() -> None:
            while not stop:
                await store.games_in_channel(10)
                await store.games_for_user(100)

        readers = [asyncio.create_task(crowd()) for _ in range(8)]
        try:
            for n in range(60):
                game_id = await store.create_game(
                    guild_id=1, channel_id=20, host_id=500 + n, host_name=f"Host {n}", players=2
                )
                record = await store.get_game(game_id)
                assert record.host_id == 500 + n
                assert [g.id for g in await store.games_for_user(500 + n)] == [game_id]
        finally:
            stop = True
            await asyncio.gather(*readers)
    finally:
        await store.close()

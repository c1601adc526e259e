"""Maintenance commands cannot hit a live database by mistake, can start a failed copy over, print no password."""

from __future__ import annotations

import asyncio
import os
import sys
import time

import asyncpg
import pytest

from storage import open_store
from storage.sqlite import sqlite_in_use
from tests.dbkit import fresh_pg_database, sql
from tests.fakediscord import ROOT, SilentServer
from tests.pgserver import free_port
from tests.test_storage import play_moves, started

PASSWORD = "s3cret-Pa55word"


async def cli(*args: str, **env: str) -> tuple[int, str, str]:
    """`python -m storage ARGS` as a process of its own; the test's loop keeps running meanwhile."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "storage",
        *args,
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": "", "CONNECT_TIMEOUT": "", **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 180)
    return process.returncode, out.decode(), err.decode()


def with_password(url: str) -> str:
    """The URL with a password in it (the test server trusts every connection, so any password works)."""
    return url.replace("kokeshi@", f"kokeshi:{PASSWORD}@", 1)


async def games_in(url: str) -> list[int]:
    return [row[0] for row in sql(url, "SELECT id FROM games ORDER BY id")]


async def test_sqlite_in_use_sees_an_open_store_and_nothing_once_it_is_closed(tmp_path):
    path = tmp_path / "live.sqlite3"
    assert not sqlite_in_use(path)  # no file yet
    store = await open_store(path)
    assert sqlite_in_use(path)
    await store.close()
    assert not sqlite_in_use(path)


async def test_copy_refuses_while_a_bot_has_the_sqlite_file_open(tmp_path, pg_server):
    path = tmp_path / "live.sqlite3"
    store = await open_store(path)
    try:
        await started(store)
        url = fresh_pg_database(pg_server, migrated=False)
        status, out, err = await cli("copy", str(path), url)
    finally:
        await store.close()
    assert status == 2 and out == ""
    assert err.strip() == (
        f"The database {path} is open in another process (a running bot?): moves made after the copy would be lost. "
        "Stop the bot first, or add --while-running for a rehearsal copy that is already out of date."
    )
    assert sql(url, "SELECT to_regclass('games')") == [(None,)]  # the target was not even touched


async def test_copy_while_the_bot_plays_takes_one_consistent_snapshot_that_verifies_clean(tmp_path, pg_server):
    path = tmp_path / "live.sqlite3"
    store = await open_store(path)
    games = [await started(store, players=2 + i % 3, seed=i) for i in range(48)]
    for game_id in games:
        await play_moves(store, game_id, 30)
    playing = True
    played = 0

    async def play() -> None:
        nonlocal played
        while playing:
            for game_id in games:
                played += await play_moves(store, game_id, 1, seed=played) or 1
                await asyncio.sleep(0)

    players = asyncio.create_task(play())
    try:
        url = fresh_pg_database(pg_server, migrated=False)
        before = played
        status, out, err = await cli("copy", str(path), url, "--while-running")
        assert played > before + 20, "moves went on during the copy"
    finally:
        playing = False
        await players
        await store.close()
    assert status == 0, err
    assert f"copied {len(games)} games" in out and f"{len(games)} games checked, 0 with problems" in out


async def test_a_copy_is_started_over_with_replace_and_never_while_a_bot_uses_the_target(tmp_path, pg_server):
    old, new = tmp_path / "old.sqlite3", tmp_path / "new.sqlite3"
    for path, count in ((old, 3), (new, 2)):
        store = await open_store(path)
        for seed in range(count):
            await play_moves(store, await started(store, seed=seed + 10 * count), 4)
        await store.set_guild_setting(1, "channel", str(count))
        await store.close()
    url = fresh_pg_database(pg_server, migrated=False)
    assert (await cli("copy", str(old), url))[0] == 0  # the wrong file, say

    status, _, err = await cli("copy", str(new), url)
    assert status == 2 and "already holds 3 games" in err and "add --replace" in err

    bot = await open_store(url)  # a bot started on it meanwhile
    try:
        status, _, err = await cli("copy", str(new), url, "--replace")
    finally:
        await bot.close()
    assert status == 2 and "of a running bot use the database" in err and "stop every bot process" in err
    assert len(await games_in(url)) == 3

    status, out, err = await cli("copy", str(new), url, "--replace")
    assert status == 0, err
    assert "copied 2 games" in out and "2 games checked, 0 with problems" in out
    assert await games_in(url) == [1, 2]
    assert sql(url, "SELECT value FROM guild_settings") == [("2",)]
    copy = await open_store(url)
    try:
        assert await copy.create_game(guild_id=1, channel_id=1, host_id=1, host_name="Di", players=2) == 3
    finally:
        await copy.close()


async def test_a_conflict_in_the_target_is_reported_as_a_conflict_not_as_damage(tmp_path, pg_server):
    path = tmp_path / "src.sqlite3"
    store = await open_store(path)
    await started(store)
    await store.set_guild_setting(1, "channel", "10")
    await store.close()
    url = fresh_pg_database(pg_server)  # migrated, no games, but a setting the copy brings too
    sql(url, "INSERT INTO guild_settings (guild_id, key, value) VALUES (1, 'channel', '99')")
    status, _, err = await cli("copy", str(path), with_password(url))
    assert status == 2 and "damaged" not in err, err
    assert "already holds rows this command conflicts with" in err and "--replace" in err
    assert PASSWORD not in err
    assert await games_in(url) == []  # nothing of the failed copy was kept


@pytest.mark.slow
async def test_backup_refuses_to_write_over_a_database_a_bot_has_open(tmp_path):
    live, backup = tmp_path / "live.sqlite3", tmp_path / "backup.sqlite3"
    store = await open_store(live)
    await started(store)
    try:
        assert (await cli("backup", str(live), str(backup)))[0] == 0  # backing a live database up is fine
        status, _, err = await cli("backup", str(backup), str(live))  # restoring over it is not
        assert status == 2 and f"The database {live} is open in another process" in err and "Stop the bot" in err
        assert await store.match_decisions(1) == [] and (await store.get_game(1)).status == "active"
    finally:
        await store.close()
    status, out, _ = await cli("backup", str(backup), str(live))  # once the bot is stopped, it restores
    assert status == 0 and "backed up" in out


async def test_no_maintenance_command_prints_a_password_and_a_silent_server_gives_a_reason(tmp_path, pg_server):
    good = with_password(fresh_pg_database(pg_server))
    closed = f"postgresql://kokeshi:{PASSWORD}@127.0.0.1:{free_port()}/kokeshi"
    missing = with_password(pg_server.url("no_such_database"))
    sqlite = tmp_path / "db.sqlite3"
    await (await open_store(sqlite)).close()
    runs = [
        ("verify", good),
        ("compact", good),
        ("verify", closed),
        ("verify", missing),
        ("backup", good, str(tmp_path / "copy.sqlite3")),
        ("backup", str(sqlite), good),
        ("copy", str(sqlite), closed),
        ("copy", str(tmp_path / "absent.sqlite3"), good),
        ("copy", str(sqlite), f"mysql://kokeshi:{PASSWORD}@db/kokeshi"),
    ]
    outputs = []
    for args in runs:
        status, out, err = await cli(*args)
        outputs.append((args[0], status, out + err))
    status, out, err = await cli("verify", DATABASE_URL=closed)
    outputs.append(("verify via DATABASE_URL", status, out + err))
    for name, _, text in outputs:
        assert PASSWORD not in text, (name, text)
    assert [status for _, status, _ in outputs] == [0, 0, 2, 2, 2, 2, 2, 2, 2, 2]
    assert "Cannot connect to the database postgresql://kokeshi:***@" in outputs[2][2]
    assert "pg_dump" in outputs[4][2] and "pg_dump" in outputs[5][2]

    async with SilentServer() as silent:
        url = f"postgresql://kokeshi:{PASSWORD}@127.0.0.1:{silent.port}/kokeshi"
        started_at = time.monotonic()
        status, out, err = await cli("verify", url, CONNECT_TIMEOUT="1")
        took = time.monotonic() - started_at
    assert status == 2 and took < 20 and PASSWORD not in out + err
    assert err.strip() == (
        f"Cannot connect to the database postgresql://kokeshi:***@127.0.0.1:{silent.port}/kokeshi: the server did "
        "not answer within 1 s. Check DATABASE_URL's host and port, that the server runs and that no firewall "
        "holds the connection."
    )


async def test_the_bot_names_itself_to_postgresql_so_the_commands_can_tell_it_is_running(pg_server):
    url = fresh_pg_database(pg_server)
    bot = await open_store(url)
    try:
        db = await asyncpg.connect(url)
        try:
            names = {r[0] for r in await db.fetch("SELECT application_name FROM pg_stat_activity")}
        finally:
            await db.close()
    finally:
        await bot.close()
    assert "kokeshi" in names

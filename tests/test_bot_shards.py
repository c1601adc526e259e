"""Sharded processes: SHARD_COUNT and SHARD_IDS select the shards a process connects and whose timers it fires."""

from __future__ import annotations

import discord
import pytest
from discord.ext import commands

from bot import Settings, create_bot
from storage import open_store
from tests.test_storage_scale import _own_game


def test_shard_settings_build_an_auto_sharded_bot_that_fires_only_its_own_timers(monkeypatch, tmp_path):
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "1, 3")
    settings = Settings.from_env()
    assert (settings.shard_count, settings.shard_ids) == (4, (1, 3))
    bot = create_bot(str(tmp_path / "db.sqlite3"), shard_count=settings.shard_count, shard_ids=settings.shard_ids)
    assert isinstance(bot, commands.AutoShardedBot) and isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count == 4 and list(bot.shard_ids) == [1, 3]
    assert bot.timer_shards == (4, (1, 3))
    every = create_bot(str(tmp_path / "db.sqlite3"), shard_count=2, shard_ids=(0, 1))
    assert every.timer_shards is None  # a process running every shard fires every timer
    assert create_bot(str(tmp_path / "db.sqlite3")).timer_shards is None


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [("two", "", "must be a number"), ("", "0", "needs SHARD_COUNT"), ("2", "0,2", "from 0 to SHARD_COUNT - 1 (1)")],
)
def test_bad_shard_settings_are_refused_with_a_clear_message(monkeypatch, count, ids, says):
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    with pytest.raises(SystemExit) as info:
        Settings.from_env()
    assert says in str(info.value)


def test_database_url_selects_postgresql_over_the_sqlite_path(monkeypatch):
    monkeypatch.setenv("DATABASE_PATH", "data/elsewhere.sqlite3")
    monkeypatch.setenv("DATABASE_URL", "postgresql://kokeshi@127.0.0.1:5432/kokeshi")
    assert Settings.from_env().database_path == "postgresql://kokeshi@127.0.0.1:5432/kokeshi"
    monkeypatch.setenv("DATABASE_URL", " ")
    assert Settings.from_env().database_path == "data/elsewhere.sqlite3"


def _guild_on(shard: int, count: int, n: int = 0) -> int:
    """A guild id Discord puts on this shard: (guild id >> 22) % count."""
    return ((1_000 + n) * count + shard) << 22 | 77


@pytest.mark.parametrize(("count", "mine"), [(2, (0,)), (2, (1,)), (4, (1, 3))])
async def test_at_start_up_a_shard_process_moves_only_the_games_of_its_own_shards(database, count, mine):
    # Games Kokeshi's own table left (their logs by their players' names) move to the platform's table at a start,
    # each by the process that runs its server's shard, and go on there.
    store = await open_store(database)
    try:
        games: dict[int, list[int]] = {}
        for shard in range(count):
            for n in range(2):
                game_id = await _own_game(store, seed=10 * shard + n, guild=_guild_on(shard, count, n))
                games.setdefault(shard, []).append(game_id)
        assert await store.named_log_games() == sorted(g for ids in games.values() for g in ids)
        bot = create_bot(str(database), shard_count=count, shard_ids=mine)
        bot.store = store
        resumed: list[int] = []

        async def resume(game_id: int) -> None:
            resumed.append(game_id)

        bot.matches.resume = resume  # type: ignore[method-assign]
        await bot.tables.catch_up()
        assert resumed == sorted(g for shard in mine for g in games[shard])
        others = [g for shard, ids in games.items() if shard not in mine for g in ids]
        assert others and await store.named_log_games() == sorted(others)
    finally:
        await store.close()

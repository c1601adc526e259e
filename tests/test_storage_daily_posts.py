"""The record of a server's daily results posts on both backends: once per game and day, and the posts made before
it knew games (migration 0014) kept as Kokeshi's."""

from __future__ import annotations

from storage import migrations, open_store
from tests.dbkit import build_at, sql

BEFORE = 13  # the schema whose record knew one post per server and day
GUILD = 7
DAY = "2026-11-27"


async def test_each_games_daily_results_are_recorded_once_for_its_day(database):
    store = await open_store(database)
    try:
        assert not await store.daily_posted(GUILD, DAY, game="kokeshi")
        await store.mark_daily_posted(GUILD, DAY, 70, 1.0, game="kokeshi")
        # Another game's post of the same day, and another day, are other posts.
        assert await store.daily_posted(GUILD, DAY, game="kokeshi")
        assert not await store.daily_posted(GUILD, DAY, game="kohaku")
        assert not await store.daily_posted(GUILD, "2026-11-28", game="kokeshi")
        assert not await store.daily_posted(GUILD + 1, DAY, game="kokeshi")
        await store.mark_daily_posted(GUILD, DAY, 70, 2.0, game="kohaku")
        await store.mark_daily_posted(GUILD, DAY, 71, 3.0, game="kohaku")  # a second record changes nothing
        assert await store.daily_posted(GUILD, DAY, game="kohaku")
        rows = sql(database, "SELECT game, channel_id, posted_at FROM daily_posts ORDER BY game")
        assert rows == [("kohaku", 70, 2.0), ("kokeshi", 70, 1.0)]
    finally:
        await store.close()


async def test_migration_0014_keeps_the_posts_made_so_far_as_kokeshis(empty):
    build_at(
        empty,
        BEFORE,
        [
            (
                "INSERT INTO daily_posts (guild_id, day, channel_id, posted_at) VALUES (?, ?, ?, ?)",
                (GUILD, DAY, 70, 5.0),
            ),
            ("INSERT INTO daily_posts (guild_id, day, channel_id, posted_at) VALUES (?, ?, ?, ?)", (8, DAY, 80, 6.0)),
        ],
    )
    store = await open_store(empty)
    try:
        assert await store.schema_version() == len(migrations())
        rows = sql(empty, "SELECT guild_id, game, day, channel_id, posted_at FROM daily_posts ORDER BY guild_id")
        assert rows == [(GUILD, "kokeshi", DAY, 70, 5.0), (8, "kokeshi", DAY, 80, 6.0)]
        assert await store.daily_posted(GUILD, DAY, game="kokeshi")
        # Kōhaku's results of the same day were not posted yet, and can be now.
        assert not await store.daily_posted(GUILD, DAY, game="kohaku")
        await store.mark_daily_posted(GUILD, DAY, 70, 7.0, game="kohaku")
        assert await store.daily_posted(GUILD, DAY, game="kohaku")
    finally:
        await store.close()

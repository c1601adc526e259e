"""Leaderboards, ratings, stats and challenges, end to end through Discord."""

from __future__ import annotations

import discord
import pytest

from tests.botkit import announced, components, custom_ids, load_game, open_game, play_to_end, press
from tests.test_bot_replay import played_in_store


def _descriptions(result) -> str:
    return result.response.embeds[0].description


async def _finished_games(world, count: int) -> list[int]:
    """`count` two-player games opened through Discord and played to their end straight through the store, which
    records their results, ratings and favourites as the buttons do (whole games through the buttons are
    `test_bot_games.py`'s); their ids."""
    ids = []
    for seed in range(count):
        game_id, _thread = await open_game(world, players=2)
        await played_in_store(world, game_id, seed)
        assert (await world.store.get_game(game_id)).status == "finished"
        ids.append(game_id)
    return ids


@pytest.mark.slow
async def test_after_a_few_games_the_leaderboards_ratings_and_stats_add_up(world):
    ids = await _finished_games(world, 2)
    aiko, botan = world.members[:2]
    results = [await world.store.results(g) for g in ids]
    aiko_wins = sum(r[0].user_id == aiko.id for r in results)
    wins = await aiko.slash(world.channel, "kokeshi leaderboard", board="wins")
    assert wins.ephemeral
    text = _descriptions(wins)
    # Players by name: a raw mention shows as a number wherever Discord does not know the user.
    assert f"aiko — **{aiko_wins}** win" in text and f"botan — **{2 - aiko_wins}** win" in text
    assert "<@" not in text
    assert "▶" in text  # the caller's own row is marked
    rating = await botan.slash(world.channel, "kokeshi leaderboard", board="rating", scope="global")
    assert "(provisional)" in _descriptions(rating) and "Rating — the world" in rating.response.embeds[0].title
    stats = await aiko.slash(world.channel, "kokeshi stats")
    embed = stats.response.embeds[0]
    fields = {f.name: f.value for f in embed.fields} if hasattr(embed.fields[0], "name") else {}
    fields = fields or {f["name"]: f["value"] for f in embed.to_dict()["fields"]}
    assert fields["Games"].startswith(f"2 played · {aiko_wins} won")
    assert "provisional" in fields["Rating"] and "Favourite kokeshi" in fields
    assert stats.response.attachments[0].filename == "history.png"
    assert (await stats.response.attachments[0].read()).startswith(b"\x89PNG")
    newcomer = await world.members[3].slash(world.channel, "kokeshi stats")
    assert "No finished games yet" in newcomer.response.embeds[0].description


async def test_leaderboard_pages_and_the_callers_row_when_off_the_page(world):
    # Twenty-three players on the weekly board of the simulated week, with decreasing scores.
    key = "2026-W01"
    users = list(range(9000, 9023))
    async with world.store._tx() as db:
        for i, uid in enumerate(users):
            await db.execute(
                "INSERT INTO games (id, status, players, side, solo, created_at, updated_at, challenge) "
                "VALUES (?, 'finished', 1, 'advanced', 1, 0, 0, ?)",
                (1000 + i, f"weekly:{key}"),
            )
            await db.execute(
                "INSERT INTO challenge_attempts (game_id, kind, key, user_id, guild_id, rated, started_at, score, "
                "won, finished_at) VALUES (?, 'weekly', ?, ?, ?, 1, 0, ?, 0, ?)",
                (1000 + i, key, uid, world.guild.id, 100 - i, i),
            )
        last = world.members[0]
        await db.execute(
            "INSERT INTO games (id, status, players, side, solo, created_at, updated_at, challenge) "
            "VALUES (2000, 'finished', 1, 'advanced', 1, 0, 0, ?)",
            (f"weekly:{key}",),
        )
        await db.execute(
            "INSERT INTO challenge_attempts (game_id, kind, key, user_id, guild_id, rated, started_at, score, won, "
            "finished_at) VALUES (2000, 'weekly', ?, ?, ?, 1, 0, 1, 0, 99)",
            (key, last.id, world.guild.id),
        )
    first = await last.slash(world.channel, "kokeshi leaderboard", board="weekly", scope="global")
    text = _descriptions(first)
    # Users nobody can look up any more read as such, never as a raw mention.
    assert text.count("\n") >= 10 and "1. a former player — **100**" in text and "<@" not in text
    assert "11. a former player" not in text
    assert "▶ **24. you — **1** point** ◀" in text
    assert first.response.embeds[0].footer.text == "Page 1 of 3 · 24 players"
    previous, following = custom_ids(first.response)
    assert [c.get("disabled", False) for c in components(first.response)] == [True, False]
    second = await press(last, first.response, 1)
    assert "11. a former player" in second.response.embeds[0].description
    third = await press(last, second.response, 1)
    assert f"▶ **24. {last.user.name}" in third.response.embeds[0].description
    assert third.response.embeds[0].footer.text.startswith("Page 3 of 3")
    assert following.endswith(":1") and previous.endswith(":0")


@pytest.mark.slow
async def test_the_daily_challenge_is_the_same_game_for_everyone_and_only_the_first_attempt_is_ranked(world):
    aiko, botan = world.members[:2]
    first = await aiko.slash(world.channel, "kokeshi daily")
    assert first.ephemeral and "Your solo game has started" in first.response.content
    assert "daily challenge of Jan 1, 2026 (ranked)" in await announced(world)
    other = await botan.slash(world.channel, "kokeshi daily")
    await aiko.slash(world.channel, "kokeshi daily")
    assert "(practice" in await announced(world)
    games = await world.store.games_in_channel(world.channel.id, statuses=("active",))
    assert len(games) == 3 and {g.seed for g in games} == {world.store.challenge_seed("daily:2026-01-01")}
    assert {g.side for g in games} == {"basic"}
    states = [(await load_game(world, g.id))[0].view() for g in games]
    assert all(s["offer"] == states[0]["offer"] for s in states)
    record = games[0]
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    await play_to_end(world, record.id, thread, seed=1)
    final = thread.history()[-1].content
    assert "Daily challenge of Jan 1, 2026: #1 of 1 so far. Streak: 1 day." in final
    board = await botan.slash(world.channel, "kokeshi leaderboard", board="daily", scope="global")
    assert "1. aiko — " in _descriptions(board)
    assert other.acknowledged


@pytest.mark.slow
async def test_a_new_utc_day_brings_a_new_daily_challenge_and_the_results_are_posted_where_admins_asked(world):
    aiko = world.members[0]
    refused = await aiko.slash(world.channel, "games settings daily-channel", channel=world.channel)
    assert refused.ephemeral and "Only server admins" in refused.response.content
    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = world.guild.add_member(world.env.create_user("eiko"), roles=[admins])
    results_channel = world.guild.create_text_channel("kokeshi-results")
    done = await admin.slash(world.channel, "games settings daily-channel", channel=results_channel)
    assert "will be posted" in done.response.content
    await aiko.slash(world.channel, "kokeshi daily")
    record = (await world.store.games_in_channel(world.channel.id, statuses=("active",)))[0]
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    await play_to_end(world, record.id, thread, seed=2)
    for _ in range(4):
        await world.env.advance_time(6 * 3600)  # to UTC midnight
    posted = results_channel.history()
    assert len(posted) == 1 and "Daily challenge of Jan 1, 2026 — results" in posted[0].content
    assert "1. aiko — " in posted[0].content and "<@" not in posted[0].content
    await world.env.advance_time(3600)
    assert len(results_channel.history()) == 1  # once a day
    await aiko.slash(world.channel, "kokeshi daily")
    assert "daily challenge of Jan 2, 2026 (ranked)" in await announced(world)
    games = await world.store.games_in_channel(world.channel.id, statuses=("active",))
    assert games[-1].seed == world.store.challenge_seed("daily:2026-01-02") != record.seed
    assert await world.store.streak(aiko.id, world.env.now().date()) == 2


async def test_the_weekly_challenge_is_on_the_advanced_side(world):
    await world.members[2].slash(world.channel, "kokeshi weekly")
    assert "weekly challenge 2026-W01 (ranked)" in await announced(world)
    game = (await world.store.games_in_channel(world.channel.id, statuses=("active",)))[0]
    assert game.side == "advanced" and game.challenge == "weekly:2026-W01"


@pytest.mark.slow
async def test_after_a_solo_game_the_first_board_offered_is_the_solo_one(world):
    aiko = world.members[0]
    await aiko.slash(world.channel, "kokeshi solo")
    record = (await world.store.games_in_channel(world.channel.id, statuses=("active",)))[0]
    await played_in_store(world, record.id, seed=4)
    assert (await world.store.get_game(record.id)).status == "finished"
    board = await aiko.slash(world.channel, "kokeshi leaderboard")
    assert board.response.embeds[0].title.startswith("Best solo score")
    assert "1. aiko — " in _descriptions(board)
    # Someone who played with others is offered the wins first.
    await _finished_games(world, 1)
    botan = world.members[1]
    wins = await botan.slash(world.channel, "kokeshi leaderboard")
    assert wins.response.embeds[0].title.startswith("Wins")

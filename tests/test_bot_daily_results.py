"""A server's daily results: one post per game with a daily challenge that someone in the server played, each with
its own board, streaks and invitation, in the server's language, once per game and day."""

from __future__ import annotations

import itertools

import pytest

import i18n
from cogs.common import challenge_day
from tests.botkit import World
from tests.test_bot_match_end import finished_kohaku_daily

YESTERDAY = "2025-12-31"  # the simulated day is 2026-01-01
GAME_IDS = itertools.count(8000)


async def played(w: World, game: str, user_id: int, guild_id: int, days: list[str], score: int) -> None:
    """A game's daily challenges this user finished on these days in this server (straight into the store)."""
    async with w.store._tx() as db:
        for day in days:
            game_id = next(GAME_IDS)
            await db.execute(
                "INSERT INTO games (id, status, players, side, solo, created_at, updated_at, challenge, game) "
                "VALUES (?, 'finished', 1, 'basic', 1, 0, 0, ?, ?)",
                (game_id, f"daily:{day}", game),
            )
            await db.execute(
                "INSERT INTO challenge_attempts (game_id, game, kind, key, user_id, guild_id, rated, started_at, "
                "score, won, finished_at) VALUES (?, ?, 'daily', ?, ?, ?, 1, 0, ?, 0, 1)",
                (game_id, game, day, user_id, guild_id, score),
            )


async def two_servers(w: World):
    """The world's server (English), where Kokeshi's and Kōhaku's dailies were played yesterday, and a Brazilian
    one, where only Kōhaku's was: each with its results channel. Returns (results here, the other server's
    results, its player)."""
    aiko, botan = w.members[:2]
    here = w.guild.create_text_channel("results")
    await w.store.set_guild_setting(w.guild.id, "daily_channel", str(here.id))
    other = w.env.create_guild("Clube Kōhaku", preferred_locale="pt-BR")
    there = other.create_text_channel("resultados")
    player = other.add_member(w.env.create_user("emi"))
    await w.store.set_guild_setting(other.id, "daily_channel", str(there.id))
    await played(w, "kokeshi", aiko.id, w.guild.id, ["2025-12-29", "2025-12-30", YESTERDAY], 50)
    await played(w, "kokeshi", botan.id, w.guild.id, [YESTERDAY], 40)
    await played(w, "kohaku", botan.id, w.guild.id, ["2025-12-30", YESTERDAY], 70)
    await played(w, "kohaku", player.id, other.id, [YESTERDAY], 30)
    return here, there, player


def secrets(w: World) -> list[str]:
    """What no results post may hold: the challenges' seeds, or a mention."""
    return [str(w.store.challenge_seed(f"daily:{YESTERDAY}")), "<@"]


async def test_each_game_played_in_a_server_has_its_own_post_with_its_own_board_and_streaks(world):
    here, there, player = await two_servers(world)
    await world.bot.community.post_daily_results()
    kokeshi, kohaku = [m.content for m in here.history()]
    day = "Dec 31, 2025"
    # Kokeshi's reads as it always has, headed with the game's name.
    assert kokeshi.splitlines() == [
        f"🎎 **Kokeshi** · Daily challenge of {day} — results (⭐ = this server)",
        "1. aiko — **50** points ⭐",
        "2. botan — **40** points ⭐",
        "🔥 The server played 3 days in a row.",
        "🔥 aiko: 3-day streak",
        "Today's challenge is waiting: `/kokeshi daily`.",
    ]
    # Kōhaku's: its own board (the world's, this server's players starred), its own streaks, its own command.
    assert kohaku.splitlines() == [
        f"**Kōhaku** · Daily challenge of {day} — results (⭐ = this server)",
        "1. botan — **70** points ⭐",
        "2. emi — **30** points",
        "🔥 The server played 2 days in a row.",
        "🔥 botan: 2-day streak",
        "Today's challenge is waiting: `/games challenge` with Kōhaku.",
    ]
    # The other server played Kōhaku's only: one post, in its language, and nothing of Kokeshi's.
    [only] = [m.content for m in there.history()]
    with i18n.using("pt_BR"):
        day_pt = challenge_day(YESTERDAY)
    assert only.splitlines() == [
        f"**Kōhaku** · Desafio diário de {day_pt} — resultados (⭐ = este servidor)",
        "1. botan — **70** pontos",
        "2. emi — **30** pontos ⭐",
        "O desafio de hoje está esperando por você: `/jogos desafio` com Kōhaku.",
    ]
    for text in (kokeshi, kohaku, only):
        assert not [s for s in secrets(world) if s in text], text
    assert world.env.errors == []


async def test_each_games_post_is_made_once_a_day_even_when_the_posting_stopped_between_two_games(world):
    here, there, _player = await two_servers(world)
    # Kokeshi's post was made here before the bot stopped; Kōhaku's was not.
    await world.store.mark_daily_posted(world.guild.id, YESTERDAY, here.id, 0.0, game="kokeshi")
    await world.bot.community.post_daily_results()
    assert [m.content.splitlines()[0].split(" · ")[0] for m in here.history()] == ["**Kōhaku**"]
    assert len(there.history()) == 1
    # Looked at again (a restart, the next wake-up): nothing more.
    await world.bot.community.post_daily_results()
    assert len(here.history()) == 1 and len(there.history()) == 1
    for game in ("kokeshi", "kohaku"):
        assert await world.store.daily_posted(world.guild.id, YESTERDAY, game=game)


async def test_a_server_where_nobody_played_a_game_yesterday_gets_no_post_of_it(world):
    here, _there, _player = await two_servers(world)
    quiet = world.env.create_guild("Quiet Club")
    channel = quiet.create_text_channel("results")
    await world.store.set_guild_setting(quiet.id, "daily_channel", str(channel.id))
    await world.bot.community.post_daily_results()
    assert channel.history() == []
    assert not await world.store.daily_posted(quiet.id, YESTERDAY, game="kohaku")
    assert len(here.history()) == 2


@pytest.mark.slow
async def test_a_kohaku_daily_played_at_its_table_is_posted_at_midnight_and_kokeshis_is_not(world):
    w = world
    aiko = w.members[0]
    results = w.guild.create_text_channel("results")
    await w.store.set_guild_setting(w.guild.id, "daily_channel", str(results.id))
    record, _final = await finished_kohaku_daily(w, aiko)
    [mine] = [r for r in await w.store.results(record.id) if r.user_id == aiko.id]
    for _ in range(4):
        await w.env.advance_time(6 * 3600)  # to UTC midnight
    [posted] = results.history()
    assert posted.content.splitlines() == [
        "**Kōhaku** · Daily challenge of Jan 1, 2026 — results (⭐ = this server)",
        f"1. aiko — **{mine.total}** point{'s' if mine.total != 1 else ''} ⭐",
        "Today's challenge is waiting: `/games challenge` with Kōhaku.",
    ]
    assert str(record.seed) not in posted.content
    await w.env.advance_time(3600)
    assert len(results.history()) == 1  # once a day

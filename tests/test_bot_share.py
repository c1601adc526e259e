"""Share cards of challenge results, and the streaks a server's daily results name."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from PIL import Image

import games
from cogs.community import Streaks, _daily_results, streak_lines
from games.kokeshi import vocab
from games.kokeshi.engine import KOKESHI
from storage import BoardRow
from tests.botkit import announced, custom_ids, is_png
from tests.test_bot_replay import played_in_store


async def earlier_days(w, user_id: int, days: list[str], guild_id: int | None = None, score: int = 40) -> None:
    """Daily challenges this user finished on these days (straight into the store)."""
    async with w.store._tx() as db:
        for i, day in enumerate(days):
            game_id = 7000 + user_id % 1000 * 10 + i
            await db.execute(
                "INSERT INTO games (id, status, players, side, solo, created_at, updated_at, challenge) "
                "VALUES (?, 'finished', 1, 'basic', 1, 0, 0, ?)",
                (game_id, f"daily:{day}"),
            )
            await db.execute(
                "INSERT INTO challenge_attempts (game_id, kind, key, user_id, guild_id, rated, started_at, score, "
                "won, finished_at) VALUES (?, 'daily', ?, ?, ?, 1, 0, ?, 0, 1)",
                (game_id, day, user_id, guild_id or w.guild.id, score),
            )


async def finished_challenge(w, member, kind: str = "daily"):
    """The member's challenge (at the platform's table) played to its end through the store, its final message
    posted: (record, final)."""
    await member.slash(w.channel, f"kokeshi {kind}")
    record = (await w.store.games_in_channel(w.channel.id, statuses=("active",)))[-1]
    assert not record.named_log
    await played_in_store(w, record.id, seed=2)
    assert await w.bot.matches.show_again(record.id)
    record = await w.store.get_game(record.id)
    thread = next(t for t in w.channel.threads if t.id == record.thread_id)
    return record, thread.history()[-1]


def reply(result):
    return result.followups[-1] if result.followups else result.response


# Words that would tell another player something about the draws or the moves.
def revealing() -> list[str]:
    words = [vocab.kokeshi(k) for k in KOKESHI] + ["→", "turn", "round", "offer", "bag", "track "]
    return [w.lower() for w in words]


@pytest.mark.slow
async def test_a_daily_result_is_shared_as_a_card_with_the_score_rank_and_streak_and_nothing_that_helps_others(world):
    aiko, botan = world.members[:2]
    await earlier_days(world, aiko.id, ["2025-12-30", "2025-12-31"])
    record, final = await finished_challenge(world, aiko)
    assert custom_ids(final) == [f"mt:p:{record.id}", f"kk:r:{record.id}:0:open"]
    mine = next(r for r in await world.store.results(record.id) if r.user_id == aiko.id)

    # Only the player shares their own result.
    before = len(world.channel.history())
    refused = await botan.click(final, custom_id=f"mt:p:{record.id}")
    assert refused.ephemeral and "Only the player of this challenge" in reply(refused).content
    assert len(world.channel.history()) == before

    shared = await aiko.click(final, custom_id=f"mt:p:{record.id}")
    assert shared.ephemeral and "Shared:" in reply(shared).content
    card = world.channel.history()[-1]  # in the channel, for everyone
    lines = card.content.splitlines()
    assert lines[0] == "🎎 **Kokeshi** · Daily challenge · Jan 1, 2026"
    total = vocab.number(mine.total)
    assert lines[1] == f"{aiko.mention}: **{total}** points · #1 of 1 so far · 🔥 3-day streak" + (
        " · beat the automa" if mine.rank == 1 else ""
    )
    # One line of emoji, one per score item with its points.
    summary = " · ".join(f"{vocab.SCORE_EMOJI[k]} {vocab.signed(mine.details[k])}" for k in vocab.SCORE_ITEMS[:-1])
    assert lines[2] == summary
    assert lines[3] == "Same draws for everyone: `/kokeshi daily`"
    stored = world.env.backend.get_message(card.channel.id, card.id)
    assert stored.ping_user_ids == []
    # A small picture with its alt text, and nothing of the board or the moves in words or picture.
    assert [a.filename for a in card.attachments] == [f"kokeshi-{record.id}-share.png"]
    data = await card.attachments[0].read()
    assert is_png(data) and Image.open(io.BytesIO(data)).size == (800, 420)
    alt = card.attachments[0].description
    assert alt.startswith(f"aiko, Daily challenge · Jan 1, 2026: {total} points (#1 of 1 so far, 3-day streak")
    assert f"Animals {vocab.signed(mine.details['animals'])}" in alt
    for text in (card.content, alt):
        assert not [w for w in revealing() if w in text.lower()], text
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_practice_run_and_a_weekly_result_say_so_on_their_cards(world):
    aiko = world.members[0]
    first, _final = await finished_challenge(world, aiko, "weekly")
    record, final = await finished_challenge(world, aiko, "weekly")
    assert "This was a practice run" in final.content
    assert "(practice" in await announced(world)
    await aiko.click(final, custom_id=f"mt:p:{record.id}")
    card = world.channel.history()[-1].content
    assert "Weekly challenge · 2026-W01" in card and "practice run, not ranked" in card
    assert "🔥 1-week streak" in card and "`/kokeshi weekly`" in card
    assert first.id != record.id


@pytest.mark.slow
async def test_a_game_that_is_not_a_challenge_has_no_share_button(world):
    aiko = world.members[0]
    await aiko.slash(world.channel, "kokeshi solo")
    record = (await world.store.games_in_channel(world.channel.id, statuses=("active",)))[-1]
    await played_in_store(world, record.id)
    assert await world.bot.matches.show_again(record.id)
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    final = thread.history()[-1]
    assert "is over" in final.content
    # Play again and Replay; nothing to share.
    assert custom_ids(final) == [f"mt:r:{record.id}", f"kk:r:{record.id}:0:open"]


def test_the_daily_results_name_the_servers_streak_and_its_players_longest():
    rows = [BoardRow(1, 11, 50.0, 1, False), BoardRow(2, 12, 40.0, 1, False)]
    names = {11: "Aiko", 12: "Botan"}
    text = _daily_results(games.get("kokeshi"), rows, {11, 12}, "2026-01-01", names, Streaks(12, ((11, 30), (12, 2))))
    lines = text.splitlines()
    assert lines[0] == "🎎 **Kokeshi** · Daily challenge of Jan 1, 2026 — results (⭐ = this server)"
    assert lines[-3] == "🔥 The server played 12 days in a row."
    assert lines[-2] == "🔥 Aiko: 30-day streak · Botan: 2-day streak"
    assert lines[-1].startswith("Today's challenge is waiting")
    # A one-day run is no streak worth naming.
    assert streak_lines(Streaks(1, ()), names) == []


async def test_the_daily_results_post_counts_the_servers_days_in_a_row(world):
    aiko, botan = world.members[:2]
    results = world.guild.create_text_channel("kokeshi-results")
    await world.store.set_guild_setting(world.guild.id, "daily_channel", str(results.id))
    # The simulated day is 2026-01-01: yesterday's results, with three days in a row for the server.
    await earlier_days(world, aiko.id, ["2025-12-29", "2025-12-30", "2025-12-31"])
    await earlier_days(world, botan.id, ["2025-12-31"], score=30)
    # Someone in another server keeps the world's board longer but is not this server's.
    await earlier_days(world, 99, ["2025-12-31"], guild_id=12345, score=10)
    await world.bot.community.post_daily_results()
    posted = results.history()[-1].content
    assert "🔥 The server played 3 days in a row." in posted
    assert "🔥 aiko: 3-day streak" in posted and "botan:" not in posted
    assert await world.store.server_streak(world.guild.id, dt.date(2025, 12, 30)) == 2
    assert await world.store.server_streak(12345, dt.date(2025, 12, 30)) == 0

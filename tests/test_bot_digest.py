"""Muted games and the daily digest on SimCord's virtual clock: a muted game pings nobody while another game still
does; one DM a day at the player's local time listing the games where it is their turn, across a daylight-saving
change and a restart, and none on a day when no game waits; bad input refused privately, nothing changed."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from bot import create_bot
from storage import open_store
from tests.botkit import answer, load_game, new_lobby, prompt_message, restart
from tests.test_bot_timers import answer_until_turn_of, reminders, timeouts

HOUR = 3600
DAY = 86400
UTC = dt.UTC


def reply(result) -> str:
    message = result.followups[-1] if result.followups else result.response
    return message.content


def clock(w) -> float:
    return w.env.now().timestamp()


def dms(member) -> list[str]:
    channel = member.user.dm_channel
    return [] if channel is None else [m.content for m in channel.history()]


async def table(w, host, guest, timer: int = HOUR) -> tuple[int, object]:
    """A 2-player game of `host` and `guest` (a turn timer, or none with 0), started."""
    game_id, lobby, _ = await new_lobby(w, host, players=2, timer=timer)
    assert "You joined" in (await guest.click(lobby, label="Join")).response.content
    assert (await host.click(lobby, label="Start")).acknowledged
    record = await w.store.get_game(game_id)
    return game_id, next(t for t in w.channel.threads if t.id == record.thread_id)


def pinged(w, message) -> list[int]:
    """Whom Discord notified of this message (its mentions as allowed), as SimCord stored it."""
    return sorted(w.env.backend.get_message(message.channel.id, message.id).ping_user_ids)


def link(w, thread, prompt) -> str:
    return f"https://discord.com/channels/{w.guild.id}/{thread.id}/{prompt.id}"


@pytest.mark.slow
async def test_a_muted_game_sends_no_dm_reminder_or_ping_while_another_game_still_does(world):
    aiko, botan, chiyo = world.members[:3]
    assert "DM you" in reply(await aiko.slash(world.channel, "kokeshi notify on"))
    rng = random.Random(21)
    # Muted while still a lobby, by its number.
    muted_id, lobby, _ = await new_lobby(world, aiko, players=2, timer=HOUR)
    done = await aiko.slash(world.channel, "kokeshi notify mute", game=muted_id)
    assert done.ephemeral and f"Kokeshi #{muted_id} muted" in reply(done), reply(done)
    assert await world.store.muted_games(aiko.id) == {muted_id}
    assert "You joined" in (await botan.click(lobby, label="Join")).response.content
    assert (await aiko.click(lobby, label="Start")).acknowledged
    record = await world.store.get_game(muted_id)
    muted = next(t for t in world.channel.threads if t.id == record.thread_id)
    loud_id, loud = await table(world, aiko, chiyo)

    for game_id, thread in ((muted_id, muted), (loud_id, loud)):
        await answer_until_turn_of(world, game_id, thread, "aiko", rng)
    # The muted game's prompt still says whose turn it is, but pings nobody; the other one pings her.
    quiet_prompt = await prompt_message(world, muted_id, muted)
    assert f"Your turn: {aiko.mention}." in quiet_prompt.content and pinged(world, quiet_prompt) == []
    loud_prompt = await prompt_message(world, loud_id, loud)
    assert pinged(world, loud_prompt) == [aiko.id]
    assert dms(aiko) == [f"Your turn in Kokeshi #{loud_id}: {link(world, loud, loud_prompt)}"]

    # Half the hour: a reminder in the other game only; the muted game's deadline still counts.
    await world.env.advance_time(HOUR / 2)
    assert reminders(muted) == [] and len(reminders(loud)) == 1
    await world.env.advance_time(HOUR / 2)
    assert timeouts(muted) == ["Time ran out for **aiko**: the AI decided in their place."]

    # `status` (the platform's) marks that game muted, asked for it or for all of them, and only that game.
    for status in (
        reply(await aiko.slash(world.channel, "kokeshi status", game=muted_id)),
        reply(await aiko.slash(world.channel, "kokeshi status")),
    ):
        listed = status.splitlines()
        assert [line for line in listed if "🔕" in line] == [line for line in listed if f"<#{muted.id}>" in line]
        assert any(f"<#{loud.id}>" in line for line in listed)
    # Unmuted, its next turn pings her again.
    assert "unmuted" in reply(await aiko.slash(world.channel, "kokeshi notify unmute", game=muted_id))
    assert await world.store.muted_games(aiko.id) == frozenset()
    await answer_until_turn_of(world, muted_id, muted, "aiko", rng)
    again = await prompt_message(world, muted_id, muted)
    assert pinged(world, again) == [aiko.id]
    assert dms(aiko)[-1].startswith(f"Your turn in Kokeshi #{muted_id}:")
    assert world.env.errors == []


@pytest.mark.slow  # a whole game through SimCord
async def test_the_daily_digest_lists_three_games_with_links_once_a_day_at_local_time_across_dst_and_a_restart(
    world, db_path
):
    aiko, *others = world.members[:4]
    # 7 March 2026, 06:00 UTC (01:00 in New York); on the 8th at 02:00 its clocks spring forward to 03:00.
    world.env.backend.clock.advance(dt.datetime(2026, 3, 7, 6, tzinfo=UTC).timestamp() - clock(world))
    await aiko.slash(world.channel, "kokeshi notify quiet", hours="23:00-06:00", timezone="America/New_York")
    await aiko.slash(world.channel, "kokeshi notify on")
    set_ = await aiko.slash(world.channel, "kokeshi notify digest", time="8:00")
    first = dt.datetime(2026, 3, 7, 13, tzinfo=UTC).timestamp()  # 08:00 EST
    assert set_.ephemeral and "Daily digest at 08:00 (America/New_York)" in reply(set_), reply(set_)
    assert f"<t:{int(first)}:f>" in reply(set_)

    rng = random.Random(22)
    tables = [await table(world, aiko, other, timer=0) for other in others]
    for game_id, thread in tables:
        await answer_until_turn_of(world, game_id, thread, "aiko", rng)
    # Her turn in three games, and no DM at each turn: the digest replaces them.
    assert dms(aiko) == []

    await world.env.advance_time(first - clock(world) - 1)
    assert dms(aiko) == []
    await world.env.advance_time(1)
    [digest] = dms(aiko)
    lines = digest.splitlines()
    assert lines[0] == "📬 **Your turn in 3 games:**"
    for (game_id, thread), line in zip(tables, lines[1:], strict=True):
        prompt = await prompt_message(world, game_id, thread)
        assert line.startswith(f"• Kokeshi #{game_id}") and line.endswith(link(world, thread, prompt)), line

    # A restart in between; the next digest comes at 08:00 EDT, an hour earlier in UTC, and only once.
    await restart(world, create_bot(db_path))
    second = dt.datetime(2026, 3, 8, 12, tzinfo=UTC).timestamp()
    assert (await world.store.digest(aiko.id)).due_at == second
    await world.env.advance_time(second - clock(world) - 1)
    assert len(dms(aiko)) == 1
    await world.env.advance_time(1)
    assert len(dms(aiko)) == 2 and dms(aiko)[-1] == digest
    await world.env.advance_time(HOUR)
    assert len(dms(aiko)) == 2

    async def plays(game_id: int, thread) -> None:
        while (await load_game(world, game_id))[0].prompt.player == "aiko":
            assert (await answer(world, game_id, thread, rng)).acknowledged

    # She mutes the first game and plays in the other two: only a muted game waits, so no digest the next day.
    await aiko.slash(world.channel, "kokeshi notify mute", game=tables[0][0])
    for game_id, thread in tables[1:]:
        await plays(game_id, thread)
    await world.env.advance_time(DAY)
    assert len(dms(aiko)) == 2
    # Unmuted, it is listed the day after, alone.
    await aiko.slash(world.channel, "kokeshi notify unmute", game=tables[0][0])
    await world.env.advance_time(DAY)
    assert len(dms(aiko)) == 3
    assert dms(aiko)[-1].splitlines()[0] == "📬 **Your turn in 1 game:**"
    alone = dms(aiko)[-1].splitlines()[1]
    assert alone.startswith(f"• Kokeshi #{tables[0][0]}")
    # She plays there too: nothing waits for her, so the next day's digest is not sent, and its time moves on.
    await plays(*tables[0])
    await world.env.advance_time(DAY)
    assert len(dms(aiko)) == 3
    assert (await world.store.digest(aiko.id)).due_at == second + 4 * DAY
    assert await world.store.verify() == []
    assert world.env.errors == []
    # Kokeshi's own table's digest named each game's round ("• Kokeshi #1, Round 2: <link>"). Checked last, so
    # that the digests above are checked whatever this says.
    for (game_id, _thread), line in zip(tables, lines[1:], strict=True):
        assert line.startswith(f"• Kokeshi #{game_id}, "), line
    assert alone.startswith(f"• Kokeshi #{tables[0][0]}, "), alone


async def test_bad_times_and_games_not_yours_are_refused_privately_and_nothing_changes(world):
    aiko, botan, chiyo = world.members[:3]
    theirs, _thread = await table(world, botan, chiyo)
    for text, says in (
        ("25:00", "I cannot read `25:00` as a time of day"),
        ("soon", "I cannot read `soon`"),
        ("8:75", "I cannot read `8:75`"),
    ):
        refused = await aiko.slash(world.channel, "kokeshi notify digest", time=text)
        assert refused.ephemeral and says in reply(refused), reply(refused)
        assert await world.store.digest(aiko.id) is None
    for command, game, says in (
        ("kokeshi notify mute", theirs, "You are not playing in this game."),
        ("kokeshi notify unmute", theirs, "You are not playing in this game."),
        ("kokeshi notify mute", 999, "There is no game #999 in this server."),
    ):
        refused = await aiko.slash(world.channel, command, game=game)
        assert refused.ephemeral and says in reply(refused), reply(refused)
        assert await world.store.muted_games(aiko.id) == frozenset()
    # Off when none was asked for changes nothing either; a digest without quiet hours is in UTC.
    assert "no daily digest" in reply(await aiko.slash(world.channel, "kokeshi notify digest", time="off"))
    assert "(UTC)" in reply(await aiko.slash(world.channel, "kokeshi notify digest", time="21:30"))
    assert (await world.store.digest(aiko.id)).due_at == dt.datetime(2026, 1, 1, 21, 30, tzinfo=UTC).timestamp()
    # Quiet hours in another zone carry the digest along, at the same local time.
    await aiko.slash(world.channel, "kokeshi notify quiet", hours="23-7", timezone="Asia/Tokyo")
    moved = await world.store.digest(aiko.id)
    assert moved.zone_name == "Asia/Tokyo" and moved.due_at == dt.datetime(2026, 1, 1, 12, 30, tzinfo=UTC).timestamp()
    # `notify on` (or off) ends the digest: one DM per turn, or none.
    await aiko.slash(world.channel, "kokeshi notify on")
    assert await world.store.digest(aiko.id) is None
    assert world.env.errors == []


async def test_verify_reports_a_digest_without_its_timer(world):
    await world.store.set_digest(world.members[0].id, 8 * 60, "UTC", 1_000_000)
    assert await world.store.verify() == []
    await world.store.set_user_setting(world.members[0].id, "digest_at", None)
    assert any("the digest has no timer" in problem for _game, problem in await world.store.verify())


async def test_the_store_finds_due_digests_in_time_order_among_other_settings_on_both_backends(database):
    store = await open_store(database)
    try:
        await store.set_user_setting(1, "notify", "on")
        await store.set_user_setting(2, "quiet", "23:00-08:00 Europe/Lisbon")
        await store.set_digest(1, 8 * 60, "Europe/Lisbon", 1_800_000_000)
        await store.set_digest(2, 21 * 60 + 30, "UTC", 999_999_999)  # one digit fewer: still earlier
        assert await store.next_digest() == 999_999_999
        assert [d.user_id for d in await store.due_digests(1_800_000_000)] == [2, 1]
        assert [d.user_id for d in await store.due_digests(1_000_000_000)] == [2]
        [early] = await store.due_digests(1_000_000_000)
        assert (early.minute, early.zone_name) == (21 * 60 + 30, "UTC")
        assert await store.digest_sent(early, 1_000_086_400)
        # Sent once: the same due digest cannot be moved on twice (another process, or a changed setting).
        assert not await store.digest_sent(early, 1_000_172_800)
        assert (await store.digest(2)).due_at == 1_000_086_400
        await store.set_digest(1, None)
        assert await store.digest(1) is None and await store.next_digest() == 1_000_086_400
        await store.set_muted_games(1, {12, 5})
        assert await store.muted_games(1) == {5, 12} and await store.user_setting(1, "notify") == "on"
        assert await store.verify_notices() == []
    finally:
        await store.close()

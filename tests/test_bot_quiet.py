"""Quiet hours on SimCord's virtual clock: silent pings and a deadline moved to the end of the night, across a
midnight and across a daylight-saving change; a zone that does not exist is refused and nothing is stored."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from tests.botkit import open_game, prompt_message
from tests.test_bot_timers import answer_until_turn_of, reminders, timeouts

HOUR = 3600
UTC = dt.UTC


def reply(result) -> str:
    message = result.followups[-1] if result.followups else result.response
    return message.content


def clock(w) -> float:
    return w.env.now().timestamp()


async def deadline(w, game_id: int) -> float:
    return next(t.due_at for t in await w.store.timers(game_id) if t.kind == "deadline")


def silent(message) -> bool:
    return message.flags.suppress_notifications


@pytest.mark.slow
async def test_inside_quiet_hours_across_midnight_pings_are_silent_and_the_deadline_waits_for_the_morning(world):
    aiko = world.members[0]
    # SimCord's day starts at midnight UTC, which is midnight in Lisbon in winter: inside 23:00-08:00.
    assert world.env.now() == dt.datetime(2026, 1, 1, tzinfo=UTC)
    quiet = await aiko.slash(world.channel, "kokeshi notify quiet", hours="23:00-08:00", timezone="Europe/Lisbon")
    assert quiet.ephemeral and "Quiet hours 23:00-08:00 (Europe/Lisbon)" in reply(quiet)
    await aiko.slash(world.channel, "kokeshi notify on")
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    await answer_until_turn_of(world, game_id, thread, "aiko", random.Random(6))
    started = clock(world)
    morning = dt.datetime(2026, 1, 1, 8, tzinfo=UTC).timestamp()
    # The hour's deadline (01:00) falls in the night: it moves to 08:00; the reminders keep their times.
    assert await deadline(world, game_id) == morning
    prompt = await prompt_message(world, game_id, thread)
    assert f"Your turn: {aiko.mention}." in prompt.content and silent(prompt)
    [dm] = aiko.user.dm_channel.history()
    assert "Your turn" in dm.content and silent(dm)
    await world.env.advance_time(started + HOUR / 2 - clock(world))
    [half] = reminders(thread)
    assert silent(half) and aiko.mention in half.content

    # At 08:00 the night is over and the turn runs out; the next turn of hers, by day, pings aloud.
    await world.env.advance_time(morning - clock(world))
    assert len(timeouts(thread)) == 1
    await answer_until_turn_of(world, game_id, thread, "aiko", random.Random(7))
    day_prompt = await prompt_message(world, game_id, thread)
    assert not silent(day_prompt)
    assert await deadline(world, game_id) == clock(world) + HOUR
    await world.env.advance_time(HOUR / 2)
    assert not silent(reminders(thread)[-1])
    assert world.env.errors == []


async def test_a_deadline_in_quiet_hours_moves_to_their_end_by_the_local_clock_across_a_daylight_saving_change(world):
    aiko = world.members[0]
    # To 06:00 UTC on 8 March 2026, 01:00 in New York: at 02:00 its clocks spring forward to 03:00.
    world.env.backend.clock.advance(dt.datetime(2026, 3, 8, 6, tzinfo=UTC).timestamp() - clock(world))
    await aiko.slash(world.channel, "kokeshi notify quiet", hours="23:00-08:00", timezone="America/New_York")
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    await answer_until_turn_of(world, game_id, thread, "aiko", random.Random(8))
    # 08:00 EDT is 12:00 UTC (08:00 EST, the day before, was 13:00 UTC).
    assert await deadline(world, game_id) == dt.datetime(2026, 3, 8, 12, tzinfo=UTC).timestamp()
    assert world.env.errors == []


async def test_a_zone_that_does_not_exist_or_unreadable_hours_are_refused_privately_and_nothing_is_stored(world):
    aiko = world.members[0]
    for hours, zone, says in (
        ("23:00-08:00", "Mars/Olympus", "There is no time zone called `Mars/Olympus`"),
        ("25:00-08:00", "Europe/Lisbon", "I cannot read `25:00-08:00` as quiet hours"),
        ("late", "Europe/Lisbon", "I cannot read `late`"),
        ("23:00-08:00", None, "Name your time zone"),
    ):
        options = {"hours": hours} | ({"timezone": zone} if zone else {})
        refused = await aiko.slash(world.channel, "kokeshi notify quiet", **options)
        assert refused.ephemeral and says in reply(refused), reply(refused)
        assert await world.store.user_setting(aiko.id, "quiet") is None
    set_ = await aiko.slash(world.channel, "kokeshi notify quiet", hours="22-7", timezone="Asia/Tokyo")
    assert "22:00-07:00 (Asia/Tokyo)" in reply(set_)
    # The zone is remembered when only the hours change; off ends them.
    assert "(Asia/Tokyo)" in reply(await aiko.slash(world.channel, "kokeshi notify quiet", hours="23-6"))
    assert await world.store.user_setting(aiko.id, "quiet") == "23:00-06:00 Asia/Tokyo"
    assert "off" in reply(await aiko.slash(world.channel, "kokeshi notify quiet", hours="off"))
    assert await world.store.user_setting(aiko.id, "quiet") is None
    assert world.env.errors == []

"""Away on SimCord's virtual clock: deadlines that wait for a player in every game, coming back early, the yearly
allowance, refusals that change nothing, the lobby and status, and a restart in between."""

from __future__ import annotations

import random

import discord
import pytest

from bot import create_bot
from cogs.away import parse_duration
from tests.botkit import lobby_message, new_lobby, prompt_message, restart, texts
from tests.test_bot_timers import answer_until_turn_of, reminders, timeouts, to_move

HOUR = 3600
DAY = 86400
TURN = ("reminder_half", "reminder_late", "deadline")


def reply(result) -> str:
    message = result.followups[-1] if result.followups else result.response
    return message.content


def clock(w) -> float:
    return w.env.now().timestamp()


async def due(w, game_id: int) -> dict[str, float]:
    return {t.kind: t.due_at for t in await w.store.timers(game_id)}


async def table(w, host, guest, timer: int = HOUR) -> tuple[int, object]:
    """A 2-player game of `host` and `guest` with a turn timer, started."""
    game_id, lobby, _ = await new_lobby(w, host, players=2, timer=timer)
    assert "You joined" in (await guest.click(lobby, label="Join")).response.content
    assert (await host.click(lobby, label="Start")).acknowledged
    record = await w.store.get_game(game_id)
    return game_id, next(t for t in w.channel.threads if t.id == record.thread_id)


async def three_tables_at_aikos_turn(w) -> list[tuple[int, object]]:
    aiko, *others = w.members[:4]
    rng = random.Random(3)
    tables = [await table(w, aiko, other) for other in others]
    for game_id, thread in tables:
        await answer_until_turn_of(w, game_id, thread, "aiko", rng)
    return tables


def test_a_duration_is_weeks_days_and_hours():
    assert parse_duration("3d") == 3 * DAY
    assert parse_duration("36h") == 36 * HOUR
    assert parse_duration("2d12h") == parse_duration(" 2D 12h ") == 60 * HOUR
    assert parse_duration("1w") == 7 * DAY
    for bad in ("", "soon", "3", "h", "12h3d", "-2d", "3 days", "2.5d"):
        assert parse_duration(bad) is None, bad


@pytest.mark.slow  # three games and days of their timers through SimCord
async def test_away_moves_the_deadlines_of_three_games_later_holds_the_reminders_and_back_brings_them_back(world):
    aiko, botan = world.members[0], world.members[1]
    tables = await three_tables_at_aikos_turn(world)
    await world.env.advance_time(600)
    before = {game_id: await due(world, game_id) for game_id, _ in tables}
    assert all(set(d) == set(TURN) for d in before.values())

    went = await aiko.slash(world.channel, "games away", duration="2d")
    assert went.ephemeral and "You are away until <t:" in reply(went)
    until = clock(world) + 2 * DAY
    assert f"<t:{int(until)}:f>" in reply(went)
    for game_id, thread in tables:
        # Each of her turn's timers moved later by the two days away.
        assert await due(world, game_id) == {k: v + 2 * DAY for k, v in before[game_id].items()}
        # The others see it in the prompt, edited in place (no new ping), and in status.
        prompt = (await prompt_message(world, game_id, thread)).content
        assert f"aiko is away until <t:{int(until)}:f>" in prompt
    # `/kokeshi status` (the platform's) lists the game as waiting for her, due when her moved deadline is.
    status = reply(await botan.slash(world.channel, "kokeshi status", game=tables[0][0]))
    [line] = [t for t in status.splitlines() if f"<#{tables[0][1].id}>" in t]
    assert f"waiting for aiko, <t:{int(before[tables[0][0]]['deadline'] + 2 * DAY)}:R>" in line
    listed = reply(await botan.slash(world.channel, "kokeshi status"))

    # A day later nothing has pinged her: the reminders wait with the deadlines.
    await world.env.advance_time(DAY)
    for game_id, thread in tables:
        assert reminders(thread) == [] and timeouts(thread) == []
        assert await to_move(world, game_id) == "aiko"

    # Back a day early: the timers come back by the day she did not use.
    back = await aiko.slash(world.channel, "games back")
    assert back.ephemeral and "Welcome back" in reply(back) and "1 day" in reply(back)
    for game_id, thread in tables:
        assert await due(world, game_id) == {k: v + DAY for k, v in before[game_id].items()}
        assert "away until" not in (await prompt_message(world, game_id, thread)).content

    # Then the turn runs out as it would have, a day later than without the away.
    await world.env.advance_time(max(d["deadline"] for d in before.values()) + DAY - clock(world))
    for game_id, thread in tables:
        assert len(reminders(thread)) == 2
        assert len(timeouts(thread)) == 1
        assert await to_move(world, game_id) != "aiko"
    assert world.env.errors == []
    # The status says so on the game's line, asked from its thread and from the channel.
    assert f"aiko 💤 away until <t:{int(until)}:f>" in status, status
    assert f"away until <t:{int(until)}:f>" in listed, listed


@pytest.mark.slow
async def test_a_turn_that_starts_while_away_gets_its_whole_time_after_the_return(world):
    aiko = world.members[0]
    rng = random.Random(4)
    [(game_id, thread)] = [await table(world, aiko, world.members[1])]
    await answer_until_turn_of(world, game_id, thread, "botan", rng)
    went = await aiko.slash(world.channel, "games away", duration="36h")
    until = clock(world) + 36 * HOUR
    assert "You are away until" in reply(went)
    await answer_until_turn_of(world, game_id, thread, "aiko", rng)
    started = clock(world)
    timers = await due(world, game_id)
    assert timers["deadline"] == until + HOUR and timers["reminder_half"] == until + HOUR / 2
    # The turn's prompt says so to the table.
    assert "aiko is away until" in (await prompt_message(world, game_id, thread)).content
    await world.env.advance_time(until - started + HOUR / 2 - 1)
    assert reminders(thread) == []
    await world.env.advance_time(1)
    [reminder] = reminders(thread)
    assert "30 min left" in reminder.content
    assert world.env.errors == []


@pytest.mark.slow  # away periods taken over a simulated year through SimCord
async def test_the_yearly_allowance_is_an_admin_setting_and_a_used_up_allowance_is_refused_with_what_is_left(world):
    aiko = world.members[0]
    eiko = world.guild.add_member(
        world.env.create_user("eiko"),
        roles=[world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))],
    )
    refused = await aiko.slash(world.channel, "games settings away-days", days=1)
    assert refused.ephemeral and "Only server admins" in reply(refused)
    assert "14 days" in reply(await aiko.slash(world.channel, "games settings away-days"))
    assert "3 days" in reply(await eiko.slash(world.channel, "games settings away-days", days=3))
    assert "from 0 to 365" in reply(await eiko.slash(world.channel, "games settings away-days", days=400))

    assert "You are away" in reply(await aiko.slash(world.channel, "games away", duration="2d"))
    await world.env.advance_time(2 * DAY)
    over = await aiko.slash(world.channel, "games away", duration="2d")
    assert over.ephemeral and "You have 1 day of away time left" in reply(over) and "3 days" in reply(over)
    assert await aiko_away(world) is None
    assert "You are away" in reply(await aiko.slash(world.channel, "games away", duration="1d"))
    # Back at once: the part not used is hers again.
    assert "Welcome back" in reply(await aiko.slash(world.channel, "games back"))
    assert "You are away" in reply(await aiko.slash(world.channel, "games away", duration="24h"))
    await world.env.advance_time(DAY)
    empty = await aiko.slash(world.channel, "games away", duration="1h")
    assert "You have no away time left" in reply(empty)
    # Set to 0, away is off altogether.
    assert "0 days" in reply(await eiko.slash(world.channel, "games settings away-days", days=0))
    await world.env.advance_time(DAY)
    off = await aiko.slash(world.channel, "games away", duration="1h")
    assert "Away is turned off" in reply(off) and await aiko_away(world) is None
    assert world.env.errors == []


async def aiko_away(w):
    return await w.store.away(w.members[0].id)


async def test_a_thirty_day_away_or_nonsense_is_refused_privately_and_changes_nothing(world):
    aiko = world.members[0]
    game_id, thread = await table(world, aiko, world.members[1])
    before = await due(world, game_id)
    shown = texts(thread)
    for asked, says in (
        ("30d", "at most 14 days"),
        ("15d", "at most 14 days"),
        ("soon", "I cannot read “soon” as a duration"),
        ("0h", "I cannot read"),
        ("2d3x", "I cannot read"),
    ):
        refused = await aiko.slash(world.channel, "games away", duration=asked)
        assert refused.ephemeral and says in reply(refused), (asked, reply(refused))
    assert "You are not away" in reply(await aiko.slash(world.channel, "games back"))
    assert await world.store.away_history(aiko.id) == []
    assert await due(world, game_id) == before and texts(thread) == shown
    # Already away: a second one is refused, the first stands.
    assert "You are away" in reply(await aiko.slash(world.channel, "games away", duration="1d"))
    again = await aiko.slash(world.channel, "games away", duration="2d")
    assert "already away" in reply(again)
    assert len(await world.store.away_history(aiko.id)) == 1
    assert world.env.errors == []


async def test_a_lobby_opened_while_a_player_is_away_shows_it_and_so_does_its_game(world):
    aiko, botan = world.members[0], world.members[1]
    assert "You are away" in reply(await aiko.slash(world.channel, "games away", duration="3d"))
    until = int(clock(world) + 3 * DAY)
    game_id, lobby, _ = await new_lobby(world, botan, players=2, timer=HOUR)
    assert "You joined" in (await aiko.click(lobby, label="Join")).response.content
    open_lobby = (await lobby_message(world, game_id)).content
    assert (await botan.click(lobby, label="Start")).acknowledged
    started = (await lobby_message(world, game_id)).content
    # Her first turn in it waits for her return, and its prompt says she is away.
    record = await world.store.get_game(game_id)
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    await answer_until_turn_of(world, game_id, thread, "aiko", random.Random(1))
    assert (await due(world, game_id))["deadline"] >= until + HOUR - 1
    assert f"💤 aiko is away until <t:{until}:f>" in (await prompt_message(world, game_id, thread)).content
    assert world.env.errors == []
    # The lobby says so beside her seat, open and started.
    assert f"away until <t:{until}:f>" in open_lobby, open_lobby
    assert "away until" in started, started


@pytest.mark.slow
async def test_an_away_survives_a_restart_and_the_deadline_comes_once_at_its_moved_time(world, db_path):
    aiko = world.members[0]
    game_id, thread = await table(world, aiko, world.members[1])
    await answer_until_turn_of(world, game_id, thread, "aiko", random.Random(2))
    deadline = (await due(world, game_id))["deadline"]
    assert "You are away" in reply(await aiko.slash(world.channel, "games away", duration="12h"))
    await restart(world, create_bot(db_path))
    assert (await world.store.away(aiko.id)) is not None
    assert (await due(world, game_id))["deadline"] == deadline + 12 * HOUR
    await world.env.advance_time(deadline + 12 * HOUR - clock(world) - 1)
    assert timeouts(thread) == [] and len(reminders(thread)) == 2
    await world.env.advance_time(1)
    assert len(timeouts(thread)) == 1
    assert await world.store.verify() == []
    assert world.env.errors == []


async def test_a_turn_timer_that_comes_due_while_its_player_is_away_waits_and_the_ai_does_not_play(world):
    aiko = world.members[0]
    game_id, thread = await table(world, aiko, world.members[1])
    await answer_until_turn_of(world, game_id, thread, "aiko", random.Random(9))
    assert "You are away" in reply(await aiko.slash(world.channel, "games away", duration="1d"))
    until = clock(world) + DAY
    # As if another process had set the turn's timers in the instant the away began, unmoved.
    version = (await world.store.timers(game_id))[0].version
    for kind, after in (("reminder_half", 60), ("deadline", 120)):
        await world.store.set_timer(game_id, kind, clock(world) + after, version)
    # The timer loop looks again within the hour.
    await world.env.advance_time(HOUR)
    assert reminders(thread) == [] and timeouts(thread) == [] and await to_move(world, game_id) == "aiko"
    assert all(t.due_at >= until for t in await world.store.timers(game_id)), (until, await world.store.timers(game_id))
    assert world.env.errors == []

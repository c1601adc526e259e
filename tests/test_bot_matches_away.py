"""Away periods and quiet hours at the other games' table, on SimCord's virtual clock: a Bids or Kōhaku deadline
waits for a player who is away, comes back with them, leaves their quiet hours, and the thread says when."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.botkit import lobby_message
from tests.test_bot_matches import current_prompt, open_table

HOUR = 3600
DAY = 86400


def reply(result) -> str:
    message = result.followups[-1] if result.followups else result.response
    return message.content


def clock(w) -> float:
    return w.env.now().timestamp()


def stamp(at: float) -> str:
    return f"<t:{int(at)}:f> (<t:{int(at)}:R>)"


async def deadline(w, game_id: int) -> float:
    [timer] = [t for t in await w.store.timers(game_id) if t.kind == "deadline"]
    return timer.due_at


def timeouts(thread) -> list[str]:
    return [m.content for m in thread.history() if "Time ran out" in m.content]


@pytest.mark.slow  # days of an away period through SimCord's clock
async def test_a_bids_deadline_waits_for_an_away_player_comes_back_with_them_and_the_prompt_says_when(world, bids):
    w = world
    botan = w.members[1]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    prompt = await current_prompt(w, game_id, thread)
    due = await deadline(w, game_id)
    assert due == clock(w) + DAY and f"Decide by {stamp(due)}." in prompt.content
    moves = (await w.store.get_game(game_id)).moves

    went = await botan.slash(w.channel, "games away", duration="2d")
    assert went.ephemeral and "You are away until" in reply(went)
    assert "It is your turn in 1 game now" in reply(went)
    until = clock(w) + 2 * DAY
    assert await deadline(w, game_id) == due + 2 * DAY
    # The live prompt is edited in place: the moved deadline, and who is away.
    edited = await current_prompt(w, game_id, thread)
    assert edited.id == prompt.id
    assert f"Decide by {stamp(due + 2 * DAY)}." in edited.content and stamp(due) not in edited.content
    assert f"💤 botan is away until {stamp(until)}" in edited.content

    # At the deadline as it was set, nobody is played for.
    await w.env.advance_time(DAY)
    assert timeouts(thread) == [] and (await w.store.get_game(game_id)).moves == moves

    # Back a day early: the deadline comes back by the day not used, and the prompt says so.
    back = await botan.slash(w.channel, "games back")
    assert back.ephemeral and "Welcome back" in reply(back)
    assert await deadline(w, game_id) == due + DAY
    edited = await current_prompt(w, game_id, thread)
    assert f"Decide by {stamp(due + DAY)}." in edited.content and "away until" not in edited.content
    await w.env.advance_time(due + DAY - clock(w) - 1)
    assert timeouts(thread) == []
    await w.env.advance_time(1)
    assert len(timeouts(thread)) == 1 and (await w.store.get_game(game_id)).moves == moves + 2
    assert await w.store.verify() == []
    assert w.env.errors == []


async def test_a_turn_that_starts_while_a_player_is_away_gets_its_whole_time_after_the_return(world, bids):
    w = world
    botan = w.members[1]
    assert "You are away until" in reply(await botan.slash(w.channel, "games away", duration="36h"))
    until = clock(w) + 36 * HOUR
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    assert await deadline(w, game_id) == until + DAY
    prompt = await current_prompt(w, game_id, thread)
    assert f"Decide by {stamp(until + DAY)}." in prompt.content
    assert f"💤 botan is away until {stamp(until)}" in prompt.content
    # So do the table's lobby message, beside botan's seat, and the others' `/games status`, on the game's line.
    lobby = await lobby_message(w, game_id)
    assert f"<@{botan.id}> — 💤 away until {stamp(until)}" in lobby.content
    status = reply(await w.members[0].slash(w.channel, "games status"))
    line = next(t for t in status.splitlines() if f"<#{thread.id}>" in t)
    assert f"botan 💤 away until {stamp(until)}" in line
    assert "away" not in next(t for t in reply(await botan.slash(w.channel, "games status")).splitlines() if "#" in t)
    assert w.env.errors == []


async def test_a_deadline_that_comes_due_while_its_player_is_away_waits_and_the_ai_does_not_play(world, bids):
    w = world
    botan = w.members[1]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    assert "You are away until" in reply(await botan.slash(w.channel, "games away", duration="1d"))
    until = clock(w) + DAY
    # As if another process had set the turn's deadline in the instant the away began, unmoved.
    [timer] = [t for t in await w.store.timers(game_id) if t.kind == "deadline"]
    await w.store.set_timer(game_id, "deadline", clock(w) + 120, timer.version)
    # The timer loop looks again within the hour.
    await w.env.advance_time(HOUR)
    assert timeouts(thread) == [] and await deadline(w, game_id) >= until
    assert w.env.errors == []


@pytest.mark.slow
async def test_a_kohaku_deadline_in_quiet_hours_moves_to_their_end_and_the_thread_shows_it(world):
    w = world
    aiko = w.members[0]
    # SimCord's day starts at midnight UTC, which is midnight in Lisbon in winter.
    assert w.env.now() == dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    quiet = await aiko.slash(w.channel, "kokeshi notify quiet", hours="23:00-08:00", timezone="Europe/Lisbon")
    assert "Quiet hours 23:00-08:00" in reply(quiet)
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy")
    match, _version, record = await w.store.load_match(game_id)
    assert [s.seat for s in record.seats if not s.ai] == list(match.waiting())  # the AI seat has played
    # A day from now is midnight again, in her night: the deadline moves to 08:00 the next morning.
    morning = dt.datetime(2026, 1, 2, 8, tzinfo=dt.UTC).timestamp()
    assert await deadline(w, game_id) == morning
    prompt = await current_prompt(w, game_id, thread)
    assert f"Decide by {stamp(morning)}." in prompt.content
    moves = record.moves
    await w.env.advance_time(morning - clock(w) - 1)
    assert timeouts(thread) == [] and (await w.store.get_game(game_id)).moves == moves
    await w.env.advance_time(1)
    assert len(timeouts(thread)) == 1 and (await w.store.get_game(game_id)).moves > moves
    assert w.env.errors == []

"""A game at the platform's table that a stopped bot left midway goes on when it starts again: a move saved but never
posted is shown, and an AI turn cut short is finished, once."""

from __future__ import annotations

import asyncio

import pytest

from bot import create_bot
from tests.botkit import World, restart
from tests.test_bot_matches import current_prompt, open_table


async def resumed(w: World) -> None:
    """Wait until the restarted bot's timer loop has gone through the games left midway."""
    timers = w.bot.get_cog("Timers")
    for _ in range(50):
        if timers.resuming is not None:
            await asyncio.wait_for(asyncio.shield(timers.resuming), 60)
            return
        await w.env.advance_time(1)
    raise AssertionError("the restarted bot never went through the games left midway")


async def saved_not_posted(w: World, game_id: int, until_seat: int) -> None:
    """Decisions saved straight to the store, as a bot that stopped before posting them leaves them, until the
    match waits for `until_seat`."""
    for _ in range(40):
        match, version, _record = await w.store.load_match(game_id)
        if until_seat in match.waiting():
            return
        seat = match.waiting()[0]
        await w.store.play_match(game_id, version, seat, match.legal_actions(seat)[0])
    raise AssertionError(f"seat {until_seat} never came to play")


async def test_a_move_saved_but_never_posted_is_shown_at_start_up_and_pings_whose_turn_it_is(world, db_path):
    w = world
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=1)
    match, _version, _record = await w.store.load_match(game_id)
    mover = match.waiting()[0]
    before = await current_prompt(w, game_id, thread)
    await saved_not_posted(w, game_id, until_seat=1 - mover)
    # Nothing of it reached the thread.
    assert (await current_prompt(w, game_id, thread)).id == before.id
    version = (await w.store.get_game(game_id)).version
    record = await w.store.get_game(game_id)
    asked = next(s for s in record.seats if s.seat == 1 - mover)
    waiting = next(m for m in w.members if m.user.id == asked.user_id)

    await restart(w, create_bot(db_path))
    await resumed(w)
    prompt = await current_prompt(w, game_id, thread)
    assert prompt.id != before.id
    assert waiting.mention in prompt.content
    assert (await w.store.thread_posts(game_id)).posts.shown_version == version
    # Once: a second start finds the thread up to date and posts nothing.
    posts = len(thread.history())
    await restart(w, create_bot(db_path))
    await resumed(w)
    assert len(thread.history()) == posts
    assert w.env.errors == []


@pytest.mark.slow
async def test_an_ai_turn_left_unplayed_is_played_at_start_up_and_the_person_is_asked_again(world, db_path):
    w = world
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy")
    before = await current_prompt(w, game_id, thread)
    # aiko's decisions saved, the bot stopped before the AI seat decided.
    await saved_not_posted(w, game_id, until_seat=1)
    cut = len(await w.store.match_events(game_id))

    await restart(w, create_bot(db_path))
    await resumed(w)
    match, version, _record = await w.store.load_match(game_id)
    assert match.is_over or 0 in match.waiting()
    played = await w.store.match_events(game_id)
    assert len(played) > cut and all(entry[1] == 1 for entry in played[cut:])
    prompt = await current_prompt(w, game_id, thread)
    assert prompt.id != before.id
    assert match.is_over or w.members[0].mention in prompt.content
    assert (await w.store.thread_posts(game_id)).posts.shown_version == version
    assert w.env.errors == []


async def test_a_time_out_that_fails_after_saving_its_decisions_still_moves_the_thread_on(world, monkeypatch):
    w = world
    hour = 3600
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=1, deadline=hour)
    match, version, record = await w.store.load_match(game_id)
    late = match.waiting()[0]
    before = await current_prompt(w, game_id, thread)
    matches = w.bot.matches
    real = matches._count_expired
    failed: list[int] = []

    async def fails_once(*args, **kwargs):
        # The AI's decisions for the late seat are saved; what follows them fails, once.
        if not failed:
            failed.append(1)
            raise ConnectionError("Discord went away midway")
        return await real(*args, **kwargs)

    monkeypatch.setattr(matches, "_count_expired", fails_once)
    await w.env.advance_time(hour + 1)
    assert failed
    after, moved, _record = await w.store.load_match(game_id)
    assert moved > version and late not in after.waiting()
    # The thread still shows the late seat's turn: the retry, a minute later at the most, brings it up to date.
    assert (await current_prompt(w, game_id, thread)).id == before.id
    await w.env.advance_time(120)
    prompt = await current_prompt(w, game_id, thread)
    assert prompt.id != before.id
    asked = next(s for s in record.seats if s.seat in after.waiting())
    assert f"<@{asked.user_id}>" in prompt.content
    assert (await w.store.thread_posts(game_id)).posts.shown_version == moved
    # The new turn has its deadline.
    assert any(t.kind == "deadline" and t.version == moved for t in await w.store.timers(game_id))
    assert [e for e in w.env.errors if "Discord went away" not in str(e)] == []

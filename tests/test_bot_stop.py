"""Stopping the bot (SIGTERM, as Docker and systemd stop it): the move being committed is saved and confirmed."""

from __future__ import annotations

import asyncio
import logging

import storage.sqlite
from storage import open_store
from tests.botkit import _seated, components, load_game, open_game, prompt_message


async def test_a_move_being_committed_when_the_bot_stops_is_saved_and_confirmed_and_the_bot_stops_promptly(
    world, db_path, caplog, monkeypatch
):
    game_id, thread = await open_game(world, players=2)
    game, version = await load_game(world, game_id)
    moves = len(await world.store.match_decisions(game_id))
    player, options, _version = await _seated(world, game_id)
    assert player is world.member(game.prompt.player)
    message = await prompt_message(world, game_id, thread)
    # The move is a tile of the prompt's menu, then its track on the private message that opens: the second click
    # commits it.
    action, group = options[0]
    [menu] = [c for c in components(message) if c.get("type") == 3]
    picked = await player.select(message, [f"g:{group}"], custom_id=menu["custom_id"])
    assert picked.ephemeral
    tracks = picked.followups[-1] if picked.followups else picked.response
    bot = world.bot
    committing, stopping = asyncio.Event(), asyncio.Event()
    order: list[str] = []
    plain_run, plain_finish = storage.sqlite._run, bot.finish_work

    async def slow_commit(db, sql, params=()):
        if sql == "COMMIT" and not committing.is_set():
            committing.set()
            await stopping.wait()  # a slow disk: the stop arrives in the middle of the commit
            done = await plain_run(db, sql, params)
            order.append("committed")
            return done
        return await plain_run(db, sql, params)

    async def finish_work(*args, **kwargs):
        stopping.set()
        await plain_finish(*args, **kwargs)
        order.append("work finished")

    monkeypatch.setattr(storage.sqlite, "_run", slow_commit)
    bot.finish_work = finish_work
    click = asyncio.create_task(player.click(tracks, custom_id=f"mt:a:{game_id}:{version}:{action}"))
    await asyncio.wait_for(committing.wait(), 10)
    caplog.set_level(logging.WARNING)
    await bot.close()  # what the SIGTERM handler of `python bot.py connect` calls
    order.append("closed")
    result = await asyncio.wait_for(click, 10)
    assert result.acknowledged
    # It waited for the commit, and stopped as soon as the work was done (not at the end of its grace period).
    assert order == ["committed", "work finished", "closed"]
    assert "still under way" not in caplog.text
    reopened = await open_store(db_path)
    try:
        _, saved, _record = await reopened.load_match(game_id)
        assert saved > version and len(await reopened.match_decisions(game_id)) == moves + 1
        # and the thread was brought up to date before the connection to Discord closed
        assert (await reopened.turn_posts(game_id)).shown_version == saved
    finally:
        await reopened.close()


async def test_a_bot_with_nothing_under_way_stops_at_once(world):
    loop = asyncio.get_running_loop()
    started = loop.time()
    await world.bot.close()
    assert loop.time() - started < 1.0

"""Through the bot: a turn change costs one durable commit, and the daily results are looked at once a day."""

from __future__ import annotations

import random

import pytest

from tests.botkit import answer, load_game, open_game

HOUR = 3600


async def test_a_click_that_hands_the_turn_over_makes_one_durable_commit_with_the_next_turns_timers(world):
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    statements: list[str] = []
    await world.store.database.writer.set_trace_callback(statements.append)
    rng = random.Random(3)
    for _ in range(300):
        game, version = await load_game(world, game_id)
        player = game.prompt.player
        statements.clear()
        assert (await answer(world, game_id, thread, rng)).acknowledged
        game, after = await load_game(world, game_id)
        if game.prompt is not None and game.prompt.player != player:
            break
    else:
        raise AssertionError("the turn never changed")
    durable, synchronous = 0, "FULL"
    for sql in statements:
        if sql.startswith("PRAGMA synchronous"):
            synchronous = sql.split("=")[1].strip()
        elif sql == "COMMIT" and synchronous == "FULL":
            durable += 1
    assert durable == 1, statements
    timers = await world.store.timers(game_id)
    assert {t.kind for t in timers} == {"reminder_half", "reminder_late", "deadline"}
    assert {t.version for t in timers} == {after}
    assert (await world.store.get_message(game_id, "prompt")) is not None


@pytest.mark.slow
async def test_the_daily_results_are_looked_at_once_per_day_not_at_every_timer_wake_up(world, monkeypatch):
    calls = []
    original = world.bot.community.post_daily_results

    async def counted() -> None:
        calls.append(world.env.now())
        await original()

    monkeypatch.setattr(world.bot.community, "post_daily_results", counted)
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    cog = world.bot.get_cog("Timers")
    await cog.fire_due()
    first = len(calls)
    rng = random.Random(1)
    for _ in range(30):  # many turns, each waking the timer loop
        assert (await answer(world, game_id, thread, rng)).acknowledged
        await cog.fire_due()
    assert len(calls) == first <= 1
    await world.store.cancel_game(game_id)  # no turn timers to play through while a day passes
    for _ in range(4):
        await world.env.advance_time(6 * HOUR)
    await world.env.advance_time(HOUR)  # past UTC midnight, where the timer loop wakes
    assert len(calls) == first + 1


async def test_a_deadline_that_keeps_failing_is_tried_again_less_and_less_often(world, monkeypatch):
    from cogs import timers

    game_id, thread = await open_game(world, players=2, timer=HOUR)
    cog = world.bot.get_cog("Timers")

    async def broken(*args) -> None:
        raise RuntimeError("Discord is unreachable")

    monkeypatch.setattr(world.bot.matches, "fire", broken)

    async def deadline():
        return next(t for t in await world.store.timers(game_id) if t.kind == "deadline")

    gaps = []
    for _ in range(8):
        await world.store.set_timer(game_id, "deadline", timers.now() - 1, (await deadline()).version)
        await cog.fire_due()
        gaps.append(round((await deadline()).due_at - timers.now()))
    assert gaps == [60, 120, 240, 480, 960, 1920, 3600, 3600]
    monkeypatch.undo()
    await world.store.set_timer(game_id, "deadline", timers.now() - 1, (await deadline()).version)
    await cog.fire_due()  # it works again: the turn times out, and the count is forgotten
    assert not cog.failures
    assert any("time ran out" in m.content.lower() for m in thread.history())

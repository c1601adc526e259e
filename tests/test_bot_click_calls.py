"""One click is a straight line: per prompt click of a game already loaded, what the bot asks of its store, counted
by the harness `bench/bot_bench.py` uses (`tests.botkit.StoreCalls`): few store calls, at most one game load, and
no replay of the game from its seed."""

from __future__ import annotations

import random

import pytest

from tests.botkit import StoreCalls, components, open_game, prompt_message

# Per click, in steady state (a game this process has already loaded): the route's budget.
STORE_CALLS = 6
LOADS = 1
REPLAYS = 0


async def _click(world, game_id: int, thread, rng: random.Random):
    """Everything but the click itself, before the count starts: the chosen action, and for a tile the private
    menu's question; returns the click to send."""
    game, version = await world.store.load_game(game_id)
    member = world.member(game.prompt.player)
    action = rng.choice(game.legal_actions())
    message = await prompt_message(world, game_id, thread)
    parts = components(message)
    kind = parts[0]["custom_id"].split(":")[1]
    if kind == "a":
        return member.click(message, custom_id=f"kk:a:{game_id}:{version}:{action}")
    if kind == "s":
        return member.select(message, [action], custom_id=parts[0]["custom_id"])
    chooser = await member.select(message, [action.split(":")[1]], custom_id=parts[0]["custom_id"])
    return member.click(chooser.response, custom_id=f"kk:a:{game_id}:{version}:{action}")


@pytest.mark.slow
async def test_a_click_makes_few_store_calls_one_load_and_no_replay(world):
    game_id, thread = await open_game(world, players=2)
    rng = random.Random(3)
    found: list[dict[str, int]] = []
    for _ in range(400):
        game, _version = await world.store.load_game(game_id)
        if game.prompt is None:
            break
        click = await _click(world, game_id, thread, rng)
        counter = StoreCalls(world.store)
        try:
            assert (await click).acknowledged
            await world.env.settle()
            found.append(counter.take())
        finally:
            counter.close()
    else:
        raise AssertionError("the game did not end")
    assert len(found) > 50
    worst = {key: max(f.get(key, 0) for f in found) for key in ("store calls", "game loads", "full replays")}
    assert worst["full replays"] <= REPLAYS, worst
    assert worst["game loads"] <= LOADS, worst
    assert worst["store calls"] <= STORE_CALLS, worst

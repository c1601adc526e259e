"""One click is a straight line: per decision of a /kokeshi game already loaded, what the bot asks of its store,
counted by the harness `bench/bot_bench.py` uses (`tests.botkit.StoreCalls`): few store calls, at most one game load,
and no replay of the game from its seed. A /kokeshi lobby's game is played at the platform's table, whose clicks
`tests/test_bot_match_click_calls.py` counts for the games opened there, within the same budget (defined here)."""

from __future__ import annotations

import random

import pytest

from tests.botkit import StoreCalls, open_game

# Per click, in steady state (a game this process has already loaded): the route's budget.
STORE_CALLS = 6
LOADS = 1
REPLAYS = 0


@pytest.mark.slow
async def test_a_click_makes_few_store_calls_one_load_and_no_replay(world):
    # Imported here: that module takes its budget from this one.
    from tests.test_bot_match_click_calls import assert_within_budget, decision

    game_id, thread = await open_game(world, players=2)
    record = await world.store.get_game(game_id)
    assert not record.named_log  # a /kokeshi lobby's game, at the platform's table
    rng = random.Random(3)
    found: list[dict[str, int]] = []
    for _ in range(600):
        if (await world.store.get_game(game_id)).status != "active":
            break
        click = await decision(world, game_id, thread, rng)
        counter = StoreCalls(world.store)
        try:
            assert (await click).acknowledged
            await world.env.settle()
            # Each store method called, beside the totals: what a click over budget asked for.
            methods = {f"calls of {name}": n for name, n in counter.methods.items()}
            found.append({**counter.take(), **methods})
        finally:
            counter.close()
    else:
        raise AssertionError("the game did not end")
    assert (await world.store.get_game(game_id)).status == "finished"
    assert world.env.errors == []
    # Among them, many that ended a turn (its record kept, a new live prompt posted) and the one that ended the game.
    assert sum(d.ends_turn for d in await world.store.match_decisions(game_id)) >= 10
    assert len(found) > 50
    assert_within_budget(found)

"""AI seats of another game decide in the bot's worker pool, on a copy redrawn for their seat, never the match."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from cogs import thinking
from cogs.thinking import Thinker
from tests.test_bot_matches import current_prompt, open_table, reply

# A search in a freshly spawned worker process takes longer than SimCord waits by default on a busy machine.
pytestmark = pytest.mark.simcord(settle_timeout=30)


class Seen:
    """A pool's decision function that notes what it was given, then decides as the workers do."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, int, str]] = []

    def __call__(self, key: str, state: str, seat: int, level: str, seed: int) -> str:
        self.calls.append((key, state, seat, level))
        return thinking.decide_match(key, state, seat, level, seed)


async def test_an_ai_seat_decides_in_the_pool_on_a_copy_that_is_not_the_match(world):
    w = world
    seen = Seen()
    w.bot.tables.thinker = Thinker(pool=ThreadPoolExecutor(1), match_work=seen)
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy")
    record = await w.store.get_game(game_id)
    # aiko plays until the AI seat has decided at least once.
    for _ in range(12):
        if seen.calls:
            break
        prompt = await current_prompt(w, game_id, thread)
        match, version, _record = await w.store.load_match(game_id)
        action = match.legal_actions(0)[0]
        clicked = await w.members[0].slash(thread, "games play", choice=action)
        assert "Your choice is in" in reply(clicked).content, reply(clicked).content
        assert (await current_prompt(w, game_id, thread)).id != prompt.id
    assert seen.calls, "the AI seat never decided"
    key, state, seat, level = seen.calls[0]
    assert (key, seat, level) == ("kohaku", 1, "easy")
    # What the worker got is a copy with the AI seat's unknowns redrawn: never the match's own seed.
    assert str(record.seed) not in state
    assert json.loads(state) != json.loads((await w.store.load_match(game_id))[0].to_json())
    log = await w.store.match_events(game_id)
    assert any(entry[1] == 1 for entry in log)


@pytest.mark.slow  # starts the real pool of worker processes
async def test_the_real_pool_of_worker_processes_decides_for_a_kohaku_seat(world):
    w = world
    w.bot.tables.thinker = Thinker()  # the bot's own: a spawned process pool
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="normal")
    for _ in range(12):
        entries = await w.store.match_events(game_id)
        if any(entry[1] == 1 for entry in entries):
            break
        match, _version, _record = await w.store.load_match(game_id)
        await w.members[0].slash(thread, "games play", choice=match.legal_actions(0)[0])
    else:
        raise AssertionError("the AI seat never decided")
    assert w.env.errors == []

"""An expired turn is counted in the commit of the time-out move that ends it, on both backends: a crash between the
move and the count can no longer lose it (and with it the opponents' choice after the third in a row)."""

from __future__ import annotations

import pytest

from games.kokeshi.engine import RandomPolicy
from storage import Store, open_store
from storage.clock import FRACTIONS


@pytest.fixture
async def store(database):
    s = await open_store(database)
    yield s
    await s.close()


async def started(store: Store) -> int:
    game_id = await store.create_game(guild_id=1, channel_id=10, host_id=100, host_name="Ana", players=2)
    await store.add_seat(game_id, 101, "Bo")
    await store.start_game(game_id, 11)
    return game_id


async def play_turn(store: Store, game_id: int, source: str) -> tuple[str, int]:
    """The player to move's whole turn, from `source`; (their seat, how many actions it took)."""
    policy = RandomPolicy(3)
    game, version = await store.load_game(game_id)
    player, actions = game.prompt.player, 0
    while game.prompt is not None and game.prompt.player == player:
        timers = [(kind, store._clock() + part * 3600) for kind, part in FRACTIONS.items()]
        await store.apply(game_id, version, player, policy.choose(game), source=source, timers=timers)
        actions += 1
        seat = (await store.get_game(game_id)).seat_named(player)
        game, version = await store.load_game(game_id)
        # Counted once, by the move that ends the turn; none before it.
        ended = game.prompt is None or game.prompt.player != player
        assert seat.expired == (1 if ended and source == "timeout" else 0)
    return player, actions


async def test_a_timed_out_turn_counts_once_with_its_last_move_and_a_played_one_not_at_all(store):
    game_id = await started(store)
    timed_out, _ = await play_turn(store, game_id, "timeout")
    played, _ = await play_turn(store, game_id, "player")
    record = await store.get_game(game_id)
    assert record.seat_named(timed_out).expired == 1 and record.seat_named(played).expired == 0
    assert await store.verify() == []

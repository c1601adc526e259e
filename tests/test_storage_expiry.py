"""An expired turn is counted in the commit of the time-out decision that ends it, on both backends, as the platform's
table saves a decision (`play_match`): a crash between the decision and the count cannot lose it (and with it the
opponents' choice after the third in a row)."""

from __future__ import annotations

import random

import pytest

from storage import GameRecord, Seat, Store, open_store
from storage.clock import FRACTIONS


@pytest.fixture
async def store(database):
    s = await open_store(database)
    yield s
    await s.close()


async def started(store: Store) -> int:
    game_id = await store.create_game(guild_id=1, channel_id=10, host_id=100, host_name="Ana", players=2)
    await store.add_seat(game_id, 101, "Bo")
    await store.start_match(game_id, 11)
    return game_id


def seat_at(record: GameRecord, seat: int) -> Seat:
    return next(s for s in record.seats if s.seat == seat)


async def play_turn(store: Store, game_id: int, source: str) -> tuple[int, int]:
    """The seat to move's whole turn, from `source`; (the seat, how many decisions it took)."""
    rng = random.Random(3)
    match, version, _record = await store.load_match(game_id)
    [seat] = match.waiting()
    decisions = 0
    while match.waiting() == (seat,):
        timers = [(kind, store._clock() + part * 3600) for kind, part in FRACTIONS.items()]
        action = rng.choice(match.legal_actions(seat))
        await store.play_match(game_id, version, seat, action, source=source, timers=timers)
        decisions += 1
        match, version, record = await store.load_match(game_id)
        # Counted once, by the decision that ends the turn; none before it.
        ended = match.waiting() != (seat,)
        assert seat_at(record, seat).expired == (1 if ended and source == "timeout" else 0)
    return seat, decisions


async def test_a_timed_out_turn_counts_once_with_its_last_move_and_a_played_one_not_at_all(store):
    game_id = await started(store)
    timed_out, _ = await play_turn(store, game_id, "timeout")
    played, _ = await play_turn(store, game_id, "player")
    record = await store.get_game(game_id)
    assert seat_at(record, timed_out).expired == 1 and seat_at(record, played).expired == 0
    assert await store.verify() == []

"""A contract game's turn timers in the store, on both backends: set together as the people waited for would have
them, carried from a decision within the turn to the next, gone when the turn ends, and a resigned seat ranked last."""

from __future__ import annotations

import pytest

from storage import Store, open_store
from storage.away import QUIET
from tests.test_storage_away_matches import MIDNIGHT, Clock  # a still clock, from midnight (Lisbon's too)
from tests.test_storage_matches import lobby

SEED = 0x5EED_7123
HOUR = 3600
KINDS = ("reminder_half", "reminder_late", "deadline")


@pytest.fixture
async def store(database):
    s = await open_store(database, clock=Clock())
    yield s
    await s.close()


def plan(start: float, length: float) -> list[tuple[str, float]]:
    return [(kind, start + part * length) for kind, part in zip(KINDS, (0.5, 0.9, 1.0), strict=True)]


async def timers(store: Store, game_id: int) -> list[tuple[str, float, int]]:
    return [(t.kind, t.due_at, t.version) for t in await store.timers(game_id)]


async def test_a_turns_timers_follow_it_through_its_decisions_and_an_undo_and_go_when_it_ends(store, bids):
    clock = store._clock
    game_id = await lobby(store, "bids", 2)
    match, version = await store.start_match(game_id, SEED)
    due = await store.set_match_timers(game_id, version, plan(clock.now, HOUR))
    assert due == dict(plan(clock.now, HOUR))
    assert await timers(store, game_id) == [(k, at, version) for k, at in plan(clock.now, HOUR)]
    # Seat 0 bids: the turn goes on, and its timers with it, unmoved, for the new version.
    played = await store.play_match(game_id, version, 0, match.legal_actions(0)[0])
    assert not played.outcome.turn_changed
    assert await timers(store, game_id) == [(k, at, version + 1) for k, at in plan(clock.now, HOUR)]
    # Taken back: still the same turn.
    _match, undone = await store.undo_match(game_id, 0)
    assert await timers(store, game_id) == [(k, at, undone) for k, at in plan(clock.now, HOUR)]
    assert await store.verify() == []
    # Both bid: the prize is decided, a new turn begins, and the old turn's timers are gone.
    played = await store.play_match(game_id, undone, 0, match.legal_actions(0)[0])
    played = await store.play_match(game_id, played.record.version, 1, match.legal_actions(1)[0])
    assert played.outcome.turn_changed and await store.timers(game_id) == []
    assert await store.verify() == []


async def test_a_turns_reminders_wait_for_an_away_player_and_only_its_deadline_leaves_quiet_hours(store, bids):
    clock = store._clock
    game_id = await lobby(store, "bids", 2)  # seat 0 is user 100, seat 1 user 101
    _match, version = await store.start_match(game_id, SEED)
    await store.set_user_setting(100, QUIET, "23:00-08:00 Europe/Lisbon")
    await store.go_away(101, clock.now + 1000)
    due = await store.set_match_timers(game_id, version, plan(clock.now, 4 * HOUR))
    # Every timer waits out the away period; then the deadline (04:00 and a bit, in user 100's night) goes to 08:00,
    # and the reminders keep their times.
    assert due == {
        "reminder_half": clock.now + 2 * HOUR + 1000,
        "reminder_late": clock.now + 0.9 * 4 * HOUR + 1000,
        "deadline": MIDNIGHT + 8 * HOUR,
    }
    assert sorted(await timers(store, game_id)) == sorted((k, at, version) for k, at in due.items())
    assert await store.verify() == []


async def test_a_resigned_seat_is_played_by_the_ai_and_ranks_last_whatever_its_score(store, bids):
    game_id = await lobby(store, "bids", 2)
    match, version = await store.start_match(game_id, SEED)
    await store.update_seat(game_id, "P101", ai=True, resigned=True)
    record = await store.get_game(game_id)
    seat = record.seat_of(101)
    assert seat.ai and seat.resigned and seat.ai_level is None
    # Seat 1 bids high every time, seat 0 low: seat 1 would win, but resigned it ranks last.
    while not match.is_over:
        for s in match.waiting():
            legal = match.legal_actions(s)
            played = await store.play_match(game_id, version, s, legal[-1] if s == 1 else legal[0])
            match, version = played.match, played.record.version
    assert match.standing().places[1] == 1
    results = {r.seat: r for r in await store.results(game_id)}
    assert (results[1].rank, results[1].resigned) == (2, True)
    assert (results[0].rank, results[0].resigned) == (1, False)
    assert await store.verify() == []

"""Away periods and quiet hours on the deadlines of contract games (Bids, Kōhaku), on both backends: a deadline
waits for every person the game waits for, and only for them."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from storage import Store, open_store
from storage.away import QUIET, out_of_quiet
from tests.dbkit import Clock
from tests.test_storage_matches import lobby

SEED = 0x5EED_0A11_A3A7
HOUR = 3600
# Midnight UTC on 1 January 2026: midnight in Lisbon too (winter), inside a night of 23:00-08:00 there.
MIDNIGHT = dt.datetime(2026, 1, 1, tzinfo=dt.UTC).timestamp()


def utc(hour: int) -> float:
    return MIDNIGHT + hour * HOUR


@pytest.fixture
async def store(database):
    s = await open_store(database, clock=Clock(MIDNIGHT))
    yield s
    await s.close()


async def deadline(store: Store, game_id: int) -> float:
    [timer] = await store.timers(game_id)
    assert timer.kind == "deadline"
    return timer.due_at


async def test_going_away_moves_the_deadline_only_of_a_game_waiting_for_the_player_and_back_returns_the_rest(
    store, bids
):
    clock = store._clock
    game_id = await lobby(store, "bids", 2)  # seat 0 is user 100, seat 1 user 101
    match, version = await store.start_match(game_id, SEED)
    assert match.waiting() == (0, 1)
    assert await store.set_match_deadline(game_id, version, clock.now + 100) == clock.now + 100
    due = clock.now + 100
    # Seat 0 bids: the game now waits for seat 1 alone.
    played = await store.play_match(game_id, version, 0, match.legal_actions(0)[0])
    assert played.match.waiting() == (1,) and await deadline(store, game_id) == due

    away = await store.go_away(100, clock.now + 1000)
    assert away.games == () and await deadline(store, game_id) == due
    assert (await store.come_back(100)).games == ()

    away = await store.go_away(101, clock.now + 1000)
    assert away.games == (game_id,) and away.shift == 1000
    assert await deadline(store, game_id) == due + 1000
    clock.now += 400
    back = await store.come_back(101)
    assert back is not None and back.games == (game_id,) and back.shift == -600
    assert await deadline(store, game_id) == due + 400
    assert await store.verify() == []


async def test_a_deadline_set_while_people_it_waits_for_are_away_starts_once_the_last_is_back(store, bids):
    clock = store._clock
    game_id = await lobby(store, "bids", 3)
    match, version = await store.start_match(game_id, SEED)
    await store.go_away(101, clock.now + 5000)
    await store.go_away(102, clock.now + 3000)
    await store.go_away(200, clock.now + 9000)  # not at the table
    assert await store.set_match_deadline(game_id, version, clock.now + 100) == clock.now + 5100
    assert await deadline(store, game_id) == clock.now + 5100
    # Once 101 has bid, the next deadline of the game waits only for 102's return (and its own time).
    played = await store.play_match(game_id, version, 1, match.legal_actions(1)[0])
    played = await store.play_match(game_id, played.record.version, 0, match.legal_actions(0)[0])
    assert played.match.waiting() == (2,)
    assert await store.set_match_deadline(game_id, played.record.version, clock.now + 100) == clock.now + 3100
    assert await store.verify() == []


async def test_a_deadline_in_the_quiet_hours_of_anyone_it_waits_for_moves_past_all_of_them(store, bids):
    game_id = await lobby(store, "bids", 2)
    match, version = await store.start_match(game_id, SEED)
    await store.set_user_setting(100, QUIET, "23:00-08:00 Europe/Lisbon")
    # 01:00 is in 100's night: it moves to 08:00 UTC (08:00 in Lisbon in winter)...
    assert await store.set_match_deadline(game_id, version, utc(1)) == utc(8)
    # ...unless 101's quiet hours start at 07:00 UTC: then past both, at 09:00.
    await store.set_user_setting(101, QUIET, "07:00-09:00 UTC")
    assert await store.set_match_deadline(game_id, version, utc(1)) == utc(9)
    # A deadline outside everyone's quiet hours stays.
    assert await store.set_match_deadline(game_id, version, utc(12)) == utc(12)
    # Once seat 1 has bid, only 100's hours count.
    played = await store.play_match(game_id, version, 1, match.legal_actions(1)[0])
    assert await store.set_match_deadline(game_id, played.record.version, utc(1)) == utc(8)
    assert await deadline(store, game_id) == utc(8)
    assert await store.verify() == []


async def test_a_kohaku_deadline_waits_for_the_person_to_move_and_never_for_an_ai_seat(store):
    clock = store._clock
    game_id = await store.create_game(
        guild_id=1, channel_id=10, host_id=100, host_name="P100", players=2, game="kohaku", ai_seats=1, solo=False
    )
    match, version = await store.start_match(game_id, SEED)
    record = await store.get_game(game_id)
    person = next(s for s in record.seats if not s.ai)
    await store.go_away(person.user_id, clock.now + 2000)
    due = await store.set_match_deadline(game_id, version, clock.now + 100)
    waits_for_person = person.seat in match.waiting()
    assert due == clock.now + (2100 if waits_for_person else 100)
    back = await store.come_back(person.user_id)
    assert back is not None and back.games == ((game_id,) if waits_for_person else ())
    assert await deadline(store, game_id) == clock.now + 100
    assert await store.verify() == []


def test_quiet_hours_that_cover_the_whole_day_between_them_stop_the_move():
    utc_zone = ZoneInfo("UTC")
    day = ((0, 12 * 60), utc_zone), ((12 * 60, 24 * 60 - 1), utc_zone), ((23 * 60, 60), utc_zone)
    moved = out_of_quiet(utc(1), day)
    assert utc(1) + 24 * HOUR < moved <= utc(1) + 2 * 24 * HOUR
    assert out_of_quiet(utc(1), [((23 * 60, 8 * 60), ZoneInfo("Europe/Lisbon"))]) == utc(8)
    assert out_of_quiet(utc(12), [((23 * 60, 8 * 60), ZoneInfo("Europe/Lisbon"))]) == utc(12)

"""A contract game's turn timers in the store, on both backends: set together as the people waited for would have
them (by the decision that begins a turn, in its commit), carried from a decision within the turn to the next, gone
when the turn ends; what a decision returns for its thread; and a resigned seat ranked last."""

from __future__ import annotations

import pytest

from storage import Store, open_store
from storage.away import QUIET
from tests.dbkit import Clock
from tests.test_storage_away_matches import MIDNIGHT  # midnight (Lisbon's too)
from tests.test_storage_matches import lobby

SEED = 0x5EED_7123
HOUR = 3600
KINDS = ("reminder_half", "reminder_late", "deadline")


@pytest.fixture
async def store(database):
    s = await open_store(database, clock=Clock(MIDNIGHT))
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


async def test_a_decision_that_begins_a_turn_sets_its_timers_in_its_commit_and_returns_what_its_prompt_shows(
    store, bids
):
    clock = store._clock
    game_id = await lobby(store, "bids", 2)  # seat 0 is user 100, seat 1 user 101
    match, version = await store.start_match(game_id, SEED)
    await store.set_user_setting(101, QUIET, "23:00-08:00 Europe/Lisbon")
    await store.go_away(100, clock.now + 1000)
    first = await store.play_match(game_id, version, 0, match.legal_actions(0)[0], timers=plan(clock.now, HOUR))
    # Within the turn: no deadline of its own yet, so the turn gets one, as it would when shown.
    assert not first.outcome.turn_changed and first.shown is not None and first.shown.timers_set
    assert first.shown.timers == {k: at for k, at, _v in await timers(store, game_id)}
    # The rest of the turn keeps them (carried, not set again), whatever plan a decision brings.
    second = await store.play_match(
        game_id, first.record.version, 1, match.legal_actions(1)[0], timers=plan(clock.now + 60, HOUR)
    )
    assert second.outcome.turn_changed and second.shown is not None and second.shown.timers_set
    # A new turn: the old turn's timers went, the new one's are set for the new version, moved past the away period.
    stored = await timers(store, game_id)
    assert {v for _k, _at, v in stored} == {second.record.version}
    assert second.shown.timers == {k: at for k, at, _v in stored}
    assert second.shown.timers["reminder_half"] == clock.now + 60 + HOUR / 2 + 1000
    # What the live prompt says of its people, read in the same call: both are asked, one is away.
    assert set(second.shown.settings) == {100, 101} and second.shown.settings[101][QUIET].startswith("23:00")
    assert set(second.shown.aways) == {100}
    # The log as the thread cuts its records from it.
    assert list(second.decisions) == await store.match_decisions(game_id)
    assert [d.ends_turn for d in second.decisions] == [False, True]
    within = await store.play_match(game_id, second.record.version, 0, second.match.legal_actions(0)[0])
    assert within.shown is not None and not within.shown.timers_set
    assert within.shown.timers == second.shown.timers
    assert await store.verify() == []


async def test_a_decision_without_a_plan_or_that_ends_the_game_sets_no_timer(store, bids):
    game_id = await lobby(store, "bids", 2)
    match, version = await store.start_match(game_id, SEED)
    played = await store.play_match(game_id, version, 0, match.legal_actions(0)[0])
    assert played.shown is not None and played.shown.timers == {} and not played.shown.timers_set
    match = played.match
    while not match.is_over:
        s = match.waiting()[0]
        played = await store.play_match(
            game_id, played.record.version, s, match.legal_actions(s)[0], timers=plan(store._clock.now, HOUR)
        )
        match = played.match
    assert played.shown is None and played.results and await store.timers(game_id) == []

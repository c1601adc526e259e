"""Time banks and the opponents' choices in the store, on both backends: a turn charged less its time away, the step
and the cap, choices answered once, `verify`; and another game's seats each on their bank, their expired turns
counted."""

from __future__ import annotations

import random

import pytest

from storage import Store, open_store
from storage.clock import BANKS
from tests.dbkit import Clock, sql
from tests.test_storage_matches import lobby

BANK = BANKS["1h"]
TIMERS = (("reminder_half", 0.5), ("reminder_late", 0.9), ("deadline", 1.0))


@pytest.fixture
async def store(database):
    s = await open_store(database, clock=Clock())
    yield s
    await s.close()


def timers(store: Store) -> list[tuple[str, float]]:
    """A fixed timer's reminders and deadline from now, as the tables pass them; a bank game replaces them."""
    return [(kind, store._clock() + part * 600) for kind, part in TIMERS]


async def bank_game(store: Store) -> tuple[int, str, int]:
    """A started 2-player game of Kokeshi on the 1-hour bank whose first turn's timers are set: (game, player to
    move, user)."""
    game_id = await store.create_game(
        guild_id=1, channel_id=10, host_id=100, host_name="Ana", players=2, turn_timer=BANK.initial,
        settings={"clock": BANK.key},
    )  # fmt: skip
    await store.add_seat(game_id, 101, "Bo")
    match, version = await store.start_match(game_id, 7)
    seat = (await store.get_game(game_id)).seats[match.waiting()[0]]
    await store.set_match_timers(game_id, version, timers(store))
    return game_id, seat.name, seat.user_id


async def to_move(store: Store, game_id: int) -> str | None:
    """The name of the seat the game waits for, None once it is over."""
    match, _version, record = await store.load_match(game_id)
    return None if match.is_over else record.seats[match.waiting()[0]].name


async def play_turn(store: Store, game_id: int, player: str) -> None:
    """Random decisions of `player` until the turn is someone else's, the next turn's timers set as a table sets
    them."""
    rng = random.Random(1)
    while await to_move(store, game_id) == player:
        match, version, _record = await store.load_match(game_id)
        (seat,) = match.waiting()
        await store.play_match(game_id, version, seat, rng.choice(match.legal_actions(seat)), timers=timers(store))


async def deadline(store: Store, game_id: int) -> float:
    return next(t.due_at for t in await store.timers(game_id) if t.kind == "deadline")


async def test_a_turn_is_charged_its_time_less_the_time_away_then_the_step_is_added(store):
    game_id, player, user_id = await bank_game(store)
    start = store._clock()
    assert await deadline(store, game_id) == start + BANK.initial
    store._clock.now += 600
    await store.go_away(user_id, store._clock() + 3600)
    assert await deadline(store, game_id) == start + BANK.initial + 3600
    store._clock.now += 3600 + 600  # back for ten minutes
    assert await store.bank_left(game_id, player) == BANK.initial - 1200
    await play_turn(store, game_id, player)
    assert (await store.banks(game_id))[player] == BANK.initial - 1200 + BANK.increment
    assert await store.verify() == []


async def test_quick_turns_fill_the_bank_up_to_its_cap_and_no_further(store):
    game_id, player, _user = await bank_game(store)
    seen = set()
    for _ in range(16):  # eight turns each: six fill it
        await play_turn(store, game_id, await to_move(store, game_id))
        seen.add((await store.banks(game_id)).get(player))
    assert max(b for b in seen if b is not None) == BANK.cap
    assert all(b is None or BANK.initial <= b <= BANK.cap for b in seen)
    assert await store.verify() == []


async def test_a_choice_is_answered_once_and_waits_for_its_deadline_until_then(store):
    game_id, player, _user = await bank_game(store)
    due = store._clock() + 86400
    await store.ask_choice(game_id, player, due)
    assert await store.next_choice_due() == due
    assert await store.due_choices(due - 1) == []
    assert [c.name for c in await store.due_choices(due)] == [player]
    assert await store.answer_choice(game_id, player, "wait", 101)
    assert not await store.answer_choice(game_id, player, "end", 100)
    answered = await store.seat_choice(game_id, player)
    assert (answered.answer, answered.answered_by, answered.open) == ("wait", 101, False)
    assert await store.next_choice_due() is None and await store.due_choices(due) == []
    # Asked again later: open again.
    await store.ask_choice(game_id, player, due + 10)
    assert (await store.seat_choice(game_id, player)).open


async def test_verify_reports_a_bank_past_its_cap_or_in_a_game_without_a_bank(store, database):
    game_id, player, _user = await bank_game(store)
    assert await store.verify() == []
    sql(database, "UPDATE clocks SET bank = ? WHERE game_id = ?", (BANK.cap + 1, game_id))
    sql(database, "UPDATE games SET settings = ? WHERE id = ?", ("{}", game_id))
    problems = [p for g, p in await store.verify() if g == 0]
    assert any("without a bank clock" in p for p in problems), problems
    sql(database, "UPDATE games SET settings = ? WHERE id = ?", ('{"clock":"1h"}', game_id))
    problems = [p for g, p in await store.verify() if g == 0]
    assert any("outside 0 to its cap" in p for p in problems), problems


# ---------------------------------------------------------------------- another game's table (the contract's path)


async def test_a_contract_games_people_each_run_their_bank_and_a_turn_that_goes_on_follows_the_banks_left(store, bids):
    clock = store._clock
    start = clock.now
    game_id = await lobby(store, "bids", 2, settings={"clock": BANK.key})  # seat 0 is P100, seat 1 P101
    match, version = await store.start_match(game_id, 7)
    # Both bid at once: both banks run, and the turn's timers come from the one that runs out first.
    due = await store.set_match_timers(game_id, version, timers(store))
    assert due == {kind: start + part * BANK.initial for kind, part in TIMERS}
    assert await store.verify() == []  # two turns running at once is this game's way

    # P101 bids after 20 minutes: charged, the step added; the turn goes on for P100 alone, on what P100 has left.
    clock.now += 1200
    played = await store.play_match(game_id, version, 1, match.legal_actions(1)[0])
    assert not played.outcome.turn_changed
    assert await store.banks(game_id) == {"P100": BANK.initial, "P101": BANK.initial - 1200 + BANK.increment}
    assert await store.bank_left(game_id, "P100") == BANK.initial - 1200
    assert {t.kind: (t.due_at, t.version) for t in await store.timers(game_id)} == {
        kind: (clock.now + part * (BANK.initial - 1200), played.record.version) for kind, part in TIMERS
    }

    # P100's time runs out: the AI's bid ends the turn, the whole bank is used, and the expired turn is counted.
    clock.now += BANK.initial - 1200
    assert await store.bank_left(game_id, "P100") == 0
    played = await store.play_match(game_id, played.record.version, 0, match.legal_actions(0)[0], source="timeout")
    assert played.outcome.turn_changed and await store.timers(game_id) == []
    assert (await store.banks(game_id))["P100"] == BANK.increment
    assert played.record.seat_named("P100").expired == 1 and played.record.seat_named("P101").expired == 0

    # The next turn runs on the banks as they are now; P100's own bid ends their run of expired turns.
    due = await store.set_match_timers(game_id, played.record.version, timers(store))
    assert due["deadline"] == clock.now + BANK.increment
    match = played.match
    played = await store.play_match(game_id, played.record.version, 0, match.legal_actions(0)[0])
    assert played.record.seat_named("P100").expired == 0
    assert await store.verify() == []


async def test_a_contract_game_on_a_fixed_timer_counts_expired_turns_and_keeps_no_bank(store, bids):
    game_id = await lobby(store, "bids", 2)
    match, version = await store.start_match(game_id, 7)
    await store.set_match_timers(game_id, version, timers(store))
    played = await store.play_match(game_id, version, 1, match.legal_actions(1)[0], source="timeout")
    # The turn goes on for P100 with its timers as they were; P101's part of it ran out.
    assert {t.version for t in await store.timers(game_id)} == {played.record.version}
    assert played.record.seat_named("P101").expired == 1
    assert await store.banks(game_id) == {}
    assert await store.verify() == []

"""Time banks and the opponents' choices in the store, on both backends: a turn charged less its time away, the step
and the cap, choices answered once, and `verify`."""

from __future__ import annotations

import pytest

from games.kokeshi.engine import RandomPolicy
from storage import Store, open_store
from storage.clock import BANKS
from tests.dbkit import sql

BANK = BANKS["1h"]
TIMERS = (("reminder_half", 0.5), ("reminder_late", 0.9), ("deadline", 1.0))


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def store(database):
    s = await open_store(database, clock=Clock())
    yield s
    await s.close()


def timers(store: Store) -> list[tuple[str, float]]:
    """A fixed timer's reminders and deadline from now, as the tables pass them; a bank game replaces them."""
    return [(kind, store._clock() + part * 600) for kind, part in TIMERS]


async def bank_game(store: Store) -> tuple[int, str, int]:
    """A started 2-player game on the 1-hour bank whose first turn's timers are set: (game, player to move, user)."""
    game_id = await store.create_game(
        guild_id=1, channel_id=10, host_id=100, host_name="Ana", players=2, turn_timer=BANK.initial,
        settings={"clock": BANK.key},
    )  # fmt: skip
    await store.add_seat(game_id, 101, "Bo")
    await store.start_game(game_id, 7)
    game, version = await store.load_game(game_id)
    seat = (await store.get_game(game_id)).seat_named(game.prompt.player)
    await store.set_turn_timers(game_id, version, timers(store), user_id=seat.user_id)
    return game_id, seat.name, seat.user_id


async def play_turn(store: Store, game_id: int, player: str) -> None:
    policy = RandomPolicy(1)
    while True:
        game, version = await store.load_game(game_id)
        if game.prompt is None or game.prompt.player != player:
            return
        await store.apply(game_id, version, player, policy.choose(game), timers=timers(store))


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
        game, _version = await store.load_game(game_id)
        await play_turn(store, game_id, game.prompt.player)
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

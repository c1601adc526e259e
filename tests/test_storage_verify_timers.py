"""`verify` checks every timer, on both backends: each value damaged behind the store's back is reported, and a
sound store reports nothing."""

from __future__ import annotations

import pytest

from storage import Store, open_store
from storage.away import QUIET
from storage.clock import BANKS, FRACTIONS
from tests.dbkit import Clock, sql

BANK = BANKS["1h"]


@pytest.fixture
async def store(database):
    s = await open_store(database, clock=Clock())
    yield s
    await s.close()


async def bank_game(store: Store) -> tuple[int, str]:
    """A started 2-player game on the 1-hour bank, its first turn's timers set: (game, player to move)."""
    game_id = await store.create_game(
        guild_id=1, channel_id=10, host_id=100, host_name="Ana", players=2, turn_timer=BANK.initial,
        settings={"clock": BANK.key},
    )  # fmt: skip
    await store.add_seat(game_id, 101, "Bo")
    match, version = await store.start_match(game_id, 7)
    seat = (await store.get_game(game_id)).seats[match.waiting()[0]]
    timers = [(kind, store._clock() + part * 600) for kind, part in FRACTIONS.items()]
    await store.set_match_timers(game_id, version, timers)
    return game_id, seat.name


async def problems(store: Store) -> list[str]:
    return [problem for _game, problem in await store.verify()]


def reported(found: list[str], words: str) -> bool:
    return any(words in problem for problem in found)


async def test_a_sound_store_with_every_kind_of_timer_reports_nothing(store):
    game_id, player = await bank_game(store)
    await store.go_away(100, store._clock() + 3600)
    await store.set_user_setting(101, QUIET, "23:00-08:00 Europe/Lisbon")
    await store.set_digest(101, 8 * 60, "Europe/Lisbon", 1_000_000 + 3600)
    await store.ask_choice(game_id, player, store._clock() + 86400)
    assert len(await store.timers(game_id)) == 3 and await store.banks(game_id)
    assert await store.verify() == []


async def test_a_timer_of_an_unknown_kind_or_past_the_games_version_is_reported_against_its_game(store, database):
    game_id, _player = await bank_game(store)
    version = (await store.get_game(game_id)).version
    sql(database, "UPDATE timers SET kind = 'alarm' WHERE game_id = ? AND kind = 'reminder_half'", (game_id,))
    sql(database, "UPDATE timers SET version = ? WHERE game_id = ? AND kind = 'deadline'", (version + 3, game_id))
    found = await store.verify()
    assert (game_id, "a timer of an unknown kind 'alarm'") in found, found
    assert any(g == game_id and "past the game's" in p and "deadline" in p for g, p in found), found


async def test_a_deadline_that_is_not_a_time_is_reported(store, database):
    game_id, _player = await bank_game(store)
    sql(database, "UPDATE timers SET due_at = ? WHERE game_id = ? AND kind = 'deadline'", (float("inf"), game_id))
    found = await store.verify()
    assert any(g == game_id and "deadline timer is due at inf" in p for g, p in found), found


async def test_quiet_hours_that_no_longer_read_are_reported(store, database):
    await store.set_user_setting(101, QUIET, "23:00-08:00 Europe/Lisbon")
    assert await store.verify() == []
    sql(database, "UPDATE user_settings SET value = ? WHERE user_id = 101", ("23:00-08:00 Mars/Olympus",))
    assert reported(await problems(store), "quiet hours: user 101: the quiet hours '23:00-08:00 Mars/Olympus'")
    sql(database, "UPDATE user_settings SET value = ? WHERE user_id = 101", ("late Europe/Lisbon",))
    assert reported(await problems(store), "user 101: the quiet hours 'late Europe/Lisbon' do not read")


async def test_a_bank_or_a_choice_of_a_seat_the_game_does_not_have_is_reported(store, database):
    game_id, player = await bank_game(store)
    await store.ask_choice(game_id, player, store._clock() + 86400)
    sql(database, "UPDATE clocks SET name = 'Zed' WHERE game_id = ?", (game_id,))
    sql(database, "UPDATE seat_choices SET name = 'Zed' WHERE game_id = ?", (game_id,))
    found = await problems(store)
    assert reported(found, f"game {game_id}, seat Zed: a bank of a seat the game does not have"), found
    assert reported(found, f"game {game_id}, the choice about Zed: the game has no such seat"), found


async def test_a_bank_that_is_not_a_time_is_reported(store, database):
    game_id, player = await bank_game(store)
    sql(database, "UPDATE clocks SET bank = ? WHERE game_id = ?", (float("inf"), game_id))
    assert reported(await problems(store), f"game {game_id}, seat {player}: the bank or its turn's start is not a time")


async def test_a_choice_answered_by_someone_without_an_answer_or_due_at_no_time_is_reported(store, database):
    game_id, player = await bank_game(store)
    await store.ask_choice(game_id, player, store._clock() + 86400)
    assert await store.verify() == []
    sql(database, "UPDATE seat_choices SET answered_by = 100 WHERE game_id = ?", (game_id,))
    assert reported(await problems(store), f"the choice about {player}: answered by 100 but without an answer")
    sql(database, "UPDATE seat_choices SET due_at = ?, answered_by = NULL WHERE game_id = ?", (float("inf"), game_id))
    assert reported(await problems(store), f"the choice about {player}: its times do not read")

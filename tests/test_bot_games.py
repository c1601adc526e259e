"""Whole games through Discord: slash commands and button clicks by simulated members, to the final picture."""

from __future__ import annotations

import pytest

from bot import create_bot
from storage.logs import unpack_log
from tests.botkit import answer, attachments, is_png, load_game, open_game, play_to_end, prompt_message, restart


@pytest.fixture
def db_path(database: str) -> str:
    """The games here are played through the bot on a SQLite file; the one played across a restart on PostgreSQL
    too, to its end (the store's own tests run every write on both)."""
    return database


# A test on SQLite alone: the `database` fixture's parameters narrowed to its first.
SQLITE_ONLY = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


@pytest.mark.slow
@SQLITE_ONLY
async def test_a_complete_two_player_game_ends_with_the_final_picture_and_the_leaderboard(world):
    game_id, thread = await open_game(world, players=2)
    answers = await play_to_end(world, game_id, thread, seed=1)
    assert answers > 50
    record = await world.store.get_game(game_id)
    assert record.status == "finished"
    final = thread.history()[-1]
    assert f"**Kokeshi #{game_id} is over.**" in final.content and attachments(final) == [f"final-{game_id}.png"]
    assert is_png(await final.attachments[0].read())
    results = await world.store.results(game_id)
    assert sorted(r.user_id for r in results) == sorted(m.id for m in world.members[:2])
    board = await world.members[0].slash(world.channel, "kokeshi leaderboard")
    text = board.response.embeds[0].description
    winner = next(r for r in results if r.rank == 1)
    assert f"{winner.name} — **1** win" in text and "<@" not in text


@pytest.mark.slow
@SQLITE_ONLY
async def test_a_complete_four_player_game_with_two_ai_seats(world):
    game_id, thread = await open_game(world, players=4, ai=2, side="advanced")
    record = await world.store.get_game(game_id)
    assert [s.ai for s in record.seats] == [False, True, True, False]
    await play_to_end(world, game_id, thread, seed=2)
    results = await world.store.results(game_id)
    assert len(results) == 4 and {r.name for r in results if r.ai} == {"AI 1", "AI 2"}
    # The platform's log, packed into the game's row at its end, keeps each decision's seat (its number) and source:
    # the AI seats' decisions are the AI's, the people's their own.
    row = await world.store._one("SELECT log, created_at FROM games WHERE id = ?", (game_id,))
    logged = [
        (player, source)
        for _seq, player, _action, source, _at, _flags in unpack_log(bytes(row["log"]), row["created_at"])
    ]
    ai_seats = {str(s.seat) for s in record.seats if s.ai}
    assert {source for _player, source in logged} == {"player", "ai"}
    assert all(source == "ai" for player, source in logged if player in ai_seats)
    assert all(source == "player" for player, source in logged if player not in ai_seats)
    assert f"**Kokeshi #{game_id} is over.**" in thread.history()[-1].content


@pytest.mark.slow
@SQLITE_ONLY
async def test_a_complete_solo_game_against_the_automa(world):
    solo = await world.members[0].slash(world.channel, "kokeshi solo", side="advanced")
    assert solo.acknowledged
    record = (await world.store.games_in_channel(world.channel.id, statuses=("active",)))[0]
    assert record.solo and record.turn_timer is None
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    await play_to_end(world, record.id, thread, seed=3)
    final = thread.history()[-1]
    assert ("You beat the automa" in final.content) or ("The automa wins" in final.content)
    assert [r.name for r in await world.store.results(record.id)] in (["aiko", "automa"], ["automa", "aiko"])


@pytest.mark.slow
async def test_after_a_restart_old_buttons_still_work_and_the_game_goes_on(world, db_path):
    game_id, thread = await open_game(world, players=2)
    for _ in range(6):
        await answer(world, game_id, thread)
    message = await prompt_message(world, game_id, thread)
    _, version = await load_game(world, game_id)
    await restart(world, create_bot(db_path))
    # The message was posted by the bot before the restart; its buttons are answered by the new one.
    assert (await prompt_message(world, game_id, thread)).id == message.id
    clicked = await answer(world, game_id, thread)
    assert clicked.acknowledged and (await load_game(world, game_id))[1] == version + 1
    await play_to_end(world, game_id, thread, seed=4)
    assert (await world.store.get_game(game_id)).status == "finished"

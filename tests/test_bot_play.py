"""Playing through Discord: whose turn it is, stale and double clicks, undo, resign, and several games at once."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from tests.botkit import answer, custom_ids, new_lobby, open_game, play_to_end, press, prompt_message


async def _to_move(world, game_id, thread):
    game, version = await world.store.load_game(game_id)
    return game, version, world.member(game.prompt.player)


async def test_only_the_prompted_player_can_answer_others_hear_whose_turn_it_is(world):
    game_id, thread = await open_game(world, players=2)
    game, version, mover = await _to_move(world, game_id, thread)
    other = next(m for m in world.members[:2] if m is not mover)
    message = await prompt_message(world, game_id, thread)
    clicked = await press(other, message)
    assert f"It's {game.prompt.player}'s turn" in clicked.followups[0].content and clicked.followups[0].ephemeral
    stranger = await press(world.members[3], message)
    assert "not playing in this game" in stranger.followups[0].content
    assert (await world.store.load_game(game_id))[1] == version


async def test_a_stale_button_says_the_prompt_is_out_of_date_and_a_repeated_click_applies_once(world):
    game_id, thread = await open_game(world, players=2)
    game, version, mover = await _to_move(world, game_id, thread)
    old = await prompt_message(world, game_id, thread)
    # Discord fails to edit or delete the old prompt, so its buttons stay clickable after the game moved on.
    world.env.inject_error("PATCH", f"/channels/{thread.id}/messages/{old.id}", status=500, times=3)
    world.env.inject_error("DELETE", f"/channels/{thread.id}/messages/{old.id}", status=500, times=2)
    await answer(world, game_id, thread)
    assert (await world.store.load_game(game_id))[1] == version + 1
    assert custom_ids(old), "the old prompt still shows its buttons"
    game, version, mover = await _to_move(world, game_id, thread)
    stale = await press(mover, old)
    reply = stale.followups[0]
    assert reply.ephemeral and reply.content.startswith("This prompt is out of date. Here is the current one")
    assert all(f":{version}" in c for c in custom_ids(reply))
    assert (await world.store.load_game(game_id))[1] == version
    # The same answer twice (the fresh prompt, then the copy in the reply): applied once.
    current = await prompt_message(world, game_id, thread)
    first = await press(mover, current, 0)
    again = await press(mover, reply, 0)
    assert first.acknowledged and again.acknowledged
    assert (await world.store.load_game(game_id))[1] == version + 1
    assert "out of date" in again.followups[0].content or "turn" in again.followups[0].content


async def test_undo_takes_back_a_choice_and_the_prompt_shows_it(world):
    game_id, thread = await open_game(world, players=2)
    game, version, mover = await _to_move(world, game_id, thread)
    assert game.prompt.kind == "setup"
    await answer(world, game_id, thread, action=game.legal_actions()[0])
    assert len(await world.store.log(game_id)) == 1
    undone = await mover.slash(thread, "kokeshi undo")
    assert undone.ephemeral and undone.response.content == "Undone."
    assert await world.store.log(game_id) == []
    after, _ = await world.store.load_game(game_id)
    assert after.legal_actions() == game.legal_actions()
    assert any("took back their last choice" in m.content for m in thread.history())


@pytest.mark.slow
async def test_resigning_hands_the_seat_to_the_ai_and_ranks_last(world):
    game_id, thread = await open_game(world, players=3)
    quitter = world.members[1]
    resigned = await quitter.slash(thread, "kokeshi resign")
    assert resigned.ephemeral and "You resigned" in resigned.response.content
    seat = (await world.store.get_game(game_id)).seat_of(quitter.id)
    assert seat.ai and seat.resigned
    assert any("resigned" in m.content for m in thread.history())
    await play_to_end(world, game_id, thread, seed=5)
    results = await world.store.results(game_id)
    assert results[-1].user_id == quitter.id and results[-1].resigned


@pytest.mark.slow
async def test_two_games_in_one_channel_each_get_their_own_thread_and_one_player_can_be_in_both(world):
    aiko, botan, chiyo, _ = world.members
    _, first, _ = await new_lobby(world, aiko, players=2)
    _, second, _ = await new_lobby(world, botan, players=2)
    ambiguous = await chiyo.slash(world.channel, "kokeshi join")
    assert ambiguous.ephemeral and "Several games match" in ambiguous.response.content
    lobbies = await world.store.open_lobbies(world.guild.id)
    assert len(lobbies) == 2
    await chiyo.slash(world.channel, "kokeshi join", game=lobbies[0].id)
    await chiyo.click(second, label="Join")
    await aiko.click(first, label="Start")
    await botan.click(second, label="Start")
    threads = {t.id for t in world.channel.threads}
    records = [await world.store.get_game(g.id) for g in lobbies]
    assert {r.thread_id for r in records} == threads and len(threads) == 2
    assert len(await world.store.games_for_user(chiyo.id)) == 2
    status = await chiyo.slash(world.channel, "kokeshi status")
    assert status.response.content.count("setup") == 2  # both games listed, neither past its setup
    for record in records:
        thread = next(t for t in world.channel.threads if t.id == record.thread_id)
        for _ in range(4):
            await answer(world, record.id, thread, random.Random(record.id))
    assert [len(await world.store.log(r.id)) >= 4 for r in records] == [True, True]


async def test_playing_by_slash_command_with_autocomplete(world):
    game_id, thread = await open_game(world, players=2)
    game, _, mover = await _to_move(world, game_id, thread)
    while game.prompt.kind == "setup":
        _, version = await world.store.load_game(game_id)
        choices = await mover.autocomplete(thread, "kokeshi play", "choice", "")
        assert {c["value"] for c in choices} <= {f"{version}:{a}" for a in game.legal_actions()}
        placed = await mover.slash(thread, "kokeshi play", choice=choices[0]["value"])
        assert placed.ephemeral and placed.response.content == "Done."
        game, _, mover = await _to_move(world, game_id, thread)
    _, version = await world.store.load_game(game_id)
    choices = await mover.autocomplete(thread, "kokeshi play", "choice", "")
    assert [c["value"] for c in choices] == [
        f"{version}:advance:{k}" for k in ("princess", "batchan", "fisherman", "samurai", "sumotori")
    ]
    moves = len(await world.store.log(game_id))
    # A choice typed out in full (the label the buttons show) works as well as one picked from the list.
    label = next(c["name"] for c in choices if c["value"].endswith(":samurai"))
    advanced = await mover.slash(thread, "kokeshi play", choice=label)
    assert advanced.response.content == "Done."
    log = await world.store.log(game_id)
    assert len(log) == moves + 1 and log[-1].action == "advance:samurai"


@pytest.mark.slow
async def test_board_status_log_rules_help_and_notify_answer_privately(world):
    game_id, thread = await open_game(world, players=2)
    for _ in range(3):
        await answer(world, game_id, thread)
    aiko = world.members[0]
    board = await aiko.slash(thread, "kokeshi table", player="botan")
    assert board.ephemeral and board.response.attachments[0].filename == "board.png"
    assert (await board.response.attachments[0].read()).startswith(b"\x89PNG")
    status = await aiko.slash(thread, "kokeshi status")
    assert status.ephemeral and f"Kokeshi #{game_id}" in status.response.content
    log = await aiko.slash(thread, "kokeshi log", count=3)
    assert log.ephemeral and log.response.content.count("\n") == 2
    rules = await aiko.slash(world.channel, "kokeshi rules")
    names = [a.filename for a in rules.response.attachments]
    assert rules.ephemeral and names == [
        "kokeshi-rules-1.png",
        "kokeshi-rules-2.png",
        "kokeshi-rules-3.png",
        "kokeshi-tiles.png",
    ], "the phone pages first, in order"
    table = await aiko.slash(thread, "kokeshi table")
    names = [a.filename for a in table.response.attachments]
    assert table.ephemeral and names == [f"kokeshi-{game_id}-table-phone.png", f"kokeshi-{game_id}-table.png"]
    phone = Image.open(io.BytesIO(await table.response.attachments[0].read()))
    assert phone.width == 900 and phone.height > phone.width, "portrait, for a phone"
    help_ = await aiko.slash(world.channel, "kokeshi help")
    assert help_.ephemeral and "/kokeshi new" in help_.response.content
    notify = await aiko.slash(world.channel, "kokeshi notify on")
    assert notify.ephemeral and await world.store.user_setting(aiko.id, "notify") == "on"

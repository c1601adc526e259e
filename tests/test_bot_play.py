"""Playing through Discord: whose turn it is, stale and double clicks, undo, resign, and several games at once."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from tests.botkit import (
    answer,
    components,
    custom_ids,
    load_game,
    new_lobby,
    open_game,
    play_to_end,
    press,
    prompt_message,
)
from tests.test_bot_matches import reply


async def decisions(world, game_id: int) -> list:
    """The game's logged decisions (at the platform's table: by seat)."""
    return await world.store.match_decisions(game_id)


async def _to_move(world, game_id, thread):
    game, version = await load_game(world, game_id)
    return game, version, world.member(game.prompt.player)


async def test_only_the_prompted_player_can_answer_others_hear_whose_turn_it_is(world):
    game_id, thread = await open_game(world, players=2)
    game, version, mover = await _to_move(world, game_id, thread)
    other = next(m for m in world.members[:2] if m is not mover)
    message = await prompt_message(world, game_id, thread)
    clicked = await press(other, message)
    assert reply(clicked).ephemeral
    stranger = await press(world.members[3], message)
    assert "not playing in this game" in reply(stranger).content
    assert (await load_game(world, game_id))[1] == version
    assert f"It's {game.prompt.player}'s turn, not yours." == reply(clicked).content


async def test_a_stale_button_says_the_prompt_is_out_of_date_and_a_repeated_click_applies_once(world):
    game_id, thread = await open_game(world, players=2)
    game, version, mover = await _to_move(world, game_id, thread)
    old = await prompt_message(world, game_id, thread)
    # Discord fails to edit or delete the old prompt, so its buttons stay clickable after the game moved on.
    world.env.inject_error("PATCH", f"/channels/{thread.id}/messages/{old.id}", status=500, times=3)
    world.env.inject_error("DELETE", f"/channels/{thread.id}/messages/{old.id}", status=500, times=2)
    await answer(world, game_id, thread)
    assert (await load_game(world, game_id))[1] == version + 1
    assert custom_ids(old), "the old prompt still shows its buttons"
    game, version, mover = await _to_move(world, game_id, thread)
    stale = await press(mover, old)
    told = reply(stale)
    assert told.ephemeral and (await load_game(world, game_id))[1] == version
    # The same answer twice (through the fresh prompt, then again by command for the version it answered): applied
    # once.
    match, _, record = await world.store.load_match(game_id)
    seat = record.seat_of(mover.id).seat
    option = next(p for p in match.prompts() if p.seat == seat).options[0]
    current = await prompt_message(world, game_id, thread)
    menu = next((c for c in components(current) if c.get("type") == 3), None)
    private = current
    if menu is not None:
        private = reply(await mover.select(current, [f"g:{option.group}"], custom_id=menu["custom_id"]))
    first = await mover.click(private, custom_id=f"mt:a:{game_id}:{version}:{option.id}")
    again = await mover.slash(thread, "kokeshi play", choice=f"{version}:{option.id}")
    assert first.acknowledged and again.acknowledged
    assert (await load_game(world, game_id))[1] == version + 1
    assert "no longer current" in reply(again).content or "turn" in reply(again).content
    # The stale button was answered with a private copy of the prompt current then.
    assert told.content.startswith("That choice is no longer current: the game has moved on. Here is your current one")
    assert custom_ids(told) and all(f":{version}:" in c for c in custom_ids(told) if c.startswith("mt:")), told


async def test_undo_takes_back_a_choice_and_the_prompt_shows_it(world):
    game_id, thread = await open_game(world, players=2)
    game, version, mover = await _to_move(world, game_id, thread)
    assert game.prompt.kind == "setup"
    await answer(world, game_id, thread, action=game.legal_actions()[0])
    assert len(await decisions(world, game_id)) == 1
    undone = await mover.slash(thread, "kokeshi undo")
    assert undone.ephemeral and undone.response.content == "Your last choice is taken back."
    assert await decisions(world, game_id) == []
    after, _ = await load_game(world, game_id)
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
    assert all(f"<#{t}>" in status.response.content for t in threads)  # both games listed
    for record in records:
        thread = next(t for t in world.channel.threads if t.id == record.thread_id)
        for _ in range(4):
            await answer(world, record.id, thread, random.Random(record.id))
    assert [len(await decisions(world, r.id)) >= 4 for r in records] == [True, True]


async def test_playing_by_slash_command_with_autocomplete(world):
    game_id, thread = await open_game(world, players=2)
    game, _, mover = await _to_move(world, game_id, thread)
    while game.prompt.kind == "setup":
        _, version = await load_game(world, game_id)
        choices = await mover.autocomplete(thread, "kokeshi play", "choice", "")
        assert {c["value"] for c in choices} <= {f"{version}:{a}" for a in game.legal_actions()}
        placed = await mover.slash(thread, "kokeshi play", choice=choices[0]["value"])
        assert placed.ephemeral and placed.response.content == "Your choice is in."
        game, _, mover = await _to_move(world, game_id, thread)
    _, version = await load_game(world, game_id)
    choices = await mover.autocomplete(thread, "kokeshi play", "choice", "")
    assert [c["value"] for c in choices] == [
        f"{version}:advance:{k}" for k in ("princess", "batchan", "fisherman", "samurai", "sumotori")
    ]
    moves = len(await decisions(world, game_id))
    # A choice typed out in full (the label the buttons show) works as well as one picked from the list.
    label = next(c["name"] for c in choices if c["value"].endswith(":samurai"))
    advanced = await mover.slash(thread, "kokeshi play", choice=label)
    assert advanced.response.content == "Your choice is in."
    log = await decisions(world, game_id)
    assert len(log) == moves + 1 and log[-1].action == "advance:samurai"


@pytest.mark.slow
async def test_board_status_log_rules_help_and_notify_answer_privately(world):
    game_id, thread = await open_game(world, players=2)
    for _ in range(3):
        await answer(world, game_id, thread)
    aiko = world.members[0]
    board = await aiko.slash(thread, "kokeshi table", player="botan")
    assert board.ephemeral and board.response.attachments[0].filename == f"kokeshi-{game_id}-workshop.png"
    assert (await board.response.attachments[0].read()).startswith(b"\x89PNG")
    status = await aiko.slash(thread, "kokeshi status")
    assert status.ephemeral and f"<#{thread.id}>" in status.response.content
    log = await aiko.slash(thread, "kokeshi log", count=3)
    # A heading, then the last 3 steps.
    assert log.ephemeral and log.response.content.count("\n") == 3 and "the last 3 steps" in log.response.content
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
    # (When it is the caller's turn, the turn's own picture comes first.)
    if names[0] == f"kokeshi-{game_id}-turn.png":
        names = names[1:]
    assert table.ephemeral and names == [f"kokeshi-{game_id}-table-phone.png", f"kokeshi-{game_id}-table.png"]
    phone = next(a for a in table.response.attachments if a.filename.endswith("-table-phone.png"))
    phone = Image.open(io.BytesIO(await phone.read()))
    assert phone.width == 900 and phone.height > phone.width, "portrait, for a phone"
    help_ = await aiko.slash(world.channel, "kokeshi help")
    assert help_.ephemeral and "/kokeshi new" in help_.response.content
    notify = await aiko.slash(world.channel, "kokeshi notify on")
    assert notify.ephemeral and await world.store.user_setting(aiko.id, "notify") == "on"

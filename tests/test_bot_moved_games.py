"""Games of Kokeshi's own table moved to the platform's (`Store.to_seat_log`, as the switch to one table will move
every game in progress): the buttons already posted in their threads and lobbies keep working, answered by the
platform, and the game goes on there to its end."""

from __future__ import annotations

import random
import secrets

import pytest

from cogs import components as components_module
from tests.botkit import answer, components, custom_ids, open_game, play_to_end, prompt_message
from tests.test_bot_matches import choose, lobby_message, play_through, reply

# How many decisions are made on the game's own table before it moves, and the most choices its menus show (None:
# as posted): each meets a prompt of another shape there (buttons; a menu; a placement's tile menu, then its track).
# The last is played to its end (every placement of the game through the platform's private tile menus); the others
# for a few turns past the prompt they moved with.
SHAPES = [(1, None, "a"), (2, None, "s"), (2, 4, "t")]


@pytest.mark.slow  # whole games through SimCord
@pytest.mark.parametrize(("before", "menu", "shape"), SHAPES)
async def test_a_game_in_progress_moved_to_the_platform_takes_its_old_buttons_and_is_played_on(
    world, monkeypatch, before, menu, shape
):
    monkeypatch.setattr(secrets, "randbits", random.Random(7).getrandbits)
    if menu is not None:
        monkeypatch.setattr(components_module, "MAX_SELECT", menu)
    w = world
    game_id, thread = await open_game(w, players=2)
    rng = random.Random(3)
    for _ in range(before):  # decisions on its own table first
        assert (await answer(w, game_id, thread, rng)).acknowledged
    assert await w.store.to_seat_log(game_id)
    record = await w.store.get_game(game_id)
    assert not record.named_log
    # The prompt its own table posted is still the live one, with its own buttons or menus.
    old = await prompt_message(w, game_id, thread)
    parts = components(old)
    assert parts and all(c["custom_id"].startswith("kk:") for c in parts)
    match, version, record = await w.store.load_match(game_id)
    [seat] = match.waiting()
    member = next(m for m in w.members if m.user.id == record.seats[seat].user_id)
    kind = parts[0]["custom_id"].split(":")[1]
    assert kind == shape, parts
    if kind == "a":
        ids = [c["custom_id"] for c in parts if c["custom_id"].startswith("kk:a:")]
        clicked = await member.click(old, custom_id=rng.choice(ids))
    elif kind == "s":
        clicked = await member.select(old, [rng.choice(parts[0]["options"])["value"]], custom_id=parts[0]["custom_id"])
    else:  # a tile first: the platform shows that tile's placements privately, as its own menu does
        tile = rng.choice(parts[0]["options"])["value"]
        opened = await member.select(old, [tile], custom_id=parts[0]["custom_id"])
        assert opened.ephemeral and all(i.startswith("mt:") for i in custom_ids(reply(opened)))
        clicked = await choose(member, reply(opened), rng)
    assert clicked.acknowledged
    assert (await w.store.get_game(game_id)).version > version
    # The platform's prompt follows, with its own buttons; the old ones are taken away.
    new = await prompt_message(w, game_id, thread)
    assert custom_ids(new) and all(i.startswith("mt:") for i in custom_ids(new))
    assert not any(i.startswith("kk:") for m in thread.history() for i in custom_ids(m))
    to_end = shape == SHAPES[-1][2]
    played = await play_through(w, game_id, thread, rng, limit=800 if to_end else 12, to_end=to_end)
    assert played > 0
    record = await w.store.get_game(game_id)
    assert record.status == ("finished" if to_end else "active") and not record.named_log
    assert await w.store.verify() == []


async def test_a_lobby_moved_to_the_platform_is_joined_and_started_with_its_old_buttons(world):
    w = world
    aiko, botan = w.members[0], w.members[1]
    opened = await aiko.slash(w.channel, "kokeshi new", players=2)
    assert opened.acknowledged
    record = (await w.store.games_in_channel(w.channel.id))[-1]
    assert record.named_log and record.status == "lobby"
    lobby = await lobby_message(w, record.id)
    assert all(i.startswith("kk:l:") for i in custom_ids(lobby))
    assert await w.store.to_seat_log(record.id)
    joined = await botan.click(lobby, label="Join")
    assert reply(joined).content == f"You joined Kokeshi #{record.id}."
    started = await aiko.click(lobby, label="Start")
    record = await w.store.get_game(record.id)
    assert reply(started).content == f"Kokeshi #{record.id} has started: <#{record.thread_id}>."
    assert record.status == "active" and not record.named_log
    thread = next(t for t in w.channel.threads if t.id == record.thread_id)
    prompt = await prompt_message(w, record.id, thread)
    assert custom_ids(prompt) and all(i.startswith("mt:") for i in custom_ids(prompt))


@pytest.mark.slow  # a whole game through SimCord
async def test_a_finished_game_moved_to_the_platform_keeps_its_replay_and_rematch_buttons(world):
    w = world
    aiko, botan = w.members[0], w.members[1]
    game_id, thread = await open_game(w, players=2)
    await play_to_end(w, game_id, thread, seed=4)
    final = thread.history()[-1]
    assert {"Replay", "Rematch"} <= {c.get("label") for c in components(final)}
    assert await w.store.to_seat_log(game_id)
    # Its replay, read through the platform now, steps from the first turn to the last.
    replay = await botan.click(final, label="Replay")
    assert replay.ephemeral and reply(replay).attachments and "turn 1 of" in reply(replay).content.lower()
    # Its rematch opens a lobby at the platform's table, for the same people.
    again = await aiko.click(final, label="Rematch")
    assert again.acknowledged
    lobby = (await w.store.games_in_channel(w.channel.id))[-1]
    assert lobby.id != game_id and lobby.status == "lobby" and not lobby.named_log, lobby
    assert await w.store.verify() == []

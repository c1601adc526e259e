"""Games of Kokeshi's own table moved to the platform's (`Store.to_seat_log`, as the switch to one table will move
every game in progress): the buttons already posted in their threads and lobbies keep working, answered by the
platform, and the game goes on there to its end."""

from __future__ import annotations

import random
import secrets

import discord
import pytest

from bot import create_bot
from cogs.rematch import RematchButton
from cogs.replay_items import replay_view
from storage import TurnPosts
from tests import own_table
from tests.botkit import World, components, custom_ids, message_in, prompt_message, restart
from tests.dbkit import named_log_game
from tests.test_bot_matches import choose, lobby_message, play_through, reply


async def _posted(w: World, game_id: int) -> None:
    """The lobby message of a game of Kokeshi's own table, with its `kk:l:` buttons, and its thread, as that table
    posted them."""
    host = w.members[0]
    channel = w.bot.get_channel(w.channel.id)
    posted = await channel.send(embed=discord.Embed(title=f"Kokeshi #{game_id}"), view=own_table.lobby_view(game_id))
    await w.store.set_message(game_id, "lobby", channel.id, posted.id)
    thread = await posted.create_thread(name=f"Kokeshi #{game_id} — {host.user.name}")
    await w.store.set_thread(game_id, thread.id)


async def own_table_lobby(w: World, players: int = 2, *, ai: int = 0) -> tuple[int, object]:
    """A lobby of Kokeshi's own table, as `/kokeshi new` opened one before it opened them at the platform's: its rows
    as that version wrote them (`dbkit.named_log_game`: its log by name), its message with the own table's `kk:l:`
    buttons and its thread, as the own table posted them. (game id, the lobby)."""
    host = w.members[0]
    robots = [f"AI {i + 1}" for i in range(ai)]
    game_id = named_log_game(
        w.store.path, [host.user.name, *robots], seed=0, dealt=False, players=players, users=[host.user.id],
        ai=robots, ai_level="normal" if ai else None, guild_id=w.guild.id, channel_id=w.channel.id, language="en",
    )  # fmt: skip
    record = await w.store.get_game(game_id)
    assert record.named_log
    await _posted(w, game_id)
    return game_id, await lobby_message(w, game_id)


async def own_table_game(
    w: World, players: int = 2, *, decisions: int = 0, rng: random.Random | None = None, to_end: bool = False
) -> tuple[int, object]:
    """A game of Kokeshi's own table as an upgrade finds it: seated, dealt and played as that version wrote it
    (`dbkit.named_log_game`: its log by the players' names), `decisions` (or, `to_end`, every decision) made there,
    and its live prompt posted in its thread with the own table's buttons and menus (`tests.own_table`), or, once
    over, its final message with *Replay* and *Rematch*. (game id, its thread.)"""
    rng = rng or random.Random(0)
    people = w.members[:players]
    game_id = named_log_game(
        w.store.path, [m.user.name for m in people], seed=rng.randrange(10**9), moves=None if to_end else decisions,
        policy=rng.randrange(10**9), users=[m.user.id for m in people], guild_id=w.guild.id,
        channel_id=w.channel.id, language="en",
    )  # fmt: skip
    await _posted(w, game_id)
    record = await w.store.get_game(game_id)
    assert record.named_log and record.status == ("finished" if to_end else "active")
    channel = w.bot.get_channel(record.thread_id)
    match, version, _record = await w.store.load_match(game_id)
    game = match.engine  # dealt with the players' names, as the own table dealt it
    if game.prompt is None:
        view = replay_view(game_id)
        view.add_item(RematchButton(game_id, "Rematch"))
        await channel.send(f"Kokeshi #{game_id} is over.", view=view)
    else:
        posted = await channel.send(
            f"{game.prompt.player} — your turn.", view=own_table.prompt_view(game_id, version, game.prompt, game)
        )
        key = f"{game.round_number}:{sum(game.turns)}:{game.prompt.player}"
        posts = TurnPosts(game_id, record.moves, version, key, version)
        await w.store.set_turn_posts(posts, prompt=(channel.id, posted.id))
    return game_id, next(t for t in w.channel.threads if t.id == record.thread_id)


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
        monkeypatch.setattr(own_table, "MAX_SELECT", menu)
    w = world
    rng = random.Random(3)
    game_id, thread = await own_table_game(w, players=2, decisions=before, rng=rng)  # decisions on its own table
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
    game_id, lobby = await own_table_lobby(w, players=2)
    record = await w.store.get_game(game_id)
    assert record.named_log and record.status == "lobby"
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
    game_id, thread = await own_table_game(w, players=2, rng=random.Random(4), to_end=True)
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


async def click_old(member, old, rng: random.Random):
    """A choice made on a prompt Kokeshi's own table posted (`kk:` ids): a button, a menu's entry, or a tile, then
    one of its placements as the platform shows them privately."""
    parts = components(old)
    kind = parts[0]["custom_id"].split(":")[1]
    if kind == "a":
        ids = [c["custom_id"] for c in parts if c["custom_id"].startswith("kk:a:")]
        return await member.click(old, custom_id=rng.choice(ids))
    if kind == "s":
        return await member.select(old, [rng.choice(parts[0]["options"])["value"]], custom_id=parts[0]["custom_id"])
    tile = rng.choice(parts[0]["options"])["value"]
    opened = await member.select(old, [tile], custom_id=parts[0]["custom_id"])
    assert opened.ephemeral and all(i.startswith("mt:") for i in custom_ids(reply(opened)))
    return await choose(member, reply(opened), rng)


async def test_a_start_moves_every_game_of_the_own_table_to_the_platforms_and_their_buttons_go_on(world, db_path):
    w = world
    rng = random.Random(4)
    game_id, thread = await own_table_game(w, players=2, decisions=2, rng=rng)
    lobby_id, lobby = await own_table_lobby(w, players=2)
    old = await prompt_message(w, game_id, thread)
    assert all(c["custom_id"].startswith("kk:") for c in components(old))
    assert await w.store.named_log_games() == [game_id, lobby_id]
    # The bot stops and starts again: every game of its own table moves before any timer fires.
    await restart(w, create_bot(db_path))
    await w.env.settle()
    assert await w.store.named_log_games() == []
    assert all(not r.named_log for r in await w.store.games_in_channel(w.channel.id))
    # The prompt posted before is answered by the platform; the game goes on there.
    match, version, record = await w.store.load_match(game_id)
    [seat] = match.waiting()
    member = next(m for m in w.members if m.user.id == record.seats[seat].user_id)
    assert (await click_old(member, message_in(thread, old.id), rng)).acknowledged
    assert (await w.store.get_game(game_id)).version > version
    new = await prompt_message(w, game_id, thread)
    assert custom_ids(new) and all(i.startswith("mt:") for i in custom_ids(new))
    assert await play_through(w, game_id, thread, rng, limit=6, to_end=False) > 0
    # The lobby posted before is joined and started with its own buttons.
    joined = await w.members[1].click(lobby, label="Join")
    assert "You joined" in reply(joined).content
    started = await w.members[0].click(lobby, label="Start")
    assert "has started" in reply(started).content, reply(started).content
    assert (await w.store.get_game(lobby_id)).status == "active"
    assert await w.store.verify() == [] and w.env.errors == []

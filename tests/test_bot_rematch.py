"""Rematch: from a table's final message to the first turn of a new game with the same options and people."""

from __future__ import annotations

import pytest

from bot import create_bot
from cogs.seating import reversed_order
from tests import own_table
from tests.botkit import (
    answer,
    components,
    custom_ids,
    load_game,
    lobby_message,
    new_lobby,
    open_game,
    prompt_message,
    restart,
)
from tests.test_bot_replay import played_in_store
from tests.test_bot_share import finished_challenge


async def finished_table(w, players: int = 4, **options):
    """A table opened through Discord, played to its end through the store, and a final message posted with the
    buttons Kokeshi's own table gave it (`kk:m` Rematch): (game id, the final message)."""
    game_id, thread = await open_game(w, players=players, **options)
    await played_in_store(w, game_id, seed=4)
    record = await w.store.get_game(game_id)
    await own_table.post_final(await w.bot.tables.game_channel(record), game_id)
    final = thread.history()[-1]
    assert "is over" in final.content
    return game_id, final


def reply(result):
    return result.followups[-1] if result.followups else result.response


def test_the_seats_are_reversed_and_turned_so_that_the_host_sits_first():
    assert reversed_order(["aiko", "AI 1", "botan", "chiyo"], "botan") == ["botan", "AI 1", "aiko", "chiyo"]
    assert reversed_order(["aiko", "botan"], "aiko") == ["aiko", "botan"]
    assert reversed_order(["a", "b", "c"], "a") == ["a", "c", "b"]


@pytest.mark.slow
async def test_a_rematch_from_the_final_message_reaches_its_first_turn_with_the_same_options(world):
    aiko, botan, chiyo, daichi = world.members
    # A table of `/kokeshi new` (at the platform's table), played to its end; the thread shows its end as the
    # platform does, with its Rematch button.
    old_id, thread = await open_game(world, players=4, ai=1, level="hard", side="advanced", timer=6 * 3600)
    await played_in_store(world, old_id, seed=4)
    assert await world.bot.matches.show_again(old_id)
    final = thread.history()[-1]
    assert "is over" in final.content
    old = await world.store.get_game(old_id)
    assert [s.name for s in old.seats] == ["aiko", "AI 1", "botan", "chiyo"]
    assert f"mt:r:{old_id}" in custom_ids(final)
    before = len(await world.store.games_in_channel(world.channel.id))

    # Botan asks for it: a new lobby in the same channel, Botan hosting, the AI seat kept at its level.
    asked = await botan.click(final, custom_id=f"mt:r:{old_id}")
    assert asked.acknowledged and asked.ephemeral and "is open" in reply(asked).content
    lobbies = await world.store.games_in_channel(world.channel.id)
    assert len(lobbies) == before + 1
    new = lobbies[-1]
    assert (new.status, new.host_id, new.channel_id) == ("lobby", botan.id, world.channel.id)
    assert (new.players, new.side, new.turn_timer, new.language) == (4, "advanced", 6 * 3600, old.language)
    assert [(s.name, s.user_id, s.ai_level) for s in new.seats] == [("botan", botan.id, None), ("AI 1", None, "hard")]
    # Kokeshi's own rematch planned the seats in the reverse of the last game's (who played after you now plays
    # before you): host first.
    assert new.settings["rematch"] == {
        "of": old_id,
        "seating": [f"u{botan.id}", "nAI 1", f"u{aiko.id}", f"u{chiyo.id}"],
    }
    lobby = await lobby_message(world, new.id)
    # Everyone else from the table is invited, each mentioned once; only the invited are pinged. Botan is named
    # twice: as who asked, and in the first seat.
    for member in (aiko, chiyo):
        assert lobby.content.count(member.mention) == 1, lobby.content
    assert lobby.content.count(botan.mention) == 2, lobby.content
    assert daichi.mention not in lobby.content
    stored = world.env.backend.get_message(lobby.channel.id, lobby.id)
    assert sorted(stored.ping_user_ids) == sorted([aiko.id, chiyo.id])
    assert "reverse of the last game" in lobby.content and "botan → AI 1 → aiko → chiyo" in lobby.content
    assert "AI 1 (AI, hard)" in lobby.content

    # A second click points at that lobby instead of opening another.
    again = await chiyo.click(final, custom_id=f"mt:r:{old_id}")
    assert "already open" in reply(again).content and "Join" in reply(again).content
    assert len(await world.store.games_in_channel(world.channel.id)) == before + 1

    # One click each to accept: chiyo first, then aiko; the seats follow the plan, not the order of the clicks.
    for member in (chiyo, aiko):
        joined = await member.click(lobby, label="Join")
        assert "You joined" in reply(joined).content
    new = await world.store.get_game(new.id)
    assert [s.name for s in new.seats] == ["botan", "AI 1", "aiko", "chiyo"]
    assert [s.seat for s in new.seats] == [0, 1, 2, 3]
    assert new.seat_named("AI 1").ai_level == "hard"
    seated = (await lobby_message(world, new.id)).content
    assert f"{botan.mention}, AI 1 (AI, hard), {aiko.mention}, {chiyo.mention}" in seated, seated

    # Botan starts it: the first turn is up in its thread, seated round the table as planned.
    started = await botan.click(await lobby_message(world, new.id), label="Start")
    assert started.acknowledged
    new = await world.store.get_game(new.id)
    assert new.status == "active"
    game, _version = await load_game(world, new.id)
    planned = ["botan", "AI 1", "aiko", "chiyo"]
    first = planned.index(game.players[0])
    assert list(game.players) == planned[first:] + planned[:first]
    thread = next(t for t in world.channel.threads if t.id == new.thread_id)
    prompt = await prompt_message(world, new.id, thread)
    mover = world.member(game.prompt.player)
    assert "Your turn: " in prompt.content and mover.mention in prompt.content and components(prompt)
    played = await answer(world, new.id, thread)
    assert played.acknowledged
    assert (await load_game(world, new.id))[1] > _version
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_rematch_is_refused_past_the_limits_and_to_someone_who_was_not_at_the_table(world):
    aiko, botan, _chiyo, daichi = world.members
    old_id, final = await finished_table(world, players=2)
    count = len(await world.store.games_in_channel(world.channel.id, statuses=("lobby", "active", "finished")))
    stranger = await daichi.click(final, custom_id=f"kk:m:{old_id}")
    assert stranger.ephemeral and "Only the players of Kokeshi" in reply(stranger).content
    # Botan already has an open lobby, and this server allows one open game per person.
    await world.store.set_guild_setting(world.guild.id, "open_per_user", "1")
    await new_lobby(world, botan)
    refused = await botan.click(final, custom_id=f"kk:m:{old_id}")
    assert "You are already in 1 open game in this server" in reply(refused).content
    games = await world.store.games_in_channel(world.channel.id, statuses=("lobby", "active", "finished"))
    assert len(games) == count + 1  # only Botan's own lobby
    assert await world.store.meta(f"rematch_of:{old_id}") is None
    # Aiko may: her rematch opens, and Botan is invited to it.
    opened = await aiko.click(final, custom_id=f"kk:m:{old_id}")
    assert "is open" in reply(opened).content
    rematch = (await world.store.games_in_channel(world.channel.id))[-1]
    assert rematch.host_id == aiko.id and botan.mention in (await lobby_message(world, rematch.id)).content
    assert world.env.errors == []


@pytest.mark.slow  # a whole challenge and a restart through SimCord
async def test_the_rematch_and_share_buttons_work_after_a_restart(world, db_path):
    aiko, botan = world.members[:2]
    old_id, final = await finished_table(world, players=2)
    record, challenge_final = await finished_challenge(world, aiko)
    await restart(world, create_bot(db_path))
    # The restarted bot has rematch plans to read back as well: botan's click opens it, aiko's join follows it.
    opened = await botan.click(final, custom_id=f"kk:m:{old_id}")
    assert "is open" in reply(opened).content
    rematch = (await world.store.games_in_channel(world.channel.id))[-1]
    await restart(world, create_bot(db_path))
    await aiko.click(await lobby_message(world, rematch.id), label="Join")
    assert [s.name for s in (await world.store.get_game(rematch.id)).seats] == ["botan", "aiko"]
    shared = await aiko.click(challenge_final, custom_id=f"mt:p:{record.id}")
    assert "Shared:" in reply(shared).content
    assert world.env.errors == []


@pytest.mark.simcord(settle_timeout=20)  # the AI plays the games out while the resignations are answered
@pytest.mark.slow
async def test_a_person_whose_seat_the_ai_took_sits_again_in_the_rematch_and_is_invited_to_it(world):
    from tests.test_bot_matches import open_table

    aiko, botan = world.members[:2]
    # Against an AI seat: aiko resigns, the AI plays her seat to the end; her rematch is her and the AI again, and
    # starts at once, the AI at the level it had.
    old_id, thread = await open_table(world, "kohaku", players=2, joiners=0, ai=1, level="easy")
    assert "You resigned" in reply(await aiko.slash(thread, "games resign")).content
    assert (await world.store.get_game(old_id)).status == "finished"
    asked = await aiko.click(await final_of(world, old_id, thread), custom_id=f"mt:r:{old_id}")
    assert "has started" in reply(asked).content, reply(asked).content
    again = (await world.store.games_in_channel(world.channel.id))[-1]
    assert again.id != old_id and again.status == "active"
    assert {(s.name, s.user_id, s.ai, s.ai_level) for s in again.seats} == {
        ("aiko", aiko.user.id, False, None),
        ("AI 1", None, True, "easy"),
    }
    # Two people who both resign: aiko's rematch invites botan back to a person's seat, not the AI to it.
    old_id, thread = await open_table(world, "kohaku", players=2, joiners=1)
    for person in (botan, aiko):
        assert "You resigned" in reply(await person.slash(thread, "games resign")).content
    asked = await aiko.click(await final_of(world, old_id, thread), custom_id=f"mt:r:{old_id}")
    lobby = (await world.store.games_in_channel(world.channel.id))[-1]
    assert lobby.status == "lobby" and [s.name for s in lobby.seats] == ["aiko"], reply(asked).content
    invitation = await lobby_message(world, lobby.id)
    assert f"<@{botan.user.id}>" in invitation.content, invitation.content
    joined = await botan.click(invitation, label="Join")
    assert "You joined" in reply(joined).content, reply(joined).content
    assert [(s.name, s.ai) for s in (await world.store.get_game(lobby.id)).seats] == [("aiko", False), ("botan", False)]


async def final_of(w, game_id: int, thread):
    """The thread's final post of `game_id`, once the channel's pace has let every post of its end through."""
    for _ in range(30):
        await w.env.advance_time(5)
    final = thread.history()[-1]
    assert f"mt:r:{game_id}" in custom_ids(final), final.content
    return final

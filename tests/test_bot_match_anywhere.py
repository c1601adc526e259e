"""The platform's solo tables and challenges anywhere, as Kokeshi's own solo games: in a server, a thread of its
channel; in the player's DM with the bot, the DM itself (no server, no thread), whether started there or from a place
where only the player installed the app (tests/test_bot_anywhere_private.py)."""

from __future__ import annotations

import random

import pytest

from tests.botkit import custom_ids, texts
from tests.test_bot_matches import choose, current_prompt, reply


@pytest.mark.slow  # a whole game through SimCord
async def test_a_challenge_of_another_game_is_played_in_the_dm_itself_to_its_final_message(world):
    user = world.members[0].user
    started = await user.slash("games challenge", game="kohaku", kind="daily")
    [record] = await world.store.games_for_user(user.id)
    dm = user.dm_channel
    # No server and no thread: the DM is the game's place, and the answer links to it.
    assert record.guild_id is None and record.channel_id == dm.id == record.thread_id
    assert record.challenge.startswith("daily:") and not record.named_log
    assert started.ephemeral and "Your solo game has started: " in reply(started).content
    assert f"/channels/@me/{dm.id}" in reply(started).content
    assert any("daily challenge" in t for t in texts(dm))
    rng = random.Random(4)
    for _ in range(200):
        record = await world.store.get_game(record.id)
        if record.status != "active":
            break
        prompt = await current_prompt(world, record.id, dm)
        assert custom_ids(prompt), prompt.content
        assert (await choose(user, prompt, rng)).acknowledged
    assert record.status == "finished"
    # The final message, with the places, is the DM's last; the game counts as the player's attempt.
    final = dm.history()[-1]
    assert f"Kōhaku #{record.id}" in final.content and "over" in final.content.lower(), final.content
    kind, _sep, key = record.challenge.partition(":")
    assert await world.store.challenge_attempts(user.id, kind, key, game="kohaku")


async def test_a_challenge_of_kokeshi_at_the_platform_starts_in_the_dm_and_takes_a_click_there(world):
    user = world.members[1].user
    started = await user.slash("games challenge", game="kokeshi", kind="weekly")
    [record] = await world.store.games_for_user(user.id)
    dm = user.dm_channel
    assert record.guild_id is None and record.thread_id == dm.id and not record.named_log
    assert "Your solo game has started: " in reply(started).content
    # A challenge is played alone by everyone: no hint, whichever command asks for it.
    hinted = await user.slash("kokeshi hint", game=record.id)
    assert reply(hinted).content == "Hints are off in daily and weekly challenges: everyone plays those on their own."
    prompt = await current_prompt(world, record.id, dm)
    assert "Your turn" in prompt.content and prompt.attachments
    chosen = await choose(user, prompt, random.Random(1))
    assert chosen.acknowledged
    assert (await world.store.get_game(record.id)).version > record.version


async def test_a_table_for_several_is_still_refused_in_a_dm(world):
    user = world.members[0].user
    refused = await user.slash("games new", game="kohaku", players=2)
    assert refused.ephemeral and "server" in reply(refused).content
    assert await world.store.games_for_user(user.id) == []

"""Another game's table once it is over: the same game again from its final post (Rematch, or Play again alone)."""

from __future__ import annotations

import random

from tests.botkit import World, components, custom_ids, lobby_message
from tests.test_bot_matches import bids, open_table, play_through, reply

__all__ = ["bids"]  # the fixture, used by name
ALL = ("lobby", "active", "finished", "cancelled")


async def finish(w: World, game_id: int, thread, seed: int):
    """Play the table to its end; its final post."""
    await play_through(w, game_id, thread, random.Random(seed))
    final = thread.history()[-1]
    assert "is over" in final.content
    return final


def rematch_id(message) -> str:
    return next(c for c in custom_ids(message) if c.startswith("mt:r:"))


async def test_a_rematch_opens_a_lobby_that_invites_the_other_people_once(world, bids):
    w = world
    aiko, botan, chika = w.members[:3]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    final = await finish(w, game_id, thread, 3)
    assert rematch_id(final) == f"mt:r:{game_id}"
    # Someone who did not play cannot ask for it; nothing opens.
    outsider = await chika.click(final, custom_id=rematch_id(final))
    assert outsider.ephemeral and "Only the players" in reply(outsider).content
    assert len(await w.store.games_in_channel(w.channel.id, ALL)) == 1
    # Botan asks: a lobby in the game's channel, Botan hosting, Aiko mentioned and asked to join.
    asked = await botan.click(final, custom_id=rematch_id(final))
    assert asked.ephemeral and "is open" in reply(asked).content, reply(asked).content
    again = (await w.store.games_in_channel(w.channel.id, ALL))[-1]
    assert again.id != game_id and again.game == "bids" and again.status == "lobby"
    assert again.host_id == botan.user.id and [s.user_id for s in again.seats] == [botan.user.id]
    assert again.settings.get("rematch") == {"of": game_id}
    lobby = await lobby_message(w, again.id)
    assert f"Rematch of Bids #{game_id}" in lobby.content
    assert f"<@{aiko.user.id}>" in lobby.content and "Join" in lobby.content
    # A second click, by either, points to the lobby already open instead of opening another.
    second = await aiko.click(final, custom_id=rematch_id(final))
    assert "already open" in reply(second).content and "Join" in reply(second).content
    mine = await botan.click(final, custom_id=rematch_id(final))
    assert "You have your seat" in reply(mine).content
    assert len(await w.store.games_in_channel(w.channel.id, ALL)) == 2
    # Aiko joins, Botan starts: the rematch is played like any table.
    await aiko.click(lobby, label="Join")
    started = await botan.click(lobby, label="Start")
    assert "has started" in reply(started).content
    record = await w.store.get_game(again.id)
    assert record.status == "active"
    thread2 = next(t for t in w.channel.threads if t.id == record.thread_id)
    await finish(w, again.id, thread2, 4)
    assert len(await w.store.results(again.id)) == 2
    # Once it is under way, the first table's button says where it is.
    later = await aiko.click(final, custom_id=rematch_id(final))
    assert "already being played, or over" in reply(later).content


async def test_against_the_ai_alone_play_again_starts_at_once_with_the_same_seats(world, bids):
    w = world
    aiko = w.members[0]
    game_id, thread = await open_table(w, "bids", players=2, joiners=0, ai=1, level="hard")
    final = await finish(w, game_id, thread, 5)
    button = next(c for c in components(final) if c.get("custom_id") == rematch_id(final))
    assert button["label"] == "Rematch"
    started = await aiko.click(final, custom_id=rematch_id(final))
    assert "has started" in reply(started).content, reply(started).content
    again = (await w.store.games_in_channel(w.channel.id, ALL))[-1]
    assert again.status == "active" and again.id != game_id
    robots = [s for s in again.seats if s.ai]
    assert len(robots) == 1 and robots[0].ai_level == "hard"
    assert (await w.store.load_match(again.id))[0].seats == 2

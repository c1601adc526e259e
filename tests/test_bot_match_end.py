"""Another game's table once it is over: the same game again (Rematch, or Play again alone), a challenge's card."""

from __future__ import annotations

import random

import pytest

import games
from tests.botkit import World, components, custom_ids, lobby_message
from tests.test_bot_matches import open_table, play_through, reply

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
    # Its seats planned: the last game's reversed, the host first.
    assert again.settings.get("rematch") == {"of": game_id, "seating": [f"u{botan.user.id}", f"u{aiko.user.id}"]}
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


async def test_a_rematch_seats_its_players_in_the_reverse_order_of_the_last_game_whatever_the_order_they_join(
    world, bids
):
    w = world
    aiko, botan, chika = w.members[:3]
    game_id, thread = await open_table(w, "bids", players=3, joiners=2)
    played = await w.store.get_game(game_id)
    names = {s.user_id: s.name for s in played.seats}
    assert [s.user_id for s in played.seats] == [aiko.user.id, botan.user.id, chika.user.id]
    final = await finish(w, game_id, thread, 6)
    # Chika asks: who played after her (no one: round the table, aiko) now plays before her, and so on.
    asked = await chika.click(final, custom_id=rematch_id(final))
    assert "is open" in reply(asked).content, reply(asked).content
    again = (await w.store.games_in_channel(w.channel.id, ALL))[-1]
    lobby = await lobby_message(w, again.id)
    order = " → ".join(names[m.user.id] for m in (chika, botan, aiko))
    assert f"reverse of the last game (who played after you now plays before you): {order}." in lobby.content
    # Aiko joins first, then botan: the seats follow the plan, not the clicks, and the lobby shows them so.
    await aiko.click(lobby, label="Join")
    await botan.click(lobby, label="Join")
    seated = await w.store.get_game(again.id)
    assert [s.user_id for s in seated.seats] == [chika.user.id, botan.user.id, aiko.user.id]
    lobby = await lobby_message(w, again.id)
    assert ", ".join(f"<@{m.user.id}>" for m in (chika, botan, aiko)) in lobby.content, lobby.content
    started = await chika.click(lobby, label="Start")
    assert "has started" in reply(started).content, reply(started).content
    # The game is dealt in that order (a match knows its seats by number).
    record = await w.store.get_game(again.id)
    assert record.status == "active"
    assert [s.user_id for s in sorted(record.seats, key=lambda s: s.seat)] == [m.user.id for m in (chika, botan, aiko)]


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


async def finished_kohaku_daily(w: World, member):
    """The member's Kōhaku daily played to its end through the store (the easy AI deciding), its final post
    made as the table makes it: (record, final post)."""
    await member.slash(w.channel, "games challenge", game="kohaku", kind="daily")
    record = (await w.store.games_in_channel(w.channel.id, statuses=("active",)))[-1]
    module = games.get("kohaku")
    match, version, record = await w.store.load_match(record.id)
    rng = random.Random(8)
    while not match.is_over:
        seat = match.waiting()[0]
        action = module.decide(match, seat, "easy", rng.randrange(2**32))
        played = await w.store.play_match(record.id, version, seat, action)
        match, version = played.match, played.record.version
    record = await w.store.get_game(record.id)
    await w.bot.matches._advance(record, match, [])
    thread = next(t for t in w.channel.threads if t.id == record.thread_id)
    return record, thread.history()[-1]


@pytest.mark.slow
async def test_a_challenges_result_is_shared_as_a_card_by_its_player_only(world):
    w = world
    aiko, botan = w.members[:2]
    record, final = await finished_kohaku_daily(w, aiko)
    # A challenge is not played again from its post: its button shares the result (beside the replay).
    assert custom_ids(final) == [f"mt:p:{record.id}", f"kk:r:{record.id}:0:open"]
    refused = await botan.click(final, custom_id=f"mt:p:{record.id}")
    assert refused.ephemeral and "Only the player" in reply(refused).content
    before = len(w.channel.history())
    shared = await aiko.click(final, custom_id=f"mt:p:{record.id}")
    assert shared.ephemeral and "Shared:" in reply(shared).content, reply(shared).content
    posted = w.channel.history()[-1]
    assert len(w.channel.history()) == before + 1
    mine = next(r for r in await w.store.results(record.id) if r.user_id == aiko.user.id)
    lines = posted.content.split("\n")
    assert lines[0].startswith("**Kōhaku** · Daily challenge")
    assert f"<@{aiko.user.id}>: **{mine.total}** point" in lines[1] and "#1 of 1 so far" in lines[1]
    assert "1-day streak" in lines[1]
    # Each score item in the game's own words, with its points; how to play the same deal.
    # (without goal cards, a daily's card has no goal card's line)
    module_items = [k for k in games.get("kohaku").stat_keys if k not in ("total", "goal")]
    assert len(lines[2].split(" · ")) == len(module_items) and "Goal" not in lines[2]
    assert lines[3] == "Same draws for everyone today: `/games challenge` with Kōhaku."
    assert posted.attachments and posted.attachments[0].filename.startswith("kohaku-")
    # Nothing that helps another player: no seed, no board, no tiles.
    assert str(record.seed) not in posted.content and "board" not in posted.content.lower()

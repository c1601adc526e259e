"""The platform's tables where Discord refuses or forgets, handled as Kokeshi's are (through `cogs.reach.Reach`): a
server that removes the bot pauses them, a sleeping thread is woken, a deleted one replaced by a new thread with the
live turn, a refused post backed off from and explained by `/games status`.

SimCord answers as Discord would only when told to: these tests inject the errors Discord returns (400 50083 Thread
archived, 404 10003 Unknown Channel, 403 50013 Missing Permissions, 403 50001 Missing Access after a removal)."""

from __future__ import annotations

import random

import pytest

from cogs.refusals import UNREACHABLE_AFTER, attempts_within
from tests import test_bot_refusals as kokeshis
from tests.botkit import custom_ids
from tests.test_bot_match_reach import said
from tests.test_bot_matches import choose, current_prompt, open_table
from tests.test_bot_refusals import add_bot_back, lift, refuse, remove_bot, wait

# Every request Discord (SimCord) refused, as seen at the transport: the fixture of Kokeshi's own refusal tests.
refusals = kokeshis.refusals

HOUR = 3600.0
DAY = 24 * HOUR
TURN_TIMERS = {"reminder_half", "reminder_late", "deadline"}


def told(result) -> str:
    """Everything the bot answered privately to one interaction."""
    return "\n".join(m.content for m in [result.response, *result.followups] if m is not None and m.content)


async def bid(member, w, game_id: int, thread, rng: random.Random):
    """`member` bids where the thread asks it (privately behind its prompt while both bid, on the prompt itself when
    only one seat is left to): the result of the bid's click."""
    prompt = await current_prompt(w, game_id, thread)
    if custom_ids(prompt)[0].startswith("mt:c:"):
        opened = await member.click(prompt, custom_id=custom_ids(prompt)[0])
        prompt = next(m for m in (opened.response, *opened.followups) if m is not None and custom_ids(m))
    chosen = await choose(member, prompt, rng)
    assert chosen.acknowledged
    return chosen


async def bid_round(w, game_id: int, thread, rng: random.Random) -> list:
    """aiko then botan bid: a new turn. The result of each one's bid."""
    return [await bid(member, w, game_id, thread, rng) for member in w.members[:2]]


@pytest.mark.usefixtures("bids")
async def test_an_archived_thread_is_woken_and_the_post_made(world, refusals):
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    first = await current_prompt(w, game_id, thread)
    # Discord put the thread to sleep: its next post is refused once with 50083, as for a thread archived.
    w.env.backend.faults.append(
        {
            "method": "POST",
            "path": f"/channels/{thread.id}/messages",
            "status": 400,
            "code": 50083,
            "message": "Thread is archived",
            "times": 1,
        }
    )
    clicks = await bid_round(w, game_id, thread, random.Random(1))
    assert all("saved, but" not in told(c) for c in clicks)
    assert [r.code for r in refusals] == [50083]
    assert any(r.method == "PATCH" and r.path == f"/channels/{thread.id}" for r in w.env.http_requests)
    second = await current_prompt(w, game_id, thread)
    assert second.id != first.id and custom_ids(second)[0].startswith("mt:c:")
    assert await w.store.reach(game_id) is None
    assert {t.kind for t in await w.store.timers(game_id)} == TURN_TIMERS
    assert w.env.errors == []


@pytest.mark.usefixtures("bids")
async def test_a_deleted_thread_gives_the_table_a_new_thread_with_its_live_turn(world):
    w = world
    aiko = w.members[0]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    w.env.backend.delete_channel(thread.id)  # Discord tells the bot (THREAD_DELETE)
    await w.env.settle()
    record = await w.store.get_game(game_id)
    assert record.thread_id != thread.id
    new = next(t for t in w.channel.threads if t.id == record.thread_id)
    assert new.name == f"Bids #{game_id} (continued)"
    [note] = [m for m in w.channel.history() if "was deleted" in m.content]
    assert note.content.startswith(f"The thread of Bids #{game_id} was deleted")
    prompt = await current_prompt(w, game_id, new)
    assert aiko.mention in prompt.content and custom_ids(prompt)[0].startswith("mt:c:")
    # The table goes on there.
    await bid_round(w, game_id, new, random.Random(2))
    assert (await current_prompt(w, game_id, new)).id != prompt.id
    assert w.env.errors == []


@pytest.mark.usefixtures("bids")
async def test_a_channel_deleted_with_its_thread_pauses_the_table_and_tells_its_host_once(world, refusals):
    w = world
    aiko = w.members[0]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    # Both go at once (Discord sends THREAD_DELETE and CHANNEL_DELETE): two ways to the same refusal, one DM.
    w.env.backend.delete_channel(thread.id)
    w.env.backend.delete_channel(w.channel.id)
    await w.env.settle()
    reach = await w.store.reach(game_id)
    assert reach is not None and reach.unreachable_at is not None and reach.told_at is not None
    dm = w.env.backend.dm_channels.get(aiko.id)
    assert dm is not None
    told_host = [m for m in aiko.user.dm_channel.history() if "was deleted" in m.content]
    assert len(told_host) == 1, [m.content for m in told_host]
    assert f"Bids #{game_id}" in told_host[0].content
    # Later attempts tell no one again.
    await wait(w, 5 * HOUR)
    assert len([m for m in aiko.user.dm_channel.history() if "was deleted" in m.content]) == 1


@pytest.mark.usefixtures("bids")
async def test_a_thread_discord_says_is_gone_is_replaced_at_once_and_the_player_told(world, refusals):
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    # Deleted while the bot was not listening: Discord answers its next post 404 Unknown Channel.
    refuse(w, "*", f"/channels/{thread.id}*", 404, 10003, "Unknown Channel")
    rng = random.Random(3)
    clicked = await bid(w.members[0], w, game_id, thread, rng)
    record = await w.store.get_game(game_id)
    assert record.thread_id != thread.id
    new = next(t for t in w.channel.threads if t.id == record.thread_id)
    assert f"Bids #{game_id} goes on in a new one: <#{new.id}>" in told(clicked)
    # The turn's prompt is there, and botan bids on it.
    await bid(w.members[1], w, game_id, new, rng)
    prompt = await current_prompt(w, game_id, new)
    assert custom_ids(prompt)[0].startswith("mt:c:")
    assert {r.code for r in refusals} == {10003}
    assert await w.store.reach(game_id) is None
    assert {t.kind for t in await w.store.timers(game_id)} == TURN_TIMERS


@pytest.mark.slow  # a server removes the bot and adds it back, its table resumed through SimCord
@pytest.mark.usefixtures("bids")
async def test_a_server_that_removes_the_bot_pauses_its_tables_until_it_is_added_back(world, refusals):
    w = world
    aiko = w.members[0]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    old = await current_prompt(w, game_id, thread)
    saved = remove_bot(w)
    await w.env.settle()
    assert await w.store.timers(game_id) == []
    start = len(w.env.http_requests)
    await wait(w, 2 * DAY)  # past the turn's deadline: no time-out, no reminder, no request
    assert refusals == [] and len(w.env.http_requests) == start
    assert await w.store.match_decisions(game_id) == []
    # `/games status`, asked in the DM with the bot, says why the game waits and what frees it.
    [line] = said(await aiko.user.slash("games status")).splitlines()[1:]
    assert "Paused: I was removed from its server" in line and "adds me back" in line, line

    # Added back: its live turn is posted again, with a full day from now.
    add_bot_back(w, saved)
    await w.env.advance_time(1)
    prompt = await current_prompt(w, game_id, thread)
    assert prompt.id != old.id and aiko.mention in prompt.content
    timers = {t.kind: t.due_at for t in await w.store.timers(game_id)}
    assert set(timers) == TURN_TIMERS and timers["deadline"] >= w.env.now().timestamp() + DAY - 2
    await bid_round(w, game_id, thread, random.Random(4))
    assert (await current_prompt(w, game_id, thread)).id != prompt.id
    assert w.env.errors == []


@pytest.mark.usefixtures("bids")
@pytest.mark.slow
async def test_a_thread_that_refuses_posts_is_backed_off_from_explained_and_resumed(world, refusals):
    w = world
    aiko = w.members[0]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    for method in ("POST", "PATCH"):
        refuse(w, method, f"/channels/{thread.id}/messages*", 403, 50013, "Missing Permissions")
    clicks = await bid_round(w, game_id, thread, random.Random(5))
    # The bids are saved, the player told why the thread shows nothing; the turn's clock stops meanwhile.
    assert "Your move is saved, but I may no longer post in the thread of Bids" in told(clicks[-1])
    assert {t.kind for t in await w.store.timers(game_id)} == {"repost"}
    start = w.env.now().timestamp()
    await wait(w, UNREACHABLE_AFTER + HOUR)
    here = [r for r in refusals if r.at >= start]
    assert 15 <= len(here) <= attempts_within(UNREACHABLE_AFTER + HOUR) + 2, len(here)
    reach = await w.store.reach(game_id)
    assert reach.unreachable_at is not None and reach.told_at is not None
    [host] = [m for m in w.channel.history() if "your game is paused" in m.content]
    assert aiko.mention in host.content and "`/games play` works meanwhile" in host.content
    line = said(await aiko.slash(w.channel, "games status")).splitlines()[1]
    assert line.startswith(f"▶️ <#{thread.id}>") and "⚠️ Paused since" in line, line
    assert "Send Messages in Threads" in line
    # A permission given back: Discord announces the change, and the turn is posted at once with fresh timers.
    lift(w)
    w.env.backend.announce_channel_update(w.channel.id)
    await w.env.advance_time(10)
    assert await w.store.reach(game_id) is None
    prompt = await current_prompt(w, game_id, thread)
    assert aiko.mention in prompt.content and custom_ids(prompt)
    assert {t.kind for t in await w.store.timers(game_id)} == TURN_TIMERS
    assert w.env.errors == []


@pytest.mark.usefixtures("bids")
async def test_a_table_the_ai_plays_to_its_end_posts_it_within_discords_pace(world):
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=0, ai=1, level="easy")
    before = {m.id for m in thread.history()}
    resigned = await w.members[0].slash(thread, "games resign")
    assert "You resigned" in told(resigned)
    # Every bid the AI makes to the end comes in one post after the resignation's: no burst to keep to a rate. The
    # live prompt, whose turn that post tells, is gone.
    posted = [m for m in thread.history() if m.id not in before]
    assert len(posted) == 2 and "is over" in posted[-1].content, [m.content for m in posted]
    assert len(thread.history()) == len(before) + 1
    assert (await w.store.get_game(game_id)).status == "finished"
    # Counted by the channel's pace, as every post of Kokeshi's: room is left in the thread now.
    now = w.env.now().timestamp()
    assert w.bot.tables.reach.pace.free_at(thread.id, now) == now
    assert len(w.bot.tables.reach.pace._sent[thread.id]) >= 2

"""A game nobody reads any more (every seat the AI's) posts one short record per round, at Discord's channel rate."""

from __future__ import annotations

import pytest

from cogs.limits import CHANNEL_MESSAGES, CHANNEL_SECONDS
from tests.botkit import load_game


async def open_game_with_an_ai(w):
    """`/kokeshi new` for two seats, one the AI's: the table has all its seats, so it starts at once."""
    created = await w.members[0].slash(w.channel, "kokeshi new", players=2, ai=1)
    reply = created.followups[-1] if created.followups else created.response
    assert created.ephemeral and "has started" in reply.content, reply
    record = (await w.store.games_in_channel(w.channel.id))[-1]
    return record.id, next(t for t in w.channel.threads if t.id == record.thread_id)


def bursts(messages) -> int:
    """The most messages posted within any window of Discord's per-channel rate."""
    stamps = sorted(m.created_at.timestamp() for m in messages)
    return max((sum(1 for t in stamps if start <= t < start + CHANNEL_SECONDS) for start in stamps), default=0)


# The AI plays the game out while the resignation is answered: time enough for that on a loaded machine. The
# settlement waits in real time for the bot's timers due before its deadline (the round posts held back to the
# channel's rate), so no longer than that: the later ones wait for `advance_time`.
@pytest.mark.simcord(settle_timeout=20)
@pytest.mark.slow
async def test_a_game_left_to_the_ai_posts_a_record_per_round_without_pictures_and_never_faster_than_the_rate(world):
    game_id, thread = await open_game_with_an_ai(world)
    aiko = world.members[0]
    before = len(thread.history())
    resigned = await aiko.slash(thread, "kokeshi resign")
    assert resigned.acknowledged
    # The AI finished the game at once; its records follow a few seconds apart, as the channel allows.
    assert (await world.store.get_game(game_id)).status == "finished"
    for _ in range(30):
        await world.env.advance_time(CHANNEL_SECONDS)
    posted = thread.history()[before:]
    rounds = [m for m in posted if "the AI plays every seat" in m.content]
    game, _ = await load_game(world, game_id)
    assert len(rounds) >= game.round_number - 1 >= 10
    assert all(m.attachments == [] for m in rounds)
    assert all(m.content.count("\n") >= 1 and len(m.content) <= 2000 for m in rounds)
    final = posted[-1]
    assert "is over" in final.content and final.attachments
    assert bursts(posted) <= CHANNEL_MESSAGES
    # Everything the log holds was posted: the thread is up to date and nothing is left to send.
    posts = await world.store.turn_posts(game_id)
    assert posts.shown_version == (await world.store.get_game(game_id)).version
    assert await world.store.timers(game_id) == []
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_game_with_a_person_in_it_keeps_a_record_with_a_picture_for_every_turn(world):
    game_id, thread = await open_game_with_an_ai(world)
    from tests.botkit import answer

    for _ in range(6):
        await answer(world, game_id, thread)
    records = [m for m in thread.history() if "·" in m.content.split("\n")[0] and m.attachments]
    assert records and not any("the AI plays every seat" in m.content for m in thread.history())


def test_the_channel_pace_lets_five_messages_through_in_five_seconds_and_says_when_the_next_may_go():
    from cogs.limits import ChannelPace

    pace = ChannelPace()
    for t in (0.0, 0.5, 1.0, 1.5, 2.0):
        assert pace.free_at(7, t) == t
        pace.sent(7, t)
    assert pace.free_at(7, 2.1) == 5.0  # the first of the five leaves the window at 5 s
    assert pace.free_at(8, 2.1) == 2.1  # another channel is not held back
    pace.sent(7, 5.0)
    assert pace.free_at(7, 5.0) == 5.5

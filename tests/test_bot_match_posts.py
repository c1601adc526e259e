"""A calm thread at the platform's table: one live prompt per turn, edited in place as the turn's steps are taken,
and one record post per finished turn; counted over whole games of Kōhaku and of Kokeshi at the platform."""

from __future__ import annotations

import random

import pytest

from tests.botkit import World
from tests.test_bot_kokeshi_platform import KEY, kokeshi_at_the_platform  # noqa: F401 - a fixture
from tests.test_bot_matches import open_table, play_through


def posts_in(w: World, thread) -> int:
    """The messages the bot posted in the thread (every POST, whatever became of it later)."""
    path = f"/channels/{thread.id}/messages"
    return sum(1 for r in w.env.http_requests if r.method == "POST" and r.path == path)


async def turns_of(w: World, game_id: int) -> int:
    """The game's turns: the decisions that ended one."""
    return sum(d.ends_turn for d in await w.store.match_decisions(game_id))


async def whole_game(w: World, game: str, seed: int) -> tuple[int, int, int, int]:
    """A game of two people played to its end: (turns, decisions, posts made in its thread, messages it keeps)."""
    game_id, thread = await open_table(w, game, players=2, joiners=1)
    decisions = await play_through(w, game_id, thread, random.Random(seed), limit=600)
    assert (await w.store.get_game(game_id)).status == "finished"
    return await turns_of(w, game_id), decisions, posts_in(w, thread), len(thread.history())


@pytest.mark.slow  # a whole game through SimCord
async def test_a_kohaku_game_posts_about_one_message_per_turn(world):
    turns, decisions, posts, kept = await whole_game(world, "kohaku", 3)
    print(f"kohaku: {turns} turns, {decisions} decisions, {posts} posts, {kept} kept")
    assert decisions > turns  # a turn takes several steps, and they are not posted one by one
    assert posts <= turns + 3 and kept <= turns + 3
    assert world.env.errors == []


@pytest.mark.slow  # a whole game through SimCord
async def test_kokeshi_at_the_platform_posts_about_one_message_per_turn(world, kokeshi_at_the_platform):  # noqa: F811
    turns, decisions, posts, kept = await whole_game(world, KEY, 4)
    print(f"kokeshi: {turns} turns, {decisions} decisions, {posts} posts, {kept} kept")
    assert decisions > turns
    assert posts <= turns + 3 and kept <= turns + 3
    assert world.env.errors == []

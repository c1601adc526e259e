"""A calm thread at the platform's table: one live prompt per turn, edited in place as the turn's steps are taken,
and one record post per finished turn; counted over whole games of Kōhaku and of Kokeshi at the platform."""

from __future__ import annotations

import random
import re

import pytest

from tests.botkit import World, custom_ids, message_in
from tests.test_bot_kokeshi_platform import KEY, kokeshi_at_the_platform  # noqa: F401 - a fixture
from tests.test_bot_match_reach import pinged
from tests.test_bot_matches import choose, current_prompt, open_table, play_through, reply


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


def message(thread, message_id: int):
    return message_in(thread, message_id)


def after(thread, message_id: int) -> list:
    """The thread's messages after this one."""
    ids = [m.id for m in thread.history()]
    return thread.history()[ids.index(message_id) + 1 :]


async def kohaku_against_the_ai(w: World):
    return await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy")


async def turn_key(w: World, game_id: int) -> str:
    return (await w.store.load_match(game_id))[0].turn_key()


async def a_step_within_the_turn(w: World, game_id: int, thread, rng: random.Random, gone: bool = False):
    """aiko's choices until one leaves her turn under way (the live prompt asks her next step): the prompt she
    answered, and how many posts the thread had then. `gone`: Discord answers every edit of the prompt she
    answers as it does for a deleted message."""
    for _ in range(30):
        key = await turn_key(w, game_id)
        asked = await current_prompt(w, game_id, thread)
        posts = posts_in(w, thread)
        if gone:
            path = f"/channels/{thread.id}/messages/{asked.id}"
            w.env.inject_error("PATCH", path, status=404, code=10008, message="Unknown Message")
        chosen = await choose(w.members[0], asked, rng)
        assert chosen.acknowledged and not chosen.followups
        if await turn_key(w, game_id) == key:
            return asked, posts
    raise AssertionError("no turn of several steps")


async def finish_the_turn(w: World, game_id: int, thread, rng: random.Random) -> None:
    key = await turn_key(w, game_id)
    while await turn_key(w, game_id) == key:
        assert (await choose(w.members[0], await current_prompt(w, game_id, thread), rng)).acknowledged


def actions_of(message) -> list[str]:
    return [c for c in custom_ids(message) if c.startswith(("mt:a:", "mt:s:", "mt:g:"))]


async def test_a_turns_steps_edit_its_one_live_prompt_and_the_finished_turn_stays_as_its_record(world):
    w = world
    aiko = w.members[0]
    game_id, thread = await kohaku_against_the_ai(w)
    rng = random.Random(2)
    # A step within aiko's turn: the same prompt, edited in place, tells the turn so far and asks the next step
    # with buttons of the new version; nothing is posted.
    asked, posts = await a_step_within_the_turn(w, game_id, thread, rng)
    version = (await w.store.get_game(game_id)).version
    step = await current_prompt(w, game_id, thread)
    assert step.id == asked.id and posts_in(w, thread) == posts
    assert step.content.startswith("aiko took the ") and "Your turn: " in step.content and step.attachments
    assert actions_of(step) and all(f":{version}" in c for c in actions_of(step))
    # aiko ends her turn, the AI plays its own: her prompt is now her turn's record (its story, the table after it,
    # no buttons), the AI's turn has a record of its own, and her new turn a new prompt that pings her.
    await finish_the_turn(w, game_id, thread, rng)
    kept = message(thread, asked.id)
    assert custom_ids(kept) == [] and kept.attachments
    # Under its heading: who, the round, the points the turn won and the total.
    head, _, story = kept.content.partition("\n")
    assert re.fullmatch(r"\*\*aiko\*\* · round \d+ · [+−]\d+ → \d+ points?", head), head
    assert story.startswith("aiko took the ") and "aiko placed the " in story
    assert "Your turn" not in kept.content and "<@" not in kept.content
    assert kept.attachments[0].description.startswith("Kōhaku, move ")
    ai_record, prompt = after(thread, asked.id)
    head, _, story = ai_record.content.partition("\n")
    assert head.startswith("**AI 1** · round ") and story.startswith("AI 1 took the ")
    assert custom_ids(ai_record) == [] and ai_record.attachments
    assert prompt.id == (await current_prompt(w, game_id, thread)).id and aiko.user.id in pinged(w, prompt)
    assert actions_of(prompt) and "AI 1 took" not in prompt.content
    assert await w.store.reach(game_id) is None and w.env.errors == []


async def test_a_prompt_discord_no_longer_has_is_posted_anew(world):
    w = world
    game_id, thread = await kohaku_against_the_ai(w)
    rng = random.Random(4)
    # Deleted by someone: Discord answers the edit of the prompt 404 Unknown Message.
    asked, posts = await a_step_within_the_turn(w, game_id, thread, rng, gone=True)
    version = (await w.store.get_game(game_id)).version
    again = await current_prompt(w, game_id, thread)
    assert again.id != asked.id and posts_in(w, thread) == posts + 1
    assert again.content.startswith("aiko took the ")
    assert actions_of(again) and all(f":{version}" in c for c in actions_of(again))
    # Within the turn it pings nobody again; the thread is not taken for unreachable, the turn keeps its clock.
    assert pinged(w, again) == []
    assert await w.store.reach(game_id) is None
    assert {t.kind for t in await w.store.timers(game_id)} == {"reminder_half", "reminder_late", "deadline"}
    assert await w.store.get_message(game_id, "prompt") == (thread.id, again.id)
    # The game goes on from the new prompt, edited in place again.
    await finish_the_turn(w, game_id, thread, rng)
    assert w.env.errors == []


async def test_a_finished_turn_whose_prompt_is_gone_gets_a_record_post_of_its_own(world):
    w = world
    game_id, thread = await kohaku_against_the_ai(w)
    rng = random.Random(6)
    await a_step_within_the_turn(w, game_id, thread, rng)
    # aiko's choices by command, the one that ends her turn made when Discord has lost her prompt.
    while True:
        match, _version, _record = await w.store.load_match(game_id)
        action = rng.choice(match.legal_actions(0))
        key = match.turn_key()
        match.apply(0, action)
        ends = match.turn_key() != key
        asked = await current_prompt(w, game_id, thread)
        if ends:
            path = f"/channels/{thread.id}/messages/{asked.id}"
            w.env.inject_error("PATCH", path, status=404, code=10008, message="Unknown Message")
        played = await w.members[0].slash(thread, "games play", choice=action)
        assert "Your choice is in" in reply(played).content
        if ends:
            break
    mine, ai_record, prompt = after(thread, asked.id)
    mine_head, _, mine_story = mine.content.partition("\n")
    assert mine_head.startswith("**aiko** · round ") and mine.attachments
    assert mine_story.startswith("aiko took the ") and "aiko placed the " in mine_story
    assert ai_record.content.split("\n")[1].startswith("AI 1 took the ")
    assert custom_ids(mine) == custom_ids(ai_record) == []
    assert prompt.id == (await current_prompt(w, game_id, thread)).id and actions_of(prompt)
    assert await w.store.reach(game_id) is None and w.env.errors == []


async def test_a_secret_choice_made_edits_the_live_prompt_to_wait_for_the_others(world, bids):
    w = world
    aiko, botan = w.members[:2]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    first = await current_prompt(w, game_id, thread)
    assert sorted(pinged(w, first)) == sorted([aiko.user.id, botan.user.id])
    opened = await aiko.click(first, custom_id=custom_ids(first)[0])
    chosen = await choose(aiko, reply(opened), random.Random(1))
    assert chosen.acknowledged
    # No post saying whom the turn waits for: the live prompt says it, and asks botan alone with new buttons.
    version = (await w.store.get_game(game_id)).version
    prompt = await current_prompt(w, game_id, thread)
    assert prompt.id == first.id and [m.id for m in thread.history()][1:] == [first.id]  # after the game begins
    assert f"Your turn: {botan.mention}." in prompt.content and aiko.mention not in prompt.content
    assert actions_of(prompt) and all(f":{version}:" in c for c in actions_of(prompt))
    # botan bids: the prize is decided, told by the first turn's record; the second prize has a prompt of its own.
    assert (await choose(botan, prompt, random.Random(2))).acknowledged
    _begins, record, second = thread.history()
    assert record.id == first.id and custom_ids(record) == [] and "prize" in record.content
    assert second.id == (await current_prompt(w, game_id, thread)).id
    assert sorted(pinged(w, second)) == sorted([aiko.user.id, botan.user.id])
    assert w.env.errors == []


@pytest.mark.slow
async def test_a_table_its_thread_showed_before_it_kept_records_records_only_the_turns_from_then_on(world):
    from storage import TurnPosts

    w = world
    game_id, thread = await kohaku_against_the_ai(w)
    rng = random.Random(8)
    for _ in range(3):
        await finish_the_turn(w, game_id, thread, rng)
    # As a table shown before: its live prompt stored, nothing of how far its thread goes.
    await w.store.set_turn_posts(TurnPosts(game_id))
    await a_step_within_the_turn(w, game_id, thread, rng)
    ended = max(d.seq for d in await w.store.match_decisions(game_id) if d.ends_turn)
    assert (await w.store.turn_posts(game_id)).recorded_seq == ended
    asked = await current_prompt(w, game_id, thread)
    before = posts_in(w, thread)
    await finish_the_turn(w, game_id, thread, rng)
    # Its turn from then on is kept, and the AI's after it: no record of the turns the thread showed already.
    made = posts_in(w, thread) - before
    assert 1 <= made <= 2, made
    assert (await current_prompt(w, game_id, thread)).id != asked.id
    posts = await w.store.turn_posts(game_id)
    assert posts.turn_key == await turn_key(w, game_id)
    assert posts.recorded_seq == max(d.seq for d in await w.store.match_decisions(game_id) if d.ends_turn)
    assert w.env.errors == []

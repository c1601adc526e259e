"""Two answers at once: a double click on the last move, a command sent twice, Start and Cancel together."""

from __future__ import annotations

import pytest

from games.kokeshi.engine import GreedyPolicy
from tests.botkit import answer, new_lobby, open_game

APOLOGY = "Sorry, something went wrong"


def said(result) -> list[str]:
    """Everything the bot answered to one interaction, in order."""
    messages = [result.response, *result.followups]
    return [m.content for m in messages if m is not None and m.content]


async def play_until(w, game_id: int, stop) -> None:
    """The seats play greedily through the store until `stop(game)`; then the thread is brought up to date."""
    while True:
        game, version = await w.store.load_game(game_id)
        if stop(game, version):
            break
        await w.store.apply(game_id, version, game.prompt.player, GreedyPolicy(version).choose(game))
    assert await w.bot.tables.poster.show(game_id)


def ends_the_game(game, version: int) -> bool:
    probe = game.clone()
    probe.apply(game.prompt.player, GreedyPolicy(version).choose(game))
    return probe.is_over


@pytest.mark.slow
async def test_a_double_click_whose_twin_lands_first_on_the_final_move_is_told_the_game_is_over(world, monkeypatch):
    game_id, thread = await open_game(world, players=2)
    await play_until(world, game_id, ends_the_game)
    game, version = await world.store.load_game(game_id)
    action = GreedyPolicy(version).choose(game)
    store = world.store
    real_apply = store.apply

    async def twin_first(game_id_, version_, player, action_, source="player", **options):
        # SimCord runs one interaction at a time: the twin click's apply lands just before this one's.
        monkeypatch.setattr(store, "apply", real_apply)
        await real_apply(game_id_, version_, player, action_, source=source, **options)
        return await real_apply(game_id_, version_, player, action_, source=source, **options)

    monkeypatch.setattr(store, "apply", twin_first)
    result = await answer(world, game_id, thread, action=action)
    assert (await world.store.get_game(game_id)).status == "finished"
    answers = said(result)
    assert answers and not any(APOLOGY in a for a in answers), answers
    assert any("already answered" in a and "over" in a for a in answers), answers


async def test_the_same_advance_sent_twice_gets_one_clear_answer_each(world, monkeypatch):
    game_id, thread = await open_game(world, players=2)
    await play_until(world, game_id, lambda g, _: g.prompt.kind == "advance")
    game, version = await world.store.load_game(game_id)
    member = world.member(game.prompt.player)
    choice = f"{version}:{GreedyPolicy(version).choose(game)}"
    store = world.store
    real_apply = store.apply

    async def twin_first(game_id_, version_, player, action_, source="player", **options):
        monkeypatch.setattr(store, "apply", real_apply)
        await real_apply(game_id_, version_, player, action_, source=source, **options)
        return await real_apply(game_id_, version_, player, action_, source=source, **options)

    monkeypatch.setattr(store, "apply", twin_first)
    late = await member.slash(thread, "kokeshi play", choice=choice)
    answers = said(late)
    applied = [e for e in await world.store.log(game_id) if e.action.startswith("advance:") and e.source == "player"]
    assert len(applied) == 1
    assert len(answers) == 1 and "already answered" in answers[0] and "Done." not in answers[0], answers
    # Sent again once everything settled: a clear refusal, never "Done." for a move that was not made.
    again = said(await member.slash(thread, "kokeshi play", choice=choice))
    assert len(again) == 1 and again != ["Done."] and APOLOGY not in again[0], again


async def test_start_then_cancel_at_once_leaves_no_timers(world, monkeypatch):
    host = world.members[0]
    _, lobby, _ = await new_lobby(world, host, players=2, timer=3600)
    await world.members[1].click(lobby, label="Join")
    game_id = (await world.store.open_lobbies(world.guild.id))[-1].id
    store = world.store
    real_set_turn_posts = store.set_turn_posts

    async def cancel_lands_while_the_prompt_is_posted(posts, prompt=None):
        if prompt is not None:
            await store.cancel_game(posts.game_id)  # the Cancel click, while the first prompt is on its way
        return await real_set_turn_posts(posts, prompt=prompt)

    # The new prompt's message id is stored with what the thread shows.
    monkeypatch.setattr(store, "set_turn_posts", cancel_lands_while_the_prompt_is_posted)
    result = await host.click(lobby, label="Start")
    record = await world.store.get_game(game_id)
    assert record.status == "cancelled"
    assert await world.store.timers(record.id) == []
    assert not any(APOLOGY in t for t in said(result))
    await world.env.advance_time(2 * 3600)
    assert await world.store.log(record.id) == [] and await world.store.timers(record.id) == []
    assert world.env.errors == []


async def test_cancel_then_start_at_once_does_not_start_a_cancelled_game(world, monkeypatch):
    host = world.members[0]
    _, lobby, _ = await new_lobby(world, host, players=2, timer=3600)
    await world.members[1].click(lobby, label="Join")
    game_id = (await world.store.open_lobbies(world.guild.id))[-1].id
    store = world.store
    real_start = store.start_game

    async def cancel_lands_first(game_id_, seed):
        await store.cancel_game(game_id_)  # the Cancel click, after Start read the lobby
        return await real_start(game_id_, seed)

    monkeypatch.setattr(store, "start_game", cancel_lands_first)
    result = await host.click(lobby, label="Start")
    record = await world.store.get_game(game_id)
    assert record.status == "cancelled" and await world.store.timers(record.id) == []
    answers = said(result)
    assert answers and not any(APOLOGY in t for t in answers) and any("ended" in t for t in answers), answers
    assert world.env.errors == []

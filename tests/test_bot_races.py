"""Two answers at once: a double click on the last move, a command sent twice, Start and Cancel together."""

from __future__ import annotations

import pytest

from games.kokeshi.engine import GreedyPolicy
from tests.botkit import answer, load_game, new_lobby, open_game

APOLOGY = "Sorry, something went wrong"


def said(result) -> list[str]:
    """Everything the bot answered to one interaction, in order."""
    messages = [result.response, *result.followups]
    return [m.content for m in messages if m is not None and m.content]


async def logged(w, game_id: int) -> list:
    """(player, action, source) of every decision logged (at the platform's table the player is the seat's number)."""
    rows = await w.store._all("SELECT player, action, source FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
    return [(r["player"], r["action"], r["source"]) for r in rows]


async def play_until(w, game_id: int, stop) -> None:
    """The seats play greedily through the store until `stop(game)`; then the thread is brought up to date."""
    while True:
        game, version = await load_game(w, game_id)
        if stop(game, version):
            break
        seat = (await w.store.get_game(game_id)).seat_named(game.prompt.player).seat
        await w.store.play_match(game_id, version, seat, GreedyPolicy(version).choose(game))
    assert await w.bot.matches.show_again(game_id)


def ends_the_game(game, version: int) -> bool:
    probe = game.clone()
    probe.apply(game.prompt.player, GreedyPolicy(version).choose(game))
    return probe.is_over


def twin_lands_first(monkeypatch, store) -> None:
    """The next decision saved is saved twice at once: its twin click's lands just before it (SimCord runs one
    interaction at a time), then it is tried."""
    real_play = store.play_match

    async def twin_first(game_id_, version_, seat, action_, **options):
        monkeypatch.setattr(store, "play_match", real_play)
        await real_play(game_id_, version_, seat, action_, **options)
        return await real_play(game_id_, version_, seat, action_, **options)

    monkeypatch.setattr(store, "play_match", twin_first)


@pytest.mark.slow
async def test_a_double_click_whose_twin_lands_first_on_the_final_move_is_told_the_game_is_over(world, monkeypatch):
    game_id, thread = await open_game(world, players=2)
    await play_until(world, game_id, ends_the_game)
    game, version = await load_game(world, game_id)
    action = GreedyPolicy(version).choose(game)
    twin_lands_first(monkeypatch, world.store)
    result = await answer(world, game_id, thread, action=action)
    assert (await world.store.get_game(game_id)).status == "finished"
    answers = said(result)
    assert answers and not any(APOLOGY in a for a in answers), answers
    assert any(a == "That choice is no longer current: the game is over." for a in answers), answers


async def test_the_same_advance_sent_twice_gets_one_clear_answer_each(world, monkeypatch):
    game_id, thread = await open_game(world, players=2)
    await play_until(world, game_id, lambda g, _: g.prompt.kind == "advance")
    game, version = await load_game(world, game_id)
    member = world.member(game.prompt.player)
    choice = f"{version}:{GreedyPolicy(version).choose(game)}"
    twin_lands_first(monkeypatch, world.store)
    late = await member.slash(thread, "kokeshi play", choice=choice)
    answers = said(late)
    applied = [e for e in await logged(world, game_id) if e[1].startswith("advance:") and e[2] == "player"]
    assert len(applied) == 1
    assert len(answers) == 1 and "no longer current" in answers[0] and "choice is in" not in answers[0], answers
    # Sent again once everything settled: a clear refusal, never "Your choice is in." for a move that was not made.
    again = said(await member.slash(thread, "kokeshi play", choice=choice))
    assert len(again) == 1 and "choice is in" not in again[0] and APOLOGY not in again[0], again


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
    assert await logged(world, record.id) == [] and await world.store.timers(record.id) == []
    assert world.env.errors == []


async def test_cancel_then_start_at_once_does_not_start_a_cancelled_game(world, monkeypatch):
    host = world.members[0]
    _, lobby, _ = await new_lobby(world, host, players=2, timer=3600)
    await world.members[1].click(lobby, label="Join")
    game_id = (await world.store.open_lobbies(world.guild.id))[-1].id
    store = world.store
    real_start = store.start_match

    async def cancel_lands_first(game_id_, seed):
        await store.cancel_game(game_id_)  # the Cancel click, after Start read the lobby
        return await real_start(game_id_, seed)

    monkeypatch.setattr(store, "start_match", cancel_lands_first)
    result = await host.click(lobby, label="Start")
    record = await world.store.get_game(game_id)
    assert record.status == "cancelled" and await world.store.timers(record.id) == []
    answers = said(result)
    assert answers and not any(APOLOGY in t for t in answers) and any("ended" in t for t in answers), answers
    assert world.env.errors == []

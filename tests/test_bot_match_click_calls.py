"""One click is a straight line: per decision of a game already loaded, what the bot
asks of its store, counted by the harness `bench/bot_bench.py` uses (`tests.botkit.StoreCalls`):
few store calls, at most one game load, and no replay of the game from its seed, over whole games of Kōhaku and of
Kokeshi at the platform, the clicks that end a turn (a record kept, a new live prompt posted) and the game included;
and a double click that plays once."""

from __future__ import annotations

import random

import pytest

from tests.botkit import StoreCalls, World, components, custom_ids
from tests.test_bot_kokeshi_platform import KEY, kokeshi_at_the_platform  # noqa: F401 - a fixture
from tests.test_bot_matches import current_prompt, menus_of_groups, open_table, reply

# Per click, in steady state (a game this process has already loaded): the route's budget.
STORE_CALLS = 6
LOADS = 1
REPLAYS = 0


async def decision(w: World, game_id: int, thread, rng: random.Random):
    """Everything before the click that decides, outside the count: the private choices opened, a group picked;
    returns the click that decides, not yet sent."""
    by_id = {m.user.id: m for m in w.members}
    record = await w.store.get_game(game_id)
    match, _version, _record = await w.store.load_match(game_id)
    seat = next(s for s in record.seats if not s.ai and s.seat in match.waiting())
    member = by_id[seat.user_id]
    message = await current_prompt(w, game_id, thread)
    ids = custom_ids(message)
    if ids[0].startswith("mt:c:"):
        message = reply(await member.click(message, custom_id=ids[0]))
    parts = [c for c in components(message) if c.get("custom_id", "").startswith(("mt:a:", "mt:s:"))]
    groups = menus_of_groups(message)
    if groups and not parts:
        value = rng.choice([o["value"] for o in groups[0]["options"]])
        if value.startswith("a:"):
            return member.select(message, [value], custom_id=groups[0]["custom_id"])
        message = reply(await member.select(message, [value], custom_id=groups[0]["custom_id"]))
        parts = [c for c in components(message) if c.get("custom_id", "").startswith(("mt:a:", "mt:s:"))]
    assert parts, message.content
    if parts[0].get("type") == 3:
        values = [o["value"] for o in parts[0]["options"]]
        return member.select(message, [rng.choice(values)], custom_id=parts[0]["custom_id"])
    return member.click(message, custom_id=rng.choice(parts)["custom_id"])


async def counted_game(w: World, game: str, seed: int) -> list[dict[str, int]]:
    """A game of two people played to its end; per decision, what its click asked of the store (the first
    decision, which loads the game after its deal, included: the deal holds it)."""
    game_id, thread = await open_table(w, game, players=2, joiners=1)
    rng = random.Random(seed)
    found: list[dict[str, int]] = []
    for _ in range(600):
        if (await w.store.get_game(game_id)).status != "active":
            break
        click = await decision(w, game_id, thread, rng)
        counter = StoreCalls(w.store)
        try:
            assert (await click).acknowledged
            await w.env.settle()
            # Each store method called, beside the totals: what a click over budget asked for.
            methods = {f"calls of {name}": n for name, n in counter.methods.items()}
            found.append({**counter.take(), **methods})
        finally:
            counter.close()
    else:
        raise AssertionError("the game did not end")
    assert (await w.store.get_game(game_id)).status == "finished"
    assert w.env.errors == []
    # Among them, many that ended a turn (its record kept, a new live prompt posted) and the one that ended the game.
    assert sum(d.ends_turn for d in await w.store.match_decisions(game_id)) >= 10
    return found


def assert_within_budget(found: list[dict[str, int]]) -> None:
    """Every click within the route's budget; a click over it is shown whole (the store methods it called)."""
    for click in found:
        assert click.get("full replays", 0) <= REPLAYS, click
        assert click.get("cold loads", 0) == 0, click
        assert click.get("game loads", 0) <= LOADS, click
        assert click.get("store calls", 0) <= STORE_CALLS, click


@pytest.mark.slow  # a whole game through SimCord
async def test_a_kohaku_click_makes_few_store_calls_one_load_and_no_replay(world):
    found = await counted_game(world, "kohaku", 5)
    assert len(found) > 40
    assert_within_budget(found)


@pytest.mark.slow  # a whole game through SimCord
async def test_a_click_of_kokeshi_at_the_platform_makes_few_store_calls_one_load_and_no_replay(
    world,
    kokeshi_at_the_platform,  # noqa: F811
):
    found = await counted_game(world, KEY, 6)
    assert len(found) > 50
    assert_within_budget(found)


def hand_over(w: World, member, message, custom_id: str, values: list[str]) -> None:
    """A menu choice handed to the bot without waiting for its answer (as Discord delivers a double click)."""
    from simcord import interactions
    from simcord.backend import serializers

    stored = w.env.backend.get_message(message.channel.id, message.id)
    data = {"custom_id": custom_id, "component_type": 3, "values": values}
    record, payload = interactions.base_payload(
        w.env.backend, type=3, channel_id=stored.channel_id, guild_id=w.guild.id, user_id=member.id, data=data
    )
    payload["message"] = dict(serializers.message_payload(w.env.backend, stored))
    record.source_message_id = stored.id
    w.env.backend.emit("INTERACTION_CREATE", payload)


async def test_a_double_click_plays_once_and_its_twin_is_told_the_game_moved_on(world):
    w = world
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=1)
    before = await w.store.get_game(game_id)
    match, _version, _record = await w.store.load_match(game_id)
    seat = next(s for s in before.seats if s.seat in match.waiting())
    member = next(m for m in w.members if m.user.id == seat.user_id)
    prompt = await current_prompt(w, game_id, thread)
    [menu] = [c for c in components(prompt) if c.get("custom_id", "").startswith("mt:s:")]
    choice = menu["options"][0]["value"]
    # The same choice twice at once: the table's lock lets one play, the other finds the game moved on; nothing is
    # lost or played twice, and the turn's timers are the new version's.
    for _ in range(2):
        hand_over(w, member, prompt, menu["custom_id"], [choice])
    await w.env.settle()
    assert [(d.seat, d.action) for d in await w.store.match_decisions(game_id)] == [(seat.seat, choice)]
    told = [r.json.get("content", "") for r in w.env.http_requests if r.method == "POST" and "/webhooks/" in r.path]
    assert sum("no longer current" in t for t in told) == 1, told
    after = await w.store.get_game(game_id)
    assert after.version == before.version + 1
    assert [t.version for t in await w.store.timers(game_id) if t.kind == "deadline"] == [after.version]
    shown = await current_prompt(w, game_id, thread)
    asked = [c.split(":") for c in custom_ids(shown) if c.startswith(("mt:s:", "mt:a:", "mt:g:", "mt:c:"))]
    assert asked and all(parts[3] == str(after.version) for parts in asked), asked
    assert await w.store.verify() == []
    assert w.env.errors == []

"""`/games replay` for the other games: a finished game stepped through privately, turn by turn, from its stored log."""

from __future__ import annotations

import random

import pytest

import games
from cogs.match_replay import split_turns
from cogs.since import story
from tests.botkit import components, custom_ids
from tests.games import tiny
from tests.test_bot_language import locales  # noqa: F401  (the fixture giving each person a language)
from tests.test_bot_matches import open_table, play_through, reply
from tests.test_bot_replay import finished_in_store, now_shown


async def played_in_store(w, game_id: int, seed: int = 1) -> None:
    """Every seat the game waits for decides at random, straight through the store, until the game is over."""
    rng = random.Random(seed)
    while True:
        match, version, record = await w.store.load_match(game_id)
        if record.status != "active":
            return
        seat = match.waiting()[0]
        await w.store.play_match(game_id, version, seat, rng.choice(match.legal_actions(seat)))


def step(viewer, op: str) -> str:
    return next(c for c in custom_ids(viewer) if c.endswith(f":{op}"))


async def test_a_finished_bids_game_is_stepped_through_round_by_round(world, bids):
    w = world
    game_id, _thread = await open_table(w, "bids", players=2, joiners=1)
    await played_in_store(w, game_id)
    aiko = w.members[0]
    opened = await aiko.slash(w.channel, "games replay", game=game_id)
    viewer = reply(opened)
    assert opened.ephemeral
    # A round of simultaneous bids is one turn: three prizes, three turns.
    assert f"Replay of Bids #{game_id}** · turn 1 of 3" in viewer.content
    decisions = await w.store.match_decisions(game_id)
    turns = split_turns(decisions)
    assert [len(t) for t in turns] == [2, 2, 2]
    assert all(line in viewer.content for line in story(bids, turns[0], ["aiko", "botan"]))
    assert viewer.attachments and (await viewer.attachments[0].read()).startswith(b"\x89PNG")
    # The same steps and menu as Kokeshi's viewer; no animation.
    assert not any(c.endswith(":film") for c in custom_ids(viewer))
    menu = next(c for c in components(viewer) if c["type"] == 3)
    assert [o["label"] for o in menu["options"]] == [f"Turn {n}: aiko, botan" for n in (1, 2, 3)]
    nexted = await aiko.click(viewer, custom_id=step(viewer, "next"))
    shown = now_shown(w, viewer)
    assert nexted.acknowledged and "turn 2 of 3" in shown.content
    await aiko.click(shown, custom_id=step(shown, "last"))
    last = now_shown(w, viewer)
    # The last turn ends with the places.
    results = await w.store.results(game_id)
    assert "turn 3 of 3" in last.content and all(f"**{r.name}**" in last.content for r in results)
    picked = await aiko.select(last, ["1"], custom_id=menu["custom_id"])
    assert picked.acknowledged and "turn 1 of 3" in now_shown(w, viewer).content
    assert w.env.errors == []


async def test_a_game_still_played_has_no_replay_yet(world, bids):
    w = world
    game_id, _thread = await open_table(w, "bids", players=2, joiners=1)
    refused = await w.members[0].slash(w.channel, "games replay", game=game_id)
    assert refused.ephemeral and f"Bids #{game_id} is not over" in reply(refused).content
    assert not reply(refused).attachments


async def test_the_autocomplete_lists_finished_games_of_every_game(world, bids):
    w = world
    kokeshi_id = await finished_in_store(w)
    bids_id, _thread = await open_table(w, "bids", players=2, joiners=1)
    await played_in_store(w, bids_id)
    kohaku_id, _thread = await open_table(w, "kohaku", players=1, joiners=0)
    offered = await w.members[0].autocomplete(w.channel, "games replay", "game", "")
    values = [o["value"] for o in offered]
    # Newest first; a game still played is not offered.
    assert values == [bids_id, kokeshi_id] and kohaku_id not in values
    assert offered[0]["name"].startswith(f"#{bids_id} Bids — aiko, botan")
    assert "Bids" not in offered[1]["name"] and "Kokeshi" not in offered[1]["name"]


async def test_a_kokeshi_replay_still_opens_with_its_animation(world):
    w = world
    game_id = await finished_in_store(w)
    viewer = reply(await w.members[0].slash(w.channel, "games replay", game=game_id))
    assert f"Replay of Kokeshi #{game_id}" in viewer.content
    assert any(c.endswith(":film") for c in custom_ids(viewer))


@pytest.mark.slow  # a whole game through SimCord
async def test_the_final_post_opens_the_replay(world, bids):
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    await play_through(w, game_id, thread, random.Random(8))
    final = thread.history()[-1]
    assert "is over" in final.content
    assert custom_ids(final) == [f"mt:r:{game_id}", f"kk:r:{game_id}:0:open"]  # beside Rematch
    opened = await w.members[1].click(final, custom_id=custom_ids(final)[1])
    assert opened.ephemeral and "turn 1 of 3" in reply(opened).content
    # A spectator who can read the channel may watch it too; the thread is not touched.
    posts = len(thread.history())
    watched = await w.members[2].click(final, custom_id=custom_ids(final)[1])
    assert "turn 1 of 3" in reply(watched).content and len(thread.history()) == posts


async def test_the_viewer_speaks_the_watchers_language(world, bids, locales):  # noqa: F811
    w = world
    game_id, _thread = await open_table(w, "bids", players=2, joiners=1)
    await played_in_store(w, game_id)
    locales[w.members[1].id] = "pt-BR"
    viewer = reply(await w.members[1].slash(w.channel, "games replay", game=game_id))
    assert f"Replay de Bids #{game_id}** · jogada 1 de 3" in viewer.content
    assert any(word in viewer.content for word in ("leva o prêmio", "Ninguém leva"))


async def test_a_game_this_process_no_longer_knows_is_refused_in_words(world, bids):
    w = world
    game_id, _thread = await open_table(w, "bids", players=2, joiners=1)
    await played_in_store(w, game_id)
    games.unregister("bids")
    try:
        refused = await w.members[0].slash(w.channel, "games replay", game=game_id)
        assert refused.ephemeral and not reply(refused).attachments
        assert "does not know that game" in reply(refused).content
        assert w.env.errors == []
    finally:
        games.register(tiny.MODULE)

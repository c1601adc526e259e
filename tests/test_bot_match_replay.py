"""`/games replay` for the other games: a finished game stepped through privately, turn by turn, from its stored log."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import games
from cogs.match_replay import split_turns
from cogs.since import story
from render.animation import FRAME_WIDTH, MAX_BYTES, scaled
from tests.botkit import components, custom_ids
from tests.games import tiny
from tests.test_bot_language import locales  # noqa: F401  (the fixture giving each person a language)
from tests.test_bot_matches import open_table, play_through, reply
from tests.test_bot_replay import finished_in_store, now_shown
from tests.test_render_animation import body, frames_of, same


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
    # The same steps, menu and animation as Kokeshi's viewer.
    assert custom_ids(viewer)[-1] == f"kk:r:{game_id}:0:film"
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


@pytest.mark.slow
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


async def step_pictures(w, member, viewer) -> tuple[Image.Image, Image.Image]:
    """The viewer's first and last step pictures, stepping to the last."""
    first = await viewer.attachments[0].read()
    await member.click(viewer, custom_id=step(viewer, "last"))
    last = await now_shown(w, viewer).attachments[0].read()
    return Image.open(io.BytesIO(first)).convert("RGB"), Image.open(io.BytesIO(last)).convert("RGB")


async def film_of(w, member, viewer):
    """*Whole game, animated* clicked: the private answer, and its frames."""
    filmed = await member.click(viewer, custom_id=step(viewer, "film"))
    assert filmed.ephemeral
    sent = reply(filmed)
    data = await sent.attachments[0].read()
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "GIF" and img.is_animated and img.info["loop"] == 0
    return sent, data, frames_of(data)


class Recorder:
    """The thinker's `run_for`, recording what each call sends off the event loop."""

    def __init__(self, thinker) -> None:
        self.run_for, self.sent = thinker.run_for, []

    async def __call__(self, key, work, *args):
        self.sent.append(args)
        return await self.run_for(key, work, *args)


async def test_a_finished_bids_game_animated_is_one_frame_per_turn_each_its_step_picture(world, bids):
    w = world
    game_id, _thread = await open_table(w, "bids", players=2, joiners=1)
    await played_in_store(w, game_id)
    aiko = w.members[0]
    viewer = reply(await aiko.slash(w.channel, "games replay", game=game_id))
    recorder = w.bot.tables.thinker.run_for = Recorder(w.bot.tables.thinker)
    sent, data, frames = await film_of(w, aiko, viewer)
    assert sent.content == f"Bids #{game_id}, turn by turn."
    assert [a.filename for a in sent.attachments] == [f"bids-{game_id}-replay.gif"]
    assert len(frames) == 3 and len(data) < MAX_BYTES
    # The first and last frames hold the viewer's first and last step pictures (small: never blown up).
    first, last = await step_pictures(w, aiko, viewer)
    assert frames[0].width == first.width == 240
    assert same(body(frames[0], first), first) and same(body(frames[-1], last), last)
    assert not same(first, last)
    # What went off the loop: a spectator's view after each turn, never a seat's own (its bid) nor the seed.
    [(draw, steps, title, captions, locale)] = recorder.sent
    assert (title, captions, locale) == (
        f"Bids #{game_id}",
        ("after turn 1 of 3", "after turn 2 of 3", "after turn 3 of 3"),
        "en",
    )
    views = await w.store.match_views(game_id, [t[-1].seq for t in split_turns(await w.store.match_decisions(game_id))])
    assert [s[0] for s in steps] == list(views.values())
    assert all(s[0]["mine"] is None for s in steps)
    assert str((await w.store.get_game(game_id)).seed) not in repr(recorder.sent)
    # Asked again, the same file, from memory.
    again = await aiko.click(viewer, custom_id=step(viewer, "film"))
    assert await reply(again).attachments[0].read() == data and len(recorder.sent) == 1
    assert w.env.errors == []


@pytest.mark.slow  # a whole Kōhaku game, 24 turns drawn
async def test_a_kohaku_game_animated_hides_the_goal_cards_and_speaks_portuguese(world, locales):  # noqa: F811
    w = world
    game_id, _thread = await open_table(w, "kohaku", players=2, joiners=1, variant="goals=true")
    await played_in_store(w, game_id)
    locales[w.members[1].id] = "pt-BR"
    botan = w.members[1]
    viewer = reply(await botan.slash(w.channel, "games replay", game=game_id))
    recorder = w.bot.tables.thinker.run_for = Recorder(w.bot.tables.thinker)
    sent, data, frames = await film_of(w, botan, viewer)
    turns = split_turns(await w.store.match_decisions(game_id))
    assert sent.content == f"Kōhaku #{game_id}, jogada a jogada."
    assert len(frames) == len(turns) and frames[0].width == FRAME_WIDTH and len(data) < MAX_BYTES
    first, last = await step_pictures(w, botan, viewer)
    first, last = scaled(first, FRAME_WIDTH), scaled(last, FRAME_WIDTH)
    assert same(body(frames[0], first), first) and same(body(frames[-1], last), last)
    [(_draw, steps, _title, captions, locale)] = recorder.sent
    assert captions[0] == f"depois da jogada 1 de {len(turns)}" and locale == "pt_BR"
    # The goal card each player kept is secret until the end: no frame before the last shows it.
    match, _version, record = await w.store.load_match(game_id)
    kept = match.view(None)["goal_cards"]["kept"]
    assert all(kept)  # revealed at the end: the test knows what to look for
    assert all(s[0]["goal_cards"]["kept"] == [None, None] for s in steps[:-1])
    assert str(record.seed) not in repr(recorder.sent)
    assert w.env.errors == []


@pytest.mark.slow
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

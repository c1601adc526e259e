"""The sandbox's clock and page: timers fire on the simulated clock, and the clock cannot die silently."""

from __future__ import annotations

import asyncio
import json
import logging
import random

import pytest

import sandbox
from cogs.client import DiscordPlaces
from sandbox import SandboxPage
from tests.botkit import custom_ids, open_game
from tests.test_bot_timers import logged, timeouts

HOUR = 3600


def reminders(thread) -> list:
    return [m for m in thread.history() if m.content.startswith("⏰")]


async def until(condition, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("it did not happen")


@pytest.mark.slow
async def test_the_sandbox_clock_fires_turn_timers_while_the_page_is_open(world):
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    async with world.env.preview(world.channel, viewers=world.members[:2], layout="channel", port=0) as preview:
        page = SandboxPage(world.env, preview, world.channel, world.bot)
        await page.tick(HOUR / 2 - 5)
        await world.env.settle()  # whatever the tick set going has run: no reminder is due yet
        assert reminders(thread) == []
        await page.tick(10)
        await until(lambda: len(reminders(thread)) == 1)
        await page.tick(HOUR / 2)
        await until(lambda: len(timeouts(thread)) == 1)
    assert [entry.source for entry in await logged(world, game_id)][-1] == "timeout"


async def test_a_failing_tick_is_logged_and_the_clock_goes_on(world, monkeypatch, caplog):
    async with world.env.preview(world.channel, viewers=world.members[:1], layout="channel", port=0) as preview:
        page = SandboxPage(world.env, preview, world.channel, world.bot)
        ticks: list[float] = []

        async def tick(seconds: float) -> None:
            ticks.append(seconds)
            if len(ticks) == 2:
                raise RuntimeError("operation overlaps active preview.action")

        monkeypatch.setattr(page, "tick", tick)
        monkeypatch.setattr(sandbox, "CLOCK_STEP", 0.01)
        caplog.set_level(logging.ERROR, logger="kokeshi.sandbox")
        clock = asyncio.create_task(page.run_clock())
        await until(lambda: len(ticks) >= 5)
        clock.cancel()
    assert "the sandbox clock failed" in caplog.text


async def test_follow_moves_the_page_to_a_game_thread_and_refuses_other_channels(world):
    game_id, thread = await open_game(world, players=2)
    async with world.env.preview(world.channel, viewers=world.members[:2], layout="channel", port=0) as preview:
        page = SandboxPage(world.env, preview, world.channel, world.bot)
        assert page.follow(thread.id)
        assert page.current_id == thread.id and preview.channel.id == thread.id
        snapshot = await preview.snapshot()
        assert snapshot["messages"], "the thread's messages are shown"
        assert not page.follow(123456789)
        assert page.follow(world.channel.id) and page.current_id == world.channel.id


async def test_the_bot_points_at_places_discords_way_and_the_sandbox_gives_it_its_pages_way(world):
    game_id, thread = await open_game(world, players=2)
    bot = world.bot
    # On Discord: a mention, and nothing to follow.
    assert isinstance(bot.places, DiscordPlaces)
    assert bot.channel_link(thread.id, "Kokeshi #1") == f"<#{thread.id}>"
    assert bot.follow_channel(thread.id) is None
    async with world.env.preview(world.channel, viewers=world.members[:2], layout="channel", port=0) as preview:
        page = SandboxPage(world.env, preview, world.channel, bot)
        door = sandbox.FrontDoor(page, "127.0.0.1", 8765, key="k")
        bot.places = sandbox.PagePlaces(door)
        # In the sandbox: a link that moves the page, and the page follows a game the bot opened for the person.
        assert bot.channel_link(thread.id, "Kokeshi #1") == f"[Kokeshi #1](http://127.0.0.1:8765/k/channel/{thread.id})"
        bot.follow_channel(thread.id)
        assert page.current_id == thread.id
    # What differs is given to the bot, never patched into it: its methods are the class's own.
    assert "channel_link" not in vars(bot) and "follow_channel" not in vars(bot)


async def test_the_front_door_serves_the_page_with_its_script_and_passes_the_rest_to_the_preview(world):
    import aiohttp

    from sandbox import FrontDoor

    async with world.env.preview(world.channel, viewers=world.members[:2], layout="channel", port=0) as preview:
        door = FrontDoor(SandboxPage(world.env, preview, world.channel, world.bot), "127.0.0.1", 0, key="the-key")
        await door.start()
        try:
            door.port = door.runner.addresses[0][1]
            base = f"http://127.0.0.1:{door.port}"
            assert door.url == f"{base}/the-key/"
            async with aiohttp.ClientSession() as http:
                async with http.get(door.url, allow_redirects=False) as answer:
                    assert answer.status == 302
                    assert answer.headers["Location"] == f"/the-key/play#{preview.capability}"
                for wrong in ("/not-the-key/", "/not-the-key/play"):
                    async with http.get(base + wrong) as answer:
                        assert answer.status == 404
                async with http.get(base + "/the-key/play") as answer:
                    page = await answer.text()
                    assert answer.status == 200 and "Content-Security-Policy" in answer.headers
                assert '<script type="module" src="/app.js"></script>' in page
                tag = f'<script type="module" src="{FrontDoor.SCRIPT}" data-home="{world.channel.id}" '
                assert tag + 'data-home-name="kokeshi"></script></body>' in page
                async with http.get(base + FrontDoor.SCRIPT) as answer:
                    assert answer.status == 200 and "viewer-picker" in await answer.text()
                # The preview still checks every request: without the capability, nothing.
                async with http.post(base + "/api/pages", json={}) as answer:
                    assert answer.status == 401
                async with http.post(
                    base + "/api/pages",
                    json={},
                    headers={"X-Simcord-Capability": preview.capability, "Origin": base},
                ) as answer:
                    assert answer.status == 200
                    assert (await answer.json())["context"]["id"]
        finally:
            await door.close()


async def test_a_new_page_opens_as_the_viewer_its_tab_last_chose(world):
    import aiohttp

    from sandbox import FrontDoor

    async with world.env.preview(world.channel, viewers=world.members, layout="channel", port=0) as preview:
        door = FrontDoor(SandboxPage(world.env, preview, world.channel, world.bot), "127.0.0.1", 0)
        await door.start()
        try:
            base = f"http://127.0.0.1:{door.runner.addresses[0][1]}"
            headers = {"X-Simcord-Capability": preview.capability, "Origin": base}

            async def opened(cookie: str | None) -> str:
                cookies = {FrontDoor.VIEWER_COOKIE: cookie} if cookie is not None else {}
                async with (
                    aiohttp.ClientSession(cookies=cookies) as http,
                    http.post(base + "/api/pages", json={}, headers=headers) as answer,
                ):
                    assert answer.status == 200
                    return (await answer.json())["viewerId"]

            first, third = str(world.members[0].id), str(world.members[2].id)
            assert await opened(third) == third
            # No cookie, or one that names nobody of the sandbox: the page opens as the preview chooses.
            for cookie in (None, "", "123", "Botan", str(world.bot.user.id)):
                assert await opened(cookie) == first
        finally:
            await door.close()


async def test_the_script_moves_the_pages_to_a_channel_in_place(world):
    import aiohttp

    from sandbox import FrontDoor

    game_id, thread = await open_game(world, players=2)
    async with world.env.preview(world.channel, viewers=world.members[:2], layout="channel", port=0) as preview:
        page = SandboxPage(world.env, preview, world.channel, world.bot)
        door = FrontDoor(page, "127.0.0.1", 0)
        await door.start()
        try:
            base = f"http://127.0.0.1:{door.runner.addresses[0][1]}/{door.key}"
            async with aiohttp.ClientSession() as http:
                async with http.post(f"{base}/follow/{thread.id}") as answer:
                    assert answer.status == 204
                assert page.current_id == thread.id
                for wrong in (f"{base}/follow/123", f"{base}/follow/kokeshi", f"{base}x/follow/{world.channel.id}"):
                    async with http.post(wrong) as answer:
                        assert answer.status == 404
                assert page.current_id == thread.id
                async with http.post(f"{base}/follow/{world.channel.id}") as answer:
                    assert answer.status == 204
                assert page.current_id == world.channel.id
        finally:
            await door.close()


# ---------------------------------------------------------------------- the world kept over a restart


class Started:
    """The sandbox's world around a fresh bot, made as `sandbox.run` makes it: founded, restored, connected."""

    def __init__(self, database: str, folder, *, later: float = 0.0) -> None:
        self.database = database
        self.folder = folder
        self.later = later  # seconds the sandbox was stopped (its clock starts this much later)

    async def __aenter__(self):
        import simcord

        from bot import create_bot
        from cogs.thinking import Thinker
        from sandbox_world import SavedWorld, found
        from tests.botkit import _AI_THREADS, World

        bot = create_bot(self.database)
        bot.tables.thinker = Thinker(pool=_AI_THREADS)
        self.env = simcord.Env(bot)
        self.founding = found(self.env, server="Kokeshi Sandbox", channel="kokeshi", players=sandbox.PLAYERS)
        self.saved = await SavedWorld.open(self.folder, self.database)
        self.restored = self.saved.restore(self.env, self.founding.channel)
        if self.later:
            self.env.backend.advance_clock(self.later)
        await self.env.start()
        founding = self.founding
        self.world = World(self.env, founding.guild, founding.channel, founding.players)
        return self

    async def save(self, *, everything: bool = True) -> None:
        """What the sandbox writes at each tick of its clock (what changed), or when it stops (everything)."""
        from sandbox_world import write_all

        writes, removals = self.saved.changes(everything=everything)
        write_all(writes, removals + (self.saved.prune() if everything else []))

    async def __aexit__(self, *exc) -> None:
        await self.env.shutdown()
        await self.env.bot.close()


def ids(started: Started) -> dict:
    f = started.founding
    return {
        "guild": f.guild.id,
        "channel": f.channel.id,
        "players": [p.id for p in f.players],
        "bot": started.env.backend.bot_user.id,
    }


# The ids every sandbox has had since its world was first kept: a change here orphans every saved sandbox's games.
FOUNDING_IDS = {
    "guild": 1378523440742400004,
    "channel": 1378523440742400007,
    "players": [1378523440742400000, 1378523440742400001, 1378523440742400002, 1378523440742400003],
    "bot": 1456074443980800001,
}


async def test_every_start_makes_the_same_server_channel_players_and_bot(tmp_path):
    first = Started(str(tmp_path / "a.sqlite3"), tmp_path / "a")
    async with first:
        before = ids(first)
        players = [p.user.name for p in first.founding.players]
    second = Started(str(tmp_path / "b.sqlite3"), tmp_path / "b")
    async with second:
        assert ids(second) == before
    assert before == FOUNDING_IDS
    assert players == ["Aiko", "Botan", "Chiyo", "Daichi"]


async def test_a_restart_brings_back_the_threads_messages_pictures_and_timers_and_the_game_goes_on(tmp_path):
    from tests.botkit import answer, load_game, open_game, prompt_message

    database, folder = str(tmp_path / "kokeshi.sqlite3"), tmp_path / "world"
    async with Started(database, folder) as first:
        w = first.world
        game_id, thread = await open_game(w, players=2, timer=HOUR)
        # Saved as the clock saves it, a little after each change; the prompt is edited in place meanwhile.
        for step in range(4):
            assert (await answer(w, game_id, thread, random.Random(step))).acknowledged
            await first.save(everything=False)
        prompt = await prompt_message(w, game_id, thread)
        edited = prompt.content + "\n(edited in place)"
        await w.bot.get_channel(thread.id).get_partial_message(prompt.id).edit(content=edited)
        await first.save(everything=False)
        messages = {m.id: m for m in first.env.backend.messages[thread.id].values() if not m.is_ephemeral}
        pictures = {a["url"]: first.env.backend.cdn.get(a["url"]) for m in messages.values() for a in m.attachments}
        # Only the pictures the thread still shows are kept (not those of the prompts it replaced).
        shown = {str(a["id"]) for m in messages.values() for a in m.attachments}
        assert {path.name for path in (folder / "files").iterdir()} == shown
        timers = await w.store.timers(game_id)
        posts = await w.store.turn_posts(game_id)
        home = [m.content for m in first.env.backend.messages[w.channel.id].values() if not m.is_ephemeral]
    assert pictures and all(pictures.values())

    async with Started(database, folder) as second:
        w = second.world
        backend = second.env.backend
        assert second.restored == len(messages) + len(home)
        restored = next(t for t in w.channel.threads if t.id == thread.id)
        assert backend.messages[thread.id] == messages
        assert {url: backend.cdn.get(url) for url in pictures} == pictures
        assert [m.content for m in backend.messages[w.channel.id].values()] == home
        # The bot knows the thread, the game's records are unchanged, and its prompt's buttons answer.
        assert second.env.bot.get_channel(thread.id) is not None
        assert await w.store.timers(game_id) == timers
        assert await w.store.turn_posts(game_id) == posts
        prompt = await prompt_message(w, game_id, restored)
        assert prompt.id in messages and prompt.content == edited
        _, version = await load_game(w, game_id)
        result = await answer(w, game_id, restored, random.Random(9))
        assert result.acknowledged and not result.ephemeral, result
        assert (await load_game(w, game_id))[1] > version
        assert backend.messages[thread.id] != messages  # the thread shows the move


async def test_a_world_saved_for_another_database_is_not_restored(tmp_path):
    from tests.botkit import open_game

    folder = tmp_path / "world"
    async with Started(str(tmp_path / "one.sqlite3"), folder) as first:
        await open_game(first.world, players=2)
        await first.save()
    async with Started(str(tmp_path / "other.sqlite3"), folder) as second:
        assert second.restored == 0
        assert second.world.channel.threads == []


async def test_a_prompt_the_saved_world_lacks_is_posted_again_for_the_same_turn(tmp_path):
    from tests.botkit import open_game, prompt_message

    database, folder = str(tmp_path / "kokeshi.sqlite3"), tmp_path / "world"
    async with Started(database, folder) as first:
        game_id, thread = await open_game(first.world, players=2, timer=HOUR)
        await first.save()
        lost = (await first.world.store.get_message(game_id, "prompt"))[1]
        # The world on disk was saved before the prompt: as after a crash just after it was posted.
        saved = json.loads((folder / "channels" / f"{thread.id}.json").read_text())
        kept = [m for m in saved if m["id"] != lost]
        (folder / "channels" / f"{thread.id}.json").write_text(json.dumps(kept))
        timers = await first.world.store.timers(game_id)
        posts = await first.world.store.turn_posts(game_id)
    async with Started(database, folder) as second:
        w = second.world
        restored = next(t for t in w.channel.threads if t.id == thread.id)
        assert not second.saved.present(thread.id, lost)
        await sandbox.show_lost_prompts(second.env.bot, second.saved, w.guild.id)
        prompt = await prompt_message(w, game_id, restored)
        assert prompt.id != lost and prompt.components
        # The same turn: its timers and its place in the game are those it had.
        assert await w.store.timers(game_id) == timers
        after = await w.store.turn_posts(game_id)
        assert (after.turn_key, after.turn_version) == (posts.turn_key, posts.turn_version)


# Kōhaku, and Kokeshi at the platform's table (as `/kokeshi solo` and `/games new` deal it).
@pytest.mark.parametrize("game", ["kohaku", "kokeshi"])
async def test_another_games_turn_the_saved_world_lacks_is_posted_again_with_its_deadline(tmp_path, game):
    from tests.test_bot_matches import current_prompt, open_table

    database, folder = str(tmp_path / "kokeshi.sqlite3"), tmp_path / "world"
    async with Started(database, folder) as first:
        game_id, thread = await open_table(first.world, game, players=2, joiners=0, ai=1, level="easy")
        await first.save()
        lost = (await first.world.store.get_message(game_id, "prompt"))[1]
        saved = json.loads((folder / "channels" / f"{thread.id}.json").read_text())
        (folder / "channels" / f"{thread.id}.json").write_text(json.dumps([m for m in saved if m["id"] != lost]))
        timers = await first.world.store.timers(game_id)
        version = (await first.world.store.get_game(game_id)).version
    assert [t.kind for t in timers] == ["reminder_half", "reminder_late", "deadline"]
    async with Started(database, folder) as second:
        w = second.world
        restored = next(t for t in w.channel.threads if t.id == thread.id)
        await sandbox.show_lost_prompts(second.env.bot, second.saved, w.guild.id)
        prompt = await current_prompt(w, game_id, restored)
        # The same turn, its buttons for the same version, the deadline it had (shown, and stored unchanged).
        assert prompt.id != lost
        assert any(
            c.startswith((f"mt:s:{game_id}:{version}", f"mt:a:{game_id}:{version}:", f"mt:g:{game_id}:{version}"))
            for c in custom_ids(prompt)
        )
        assert f"<t:{int(timers[-1].due_at)}:f>" in prompt.content
        assert await w.store.timers(game_id) == timers
        assert (await w.store.get_game(game_id)).version == version


async def test_a_turn_timer_that_fell_due_while_the_sandbox_was_stopped_fires_when_it_starts_again(tmp_path):
    from tests.botkit import load_game, open_game

    database, folder = str(tmp_path / "kokeshi.sqlite3"), tmp_path / "world"
    async with Started(database, folder) as first:
        game_id, thread = await open_game(first.world, players=2, timer=HOUR)
        player = (await load_game(first.world, game_id))[0].prompt.player
        await first.save()
    async with Started(database, folder, later=2 * HOUR) as second:
        restored = next(t for t in second.world.channel.threads if t.id == thread.id)
        await until(lambda: len(timeouts(restored)) == 1, seconds=20)
        log = await logged(second.world, game_id)
        assert log[-1].source == "timeout" and log[-1].player == player


def test_a_still_png_is_shown_as_drawn_and_anything_else_gets_the_previews_own_check():
    import io as _io

    from PIL import Image
    from simcord.preview._media import MediaError

    from render import png_unfiltered

    drawn = Image.new("RGB", (320, 200), (200, 80, 40))
    ours = png_unfiltered(drawn)
    info = sandbox.check_picture(ours, None)
    # The bot's own picture is kept byte for byte, with its size.
    assert (info.normalized, info.width, info.height, info.frames) == (ours, 320, 200, 1)
    # A JPEG (not a picture the bot draws) is decoded and encoded again by the preview.
    buffer = _io.BytesIO()
    drawn.save(buffer, format="JPEG")
    other = sandbox.check_picture(buffer.getvalue(), None)
    assert other.normalized.startswith(b"\x89PNG") and other.normalized != buffer.getvalue()
    assert (other.width, other.height) == (320, 200)
    # A damaged PNG gets the preview's verdict: refused.
    broken = ours[:60] + bytes(len(ours) - 60)
    with pytest.raises(MediaError):
        sandbox.check_picture(broken, None)

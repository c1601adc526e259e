"""The sandbox's clock and page: timers fire on the simulated clock, and the clock cannot die silently."""

from __future__ import annotations

import asyncio
import logging

import sandbox
from sandbox import SandboxPage
from tests.botkit import open_game

HOUR = 3600


def reminders(thread) -> list:
    return [m for m in thread.history() if m.content.startswith("⏰")]


async def until(condition, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("it did not happen")


async def test_the_sandbox_clock_fires_turn_timers_while_the_page_is_open(world):
    game_id, thread = await open_game(world, players=2, timer=HOUR)
    async with world.env.preview(world.channel, viewers=world.members[:2], layout="channel", port=0) as preview:
        page = SandboxPage(world.env, preview, world.channel, world.bot)
        await page.tick(HOUR / 2 - 5)
        await asyncio.sleep(0.2)
        assert reminders(thread) == []
        await page.tick(10)
        await until(lambda: len(reminders(thread)) == 1)
        await page.tick(HOUR / 2)
        await until(lambda: any("time ran out" in m.content for m in thread.history()))
    assert [entry.source for entry in await world.store.log(game_id)][-1] == "timeout"


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


async def test_the_front_door_serves_the_page_with_its_script_and_passes_the_rest_to_the_preview(world):
    import aiohttp

    from sandbox import FrontDoor

    async with world.env.preview(world.channel, viewers=world.members[:2], layout="channel", port=0) as preview:
        door = FrontDoor(SandboxPage(world.env, preview, world.channel, world.bot), "127.0.0.1", 0)
        await door.start()
        try:
            door.port = door.runner.addresses[0][1]
            base = f"http://127.0.0.1:{door.port}"
            async with aiohttp.ClientSession() as http:
                async with http.get(door.url, allow_redirects=False) as answer:
                    assert answer.status == 302
                    assert answer.headers["Location"] == f"/#{preview.capability}"
                async with http.get(f"{base}/not-the-key/") as answer:
                    assert answer.status == 404
                async with http.get(base + "/") as answer:
                    page = await answer.text()
                    assert answer.status == 200 and "Content-Security-Policy" in answer.headers
                assert '<script type="module" src="/app.js"></script>' in page
                assert f'<script type="module" src="{FrontDoor.SCRIPT}"></script></body>' in page
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

"""Operations metrics: served over HTTP in Prometheus's format when a port is set, and they move with the bot."""

from __future__ import annotations

import asyncio
import random
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import create_bot
from cogs.thinking import Thinker
from tests.botkit import _AI_THREADS, answer, load_game, new_lobby, open_game

HOUR = 3600


@pytest.fixture
async def simcord_bot(db_path):
    # Any free port: the bot says which one it took.
    bot = create_bot(db_path, metrics_port=0)
    bot.tables.thinker = Thinker(pool=_AI_THREADS)
    yield bot
    await bot.close()


async def scrape(bot) -> dict[tuple[str, tuple], float]:
    """One real HTTP GET of /metrics: every sample by (name, sorted labels)."""
    url = f"http://127.0.0.1:{bot.metrics_port}/metrics"

    def get() -> str:
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.status == 200 and response.headers["Content-Type"].startswith("text/plain")
            return response.read().decode()

    text = await asyncio.to_thread(get)
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, metric: str, **labels) -> float:
    return samples.get((metric, tuple(sorted(labels.items()))), 0.0)


@pytest.mark.slow
async def test_the_metrics_are_served_and_move_with_games_clicks_refusals_and_timers(world):
    bot = world.bot
    assert bot.metrics_port and bot.metrics_port > 0
    before = await scrape(bot)
    for name in (
        "kokeshi_games",
        "kokeshi_games_unreachable",
        "kokeshi_ai_queue",
        "kokeshi_games_marked_unreachable_total",
    ):
        assert any(n == name for n, _ in before), name
    assert value(before, "kokeshi_games", state="active") == 0

    game_id, _lobby, _ = await new_lobby(world, players=2)
    lobby = await scrape(bot)
    assert value(lobby, "kokeshi_games", state="lobby") == 1
    assert value(lobby, "kokeshi_interactions_total", type="command", name="kokeshi new") == 1
    assert value(lobby, "kokeshi_first_response_seconds_count", name="kokeshi new") == 1
    # Answered at once: the first response is in the lowest bucket of SimCord's clock.
    assert value(lobby, "kokeshi_first_response_seconds_bucket", name="kokeshi new", le="0.01") == 1

    game_id, thread = await open_game(world, players=2, timer=HOUR)
    for _ in range(3):
        await answer(world, game_id, thread, random.Random(1))
    playing = await scrape(bot)
    assert value(playing, "kokeshi_games", state="active") == 1
    clicks = value(playing, "kokeshi_interactions_total", type="click", name="prompt menu") + value(
        playing, "kokeshi_interactions_total", type="click", name="prompt button"
    )
    assert clicks >= 3
    assert value(playing, "kokeshi_interactions_total", type="click", name="lobby button") >= 2

    # A reminder fires: the timer loop's lag is measured (on time here).
    await world.env.advance_time(HOUR // 2)
    timed = await scrape(bot)
    assert value(timed, "kokeshi_timer_lag_seconds_count") >= 1
    assert value(timed, "kokeshi_timer_lag_seconds_sum") <= 1.0

    # Discord refuses the thread: the refusals are counted by status and code, and after a day the game is
    # counted as unreachable.
    world.env.backend.faults.append(
        {
            "method": "*",
            "path": f"/channels/{thread.id}/messages*",
            "status": 403,
            "code": 50001,
            "message": "Missing Access",
            "times": None,
        }
    )
    game, version = await load_game(world, game_id)
    mover = world.member(game.prompt.player)
    await mover.slash(world.channel, "kokeshi play", choice=f"{version}:{game.legal_actions()[0]}")
    for _ in range(26):
        await world.env.advance_time(HOUR)
    stuck = await scrape(bot)
    assert value(stuck, "kokeshi_discord_refusals_total", status="403", code="50001") >= 20
    assert value(stuck, "kokeshi_games_unreachable") == 1
    assert value(stuck, "kokeshi_games_marked_unreachable_total") == 1
    assert world.env.errors == []


async def test_the_ai_queue_counts_decisions_waiting_for_the_pool(world):
    thinker = world.bot.tables.thinker
    started, release = asyncio.Event(), asyncio.Event()
    loop = asyncio.get_running_loop()

    def slow() -> str:
        loop.call_soon_threadsafe(started.set)
        asyncio.run_coroutine_threadsafe(release.wait(), loop).result(10)
        return "chosen"

    world.bot.tables.thinker = Thinker(pool=_AI_THREADS)
    task = asyncio.ensure_future(world.bot.tables.thinker.run(slow))
    await started.wait()  # the decision is in the pool
    assert value(await scrape(world.bot), "kokeshi_ai_queue") == 1
    release.set()
    await task
    assert value(await scrape(world.bot), "kokeshi_ai_queue") == 0
    world.bot.tables.thinker = thinker

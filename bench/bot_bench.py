"""Bot benchmark: per button click, the time from the interaction to the bot's final message, through SimCord."""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402

from bench.common import percentile  # noqa: E402
from bot import create_bot  # noqa: E402
from tests.botkit import NAMES, World, answer, open_game  # noqa: E402


async def play(games: int, players: int, seed: int) -> tuple[list[float], list[float], int]:
    """Click through `games` games; per click: total time and time to the first response to the interaction."""
    totals: list[float] = []
    firsts: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(str(Path(folder) / "bench.sqlite3"))
        try:
            async with simcord.run(bot) as env:
                callbacks = _stamp_callbacks(env.bot)
                guild = env.create_guild("Bench")
                channel = guild.create_text_channel("kokeshi")
                world = World(env, guild, channel, [guild.add_member(env.create_user(n)) for n in NAMES])
                rng = random.Random(seed)
                for _ in range(games):
                    game_id, thread = await open_game(world, players=players)
                    while (await world.store.load_game(game_id))[0].prompt is not None:
                        callbacks.clear()
                        start = time.perf_counter()
                        result = await answer(world, game_id, thread, rng)
                        totals.append((time.perf_counter() - start) * 1000)
                        assert result.acknowledged
                        firsts.append((callbacks[0] - start) * 1000)
        finally:
            await bot.close()
    return totals, firsts, len(totals)


def _stamp_callbacks(bot) -> list[float]:
    """Record when the bot first answers an interaction (defer or reply), to time the first response."""
    from discord.webhook.async_ import AsyncWebhookAdapter

    stamps: list[float] = []
    respond = AsyncWebhookAdapter.create_interaction_response

    def timed(self, *args, **kwargs):
        stamps.append(time.perf_counter())
        return respond(self, *args, **kwargs)

    AsyncWebhookAdapter.create_interaction_response = timed
    return stamps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="one short game")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    games = 1 if args.quick else 3
    totals, firsts, clicks = asyncio.run(play(games, players=2, seed=1))
    print(f"{clicks} clicks over {games} two-player games (engine + render + commit + send)")
    print(
        f"click to final message: p50 {statistics.median(totals):.0f} ms  p99 {percentile(totals, 0.99):.0f} ms  "
        f"max {max(totals):.0f} ms"
    )
    print(f"first response to the interaction: p50 {statistics.median(firsts):.1f} ms  max {max(firsts):.1f} ms")
    print("goal: p99 <= 300 ms, first response within 1 s")


if __name__ == "__main__":
    main()

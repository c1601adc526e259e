"""Bot benchmark: per button click, the bot's CPU time and the time to its final message, through SimCord.

The harness looks up the prompt message directly (not by copying the thread's history) before the clock starts,
so what is timed is the click: the bot's engine, render, encode, commit and sends, and SimCord delivering them.
The same games are played twice in one run, with the pictures encoded as before (Pillow's PNG at level 1) and as
now (`render.encode`), so the two figures are measured side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import io
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
from simcord.results import to_discord_message  # noqa: E402

import render  # noqa: E402
from bench.common import percentile  # noqa: E402
from bot import create_bot  # noqa: E402
from tests.botkit import NAMES, World, components, open_game  # noqa: E402


async def _click(world: World, game_id: int, thread, rng: random.Random):
    """Prepare one answer to the current prompt (outside the timing) and return the coroutine that sends it."""
    game, version = await world.store.load_game(game_id)
    member = world.member(game.prompt.player)
    action = rng.choice(game.legal_actions())
    _, message_id = await world.store.get_message(game_id, "prompt")
    message = to_discord_message(world.env, world.env.backend.messages[thread.id][message_id])
    parts = components(message)
    kind = parts[0]["custom_id"].split(":")[1]
    if kind == "a":
        return member.click(message, custom_id=f"kk:a:{game_id}:{version}:{action}")
    if kind == "s":
        return member.select(message, [action], custom_id=parts[0]["custom_id"])
    chooser = await member.select(message, [action.split(":")[1]], custom_id=parts[0]["custom_id"])
    return member.click(chooser.response, custom_id=f"kk:a:{game_id}:{version}:{action}")


async def play(games: int, players: int, seed: int) -> tuple[list[float], list[float], list[float]]:
    """Click through `games` games; per click: wall time, CPU time and time to the first response."""
    totals: list[float] = []
    cpus: list[float] = []
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
                        click = await _click(world, game_id, thread, rng)
                        callbacks.clear()
                        cpu, start = time.process_time(), time.perf_counter()
                        result = await click
                        totals.append((time.perf_counter() - start) * 1000)
                        cpus.append((time.process_time() - cpu) * 1000)
                        assert result.acknowledged
                        firsts.append((callbacks[0] - start) * 1000)
        finally:
            await bot.close()
    return totals, cpus, firsts


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


def _pillow_png(img) -> bytes:
    """The encoding the bot used before: Pillow's PNG at level 1 (it chooses a filter for every row)."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="one short game each way")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    games = 1 if args.quick else 3
    encode = render.encode
    runs = {}
    for label, encoder in (("before (Pillow PNG)", _pillow_png), ("now (render.encode)", encode)):
        render.encode = encoder
        try:
            runs[label] = asyncio.run(play(games, players=2, seed=1))
        finally:
            render.encode = encode
    for label, (totals, cpus, firsts) in runs.items():
        print(f"{label}: {len(totals)} clicks over {games} two-player games (engine + render + commit + send)")
        print(f"  bot CPU per click: p50 {statistics.median(cpus):.1f} ms  p99 {percentile(cpus, 0.99):.1f} ms")
        print(
            f"  click to final message: p50 {statistics.median(totals):.0f} ms  "
            f"p99 {percentile(totals, 0.99):.0f} ms  max {max(totals):.0f} ms"
        )
        print(f"  first response to the interaction: p50 {statistics.median(firsts):.1f} ms  max {max(firsts):.1f} ms")
    (_, before, _), (_, now, _) = runs.values()
    ratio = statistics.median(now) / statistics.median(before)
    print(f"bot CPU per click, now / before (p50): {ratio:.2f} (goal <= 0.50)")
    print("goal: p99 <= 300 ms, first response within 1 s")


if __name__ == "__main__":
    main()

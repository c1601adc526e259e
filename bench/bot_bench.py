"""Bot benchmark through SimCord: clicks one at a time, bursts of 100 games at once, refusals over 54 hours.

Clicks: per button click, the bot's CPU time and the time to its final message. The harness looks up the prompt
message directly (not by copying the thread's history) before the clock starts, so what is timed is the click: the
bot's engine, render, encode, commit and sends, and SimCord delivering them. The same games are played twice in one
run, with the pictures encoded as before (Pillow's PNG at level 1) and as now (`render.encode`), side by side.

The platform's table (`--only platform`): the same per click for the decisions of two-person games at `/games`
(Kōhaku, and Kokeshi), side by side in one run with `/kokeshi new`'s games (dealt at Kokeshi's own table by a checkout
older than the switch to one table, at the platform's since);
the click timed is the one that decides (a private menu opened or a group picked before it is not timed). `calls`
counts what a click asks of the store at both tables.

Bursts: 100 games in one process act at the same moment, one kind of interaction at a time (100 `/kokeshi new`,
100 Join clicks, 100 Start clicks, 100 prompt clicks, 100 `/kokeshi notify`, 100 `/kokeshi status`): every
interaction is handed to the bot before any is handled, and the real time from there to the bot's first response
(its defer or answer) is measured per kind. Discord drops an interaction not answered within 3 s.

Refusals: a game whose thread refuses the bot's posts (Missing Permissions, Missing Access, a locked thread), and a
server that removes the bot (GUILD_DELETE, then 403 Missing Access on its channels, as on Discord), are left for 54
hours of SimCord's clock; every request Discord refused is counted at the transport.

`--code DIR` runs the clicks (the platform's too), the bursts and the refusals against another checkout of the bot as
well (e.g. the previous version, exported with `git archive`), so before and after are measured by the same harness in
one run.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# `--code DIR` (or BENCH_CODE, for the child run) measures the bot of another checkout.
CODE = Path(os.environ.get("BENCH_CODE") or ROOT)
sys.path.insert(0, str(CODE))

import simcord  # noqa: E402
from simcord.results import to_discord_message  # noqa: E402

import render  # noqa: E402
from bench.common import percentile  # noqa: E402
from bot import create_bot  # noqa: E402
from tests.botkit import NAMES, World, components, open_game  # noqa: E402


async def _own_game(store: Any, game_id: int) -> tuple[Any, int]:
    """(the engine's game, the version) of a game at Kokeshi's own table (its log by name: a checkout whose `/kokeshi
    new` deals there), read through the contract by its seating: the engine names its players as the table does."""
    match, version, _record = await store.load_match(game_id)
    return match.engine, version


async def _click(world: World, game_id: int, thread, rng: random.Random):
    """Prepare one answer to the current prompt (outside the timing) and return the coroutine that sends it: at
    Kokeshi's own table (a checkout whose `/kokeshi new` deals there), or at the platform's."""
    if not getattr(await world.store.get_game(game_id), "named_log", True):
        return await _match_click(world, game_id, thread, rng)
    game, version = await _own_game(world.store, game_id)
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
                    while (await world.store.get_game(game_id)).status == "active":
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


async def store_calls(games: int, seed: int) -> list[dict[str, int]]:
    """Per click of a two-player game, what the bot asked of its store (see `tests.botkit.StoreCalls`)."""
    from tests.botkit import StoreCalls  # the counting harness the tests use (not in older checkouts)

    found: list[dict[str, int]] = []
    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(str(Path(folder) / "bench.sqlite3"))
        try:
            async with simcord.run(bot) as env:
                guild = env.create_guild("Bench")
                channel = guild.create_text_channel("kokeshi")
                world = World(env, guild, channel, [guild.add_member(env.create_user(n)) for n in NAMES])
                rng = random.Random(seed)
                for _ in range(games):
                    game_id, thread = await open_game(world, players=2)
                    while (await world.store.get_game(game_id)).status == "active":
                        click = await _click(world, game_id, thread, rng)
                        counter = StoreCalls(bot.store)
                        try:
                            assert (await click).acknowledged
                            await env.settle()
                            found.append(counter.take())
                        finally:
                            counter.close()
        finally:
            await bot.close()
    return found


# ---------------------------------------------------------------------- the platform's table (`/games`)

# The games played at the platform's table: a game of its own, and Kokeshi.
PLATFORM_GAMES = ("kohaku", "kokeshi")


def _platform_key(game: str) -> str:
    """The key `game` is played under at `/games` in the checkout measured: its own, or for Kokeshi in a checkout
    that kept it off `/games`, the tests' second key (`kokeshiplat`, registered here)."""
    import games

    try:
        from tests.test_bot_kokeshi_platform import KEY, PlatformKokeshi  # only in such a checkout
    except ImportError:
        return game
    if game != "kokeshi":
        return game
    try:
        games.get(KEY)
    except KeyError:
        games.register(PlatformKokeshi())
    return KEY


async def _match_click(world: World, game_id: int, thread, rng: random.Random):
    """Prepare one decision at the platform's table (outside the timing): the seat's private choices opened, a
    group picked; returns the coroutine that sends the click that decides (as the click-count test does)."""
    from tests.test_bot_match_click_calls import decision

    return await decision(world, game_id, thread, rng)


async def play_platform(games: int, game: str, seed: int) -> tuple[list[float], list[float], list[float]]:
    """Click through `games` two-person games of `game` at the platform's table; per decision: wall time, CPU
    time and time to the first response."""
    import secrets

    from tests.test_bot_matches import open_table

    game = _platform_key(game)
    totals: list[float] = []
    cpus: list[float] = []
    firsts: list[float] = []
    # The same deals in every run (a table's seed is drawn by `secrets`): two checkouts play the same games.
    deals = random.Random(seed)
    drawn = secrets.randbits
    secrets.randbits = deals.getrandbits
    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(str(Path(folder) / "bench.sqlite3"))
        try:
            async with simcord.run(bot) as env:
                callbacks = _stamp_callbacks(env.bot)
                guild = env.create_guild("Bench")
                channel = guild.create_text_channel("games")
                world = World(env, guild, channel, [guild.add_member(env.create_user(n)) for n in NAMES])
                rng = random.Random(seed)
                for _ in range(games):
                    game_id, thread = await open_table(world, game, players=2, joiners=1)
                    while (await world.store.get_game(game_id)).status == "active":
                        click = await _match_click(world, game_id, thread, rng)
                        callbacks.clear()
                        cpu, start = time.process_time(), time.perf_counter()
                        result = await click
                        totals.append((time.perf_counter() - start) * 1000)
                        cpus.append((time.process_time() - cpu) * 1000)
                        assert result.acknowledged
                        firsts.append((callbacks[0] - start) * 1000)
        finally:
            secrets.randbits = drawn
            await bot.close()
    return totals, cpus, firsts


async def platform_store_calls(games: int, seed: int) -> dict[str, list[dict[str, int]]]:
    """Per decision of two-person games at the platform's table, what the bot asked of its store, by game (see
    `tests/test_bot_match_click_calls.py`, whose harness this is)."""
    from tests.test_bot_match_click_calls import counted_game

    found: dict[str, list[dict[str, int]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(str(Path(folder) / "bench.sqlite3"))
        try:
            async with simcord.run(bot) as env:
                guild = env.create_guild("Bench")
                channel = guild.create_text_channel("games")
                world = World(env, guild, channel, [guild.add_member(env.create_user(n)) for n in NAMES])
                for game in PLATFORM_GAMES:
                    for number in range(games):
                        played = await counted_game(world, _platform_key(game), seed + number)
                        found.setdefault(game, []).extend(played)
        finally:
            await bot.close()
    return found


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


# ---------------------------------------------------------------------- bursts: 100 games at once

BURST_KINDS = ("kokeshi new", "Join", "Start", "prompt", "kokeshi notify", "kokeshi status")


class _Stamps:
    """When the bot first answered each interaction (real time), seen at SimCord's transport."""

    def __init__(self) -> None:
        import simcord.http.router as router

        self.first: dict[int, float] = {}
        self.refused: list[tuple[str, str, int, int, float]] = []
        self._router = router
        self._real = router.dispatch

        def dispatch(backend, method, path, **kwargs):
            parts = path.split("/")
            if len(parts) == 5 and parts[1] == "interactions" and parts[4] == "callback":
                self.first.setdefault(int(parts[2]), time.perf_counter())
            try:
                return self._real(backend, method, path, **kwargs)
            except Exception as exc:
                status = getattr(exc, "status", None)
                if status is not None:
                    at = backend.clock.now().timestamp()
                    self.refused.append((method, path, status, getattr(exc, "code", 0), at))
                raise

        router.dispatch = dispatch

    def close(self) -> None:
        self._router.dispatch = self._real


def _emit_slash(env, member, channel, name: str, options: dict) -> int:
    """Hand a slash command to the bot without waiting for it (what `member.slash` does, minus the settling)."""
    from simcord import interactions

    parts = name.split()
    root = env.backend.find_command(parts[0], channel.guild_id if hasattr(channel, "guild_id") else None)
    if root is None:
        root = env.backend.find_command(parts[0], member.guild.id)
    leaf, nesting = interactions.walk_to_subcommand(root, parts[1:])
    leaf_options, resolved = interactions.build_options(member, name, leaf, options, channel_id=channel.id)
    data = {
        "id": root["id"],
        "name": root["name"],
        "type": 1,
        "options": interactions.nest_options(root, nesting, leaf_options),
    }
    if resolved:
        data["resolved"] = resolved
    record, payload = interactions.base_payload(
        env.backend, type=2, channel_id=channel.id, guild_id=member.guild.id, user_id=member.id, data=data
    )
    env.backend.emit("INTERACTION_CREATE", payload)
    return record.id


def _emit_component(env, member, channel_id: int, message_id: int, custom_id: str, values=None) -> int:
    """Hand a click (or a menu choice) to the bot without waiting for it."""
    from simcord import interactions
    from simcord.backend import serializers

    stored = env.backend.get_message(channel_id, message_id)
    data = {"custom_id": custom_id, "component_type": 3 if values is not None else 2}
    if values is not None:
        data["values"] = values
    record, payload = interactions.base_payload(
        env.backend, type=3, channel_id=channel_id, guild_id=member.guild.id, user_id=member.id, data=data
    )
    payload["message"] = dict(serializers.message_payload(env.backend, stored))
    record.source_message_id = stored.id
    env.backend.emit("INTERACTION_CREATE", payload)
    return record.id


def _table(record) -> str:
    """The prefix of a game's buttons: `kk` at Kokeshi's own table (its log by the players' names, as every game
    `/kokeshi new` dealt in older checkouts), `mt` at the platform's."""
    return "kk" if getattr(record, "named_log", True) else "mt"


def _custom_ids(env, channel_id: int, message_id: int) -> list[dict]:
    rows = env.backend.get_message(channel_id, message_id).components
    return [c for row in rows for c in row.get("components", [])]


async def _burst(env, stamps: _Stamps, emits) -> list[float]:
    """Hand every interaction to the bot at once, let it work, and return each one's time to a first response."""
    sent = {}
    for emit in emits:
        started = time.perf_counter()
        sent[emit()] = started
    await env.settle(timeout=1800)
    missing = [i for i in sent if i not in stamps.first]
    assert not missing, f"{len(missing)} interactions never answered"
    return [(stamps.first[i] - t) * 1000 for i, t in sent.items()]


async def bursts(games: int) -> dict[str, list[float]]:
    """`games` games acting at the same moment, one kind of interaction at a time; first response per kind (ms)."""
    from simcord.env import Env

    stamps = _Stamps()
    found: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(str(Path(folder) / "burst.sqlite3"))
        env = Env(bot, settle_timeout=1800)
        await env.start()
        try:
            with env.time_context():
                guild = env.create_guild("Burst")
                channels = [guild.create_text_channel(f"kokeshi-{i}") for i in range(5)]
                hosts = [guild.add_member(env.create_user(f"host{i}")) for i in range(games)]
                guests = [guild.add_member(env.create_user(f"guest{i}")) for i in range(games)]
                store = bot.store
                await store.set_guild_setting(guild.id, "open_per_channel", "500")
                where = [channels[i % len(channels)] for i in range(games)]

                found["kokeshi new"] = await _burst(
                    env,
                    stamps,
                    [
                        lambda h=h, c=c: _emit_slash(env, h, c, "kokeshi new", {"players": 2})
                        for h, c in zip(hosts, where, strict=False)
                    ],
                )
                lobbies = []
                lobby_records = {}
                for host in hosts:
                    [record] = [g for g in await store.games_for_user(host.id)]
                    lobby_records[record.id] = record
                    found_message = await store.get_message(record.id, "lobby")
                    for _ in range(600):  # a lobby whose message is still on its way
                        if found_message is not None:
                            break
                        await env.settle(timeout=1800)
                        await asyncio.sleep(0.1)
                        found_message = await store.get_message(record.id, "lobby")
                    channel_id, message_id = found_message
                    lobbies.append((record.id, channel_id, message_id))

                def lobby_click(member, lobby, op):
                    game_id, channel_id, message_id = lobby
                    custom_id = f"{_table(lobby_records[game_id])}:l:{game_id}:{op}"
                    return lambda: _emit_component(env, member, channel_id, message_id, custom_id)

                found["Join"] = await _burst(
                    env, stamps, [lobby_click(g, lob, "join") for g, lob in zip(guests, lobbies, strict=False)]
                )
                found["Start"] = await _burst(
                    env, stamps, [lobby_click(h, lob, "start") for h, lob in zip(hosts, lobbies, strict=False)]
                )

                clicks = []
                members = {m.id: m for m in hosts + guests}
                for game_id, *_ in lobbies:
                    for _ in range(600):  # a start still posting its first prompt
                        if await store.get_message(game_id, "prompt") is not None:
                            break
                        await env.settle(timeout=1800)
                        await asyncio.sleep(0.1)
                    record = await store.get_game(game_id)
                    channel_id, message_id = await store.get_message(game_id, "prompt")
                    menu = _custom_ids(env, channel_id, message_id)[0]
                    if _table(record) == "mt":
                        # At the platform's table: its first choice, a tile from the groups' menu or a button.
                        match, version, _record = await store.load_match(game_id)
                        (prompt,) = match.prompts()
                        mover = members[next(s.user_id for s in record.seats if s.seat == prompt.seat)]
                        if menu.get("type") == 3:
                            value = menu["options"][0]["value"]
                            clicks.append(
                                lambda m=mover, c=channel_id, i=message_id, k=menu["custom_id"], v=value: (
                                    _emit_component(env, m, c, i, k, [v])
                                )
                            )
                        else:
                            clicks.append(
                                lambda m=mover, c=channel_id, i=message_id, k=menu["custom_id"]: _emit_component(
                                    env, m, c, i, k
                                )
                            )
                        continue
                    game, version = await _own_game(store, game_id)
                    mover = members[record.seat_named(game.prompt.player).user_id]
                    action = game.legal_actions()[0]
                    if menu["custom_id"].startswith("kk:s:"):
                        clicks.append(
                            lambda m=mover, c=channel_id, i=message_id, k=menu["custom_id"], a=action: _emit_component(
                                env, m, c, i, k, [a]
                            )
                        )
                    else:
                        custom_id = f"kk:a:{game_id}:{version}:{action}"
                        clicks.append(
                            lambda m=mover, c=channel_id, i=message_id, k=custom_id: _emit_component(env, m, c, i, k)
                        )
                found["prompt"] = await _burst(env, stamps, clicks)
                found["kokeshi notify"] = await _burst(
                    env,
                    stamps,
                    [
                        lambda g=g, c=c: _emit_slash(env, g, c, "kokeshi notify on", {})
                        for g, c in zip(guests, where, strict=False)
                    ],
                )
                found["kokeshi status"] = await _burst(
                    env,
                    stamps,
                    [
                        lambda h=h, c=c: _emit_slash(env, h, c, "kokeshi status", {})
                        for h, c in zip(hosts, where, strict=False)
                    ],
                )
        finally:
            stamps.close()
            await env.shutdown()
            await bot.close()
    return found


# ---------------------------------------------------------------------- refusals over 54 hours

HOUR = 3600.0
REFUSALS = {
    "Send Messages in Threads taken away (403 Missing Permissions on posts)": ("thread", 403, 50013, ("POST",)),
    "the thread hidden from the bot (403 Missing Access)": ("thread", 403, 50001, ("POST", "PATCH", "DELETE", "GET")),
    "the thread locked (160005)": ("thread", 403, 160005, ("POST", "PATCH", "DELETE")),
    "the bot removed from the server (GUILD_DELETE, then 403 Missing Access)": ("server", 403, 50001, ("*",)),
}


async def refusals(hours: float) -> dict[str, tuple[int, int]]:
    """Per scenario: (requests Discord refused over `hours` of SimCord's clock, of them in the last 6 hours)."""
    from simcord.env import Env

    found = {}
    for label, (scope, status, code, methods) in REFUSALS.items():
        stamps = _Stamps()
        with tempfile.TemporaryDirectory() as folder:
            bot = create_bot(str(Path(folder) / "refusals.sqlite3"))
            env = Env(bot, settle_timeout=300)
            await env.start()
            try:
                with env.time_context():
                    found[label] = await _refused_game(env, stamps, scope, status, code, methods, hours)
            finally:
                stamps.close()
                await env.shutdown()
                await bot.close()
    return found


async def _refused_game(env, stamps, scope, status, code, methods, hours) -> tuple[int, int]:
    guild = env.create_guild("Refusals")
    channel = guild.create_text_channel("kokeshi")
    aiko, botan = (guild.add_member(env.create_user(n)) for n in ("aiko", "botan"))
    store = env.bot.store
    await aiko.slash(channel, "kokeshi new", players=2, timer=86400)
    [record] = await store.games_for_user(aiko.id)
    channel_id, message_id = await store.get_message(record.id, "lobby")
    lobby = to_discord_message(env, env.backend.get_message(channel_id, message_id))
    await botan.click(lobby, custom_id=f"{_table(record)}:l:{record.id}:join")
    await aiko.click(lobby, custom_id=f"{_table(record)}:l:{record.id}:start")
    record = await store.get_game(record.id)
    thread_id = record.thread_id
    if scope == "server":
        env.backend.remove_guild(guild.id)
        paths = "/channels/*"
    else:
        paths = f"/channels/{thread_id}*"
    for method in methods:
        env.backend.faults.append(
            {"method": method, "path": paths, "status": status, "code": code, "message": "refused", "times": None}
        )
    if scope == "thread":
        # The player to move finishes their turn by command: the next prompt cannot be posted.
        rng = random.Random(1)
        if _table(record) == "mt":
            match, version, _record = await store.load_match(record.id)
            mover = match.waiting()[0]
            member = aiko if next(s.user_id for s in record.seats if s.seat == mover) == aiko.id else botan
            while match.waiting() == (mover,):
                choice = f"{version}:{rng.choice(match.legal_actions(mover))}"
                await member.slash(channel, "kokeshi play", choice=choice)
                match, version, _record = await store.load_match(record.id)
        else:
            game, version = await _own_game(store, record.id)
            mover = game.prompt.player
            while game.prompt.player == mover:
                member = aiko if mover == "aiko" else botan
                await member.slash(channel, "kokeshi play", choice=f"{version}:{rng.choice(game.legal_actions())}")
                game, version = await _own_game(store, record.id)
    start = env.now().timestamp()
    stamps.refused.clear()
    elapsed = 0.0
    while elapsed < hours * HOUR:
        await env.advance_time(HOUR)
        elapsed += HOUR
    last = start + hours * HOUR - 6 * HOUR
    refused = [r for r in stamps.refused if r[4] >= start]
    return len(refused), sum(1 for r in refused if r[4] >= last)


def _report_bursts(label: str, found: dict[str, list[float]]) -> None:
    print(f"{label}: first response to each of {len(next(iter(found.values())))} interactions handed over at once")
    for kind in BURST_KINDS:
        values = found[kind]
        late = sum(v > 3000 for v in values)
        print(
            f"  {kind:<15} p50 {statistics.median(values):7.1f} ms  p99 {percentile(values, 0.99):7.1f} ms  "
            f"max {max(values):7.1f} ms  over 3 s: {late}"
        )


def _report_refusals(label: str, found: dict[str, tuple[int, int]], hours: float) -> None:
    print(f"{label}: requests Discord refused for one stuck game over {hours:g} h of SimCord's clock")
    for scenario, (total, last) in found.items():
        print(f"  {scenario}: {total} ({total / hours:.1f} an hour; {last} in the last 6 h)")


def _child(section: str, code: str, games: int, hours: float, quick: bool = False, game: str = "") -> Any:
    """Run one section against another checkout, in a process of its own; its figures come back as JSON."""
    import json

    env = dict(os.environ, BENCH_CODE=code, PYTHONPATH=code)
    out = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            f"--child-{section}",
            "--games",
            str(games),
            "--hours",
            str(hours),
            *(["--quick"] if quick else []),
            *(["--game", game] if game else []),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    import json

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one short game each way, 20-game bursts, 12 h")
    parser.add_argument("--only", choices=("clicks", "platform", "calls", "bursts", "refusals"), help="run one section")
    parser.add_argument("--code", help="also run the bursts and refusals against the bot in this directory")
    parser.add_argument("--games", type=int, default=None, help="games per burst (default 100)")
    parser.add_argument("--hours", type=float, default=None, help="simulated hours of refusals (default 54)")
    parser.add_argument("--child-clicks", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--child-platform", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--game", default="", help=argparse.SUPPRESS)
    parser.add_argument("--child-bursts", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--child-refusals", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    games = args.games or (20 if args.quick else 100)
    hours = args.hours or (12 if args.quick else 54)
    if args.child_clicks:
        print(json.dumps(asyncio.run(play(1 if args.quick else 3, players=2, seed=1))))
        return
    if args.child_platform:
        print(json.dumps(asyncio.run(play_platform(1 if args.quick else 3, args.game, seed=1))))
        return
    if args.child_bursts:
        print(json.dumps(asyncio.run(bursts(games))))
        return
    if args.child_refusals:
        print(json.dumps(asyncio.run(refusals(hours))))
        return
    if args.only in (None, "clicks"):
        clicks(args.quick)
        if args.code:
            code_clicks(args.code, args.quick)
    if args.only in (None, "platform"):
        platform(args.quick)
        if args.code:
            code_platform(args.code, args.quick)
    if args.only in (None, "calls"):
        calls(1 if args.quick else 3)
    if args.only in (None, "bursts"):
        if args.code:
            _report_bursts(f"before ({args.code})", _child("bursts", args.code, games, hours))
        _report_bursts("now", asyncio.run(bursts(games)))
        print("goal: every first response within 3 s (Discord's deadline), whatever the store is doing")
    if args.only in (None, "refusals"):
        if args.code:
            before = {k: tuple(v) for k, v in _child("refusals", args.code, games, hours).items()}
            _report_refusals(f"before ({args.code})", before, hours)
        _report_refusals("now", asyncio.run(refusals(hours)), hours)


def clicks(quick: bool) -> None:
    games = 1 if quick else 3
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


def code_clicks(code: str, quick: bool) -> None:
    """The bot's CPU per click of another checkout and of this one, each in a process of its own, one after the
    other (twice, alternating), on the same harness: before and after side by side."""
    runs: dict[str, list[float]] = {"before": [], "now": []}
    for _ in range(2):
        for label, where in (("before", code), ("now", str(ROOT))):
            _totals, cpus, _firsts = _child("clicks", where, 0, 0, quick)
            runs[label] += cpus
    print(f"bot CPU per click, before ({code}) and now, in separate processes (render.encode both):")
    for label, cpus in runs.items():
        print(
            f"  {label}: {len(cpus)} clicks  p50 {statistics.median(cpus):.1f} ms  p99 {percentile(cpus, 0.99):.1f} ms"
        )
    print(f"  now / before (p50): {statistics.median(runs['now']) / statistics.median(runs['before']):.2f}")


def calls(games: int) -> None:
    keys = ("store calls", "game loads", "full replays", "SQL statements", "write transactions")
    found = asyncio.run(store_calls(games, seed=1))
    print(f"/kokeshi new's games: per click, {len(found)} clicks over {games} two-player games (mean / max):")
    for key in keys:
        values = [f.get(key, 0) for f in found]
        print(f"  {key}: {statistics.mean(values):.1f} / {max(values)}")
    for game, clicks in asyncio.run(platform_store_calls(games, seed=1)).items():
        print(f"the platform's table, {game}: per decision, {len(clicks)} over {games} two-person games (mean / max):")
        for key in (*keys[:2], "cold loads", *keys[2:]):
            values = [f.get(key, 0) for f in clicks]
            print(f"  {key}: {statistics.mean(values):.1f} / {max(values)}")
    print("goal: at most 6 store calls, 1 load and 0 full replays per click")


def _cpu_line(label: str, cpus: list[float]) -> str:
    return f"  {label}: {len(cpus)} clicks  p50 {statistics.median(cpus):.1f} ms  p99 {percentile(cpus, 0.99):.1f} ms"


def platform(quick: bool) -> None:
    """The bot's CPU per click of `/kokeshi new`'s games and at `/games`, side by side in one process."""
    games = 1 if quick else 3
    runs = {"/kokeshi new's games": asyncio.run(play(games, players=2, seed=1))}
    for game in PLATFORM_GAMES:
        runs[f"the platform's table (/games), {game}"] = asyncio.run(play_platform(games, game, seed=1))
    print(f"bot CPU per click, {games} two-person game(s) of each, one process (render.encode):")
    for label, (totals, cpus, firsts) in runs.items():
        print(_cpu_line(label, cpus))
        print(
            f"    click to final message p50 {statistics.median(totals):.0f} ms  p99 {percentile(totals, 0.99):.0f} ms"
            f"  first response max {max(firsts):.1f} ms"
        )


def code_platform(code: str, quick: bool) -> None:
    """The bot's CPU per decision at the platform's table, of another checkout and of this one, each in a process
    of its own, one after the other (twice, alternating), on the same harness: before and after side by side."""
    for game in PLATFORM_GAMES:
        runs: dict[str, list[float]] = {"before": [], "now": []}
        for _ in range(2):
            for label, where in (("before", code), ("now", str(ROOT))):
                _totals, cpus, _firsts = _child("platform", where, 0, 0, quick, game)
                runs[label] += cpus
        print(f"bot CPU per decision at the platform's table, {game}, before ({code}) and now, separate processes:")
        for label, cpus in runs.items():
            print(_cpu_line(label, cpus))
        print(f"  now / before (p50): {statistics.median(runs['now']) / statistics.median(runs['before']):.2f}")


if __name__ == "__main__":
    main()

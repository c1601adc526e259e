"""Driving the bot as players would, through SimCord: slash commands, buttons and menus."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import random
import sqlite3
import tempfile
import types
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from simcord._runtime import _selected_env
from simcord.backend.errors import SetupError
from simcord.env import Env
from simcord.results import to_discord_message

import games
import storage
from bot import create_bot
from cogs.thinking import Thinker
from games.kokeshi import module as kokeshi_module
from games.kokeshi.engine import load_game as engine_game
from games.kokeshi.engine import policy
from tests import ai_work

_AI_THREADS = ThreadPoolExecutor(2)

NAMES = ("aiko", "botan", "chiyo", "daichi")


@pytest.fixture
def db_path(tmp_path) -> str:
    """A new SQLite database for the bot, already migrated (a copy of one migrated once per process); its challenge
    secret is made when the bot first opens it, as on a new database."""
    path = tmp_path / "kokeshi.sqlite3"
    path.write_bytes(_migrated())
    return str(path)


@functools.cache
def _migrated() -> bytes:
    """An empty database with every migration applied and no secret, made by the store itself."""

    async def make(path: str) -> None:
        store = await storage.open_store(path)
        await store.close()

    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "template.sqlite3")
        # In a thread of its own: a test's event loop may already run in this one.
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, make(path)).result()
        with sqlite3.connect(path) as db:
            db.execute("DELETE FROM meta WHERE key = 'challenge_secret'")
        return Path(path).read_bytes()


def _quick_kokeshi(module, match, seat: int, level: str, seed: int) -> str:
    """Kokeshi's `decide` at the platform's table on the tests' small budget (`tests.ai_work`)."""
    assert seat in match.waiting()
    return str(policy(level, seed=seed, budget=None if level == "easy" else ai_work.BUDGET).choose(match.engine))


# While the bot's work is under way (a task waiting on its database's thread, a picture drawn in a thread), SimCord
# looks again every 50 ms whether it has settled: most of a test's time went to these waits. It looks every 5 ms
# here: the same checks, more often (SimCord is pinned in requirements-dev.txt).
SETTLE_POLL = 0.005
assert Env.settle.__defaults__ == (None, 0.05) and Env._settle_internal.__kwdefaults__, "SimCord's settle changed"
Env.settle.__defaults__ = (None, SETTLE_POLL)
Env._settle_internal.__kwdefaults__["idle"] = SETTLE_POLL


async def _nap(seconds: float) -> None:
    """The timer loop's sleep under SimCord: only `advance_time` (or a poke) ends it. A plain sleep of a few seconds
    keeps every settle waiting for it in real time. A loop the test started itself (a poke from the test's own
    code, as the sandbox's clock does) is not the bot's work to SimCord: it sleeps plainly."""
    env = _selected_env()
    if env is not None:
        try:
            await env.external_wait(asyncio.sleep(seconds), reason="the timer loop sleeps until its next timer")
            return
        except SetupError:
            pass
    await asyncio.sleep(seconds)


@pytest.fixture
async def simcord_bot(db_path, request, monkeypatch):
    bot = create_bot(db_path)
    bot.nap = _nap
    # AI seats decide on a small budget in a thread, so games stay quick; tests of the process pool set their own.
    bot.tables.thinker = Thinker(pool=_AI_THREADS)
    # So do Kokeshi's AI seats and hints at the platform's table.
    kokeshi = games.get("kokeshi")
    monkeypatch.setattr(kokeshi, "decide", types.MethodType(_quick_kokeshi, kokeshi))
    monkeypatch.setattr(kokeshi_module, "HINT_BUDGET", ai_work.BUDGET)
    try:
        yield bot
    finally:
        # The simulated Discord never closes a bot: each one's database threads would keep pytest from exiting.
        # The environment (torn down first) may hold the bot of a restart (`restart`) rather than this one.
        env = (request.node.funcargs or {}).get("simcord_env")
        try:
            await bot.close()
        finally:
            if env is not None and env.bot is not bot:
                await env.bot.close()


@dataclass
class World:
    """One server with a #kokeshi channel and four members."""

    env: object
    guild: object
    channel: object
    members: list = field(default_factory=list)

    @property
    def bot(self):
        return self.env.bot

    @property
    def store(self):
        return self.env.bot.store

    def member(self, name: str):
        return next(m for m in self.members if m.user.name == name)


@pytest.fixture
async def world(simcord_env) -> World:
    env = simcord_env
    guild = env.create_guild("Kokeshi Club")
    channel = guild.create_text_channel("kokeshi")
    members = [guild.add_member(env.create_user(n)) for n in NAMES]
    return World(env, guild, channel, members)


async def restart(w: World, bot) -> None:
    """Stop the bot and start `bot` (a new one, on the same database) in its place, as a restarted process would.

    SimCord only detaches the old bot; it is closed here once the new one has taken over, and its database with it.
    """
    old = w.env.bot
    try:
        await w.env.restart_bot(bot)
    except BaseException:
        await bot.close()
        raise
    finally:
        await old.close()


def components(message) -> list:
    """The interactive components of a message (raw dicts or discord.py objects) as dicts."""
    rows = message.components
    found = []
    for row in rows:
        children = row["components"] if isinstance(row, dict) else [c.to_dict() for c in row.children]
        found.extend(children)
    return found


def custom_ids(message) -> list[str]:
    return [c["custom_id"] for c in components(message) if "custom_id" in c]


async def press(member, message, index: int = 0):
    """Click the message's `index`-th button, or pick the `index`-th entry of its menu."""
    parts = components(message)
    if parts[0].get("type") == 3:
        values = [o["value"] for o in parts[0]["options"]]
        return await member.select(message, [values[index % len(values)]], custom_id=parts[0]["custom_id"])
    return await member.click(message, custom_id=parts[index % len(parts)]["custom_id"])


async def lobby_message(w: World, game_id: int, channel=None):
    """The lobby (or announcement) message of a game, as its channel shows it."""
    channel_id, message_id = await w.store.get_message(game_id, "lobby")
    where = channel if channel is not None else next(c for c in w.guild.channels.values() if c.id == channel_id)
    return message_in(where, message_id)


def message_in(channel, message_id: int):
    """One public message of a SimCord channel, as `channel.history()` would give it, without building the whole
    history (a game's thread holds hundreds of messages, and a test reads its prompt at every answer)."""
    stored = channel._env.backend.messages.get(channel.id, {}).get(message_id)
    assert stored is not None and stored.visible_to(None), f"no message {message_id} in channel {channel.id}"
    return to_discord_message(channel._env, stored)


async def announced(w: World, channel=None) -> str:
    """What the bot posted in the channel for its newest game (a lobby's or a solo game's message)."""
    channel = channel or w.channel
    record = (await w.store.games_in_channel(channel.id, statuses=("lobby", "active", "finished", "cancelled")))[-1]
    return (await lobby_message(w, record.id, channel)).content


async def new_lobby(w: World, member=None, channel=None, **options):
    """`/kokeshi new` (by the first member in #kokeshi unless told): (game id, the lobby message, the result)."""
    member = member or w.members[0]
    channel = channel or w.channel
    created = await member.slash(channel, "kokeshi new", **options)
    # Answered privately; the lobby itself is the bot's message in the channel.
    assert created.acknowledged and created.ephemeral, created
    reply = created.followups[-1] if created.followups else created.response
    assert reply is not None and "is open" in reply.content, reply
    record = (await w.store.games_in_channel(channel.id))[-1]
    return record.id, await lobby_message(w, record.id, channel), created


async def open_game(w: World, players: int = 2, *, joiners: int | None = None, **options):
    """`/kokeshi new` by the first member, the others join with the button, the host starts."""
    host = w.members[0]
    _game_id, lobby, _created = await new_lobby(w, host, players=players, **options)
    for member in w.members[1 : 1 + (players - 1 - options.get("ai", 0) if joiners is None else joiners)]:
        joined = await member.click(lobby, label="Join")
        assert "You joined" in joined.response.content
    started = await host.click(lobby, label="Start")
    assert started.acknowledged
    record = (await w.store.games_in_channel(w.channel.id))[-1]
    thread = next(t for t in w.channel.threads if t.id == record.thread_id)
    return record.id, thread


async def prompt_message(w: World, game_id: int, thread):
    found = await w.store.get_message(game_id, "prompt")
    return message_in(thread, found[1])


async def load_game(w: World, game_id: int):
    """(the rules' state, version) of a game of Kokeshi: a copy of its engine that names its players as the table
    does, by their seats' names."""
    match, version, record = await w.store.load_match(game_id)
    game = engine_game(match.engine.to_json())
    named = {match.name_of(s.seat): s.name for s in record.seats}
    game.names = [named.get(n, n) for n in game.names]
    game.seating = [named.get(n, n) for n in game.seating]
    return game, version


async def _seated(w: World, game_id: int):
    """The member whose decision the game waits for, the options offered, and the version."""
    match, version, record = await w.store.load_match(game_id)
    by_seat = {s.seat: s for s in record.seats}
    prompt = next(p for p in match.prompts() if not by_seat[p.seat].ai)
    member = next(m for m in w.members if m.user.id == by_seat[prompt.seat].user_id)
    return member, [(o.id, o.group) for o in prompt.options], version


async def answer(
    w: World,
    game_id: int,
    thread,
    rng: random.Random | None = None,
    action: str | None = None,
    which_track: str = "Which track?",
):
    """The prompted player answers the current prompt through its buttons or menus (`which_track`: the private
    question after a tile is picked from a menu, in the player's language), at either table."""
    rng = rng or random.Random(0)
    member, options, version = await _seated(w, game_id)
    action = action or rng.choice([o for o, _group in options])
    message = await prompt_message(w, game_id, thread)
    parts = components(message)
    kind = parts[0]["custom_id"].split(":")[1]
    if parts[0]["custom_id"].startswith("mt:"):
        return await _answer_at_platform(member, message, game_id, version, action, dict(options)[action])
    if kind == "a":
        return await member.click(message, custom_id=f"kk:a:{game_id}:{version}:{action}")
    if kind == "s":
        return await member.select(message, [action], custom_id=parts[0]["custom_id"])
    assert kind == "t", parts
    tile = action.split(":")[1]
    chooser = await member.select(message, [tile], custom_id=parts[0]["custom_id"])
    assert chooser.ephemeral and chooser.response.content == which_track
    return await member.click(chooser.response, custom_id=f"kk:a:{game_id}:{version}:{action}")


async def _answer_at_platform(member, message, game_id: int, version: int, action: str, group: str):
    """`action` through the platform's buttons or menus: a button, an entry of a menu, or (in two steps) its group
    from the groups' menu, then its button on the private message that opens."""
    menus = [c for c in components(message) if c.get("type") == 3]
    if not menus:
        return await member.click(message, custom_id=f"mt:a:{game_id}:{version}:{action}")
    offered = {o["value"]: m for m in menus for o in m["options"]}
    wanted = next(v for v in (f"g:{group}" if group else "", f"a:{action}", action) if v in offered)
    menu = offered[wanted]
    picked = await member.select(message, [wanted], custom_id=menu["custom_id"])
    if not wanted.startswith("g:"):
        return picked
    # The group's own choices (a notice, such as a closed DM's, may come after them).
    wanted = f"mt:a:{game_id}:{version}:{action}"
    private = next(m for m in [*reversed(picked.followups), picked.response] if m and wanted in custom_ids(m))
    assert picked.ephemeral, private
    return await member.click(private, custom_id=wanted)


async def play_to_end(w: World, game_id: int, thread, seed: int = 0, limit: int = 3000) -> int:
    """Answer every prompt until the game is over; returns the number of answers."""
    rng = random.Random(seed)
    for count in range(limit):
        if (await w.store.get_game(game_id)).status != "active":
            return count
        result = await answer(w, game_id, thread, rng)
        assert result.acknowledged
    raise AssertionError("the game did not end")


def texts(thread) -> list[str]:
    return [m.content for m in thread.history()]


def attachments(message) -> list[str]:
    return [a.filename for a in message.attachments]


def is_png(data: bytes) -> bool:
    return data.startswith(b"\x89PNG")


__all__ = [
    "NAMES",
    "StoreCalls",
    "World",
    "announced",
    "answer",
    "attachments",
    "components",
    "custom_ids",
    "db_path",
    "is_png",
    "load_game",
    "lobby_message",
    "new_lobby",
    "open_game",
    "press",
    "play_to_end",
    "prompt_message",
    "restart",
    "simcord_bot",
    "texts",
    "world",
]


class StoreCalls:
    """Counts, while a click is answered, what the bot asks of its store: calls of the store's public methods (the
    outermost only: a method that calls another counts once), game loads (`load_match`), cold loads of a match (not
    held in the store's memory at its version: read back from the game's row and log), SQL statements, write
    transactions, and full replays of a game from its seed (every one starts by dealing the game again:
    `GameModule.deal`, or `deal_named` for a game whose log names its players)."""

    def __init__(self, store) -> None:
        self.counts: dict[str, int] = {}
        self.methods: dict[str, int] = {}
        depth = contextvars.ContextVar("store_depth", default=0)
        self._undo: list = []

        def counted(name: str, key: str | None, fn, outermost: bool = False):
            async def wrapper(*args, **kwargs):
                if outermost:
                    if depth.get() == 0:
                        self.counts["store calls"] = self.counts.get("store calls", 0) + 1
                        self.methods[name] = self.methods.get(name, 0) + 1
                    token = depth.set(depth.get() + 1)
                    try:
                        return await fn(*args, **kwargs)
                    finally:
                        depth.reset(token)
                self.counts[key] = self.counts.get(key, 0) + 1
                return await fn(*args, **kwargs)

            return wrapper

        for name in dir(type(store)):
            fn = getattr(store, name)
            if name.startswith("_") or not inspect.iscoroutinefunction(fn):
                continue
            setattr(store, name, counted(name, None, fn, outermost=True))
            self._undo.append(lambda name=name: delattr(store, name))
        for name, key in (("_one", "SQL statements"), ("_all", "SQL statements"), ("_run", "SQL statements")):
            setattr(store, name, counted(name, key, getattr(store, name)))
            self._undo.append(lambda name=name: delattr(store, name))
        plain_tx = store._tx

        def tx(*args, **kwargs):
            self.counts["write transactions"] = self.counts.get("write transactions", 0) + 1
            return plain_tx(*args, **kwargs)

        store._tx = tx
        self._undo.append(lambda: delattr(store, "_tx"))
        for module in games.all_games():
            self._count_deals(module)
        plain_held = store._held_match

        async def held(game_id):
            kept = store._matches.get(game_id)
            found = await plain_held(game_id)
            if found is not kept:
                self.counts["cold loads"] = self.counts.get("cold loads", 0) + 1
            return found

        store._held_match = held
        self._undo.append(lambda: delattr(store, "_held_match"))

    def _count_deals(self, module) -> None:
        """Every deal of a contract game while counting (by seat numbers, or by the names its log gives the seats)
        is a replay from its seed: none starts during a click."""
        dealing = contextvars.ContextVar("dealing", default=False)
        for name in ("deal", "deal_named"):
            plain = getattr(module, name)

            def deal(*args, plain=plain, **kwargs):
                if dealing.get():  # one way of dealing calling the other: one deal
                    return plain(*args, **kwargs)
                self.counts["full replays"] = self.counts.get("full replays", 0) + 1
                token = dealing.set(True)
                try:
                    return plain(*args, **kwargs)
                finally:
                    dealing.reset(token)

            setattr(module, name, deal)
            self._undo.append(lambda name=name: delattr(module, name))

    def take(self) -> dict[str, int]:
        loads = self.methods.get("load_match", 0)
        counts = {**self.counts, "game loads": loads}
        self.counts.clear()
        self.methods.clear()
        return counts

    def close(self) -> None:
        for undo in self._undo:
            undo()

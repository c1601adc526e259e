"""Every handler answers Discord first: within 3 s of SimCord's clock, before any store access, whatever the store does.

The store is made slow on SimCord's clock: every write (transaction) takes 3.5 s and every other store call 0.5 s.
Each command, subcommand, button and menu of the bot is then used once; its first response (defer or answer) must
come before the handler's first store call and within Discord's 3 seconds of the interaction's creation, and the
work must still be done. A handler without a scenario here fails the enumeration test, so none can be forgotten.
"""

from __future__ import annotations

import asyncio
import inspect
import random
import re
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import discord
import pytest
from discord import app_commands

import cogs
import games
from cogs.components import LobbyButton
from games.kokeshi.engine import CURRENT_RULES, KOKESHI, Prompt
from games.kokeshi.engine.data import TILE_BY_ID
from games.kokeshi.engine.options import PLACES
from storage import challenge_key
from tests import own_table
from tests.botkit import (
    answer,
    components,
    load_game,
    lobby_message,
    message_in,
    new_lobby,
    open_game,
)
from tests.dbkit import named_log_game
from tests.games import tiny
from tests.own_table import prompt_view
from tests.test_bot_match_end import finished_kohaku_daily
from tests.test_bot_matches import finished_match, play_through
from tests.test_bot_rematch import finished_table
from tests.test_bot_replay import finished_in_store

WRITE_SECONDS = 3.5
CALL_SECONDS = 0.5
DEADLINE = 3.0
CALLBACK = re.compile(r"^/interactions/(\d+)/[^/]+/callback$")


@dataclass
class Event:
    kind: str  # "callback", "write" or "call"
    at: float  # SimCord's clock
    task: asyncio.Task | None
    what: str


@dataclass
class SlowStore:
    """Makes the bot's store slow on SimCord's clock while `on`; records every store call and interaction reply."""

    world: object
    on: bool = False
    events: list[Event] = field(default_factory=list)

    def _note(self, kind: str, what: str) -> None:
        clock = self.world.env.backend.clock
        self.events.append(Event(kind, clock.now().timestamp(), asyncio.current_task(), what))
        if self.on and kind != "callback":
            clock.advance(WRITE_SECONDS if kind == "write" else CALL_SECONDS)

    @asynccontextmanager
    async def slow(self):
        self.on = True
        try:
            yield
        finally:
            self.on = False


@pytest.fixture
def slow_store(world, monkeypatch) -> SlowStore:
    import simcord.http.router as router

    slow = SlowStore(world)
    store = world.store
    for name, _method in inspect.getmembers(type(store), inspect.iscoroutinefunction):
        if name.startswith("_"):
            continue
        bound = getattr(store, name)

        def wrap(bound=bound, name=name):
            async def call(*args, **kwargs):
                slow._note("call", name)
                return await bound(*args, **kwargs)

            return call

        monkeypatch.setattr(store, name, wrap())
    real_tx = store._tx

    @asynccontextmanager
    async def slow_tx(*args, **kwargs):
        slow._note("write", "transaction")
        async with real_tx(*args, **kwargs) as db:
            yield db

    monkeypatch.setattr(store, "_tx", slow_tx)
    real_dispatch = router.dispatch

    def dispatch(backend, method, path, **kwargs):
        found = CALLBACK.match(path)
        if found:
            slow._note("callback", found[1])
        return real_dispatch(backend, method, path, **kwargs)

    monkeypatch.setattr(router, "dispatch", dispatch)
    return slow


# ---------------------------------------------------------------------- scenarios: set up fast, act slowly

Act = Callable[[], Awaitable[object]]


async def two_player_game(w):
    game_id, thread = await open_game(w, players=2)
    game, version = await load_game(w, game_id)
    return game_id, thread, game, version, w.member(game.prompt.player)


async def at_buttons(w):
    """A game whose prompt is five buttons (advance a kokeshi)."""
    game_id, thread = await open_game(w, players=2)
    rng = random.Random(7)
    while (await load_game(w, game_id))[0].prompt.kind != "advance":
        await answer(w, game_id, thread, rng)
    return game_id, thread


async def seed_board(w) -> None:
    """Eleven players on this week's board, so that it has a second page."""
    async with w.store._tx() as db:
        for i in range(11):
            await db.execute(
                "INSERT INTO games (id, status, players, side, solo, created_at, updated_at, challenge) "
                "VALUES (?, 'finished', 1, 'advanced', 1, 0, 0, 'weekly:2026-W01')",
                (5000 + i,),
            )
            await db.execute(
                "INSERT INTO challenge_attempts (game_id, kind, key, user_id, guild_id, rated, started_at, score, "
                "won, finished_at) VALUES (?, 'weekly', '2026-W01', ?, ?, 1, 0, ?, 0, ?)",
                (5000 + i, 9000 + i, w.guild.id, 50 - i, i),
            )


def admin(w):
    role = w.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return w.guild.add_member(w.env.create_user("eiko"), roles=[role])


async def _new(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "kokeshi new", players=2)


async def _solo(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "kokeshi solo")


async def _daily(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "kokeshi daily")


async def _weekly(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "kokeshi weekly")


async def _join(w) -> Act:
    game_id, _lobby, _ = await new_lobby(w, players=3)
    return lambda: w.members[1].slash(w.channel, "kokeshi join", game=game_id)


async def _leave(w) -> Act:
    game_id, lobby, _ = await new_lobby(w, players=3)
    await w.members[1].click(lobby, label="Join")
    return lambda: w.members[1].slash(w.channel, "kokeshi leave", game=game_id)


async def _start(w) -> Act:
    game_id, lobby, _ = await new_lobby(w, players=2)
    await w.members[1].click(lobby, label="Join")
    return lambda: w.members[0].slash(w.channel, "kokeshi start", game=game_id)


async def _cancel(w) -> Act:
    game_id, _lobby, _ = await new_lobby(w, players=2)
    return lambda: w.members[0].slash(w.channel, "kokeshi cancel", game=game_id)


async def _play(w) -> Act:
    _game_id, thread, game, version, mover = await two_player_game(w)
    return lambda: mover.slash(thread, "kokeshi play", choice=f"{version}:{game.legal_actions()[0]}")


async def _hint(w) -> Act:
    await w.members[0].slash(w.channel, "kokeshi solo")
    return lambda: w.members[0].slash(w.channel, "kokeshi hint")


async def _undo(w) -> Act:
    game_id, thread, _game, _version, mover = await two_player_game(w)
    await answer(w, game_id, thread, random.Random(1))
    return lambda: mover.slash(thread, "kokeshi undo")


async def _resign(w) -> Act:
    _game_id, thread, _game, _version, _mover = await two_player_game(w)
    return lambda: w.members[1].slash(thread, "kokeshi resign")


async def _table(w) -> Act:
    _game_id, thread, *_ = await two_player_game(w)
    return lambda: w.members[0].slash(thread, "kokeshi table", player="botan")


async def _status(w) -> Act:
    await two_player_game(w)
    return lambda: w.members[0].slash(w.channel, "kokeshi status")


async def _log(w) -> Act:
    game_id, thread, *_ = await two_player_game(w)
    await answer(w, game_id, thread, random.Random(2))
    return lambda: w.members[0].slash(thread, "kokeshi log")


async def _rules(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "kokeshi rules")


async def _help(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "kokeshi help")


async def _leaderboard(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "kokeshi leaderboard", board="wins")


async def _stats(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "kokeshi stats")


async def _notify(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "kokeshi notify on")


async def _notify_off(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "kokeshi notify off")


async def _quiet(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "kokeshi notify quiet", hours="23:00-08:00", timezone="Europe/Lisbon")


async def _mute(w) -> Act:
    game_id, *_rest = await two_player_game(w)
    return lambda: w.members[0].slash(w.channel, "kokeshi notify mute", game=game_id)


async def _unmute(w) -> Act:
    game_id, *_rest = await two_player_game(w)
    assert (await w.members[0].slash(w.channel, "kokeshi notify mute", game=game_id)).acknowledged
    return lambda: w.members[0].slash(w.channel, "kokeshi notify unmute", game=game_id)


async def _digest(w) -> Act:
    await two_player_game(w)
    return lambda: w.members[0].slash(w.channel, "kokeshi notify digest", time="08:00")


async def _limits(w) -> Act:
    eiko = admin(w)
    return lambda: eiko.slash(w.channel, "games settings limits", per_user=3)


async def _daily_channel(w) -> Act:
    eiko = admin(w)
    return lambda: eiko.slash(w.channel, "games settings daily-channel", channel=w.channel)


async def _away(w) -> Act:
    await two_player_game(w)
    return lambda: w.members[0].slash(w.channel, "games away", duration="2d")


async def _back(w) -> Act:
    await two_player_game(w)
    assert (await w.members[0].slash(w.channel, "games away", duration="2d")).acknowledged
    return lambda: w.members[0].slash(w.channel, "games back")


async def _away_days(w) -> Act:
    eiko = admin(w)
    return lambda: eiko.slash(w.channel, "games settings away-days", days=7)


async def _rejoin(w) -> Act:
    game_id, _thread, _game, _version, _mover = await two_player_game(w)
    record = await w.store.get_game(game_id)
    await w.store.update_seat(game_id, record.seat_of(w.members[1].id).name, ai=True, expired=3)
    return lambda: w.members[1].slash(w.channel, "games rejoin", game=game_id)


async def _choice_button(w) -> Act:
    game_id, thread, _game, _version, _mover = await two_player_game(w)
    record = await w.store.get_game(game_id)
    seat = record.seat_of(w.members[1].id)
    await w.store.update_seat(game_id, seat.name, expired=3)
    record = await w.store.get_game(game_id)
    asked = await w.bot.tables.clocks.expired(record, seat, await w.bot.tables.game_channel(record), 3)
    assert asked
    message = next(m for m in reversed(thread.history()) if "turns in a row" in m.content)
    return lambda: w.members[0].click(message, custom_id=f"kk:c:{game_id}:{seat.seat}:wait")


async def old_prompt(w, game_id: int, thread, game, version: int):
    """The game's prompt as Kokeshi's own table posted it before its games moved to the platform's (`kk:` ids,
    which still answer: they are forwarded to the platform's table)."""
    record = await w.store.get_game(game_id)
    sent = await w.bot.tables.send(
        record, w.bot.get_channel(thread.id), "an old prompt", view=prompt_view(game_id, version, game.prompt)
    )
    return next(m for m in thread.history() if m.id == sent.id)


async def _action_button(w) -> Act:
    game_id, thread = await at_buttons(w)
    game, version = await load_game(w, game_id)
    message = await old_prompt(w, game_id, thread, game, version)
    action = game.legal_actions()[0]
    return lambda: w.member(game.prompt.player).click(message, custom_id=f"kk:a:{game_id}:{version}:{action}")


async def _action_select(w) -> Act:
    game_id, thread, game, version, mover = await two_player_game(w)
    message = await old_prompt(w, game_id, thread, game, version)
    menu = components(message)[0]
    assert menu["custom_id"].startswith("kk:s:")
    return lambda: mover.select(message, [game.legal_actions()[0]], custom_id=menu["custom_id"])


async def _tile_select(w) -> Act:
    # More than 25 placements make a tile menu; the prompt itself is not of this kind yet, so the bot answers that
    # the menu is out of date, which is as much work as choosing a track (and just as much in need of an answer).
    game_id, thread, game, version, mover = await two_player_game(w)
    places = PLACES[CURRENT_RULES]
    options = tuple(places[TILE_BY_ID[f"n{i:02d}"]][k] for i in range(1, 7) for k in range(len(KOKESHI)))
    many = Prompt(game.prompt.player, "place", options + tuple(game.prompt.options))
    view = prompt_view(game_id, version, many)
    assert [c.to_component_dict()["custom_id"].split(":")[1] for c in view.children] == ["t"]
    record = await w.store.get_game(game_id)
    channel = w.bot.get_channel(thread.id)
    sent = await w.bot.tables.send(record, channel, "a tile menu", view=view)
    message = message_in(thread, sent.id)
    menu = components(message)[0]
    return lambda: mover.select(message, [menu["options"][0]["value"]], custom_id=menu["custom_id"])


def _lobby_op(op: str, joined: bool, who: int) -> Callable:
    async def prepare(w) -> Act:
        _game_id, lobby, _ = await new_lobby(w, players=3 if op != "start" else 2)
        if joined:
            await w.members[1].click(lobby, label="Join")
            lobby = await lobby_message(w, _game_id)
        return lambda: w.members[who].click(lobby, label=op.title())

    return prepare


async def _page(w) -> Act:
    await seed_board(w)
    first = await w.members[0].slash(w.channel, "kokeshi leaderboard", board="weekly", scope="global")
    reply = first.response
    assert [c.get("disabled", False) for c in components(reply)] == [True, False]
    return lambda: w.members[0].click(reply, custom_id=components(reply)[1]["custom_id"])


async def _replay(w) -> Act:
    game_id = await finished_in_store(w)
    return lambda: w.members[0].slash(w.channel, "games replay", game=game_id)


async def replay_viewer(w):
    game_id = await finished_in_store(w)
    opened = await w.members[0].slash(w.channel, "games replay", game=game_id)
    return opened.followups[-1] if opened.followups else opened.response


async def _replay_button(w) -> Act:
    viewer = await replay_viewer(w)
    step = next(c for c in components(viewer) if c.get("custom_id", "").endswith(":next"))
    return lambda: w.members[0].click(viewer, custom_id=step["custom_id"])


async def _replay_select(w) -> Act:
    viewer = await replay_viewer(w)
    menu = next(c for c in components(viewer) if c["type"] == 3)
    return lambda: w.members[0].select(viewer, [menu["options"][2]["value"]], custom_id=menu["custom_id"])


async def _rematch_button(w) -> Act:
    game_id, final = await finished_table(w, players=2)
    return lambda: w.members[1].click(final, custom_id=f"kk:m:{game_id}")


async def own_table_challenge(w, member):
    """A daily challenge at Kokeshi's own table, as `/kokeshi daily` made them before it moved to the platform's,
    finished as that table left it (`dbkit.named_log_game`), its final message posted (with its Share button,
    `kk:h:`): (record, final)."""
    challenge = f"daily:{challenge_key('daily', discord.utils.utcnow())}"
    game_id = named_log_game(
        w.store.path, [member.user.name], seed=w.store.challenge_seed(challenge), moves=None, policy=2,
        users=[member.id], guild_id=w.guild.id, channel_id=w.channel.id, challenge=challenge,
    )  # fmt: skip
    record = await w.store.get_game(game_id)
    assert record.named_log and record.challenge and record.status == "finished"
    await own_table.post_final(w.bot.get_channel(w.channel.id), game_id, challenge=True)
    final = w.channel.history()[-1]
    assert f"kk:h:{game_id}" in [c.get("custom_id") for c in components(final)]
    return record, final


async def _share_button(w) -> Act:
    # The Share button of a challenge played at Kokeshi's own table: its old final messages still carry it.
    record, final = await own_table_challenge(w, w.members[0])
    return lambda: w.members[0].click(final, custom_id=f"kk:h:{record.id}")


async def kohaku_table(w):
    """A Kōhaku table of aiko against an easy AI, started: (game id, thread, its turn's post)."""
    await w.members[0].slash(w.channel, "games new", game="kohaku", players=2, ai=1, level="easy")
    record = (await w.store.games_in_channel(w.channel.id, statuses=("active",)))[-1]
    thread = next(t for t in w.channel.threads if t.id == record.thread_id)
    found = await w.store.get_message(record.id, "prompt")
    return record.id, thread, message_in(thread, found[1])


async def _games_new(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "games new", game="kohaku", players=2)


async def _games_challenge(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "games challenge", game="kohaku", kind="daily")


async def _games_leaderboard(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "games leaderboard", game="kohaku")


async def _games_stats(w) -> Act:
    await finished_match(w, "kohaku", w.members[:1], seed=3)
    return lambda: w.members[0].slash(w.channel, "games stats", game="kohaku")


async def _games_status(w) -> Act:
    await kohaku_table(w)
    await two_player_game(w)
    return lambda: w.members[0].slash(w.channel, "games status")


async def _games_play(w) -> Act:
    game_id, thread, _post = await kohaku_table(w)
    match, _version, _record = await w.store.load_match(game_id)
    return lambda: w.members[0].slash(thread, "games play", choice=match.legal_actions(0)[0])


async def _games_table(w) -> Act:
    _game_id, thread, _post = await kohaku_table(w)
    return lambda: w.members[0].slash(thread, "games table")


async def _games_log(w) -> Act:
    game_id, thread, _post = await kohaku_table(w)
    match, version, _record = await w.store.load_match(game_id)
    await w.store.play_match(game_id, version, 0, match.legal_actions(0)[0])
    return lambda: w.members[0].slash(thread, "games log")


async def _games_rules(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "games rules", game="kokeshi")


async def _games_help(w) -> Act:
    return lambda: w.members[0].slash(w.channel, "games help", game="kohaku")


async def _match_select(w) -> Act:
    game_id, _thread, post = await kohaku_table(w)
    menu = next(c for c in components(post) if c["custom_id"].startswith("mt:s:"))
    match, _version, _record = await w.store.load_match(game_id)
    return lambda: w.members[0].select(post, [match.legal_actions(0)[0]], custom_id=menu["custom_id"])


async def _match_hint(w) -> Act:
    _game_id, _thread, post = await kohaku_table(w)
    return lambda: w.members[0].click(post, custom_id=next(c for c in custom_ids_of(post) if c.startswith("mt:h:")))


async def _match_lobby(w) -> Act:
    await w.members[0].slash(w.channel, "games new", game="kohaku", players=2)
    record = (await w.store.games_in_channel(w.channel.id))[-1]
    lobby = await lobby_message(w, record.id)
    return lambda: w.members[1].click(lobby, label="Join")


async def _match_choose(w) -> Act:
    # A solo game's turn whose choice is secret is opened privately; a two-person Kōhaku table asks openly, so the
    # private button is the one of a game whose prompts are secret: the tests' Bids.
    game_id, thread = await bids_table(w)
    found = await w.store.get_message(game_id, "prompt")
    post = message_in(thread, found[1])
    return lambda: w.members[0].click(post, custom_id=custom_ids_of(post)[0])


async def _match_action(w) -> Act:
    game_id, thread = await bids_table(w)
    found = await w.store.get_message(game_id, "prompt")
    post = message_in(thread, found[1])
    opened = await w.members[0].click(post, custom_id=custom_ids_of(post)[0])
    private = opened.followups[-1] if opened.followups else opened.response
    button = next(c for c in components(private) if c.get("custom_id", "").startswith("mt:a:"))
    return lambda: w.members[0].click(private, custom_id=button["custom_id"])


async def _match_since(w) -> Act:
    game_id, thread = await bids_table(w)
    found = await w.store.get_message(game_id, "prompt")
    post = message_in(thread, found[1])
    return lambda: w.members[1].click(post, custom_id=next(c for c in custom_ids_of(post) if c.startswith("mt:w:")))


async def at_undo(w):
    """A Kōhaku table whose turn's post offers to take aiko's last choice back: (game id, thread, the post)."""
    game_id, thread, post = await kohaku_table(w)
    rng = random.Random(11)
    for _ in range(20):
        if any(c.startswith("mt:u:") for c in custom_ids_of(post)):
            return game_id, thread, post
        parts = [c for c in components(post) if c.get("custom_id", "").startswith(("mt:a:", "mt:s:"))]
        if parts[0].get("type") == 3:
            values = [o["value"] for o in parts[0]["options"]]
            await w.members[0].select(post, [rng.choice(values)], custom_id=parts[0]["custom_id"])
        else:
            await w.members[0].click(post, custom_id=rng.choice(parts)["custom_id"])
        found = await w.store.get_message(game_id, "prompt")
        post = message_in(thread, found[1])
    raise AssertionError("no undo offered")


async def _games_undo(w) -> Act:
    _game_id, thread, _post = await at_undo(w)
    return lambda: w.members[0].slash(thread, "games undo")


async def _match_undo(w) -> Act:
    _game_id, _thread, post = await at_undo(w)
    return lambda: w.members[0].click(post, custom_id=next(c for c in custom_ids_of(post) if c.startswith("mt:u:")))


async def _match_group(w) -> Act:
    # A step within aiko's turn: her placement, asked tile first (a group menu), then the tile's spaces privately.
    _game_id, _thread, post = await at_undo(w)
    menu = next(c for c in components(post) if c.get("custom_id", "").startswith("mt:g:"))
    return lambda: w.members[0].select(post, [menu["options"][0]["value"]], custom_id=menu["custom_id"])


async def bids_table(w):
    """A game of the tests' Bids between aiko and botan, started: (game id, thread)."""
    games.register(tiny.MODULE)
    await w.members[0].slash(w.channel, "games new", game="bids", players=2)
    record = (await w.store.games_in_channel(w.channel.id))[-1]
    lobby = await lobby_message(w, record.id)
    await w.members[1].click(lobby, label="Join")
    await w.members[0].click(lobby, label="Start")
    record = await w.store.get_game(record.id)
    return record.id, next(t for t in w.channel.threads if t.id == record.thread_id)


async def _games_resign(w) -> Act:
    _game_id, thread = await bids_table(w)
    return lambda: w.members[1].slash(thread, "games resign")


async def _match_rematch(w) -> Act:
    game_id, thread = await bids_table(w)
    await play_through(w, game_id, thread, random.Random(2))
    final = thread.history()[-1]
    return lambda: w.members[1].click(final, custom_id=f"mt:r:{game_id}")


async def _match_share(w) -> Act:
    record, final = await finished_kohaku_daily(w, w.members[0])
    return lambda: w.members[0].click(final, custom_id=f"mt:p:{record.id}")


def custom_ids_of(message) -> list[str]:
    return [c["custom_id"] for c in components(message) if "custom_id" in c]


SCENARIOS: dict[str, Callable[[object], Awaitable[Act]]] = {
    "kokeshi new": _new,
    "kokeshi solo": _solo,
    "kokeshi daily": _daily,
    "kokeshi weekly": _weekly,
    "kokeshi join": _join,
    "kokeshi leave": _leave,
    "kokeshi start": _start,
    "kokeshi cancel": _cancel,
    "kokeshi play": _play,
    "kokeshi hint": _hint,
    "kokeshi undo": _undo,
    "kokeshi resign": _resign,
    "kokeshi table": _table,
    "kokeshi status": _status,
    "kokeshi log": _log,
    "kokeshi rules": _rules,
    "kokeshi help": _help,
    "kokeshi leaderboard": _leaderboard,
    "kokeshi stats": _stats,
    "kokeshi notify on": _notify,
    "kokeshi notify off": _notify_off,
    "kokeshi notify quiet": _quiet,
    "kokeshi notify mute": _mute,
    "kokeshi notify unmute": _unmute,
    "kokeshi notify digest": _digest,
    "games settings limits": _limits,
    "games settings daily-channel": _daily_channel,
    "games replay": _replay,
    "games away": _away,
    "games back": _back,
    "games settings away-days": _away_days,
    "games rejoin": _rejoin,
    "ActionButton": _action_button,
    "ActionSelect": _action_select,
    "TileSelect": _tile_select,
    "LobbyButton join": _lobby_op("join", False, 1),
    "LobbyButton leave": _lobby_op("leave", True, 1),
    "LobbyButton start": _lobby_op("start", True, 0),
    "LobbyButton cancel": _lobby_op("cancel", False, 0),
    "PageButton": _page,
    "ReplayButton": _replay_button,
    "ReplaySelect": _replay_select,
    "RematchButton": _rematch_button,
    "ShareButton": _share_button,
    "ChoiceButton": _choice_button,
    "games new": _games_new,
    "games challenge": _games_challenge,
    "games leaderboard": _games_leaderboard,
    "games stats": _games_stats,
    "games status": _games_status,
    "games play": _games_play,
    "games table": _games_table,
    "games log": _games_log,
    "games rules": _games_rules,
    "games help": _games_help,
    "MatchAction": _match_action,
    "MatchSelect": _match_select,
    "MatchGroup": _match_group,
    "MatchChoose": _match_choose,
    "MatchLobby": _match_lobby,
    "MatchHint": _match_hint,
    "games undo": _games_undo,
    "MatchUndo": _match_undo,
    "games resign": _games_resign,
    "MatchSince": _match_since,
    "MatchRematch": _match_rematch,
    "MatchShare": _match_share,
}


async def finished_bids(w) -> int:
    """A game of Bids between aiko and botan, played to its end straight through the store: its id."""
    game_id, _thread = await bids_table(w)
    while (await w.store.get_game(game_id)).status == "active":
        match, version, _record = await w.store.load_match(game_id)
        seat = match.waiting()[0]
        await w.store.play_match(game_id, version, seat, match.legal_actions(seat)[0])
    return game_id


async def _replay_other_game(w) -> Act:
    game_id = await finished_bids(w)
    return lambda: w.members[0].slash(w.channel, "games replay", game=game_id)


async def _replay_other_game_step(w) -> Act:
    game_id = await finished_bids(w)
    opened = await w.members[0].slash(w.channel, "games replay", game=game_id)
    viewer = opened.followups[-1] if opened.followups else opened.response
    return lambda: w.members[0].click(viewer, custom_id=f"kk:r:{game_id}:2:next")


# The same handlers on another game's path: they answer first too.
OTHER_PATHS: dict[str, Callable[[object], Awaitable[Act]]] = {
    "games replay (another game)": _replay_other_game,
    "ReplayButton (another game)": _replay_other_game_step,
}


def handlers(bot) -> set[str]:
    """Every handler the bot has: each slash command (subcommands included), each button or menu it listens to
    (and each operation of the lobby's buttons), each modal of its own."""
    found = {c.qualified_name for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)}
    for item in bot._connection._view_store._dynamic_items.values():
        if item is LobbyButton:
            found |= {f"LobbyButton {op}" for op in LobbyButton.STYLES}
        else:
            found.add(item.__name__)
    modals = [m for m in _subclasses(discord.ui.Modal) if m.__module__.startswith(cogs.__name__)]
    found |= {m.__name__ for m in modals}
    return found


def _subclasses(cls) -> list[type]:
    return [*cls.__subclasses__(), *(s for c in cls.__subclasses__() for s in _subclasses(c))]


async def test_every_handler_of_the_bot_has_a_scenario(world):
    assert handlers(world.bot) == set(SCENARIOS)
    assert len([n for n in SCENARIOS if " " in n and not n.startswith("LobbyButton")]) == 44


@pytest.mark.parametrize("handler", [*SCENARIOS, *OTHER_PATHS])
@pytest.mark.slow
async def test_the_first_response_comes_before_the_store_and_within_three_seconds(world, slow_store, handler):
    act = await {**SCENARIOS, **OTHER_PATHS}[handler](world)
    start = len(slow_store.events)
    async with slow_store.slow():
        result = await act()
    assert result.acknowledged, result
    events = slow_store.events[start:]
    callbacks = [e for e in events if e.kind == "callback"]
    assert callbacks, "no interaction response"
    first = callbacks[0]
    created = discord.utils.snowflake_time(int(first.what)).timestamp()
    assert first.at - created <= DEADLINE, f"answered {first.at - created:.1f} s after the interaction"
    mine = [e for e in events if e.task is first.task]
    assert mine[0] is first, [(e.kind, e.what) for e in mine[:5]]
    # The work was done all the same, however slow the store: some of it after the answer, with writes.
    kinds = {e.kind for e in mine[1:]}
    assert "call" in kinds or handler in ("kokeshi help", "kokeshi rules"), kinds
    assert world.env.errors == []
    replies = [m for m in [result.response, *result.followups] if m is not None]
    assert replies and any(m.content or m.embeds or m.attachments for m in replies), result


async def test_a_lobby_is_updated_even_when_the_private_reply_is_lost(world, slow_store):
    game_id, lobby, _ = await new_lobby(world, players=3)
    # Discord no longer takes follow-ups for this interaction (its token expired): the seat is still shown.
    world.env.inject_error("POST", "/webhooks/*", status=404, code=10015, message="Unknown Webhook", times=None)
    async with slow_store.slow():
        joined = await world.members[1].click(lobby, label="Join")
    assert joined.acknowledged
    # The platform's lobby says its seats in its text: "**Kokeshi #1** — 2 of 3 seats · …", then who sits.
    shown = (await lobby_message(world, game_id)).content
    assert "2 of 3 seats" in shown and world.members[1].mention in shown, shown
    assert world.env.errors == []


async def test_autocomplete_never_writes_and_answers_in_time_on_a_slow_store(world, slow_store):
    game_id, thread, _game, _version, mover = await two_player_game(world)
    start = len(slow_store.events)
    async with slow_store.slow():
        for command, option, filled in (
            ("kokeshi play", "choice", {}),
            ("kokeshi table", "player", {}),
            ("kokeshi status", "game", {}),
            ("kokeshi hint", "game", {}),
            ("games replay", "game", {}),
            ("games table", "game", {}),
            ("games log", "game", {}),
        ):
            before = world.env.now().timestamp()
            await mover.autocomplete(thread, command, option, "", **filled)
            assert world.env.now().timestamp() - before <= DEADLINE, command
    assert not [e for e in slow_store.events[start:] if e.kind == "write"]
    assert game_id

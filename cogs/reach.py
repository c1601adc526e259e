"""Where the bot can be heard: a game's run of refusals, its back-off, telling its host, and servers it left.

Every refusal Discord gives the bot for a game is noted here (`note`); when a show of the game fails, its run of
refusals grows and its next attempt is set by `refusals.retry_delay` (never a fixed clock). While a game cannot be
shown its turn clock stops: no reminder or time-out for a prompt nobody could see; the turn gets fresh timers once
it is shown. After a day the game is marked unreachable and its host told once, in the channel the game was opened
in or by DM. A server that removes the bot pauses its games (no timer, no request); they resume, with fresh
timers, if the bot is added back.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Protocol

import discord

import i18n
from i18n import _
from storage import GameReach, GameRecord, Store

from .client import Client
from .common import pinging, turn_key
from .narration import game_language, speaking
from .refusals import (
    MISSING_ACCESS,
    SOON,
    UNKNOWN_CHANNEL,
    Refusal,
    becomes_unreachable,
    classify,
    refused,
    retry_delay,
)

log = logging.getLogger(__name__)

TURN_TIMERS = ("reminder_half", "reminder_late", "deadline")
# The guild setting that marks a server the bot was removed from (its value: when).
AWAY = "away"


class Shows(Protocol):
    """The poster (`cogs.posting.Poster`) as the reach calls it: bring a game's thread up to date."""

    async def show(self, game_id: int) -> bool: ...


class ReachTables(Protocol):
    """The tables (`cogs.tables.Tables`) as the reach calls them: their clock, DMs, threads lost and the poster."""

    @property
    def bot(self) -> Client: ...
    @property
    def store(self) -> Store: ...
    @property
    def poster(self) -> Shows: ...
    @property
    def lost(self) -> set[int]: ...

    def clock(self) -> float: ...

    def where(self, record: GameRecord) -> str: ...

    def turn_timers(self, record: GameRecord) -> list[tuple[str, float]]: ...

    async def dm(self, user_id: int, text: str) -> bool: ...


class Reach:
    """Keeps every game's run of refusals and every server the bot left; the tables ask it before posting."""

    def __init__(self, tables: ReachTables) -> None:
        self.tables = tables
        # The last refusal noted for each game (HTTP status, JSON code), until the show that met it is over.
        self.last: dict[int, tuple[int, int]] = {}
        # Servers that removed the bot: their games are paused.
        self.away: set[int] = set()

    @property
    def store(self):
        return self.tables.store

    @property
    def bot(self):
        return self.tables.bot

    def _metrics(self):
        return getattr(self.bot, "metrics", None)

    # ------------------------------------------------------------------ refusals

    def note(self, game_id: int | None, exc: discord.HTTPException) -> Refusal:
        """A request for a game was refused: remember why (and count it)."""
        return self.note_code(game_id, exc.status, exc.code)

    def note_code(self, game_id: int | None, status: int, code: int) -> Refusal:
        if game_id is not None:
            self.last[game_id] = (status, code)
        metrics = self._metrics()
        if metrics is not None:
            metrics.refused(status, code)
        return classify(status, code)

    def paused(self, record: GameRecord) -> bool:
        """True for a game of a server that removed the bot: nothing is posted for it, no timer runs."""
        return record.guild_id is not None and record.guild_id in self.away

    async def failed(self, record: GameRecord) -> GameReach:
        """A show of the game failed: its run of refusals grows, its turn clock stops, the next attempt is set
        (later each time), and after a day its host is told."""
        now = self.tables.clock()
        status, code = self.last.pop(record.id, (0, 0))
        reach = refused(await self.store.reach(record.id), record.id, now, status, code)
        if becomes_unreachable(reach, now):
            reach = dataclasses.replace(reach, unreachable_at=now)
            log.warning(
                "game %d: unreachable after %d refusals since %.0f (last %s/%s)",
                record.id,
                reach.refusals,
                reach.since,
                status,
                code,
            )
            metrics = self._metrics()
            if metrics is not None:
                metrics.marked_unreachable()
        await self.store.set_reach(reach)
        await self.store.clear_timers(record.id, TURN_TIMERS)
        await self.store.set_timer(record.id, "repost", now + retry_delay(reach), record.version)
        self.bot.wake_timers()
        if reach.unreachable_at is not None and reach.told_at is None:
            await self.tell_host(record, reach)
            reach = dataclasses.replace(reach, told_at=now)
            await self.store.set_reach(reach)
        return reach

    async def channel_gone(self, record: GameRecord) -> None:
        """The channel the game was opened in was deleted: nothing can be posted for it until it moves."""
        if self.paused(record):
            return
        # The game is behind from now on: wherever it goes next, it is shown there in full.
        posts = await self.store.turn_posts(record.id)
        await self.store.set_turn_posts(dataclasses.replace(posts, shown_version=-1))
        self.note_code(record.id, 404, UNKNOWN_CHANNEL)
        await self.failed(record)

    async def succeeded(self, record: GameRecord) -> None:
        """The game was shown: a run of refusals is over, and the turn's clock starts again from now."""
        self.last.pop(record.id, None)
        ended = await self.store.clear_reach(record.id)
        if ended is None:
            return
        log.info("game %d: shown again after %d refused attempts", record.id, ended.refusals)
        await self.restart_turn_timers(await self.store.get_game(record.id))

    async def restart_turn_timers(self, record: GameRecord) -> None:
        """Fresh reminders and deadline for the turn the thread shows (a turn not shown yet gets them when it is)."""
        if record.status != "active" or not record.turn_timer:
            return
        game, _version = await self.store.load_game(record.id)
        posts = await self.store.turn_posts(record.id)
        prompt = game.prompt
        seat = record.seat_named(prompt.player) if prompt else None
        if seat is None or seat.ai or posts.turn_key != turn_key(game):
            return
        await self.store.set_turn_timers(record.id, posts.turn_version, self.tables.turn_timers(record))
        self.bot.wake_timers()

    async def soon(self, record: GameRecord) -> None:
        """Something suggests the cause of a game's refusals is gone: try it again in a few seconds."""
        if await self.store.reach(record.id) is None or self.paused(record):
            return
        await self.store.set_timer(record.id, "repost", self.tables.clock() + SOON, record.version)
        self.bot.wake_timers()

    async def changed(self, guild_id: int) -> None:
        """A channel, thread or role of a server changed: its stuck games are tried again soon."""
        for reach in await self.store.reaches(guild_id):
            await self.soon(await self.store.get_game(reach.game_id))

    # ------------------------------------------------------------------ telling the host

    async def tell_host(self, record: GameRecord, reach: GameReach) -> bool:
        """Once per run of refusals: the host learns that the game is stuck and what would free it, in the game's
        channel if the bot can still post there, else by DM."""
        with speaking(record):
            text = self.stuck_text(record, reach, for_host=True)
        kind = classify(reach.status, reach.code)
        parent = self.bot.get_channel(record.channel_id) if record.channel_id else None
        # The channel is worth a try unless it is what refuses (a lobby's own channel, or a deleted one).
        assert record.host_id is not None  # a game that ran has its host
        if parent is not None and kind is not Refusal.GONE and record.thread_id:
            try:
                await parent.send(text, allowed_mentions=pinging(record.host_id))
                return True
            except discord.HTTPException as exc:
                self.note(None, exc)
        with i18n.using(await self.store.user_setting(record.host_id, "language") or game_language(record)):
            text = self.stuck_text(record, reach, for_host=True)
        return await self.tables.dm(record.host_id, text)

    def reason(self, record: GameRecord, reach: GameReach) -> str:
        """Why the game cannot be shown and what would free it, in the current language."""
        thread = self.tables.where(record)
        kind = classify(reach.status, reach.code)
        if kind is Refusal.GONE:
            why = _(
                "the channel of Kokeshi #{number} was deleted. Use `/kokeshi play` (or `/kokeshi status`) with "
                "`game:{number}` in another channel and the game goes on there, in a new thread."
            )
        elif kind is Refusal.LOCKED:
            why = _("the thread of Kokeshi #{number}, {thread}, is locked. Unlocking it lets the game go on.")
        elif reach.code == MISSING_ACCESS:
            why = _(
                "I can no longer see the thread of Kokeshi #{number}, {thread}. A server admin can give me View "
                "Channel there (and in its channel) to let the game go on."
            )
        elif kind is Refusal.FORBIDDEN:
            why = _(
                "I may no longer post in the thread of Kokeshi #{number}, {thread}. A server admin can give me "
                "Send Messages in Threads, Attach Files and Embed Links there to let the game go on."
            )
        else:
            why = _("Discord keeps refusing my posts in the thread of Kokeshi #{number}, {thread}.")
        return why.format(number=record.id, thread=thread)

    def stuck_text(self, record: GameRecord, reach: GameReach, *, for_host: bool = False) -> str:
        """A stuck game as `status` shows it, or as its host is told (once), in the current language."""
        why = self.reason(record, reach)
        # Discord shows a timestamp in each reader's own time zone and language.
        since = f"<t:{int(reach.since)}:f>"
        if for_host:
            return _(
                "⚠️ <@{host}>, your game is paused since {since}: {why} Nothing is lost: every move is saved, "
                "`/kokeshi play` works meanwhile, and the game picks up where it stopped."
            ).format(host=record.host_id, since=since, why=why)
        return _("⚠️ Paused since {since}: {why}").format(since=since, why=why)

    # ------------------------------------------------------------------ resuming

    async def resume(self, interaction: discord.Interaction, record: GameRecord) -> GameRecord:
        """Someone used a command about a stuck game: it is tried again now, and a game whose channel was deleted
        moves to the channel the command was used in (a text channel where the bot may run a game)."""
        if self.paused(record) or record.status != "active":
            return record
        reach = await self.store.reach(record.id)
        if reach is None:
            return record
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            channel = channel.parent
        if (
            classify(reach.status, reach.code) is Refusal.GONE
            and isinstance(channel, discord.TextChannel)
            and channel.id != record.channel_id
            and interaction.guild_id == record.guild_id
            and channel.permissions_for(channel.guild.me).send_messages
        ):
            log.info("game %d: its channel is gone; it moves to %d", record.id, channel.id)
            if record.thread_id:
                self.tables.lost.add(record.thread_id)
            await self.store.set_channel(record.id, channel.id)
            record = await self.store.get_game(record.id)
        await self.tables.poster.show(record.id)
        return await self.store.get_game(record.id)

    # ------------------------------------------------------------------ servers

    async def load(self) -> None:
        """The servers that removed the bot, as stored (after a restart)."""
        self.away = {guild_id for guild_id, _value in await self.store.guilds_with_setting(AWAY)}

    async def guild_left(self, guild_id: int) -> None:
        """The bot was removed from a server: its games pause, their timers stop, nothing is sent there."""
        self.away.add(guild_id)
        await self.store.set_guild_setting(guild_id, AWAY, repr(self.tables.clock()))
        games = [g for g in await self.store.active_games() if g.guild_id == guild_id]
        for record in games:
            await self.store.clear_timers(record.id)
        log.info("removed from server %d: %d games paused", guild_id, len(games))

    async def guild_joined(self, guild_id: int) -> None:
        """The bot is back in a server it left: its games resume, each turn with fresh timers."""
        if guild_id not in self.away and await self.store.guild_setting(guild_id, AWAY) is None:
            return
        self.away.discard(guild_id)
        await self.store.set_guild_setting(guild_id, AWAY, None)
        games = [g for g in await self.store.active_games() if g.guild_id == guild_id]
        for record in games:
            await self.store.clear_reach(record.id)
            await self.restart_turn_timers(record)
            try:
                await self.tables.poster.show(record.id)
            except Exception:
                log.exception("game %d: could not be shown on return", record.id)
        log.info("back in server %d: %d games resumed", guild_id, len(games))

    async def reconcile(self) -> None:
        """At start-up: servers that added the bot back while it was stopped resume; games of this process's
        servers that no longer have the bot pause."""
        await self.load()
        present = {guild.id for guild in self.bot.guilds}
        for guild_id in sorted(self.away & present):
            await self.guild_joined(guild_id)
        shards = self.bot.timer_shards
        gone = set()
        for record in await self.store.active_games():
            guild_id = record.guild_id
            if guild_id is None or guild_id in present or guild_id in self.away:
                continue
            if shards is not None and (guild_id >> 22) % shards[0] not in shards[1]:
                continue
            gone.add(guild_id)
        for guild_id in sorted(gone):
            await self.guild_left(guild_id)


__all__ = ["AWAY", "Reach"]

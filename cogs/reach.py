"""Where the bot can be heard: posting in a game's thread (waking it, opening a new one), DMs, a game's run of
refusals, its back-off, telling its host, and servers it left.

Every refusal Discord gives the bot for a game is noted here (`note`); when a show of the game fails, its run of
refusals grows and its next attempt is set by `refusals.retry_delay` (never a fixed clock). While a game cannot be
shown its turn clock stops: no reminder or time-out for a prompt nobody could see; the turn gets fresh timers once
it is shown. After a day the game is marked unreachable and its host told once, in the channel the game was opened
in or by DM. A server that removes the bot pauses its games (no timer, no request); they resume, with fresh
timers, if the bot is added back.
"""

from __future__ import annotations

import dataclasses
import io
import logging
from collections.abc import Mapping

import discord

import i18n
from i18n import _
from kit.locks import KeyedLocks
from storage import DEFAULT_GAME, GameReach, GameRecord, Store, TurnPosts
from storage.away import QUIET

from .anywhere import command_name, dm_link
from .client import Client
from .common import game_name, now, pinging
from .limits import THREAD_NAME, ChannelPace, shorten
from .quiet import in_quiet_hours, turn_dm_in
from .refusals import (
    CANNOT_DM,
    MISSING_ACCESS,
    SOON,
    THREAD_LOCKED,
    UNKNOWN_CHANNEL,
    Refusal,
    becomes_unreachable,
    classify,
    refused,
    retry_delay,
)
from .speech import game_language, speaking

log = logging.getLogger(__name__)

TURN_TIMERS = ("reminder_half", "reminder_late", "deadline")
# The guild setting that marks a server the bot was removed from (its value: when).
AWAY = "away"


class Reach:
    """Everything the bot sends for a game goes out here: posts in its thread, DMs. It keeps every game's run of
    refusals and every server the bot left; it never shows a game itself (whoever asked it does)."""

    def __init__(self, bot: Client) -> None:
        self.bot = bot
        # The last refusal noted for each game (HTTP status, JSON code), until the show that met it is over.
        self.last: dict[int, tuple[int, int]] = {}
        # Servers that removed the bot: their games are paused.
        self.away: set[int] = set()
        # Threads Discord says are gone; a game whose thread is here gets a new one.
        self.lost: set[int] = set()
        # What was posted lately in each channel: a long burst (a game only the AI plays) keeps Discord's rate.
        self.pace = ChannelPace()
        # DM channels opened so far (user id → channel id): a DM costs one request, not a user fetch as well.
        self._dm_channels: dict[int, int] = {}
        # Games whose deleted thread was replaced by a new one (game id → new thread), until the caller looks.
        self.moved: dict[int, int] = {}
        # One failure of a game handled at a time: a channel deleted with its thread reaches `failed` twice at once,
        # and its host is told once.
        self._failing: KeyedLocks[int] = KeyedLocks()

    @property
    def store(self) -> Store:
        return self.bot.store

    @staticmethod
    def clock() -> float:
        return now()

    def where(self, record: GameRecord) -> str:
        """A clickable pointer to the game's thread, named by its game and number ("Kōhaku #12")."""
        name = f"{game_name(record)} #{record.id}"
        if not record.thread_id:
            return name
        if record.guild_id is None:  # played in the DM with the bot
            return dm_link(record.thread_id, name)
        return self.bot.channel_link(record.thread_id, name)

    # ------------------------------------------------------------------ sending

    async def thread_of(self, record: GameRecord) -> discord.abc.Messageable | None:
        """The game's thread (or its channel), if Discord still has it and lets the bot see it."""
        channel_id = record.thread_id or record.channel_id
        if channel_id is None or channel_id in self.lost:
            return None
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException as exc:
                # 404: deleted, a new thread takes its place. 403 (Missing Access): the bot may no longer see it,
                # which is not the same; the game backs off until it may.
                if self.note(record.id, exc) is Refusal.GONE:
                    self.lost.add(channel_id)
                return None
        return channel  # type: ignore[return-value]  # a game's thread id names a thread

    async def game_channel(self, record: GameRecord) -> discord.abc.Messageable | None:
        """Where the game is shown: its thread, or a new thread when someone deleted it."""
        channel = await self.thread_of(record)
        if channel is not None or not record.thread_id or record.thread_id not in self.lost:
            return channel
        if record.guild_id is None:
            return None  # a game in a DM has no channel to open a thread in
        parent = self.bot.get_channel(record.channel_id) if record.channel_id else None
        if parent is None:
            # The channel the game was opened in is gone too: nowhere to open a thread until someone moves it.
            self.note_code(record.id, 404, UNKNOWN_CHANNEL)
            return None
        game = game_name(record)
        with speaking(record):
            text = _("The thread of {game} #{number} was deleted, so the game goes on in a new one. Nothing was lost.")
            name = _("{game} #{number} (continued)").format(game=game, number=record.id)
        assert isinstance(parent, discord.abc.Messageable)  # a server text channel, where games are opened
        try:
            note = await parent.send(
                text.format(game=game, number=record.id),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as exc:
            self.note(record.id, exc)
            log.warning("game %d: could not say in its channel that its thread is gone: %s", record.id, exc)
            return None
        try:
            thread = await self.open_thread(record, note, name)
        except discord.HTTPException as exc:  # noted by `open_thread`
            log.warning("game %d: could not open a new thread: %s", record.id, exc)
            return None
        log.info("game %d: its thread was deleted; continuing in %d", record.id, thread.id)
        self.lost.discard(record.thread_id)
        self.moved[record.id] = thread.id
        await self.store.set_thread(record.id, thread.id)
        await self.store.set_turn_posts(
            TurnPosts(record.id, recorded_seq=(await self.store.turn_posts(record.id)).recorded_seq)
        )
        return thread

    async def send(self, record: GameRecord, channel, content: str, **kwargs) -> discord.Message | None:
        """Post in the game's thread; None when Discord refused (the game itself is saved either way). A thread
        that went to sleep (archived) is woken and the post made again; every refusal is noted for the game."""
        if self.paused(record):
            return None
        if getattr(channel, "archived", False) and not await self.wake(record, channel):
            return None
        # A file is used up by a request: keep its bytes in case the post is made again.
        file = kwargs.get("file")
        picture = (
            (file.filename, file.fp.getvalue(), file.description)
            if file is not None and isinstance(file.fp, io.BytesIO)
            else None
        )
        for attempt in range(2):
            try:
                message = await channel.send(content, **kwargs)
            except discord.HTTPException as exc:
                kind = self.note(record.id, exc)
                if kind is Refusal.GONE:
                    self.lost.add(channel.id)
                    log.warning("game %d: its thread %s is gone", record.id, getattr(channel, "id", "?"))
                    return None
                if kind is Refusal.ARCHIVED and attempt == 0 and await self.wake(record, channel):
                    if picture is not None:
                        kwargs["file"] = discord.File(
                            io.BytesIO(picture[1]), filename=picture[0], description=picture[2]
                        )
                    continue
                log.warning("game %d: could not post in %s: %s", record.id, getattr(channel, "id", "?"), exc)
                return None
            self.pace.sent(channel.id, self.clock())
            return message
        return None

    async def edit(self, record: GameRecord, channel, message_id: int, **fields) -> bool:
        """Edit one of the game's messages (in its thread, or its lobby in the channel); False when Discord refused
        (noted). A thread that went to sleep (archived) is woken and the edit made again; nothing is edited for a
        paused game."""
        if self.paused(record):
            return False
        # A file is used up by a request: keep the bytes of new pictures in case the edit is made again.
        pictures = [
            (f.filename, f.fp.getvalue(), f.description)
            for f in fields.get("attachments") or ()
            if isinstance(f, discord.File) and isinstance(f.fp, io.BytesIO)
        ]
        for attempt in range(2):
            try:
                await channel.get_partial_message(message_id).edit(**fields)
            except discord.HTTPException as exc:
                kind = self.note(record.id, exc)
                if kind is Refusal.ARCHIVED and attempt == 0 and await self.wake(record, channel):
                    if pictures:
                        fields["attachments"] = [
                            discord.File(io.BytesIO(data), filename=name, description=alt)
                            for name, data, alt in pictures
                        ]
                    continue
                log.info("game %d: could not edit message %d: %s", record.id, message_id, exc)
                return False
            return True
        return False

    async def delete(self, record: GameRecord, channel, message_id: int) -> bool:
        """Delete one of the game's messages in its thread; True when it is gone (already, too). Nothing is deleted
        for a paused game; a refusal is noted."""
        if self.paused(record):
            return False
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.NotFound:
            return True
        except discord.HTTPException as exc:
            self.note(record.id, exc)
            log.info("game %d: could not delete message %d: %s", record.id, message_id, exc)
            return False
        return True

    def refusal(self, game_id: int) -> Refusal | None:
        """What the game's latest refusal means, if one is noted since its last show."""
        last = self.last.get(game_id)
        return None if last is None else classify(*last)

    async def open_thread(self, record: GameRecord, message: discord.Message, name: str) -> discord.Thread:
        """The game's thread, opened from one of its messages (its lobby, or the note that its thread was deleted);
        a refusal is noted, then raised."""
        try:
            return await message.create_thread(name=shorten(name, THREAD_NAME), auto_archive_duration=10080)
        except discord.HTTPException as exc:
            self.note(record.id, exc)
            raise

    async def wake(self, record: GameRecord, channel) -> bool:
        """Unarchive the game's thread (it falls asleep after a week without posts); False if Discord refuses."""
        if not isinstance(channel, discord.Thread):
            return False
        try:
            await channel.edit(archived=False)
        except discord.HTTPException as exc:
            if channel.locked:
                # A moderator locked it (and the bot may not reopen it): that is what the host needs to hear.
                self.note_code(record.id, exc.status, THREAD_LOCKED)
            else:
                self.note(record.id, exc)
            return False
        return True

    async def notify(
        self, record: GameRecord, user_id: int, message: discord.Message, settings: Mapping[str, str]
    ) -> None:
        """A DM to players who asked for one (not for a muted game, nor with the daily digest), in the language they
        asked in, silent in their quiet hours; closed DMs are fine, the thread mention is enough. `settings`: the
        person's settings about pings (`Store.ping_settings`, or the `TurnShown` a decision returns). Any game: it
        is named by the registry."""
        if not turn_dm_in(settings, record.id) or record.guild_id is None:
            # A game played in the DM with the bot: its prompt is that DM already.
            return
        with i18n.using(settings.get("language") or game_language(record)):
            text = _("Your turn in {game} #{number}: {link}").format(
                game=game_name(record), number=record.id, link=message.jump_url
            )
        if not await self.dm(user_id, text, silent=in_quiet_hours(settings.get(QUIET))):
            log.info("game %d: could not DM user %d", record.id, user_id)

    async def dm(self, user_id: int, text: str, *, silent: bool = False) -> bool:
        """A direct message (`silent`: no sound or notification); False if it could not be sent. A person whose DMs
        are closed to the bot (50007) gets no more turn DMs until they next use `/kokeshi notify`, and is told so
        the next time they use the bot."""
        channel_id = self._dm_channels.get(user_id)
        try:
            if channel_id is None:
                data = await self.bot.http.start_private_message(user_id)
                channel_id = self._dm_channels[user_id] = int(data["id"])
            channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none(), silent=silent)
        except discord.HTTPException as exc:
            self.note(None, exc)
            if exc.code == CANNOT_DM:
                await self.store.set_user_setting(user_id, "notify", "off")
                await self.store.set_user_setting(user_id, "dm_closed", "1")
            return False
        return True

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

    async def failed(self, record: GameRecord, cause: tuple[int, int] | None = None) -> GameReach:
        """A show of the game failed: its run of refusals grows, its turn clock stops, the next attempt is set
        (later each time), and after a day its host is told. `cause`: the refusal's HTTP status and Discord code
        when the caller knows it, else the last one `note` kept for the game."""
        async with self._failing(record.id):
            return await self._failed(record, cause)

    async def _failed(self, record: GameRecord, cause: tuple[int, int] | None) -> GameReach:
        now = self.clock()
        noted = self.last.pop(record.id, (0, 0))
        status, code = cause if cause is not None else noted
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
        self.note_code(None, 404, UNKNOWN_CHANNEL)
        await self.failed(record, (404, UNKNOWN_CHANNEL))

    async def succeeded(self, record: GameRecord, *, refused: bool = True) -> None:
        """The game was shown: a run of refusals is over, and the turn's clock starts again from now. `refused`:
        False when the caller knows no run of refusals was under way (nothing to end)."""
        self.last.pop(record.id, None)
        if not refused:
            return
        ended = await self.store.clear_reach(record.id)
        if ended is None:
            return
        # The table gives the turn fresh timers itself, when it shows the turn again.
        log.info("game %d: shown again after %d refused attempts", record.id, ended.refusals)

    async def soon(self, record: GameRecord) -> None:
        """Something suggests the cause of a game's refusals is gone: try it again in a few seconds."""
        if await self.store.reach(record.id) is None or self.paused(record):
            return
        await self.store.set_timer(record.id, "repost", self.clock() + SOON, record.version)
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
                await parent.send(text, allowed_mentions=pinging(record.host_id))  # type: ignore[union-attr]
                return True
            except discord.HTTPException as exc:
                self.note(None, exc)
        with i18n.using(await self.store.user_setting(record.host_id, "language") or game_language(record)):
            text = self.stuck_text(record, reach, for_host=True)
        return await self.dm(record.host_id, text)

    async def saved_not_shown(self, record: GameRecord) -> str:
        """What a player is told privately when their move is saved but the thread could not show it: why, and that
        it is tried again, in the current language."""
        reach = await self.store.reach(record.id)
        why = self.reason(record, reach) if reach is not None else ""
        return _(
            "Your move is saved, but {why} I try again later, less often each time; nothing is lost and the game "
            "picks up where it stopped."
        ).format(why=why)

    def reason(self, record: GameRecord, reach: GameReach) -> str:
        """Why the game cannot be shown and what would free it, in the current language."""
        thread = self.where(record)
        kind = classify(reach.status, reach.code)
        if kind is Refusal.GONE and record.game != DEFAULT_GAME:
            # Only Kokeshi's commands take a game's number to move it to another channel.
            why = _(
                "the channel of {game} #{number} was deleted. Every move is saved, but the game has nowhere to go "
                "on until the channel is back."
            )
        elif kind is Refusal.GONE:
            why = _(
                "the channel of {game} #{number} was deleted. Use `/kokeshi play` (or `/kokeshi status`) with "
                "`game:{number}` in another channel and the game goes on there, in a new thread."
            )
        elif kind is Refusal.LOCKED:
            why = _("the thread of {game} #{number}, {thread}, is locked. Unlocking it lets the game go on.")
        elif reach.code == MISSING_ACCESS:
            why = _(
                "I can no longer see the thread of {game} #{number}, {thread}. A server admin can give me View "
                "Channel there (and in its channel) to let the game go on."
            )
        elif kind is Refusal.FORBIDDEN:
            why = _(
                "I may no longer post in the thread of {game} #{number}, {thread}. A server admin can give me "
                "Send Messages in Threads, Attach Files and Embed Links there to let the game go on."
            )
        else:
            why = _("Discord keeps refusing my posts in the thread of {game} #{number}, {thread}.")
        return why.format(game=game_name(record), number=record.id, thread=thread)

    def stuck_text(self, record: GameRecord, reach: GameReach, *, for_host: bool = False) -> str:
        """A stuck game as `status` shows it, or as its host is told (once), in the current language."""
        why = self.reason(record, reach)
        # Discord shows a timestamp in each reader's own time zone and language.
        since = f"<t:{int(reach.since)}:f>"
        if for_host:
            # The command that plays a choice without the thread's buttons: Kokeshi's, or the platform's.
            command = "/" + command_name(
                "kokeshi play" if record.game == DEFAULT_GAME else "games play", i18n.current()
            )
            return _(
                "⚠️ <@{host}>, your game is paused since {since}: {why} Nothing is lost: every move is saved, "
                "`{command}` works meanwhile, and the game picks up where it stopped."
            ).format(host=record.host_id, since=since, why=why, command=command)
        return _("⚠️ Paused since {since}: {why}").format(since=since, why=why)

    def away_text(self) -> str:
        """A game of a server that removed the bot, as `status` shows it, in the current language."""
        return _(
            "⚠️ Paused: I was removed from its server. Nothing is lost: the game goes on where it stopped once a "
            "server admin adds me back."
        )

    # ------------------------------------------------------------------ resuming

    async def resume(self, interaction: discord.Interaction, record: GameRecord) -> bool:
        """Someone used a command about a stuck game: True when it is to be tried again now (the caller shows it); a
        game whose channel was deleted moves to the channel the command was used in (a text channel where the bot
        may run a game)."""
        if self.paused(record) or record.status != "active":
            return False
        reach = await self.store.reach(record.id)
        if reach is None:
            return False
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
                self.lost.add(record.thread_id)
            await self.store.set_channel(record.id, channel.id)
        return True

    # ------------------------------------------------------------------ servers

    async def load(self) -> None:
        """The servers that removed the bot, as stored (after a restart)."""
        self.away = {guild_id for guild_id, _value in await self.store.guilds_with_setting(AWAY)}

    async def guild_left(self, guild_id: int) -> None:
        """The bot was removed from a server: its games pause, their timers stop, nothing is sent there."""
        self.away.add(guild_id)
        await self.store.set_guild_setting(guild_id, AWAY, repr(self.clock()))
        games = [g for g in await self.store.active_games() if g.guild_id == guild_id]
        for record in games:
            await self.store.clear_timers(record.id)
        log.info("removed from server %d: %d games paused", guild_id, len(games))

    async def guild_joined(self, guild_id: int) -> list[int]:
        """The bot is back in a server it left: its games resume, each turn with fresh timers. Returns the games to
        show again (the caller shows them)."""
        if guild_id not in self.away and await self.store.guild_setting(guild_id, AWAY) is None:
            return []
        self.away.discard(guild_id)
        await self.store.set_guild_setting(guild_id, AWAY, None)
        games = [g for g in await self.store.active_games() if g.guild_id == guild_id]
        for record in games:
            await self.store.clear_reach(record.id)
        log.info("back in server %d: %d games resumed", guild_id, len(games))
        return [record.id for record in games]

    async def reconcile(self) -> list[int]:
        """At start-up: servers that added the bot back while it was stopped resume (returns their games, to be
        shown again); games of this process's servers that no longer have the bot pause."""
        await self.load()
        present = {guild.id for guild in self.bot.guilds}
        resumed: list[int] = []
        for back in sorted(self.away & present):
            resumed += await self.guild_joined(back)
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
        return resumed


__all__ = ["AWAY", "Reach"]

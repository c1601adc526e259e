"""Discord's news about where the bot may post: removed from or added to a server, channels, threads and roles."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from .wiring import WiredClient

log = logging.getLogger(__name__)


class Watch(commands.Cog):
    """Pauses and resumes a server's games, and tries stuck games again when a permission may have come back."""

    def __init__(self, bot: WiredClient) -> None:
        self.bot = bot

    @property
    def reach(self):
        return self.bot.tables.reach

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self._safely(self.reach.guild_left(guild.id), "pausing the games of server %d", guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self._safely(self.bot.tables.guild_joined(guild.id), "resuming the games of server %d", guild.id)

    # Only a server the bot had left resumes anything: one back from an outage was never paused.
    on_guild_available = on_guild_join

    # Permission overwrites of a channel, a thread unlocked or unarchived, a role's permissions: any of these may
    # be what a stuck game of that server waits for.
    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel):
        await self._changed(after.guild.id)

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        await self._changed(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self._changed(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        await self._changed(after.id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        # The channel games were opened in is gone: they are unreachable now (their hosts learn it by DM), not at
        # their next move; a command about one of them in another channel moves it there.
        for record in await self.bot.store.active_games():
            if record.channel_id == channel.id:
                await self._safely(self.reach.channel_gone(record), "game %d lost its channel", record.id)

    @commands.Cog.listener()
    async def on_thread_delete(self, thread: discord.Thread) -> None:
        # A game's thread is gone: the game goes on at once in a new thread of its channel.
        tables = self.bot.tables
        for record in await self.bot.store.active_games():
            if record.thread_id != thread.id:
                continue
            tables.lost.add(thread.id)
            # Its live prompt is posted in the new thread.
            await self._safely(self.bot.matches.reopen(record), "game %d lost its thread", record.id)

    async def _changed(self, guild_id: int) -> None:
        await self._safely(self.reach.changed(guild_id), "retrying the stuck games of server %d", guild_id)

    @staticmethod
    async def _safely(coro, what: str, *args) -> None:
        try:
            await coro
        except Exception:
            log.exception(what, *args)


async def setup(bot: WiredClient) -> None:
    await bot.add_cog(Watch(bot))

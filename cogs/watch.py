"""Discord's news about where the bot may post: removed from or added to a server, channels, threads and roles."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

if TYPE_CHECKING:
    from bot import KokeshiBot

log = logging.getLogger(__name__)


class Watch(commands.Cog):
    """Pauses and resumes a server's games, and tries stuck games again when a permission may have come back."""

    def __init__(self, bot: KokeshiBot) -> None:
        self.bot = bot

    @property
    def reach(self):
        return self.bot.tables.reach

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self._safely(self.reach.guild_left(guild.id), "pausing the games of server %d", guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self._safely(self.reach.guild_joined(guild.id), "resuming the games of server %d", guild.id)

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
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        # A game whose channel is gone is shown at once: its host learns now, not at the next move.
        store = self.bot.store
        for record in await store.active_games():
            if record.channel_id == channel.id or record.thread_id == channel.id:
                await self._safely(self.bot.tables.poster.show(record.id), "showing game %d", record.id)

    @commands.Cog.listener()
    async def on_thread_delete(self, thread: discord.Thread) -> None:
        await self.on_guild_channel_delete(thread)

    async def _changed(self, guild_id: int) -> None:
        await self._safely(self.reach.changed(guild_id), "retrying the stuck games of server %d", guild_id)

    @staticmethod
    async def _safely(coro, what: str, *args) -> None:
        try:
            await coro
        except Exception:
            log.exception(what, *args)


async def setup(bot: KokeshiBot) -> None:
    await bot.add_cog(Watch(bot))

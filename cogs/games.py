"""The `/games` slash commands: what the platform offers beside the games' own commands (the server's settings,
replays of finished games)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from .wiring import WiredClient


@app_commands.guild_only()
class Games(
    commands.GroupCog,
    group_name="games",
    group_description="Replays, and settings for you and this server, in every game",
):
    """Commands shared by every game the bot runs; the work is in `Tables`, `Community` and `Replays`."""

    def __init__(self, bot: WiredClient) -> None:
        self.bot = bot
        super().__init__()

    settings = app_commands.Group(name="settings", description="Server settings (admins)")

    # Here rather than under `/kokeshi`, whose 20 subcommands are all the room this bot gives a group.
    @app_commands.command(name="replay", description="Step through a finished game privately, turn by turn")
    @app_commands.describe(game="The finished game's number (default: your last one here)")
    async def replay(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.bot.tables.guard(interaction, game, self.bot.replays.open(interaction, game))

    @replay.autocomplete("game")
    async def replay_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.bot.replays.autocomplete(interaction, current)

    @settings.command(name="limits", description="How many open games a person and a channel may have")
    @app_commands.describe(
        per_user="Open games (lobbies and games in progress) one person may be in; default 5",
        per_channel="Open games one channel may hold; default 20",
    )
    async def limits(
        self, interaction: discord.Interaction, per_user: int | None = None, per_channel: int | None = None
    ) -> None:
        tables = self.bot.tables
        await tables.guard(interaction, None, tables.set_limits(interaction, per_user, per_channel))

    @settings.command(name="daily-channel", description="Post each day's daily challenge results in a channel")
    @app_commands.describe(channel="Where to post (leave empty to stop posting)")
    async def daily_channel(self, interaction: discord.Interaction, channel: discord.TextChannel | None = None):
        await self.bot.tables.guard(interaction, None, self.bot.community.set_daily_channel(interaction, channel))


async def setup(bot: WiredClient) -> None:
    await bot.add_cog(Games(bot))

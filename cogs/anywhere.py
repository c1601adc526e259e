"""Where a command is used: a server the bot is in, the player's DM with the bot, or a place where only the player
installed the app (another server, a group DM), and the commands that need a server of the bot's."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from i18n import _

from .translator import translate

# The key of a command's extras that keeps it to servers the bot is in (multiplayer, server settings).
SERVER = "server"
# The app may be installed to a server and to a user; its commands reach servers, the DM with the bot and the
# places a user-installed app answers in (other servers, group DMs). Discord reads these on top-level commands only.
INSTALLS = app_commands.allowed_installs(guilds=True, users=True)
CONTEXTS = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)


def bot_server(interaction: discord.Interaction) -> int | None:
    """The server the command was used in when the bot is in it; None in a DM or where only the user installed
    the app (the bot cannot post there)."""
    guild_id = interaction.guild_id
    if guild_id is None or interaction.client.get_guild(guild_id) is None:
        return None
    return guild_id


def in_bot_dm(interaction: discord.Interaction) -> bool:
    """Whether the command was used in the player's own DM with the bot."""
    if interaction.guild_id is not None:
        return False
    context = interaction.context
    if context.dm_channel or context.private_channel:
        return context.dm_channel
    # No context given: a DM channel is the bot's own.
    return isinstance(interaction.channel, discord.DMChannel)


def server_only(command: object) -> bool:
    """Whether a command works only in a server the bot is in."""
    extras = getattr(command, "extras", None) or {}
    if extras.get(SERVER):
        return True
    parent = getattr(command, "parent", None)
    return parent is not None and server_only(parent)


def command_name(name: str, locale: discord.Locale | str) -> str:
    """A command's full name as the person sees it in their client's language."""
    return " ".join(translate(word, locale, Where.command_name) or word for word in name.split())


def server_only_text(name: str) -> str:
    """The refusal of a server-only command used elsewhere (`name` as the person sees it): where it works, in the
    current language."""
    return _(
        "`/{command}` works only in a server channel where Kokeshi is installed: multiplayer games, their lobbies "
        "and server settings live in servers. Here you can play `/kokeshi solo`, `/kokeshi daily` and "
        "`/kokeshi weekly`, and use `/kokeshi stats`, `/kokeshi leaderboard`, `/kokeshi rules`, `/kokeshi help`, "
        "`/games replay` and `/games stats`."
    ).format(command=name)


def dm_link(channel_id: int, label: str) -> str:
    """A link to a DM channel with the bot (a channel mention does not open a DM)."""
    return f"[{label}](https://discord.com/channels/@me/{channel_id})"

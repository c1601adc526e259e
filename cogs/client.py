"""The bot as the cogs know it: discord.py's bot with the store, the tables and the community; no cog imports bot.py.

The tables and the community are named here by what the cogs under them call (`TableDesk`, `ChallengeDesk`), so
that the cogs import one another one way only; the extensions see them whole (`cogs.wiring.WiredClient`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Any, Protocol

import discord
from discord.ext import commands

from i18n import _
from storage import DEFAULT_GAME, GameRecord, Store

from .thinking import Thinker


class TableDesk(Protocol):
    """The tables (`cogs.tables.Tables`) as the buttons, the community and the replays call them."""

    @property
    def thinker(self) -> Thinker: ...

    async def tell(self, interaction: discord.Interaction, text: str, **kwargs: Any) -> None: ...

    async def guard(
        self, interaction: discord.Interaction, game_id: int | None, coro: Coroutine[Any, Any, Any]
    ) -> None: ...

    def where(self, record: GameRecord) -> str: ...

    def paused(self, record: GameRecord) -> bool: ...

    async def turn_dm(
        self, record: GameRecord, user_id: int, message: discord.Message, settings: Mapping[str, str]
    ) -> None: ...

    def check_permissions(
        self, channel: discord.TextChannel, permissions: discord.Permissions | None = None
    ) -> None: ...

    async def check_limits(self, interaction: discord.Interaction, channel: discord.abc.Messageable | None) -> None: ...

    async def solo_place(self, interaction: discord.Interaction) -> discord.TextChannel | discord.DMChannel: ...

    def check_channel(self, interaction: discord.Interaction) -> discord.TextChannel: ...


class ChallengeDesk(Protocol):
    """The community (`cogs.community.Community`) as the tables call it at the end of a challenge game."""

    async def challenge_summary(self, game_id: int, challenge: str, user_id: int, game: str = DEFAULT_GAME) -> str: ...


class ShareDesk(Protocol):
    """The share cards (`cogs.share.Shares`) as another game's table calls them from its Share button."""

    async def share(self, interaction: discord.Interaction, game_id: int) -> None: ...


class MatchDesk(Protocol):
    """The other games' tables (`cogs.matches.Matches`) as away calls them once it moved their deadlines, as the
    tables call them when a server adds the bot back, and as the timer loop calls them at a start."""

    async def show_deadline(self, record: GameRecord) -> None: ...

    async def show_again(self, game_id: int) -> bool: ...

    async def catch_up(self, shards: tuple[int, Sequence[int]] | None) -> None: ...

    async def resume(self, game_id: int) -> None: ...


class Places(Protocol):
    """Where the bot's messages point and what the person at the keyboard is shown: Discord's way (`DiscordPlaces`)
    unless the bot is given another (the sandbox gives its page's)."""

    def link(self, channel_id: int, label: str) -> str:
        """How a message points at a channel or thread."""
        ...

    def follow(self, channel_id: int) -> None:
        """Show this channel to the person at the keyboard, once the bot has opened it for them."""
        ...


class DiscordPlaces:
    """On Discord: a channel mention, which every client makes clickable; nothing to follow (each person's client
    shows what they open)."""

    def link(self, channel_id: int, label: str) -> str:
        return f"<#{channel_id}>"

    def follow(self, channel_id: int) -> None:
        return None


class Client(commands.Bot):
    """discord.py's bot with what bot.py gives it; `bot.KokeshiBot` is the one that runs."""

    store: Store
    tables: TableDesk
    community: ChallengeDesk
    shares: ShareDesk
    matches: MatchDesk
    sandbox: bool
    places: Places = DiscordPlaces()
    # How the timer loop sleeps until its next timer (a simulated clock may replace it).
    nap: Callable[[float], Awaitable[object]] = staticmethod(asyncio.sleep)

    @property
    def timer_shards(self) -> tuple[int, tuple[int, ...]] | None:
        """(shard count, this process's shard ids) when it runs only some shards: it fires only their timers."""
        count, ids = getattr(self, "shard_count", None), getattr(self, "shard_ids", None)
        if not count or ids is None or set(ids) == set(range(count)):
            return None
        return count, tuple(ids)

    def wake_timers(self, due_at: float | None = None) -> None:
        """Tell the timer loop that the earliest timer may have changed (the bot knows its loop); `due_at`, when
        given, is the earliest of the timers just set (a loop already waking before then need not start again)."""
        raise NotImplementedError

    def channel_link(self, channel_id: int, label: str) -> str:
        """How a message points at a channel or thread (see `Places.link`)."""
        return self.places.link(channel_id, label)

    def follow_channel(self, channel_id: int) -> None:
        """Show this channel to the person at the keyboard (see `Places.follow`)."""
        self.places.follow(channel_id)


def home(bot: Client, record: GameRecord) -> str:
    """A line pointing back at the channel where the game was opened, for new games and lobbies (none when the
    game was opened in a DM, or its channel is gone)."""
    channel = bot.get_channel(record.channel_id) if record.channel_id else None
    if not isinstance(channel, discord.abc.GuildChannel):
        return ""
    return _("New games and lobbies: {channel}").format(channel=bot.channel_link(channel.id, "#" + channel.name))

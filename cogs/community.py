"""Leaderboards, stats, daily and weekly challenges, and the daily results posted to servers that opt in."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import logging
import re
from typing import TYPE_CHECKING

import discord

import render
from engine import vocab
from storage import BoardRow, challenge_key

from .narration import escape
from .tables import UserError

if TYPE_CHECKING:
    from bot import KokeshiBot

log = logging.getLogger(__name__)

PAGE_SIZE = 10
BOARD_TITLES = {
    "rating": "Rating",
    "wins": "Wins",
    "best": "Best score",
    "solo": "Best solo score",
    "daily": "Daily challenge",
    "weekly": "Weekly challenge",
}
PAGE_TEMPLATE = r"kk:p:(?P<scope>[gw]\d*):(?P<board>[a-z]+):(?P<key>[0-9W-]*):(?P<page>\d+)"


def utcnow() -> dt.datetime:
    return discord.utils.utcnow()


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_TEMPLATE):
    """Previous / next page of a leaderboard; works after a restart like every other button."""

    def __init__(self, scope: str, board: str, key: str, page: int, label: str, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"kk:p:{scope}:{board}:{key}:{page}",
            )
        )
        self.scope, self.board, self.key, self.page = scope, board, key, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /):
        return cls(match["scope"], match["board"], match["key"], int(match["page"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        community: Community = interaction.client.community  # type: ignore[attr-defined]
        await community.bot.tables.guard(
            interaction, None, community.show_page(interaction, self.scope, self.board, self.key, self.page, edit=True)
        )


class Community:
    """Everything about players across games; cogs call it."""

    def __init__(self, bot: KokeshiBot) -> None:
        self.bot = bot

    @property
    def store(self):
        return self.bot.store

    # ------------------------------------------------------------------ leaderboards

    @staticmethod
    def _value(board: str, row: BoardRow) -> str:
        if board == "rating":
            return f"**{int(row.value)}**" + (" *(provisional)*" if row.provisional else "") + f" · {row.games} games"
        if board == "wins":
            return f"**{int(row.value)}** win{'s' if row.value != 1 else ''} · {row.games} games"
        return f"**{int(row.value)}** points"

    async def page_content(
        self, viewer: int, scope: str, board: str, key: str, page: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        guild_id = int(scope[1:]) if scope.startswith("g") else None
        shown, count = await self.store.leaderboard_page(board, guild_id, key or None, page=page, size=PAGE_SIZE)
        pages = max(1, -(-count // PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        lines = []
        for row in shown:
            line = f"{row.rank}. <@{row.user_id}> — {self._value(board, row)}"
            lines.append(f"▶ **{line}** ◀" if row.user_id == viewer else line)
        mine = await self.store.leaderboard_entry(board, guild_id, viewer, key or None)
        if mine is not None and mine not in shown:
            lines += ["…", f"▶ **{mine.rank}. you — {self._value(board, mine)}** ◀"]
        if not count:
            lines = ["Nobody is on this board yet."]
        where = "this server" if guild_id else "the world"
        title = f"{BOARD_TITLES[board]} — {where}" + (f" — {key}" if key else "")
        embed = discord.Embed(title=title, description="\n".join(lines), colour=0xC8553D)
        embed.set_footer(text=f"Page {page + 1} of {pages} · {count} players")
        view = discord.ui.View(timeout=None)
        view.add_item(PageButton(scope, board, key, max(page - 1, 0), "◀ Previous", disabled=page == 0))
        view.add_item(PageButton(scope, board, key, page + 1, "Next ▶", disabled=page >= pages - 1))
        return embed, view

    async def show_page(
        self, interaction: discord.Interaction, scope: str, board: str, key: str, page: int, *, edit: bool = False
    ) -> None:
        mentions = discord.AllowedMentions.none()
        if edit:
            embed, view = await self.page_content(interaction.user.id, scope, board, key, page)
            await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=mentions)
            return
        # Acknowledge first: a board read on a busy database must not run into Discord's 3 s answer limit.
        await interaction.response.defer(ephemeral=True, thinking=True)
        embed, view = await self.page_content(interaction.user.id, scope, board, key, page)
        await interaction.followup.send(embed=embed, view=view, ephemeral=True, allowed_mentions=mentions)

    async def leaderboard(self, interaction: discord.Interaction, scope: str, board: str) -> None:
        key = ""
        if board in ("daily", "weekly"):
            key = challenge_key(board, utcnow())
        where = f"g{interaction.guild_id}" if scope == "server" else "w"
        await self.show_page(interaction, where, board, key, 0)

    # ------------------------------------------------------------------ stats

    async def stats(self, interaction: discord.Interaction, user: discord.abc.User) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.store.stats(user.id)
        server = await self.store.rating(f"guild:{interaction.guild_id}", user.id)
        world = await self.store.rating("global", user.id)
        streak = await self.store.streak(user.id, utcnow().date())
        embed = discord.Embed(title=f"{escape(user.display_name)[:200]} at Kokeshi", colour=0xC8553D)
        if record.games or record.solo_games:
            if record.games:  # multiplayer figures only for someone who has played with others
                embed.add_field(
                    name="Games",
                    value=f"{record.games} played · {record.wins} won ({record.win_rate:.0%})\n"
                    f"average {record.average:.1f} · best {record.best}",
                )
                b = record.breakdown
                embed.add_field(name="Average score", value=_breakdown(b))
                embed.add_field(
                    name="Rating",
                    value=f"this server {server.display}{' (provisional)' if server.provisional else ''}\n"
                    f"world {world.display}{' (provisional)' if world.provisional else ''}",
                )
            embed.add_field(
                name="Solo",
                value=f"{record.solo_games} played · {record.solo_wins} won · best {record.solo_best}\n"
                f"daily streak: {streak} day{'s' if streak != 1 else ''}",
            )
            if record.favourite:
                embed.add_field(name="Favourite kokeshi", value=vocab.kokeshi(record.favourite))
        else:
            embed.description = "No finished games yet. `/kokeshi new`, `/kokeshi solo` or `/kokeshi daily`!"
        picture = await asyncio.to_thread(render.history, user.display_name, record.history, "score history")
        embed.set_image(url="attachment://history.png")
        await interaction.followup.send(
            embed=embed, file=discord.File(io.BytesIO(picture), filename="history.png"), ephemeral=True
        )

    # ------------------------------------------------------------------ challenges

    async def challenge(self, interaction: discord.Interaction, kind: str) -> None:
        key = challenge_key(kind, utcnow())
        await self.bot.tables.open_challenge(interaction, kind, key)

    async def challenge_summary(self, game_id: int, challenge: str, user_id: int) -> str:
        """A line for the end of a challenge game: the rank today, whether it counted, the streak."""
        kind, key = challenge.split(":", 1)
        attempts = await self.store.challenge_attempts(user_id, kind, key)
        this = next((a for a in attempts if a["game_id"] == game_id), None)
        if this is None:
            return ""
        if not this["rated"]:
            return f"This was a practice run: only your first {kind} attempt of {key} is ranked."
        mine = await self.store.leaderboard_entry(kind, None, user_id, key)
        _, players = await self.store.leaderboard_page(kind, None, key, size=1)
        text = f"{'Daily' if kind == 'daily' else 'Weekly'} challenge {key}: #{mine.rank} of {players} so far."
        if kind == "daily":
            streak = await self.store.streak(user_id, dt.date.fromisoformat(key))
            text += f" Streak: {streak} day{'s' if streak != 1 else ''}."
        return text

    # ------------------------------------------------------------------ daily results

    async def post_daily_results(self) -> None:
        """Post yesterday's daily challenge results in every server that opted in (once per day)."""
        yesterday = (utcnow() - dt.timedelta(days=1)).date().isoformat()
        rows = await self.store.leaderboard("daily", None, yesterday)
        if not rows:
            return  # a day nobody played is not worth a message
        for guild_id, channel_value in await self.store.guilds_with_setting("daily_channel"):
            if await self.store.daily_posted(guild_id, yesterday):
                continue
            channel = self.bot.get_channel(int(channel_value))
            if channel is None:
                continue
            local = {row.user_id for row in await self.store.leaderboard("daily", guild_id, yesterday)}
            lines = [
                f"{row.rank}. <@{row.user_id}> — **{int(row.value)}** points" + (" ⭐" if row.user_id in local else "")
                for row in rows[:10]
            ]
            lines += [
                f"{row.rank}. <@{row.user_id}> — {int(row.value)} points ⭐"
                for row in rows[10:]
                if row.user_id in local
            ]
            text = "\n".join(lines) + "\nToday's challenge is waiting: `/kokeshi daily`."
            try:
                await channel.send(
                    f"**Daily challenge {yesterday} — results** (⭐ = this server)\n{text}"[:1990],
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException as exc:
                log.warning("could not post daily results in guild %d: %s", guild_id, exc)
                continue
            await self.store.mark_daily_posted(guild_id, yesterday, channel.id, utcnow().timestamp())

    async def set_daily_channel(self, interaction: discord.Interaction, channel: discord.TextChannel | None) -> None:
        member = interaction.user
        if not getattr(getattr(member, "guild_permissions", None), "manage_guild", False):
            raise UserError("Only server admins (Manage Server) can change this setting.")
        if channel is None:
            await self.store.set_guild_setting(interaction.guild_id, "daily_channel", None)
            await self.bot.tables.tell(interaction, "Daily results will no longer be posted here.")
            return
        if not channel.permissions_for(channel.guild.me).send_messages:
            raise UserError(f"I can't send messages in {channel.mention}; pick another channel or grant me access.")
        await self.store.set_guild_setting(interaction.guild_id, "daily_channel", str(channel.id))
        await self.bot.tables.tell(
            interaction, f"Each day's daily challenge results will be posted in {channel.mention}."
        )


__all__ = ["Community", "PageButton", "escape"]


def _breakdown(averages: dict[str, float]) -> str:
    """The average of each score item, named as in the pictures, two to a line."""
    items = [f"{vocab.score_item(key)} {averages.get(key, 0.0):.1f}" for key in vocab.SCORE_ITEMS if key != "total"]
    return "\n".join(" · ".join(items[i : i + 2]) for i in range(0, len(items), 2))

"""Leaderboards, stats, daily and weekly challenges, and the daily results posted to servers that opt in."""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

import discord

import games
import i18n
from games.base import GameModule
from i18n import N_, _, ngettext
from storage import DEFAULT_GAME, BoardRow, challenge_key, scope_of

from . import common
from .answering import Answer, AnswersFirst
from .anywhere import bot_server
from .client import Client
from .common import UserError, challenge_day
from .limits import MESSAGE
from .offer import daily_waiting, first_game_hint
from .persistent import FromCustomId
from .speech import escape

log = logging.getLogger(__name__)

PAGE_SIZE = 10
# Streaks named in a server's daily results: from this many days, at most this many players.
MIN_STREAK = 2
STREAKS_NAMED = 5
# Looked up in the viewer's language when a page is shown.
BOARD_TITLES = {
    "rating": N_("Rating"),
    "wins": N_("Wins"),
    "best": N_("Best score"),
    "solo": N_("Best solo score"),
    "daily": N_("Daily challenge"),
    "weekly": N_("Weekly challenge"),
}
PAGE_TEMPLATE = r"kk:p:(?P<scope>[gw]\d*):(?P<board>[a-z]+):(?P<key>[0-9W-]*):(?P<page>\d+)"


def utcnow() -> dt.datetime:
    return discord.utils.utcnow()


class PageButton(FromCustomId, AnswersFirst, discord.ui.DynamicItem[discord.ui.Button], template=PAGE_TEMPLATE):
    """Previous / next page of a leaderboard; works after a restart like every other button."""

    answer = Answer.UPDATE  # the page is redrawn in place
    FIELDS = {"scope": str, "board": str, "key": str, "page": int}

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

    async def callback(self, interaction: discord.Interaction) -> None:
        community: Community = interaction.client.community  # type: ignore[attr-defined]  # the bot's, and cogs do not import bot.py
        await community.bot.tables.guard(
            interaction, None, community.show_page(interaction, self.scope, self.board, self.key, self.page, edit=True)
        )


class Community:
    """Everything about players across games; cogs call it."""

    def __init__(self, bot: Client) -> None:
        self.bot = bot

    @property
    def store(self):
        return self.bot.store

    # ------------------------------------------------------------------ leaderboards

    @staticmethod
    def _value(board: str, row: BoardRow) -> str:
        value = int(row.value)
        number = i18n.format_number(value)
        games = ngettext("{count} game", "{count} games", row.games).format(count=i18n.format_number(row.games))
        if board == "rating":
            if row.provisional:
                return _("**{rating}** *(provisional)* · {games}").format(rating=number, games=games)
            return _("**{rating}** · {games}").format(rating=number, games=games)
        if board == "wins":
            return ngettext("**{count}** win · {games}", "**{count}** wins · {games}", value).format(
                count=number, games=games
            )
        return ngettext("**{count}** point", "**{count}** points", value).format(count=number)

    async def page_content(
        self, viewer: int, scope: str, board: str, key: str, page: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        guild_id = int(scope[1:]) if scope.startswith("g") else None
        shown, count = await self.store.leaderboard_page(board, guild_id, key or None, page=page, size=PAGE_SIZE)
        pages = max(1, -(-count // PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        lines = []
        names = await self.names([row.user_id for row in shown], guild_id)
        for row in shown:
            line = f"{row.rank}. {escape(names[row.user_id])} — {self._value(board, row)}"
            lines.append(f"▶ **{line}** ◀" if row.user_id == viewer else line)
        mine = await self.store.leaderboard_entry(board, guild_id, viewer, key or None)
        if mine is not None and mine not in shown:
            you = _("{rank}. you — {value}").format(rank=mine.rank, value=self._value(board, mine))
            lines += ["…", f"▶ **{you}** ◀"]
        if not count:
            lines = [_("Nobody is on this board yet.")]
        where = _("this server") if guild_id else _("the world")
        title = f"{_(BOARD_TITLES[board])} — {where}"
        if key:
            title += f" — {challenge_day(key) if board == 'daily' else key}"
        embed = discord.Embed(title=title, description="\n".join(lines), colour=0xC8553D)
        players = ngettext("{count} player", "{count} players", count).format(count=i18n.format_number(count))
        embed.set_footer(
            text=_("Page {page} of {pages} · {players}").format(page=page + 1, pages=pages, players=players)
        )
        view = discord.ui.View(timeout=None)
        view.add_item(PageButton(scope, board, key, max(page - 1, 0), _("◀ Previous"), disabled=page == 0))
        view.add_item(PageButton(scope, board, key, page + 1, _("Next ▶"), disabled=page >= pages - 1))
        return embed, view

    async def show_page(
        self, interaction: discord.Interaction, scope: str, board: str, key: str, page: int, *, edit: bool = False
    ) -> None:
        # Already acknowledged (see `answering`): a board read on a busy database never runs into Discord's 3 s.
        mentions = discord.AllowedMentions.none()
        embed, view = await self.page_content(interaction.user.id, scope, board, key, page)
        if edit:
            await interaction.edit_original_response(embed=embed, view=view, allowed_mentions=mentions)
            return
        await interaction.followup.send(embed=embed, view=view, ephemeral=True, allowed_mentions=mentions)

    async def names(self, user_ids: list[int], guild_id: int | None) -> dict[int, str]:
        """How each user is called on a board: their name in the server, their Discord name, or the name they last
        played under; never a raw mention, which shows as a number wherever Discord does not know the user."""
        guild = self.bot.get_guild(guild_id) if guild_id else None
        found: dict[int, str] = {}
        for user_id in user_ids:
            member = guild.get_member(user_id) if guild is not None else None
            user = member or self.bot.get_user(user_id)
            if user is not None:
                found[user_id] = user.display_name
                continue
            results = await self.store.results_for_user(user_id)
            if results:
                found[user_id] = results[-1].name
                continue
            try:
                found[user_id] = (await self.bot.fetch_user(user_id)).display_name
            except discord.HTTPException:
                found[user_id] = _("a former player")
        return found

    async def default_board(self, user_id: int) -> str:
        """The board a player is offered first: their solo scores if they have only played solo, else wins."""
        record = await self.store.stats(user_id)
        return "solo" if record.solo_games and not record.games else "wins"

    async def leaderboard(self, interaction: discord.Interaction, scope: str | None, board: str | None) -> None:
        """The leaderboard of this server (the default in a server of the bot's) or of the world (elsewhere)."""
        if board is None:
            board = await self.default_board(interaction.user.id)
        key = ""
        if board in ("daily", "weekly"):
            key = challenge_key(board, utcnow())
        server = bot_server(interaction)
        scope = scope or ("server" if server is not None else "global")
        if scope == "server" and server is None:
            # Outside a server of the bot's there is no server board: the world's is shown, and the answer says so.
            await interaction.followup.send(
                _("There is no server board here, so this is the global one (`scope: this server` works in servers)."),
                ephemeral=True,
            )
        where = f"g{server}" if scope == "server" and server is not None else "w"
        await self.show_page(interaction, where, board, key, 0)

    # ------------------------------------------------------------------ stats

    async def stats(self, interaction: discord.Interaction, user: discord.abc.User) -> None:
        module = games.get(DEFAULT_GAME)
        record = await self.store.stats(user.id)
        guild_id = bot_server(interaction)
        server = await self.store.rating(scope_of(guild_id), user.id) if guild_id is not None else None
        world = await self.store.rating(scope_of(None), user.id)
        streak = await self.store.streak(user.id, utcnow().date())
        title = _("{player} at {game}").format(player=escape(user.display_name)[:200], game=module.name)
        embed = discord.Embed(title=title, colour=0xC8553D)
        number = i18n.format_number
        if record.games or record.solo_games:
            if record.games:  # multiplayer figures only for someone who has played with others
                embed.add_field(
                    name=_("Games"),
                    value=_("{played} played · {won} won ({rate})\naverage {average} · best {best}").format(
                        played=number(record.games),
                        won=number(record.wins),
                        rate=i18n.format_percent(record.win_rate),
                        average=_decimal(record.average),
                        best=number(record.best),
                    ),
                )
                b = record.breakdown
                embed.add_field(name=_("Average score"), value=_breakdown(module, b))
                ratings = [_("world {rating}").format(rating=_rating(world))]
                if server is not None:  # in a server of the bot's
                    ratings.insert(0, _("this server {rating}").format(rating=_rating(server)))
                embed.add_field(name=_("Rating"), value="\n".join(ratings))
            days = ngettext("{count} day", "{count} days", streak).format(count=number(streak))
            embed.add_field(
                name=_("Solo"),
                value=_("{played} played · {won} won · best {best}\ndaily streak: {days}").format(
                    played=number(record.solo_games),
                    won=number(record.solo_wins),
                    best=number(record.solo_best),
                    days=days,
                ),
            )
            if record.favourite:
                embed.add_field(name=module.favourite_heading(), value=module.favourite_label(record.favourite))
            endings = record.endings
            if endings.played:
                embed.add_field(
                    name=_("Games ended"),
                    value=_(
                        "{finished} finished · {resigned} resigned · {timed_out} timed out\nfinish rate {rate}"
                    ).format(
                        finished=number(endings.finished),
                        resigned=number(endings.resigned),
                        timed_out=number(endings.timed_out),
                        rate=i18n.format_percent(endings.finish_rate or 0.0),
                    ),
                )
        else:
            embed.description = first_game_hint(module)
        picture = await common.history_picture(embed, user.display_name, record.history)
        await interaction.followup.send(embed=embed, file=picture, ephemeral=True)

    # ------------------------------------------------------------------ challenges

    async def challenge_summary(self, game_id: int, challenge: str, user_id: int, game: str = DEFAULT_GAME) -> str:
        """A line for the end of a challenge game (of Kokeshi, or the game with key `game`): the rank today,
        whether it counted, the streak."""
        kind, key = challenge.split(":", 1)
        attempts = await self.store.challenge_attempts(user_id, kind, key, game=game)
        this = next((a for a in attempts if a["game_id"] == game_id), None)
        if this is None:
            return ""
        if not this["rated"]:
            if kind == "daily":
                return _(
                    "This was a practice run: only your first attempt at the daily challenge of {day} is ranked."
                ).format(day=challenge_day(key))
            return _(
                "This was a practice run: only your first attempt at the weekly challenge {week} is ranked."
            ).format(week=key)
        mine = await self.store.leaderboard_entry(kind, None, user_id, key, game=game)
        _rows, players = await self.store.leaderboard_page(kind, None, key, size=1, game=game)
        if mine is None:
            return ""
        if kind == "daily":
            text = _("Daily challenge of {day}: #{rank} of {players} so far.")
        else:
            text = _("Weekly challenge {week}: #{rank} of {players} so far.")
        text = text.format(day=challenge_day(key), week=key, rank=mine.rank, players=i18n.format_number(players))
        if kind == "daily":
            streak = await self.store.streak(user_id, dt.date.fromisoformat(key), game=game)
            days = ngettext("{count} day", "{count} days", streak).format(count=i18n.format_number(streak))
            text += " " + _("Streak: {days}.").format(days=days)
        return text

    # ------------------------------------------------------------------ daily results

    async def post_daily_results(self) -> None:
        """Post yesterday's daily challenge results in every server that opted in: one post per game with a daily
        challenge that someone in the server played, once per game and day."""
        yesterday = (utcnow() - dt.timedelta(days=1)).date().isoformat()
        servers = await self.store.guilds_with_setting("daily_channel")
        if not servers:
            return
        boards: list[tuple[GameModule, list[BoardRow]]] = []
        for module in daily_games():
            rows = await self.store.leaderboard("daily", None, yesterday, game=module.key)
            if rows:  # a day nobody played is not worth a message
                boards.append((module, rows))
        if not boards:
            return
        for guild_id, channel_value in servers:
            channel = self.bot.get_channel(int(channel_value))
            if channel is None:
                continue
            assert isinstance(channel, discord.abc.Messageable)  # the setting takes a text channel
            for module, rows in boards:
                await self._post_daily(channel, int(channel_value), guild_id, module, rows, yesterday)

    async def _post_daily(
        self,
        channel: discord.abc.Messageable,
        channel_id: int,
        guild_id: int,
        module: GameModule,
        rows: list[BoardRow],
        day: str,
    ) -> None:
        """One game's daily results of `day` in the server's channel, unless posted already or nobody in the server
        played it."""
        game = module.key
        if await self.store.daily_posted(guild_id, day, game=game):
            return
        local = {row.user_id for row in await self.store.leaderboard("daily", guild_id, day, game=game)}
        if not local:
            return
        shown = [row.user_id for row in rows[:10]] + sorted(local - {row.user_id for row in rows[:10]})
        names = await self.names(shown, guild_id)
        streaks = await self.streaks(guild_id, local, day, game=game)
        # Posted for the whole server: in the server's language.
        with i18n.using(getattr(getattr(channel, "guild", None), "preferred_locale", None)):
            text = _daily_results(module, rows, local, day, names, streaks)
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("could not post the daily results of %s in guild %d: %s", game, guild_id, exc)
            return
        await self.store.mark_daily_posted(guild_id, day, channel_id, utcnow().timestamp(), game=game)

    async def streaks(self, guild_id: int, local: set[int], day: str, *, game: str) -> Streaks:
        """The server's streak at a game's daily challenge up to `day`, and its players' own (the longest first)."""
        date = dt.date.fromisoformat(day)
        server = await self.store.server_streak(guild_id, date, game=game)
        players = [(user_id, await self.store.streak(user_id, date, game=game)) for user_id in sorted(local)]
        players = sorted((p for p in players if p[1] >= MIN_STREAK), key=lambda p: (-p[1], p[0]))[:STREAKS_NAMED]
        return Streaks(server, tuple(players))

    async def set_daily_channel(self, interaction: discord.Interaction, channel: discord.TextChannel | None) -> None:
        member = interaction.user
        if not getattr(getattr(member, "guild_permissions", None), "manage_guild", False):
            raise UserError(_("Only server admins (Manage Server) can change this setting."))
        if channel is None:
            await self.store.set_guild_setting(interaction.guild_id, "daily_channel", None)
            await self.bot.tables.tell(interaction, _("Daily results will no longer be posted here."))
            return
        if not channel.permissions_for(channel.guild.me).send_messages:
            raise UserError(
                _("I can't send messages in {channel}; pick another channel or grant me access.").format(
                    channel=channel.mention
                )
            )
        await self.store.set_guild_setting(interaction.guild_id, "daily_channel", str(channel.id))
        await self.bot.tables.tell(
            interaction,
            _("Each day's daily challenge results will be posted in {channel}.").format(channel=channel.mention),
        )


__all__ = ["Community", "PageButton", "daily_games", "escape"]


def _decimal(value: float) -> str:
    """A number with one decimal, as the current language writes it ("12.5", "12,5")."""
    return i18n.format_number(value, format="#,##0.0")


def _rating(rating) -> str:
    return _("{rating} (provisional)").format(rating=rating.display) if rating.provisional else rating.display


@dataclass(frozen=True)
class Streaks:
    """A server's run of days at the daily challenge, and its players' runs worth naming: (user id, days)."""

    server: int = 0
    players: tuple[tuple[int, int], ...] = ()


def streak_lines(streaks: Streaks, names: dict[int, str]) -> list[str]:
    """The lines of the daily results that name the streaks: the server's, then its players' (from 2 days)."""
    lines = []
    if streaks.server >= MIN_STREAK:
        lines.append(
            ngettext(
                "🔥 The server played {count} day in a row.",
                "🔥 The server played {count} days in a row.",
                streaks.server,
            ).format(count=i18n.format_number(streaks.server))
        )
    named = [
        ngettext("{player}: {count}-day streak", "{player}: {count}-day streak", days).format(
            player=escape(names.get(user_id) or _("a former player")), count=i18n.format_number(days)
        )
        for user_id, days in streaks.players
    ]
    if named:
        lines.append("🔥 " + " · ".join(named))
    return lines


def daily_games() -> list[GameModule]:
    """The registry's games that offer a daily challenge, in the registry's order."""
    return [module for module in games.all_games() if any(c.kind == "daily" for c in module.challenges)]


def _daily_results(
    module: GameModule,
    rows: list[BoardRow],
    local: set[int],
    day: str,
    names: dict[int, str] | None = None,
    streaks: Streaks | None = None,
) -> str:
    """A game's daily challenge results of `day` for a server (⭐ marks its members), in the current language,
    headed with the game's name; players by their names; then the streaks and the game's invitation."""
    names = names or {}

    def line(row: BoardRow, bold: bool) -> str:
        value = int(row.value)
        count = i18n.format_number(value)
        if bold:
            points = ngettext("**{count}** point", "**{count}** points", value)
        else:
            points = ngettext("{count} point", "{count} points", value)
        name = escape(names.get(row.user_id) or _("a former player"))
        return f"{row.rank}. {name} — " + points.format(count=count)

    lines = [line(row, True) + (" ⭐" if row.user_id in local else "") for row in rows[:10]]
    lines += [line(row, False) + " ⭐" for row in rows[10:] if row.user_id in local]
    title = " ".join(part for part in (module.emoji, f"**{module.name}**") if part)
    head = title + " · " + _("Daily challenge of {day} — results (⭐ = this server)").format(day=challenge_day(day))
    tail = daily_waiting(module)
    runs = streak_lines(streaks or Streaks(), names)
    # The streaks and the invitation stay; the server's own lines past the top ten go first when it is too long.
    while len(lines) > 1 and len("\n".join([head, *lines, *runs, tail])) > MESSAGE - 10:
        lines.pop()
    return "\n".join([head, *lines, *runs, tail])[: MESSAGE - 10]


def _breakdown(module: GameModule, averages: dict[str, float]) -> str:
    """The average of each score item, named as in the pictures, two to a line."""
    items = [
        f"{module.stat_label(key)} {_decimal(averages.get(key, 0.0))}" for key in module.stat_keys if key != "total"
    ]
    return "\n".join(" · ".join(items[i : i + 2]) for i in range(0, len(items), 2))

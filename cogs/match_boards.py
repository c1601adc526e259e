"""A person's view of the platform's games outside a thread: `/games status` (every game of theirs, of every kind),
`/games leaderboard` and `/games stats` (one game's boards and a player's record at it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

import i18n
from games.base import GameModule
from i18n import _, format_number, ngettext
from storage import GameReach, GameStats, Glance, Rating, Store, challenge_key

from .anywhere import bot_server
from .away import stamp
from .client import Client, TableDesk
from .clock import Clocks
from .common import UserError, challenge_day, game_name, history_picture
from .limits import EMBED_FIELD_VALUE, EMBED_TITLE, MESSAGE, shorten
from .offer import table_game
from .reach import Reach
from .speech import escape


class MatchBoards:
    """The answers about games rather than in one: each private, each a few store reads."""

    def __init__(self, bot: Client, tables: TableDesk, reach: Reach, clocks: Clocks) -> None:
        self.bot = bot
        self.tables = tables
        self.reach = reach
        # What is left in a bank game's bank (`cogs.clock`).
        self.clocks = clocks

    @property
    def store(self) -> Store:
        return self.bot.store

    async def tell(self, interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
        await self.tables.tell(interaction, text, **kwargs)

    # ------------------------------------------------------------------ status

    async def status(self, interaction: discord.Interaction, detail: str = "") -> None:
        """`/games status`: privately, wherever it is asked, every game in progress and open lobby of the caller, of
        every game (Kokeshi's included), one short line each with a link, most urgent first: their turns by
        deadline, then the others' by deadline, then the lobbies; under `detail` (one game told in full) if given."""
        user_id = interaction.user.id
        glances = await self.store.glances(user_id)
        if not glances and detail:
            await self.tell(interaction, detail, allowed_mentions=discord.AllowedMentions.none())
            return
        if not glances:
            raise UserError(_("You are in no game and no lobby: `/games new` or `/kokeshi new` opens one."))
        muted = await self.store.muted_games(user_id)
        # Why a game Discord refuses is paused, and what would free it (read only for those).
        stuck = {g.record.id: await self.store.reach(g.record.id) for g in glances if g.unreachable_at is not None}
        lines = []
        for glance in sorted(glances, key=lambda g: urgency(g, user_id)):
            line = self._status_line(glance, user_id, interaction.guild_id, muted, stuck.get(glance.record.id))
            # A game on a bank clock: what is left in the caller's bank.
            bank = await self.clocks.left_for(glance.record, user_id)
            line = f"{line} · {bank}" if bank else line
            # Whom it waits for and who is away: why their deadline moved.
            for seat in glance.record.seats:
                if seat.user_id in glance.waiting and seat.user_id != user_id and not seat.ai:
                    away = await self.store.away(seat.user_id)
                    if away is not None:
                        until = _("💤 away until {until}").format(until=stamp(away.ends_at))
                        line += f" · {escape(seat.name)} {until}"
            lines.append(line)
        mine = sum(user_id in g.waiting for g in glances)
        head = (
            ngettext("**Your games** · your turn in {count}", "**Your games** · your turn in {count}", mine).format(
                count=format_number(mine)
            )
            if mine
            else _("**Your games**")
        )
        head = f"{detail}\n\n{head}" if detail else head
        await self.tell(interaction, fit_status(lines, head), allowed_mentions=discord.AllowedMentions.none())

    def _status_line(
        self, glance: Glance, user_id: int, guild_id: int | None, muted: frozenset[int], stuck: GameReach | None
    ) -> str:
        """One game of `/games status`: its name and number as a link, where it is when that is another server,
        whose turn it is and until when, and marks (muted; paused, with why and what would free it, as Kokeshi's
        `status` says it: `stuck`, the run of refusals of a game marked unreachable)."""
        record = glance.record
        name = f"{game_name(record)} #{record.id}"
        if record.thread_id or record.channel_id is None:
            where = self.tables.where(record)
        else:  # a lobby without its thread yet: its name, and the channel it is in
            channel = self.bot.get_channel(record.channel_id)
            label = f"#{channel.name}" if isinstance(channel, discord.abc.GuildChannel) else name
            where = f"**{name}** · {self.bot.channel_link(record.channel_id, label)}"
        guild = self.bot.get_guild(record.guild_id) if record.guild_id not in (None, guild_id) else None
        if guild is not None:
            where = _("{game} in {server}").format(game=where, server=escape(guild.name))
        due = f"<t:{int(glance.deadline)}:R>" if glance.deadline is not None else ""
        if record.status == "lobby":
            line = _("• {game} — lobby, {seated}/{seats} seats").format(
                game=where, seated=format_number(len(record.seats)), seats=format_number(record.players)
            )
        elif user_id in glance.waiting:
            turn = _("**your turn**, due {when}").format(when=due) if due else _("**your turn**")
            line = f"▶️ {where} — {turn}"
        else:
            people = [escape(s.name) for s in record.seats if s.user_id in glance.waiting and not s.ai]
            if people:
                whose = _("waiting for {names}").format(names=", ".join(people))
            else:
                whose = _("the AI's turn")
            line = _("• {game} — {whose}").format(game=where, whose=f"{whose}, {due}" if due else whose)
        if self.reach.paused(record):
            line += " · " + self.reach.away_text()
        elif stuck is not None:
            line += " · " + self.reach.stuck_text(record, stuck)
        if record.id in muted:
            line += " · 🔕"
        return line

    # ------------------------------------------------------------------ boards

    async def leaderboard(self, interaction: discord.Interaction, key: str, board: str = "wins") -> None:
        """`/games leaderboard`: a game's wins in this server (outside a server of the bot's, the world's: in a DM,
        a group DM, a server where only the player installed the app), or today's daily challenge or this week's
        weekly one (everyone's)."""
        module = table_game(key)
        if board in ("daily", "weekly"):
            day = challenge_key(board, discord.utils.utcnow())
            rows = await self.store.leaderboard(board, None, day, game=key)
            if board == "daily":
                title = _("**{game}: daily challenge of {day}**").format(game=module.name, day=challenge_day(day))
            else:
                title = _("**{game}: weekly challenge {week}**").format(game=module.name, week=day)
        elif board == "rating":
            rows = await self.store.leaderboard("rating", bot_server(interaction), game=key)
            title = _("**{game}: rating**").format(game=module.name)
        else:
            rows = await self.store.leaderboard("wins", bot_server(interaction), game=key)
            title = _("**{game}: wins**").format(game=module.name)
        if not rows:
            await self.tell(interaction, _("Nobody has finished a game of {game} here yet.").format(game=module.name))
            return
        lines = [title]
        for row in rows[:10]:
            if board in ("daily", "weekly"):
                value = ngettext("{n} point", "{n} points", int(row.value)).format(n=format_number(int(row.value)))
                lines.append(f"{row.rank}. <@{row.user_id}> — {value}")
                continue
            games_played = ngettext("{n} game", "{n} games", row.games).format(n=format_number(row.games))
            lines.append(f"{row.rank}. <@{row.user_id}> — {format_number(round(row.value))} ({games_played})")
        await self.tell(interaction, "\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    # ------------------------------------------------------------------ stats

    async def stats(self, interaction: discord.Interaction, key: str, user: discord.abc.User) -> None:
        """`/games stats`: a player's record at one game, privately wherever it is asked (as `/kokeshi stats`):
        games and wins, the game's ratings (this server's where the bot is in it, and the world's), its
        challenges, each score item's average and best, and the favourite where the game keeps one, named in the game's
        own words; below them, the picture of the player's score at each finished game."""
        module = table_game(key)
        found = await self.store.game_stats(
            user.id, module.stat_keys, discord.utils.utcnow(), game=key, guild_id=bot_server(interaction)
        )
        player = escape(user.display_name)[:200]
        if found.empty:
            raise UserError(
                _("{player} has no finished game of {game} yet: `/games new` or `/games challenge` starts one.").format(
                    player=player, game=module.name
                )
            )
        title = _("{player} at {game}").format(player=player, game=module.name)
        embed = discord.Embed(title=shorten(title, EMBED_TITLE), colour=0x3D7EC8)
        for name, value in stats_fields(module, found):
            embed.add_field(name=name, value=shorten(value, EMBED_FIELD_VALUE), inline=False)
        # The score of each finished game of it, as `/kokeshi stats` draws Kokeshi's.
        picture = await history_picture(embed, user.display_name, found.history)
        await interaction.followup.send(embed=embed, file=picture, ephemeral=True)


def urgency(glance: Glance, user_id: int) -> tuple[int, float, int]:
    """How `/games status` orders a person's games: their turns first, then the others' turns, then the lobbies;
    within each, the soonest deadline first (none last), then the oldest game."""
    if glance.record.status == "lobby":
        rank = 2
    else:
        rank = 0 if user_id in glance.waiting else 1
    return rank, glance.deadline if glance.deadline is not None else float("inf"), glance.record.id


def fit_status(lines: Sequence[str], head: str) -> str:
    """The head and as many whole lines as fit in one message, then how many more there are."""
    shown: list[str] = []
    for count, line in enumerate(lines):
        more = ngettext("…and {count} more", "…and {count} more", len(lines) - count).format(
            count=format_number(len(lines) - count)
        )
        rest = "" if count == len(lines) - 1 else more
        if len("\n".join((head, *shown, line, rest))) > MESSAGE:
            shown.append(more)
            break
        shown.append(line)
    return "\n".join((head, *shown))


def stats_fields(module: GameModule, found: GameStats) -> list[tuple[str, str]]:
    """The fields of a player's stats at a game, in the current language: (name, value)."""
    number = format_number
    fields = []
    if found.games:
        if found.solo_games:
            text = _("{played} played, {solo} of them solo · {won} won ({rate})")
        else:
            text = _("{played} played · {won} won ({rate})")
        counts = {"played": number(found.games), "solo": number(found.solo_games), "won": number(found.wins)}
        fields.append((_("Games"), text.format(**counts, rate=i18n.format_percent(found.win_rate))))
    if found.world.games:  # rated only by games played with others
        ratings = [_("world {rating}").format(rating=_rating(found.world))]
        if found.server is not None:
            ratings.insert(0, _("this server {rating}").format(rating=_rating(found.server)))
        fields.append((_("Rating"), "\n".join(ratings)))
    lines = []
    for kind, record in found.challenges.items():
        if not record.attempts:
            continue
        attempts = ngettext("{n} attempt", "{n} attempts", record.attempts).format(n=number(record.attempts))
        best = "—" if record.best is None else number(record.best)
        if kind == "daily":
            run = ngettext("{count} day", "{count} days", record.streak).format(count=number(record.streak))
            text = _("daily: {attempts}, {won} won · best {best} · streak {run}")
        else:
            run = ngettext("{count} week", "{count} weeks", record.streak).format(count=number(record.streak))
            text = _("weekly: {attempts}, {won} won · best {best} · streak {run}")
        lines.append(text.format(attempts=attempts, won=number(record.won), best=best, run=run))
    if lines:
        fields.append((_("Challenges"), "\n".join(lines)))
    items = [
        _("{item}: average {average} · best {best}").format(
            item=module.stat_label(key),
            average=number(figures.average, format="#,##0.0"),
            best=number(figures.best),
        )
        for key, figures in found.items.items()
        # An item never scored says nothing; the total (every game's score has one) always shows.
        if key == "total" or figures.best or figures.average
    ]
    if items:
        fields.append((_("Scores"), "\n".join(items)))
    if found.favourite is not None:  # a game that keeps a favourite, once one is counted: in its own words
        fields.append((module.favourite_heading(), module.favourite_label(found.favourite)))
    endings = found.endings
    if endings.played:  # in `/kokeshi stats`' words: how the player's games of it ended for them
        text = _("{finished} finished · {resigned} resigned · {timed_out} timed out\nfinish rate {rate}")
        fields.append(
            (
                _("Games ended"),
                text.format(
                    finished=number(endings.finished),
                    resigned=number(endings.resigned),
                    timed_out=number(endings.timed_out),
                    rate=i18n.format_percent(endings.finish_rate or 0.0),
                ),
            )
        )
    return fields


def _rating(rating: Rating) -> str:
    shown = format_number(rating.display)
    return _("{rating} (provisional)").format(rating=shown) if rating.provisional else shown


__all__ = ["MatchBoards", "fit_status", "stats_fields", "urgency"]

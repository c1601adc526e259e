"""Away: `/games away` and `/games back`, the yearly allowance, and what the tables show of a player who is away."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

import discord

import i18n
from i18n import _, ngettext
from storage import GameRecord, Seat, Store
from storage.away import DAY, LONGEST, Away

from .client import Client
from .common import UserError, duration, now
from .speech import escape

log = logging.getLogger(__name__)

HOUR = 3600
# Away days a player may take in any 365 days, unless a server's admins set another number (0 turns away off).
DEFAULT_DAYS = 14
MAX_DAYS = 365
SETTING = "away_days"
# How every line saying that a player is away begins (`Aways.note_of`), in every language.
AWAY_MARK = "💤"
# "3d", "36h", "2d12h", "1w", "2d 6h": weeks, days and hours, each at most once and in that order.
_DURATION = re.compile(r"^(?:(\d{1,4})\s*w)?\s*(?:(\d{1,5})\s*d)?\s*(?:(\d{1,6})\s*h)?$")


def parse_duration(text: str) -> int | None:
    """Seconds in a duration written as weeks, days and hours ("3d", "36h", "2d12h"); None if it is not one."""
    found = _DURATION.match(text.strip().lower())
    if found is None or not any(found.groups()):
        return None
    weeks, days, hours = (int(part or 0) for part in found.groups())
    return (weeks * 7 + days) * DAY + hours * HOUR


def stamp(at: float) -> str:
    """A moment as Discord shows it to each reader, in their own time zone: the date and time, then how far off."""
    return f"<t:{int(at)}:f> (<t:{int(at)}:R>)"


class AwayTables(Protocol):
    """The tables (`cogs.tables.Tables`) as away calls them: the bot, the store and private replies."""

    @property
    def bot(self) -> Client: ...
    @property
    def store(self) -> Store: ...

    async def tell(self, interaction: discord.Interaction, text: str, **kwargs: Any) -> None: ...


class Aways:
    """Away periods as the players see them; the store moves the timers (`storage.away`)."""

    def __init__(self, tables: AwayTables) -> None:
        self.tables = tables

    @property
    def store(self) -> Store:
        return self.tables.store

    # ------------------------------------------------------------------ the allowance

    async def allowance(self, guild_ids: Iterable[int | None]) -> int:
        """Away days a year allowed to a player of these servers: the smallest of their settings, so that no
        server's games wait longer than it allows."""
        days = [DEFAULT_DAYS]
        found = [await self.store.guild_setting(g, SETTING) for g in sorted({g for g in guild_ids if g is not None})]
        days = [int(v) for v in found if v is not None and v.isdigit()] or days
        return min(days)

    async def set_days(self, interaction: discord.Interaction, days: int | None) -> None:
        """`/games settings away-days`: admins see or change the yearly allowance of away days here."""
        perms = getattr(interaction.user, "guild_permissions", None)
        if days is not None and not (perms and perms.manage_guild):
            raise UserError(_("Only server admins (Manage Server) can change the away days."))
        if days is not None and not 0 <= days <= MAX_DAYS:
            raise UserError(_("The away days are a number from 0 to {most}.").format(most=i18n.format_number(MAX_DAYS)))
        assert interaction.guild_id is not None  # a server setting, asked for in a server
        if days is not None:
            await self.store.set_guild_setting(interaction.guild_id, SETTING, str(days))
        allowed = await self.allowance([interaction.guild_id])
        await self.tables.tell(
            interaction,
            ngettext(
                "Players here may be away {count} day in any 365 days (`/games away`).",
                "Players here may be away {count} days in any 365 days (`/games away`).",
                allowed,
            ).format(count=i18n.format_number(allowed)),
        )

    # ------------------------------------------------------------------ away and back

    async def go(self, interaction: discord.Interaction, text: str) -> None:
        """`/games away <duration>`: checked first; a refusal changes nothing."""
        user_id = interaction.user.id
        seconds = parse_duration(text)
        if seconds is None or seconds < HOUR:
            raise UserError(
                _(
                    "I cannot read “{text}” as a duration. Write days and hours, like `3d`, `36h` or `2d12h` (at least "
                    "1 hour, at most 14 days)."
                ).format(text=escape(text[:40]))
            )
        if seconds > LONGEST:
            raise UserError(
                _("An away period lasts at most 14 days; {asked} is longer. Ask for less.").format(
                    asked=duration(seconds)
                )
            )
        running = await self.store.away(user_id)
        if running is not None:
            raise UserError(
                _("You are already away until {until}. `/games back` ends it; then you can set a new one.").format(
                    until=stamp(running.ends_at)
                )
            )
        games = await self.store.games_for_user(user_id)
        allowed = await self.allowance([interaction.guild_id, *(g.guild_id for g in games)])
        left = max(0.0, allowed * DAY - await self.store.away_used(user_id))
        if allowed == 0:
            raise UserError(_("Away is turned off for your games (`/games settings away-days` is 0)."))
        if seconds > left:
            if left < HOUR:
                refusal = ngettext(
                    "You have no away time left: players here may be away {count} day in any 365 days, and you "
                    "have used it.",
                    "You have no away time left: players here may be away {count} days in any 365 days, and you "
                    "have used them.",
                    allowed,
                )
            else:
                refusal = ngettext(
                    "You have {left} of away time left (players here may be away {count} day in any 365 days): "
                    "ask for at most that.",
                    "You have {left} of away time left (players here may be away {count} days in any 365 days): "
                    "ask for at most that.",
                    allowed,
                )
            raise UserError(refusal.format(left=duration(left), count=i18n.format_number(allowed)))
        try:
            change = await self.store.go_away(user_id, now() + seconds)
        except ValueError:  # set at this very moment by another command of theirs
            raise UserError(_("You are already away.")) from None
        self.tables.bot.wake_timers()
        left -= seconds
        text = _(
            "You are away until {until}. Your turn deadlines and reminders in every game wait: each moves later "
            "by the time you are away, and the other players see that you are away. `/games back` ends it "
            "early. Away time you have left in these 365 days: {left}."
        ).format(until=stamp(change.away.ends_at), left=duration(left) if left >= HOUR else _("none"))
        if change.games:
            waiting = len(change.games)
            text += " " + ngettext(
                "It is your turn in {count} game now: its deadline moved.",
                "It is your turn in {count} games now: their deadlines moved.",
                waiting,
            ).format(count=i18n.format_number(waiting))
        await self.tables.tell(interaction, text)
        await self.show(games)

    async def back(self, interaction: discord.Interaction) -> None:
        """`/games back`: the away period ends now; the time not used goes back to the allowance."""
        user_id = interaction.user.id
        change = await self.store.come_back(user_id)
        if change is None:
            raise UserError(_("You are not away."))
        self.tables.bot.wake_timers()
        await self.tables.tell(
            interaction,
            _(
                "Welcome back. Your turn deadlines moved back by the {unused} you did not use, and that time is "
                "yours to use again."
            ).format(unused=duration(-change.shift)),
        )
        await self.show(await self.store.games_for_user(user_id))

    async def show(self, games: Iterable[GameRecord]) -> None:
        """Show the change where the other players look: each game's live prompt shows the deadline and who is
        away."""
        for record in games:
            try:
                await self.tables.bot.matches.show_deadline(record)
            except Exception:
                log.exception("game %d: could not show an away period", record.id)

    # ------------------------------------------------------------------ what the tables show

    async def of(self, record: GameRecord) -> dict[int, Away]:
        """The away periods running now of the people seated at this game, by user id."""
        return await self.store.aways(s.user_id for s in record.seats if s.user_id is not None and not s.ai)

    async def note(self, record: GameRecord) -> str:
        """One line per person of the game who is away, in the current language (empty when nobody is)."""
        return self.note_of(record, await self.of(record))

    @staticmethod
    def note_of(record: GameRecord, aways: Mapping[int, Away]) -> str:
        """`note`, from the away periods already read (by user id)."""
        lines = [
            _("💤 {player} is away until {until}; their turn deadlines wait for them.").format(
                player=escape(seat.name), until=stamp(aways[seat.user_id].ends_at)
            )
            for seat in record.seats
            if seat.user_id is not None and seat.user_id in aways and not seat.ai
        ]
        return "\n".join(lines)

    async def hold(self, record: GameRecord, seat: Seat, kind: str) -> bool:
        """A turn's timer came due while its player is away (set in the instant the away began): it waits as the
        others do. True when it was moved."""
        if seat.user_id is None:
            return False
        away = await self.store.away(seat.user_id)
        if away is None:
            return False
        timer = next((t for t in await self.store.timers(record.id) if t.kind == kind), None)
        if timer is None:
            return False
        at = max(away.ends_at, now() + (away.ends_at - away.began_at))
        await self.store.set_timer(record.id, kind, at, timer.version)
        log.info("game %d: %s of an away player moved to %s", record.id, kind, at)
        return True

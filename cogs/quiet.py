"""Quiet hours and muted games: `/kokeshi notify quiet|mute|unmute`, and whether and how a ping reaches a player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from discord import app_commands

from i18n import _
from kit.quiet import next_daily, parse_hours, quiet_end, show_hours, zone, zone_names
from storage import GameRecord, Store
from storage.away import QUIET, quiet_setting
from storage.notices import DIGEST, MUTED, digest_setting, muted_setting

from .common import UserError, game_name, now

MAX_CHOICES = 25
_ZONES: list[str] = []


def zone_choices(current: str) -> list[app_commands.Choice[str]]:
    """Time zones whose name holds what was typed (spaces read as underscores), the closest first."""
    if not _ZONES:
        _ZONES.extend(zone_names())
    typed = current.strip().casefold().replace(" ", "_")
    starts = [z for z in _ZONES if z.casefold().startswith(typed)]
    inside = [z for z in _ZONES if typed in z.casefold() and z not in starts]
    return [app_commands.Choice(name=z, value=z) for z in (starts + inside)[:MAX_CHOICES]]


def code(text: str) -> str:
    """What a person typed, to show as typed inside a code span (where nothing is markdown or a mention)."""
    return text.replace("`", "'") or " "


def in_quiet_hours(setting: str | None, at: float | None = None) -> bool:
    """Whether `at` (default now) falls in the quiet hours of this stored setting (None: no quiet hours)."""
    quiet = None if setting is None else quiet_setting(setting)
    if quiet is None:
        return False
    hours, where = quiet
    return quiet_end(now() if at is None else at, hours, where) is not None


def muted_in(settings: Mapping[str, str], game_id: int) -> bool:
    """Whether a person with these settings (`Store.ping_settings`) muted this game."""
    return game_id in muted_setting(settings.get(MUTED, ""))


def turn_dm_in(settings: Mapping[str, str], game_id: int) -> bool:
    """Whether a "your turn" DM goes to a person with these settings for this game: they asked for one at each
    turn, and neither muted the game nor chose the daily digest instead."""
    if settings.get("notify") != "on" or digest_setting(settings.get(DIGEST, "")) is not None:
        return False
    return not muted_in(settings, game_id)


class HasStore(Protocol):
    """What quiet hours need of the tables: the store (opened once the bot starts)."""

    @property
    def store(self) -> Store: ...


class QuietHours:
    """A player's quiet hours, kept as a user setting: pings inside them are silent (`silent=True`: no sound or
    notification on their devices), and a turn's deadline that would fall in them moves to their end (the store)."""

    def __init__(self, tables: HasStore) -> None:
        self.tables = tables

    @property
    def store(self) -> Store:
        return self.tables.store

    async def muted(self, game_id: int, user_id: int | None) -> bool:
        """Whether this player muted this game: its prompt names them without a ping, and no reminder or turn DM
        about it reaches them."""
        return user_id is not None and game_id in await self.store.muted_games(user_id)

    async def mute(self, user_id: int, record: GameRecord, on: bool) -> str:
        """`/kokeshi notify mute|unmute` for a game of any kind the player is seated in: the reply, once stored.
        Games no longer open are dropped from the setting on the way."""
        muted = await self.store.muted_games(user_id)
        open_games = {g.id for g in await self.store.games_for_user(user_id)}
        name = game_name(record)
        if on:
            if record.status not in ("lobby", "active"):
                raise UserError(
                    _("{game} #{number} is over: there is nothing to mute.").format(game=name, number=record.id)
                )
            await self.store.set_muted_games(user_id, (muted & open_games) | {record.id})
            return _(
                "🔕 {game} #{number} muted: no mention that pings you, no reminders and no DMs about it. Its "
                "prompt still says when it is your turn, and the deadline still counts. `/kokeshi notify unmute` "
                "undoes it."
            ).format(game=name, number=record.id)
        if record.id not in muted:
            return _("{game} #{number} is not muted.").format(game=name, number=record.id)
        await self.store.set_muted_games(user_id, (muted & open_games) - {record.id})
        return _("🔔 {game} #{number} unmuted: its pings, reminders and DMs reach you again.").format(
            game=name, number=record.id
        )

    async def silent(self, user_id: int | None, at: float | None = None) -> bool:
        """Whether a ping to this player at `at` (default now) falls in their quiet hours."""
        if user_id is None:
            return False
        return in_quiet_hours(await self.store.user_setting(user_id, QUIET), at)

    async def set(self, user_id: int, hours_text: str, zone_name: str | None) -> str:
        """`/kokeshi notify quiet`: the reply, once the setting is stored; a UserError (nothing stored) when the
        hours or the zone cannot be read."""
        if hours_text.strip().casefold() in ("off", _("off").casefold()):
            await self.store.set_user_setting(user_id, QUIET, None)
            return _("Quiet hours off: pings and DMs come as usual.")
        hours = parse_hours(hours_text)
        if hours is None:
            raise UserError(
                _(
                    "I cannot read `{text}` as quiet hours. Write them like `23:00-08:00` (from, to; in your own time "
                    "zone), or `off`."
                ).format(text=code(hours_text[:40]))
            )
        if zone_name is None:
            stored = await self.store.user_setting(user_id, QUIET)
            zone_name = stored.partition(" ")[2] if stored else None
        if not zone_name:
            raise UserError(_("Name your time zone too, e.g. `timezone: Europe/Lisbon`: start typing and pick it."))
        if zone(zone_name) is None:
            raise UserError(
                _(
                    "There is no time zone called `{zone}`. Start typing a city, e.g. Lisbon or New York, and pick "
                    "the zone from the list."
                ).format(zone=code(zone_name[:60]))
            )
        await self.store.set_user_setting(user_id, QUIET, f"{show_hours(hours)} {zone_name}")
        # A daily digest keeps its local time, in the player's new zone.
        digest = await self.store.digest(user_id)
        where = zone(zone_name)
        if digest is not None and digest.zone_name != zone_name and where is not None:
            due = int(next_daily(now(), digest.minute, where))
            await self.store.set_digest(user_id, digest.minute, zone_name, due)
        return _(
            "Quiet hours {hours} ({zone}): pings and DMs about your turns come silently then, and a turn deadline "
            "that would fall in them moves to their end."
        ).format(hours=show_hours(hours), zone=zone_name)

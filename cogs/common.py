"""Small things several cogs share: user mistakes, Discord's clock, challenge days, pings, turn keys, finish rates."""

from __future__ import annotations

import datetime as dt
import io

import discord
from discord import app_commands

import games
import i18n
from i18n import _, ngettext, pgettext
from storage import GameRecord

# The time a person has for a turn, as a table's host chooses it (`/kokeshi new timer:`, `/games new deadline:`);
# 0 is no deadline at all.
DAY = 86400
TIMERS = [
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="6 hours", value=6 * 3600),
    app_commands.Choice(name="12 hours", value=12 * 3600),
    app_commands.Choice(name="24 hours (default)", value=DAY),
    app_commands.Choice(name="2 days", value=2 * DAY),
    app_commands.Choice(name="3 days", value=3 * DAY),
    app_commands.Choice(name="7 days", value=7 * DAY),
    app_commands.Choice(name="no timer", value=0),
]


class UserError(Exception):
    """Something the user can fix; the message is shown to them privately."""


def level_word(level: str) -> str:
    """An AI level as players read it."""
    words = {
        "easy": pgettext("AI level", "easy"),
        "normal": pgettext("AI level", "normal"),
        "hard": pgettext("AI level", "hard"),
    }
    return words.get(level, level)


def game_name(record: GameRecord) -> str:
    """The name of a stored game's game, as printed on its box ("Kōhaku"); its key for a game this process does
    not know."""
    try:
        return games.get(record.game).name
    except KeyError:
        return record.game


def now() -> float:
    """Discord's clock, as a UNIX timestamp (the simulated clock in tests and the sandbox)."""
    return discord.utils.utcnow().timestamp()


def duration(seconds: float) -> str:
    """'3 h 20 min', '2 days', '45 min' — for reminders and the lobby, in the current language."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        text = ngettext("{count} day", "{count} days", days).format(count=i18n.format_number(days))
        return _("{days} {hours} h").format(days=text, hours=hours) if hours else text
    if hours:
        return (
            _("{hours} h {minutes} min").format(hours=hours, minutes=minutes)
            if minutes
            else _("{hours} h").format(hours=hours)
        )
    return _("{minutes} min").format(minutes=max(minutes, 1))


def challenge_day(key: str) -> str:
    """A daily challenge's day (an ISO date) in the current language's words."""
    try:
        return i18n.format_date(dt.date.fromisoformat(key))
    except ValueError:
        return key


def pinging(*user_ids: int) -> discord.AllowedMentions:
    """Allowed mentions for a message meant to ping exactly these users (and never everyone, here or a role)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in user_ids], replied_user=False
    )


# Discord's longest description of an attachment (its alt text).
ALT_TEXT = 1024


def picture(data: bytes, filename: str, alt: str) -> discord.File:
    """A picture to attach, with the words a screen reader says for it (Discord's alt text)."""
    return discord.File(io.BytesIO(data), filename=filename, description=alt[:ALT_TEXT])


def min_finish(record: GameRecord) -> int:
    """The finish rate (a percentage, 0 to 100) a lobby asks of its joiners; 0 when it asks none."""
    value = record.settings.get("min_finish", 0)
    return value if isinstance(value, int) and 0 <= value <= 100 else 0

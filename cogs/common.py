"""Small things several cogs share: user mistakes, Discord's clock, challenge days, pings, turn keys, and what every
table's lobby offers (its language, the finish rate it asks of joiners) and every player's stats show (their score
history)."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
from collections.abc import Sequence

import discord
from discord import app_commands

import games
import i18n
import render
from i18n import _, ngettext, pgettext
from storage import GameRecord, Store

from .speech import game_language, quote

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


# The languages a table can speak (`/kokeshi new language:`, `/games new language:`), each named in itself.
LANGUAGES = [app_commands.Choice(name=i18n.NATIVE_NAMES[locale], value=locale) for locale in i18n.LOCALES]


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


def guild_of(channel: object) -> int | None:
    """The server of a game's channel; None for the DM with the player."""
    guild = getattr(channel, "guild", None)
    return guild.id if guild is not None else None


def may_manage(interaction: discord.Interaction, record: GameRecord) -> bool:
    """Whether the caller may cancel this game: its host, or someone who may manage threads here."""
    if interaction.user.id == record.host_id:
        return True
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool((perms and perms.manage_threads) or interaction.permissions.manage_threads)


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


def challenge_taken(kind: str, rated: bool, player: str, key: str, game: str, number: int) -> str:
    """The post saying a player takes on a daily (`key`: its day) or weekly (`key`: its ISO week) challenge, ranked
    or for practice, in the current language."""
    if kind == "daily":
        text = _("{player} takes on the daily challenge of {day} (ranked): {game} #{number}.")
        practice = _(
            "{player} takes on the daily challenge of {day} (practice: your first attempt is the one that counts): "
            "{game} #{number}."
        )
    else:
        text = _("{player} takes on the weekly challenge {week} (ranked): {game} #{number}.")
        practice = _(
            "{player} takes on the weekly challenge {week} (practice: your first attempt is the one that counts): "
            "{game} #{number}."
        )
    return (text if rated else practice).format(
        player=player, day=challenge_day(key), week=key, game=game, number=number
    )


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


def table_language(chosen: str | None, *defaults: object) -> str:
    """The language a new table speaks: the one its host chose, else the first of `defaults` the bot speaks (the
    server's for a lobby, the player's for a solo game), else English. A chosen language the bot does not speak (a
    Discord client with an older list of them) is the host's mistake, and opens nothing."""
    if chosen and i18n.supported(chosen) is None:
        names = ", ".join(i18n.NATIVE_NAMES[locale] for locale in i18n.LOCALES)
        raise UserError(
            _("{language} is not a language I speak. Choose one of these for the game's thread: {languages}.").format(
                language=quote(chosen, 40), languages=names
            )
        )
    return i18n.resolve(chosen, *defaults)


def lobby_terms(record: GameRecord) -> list[str]:
    """What a lobby shows of the terms every table shares, in the current language: the language of its thread and,
    when it asks one, the finish rate of its joiners."""
    terms = [i18n.NATIVE_NAMES[game_language(record)]]
    required = min_finish(record)
    if required:
        terms.append(
            _("players who finish {required} of their games or more").format(
                required=i18n.format_percent(required / 100)
            )
        )
    return terms


async def check_finish_rate(store: Store, user_id: int, record: GameRecord) -> None:
    """Refuse a joiner who finished a smaller share of their games of this table's game than its lobby asks for (a
    newcomer, with no game of it ended yet, is welcome)."""
    required = min_finish(record)
    if not required:
        return
    endings = await store.endings(user_id, game=record.game)
    rate = endings.finish_rate
    if rate is None or round(rate * 100) >= required:
        return
    raise UserError(
        _(
            "{game} #{number} is for players who finish at least {required} of their games. You finished "
            "{finished} of {played} ({rate}): {resigned} resigned and {timed_out} timed out. Finish a few more "
            "games, or join another lobby."
        ).format(
            game=game_name(record),
            number=record.id,
            required=i18n.format_percent(required / 100),
            finished=i18n.format_number(endings.finished),
            played=i18n.format_number(endings.played),
            rate=i18n.format_percent(rate),
            resigned=i18n.format_number(endings.resigned),
            timed_out=i18n.format_number(endings.timed_out),
        )
    )


async def history_picture(embed: discord.Embed, name: str, points: Sequence[tuple[float, int]]) -> discord.File:
    """A player's score history (`points`: (UNIX time, total) of their finished games, oldest first) drawn off the
    event loop, as the picture of their stats' `embed`, with the words a screen reader says for it."""
    data = await asyncio.to_thread(render.history, name, points)
    embed.set_image(url="attachment://history.png")
    return picture(data, "history.png", _("{player}'s scores, game after game.").format(player=name))

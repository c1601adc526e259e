"""The daily digest: `/kokeshi notify digest <HH:MM>`, and the one DM a day that lists the games waiting for a player.

Instead of a DM at each turn, a player who asks for it gets one DM a day at their chosen local time ("your turn in
3 games", each with a link to its prompt), games of every kind together; nothing on a day no game waits. The next
digest's time is a stored row (`storage.notices`), fired by the timer loop, so it survives restarts; it is moved on
only once the DM is sent.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

import i18n
from i18n import _, ngettext
from kit.quiet import next_daily, parse_time, show_time, zone
from storage import GameRecord, Glance, Store
from storage.away import quiet_setting
from storage.notices import Digest

from .client import Client
from .common import UserError, duration, game_name, now
from .limits import MESSAGE
from .quiet import QuietHours, code
from .reach import Reach

log = logging.getLogger(__name__)

# A digest that could not be made (not a refused DM: that is final) is tried again this much later, the same day.
RETRY_SECONDS = 3600
# What a game's line adds after its name and number (Kokeshi's round), said by whoever knows the game; None: nothing.
Detail = Callable[[GameRecord], Awaitable[str | None]]


async def no_detail(record: GameRecord) -> str | None:
    """A line with nothing after the game's name and number."""
    return None


class DigestTables(Protocol):
    """The tables (`cogs.tables.Tables`) as the digest calls them: the store, DMs, quiet hours and reach."""

    @property
    def bot(self) -> Client: ...
    @property
    def store(self) -> Store: ...
    @property
    def quiet(self) -> QuietHours: ...
    @property
    def reach(self) -> Reach: ...

    async def dm(self, user_id: int, text: str, *, silent: bool = False) -> bool: ...


def prompt_link(record: GameRecord, found: tuple[int, int] | None) -> str:
    """A link to the game's live prompt (else to its thread), as Discord writes one."""
    guild = record.guild_id if record.guild_id is not None else "@me"
    if found is not None:
        return f"https://discord.com/channels/{guild}/{found[0]}/{found[1]}"
    return f"https://discord.com/channels/{guild}/{record.thread_id or record.channel_id}"


class Digests:
    """Daily digests: the setting, and sending the ones that are due (by the process that runs shard 0)."""

    def __init__(self, tables: DigestTables, detail: Detail = no_detail) -> None:
        self.tables = tables
        # What a game's line says after its number: the tables that know a game say it (the platform knows none).
        self.detail = detail

    @property
    def store(self) -> Store:
        return self.tables.store

    @property
    def sends(self) -> bool:
        """Digests go out from one process only: the one that runs Discord's shard 0 (or every shard)."""
        shards = self.tables.bot.timer_shards
        return shards is None or 0 in shards[1]

    async def set(self, user_id: int, text: str) -> str:
        """`/kokeshi notify digest`: the reply, once stored; a UserError (nothing stored) if the time does not read."""
        if text.strip().casefold() in ("off", _("off").casefold()):
            had = await self.store.digest(user_id)
            await self.store.set_digest(user_id, None)
            if await self.store.user_setting(user_id, "notify") == "on":
                after = _("You get a DM at each of your turns again (`/kokeshi notify off` stops them).")
            else:
                after = _("No DMs about your turns (`/kokeshi notify on` sends one at each turn).")
            head = _("Daily digest off.") if had is not None else _("There was no daily digest to stop.")
            return f"{head} {after}"
        minute = parse_time(text)
        if minute is None:
            raise UserError(
                _(
                    "I cannot read `{text}` as a time of day. Write it like `08:00` (in your quiet hours' time zone, "
                    "else UTC), or `off`."
                ).format(text=code(text[:40]))
            )
        quiet = await self.store.user_setting(user_id, "quiet")
        read = None if quiet is None else quiet_setting(quiet)
        zone_name = quiet.partition(" ")[2] if quiet is not None and read is not None else "UTC"
        where = zone(zone_name)
        assert where is not None  # UTC, or a zone that just read
        due = int(next_daily(now(), minute, where))
        await self.store.set_digest(user_id, minute, zone_name, due)
        self.tables.bot.wake_timers()
        return _(
            "📬 Daily digest at {time} ({zone}): one DM a day listing the games where it is your turn, with links, "
            "instead of a DM at each turn; none on a day when no game waits. The first comes <t:{at}:f>."
        ).format(time=show_time(minute), zone=zone_name, at=due)

    async def next_due(self) -> float | None:
        """When the earliest digest is due, for the timer loop's sleep; None when this process sends none."""
        if not self.sends:
            return None
        due = await self.store.next_digest()
        return None if due is None else float(due)

    async def fire_due(self) -> None:
        """Send every digest that is due, then set each one's next time. One that fails is logged and tried again an
        hour later (a digest never goes twice unless the bot stopped between the DM and the write)."""
        if not self.sends:
            return
        for digest in await self.store.due_digests(now()):
            try:
                await self.send(digest)
            except Exception:
                log.exception("the daily digest of user %d failed; trying again in an hour", digest.user_id)
                tomorrow = next_daily(now(), digest.minute, digest.where)
                await self.store.digest_sent(digest, int(min(now() + RETRY_SECONDS, tomorrow)))
                continue
            await self.store.digest_sent(
                digest, int(next_daily(max(now(), digest.due_at), digest.minute, digest.where))
            )

    async def waiting(self, user_id: int) -> list[Glance]:
        """The player's games in progress of every kind where it is their turn (one of the people it waits for), but
        for the ones they muted, that are paused, or that are played in the DM with the bot (their prompt is in that
        DM already)."""
        muted = await self.store.muted_games(user_id)
        return [
            glance
            for glance in await self.store.glances(user_id, ("active",))
            if user_id in glance.waiting
            and glance.record.id not in muted
            and glance.record.guild_id is not None
            and not self.tables.reach.paused(glance.record)
        ]

    async def send(self, digest: Digest) -> None:
        """One digest DM, in the player's language; nothing when no game waits for them. DMs closed to the bot stop
        the digest, as they stop the turn DMs."""
        user_id = digest.user_id
        games = await self.waiting(user_id)
        if not games:
            return
        with i18n.using(await self.store.user_setting(user_id, "language") or i18n.DEFAULT):
            text = await self.text(games)
        if not await self.tables.dm(user_id, text, silent=await self.tables.quiet.silent(user_id)):
            log.info("could not send the daily digest to user %d", user_id)
            if await self.store.user_setting(user_id, "dm_closed") is not None:
                await self.store.set_digest(user_id, None)

    async def text(self, games: list[Glance]) -> str:
        """The digest: how many games wait, then one line per game with its link and the time left."""
        head = ngettext("📬 **Your turn in {count} game:**", "📬 **Your turn in {count} games:**", len(games))
        lines = [head.format(count=i18n.format_number(len(games)))]
        for count, glance in enumerate(games):
            record = glance.record
            link = prompt_link(record, glance.prompt)
            detail = await self.detail(record)
            if detail:
                line = _("• {game} #{number}, {detail}: {link}").format(
                    game=game_name(record), number=record.id, detail=detail, link=link
                )
            else:
                line = _("• {game} #{number}: {link}").format(game=game_name(record), number=record.id, link=link)
            if glance.deadline is not None:
                line += " — " + _("{duration} left").format(duration=duration(glance.deadline - now()))
            more = ngettext("…and {count} more", "…and {count} more", len(games) - count)
            if len("\n".join((*lines, line))) + len(more) + 12 > MESSAGE:
                lines.append(more.format(count=i18n.format_number(len(games) - count)))
                break
            lines.append(line)
        return "\n".join(lines)


__all__ = ["Detail", "Digests", "no_detail", "prompt_link"]

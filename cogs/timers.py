"""Reminders and turn deadlines: one task sleeps until the earliest timer row and fires what is due."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from discord.ext import commands

from storage import GameNotFound

from .common import now
from .refusals import FIRST_RETRY, MAX_RETRY
from .wiring import WiredClient

log = logging.getLogger(__name__)

# Even with nothing due, look again this often (timers written by another process, clock changes).
IDLE_SECONDS = 3600.0
# A timer whose work failed (raised) is tried again on the schedule of a refused post (`refusals`): 60 s, then twice
# as late after each further failure, up to an hour; a deadline that cannot be carried out never fails every minute.
RETRY_SECONDS = FIRST_RETRY
MAX_RETRY_SECONDS = MAX_RETRY
RETRIED = frozenset({"deadline", "repost"})


class Timers(commands.Cog):
    """Runs due timers; the rows live in the store, so they survive restarts."""

    def __init__(self, bot: WiredClient) -> None:
        self.bot = bot
        self.task: asyncio.Task | None = None
        self.sleeping = False
        self.waking: float | None = None  # when the sleeping loop looks again
        self.caught_up = False
        self.resuming: asyncio.Task | None = None  # the platform's games left midway, going on after a start
        self.daily_checked: int | None = None  # the UTC day whose results were last checked
        self.failures: dict[tuple[int, str, int], int] = {}  # timer → failed attempts in a row (this process)

    async def cog_load(self) -> None:
        self.task = asyncio.create_task(self.run(), name="kokeshi-timers")

    async def cog_unload(self) -> None:
        for task in (self.task, self.resuming):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def poke(self, due_at: float | None = None) -> None:
        """A timer may now be due sooner than the loop is sleeping for: restart the wait (unless it is known to be
        due no sooner than the loop wakes anyway)."""
        if due_at is not None and self.waking is not None and due_at >= self.waking:
            return
        if self.task is not None and self.sleeping:
            self.task.cancel()
            self.task = asyncio.create_task(self.run(), name="kokeshi-timers")

    async def run(self) -> None:
        await self.bot.wait_until_ready()
        if not self.caught_up:
            # Games whose last turn was saved but never shown (the bot stopped in between) come first.
            self.caught_up = True
            await self.bot.tables.catch_up()
            # The platform's games left midway go on beside the loop: an AI turn may take a while.
            self.resuming = asyncio.create_task(
                self.bot.matches.catch_up(self.bot.timer_shards), name="kokeshi-resume-matches"
            )
        while not self.bot.is_closed():
            try:
                await self.fire_due()
                upcoming = await self.bot.store.next_timer(self.bot.timer_shards)
                digest = await self.bot.tables.digests.next_due()
                # The opponents' choices about a seat wait in their own table (`cogs.clock`).
                choice = await self.bot.tables.clocks.next_due()
            except Exception:
                log.exception("timer loop failed; retrying in a minute")
                delay = 60.0
            else:
                delay = IDLE_SECONDS if upcoming is None else min(IDLE_SECONDS, max(0.0, upcoming.due_at - now()))
                delay = delay if digest is None else min(delay, max(0.0, digest - now()))
                delay = delay if choice is None else min(delay, max(0.0, choice - now()))
            # Wake just after UTC midnight to post the daily challenge results.
            delay = min(delay, 86400.0 - now() % 86400.0 + 1.0)
            # A plain sleep: `poke` replaces this task when an earlier timer appears.
            self.sleeping = True
            self.waking = now() + delay
            try:
                await self.bot.nap(delay)
            finally:
                self.sleeping = False
                self.waking = None

    async def fire_due(self) -> None:
        day = int(now() // 86400)
        if day != self.daily_checked:  # once per UTC day boundary, not at every wake-up
            try:
                await self.bot.community.post_daily_results()
            except Exception:
                log.exception("posting the daily results failed")
            else:
                self.daily_checked = day
        try:
            await self.bot.tables.clocks.fire_due()
        except Exception:
            log.exception("an opponents' choice could not be closed")
        metrics = getattr(self.bot, "metrics", None)
        for timer in await self.bot.store.due_timers(now(), self.bot.timer_shards):
            if metrics is not None:
                metrics.timer_fired(now() - timer.due_at)
            key = (timer.game_id, timer.kind, timer.version)
            try:
                await self.bot.matches.fire(timer.game_id, timer.kind, timer.version)
            except GameNotFound:
                with contextlib.suppress(Exception):
                    await self.bot.store.clear_timers(timer.game_id)  # a game no longer kept has no turn to time
            except Exception:
                failed = self.failures[key] = self.failures.get(key, 0) + 1
                log.exception("timer %s of game %d failed (attempt %d)", timer.kind, timer.game_id, failed)
                with contextlib.suppress(Exception):
                    if timer.kind in RETRIED:
                        # The row stays, for later: a deadline that failed halfway must still end its turn. It
                        # keeps the version it holds now: a decision the failed run saved within the turn carried
                        # it on to the turn's next step (`MatchStore.play_match`).
                        delay = min(RETRY_SECONDS * 2 ** (failed - 1), MAX_RETRY_SECONDS)
                        held = [t.version for t in await self.bot.store.timers(timer.game_id) if t.kind == timer.kind]
                        version = held[0] if held else timer.version
                        await self.bot.store.set_timer(timer.game_id, timer.kind, now() + delay, version)
                    else:
                        await self.bot.store.clear_timer(timer.game_id, timer.kind, timer.version)
                        self.failures.pop(key, None)
            else:
                self.failures.pop(key, None)
        try:
            await self.bot.tables.digests.fire_due()
        except Exception:
            log.exception("sending the daily digests failed")


async def setup(bot: WiredClient) -> None:
    await bot.add_cog(Timers(bot))

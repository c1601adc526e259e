"""Away periods and quiet hours: what moves a player's turn deadlines (and reminders) in every game.

Which people a game waits for is the store's to say (`_waiting_users`: every person seated at a seat the game waits
for); nothing here knows a game's rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from kit.quiet import parse_hours, quiet_end, zone

from .database import Row, Transaction
from .records import StoreRefusal

DAY = 86400
# Timers that belong to the turn of the player to move; a repost is the thread's own business.
TURN_TIMERS = ("reminder_half", "reminder_late", "deadline")
# How far back the yearly allowance of away days looks.
YEAR = 365 * DAY
LONGEST = 14 * DAY
# The user setting that holds a player's quiet hours and time zone: "23:00-08:00 Europe/Lisbon".
QUIET = "quiet"


@dataclass(frozen=True, slots=True)
class Away:
    """One away period of a player: from `began_at` until `ends_at` (UNIX times)."""

    user_id: int
    began_at: float
    ends_at: float


@dataclass(frozen=True, slots=True)
class AwayChange:
    """What going away (or coming back) changed: the away as it now stands, and the active games whose turn
    timers moved (by `shift` seconds each; negative when coming back early)."""

    away: Away
    games: tuple[int, ...]
    shift: float


def quiet_setting(value: str) -> tuple[tuple[int, int], ZoneInfo] | None:
    """A stored quiet-hours setting ("23:00-08:00 Europe/Lisbon") read back; None if it no longer reads (a zone
    the system's time zone data dropped)."""
    hours_text, _, zone_name = value.partition(" ")
    hours, where = parse_hours(hours_text), zone(zone_name)
    return None if hours is None or where is None else (hours, where)


def out_of_quiet(at: float, quiets: Sequence[tuple[tuple[int, int], ZoneInfo]]) -> float:
    """`at`, or where it moves to leave these quiet hours: to the end of those it falls in, again while the end
    of one falls in another's. Hours that between them cover the whole day stop it once it has moved a day."""
    start = at
    while at - start <= DAY:
        later = at
        for hours, where in quiets:
            later = quiet_end(later, hours, where) or later
        if later == at:
            break
        at = later
    return at


def _away(r: Row) -> Away:
    return Away(r["user_id"], r["began_at"], r["ends_at"])


class AwayStore:
    """Mixed into `Store`; runs its statements through the store's database, under the store's game locks."""

    _clock: Callable[[], float]  # provided by Store

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:  # provided by Store
        raise NotImplementedError

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:  # provided by Store
        raise NotImplementedError

    async def _one_on(self, db: Transaction, sql: str, params: Sequence[Any] = ()) -> Row | None:  # by Store
        raise NotImplementedError

    async def _run(self, db: Transaction, sql: str, params: Sequence[Any] = ()) -> int:  # provided by Store
        raise NotImplementedError

    def _tx(self, *, durable: bool = True) -> AbstractAsyncContextManager[Transaction]:  # provided by Store
        raise NotImplementedError

    def _game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:  # provided by Store
        raise NotImplementedError

    async def _waiting_users(self, game_id: int) -> tuple[int, ...]:  # provided by Store, the game's lock held
        raise NotImplementedError

    # ------------------------------------------------------------------ reading

    async def away(self, user_id: int) -> Away | None:
        """The player's away period running now, if any."""
        r = await self._one(
            "SELECT * FROM aways WHERE user_id = ? AND ends_at > ? ORDER BY ends_at DESC LIMIT 1",
            (user_id, self._clock()),
        )
        return None if r is None else _away(r)

    async def aways(self, user_ids: Iterable[int]) -> dict[int, Away]:
        """The away periods running now of these players, by user id (those not away are left out)."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = await self._all(
            f"SELECT * FROM aways WHERE user_id IN ({marks}) AND ends_at > ? ORDER BY ends_at", (*ids, self._clock())
        )
        return {r["user_id"]: _away(r) for r in rows}

    async def away_used(self, user_id: int) -> float:
        """Seconds of away the player has taken or booked in the last 365 days (by when each began)."""
        r = await self._one(
            "SELECT COALESCE(SUM(ends_at - began_at), 0) AS used FROM aways WHERE user_id = ? AND began_at > ?",
            (user_id, self._clock() - YEAR),
        )
        return 0.0 if r is None else float(r["used"])

    async def away_history(self, user_id: int) -> list[Away]:
        """Every away period of the player, oldest first."""
        rows = await self._all("SELECT * FROM aways WHERE user_id = ? ORDER BY began_at", (user_id,))
        return [_away(r) for r in rows]

    # ------------------------------------------------------------------ going away and coming back

    async def go_away(self, user_id: int, ends_at: float) -> AwayChange:
        """Start an away period until `ends_at`: the player's running turn timers in every active game move later
        by the time away, in one commit with the period. Raises ValueError if one is already running."""
        async with self._holding_games(user_id) as games:
            now = self._clock()
            if await self.away(user_id) is not None:
                raise ValueError("already away")
            shift = ends_at - now
            async with self._tx() as db:
                await self._run(
                    db,
                    "INSERT INTO aways (user_id, began_at, ends_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (user_id, began_at) DO UPDATE SET ends_at = excluded.ends_at",
                    (user_id, now, ends_at),
                )
                moved = await self._shift_turn_timers(db, user_id, games, shift)
            return AwayChange(Away(user_id, now, ends_at), moved, shift)

    async def come_back(self, user_id: int) -> AwayChange | None:
        """End the running away period now: the turn timers it moved come back by the part not used. None when
        the player is not away."""
        async with self._holding_games(user_id) as games:
            away = await self.away(user_id)
            if away is None:
                return None
            now = self._clock()
            shift = now - away.ends_at  # negative: the unused part
            async with self._tx() as db:
                if now > away.began_at:
                    await self._run(
                        db,
                        "UPDATE aways SET ends_at = ? WHERE user_id = ? AND began_at = ?",
                        (now, user_id, away.began_at),
                    )
                else:  # back the instant it began: nothing was used
                    await self._run(
                        db, "DELETE FROM aways WHERE user_id = ? AND began_at = ?", (user_id, away.began_at)
                    )
                moved = await self._shift_turn_timers(db, user_id, games, shift, floor=now)
            return AwayChange(Away(user_id, away.began_at, now), moved, shift)

    def _holding_games(self, user_id: int) -> AbstractAsyncContextManager[list[tuple[int, tuple[int, ...]]]]:
        return _HeldGames(self, user_id)

    async def _shift_turn_timers(
        self,
        db: Transaction,
        user_id: int,
        games: Sequence[tuple[int, tuple[int, ...]]],
        shift: float,
        floor: float = 0.0,
    ) -> tuple[int, ...]:
        """Move the turn timers of the games that wait for this player by `shift` seconds (never before
        `floor`)."""
        moved = []
        marks = ",".join("?" * len(TURN_TIMERS))
        for game_id, waiting in games:
            if user_id not in waiting:
                continue
            count = await self._run(
                db,
                f"UPDATE timers SET due_at = CASE WHEN due_at + ? < ? THEN ? ELSE due_at + ? END "
                f"WHERE game_id = ? AND kind IN ({marks})",
                (shift, floor, floor, shift, game_id, *TURN_TIMERS),
            )
            if count:
                moved.append(game_id)
        return tuple(moved)

    async def away_delay(self, db: Transaction, user_ids: Sequence[int]) -> float:
        """Inside a transaction that sets a turn's timers: how much later they go for these people (the rest of
        the away period that ends last: the turn's time starts once they are all back), 0 when none is away."""
        ids = sorted(set(user_ids))
        if not ids:
            return 0.0
        now = self._clock()
        marks = ",".join("?" * len(ids))
        r = await self._one_on(
            db, f"SELECT MAX(ends_at) AS ends_at FROM aways WHERE user_id IN ({marks}) AND ends_at > ?", (*ids, now)
        )
        if r is None or r["ends_at"] is None:
            return 0.0
        return float(r["ends_at"]) - float(now)

    async def people_timers(
        self, db: Transaction, user_ids: Sequence[int], timers: Sequence[tuple[str, float]]
    ) -> list[tuple[str, float]]:
        """Inside a transaction that sets the timers of a turn that waits for these people (several choose at once in
        some games): all of the timers later by the away period that ends last, then a deadline that falls in the
        quiet hours of any of them moved to where none of them is in their quiet hours (as far as that exists)."""
        delay = await self.away_delay(db, user_ids)
        moved = [(kind, due_at + delay) for kind, due_at in timers]
        ids = sorted(set(user_ids))
        if not ids:
            return moved
        quiets = []
        for user_id in ids:
            r = await self._one_on(
                db, "SELECT value FROM user_settings WHERE user_id = ? AND key = ?", (user_id, QUIET)
            )
            quiet = None if r is None else quiet_setting(r["value"])
            if quiet is not None:
                quiets.append(quiet)
        if not quiets:
            return moved
        return [(kind, out_of_quiet(due_at, quiets) if kind == "deadline" else due_at) for kind, due_at in moved]

    async def verify_aways(self) -> list[str]:
        """What is wrong with the stored away periods: one ending before it began, one longer than 14 days, or
        two of one player overlapping. Empty when they are sound."""
        problems = []
        last: dict[int, Away] = {}
        for r in await self._all("SELECT * FROM aways ORDER BY user_id, began_at"):
            away = _away(r)
            if away.ends_at < away.began_at or away.ends_at - away.began_at > LONGEST + 1:
                problems.append(f"user {away.user_id}: the away period from {away.began_at} has a bad length")
            before = last.get(away.user_id)
            if before is not None and before.ends_at > away.began_at:
                problems.append(f"user {away.user_id}: away periods overlap at {away.began_at}")
            last[away.user_id] = away
        return problems

    async def verify_quiet(self) -> list[str]:
        """What is wrong with the stored quiet hours: a setting whose hours or time zone no longer read (deadlines
        would then fall in them unmoved). Empty when they are sound."""
        rows = await self._all("SELECT user_id, value FROM user_settings WHERE key = ? ORDER BY user_id", (QUIET,))
        return [
            f"user {r['user_id']}: the quiet hours {r['value']!r} do not read"
            for r in rows
            if quiet_setting(r["value"]) is None
        ]


class _HeldGames:
    """The player's active games, each locked (in id order, so two holders never wait on each other) with the
    people it waits for; a move being applied to one of them finishes first, and none is applied until the block
    ends."""

    def __init__(self, store: AwayStore, user_id: int) -> None:
        self.store = store
        self.user_id = user_id
        self.stack = AsyncExitStack()

    async def __aenter__(self) -> list[tuple[int, tuple[int, ...]]]:
        rows = await self.store._all(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE s.user_id = ? AND g.status = 'active' ORDER BY g.id",
            (self.user_id,),
        )
        games = []
        try:
            for r in rows:
                await self.stack.enter_async_context(self.store._game_lock(r["id"]))
                try:
                    games.append((r["id"], await self.store._waiting_users(r["id"])))
                except StoreRefusal:  # broken (or its game unknown here): it has no turn to move
                    continue
        except BaseException:
            await self.stack.aclose()
            raise
        return games

    async def __aexit__(self, *exc: object) -> None:
        await self.stack.aclose()

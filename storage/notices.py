"""What reaches a player outside a game's thread: the games they muted, and their daily digest and its timer.

Both are user settings (no schema of their own): `muted` holds game ids ("12 15"); `digest` the local time and
zone of the digest ("08:00 Europe/Lisbon"), and `digest_at` the UNIX second the next one is due, the digest's
timer, which survives restarts like any stored row. That second is written with a fixed number of digits, so that
text order is time order in every database: no cast of a setting's value, which other keys hold as words.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from kit.quiet import parse_time, zone

from .database import Row, Transaction

MUTED = "muted"
DIGEST = "digest"
DIGEST_AT = "digest_at"
DIGITS = 12


def _second(at: float) -> str:
    """A UNIX second as `digest_at` holds it: "001767254400"."""
    return f"{int(at):0{DIGITS}d}"


@dataclass(frozen=True, slots=True)
class Digest:
    """A player's daily digest: at `minute` after midnight in `zone_name`, next due at `due_at` (UNIX seconds)."""

    user_id: int
    minute: int
    zone_name: str
    due_at: int

    @property
    def where(self) -> ZoneInfo:
        """The digest's time zone (UTC if the system's zone data no longer knows it)."""
        return zone(self.zone_name) or ZoneInfo("UTC")


def muted_setting(value: str) -> frozenset[int]:
    """The stored list of muted games ("12 40") read back as game numbers."""
    return frozenset(int(part) for part in value.split() if part.isdigit())


def digest_setting(value: str) -> tuple[int, str] | None:
    """A stored digest setting ("08:00 Europe/Lisbon") read back as (minute, zone name); None if it does not read."""
    time_text, _, zone_name = value.partition(" ")
    minute = parse_time(time_text)
    return None if minute is None or not zone_name else (minute, zone_name)


class NoticeStore:
    """Mixed into `Store`; runs its statements through the store's database."""

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:  # provided by Store
        raise NotImplementedError

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:  # provided by Store
        raise NotImplementedError

    async def _run(self, db: Transaction, sql: str, params: Sequence[Any] = ()) -> int:  # provided by Store
        raise NotImplementedError

    def _tx(self, *, durable: bool = True) -> AbstractAsyncContextManager[Transaction]:  # provided by Store
        raise NotImplementedError

    async def _put_setting(self, db: Transaction, user_id: int, key: str, value: str | None) -> None:
        if value is None:
            await self._run(db, "DELETE FROM user_settings WHERE user_id = ? AND key = ?", (user_id, key))
        else:
            await self._run(
                db,
                "INSERT INTO user_settings (user_id, key, value) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value",
                (user_id, key, value),
            )

    # ------------------------------------------------------------------ muted games

    async def muted_games(self, user_id: int) -> frozenset[int]:
        """The games whose pings this player muted."""
        r = await self._one("SELECT value FROM user_settings WHERE user_id = ? AND key = ?", (user_id, MUTED))
        return muted_setting(r["value"] if r else "")

    async def set_muted_games(self, user_id: int, game_ids: frozenset[int] | set[int]) -> None:
        """Replace the games this player muted (none: the setting goes)."""
        async with self._tx() as db:
            await self._put_setting(db, user_id, MUTED, " ".join(map(str, sorted(game_ids))) or None)

    # ------------------------------------------------------------------ the daily digest

    async def digest(self, user_id: int) -> Digest | None:
        """The player's daily digest, if they asked for one."""
        rows = await self._all(
            "SELECT key, value FROM user_settings WHERE user_id = ? AND key IN (?, ?)", (user_id, DIGEST, DIGEST_AT)
        )
        values = {r["key"]: r["value"] for r in rows}
        setting = digest_setting(values.get(DIGEST, ""))
        due = values.get(DIGEST_AT, "")
        if setting is None or not due.isdigit():
            return None
        return Digest(user_id, setting[0], setting[1], int(due))

    async def set_digest(self, user_id: int, minute: int | None, zone_name: str = "UTC", due_at: int = 0) -> None:
        """Ask for the daily digest at `minute` in `zone_name`, first due at `due_at`; None stops it. One commit."""
        async with self._tx() as db:
            if minute is None:
                await self._put_setting(db, user_id, DIGEST, None)
                await self._put_setting(db, user_id, DIGEST_AT, None)
            else:
                await self._put_setting(db, user_id, DIGEST, f"{minute // 60:02d}:{minute % 60:02d} {zone_name}")
                await self._put_setting(db, user_id, DIGEST_AT, _second(due_at))

    async def due_digests(self, now: float) -> list[Digest]:
        """The digests due at or before `now`, earliest first."""
        rows = await self._all(
            "SELECT user_id FROM user_settings WHERE key = ? AND value <= ? ORDER BY value, user_id",
            (DIGEST_AT, _second(now)),
        )
        found = [await self.digest(r["user_id"]) for r in rows]
        return [d for d in found if d is not None]

    async def next_digest(self) -> int | None:
        """When the earliest digest is due (UNIX seconds), if any."""
        r = await self._one("SELECT MIN(value) AS due FROM user_settings WHERE key = ?", (DIGEST_AT,))
        return None if r is None or r["due"] is None else int(r["due"])

    async def digest_sent(self, digest: Digest, next_due: int) -> bool:
        """The digest that was due is done: the next is due at `next_due`. False (nothing changed) if the player
        changed or stopped it meanwhile."""
        async with self._tx() as db:
            changed = await self._run(
                db,
                "UPDATE user_settings SET value = ? WHERE user_id = ? AND key = ? AND value = ?",
                (_second(next_due), digest.user_id, DIGEST_AT, _second(digest.due_at)),
            )
        return changed > 0

    async def verify_notices(self) -> list[str]:
        """What is wrong with the stored digests and muted games: a digest whose time or zone does not read, one
        without its timer (or a timer without its digest), a muted game that is not a number. Empty when sound."""
        problems = []
        rows = await self._all(
            "SELECT user_id, key, value FROM user_settings WHERE key IN (?, ?, ?) ORDER BY user_id, key",
            (MUTED, DIGEST, DIGEST_AT),
        )
        by_user: dict[int, dict[str, str]] = {}
        for r in rows:
            by_user.setdefault(r["user_id"], {})[r["key"]] = r["value"]
        for user_id, values in by_user.items():
            if DIGEST in values:
                setting = digest_setting(values[DIGEST])
                if setting is None or zone(setting[1]) is None:
                    problems.append(f"user {user_id}: the digest setting {values[DIGEST]!r} does not read")
                due = values.get(DIGEST_AT, "")
                if not (due.isdigit() and len(due) == DIGITS):
                    problems.append(f"user {user_id}: the digest has no timer")
            elif DIGEST_AT in values:
                problems.append(f"user {user_id}: a digest timer without a digest")
            if MUTED in values and not all(part.isdigit() for part in values[MUTED].split()):
                problems.append(f"user {user_id}: muted games {values[MUTED]!r} are not game numbers")
        return problems

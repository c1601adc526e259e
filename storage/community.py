"""Ratings, leaderboards, stats and challenges: what the store keeps about players across games."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite

from engine import KOKESHI

from .ratings import DEFAULT_MU, DEFAULT_SIGMA, Rating, human_ranks, rate, streak

BOARDS = ("rating", "wins", "best", "solo", "daily", "weekly")


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One line of a leaderboard."""

    rank: int
    user_id: int
    value: float
    games: int
    provisional: bool = False


@dataclass(frozen=True, slots=True)
class Stats:
    """A player's record, from the stored results."""

    games: int
    wins: int
    average: float
    best: int
    breakdown: dict[str, float]
    favourite: str | None
    history: list[tuple[float, int]]
    solo_games: int
    solo_wins: int
    solo_best: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def scope_of(guild_id: int | None) -> str:
    """The rating scope of a server ('global' when None)."""
    return "global" if guild_id is None else f"guild:{guild_id}"


class CommunityStore:
    """Mixed into `Store`; uses its connection and transactions."""

    _db: aiosqlite.Connection

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:  # provided by Store
        raise NotImplementedError

    # ------------------------------------------------------------------ written when a game ends

    async def _rate_finished(self, db: aiosqlite.Connection, game_id: int, guild_id: int | None, now: float) -> None:
        rows = await self._all(
            "SELECT user_id, rank, resigned FROM results WHERE game_id = ? AND user_id IS NOT NULL", (game_id,)
        )
        ranked = human_ranks([(r["user_id"], r["rank"], bool(r["resigned"])) for r in rows])
        if len(ranked) < 2:
            return
        for scope in ("global", scope_of(guild_id)) if guild_id is not None else ("global",):
            before = {r.user_id: r for r in await self.ratings(scope, [uid for uid, _ in ranked])}
            players = [(before.get(uid, Rating(uid)), rank) for uid, rank in ranked]
            for (old, _), new in zip(players, rate(players), strict=True):
                await db.execute(
                    "INSERT INTO ratings (scope, user_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (scope, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                    "games = excluded.games, updated_at = excluded.updated_at",
                    (scope, new.user_id, new.mu, new.sigma, new.games, now),
                )
                await db.execute(
                    "INSERT INTO rating_changes VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, scope, new.user_id, old.mu, old.sigma, new.mu, new.sigma),
                )

    async def _finish_attempt(self, db: aiosqlite.Connection, game_id: int, now: float) -> None:
        rows = await self._all("SELECT name, total FROM results WHERE game_id = ? ORDER BY rank", (game_id,))
        human = next((r for r in rows if r["name"] != "automa"), None)
        if human is None:
            return
        won = rows[0]["name"] == human["name"]
        await db.execute(
            "UPDATE challenge_attempts SET score = ?, won = ?, finished_at = ? WHERE game_id = ?",
            (human["total"], int(won), now, game_id),
        )

    # ------------------------------------------------------------------ ratings

    async def ratings(self, scope: str, user_ids: Sequence[int] | None = None) -> list[Rating]:
        """Stored ratings in a scope (of these users), best first."""
        if user_ids is None:
            rows = await self._all("SELECT * FROM ratings WHERE scope = ?", (scope,))
        else:
            marks = ",".join("?" * len(user_ids))
            rows = await self._all(
                f"SELECT * FROM ratings WHERE scope = ? AND user_id IN ({marks})", (scope, *user_ids)
            )
        found = [Rating(r["user_id"], r["mu"], r["sigma"], r["games"]) for r in rows]
        return sorted(found, key=lambda r: (-r.display, r.user_id))

    async def rating(self, scope: str, user_id: int) -> Rating:
        """A user's rating in a scope (the newcomer's rating if none is stored)."""
        found = await self.ratings(scope, [user_id])
        return found[0] if found else Rating(user_id, DEFAULT_MU, DEFAULT_SIGMA, 0)

    # ------------------------------------------------------------------ leaderboards

    async def leaderboard(self, board: str, guild_id: int | None, key: str | None = None) -> list[BoardRow]:
        """Every ranked row of a board; `guild_id` None means the whole world. `key` picks the challenge."""
        if board == "rating":
            ratings = await self.ratings(scope_of(guild_id))
            return [BoardRow(i, r.user_id, r.display, r.games, r.provisional) for i, r in enumerate(ratings, start=1)]
        where = "" if guild_id is None else " AND g.guild_id = ?"
        params: tuple = () if guild_id is None else (guild_id,)
        if board in ("wins", "best", "solo"):
            solo = int(board == "solo")
            value = "SUM(r.rank = 1)" if board == "wins" else "MAX(r.total)"
            order = (
                "value DESC, games DESC, MIN(r.finished_at)" if board == "wins" else "value DESC, MIN(r.finished_at)"
            )
            rows = await self._all(
                f"SELECT r.user_id, {value} AS value, COUNT(*) AS games "
                "FROM results r JOIN games g ON g.id = r.game_id "
                f"WHERE r.user_id IS NOT NULL AND g.solo = ? AND g.challenge IS NULL{where} "
                f"GROUP BY r.user_id ORDER BY {order}, r.user_id",
                (solo, *params),
            )
        elif board in ("daily", "weekly"):
            where = "" if guild_id is None else " AND a.guild_id = ?"
            rows = await self._all(
                "SELECT a.user_id, a.score AS value, 1 AS games FROM challenge_attempts a "
                f"WHERE a.kind = ? AND a.key = ? AND a.rated = 1 AND a.score IS NOT NULL{where} "
                "ORDER BY a.score DESC, a.finished_at, a.user_id",
                (board, key, *params),
            )
        else:
            raise ValueError(f"unknown leaderboard {board!r}; one of {', '.join(BOARDS)}")
        return [BoardRow(i, r["user_id"], r["value"], r["games"]) for i, r in enumerate(rows, start=1)]

    # ------------------------------------------------------------------ challenges

    async def challenge_attempts(self, user_id: int, kind: str, key: str) -> list[sqlite3.Row]:
        """A user's attempts at one challenge, oldest first."""
        return await self._all(
            "SELECT * FROM challenge_attempts WHERE user_id = ? AND kind = ? AND key = ? ORDER BY started_at, game_id",
            (user_id, kind, key),
        )

    async def streak(self, user_id: int, today: dt.date) -> int:
        """Consecutive UTC days on which the user played the daily challenge."""
        rows = await self._all(
            "SELECT DISTINCT key FROM challenge_attempts WHERE user_id = ? AND kind = 'daily'", (user_id,)
        )
        return streak([r["key"] for r in rows], today)

    async def daily_posted(self, guild_id: int, day: str) -> bool:
        rows = await self._all("SELECT 1 FROM daily_posts WHERE guild_id = ? AND day = ?", (guild_id, day))
        return bool(rows)

    async def mark_daily_posted(self, guild_id: int, day: str, channel_id: int, now: float) -> None:
        async with self._tx() as db:  # type: ignore[attr-defined]
            await db.execute(
                "INSERT OR IGNORE INTO daily_posts (guild_id, day, channel_id, posted_at) VALUES (?, ?, ?, ?)",
                (guild_id, day, channel_id, now),
            )

    async def guilds_with_setting(self, key: str) -> list[tuple[int, str]]:
        rows = await self._all("SELECT guild_id, value FROM guild_settings WHERE key = ?", (key,))
        return [(r["guild_id"], r["value"]) for r in rows]

    # ------------------------------------------------------------------ stats

    async def stats(self, user_id: int, guild_id: int | None = None) -> Stats:
        """A player's record in one server (or everywhere)."""
        where = "" if guild_id is None else " AND g.guild_id = ?"
        params: tuple = (user_id,) if guild_id is None else (user_id, guild_id)
        rows = await self._all(
            "SELECT r.*, g.solo FROM results r JOIN games g ON g.id = r.game_id "
            f"WHERE r.user_id = ?{where} ORDER BY r.finished_at, r.game_id",
            params,
        )
        multi = [r for r in rows if not r["solo"]]
        solo = [r for r in rows if r["solo"]]
        parts = ("animals", "tracks", "quality", "leads", "adjacency", "in_play")
        breakdown = {p: (sum(r[p] for r in multi) / len(multi) if multi else 0.0) for p in parts}
        moves = await self._all(
            "SELECT a.action, COUNT(*) AS n FROM actions a JOIN seats s ON s.game_id = a.game_id AND s.name = a.player "
            "JOIN games g ON g.id = a.game_id "
            f"WHERE s.user_id = ? AND a.action LIKE 'advance:%' AND a.source = 'player'{where} GROUP BY a.action",
            params,
        )
        counts = {m["action"].split(":")[1]: m["n"] for m in moves}
        favourite = max(KOKESHI, key=lambda k: (counts.get(k, 0), -KOKESHI.index(k))) if counts else None
        return Stats(
            games=len(multi),
            wins=sum(r["rank"] == 1 for r in multi),
            average=sum(r["total"] for r in multi) / len(multi) if multi else 0.0,
            best=max((r["total"] for r in multi), default=0),
            breakdown=breakdown,
            favourite=favourite,
            history=[(r["finished_at"], r["total"]) for r in rows],
            solo_games=len(solo),
            solo_wins=sum(r["rank"] == 1 for r in solo),
            solo_best=max((r["total"] for r in solo), default=0),
        )

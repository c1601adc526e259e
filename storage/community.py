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

# Per board: the columns it is sorted by and their direction, for ranking one player without reading the board.
_ORDER = {
    "rating": (("mu - 3 * sigma", ">"), ("user_id", "<")),
    "wins": (("wins", ">"), ("games", ">"), ("first_at", "<"), ("user_id", "<")),
    "best": (("best", ">"), ("first_at", "<"), ("user_id", "<")),
    "solo": (("best", ">"), ("first_at", "<"), ("user_id", "<")),
    "daily": (("score", ">"), ("finished_at", "<"), ("user_id", "<")),
    "weekly": (("score", ">"), ("finished_at", "<"), ("user_id", "<")),
}


def _ahead(source: str, order: Sequence[tuple[str, str]], values: Sequence[Any]) -> tuple[str, list[Any]]:
    """SQL counting the rows that sort before the one with these key values, and its extra parameters.

    One index range per sort column (equal on the columns before it, strictly before on it), summed: each part
    is a range scan of the board's index, where one OR-ed condition would scan the whole board.
    """
    parts, params = [], []
    for i, (column, op) in enumerate(order):
        equal = "".join(f" AND {c} = ?" for c, _ in order[:i])
        parts.append(f"(SELECT COUNT(*) {source}{equal} AND {column} {op} ?)")
        params.append([*values[:i], values[i]])
    return "SELECT " + " + ".join(parts), params


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

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:  # provided by Store
        raise NotImplementedError

    _GREATEST: str  # the scalar max and min of two values in the backend's SQL
    _LEAST: str

    async def _run(self, db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> int:  # provided by Store
        raise NotImplementedError

    async def _add_totals(
        self, db: aiosqlite.Connection, guild_id: int | None, solo: bool, rows: Sequence[Sequence[Any]]
    ) -> None:
        """Fold a finished game's results rows into the leaderboard totals, in the game's transaction."""
        scopes = ("global",) if guild_id is None else ("global", scope_of(guild_id))
        for row in rows:
            user_id, rank, total, at = row[3], row[6], row[7], row[14]
            if user_id is None:
                continue
            for scope in scopes:
                added = await self._run(
                    db,
                    "INSERT INTO player_totals (scope, solo, user_id, games, wins, best, first_at) "
                    "VALUES (?, ?, ?, 1, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (scope, int(solo), user_id, int(rank == 1), total, at),
                )
                if added:
                    await self._count_players(db, scope, "solo" if solo else "multi", 1)
                    continue
                await self._run(
                    db,
                    f"UPDATE player_totals SET games = games + 1, wins = wins + ?, best = {self._GREATEST}(best, ?), "
                    f"first_at = {self._LEAST}(first_at, ?) WHERE scope = ? AND solo = ? AND user_id = ?",
                    (int(rank == 1), total, at, scope, int(solo), user_id),
                )

    async def _count_players(self, db: aiosqlite.Connection, scope: str, board: str, added: int) -> None:
        """Keep the number of players on a board (rating, multi, solo) with the rows, for page footers."""
        await self._run(
            db,
            "INSERT INTO board_counts (scope, board, players) VALUES (?, ?, ?) "
            "ON CONFLICT (scope, board) DO UPDATE SET players = board_counts.players + excluded.players",
            (scope, board, added),
        )

    async def _add_kokeshi_counts(
        self, db: aiosqlite.Connection, guild_id: int | None, seats: dict, actions: Sequence[tuple]
    ) -> None:
        """Count the kokeshi each person chose to advance in a finished game (the favourite in stats)."""
        counts: dict[tuple[int, str], int] = {}
        for _, player, action, source, _, _ in actions:
            seat = seats.get(player)
            if seat is None or seat["user_id"] is None or source != "player" or not action.startswith("advance:"):
                continue
            key = (seat["user_id"], action.split(":", 1)[1])
            counts[key] = counts.get(key, 0) + 1
        scopes = ("global",) if guild_id is None else ("global", scope_of(guild_id))
        for (user_id, kokeshi), n in counts.items():
            for scope in scopes:
                await self._run(
                    db,
                    "INSERT INTO kokeshi_counts (scope, user_id, kokeshi, n) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (scope, user_id, kokeshi) DO UPDATE SET n = kokeshi_counts.n + excluded.n",
                    (scope, user_id, kokeshi, n),
                )

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
            newcomers = sum(uid not in before for uid, _ in ranked)
            if newcomers:
                await self._count_players(db, scope, "rating", newcomers)
            for (old, _), new in zip(players, rate(players), strict=True):
                await self._run(
                    db,
                    "INSERT INTO ratings (scope, user_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (scope, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                    "games = excluded.games, updated_at = excluded.updated_at",
                    (scope, new.user_id, new.mu, new.sigma, new.games, now),
                )
                await self._run(
                    db,
                    "INSERT INTO rating_changes VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, scope, new.user_id, old.mu, old.sigma, new.mu, new.sigma),
                )

    async def _finish_attempt(self, db: aiosqlite.Connection, game_id: int, now: float) -> None:
        rows = await self._all("SELECT name, total FROM results WHERE game_id = ? ORDER BY rank", (game_id,))
        human = next((r for r in rows if r["name"] != "automa"), None)
        if human is None:
            return
        won = rows[0]["name"] == human["name"]
        await self._run(
            db,
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

    def _board_query(self, board: str, guild_id: int | None, key: str | None) -> tuple[str, str, tuple, str]:
        """(select list, from-and-where, parameters, order) of a board; rows are (user_id, value, games, …)."""
        scope = scope_of(guild_id)
        if board == "rating":
            return (
                "user_id, mu, sigma, games",
                "FROM ratings WHERE scope = ?",
                (scope,),
                "mu - 3 * sigma DESC, user_id",
            )
        if board == "wins":
            return (
                "user_id, wins AS value, games",
                "FROM player_totals WHERE scope = ? AND solo = 0",
                (scope,),
                "wins DESC, games DESC, first_at, user_id",
            )
        if board in ("best", "solo"):
            return (
                "user_id, best AS value, games",
                "FROM player_totals WHERE scope = ? AND solo = ?",
                (scope, int(board == "solo")),
                "best DESC, first_at, user_id",
            )
        if board in ("daily", "weekly"):
            where = "" if guild_id is None else " AND guild_id = ?"
            return (
                "user_id, score AS value, 1 AS games",
                f"FROM challenge_attempts WHERE kind = ? AND key = ? AND rated = 1 AND score IS NOT NULL{where}",
                (board, key) if guild_id is None else (board, key, guild_id),
                "score DESC, finished_at, user_id",
            )
        raise ValueError(f"unknown leaderboard {board!r}; one of {', '.join(BOARDS)}")

    @staticmethod
    def _board_row(board: str, rank: int, r: sqlite3.Row) -> BoardRow:
        if board == "rating":
            rating = Rating(r["user_id"], r["mu"], r["sigma"], r["games"])
            return BoardRow(rank, rating.user_id, rating.display, rating.games, rating.provisional)
        return BoardRow(rank, r["user_id"], r["value"], r["games"])

    async def leaderboard_page(
        self, board: str, guild_id: int | None, key: str | None = None, *, page: int = 0, size: int = 10
    ) -> tuple[list[BoardRow], int]:
        """One page of a board (`page` counts from 0) and how many players the board has."""
        columns, source, params, order = self._board_query(board, guild_id, key)
        if board in ("rating", "wins", "best", "solo"):
            kept = "rating" if board == "rating" else "solo" if board == "solo" else "multi"
            found = await self._one(
                "SELECT players FROM board_counts WHERE scope = ? AND board = ?", (scope_of(guild_id), kept)
            )
            total = found[0] if found else 0
        else:
            total = (await self._one(f"SELECT COUNT(*) {source}", params))[0]
        page = min(max(page, 0), max(0, (total - 1) // size))
        rows = await self._all(
            f"SELECT {columns} {source} ORDER BY {order} LIMIT ? OFFSET ?", (*params, size, page * size)
        )
        return [self._board_row(board, page * size + i, r) for i, r in enumerate(rows, start=1)], total

    async def leaderboard_entry(
        self, board: str, guild_id: int | None, user_id: int, key: str | None = None
    ) -> BoardRow | None:
        """A player's own line of a board, with its rank, if they are on it."""
        columns, source, params, order = self._board_query(board, guild_id, key)
        order_by = _ORDER[board]
        keys = ", ".join(f"{column} AS k{i}" for i, (column, _) in enumerate(order_by))
        mine = await self._one(f"SELECT {columns}, {keys} {source} AND user_id = ?", (*params, user_id))
        if mine is None:
            return None
        sql, extra = _ahead(source, order_by, [mine[f"k{i}"] for i in range(len(order_by))])
        ahead = (await self._one(sql, [value for part in extra for value in (*params, *part)]))[0]
        return self._board_row(board, ahead + 1, mine)

    async def leaderboard(self, board: str, guild_id: int | None, key: str | None = None) -> list[BoardRow]:
        """Every ranked row of a board; `guild_id` None means the whole world. `key` picks the challenge."""
        columns, source, params, order = self._board_query(board, guild_id, key)
        rows = await self._all(f"SELECT {columns} {source} ORDER BY {order}", params)
        return [self._board_row(board, i, r) for i, r in enumerate(rows, start=1)]

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
            await self._run(
                db,
                "INSERT INTO daily_posts (guild_id, day, channel_id, posted_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
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
            "SELECT kokeshi, n FROM kokeshi_counts WHERE scope = ? AND user_id = ?", (scope_of(guild_id), user_id)
        )
        counts = {m["kokeshi"]: m["n"] for m in moves}
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

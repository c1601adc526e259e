"""Ratings, leaderboards, stats and challenges: what the store keeps about players across games."""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import games

from .database import Database, Row, Transaction
from .ratings import DEFAULT_MU, DEFAULT_SIGMA, Rating, challenge_key, human_ranks, rate, streak, week_streak
from .records import DEFAULT_GAME

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


# Board steps (see migration 0008): a board's players counted per coarse step `a` and per fine step `b` inside it,
# so that a page or a rank is found by adding up a few hundred counts instead of walking up to every player.
DAY = 86400  # the fine step of the best-score boards: the UTC day of a player's first game
RATING_STEPS = 64  # fine steps per point of mu - 3 sigma (a power of two: the step bounds are exact floats)
_STEPPED = ("rating", "wins", "best", "solo")
_FINE_ASCENDING = ("best", "solo")  # the fine step follows first_at, which sorts ascending


def board_step(board: str, first: float, second: float) -> tuple[int, int]:
    """The (coarse, fine) step of a board row: (wins, games) on `wins`, (best, first_at) on `best` and `solo`,
    (mu, sigma) on `rating`."""
    if board == "wins":
        return int(first), int(second)
    if board in _FINE_ASCENDING:
        return int(first), int(second) // DAY
    display = first - 3 * second  # as the SQL orders it: mu - 3 * sigma
    return math.floor(display), math.floor(display * RATING_STEPS)


def _from_step(board: str, a: int, b: int) -> list[tuple[str, tuple[Any, ...]]]:
    """Conditions that select, one after the other in board order, the rows from the start of step (a, b) on."""
    if board == "wins":
        return [("wins = ? AND games <= ?", (a, b)), ("wins < ?", (a,))]
    if board in _FINE_ASCENDING:
        return [("best = ? AND first_at >= ?", (a, b * DAY)), ("best < ?", (a,))]
    return [("mu - 3 * sigma < ?", ((b + 1) / RATING_STEPS,))]


def _ahead_in_step(board: str, a: int, b: int, keys: Sequence[Any], user_id: int) -> list[tuple[str, tuple[Any, ...]]]:
    """Conditions that count the rows of step (a, b) ahead of the one with these sort keys."""
    if board == "wins":
        first_at = keys[2]
        return [
            ("wins = ? AND games = ? AND first_at < ?", (a, b, first_at)),
            ("wins = ? AND games = ? AND first_at = ? AND user_id < ?", (a, b, first_at, user_id)),
        ]
    if board in _FINE_ASCENDING:
        first_at = keys[1]
        return [
            ("best = ? AND first_at >= ? AND first_at < ?", (a, b * DAY, first_at)),
            ("best = ? AND first_at = ? AND user_id < ?", (a, first_at, user_id)),
        ]
    display = keys[0]
    return [
        ("mu - 3 * sigma > ? AND mu - 3 * sigma < ?", (display, (b + 1) / RATING_STEPS)),
        ("mu - 3 * sigma = ? AND user_id < ?", (display, user_id)),
    ]


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


def _totals_keys(board: str, totals: tuple[Any, ...]) -> tuple[float, float]:
    """The values a board's step is made of, from (games, wins, best, first_at) of `player_totals`."""
    games, wins, best, first_at = totals
    return (wins, games) if board == "wins" else (best, first_at)


def _step(steps: dict[tuple[Any, ...], int], scope: str, board: str, values: tuple[float, float], n: int) -> None:
    """Count `n` more players (or fewer) at the coarse and fine step of a row with these values."""
    a, b = board_step(board, *values)
    for key in ((scope, board, 0, a, 0), (scope, board, 1, a, b)):
        steps[key] = steps.get(key, 0) + n


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One line of a leaderboard."""

    rank: int
    user_id: int
    value: float
    games: int
    provisional: bool = False


@dataclass(frozen=True, slots=True)
class Endings:
    """How a player's games ended for them, solo and challenges included: played to the end, resigned, or timed out
    (the AI took the seat over after turns ran out). Games cancelled before their end are not counted."""

    finished: int = 0
    resigned: int = 0
    timed_out: int = 0

    @property
    def played(self) -> int:
        return self.finished + self.resigned + self.timed_out

    @property
    def finish_rate(self) -> float | None:
        """The share of games played to the end (0 to 1); None before any game has ended."""
        return self.finished / self.played if self.played else None


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
    endings: Endings = field(default_factory=Endings)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One score item (a game's `stat_keys`, or `total`) over a player's finished games: its average and best."""

    average: float
    best: int


def score_items(rows: Sequence[Row], keys: Sequence[str] | None = None) -> dict[str, ScoreItem]:
    """The average and best of each score item over these results rows (their `total` and score `details`): the
    items `keys` names (an item a game did not score counts 0; `total` is the row's total), or else every item the
    details hold, in the order they first appear. Empty when there is no row."""
    scores = [{**json.loads(r["details"]), "total": r["total"]} for r in rows]
    if not scores:
        return {}
    if keys is None:
        keys = list(dict.fromkeys(item for score in scores for item in score if item != "total"))
    return {
        key: ScoreItem(sum(s.get(key, 0) for s in scores) / len(scores), max(s.get(key, 0) for s in scores))
        for key in keys
    }


def score_history(rows: Sequence[Row]) -> list[tuple[float, int]]:
    """(UNIX time, total) of each of these results rows, in their order: a player's score history."""
    return [(r["finished_at"], r["total"]) for r in rows]


def endings_of(rows: Sequence[Row]) -> Endings:
    """How the games of these results rows (their `ai` and `resigned`) ended for the player: see `Endings`."""
    return Endings(
        finished=sum(not r["ai"] and not r["resigned"] for r in rows),
        resigned=sum(bool(r["resigned"]) for r in rows),
        timed_out=sum(bool(r["ai"]) and not r["resigned"] for r in rows),
    )


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    """A player's attempts at one kind of a game's challenge (daily or weekly): how many were started, finished
    and won (beating the game's own opponent), the best score, and the run of days (weeks) played up to now."""

    attempts: int = 0
    finished: int = 0
    won: int = 0
    best: int | None = None
    streak: int = 0


@dataclass(frozen=True, slots=True)
class GameStats:
    """A player's record at one game, everywhere: finished games (with others, solo and challenges), wins, each
    score item's average and best, the game's ratings (the world's, and a server's), its challenges by kind, and the
    player's favourite (`GameModule.favourite_of`; None for a game that keeps none, or before one is counted), the
    score history: (UNIX time, total) of each finished game, oldest first, and how those games ended for the player
    (`Endings`)."""

    games: int
    wins: int
    solo_games: int
    items: dict[str, ScoreItem]
    world: Rating
    server: Rating | None
    challenges: dict[str, ChallengeRecord]
    favourite: str | None = None
    history: list[tuple[float, int]] = field(default_factory=list)
    endings: Endings = field(default_factory=Endings)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def empty(self) -> bool:
        """Nothing to show: no finished game and no challenge attempt."""
        return not self.games and not any(c.attempts for c in self.challenges.values())


def scope_of(guild_id: int | None, game: str = DEFAULT_GAME) -> str:
    """Where a game's ratings, totals and boards are kept: the world ('kokeshi:global' when `guild_id` is None) or
    one server ('kokeshi:guild:<id>'). The game's key leads, so that two games never share a board."""
    return f"{game}:global" if guild_id is None else f"{game}:guild:{guild_id}"


def scopes_of(guild_id: int | None, game: str = DEFAULT_GAME) -> tuple[str, ...]:
    """The scopes a game played in this server (or outside any) counts in: the world's, and the server's."""
    return (scope_of(None, game),) if guild_id is None else (scope_of(None, game), scope_of(guild_id, game))


_Row = TypeVar("_Row")


def found(row: _Row | None) -> _Row:
    """The row of a query that always has one: an aggregate, a PRAGMA, a RETURNING, or the row of a game whose
    lock is held."""
    if row is None:
        raise LookupError("the database gave no row where there always is one")
    return row


class CommunityStore:
    """Mixed into `Store`; runs its statements through the store's database."""

    database: Database

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:  # provided by Store
        raise NotImplementedError

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:  # provided by Store
        raise NotImplementedError

    async def _run(self, db: Transaction, sql: str, params: Sequence[Any] = ()) -> int:  # provided by Store
        raise NotImplementedError

    def _tx(self, *, durable: bool = True) -> AbstractAsyncContextManager[Transaction]:  # provided by Store
        raise NotImplementedError

    async def _run_many(  # provided by Store
        self, db: Transaction, sql: str, rows: Sequence[Sequence[Any]]
    ) -> None:
        raise NotImplementedError

    async def _add_totals(
        self,
        db: Transaction,
        guild_id: int | None,
        solo: bool,
        rows: Sequence[Sequence[Any]],
        game: str = DEFAULT_GAME,
    ) -> None:
        """Fold a finished game's results rows (game_id, seat, name, user_id, ai, resigned, rank, total, …,
        finished_at) into the leaderboard totals and steps, in the game's transaction."""
        scopes = scopes_of(guild_id, game)
        boards = ("solo",) if solo else ("wins", "best")
        steps: dict[tuple[Any, ...], int] = {}
        for row in rows:
            user_id, rank, total, at = row[3], row[6], row[7], row[-1]
            if user_id is None:
                continue
            for scope in scopes:
                key = (scope, int(solo), user_id)
                old = await self._one(
                    "SELECT games, wins, best, first_at FROM player_totals "
                    "WHERE scope = ? AND solo = ? AND user_id = ?",
                    key,
                )
                if old is None:
                    new = (1, int(rank == 1), total, at)
                    await self._run(
                        db,
                        "INSERT INTO player_totals (scope, solo, user_id, games, wins, best, first_at) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (*key, *new),
                    )
                    await self._count_players(db, scope, "solo" if solo else "multi", 1)
                else:
                    new = (old[0] + 1, old[1] + int(rank == 1), max(old[2], total), min(old[3], at))
                    await self._run(
                        db,
                        "UPDATE player_totals SET games = ?, wins = ?, best = ?, first_at = ? "
                        "WHERE scope = ? AND solo = ? AND user_id = ?",
                        (*new, *key),
                    )
                for board in boards:
                    _step(steps, scope, board, _totals_keys(board, new), 1)
                    if old is not None:
                        _step(steps, scope, board, _totals_keys(board, tuple(old)), -1)
        await self._shift_steps(db, steps)

    async def recount_board_steps(self) -> None:
        """Count the board steps again from the totals and ratings, in one transaction (after a bulk load)."""
        floor = self.database.floor
        display = "mu - 3 * sigma"
        day = f"{floor('first_at')} / {DAY}"
        best = "CASE solo WHEN 1 THEN 'solo' ELSE 'best' END"
        counts = (
            ("'wins'", "0", "wins", "0", "FROM player_totals WHERE solo = 0", "scope, wins"),
            ("'wins'", "1", "wins", "games", "FROM player_totals WHERE solo = 0", "scope, wins, games"),
            (best, "0", "best", "0", "FROM player_totals", f"scope, {best}, best"),
            (best, "1", "best", day, "FROM player_totals", f"scope, {best}, best, {day}"),
            ("'rating'", "0", floor(display), "0", "FROM ratings", f"scope, {floor(display)}"),
            (
                "'rating'",
                "1",
                floor(display),
                floor(f"({display}) * {RATING_STEPS}"),
                "FROM ratings",
                f"scope, {floor(display)}, {floor(f'({display}) * {RATING_STEPS}')}",
            ),
        )
        async with self._tx() as db:
            await self._run(db, "DELETE FROM board_steps")
            for board, fine, a, b, source, group in counts:
                await self._run(
                    db,
                    "INSERT INTO board_steps (scope, board, fine, a, b, players) "
                    f"SELECT scope, {board}, {fine}, {a}, {b}, COUNT(*) {source} GROUP BY {group}",
                )

    async def _shift_steps(self, db: Transaction, steps: dict[tuple[Any, ...], int]) -> None:
        """Add these changes to the board steps ((scope, board, fine, a, b) -> players); drop emptied steps."""
        changed = sorted((*key, n) for key, n in steps.items() if n)
        await self._run_many(
            db,
            "INSERT INTO board_steps (scope, board, fine, a, b, players) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (scope, board, fine, a, b) DO UPDATE SET players = board_steps.players + excluded.players",
            changed,
        )
        await self._run_many(
            db,
            "DELETE FROM board_steps WHERE scope = ? AND board = ? AND fine = ? AND a = ? AND b = ? AND players <= 0",
            [row[:5] for row in changed if row[5] < 0],
        )

    async def _count_players(self, db: Transaction, scope: str, board: str, added: int) -> None:
        """Keep the number of players on a board (rating, multi, solo) with the rows, for page footers."""
        await self._run(
            db,
            "INSERT INTO board_counts (scope, board, players) VALUES (?, ?, ?) "
            "ON CONFLICT (scope, board) DO UPDATE SET players = board_counts.players + excluded.players",
            (scope, board, added),
        )

    async def _add_favourites(
        self,
        db: Transaction,
        guild_id: int | None,
        chosen: Sequence[tuple[int | None, str]],
        game: str = DEFAULT_GAME,
    ) -> None:
        """Count, for a finished game, the items each person's own decisions ((user_id, action), a computer's left
        out by the caller) count towards their favourite (`GameModule.favourite_of`), in the game's scopes."""
        module = games.get(game)
        counts: dict[tuple[int, str], int] = {}
        for user_id, action in chosen:
            item = module.favourite_of(action) if user_id is not None else None
            if user_id is not None and item is not None:
                counts[user_id, item] = counts.get((user_id, item), 0) + 1
        await self._run_many(
            db,
            "INSERT INTO favourites (scope, user_id, item, times) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (scope, user_id, item) DO UPDATE SET times = favourites.times + excluded.times",
            [
                (scope, user_id, item, n)
                for (user_id, item), n in sorted(counts.items())
                for scope in scopes_of(guild_id, game)
            ],
        )

    async def _favourite(self, user_id: int, scope: str, game: str) -> str | None:
        """A player's favourite at a game in one scope (`GameModule.favourite`), or None before any is counted."""
        rows = await self._all("SELECT item, times FROM favourites WHERE scope = ? AND user_id = ?", (scope, user_id))
        if not rows:
            return None
        counts = {str(r["item"]): int(r["times"]) for r in rows}
        try:
            return games.get(game).favourite(counts)
        except KeyError:  # a game no longer known: its items by name
            return min((-n, item) for item, n in counts.items())[1]

    # ------------------------------------------------------------------ written when a game ends

    async def _rate_finished(
        self, db: Transaction, game_id: int, guild_id: int | None, now: float, game: str = DEFAULT_GAME
    ) -> None:
        rows = await self._all(
            "SELECT user_id, rank, resigned FROM results WHERE game_id = ? AND user_id IS NOT NULL", (game_id,)
        )
        ranked = human_ranks([(r["user_id"], r["rank"], bool(r["resigned"])) for r in rows])
        if len(ranked) < 2:
            return
        for scope in scopes_of(guild_id, game):
            before = {r.user_id: r for r in await self.ratings(scope, [uid for uid, _ in ranked])}
            players = [(before.get(uid, Rating(uid)), rank) for uid, rank in ranked]
            newcomers = sum(uid not in before for uid, _ in ranked)
            if newcomers:
                await self._count_players(db, scope, "rating", newcomers)
            steps: dict[tuple[Any, ...], int] = {}
            for (old, _), new in zip(players, rate(players), strict=True):
                _step(steps, scope, "rating", (new.mu, new.sigma), 1)
                if old.user_id in before:
                    _step(steps, scope, "rating", (old.mu, old.sigma), -1)
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
            await self._shift_steps(db, steps)

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

    def _board_query(
        self, board: str, guild_id: int | None, key: str | None, game: str
    ) -> tuple[str, str, tuple[Any, ...], str]:
        """(select list, from-and-where, parameters, order) of a board; rows are (user_id, value, games, …)."""
        scope = scope_of(guild_id, game)
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
                "FROM challenge_attempts WHERE game = ? AND kind = ? AND key = ? AND rated = 1 AND score IS NOT NULL"
                f"{where}",
                (game, board, key) if guild_id is None else (game, board, key, guild_id),
                "score DESC, finished_at, user_id",
            )
        raise ValueError(f"unknown leaderboard {board!r}; one of {', '.join(BOARDS)}")

    @staticmethod
    def _board_row(board: str, rank: int, r: Row) -> BoardRow:
        if board == "rating":
            rating = Rating(r["user_id"], r["mu"], r["sigma"], r["games"])
            return BoardRow(rank, rating.user_id, rating.display, rating.games, rating.provisional)
        return BoardRow(rank, r["user_id"], r["value"], r["games"])

    async def leaderboard_page(
        self,
        board: str,
        guild_id: int | None,
        key: str | None = None,
        *,
        page: int = 0,
        size: int = 10,
        game: str = DEFAULT_GAME,
    ) -> tuple[list[BoardRow], int]:
        """One page of a game's board (`page` counts from 0) and how many players the board has."""
        columns, source, params, order = self._board_query(board, guild_id, key, game)
        scope = scope_of(guild_id, game)
        if board in _STEPPED:
            kept = "rating" if board == "rating" else "solo" if board == "solo" else "multi"
            counted = await self._one("SELECT players FROM board_counts WHERE scope = ? AND board = ?", (scope, kept))
            total = counted[0] if counted else 0
        else:
            total = found(await self._one(f"SELECT COUNT(*) {source}", params))[0]
        page = min(max(page, 0), max(0, (total - 1) // size))
        start = await self._locate(board, scope, page * size) if board in _STEPPED else None
        if start is None:  # a challenge board (one day's or week's players): walked from the top
            rows = await self._all(
                f"SELECT {columns} {source} ORDER BY {order} LIMIT ? OFFSET ?", (*params, size, page * size)
            )
        else:
            a, b, skip = start
            rows = []
            for condition, extra in _from_step(board, a, b):
                rows += await self._all(
                    f"SELECT {columns} {source} AND {condition} ORDER BY {order} LIMIT ? OFFSET ?",
                    (*params, *extra, size - len(rows), skip),
                )
                skip = 0
                if len(rows) >= size:
                    break
        return [self._board_row(board, page * size + i, r) for i, r in enumerate(rows, start=1)], total

    async def _locate(self, board: str, scope: str, offset: int) -> tuple[int, int, int] | None:
        """The step (a, b) holding the board's row number `offset` (from 0), and how many rows of it come first."""
        coarse = await self._all(
            "SELECT a, players FROM board_steps WHERE scope = ? AND board = ? AND fine = 0 ORDER BY a DESC",
            (scope, board),
        )
        seen = 0
        for step in coarse:
            if seen + step["players"] <= offset:
                seen += step["players"]
                continue
            fine = await self._all(
                "SELECT b, players FROM board_steps WHERE scope = ? AND board = ? AND fine = 1 AND a = ? "
                f"ORDER BY b {'ASC' if board in _FINE_ASCENDING else 'DESC'}",
                (scope, board, step["a"]),
            )
            for inner in fine:
                if seen + inner["players"] > offset:
                    return step["a"], inner["b"], offset - seen
                seen += inner["players"]
            break
        return None

    async def leaderboard_entry(
        self, board: str, guild_id: int | None, user_id: int, key: str | None = None, *, game: str = DEFAULT_GAME
    ) -> BoardRow | None:
        """A player's own line of a game's board, with its rank, if they are on it."""
        columns, source, params, order = self._board_query(board, guild_id, key, game)
        order_by = _ORDER[board]
        keys = ", ".join(f"{column} AS k{i}" for i, (column, _) in enumerate(order_by))
        mine = await self._one(f"SELECT {columns}, {keys} {source} AND user_id = ?", (*params, user_id))
        if mine is None:
            return None
        values = [mine[f"k{i}"] for i in range(len(order_by))]
        if board not in _STEPPED:
            sql, extra = _ahead(source, order_by, values)
            ahead = found(await self._one(sql, [value for part in extra for value in (*params, *part)]))[0]
            return self._board_row(board, ahead + 1, mine)
        # Whole steps ahead from their counts; inside the player's own step, the rows ahead counted.
        scope = scope_of(guild_id, game)
        if board == "rating":
            a, b = board_step(board, mine["mu"], mine["sigma"])
        else:
            a, b = board_step(board, values[0], values[1])  # (wins, games) or (best, first_at)
        finer = "<" if board in _FINE_ASCENDING else ">"
        parts = [
            "(SELECT COALESCE(SUM(players), 0) FROM board_steps WHERE scope = ? AND board = ? AND fine = 0 AND a > ?)",
            "(SELECT COALESCE(SUM(players), 0) FROM board_steps WHERE scope = ? AND board = ? AND fine = 1 AND a = ? "
            f"AND b {finer} ?)",
        ]
        sql_params: list[Any] = [scope, board, a, scope, board, a, b]
        for condition, more in _ahead_in_step(board, a, b, values, user_id):
            parts.append(f"(SELECT COUNT(*) {source} AND {condition})")
            sql_params += [*params, *more]
        ahead = found(await self._one("SELECT " + " + ".join(parts), sql_params))[0]
        return self._board_row(board, ahead + 1, mine)

    async def leaderboard(
        self, board: str, guild_id: int | None, key: str | None = None, *, game: str = DEFAULT_GAME
    ) -> list[BoardRow]:
        """Every ranked row of a game's board; `guild_id` None means the whole world. `key` picks the challenge."""
        columns, source, params, order = self._board_query(board, guild_id, key, game)
        rows = await self._all(f"SELECT {columns} {source} ORDER BY {order}", params)
        return [self._board_row(board, i, r) for i, r in enumerate(rows, start=1)]

    # ------------------------------------------------------------------ challenges

    async def challenge_attempts(self, user_id: int, kind: str, key: str, *, game: str = DEFAULT_GAME) -> list[Row]:
        """A user's attempts at one of a game's challenges, oldest first."""
        return await self._all(
            "SELECT * FROM challenge_attempts WHERE user_id = ? AND game = ? AND kind = ? AND key = ? "
            "ORDER BY started_at, game_id",
            (user_id, game, kind, key),
        )

    async def streak(self, user_id: int, today: dt.date, *, game: str = DEFAULT_GAME) -> int:
        """Consecutive UTC days on which the user played a game's daily challenge."""
        rows = await self._all(
            "SELECT DISTINCT key FROM challenge_attempts WHERE user_id = ? AND game = ? AND kind = 'daily'",
            (user_id, game),
        )
        return streak([r["key"] for r in rows], today)

    async def week_streak(self, user_id: int, week: str, *, game: str = DEFAULT_GAME) -> int:
        """Consecutive ISO weeks in which the user played a game's weekly challenge, up to `week`."""
        rows = await self._all(
            "SELECT DISTINCT key FROM challenge_attempts WHERE user_id = ? AND game = ? AND kind = 'weekly'",
            (user_id, game),
        )
        return week_streak([r["key"] for r in rows], week)

    async def server_streak(self, guild_id: int, day: dt.date, *, game: str = DEFAULT_GAME) -> int:
        """Consecutive UTC days, ending on `day`, on which someone in the server played a game's daily challenge
        (0 when nobody played on `day`)."""
        rows = await self._all(
            "SELECT DISTINCT key FROM challenge_attempts WHERE guild_id = ? AND game = ? AND kind = 'daily'",
            (guild_id, game),
        )
        keys = [r["key"] for r in rows]
        return streak(keys, day) if day.isoformat() in keys else 0

    async def daily_posted(self, guild_id: int, day: str, *, game: str = DEFAULT_GAME) -> bool:
        """Whether a game's daily results of `day` were posted in the server."""
        rows = await self._all(
            "SELECT 1 FROM daily_posts WHERE guild_id = ? AND game = ? AND day = ?", (guild_id, game, day)
        )
        return bool(rows)

    async def mark_daily_posted(
        self, guild_id: int, day: str, channel_id: int, now: float, *, game: str = DEFAULT_GAME
    ) -> None:
        """Record that a game's daily results of `day` were posted in the server (once: a second record is a no-op)."""
        async with self._tx() as db:
            await self._run(
                db,
                "INSERT INTO daily_posts (guild_id, game, day, channel_id, posted_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (guild_id, game, day, channel_id, now),
            )

    async def guilds_with_setting(self, key: str) -> list[tuple[int, str]]:
        rows = await self._all("SELECT guild_id, value FROM guild_settings WHERE key = ?", (key,))
        return [(r["guild_id"], r["value"]) for r in rows]

    # ------------------------------------------------------------------ stats

    async def _finished_rows(self, user_id: int, guild_id: int | None, game: str) -> list[Row]:
        """A player's results rows at one game, in one server (or everywhere), oldest first, with whether each game
        was solo."""
        where = "" if guild_id is None else " AND g.guild_id = ?"
        params: tuple[Any, ...] = (user_id, game) if guild_id is None else (user_id, game, guild_id)
        return await self._all(
            "SELECT r.total, r.rank, r.details, r.finished_at, r.ai, r.resigned, g.solo "
            "FROM results r JOIN games g ON g.id = r.game_id "
            f"WHERE r.user_id = ? AND g.game = ?{where} ORDER BY r.finished_at, r.game_id",
            params,
        )

    async def stats(self, user_id: int, guild_id: int | None = None, *, game: str = DEFAULT_GAME) -> Stats:
        """A player's record at one game, in one server (or everywhere)."""
        rows = await self._finished_rows(user_id, guild_id, game)
        multi = [r for r in rows if not r["solo"]]
        solo = [r for r in rows if r["solo"]]
        # The average of each score item the game counts, over the games played with others.
        breakdown = {item: figures.average for item, figures in score_items(multi).items()}
        favourite = await self._favourite(user_id, scope_of(guild_id, game), game)
        return Stats(
            games=len(multi),
            wins=sum(r["rank"] == 1 for r in multi),
            average=sum(r["total"] for r in multi) / len(multi) if multi else 0.0,
            best=max((r["total"] for r in multi), default=0),
            breakdown=breakdown,
            favourite=favourite,
            history=score_history(rows),
            solo_games=len(solo),
            solo_wins=sum(r["rank"] == 1 for r in solo),
            solo_best=max((r["total"] for r in solo), default=0),
            endings=endings_of(rows),
        )

    async def game_stats(
        self, user_id: int, keys: Sequence[str], now: dt.datetime, *, game: str, guild_id: int | None = None
    ) -> GameStats:
        """A player's record at one game, everywhere (see `GameStats`): the average and best of each score item
        `keys` names, over every finished game (solo and challenges included); the server's rating too when
        `guild_id` is given; the challenges' streaks as they stand at `now`; the favourite, everywhere."""
        rows = await self._finished_rows(user_id, None, game)
        attempts = await self._all(
            "SELECT kind, key, score, won FROM challenge_attempts WHERE user_id = ? AND game = ?", (user_id, game)
        )
        challenges = {}
        for kind in ("daily", "weekly"):
            mine = [a for a in attempts if a["kind"] == kind]
            scores = [a["score"] for a in mine if a["score"] is not None]
            played = [a["key"] for a in mine]
            if kind == "daily":
                run = streak(played, dt.date.fromisoformat(challenge_key(kind, now)))
            else:
                run = week_streak(played, challenge_key(kind, now))
            challenges[kind] = ChallengeRecord(
                attempts=len(mine),
                finished=len(scores),
                won=sum(bool(a["won"]) for a in mine if a["score"] is not None),
                best=max(scores, default=None),
                streak=run,
            )
        return GameStats(
            games=len(rows),
            wins=sum(r["rank"] == 1 for r in rows),
            solo_games=sum(bool(r["solo"]) for r in rows),
            items=score_items(rows, keys),
            world=await self.rating(scope_of(None, game), user_id),
            server=await self.rating(scope_of(guild_id, game), user_id) if guild_id is not None else None,
            challenges=challenges,
            favourite=await self._favourite(user_id, scope_of(None, game), game),
            history=score_history(rows),
            endings=endings_of(rows),
        )

    async def endings(self, user_id: int, *, game: str = DEFAULT_GAME) -> Endings:
        """How a player's games of this key ended for them, everywhere (see `Endings`)."""
        row = found(
            await self._one(
                "SELECT COALESCE(SUM(CASE WHEN r.ai = 0 AND r.resigned = 0 THEN 1 ELSE 0 END), 0) AS finished, "
                "COALESCE(SUM(CASE WHEN r.resigned = 1 THEN 1 ELSE 0 END), 0) AS resigned, "
                "COALESCE(SUM(CASE WHEN r.ai = 1 AND r.resigned = 0 THEN 1 ELSE 0 END), 0) AS timed_out "
                "FROM results r JOIN games g ON g.id = r.game_id WHERE r.user_id = ? AND g.game = ?",
                (user_id, game),
            )
        )
        return Endings(int(row["finished"]), int(row["resigned"]), int(row["timed_out"]))

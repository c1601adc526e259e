"""The store: games as (rules version, options, seed, seats, append-only action log), snapshots as a cache.

It runs its SQL on a `Database` (`database.py`): a SQLite file or a PostgreSQL server, as `open_store` picks.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from kit.locks import KeyedLocks

from .away import QUIET, TURN_TIMERS, AwayStore
from .clock import ClockStore
from .community import CommunityStore, found
from .database import Database, Row, Transaction
from .logs import pack_log, unpack_log
from .matches import MatchStore, contract_module, lobby_settings
from .notices import DIGEST, MUTED, NoticeStore
from .ratings import CHALLENGE_SIDES, challenge_seed
from .records import (
    DEFAULT_GAME,
    BrokenGame,
    GameNotFound,
    GameReach,
    GameRecord,
    Glance,
    Result,
    Seat,
    StoreRefusal,
    ThreadPosts,
    Timer,
    TurnPosts,
)

log = logging.getLogger(__name__)

# A person's settings that decide how their turn pings them (`Store.ping_settings`).
PING_SETTINGS = ("notify", "language", QUIET, MUTED, DIGEST)
NAME_LIMIT = 32
# The seed is kept as decimal text (128-bit seeds); games dealt before migration 0004 have only the INTEGER column.
_SEED = "COALESCE(seed_text, CAST(seed AS TEXT)) AS seed"
_STARTED = "(seed_text IS NOT NULL OR seed IS NOT NULL)"
_GAME_COLUMNS = (
    f"id, guild_id, channel_id, thread_id, host_id, status, players, side, solo, turn_timer, {_SEED}, version, "
    "moves, broken_reason, created_at, updated_at, finished_at, challenge, language, game, settings, log_seats"
)


def clean_name(name: str, taken: Iterable[str] = (), unseated: Iterable[str] = ()) -> str:
    """A seat's name: trimmed, at most 32 characters, unique among `taken`, never one of the game's `unseated`
    names (`GameModule.unseated_names`: an opponent that holds no seat, such as Kokeshi's automa)."""
    base = " ".join(str(name).split())[:NAME_LIMIT] or "Player"
    if base in set(unseated):
        base = f"{base.capitalize()} player"
    taken = set(taken)
    candidate, n = base, 2
    while candidate in taken:
        suffix = f" ({n})"
        candidate = base[: NAME_LIMIT - len(suffix)] + suffix
        n += 1
    return candidate


# What a timer row can be: a turn's reminders and deadline, or a thread to post again.
TIMER_KINDS = (*TURN_TIMERS, "repost")


class Store(CommunityStore, AwayStore, NoticeStore, ClockStore, MatchStore):
    """All persistent state of the bot, on one database. Open it with `await open_store(path or postgresql:// URL)`."""

    def __init__(
        self,
        database: Database,
        clock: Callable[[], float] = time.time,
        *,
        challenge_secret: str | None = None,
    ) -> None:
        self.database = database
        self.path = database.name
        self.readonly = database.readonly
        self._clock = clock
        self._secret_setting = challenge_secret or None
        self._challenge_secret = b""
        self._game_locks: KeyedLocks[int] = KeyedLocks()  # changes to one game, in this process
        self._init_matches()  # games held in memory (`MatchStore`)

    async def load_secret(self) -> None:
        """Read the key challenge seeds are derived from: the setting if given, else one made on first start."""
        if self._secret_setting:
            self._challenge_secret = self._secret_setting.encode()
            return
        if not self.readonly:
            async with self._tx() as db:
                await self._run(
                    db,
                    "INSERT INTO meta (key, value) VALUES ('challenge_secret', ?) ON CONFLICT DO NOTHING",
                    (secrets.token_hex(32),),
                )
        row = await self._one("SELECT value FROM meta WHERE key = 'challenge_secret'")
        self._challenge_secret = row["value"].encode() if row else b""

    async def close(self) -> None:
        """Close the database once a write transaction under way has committed; the store cannot be used
        afterwards."""
        await self.database.close()

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        return await self.database.schema_version()

    # ------------------------------------------------------------------ statements, through the database

    def _tx(self, *, durable: bool = True) -> AbstractAsyncContextManager[Transaction]:
        """One write transaction at a time; reads inside it see its changes (see `Database.transaction`)."""
        return self.database.transaction(durable=durable)

    async def _run(self, db: Transaction, sql: str, params: Sequence[Any] = ()) -> int:
        """Execute one statement in the transaction; returns the row count."""
        return await db.execute(sql, params)

    async def _run_many(self, db: Transaction, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await db.execute_many(sql, rows)

    async def _one_on(self, db: Transaction, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await db.fetch_one(sql, params)

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.database.fetch_one(sql, params)

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self.database.fetch_all(sql, params)

    @asynccontextmanager
    async def _game_lock(self, game_id: int) -> AsyncIterator[None]:
        """Serialise changes to one game in this process; the entry goes once nobody holds or awaits it."""
        async with self._game_locks(game_id):
            # Holding the game, read it where it is written: its rows change only under this lock.
            with self.database.reads_on_writer():
                yield

    # ------------------------------------------------------------------ records

    async def _records(self, where: str, params: Sequence[Any] = (), tail: str = "") -> list[GameRecord]:
        rows = await self._all(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} {tail}", params)
        if not rows:
            return []
        ids = [r["id"] for r in rows]
        marks = ",".join("?" * len(ids))
        seats: dict[int, list[Seat]] = {i: [] for i in ids}
        for s in await self._all(f"SELECT * FROM seats WHERE game_id IN ({marks}) ORDER BY game_id, seat", ids):
            seats[s["game_id"]].append(
                Seat(
                    s["seat"],
                    s["name"],
                    s["user_id"],
                    bool(s["ai"]),
                    s["expired"],
                    bool(s["resigned"]),
                    s["ai_level"],
                )
            )
        return [
            GameRecord(
                r["id"],
                r["guild_id"],
                r["channel_id"],
                r["thread_id"],
                r["host_id"],
                r["status"],
                r["players"],
                r["side"],
                bool(r["solo"]),
                r["turn_timer"],
                None if r["seed"] is None else int(r["seed"]),
                r["version"],
                r["moves"],
                r["broken_reason"],
                r["created_at"],
                r["updated_at"],
                r["finished_at"],
                tuple(seats[r["id"]]),
                r["challenge"],
                r["language"],
                r["game"],
                json.loads(r["settings"]),
                bool(r["log_seats"]),
            )
            for r in rows
        ]

    async def get_game(self, game_id: int) -> GameRecord:
        """The record of one game; GameNotFound if there is none."""
        found = await self._records("id = ?", (game_id,))
        if not found:
            raise GameNotFound(f"there is no game {game_id}")
        return found[0]

    async def game_by_thread(self, thread_id: int) -> GameRecord | None:
        """The game played in this thread, if any."""
        found = await self._records("thread_id = ?", (thread_id,), "ORDER BY id DESC LIMIT 1")
        return found[0] if found else None

    async def games_in_channel(
        self, channel_id: int, statuses: Sequence[str] = ("lobby", "active")
    ) -> list[GameRecord]:
        """Games created in a channel (or played in a thread of it) with one of these statuses."""
        marks = ",".join("?" * len(statuses))
        return await self._records(
            f"(channel_id = ? OR thread_id = ?) AND status IN ({marks})",
            (channel_id, channel_id, *statuses),
            "ORDER BY id",
        )

    async def games_for_user(self, user_id: int, statuses: Sequence[str] = ("lobby", "active")) -> list[GameRecord]:
        """Games in which this user holds a seat."""
        marks = ",".join("?" * len(statuses))
        return await self._records(
            f"id IN (SELECT game_id FROM seats WHERE user_id = ?) AND status IN ({marks})",
            (user_id, *statuses),
            "ORDER BY id",
        )

    async def glances(self, user_id: int, statuses: Sequence[str] = ("lobby", "active")) -> list[Glance]:
        """Every game of any kind in which this user holds a seat, at a glance (`Glance`): who each waits for, its
        turn deadline, its live prompt and whether it is unreachable, read together. A game that cannot be loaded
        waits for nobody here."""
        records = await self.games_for_user(user_id, statuses)
        if not records:
            return []
        ids = [r.id for r in records]
        marks = ",".join("?" * len(ids))
        deadlines = {
            r["game_id"]: float(r["due_at"])
            for r in await self._all(
                f"SELECT game_id, due_at FROM timers WHERE kind = 'deadline' AND game_id IN ({marks})", ids
            )
        }
        prompts = {
            r["game_id"]: (int(r["channel_id"]), int(r["message_id"]))
            for r in await self._all(
                f"SELECT game_id, channel_id, message_id FROM messages WHERE kind = 'prompt' AND game_id IN ({marks})",
                ids,
            )
        }
        unreachable = {
            r["game_id"]: float(r["unreachable_at"])
            for r in await self._all(
                f"SELECT game_id, unreachable_at FROM turn_posts WHERE unreachable_at IS NOT NULL "
                f"AND refused_since IS NOT NULL AND game_id IN ({marks})",
                ids,
            )
        }
        found_: list[Glance] = []
        for record in records:
            waiting: tuple[int, ...] = ()
            if record.status == "active":
                try:
                    async with self._game_lock(record.id):
                        waiting = await self._waiting_users(record.id)
                except (StoreRefusal, GameNotFound):
                    log.warning("game %d: cannot say whom it waits for", record.id)
            found_.append(
                Glance(record, waiting, deadlines.get(record.id), prompts.get(record.id), unreachable.get(record.id))
            )
        return found_

    async def ping_settings(self, user_ids: Iterable[int]) -> dict[int, dict[str, str]]:
        """The settings about pings (DMs, language, quiet hours, muted games, the daily digest) of these people, by
        user id, in one read: what a turn's post and its DMs need of the people it asks."""
        return await self._ping_settings(user_ids)

    async def _ping_settings(self, user_ids: Iterable[int]) -> dict[int, dict[str, str]]:
        ids = sorted(set(user_ids))
        out: dict[int, dict[str, str]] = {user_id: {} for user_id in ids}
        if not ids:
            return out
        keys = PING_SETTINGS
        rows = await self._all(
            f"SELECT user_id, key, value FROM user_settings WHERE user_id IN ({', '.join('?' * len(ids))}) "
            f"AND key IN ({', '.join('?' * len(keys))})",
            (*ids, *keys),
        )
        for r in rows:
            out[int(r["user_id"])][r["key"]] = r["value"]
        return out

    async def open_lobbies(self, guild_id: int | None = None) -> list[GameRecord]:
        """Lobbies waiting for players, in one guild or everywhere."""
        if guild_id is None:
            return await self._records("status = 'lobby'", (), "ORDER BY id")
        return await self._records("status = 'lobby' AND guild_id = ?", (guild_id,), "ORDER BY id")

    async def active_games(self) -> list[GameRecord]:
        """Every game being played."""
        return await self._records("status = 'active'", (), "ORDER BY id")

    # ------------------------------------------------------------------ lobby

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        host_id: int,
        host_name: str,
        players: int,
        side: str = "basic",
        solo: bool = False,
        turn_timer: int | None = 24 * 3600,
        ai_seats: int = 0,
        thread_id: int | None = None,
        challenge: str | None = None,
        language: str | None = None,
        ai_level: str | None = None,
        game: str = DEFAULT_GAME,
        settings: Mapping[str, Any] | None = None,
    ) -> int:
        """A new lobby with the host in seat 0 and `ai_seats` AI players; returns the game id. `language` is the
        locale its thread speaks ("pt_BR"; None: English); `ai_level` the AI seats' level, kept on their seats;
        `game` the key of the game played, `settings` the lobby's other settings (JSON-safe values).

        The game is played through `start_match`/`play_match` (`games.get(game)`), its log by seat number: `players`
        is one of its player counts (1 is solo), and its settings are checked and completed by the game
        (`bad_settings`, `unknown_game`); `side` is the game's setting of that name when `settings` leave it out. A
        setting the games table also keeps in a column (`side`) is written there too, so that the column reads the
        same as in games stored before settings were kept as JSON."""
        if solo:
            players, ai_seats = 1, 0
        module = contract_module(game)
        if players not in module.players:
            raise StoreRefusal("bad_players")
        solo = players == 1
        given = dict(settings or {})
        if any(s.key == "side" for s in module.settings):
            given.setdefault("side", side)  # `side` chooses the game's setting of that name, unless `settings` do
        settings = lobby_settings(game, given)
        side = str(settings.get("side", side))
        if not 0 <= ai_seats < players:
            raise StoreRefusal("no_person_seat")
        if side not in ("basic", "advanced"):
            raise StoreRefusal("bad_side")
        now = self._clock()
        async with self._tx() as db:
            row = found(
                await self._one_on(
                    db,
                    "INSERT INTO games (guild_id, channel_id, thread_id, host_id, players, side, solo, turn_timer, "
                    "created_at, updated_at, challenge, language, game, settings, log_seats) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        guild_id,
                        channel_id,
                        thread_id,
                        host_id,
                        players,
                        side,
                        int(solo),
                        turn_timer,
                        now,
                        now,
                        challenge,
                        language,
                        game,
                        json.dumps(settings, sort_keys=True, separators=(",", ":")),
                        1,  # the log names its seats by number
                    ),
                )
            )
            game_id = int(row[0])
            names = [clean_name(host_name, unseated=module.unseated_names)]
            await self._run(
                db,
                "INSERT INTO seats (game_id, seat, name, user_id, ai) VALUES (?, 0, ?, ?, 0)",
                (game_id, names[0], host_id),
            )
            for i in range(ai_seats):
                name = clean_name(f"AI {i + 1}", names)
                names.append(name)
                await self._run(
                    db,
                    "INSERT INTO seats (game_id, seat, name, user_id, ai, ai_level) VALUES (?, ?, ?, NULL, 1, ?)",
                    (game_id, i + 1, name, ai_level),
                )
        return game_id

    async def add_seat(self, game_id: int, user_id: int, name: str) -> GameRecord:
        """Seat a user in a lobby."""
        async with self._game_lock(game_id), self._tx() as db:
            game = await self.get_game(game_id)
            if game.status != "lobby":
                raise StoreRefusal("not_lobby")
            if game.seat_of(user_id):
                raise StoreRefusal("already_seated")
            if game.is_full:
                raise StoreRefusal("full")
            seat = max(s.seat for s in game.seats) + 1
            final = clean_name(name, [s.name for s in game.seats], contract_module(game.game).unseated_names)
            await self._run(
                db,
                "INSERT INTO seats (game_id, seat, name, user_id, ai) VALUES (?, ?, ?, ?, 0)",
                (game_id, seat, final, user_id),
            )
            await self._touch(db, game_id)
        return await self.get_game(game_id)

    async def remove_seat(self, game_id: int, user_id: int) -> GameRecord:
        """Take a user out of a lobby (the host cancels instead)."""
        async with self._game_lock(game_id), self._tx() as db:
            game = await self.get_game(game_id)
            if game.status != "lobby":
                raise StoreRefusal("started")
            seat = game.seat_of(user_id)
            if seat is None:
                raise StoreRefusal("not_seated")
            if user_id == game.host_id:
                raise StoreRefusal("host")
            await self._run(db, "DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat.seat))
            await self._touch(db, game_id)
        return await self.get_game(game_id)

    async def arrange_seats(self, game_id: int, names: Sequence[str]) -> GameRecord:
        """Seat a lobby's players in this order (seat names; the seats not named keep their order after them),
        each AI seat keeping its level."""
        async with self._game_lock(game_id), self._tx() as db:
            record = await self.get_game(game_id)
            if record.status != "lobby":
                raise StoreRefusal("not_lobby")
            named = [n for n in names if record.seat_named(n) is not None]
            order = named + [s.name for s in record.seats if s.name not in named]
            if order == [s.name for s in record.seats]:
                return record
            # Two steps, so that no two seats ever share a number on the way; a seat's AI level goes with it.
            await self._run(db, "UPDATE seats SET seat = seat + 1000 WHERE game_id = ?", (game_id,))
            for number, name in enumerate(order):
                await self._run(db, "UPDATE seats SET seat = ? WHERE game_id = ? AND name = ?", (number, game_id, name))
            await self._touch(db, game_id)
        return await self.get_game(game_id)

    async def _touch(self, db: Transaction, game_id: int) -> None:
        await self._run(
            db, "UPDATE games SET version = version + 1, updated_at = ? WHERE id = ?", (self._clock(), game_id)
        )

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        """Remember the thread the game is played in."""
        async with self._tx() as db:
            await self._run(db, "UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))

    async def _challenge_rules(self, db: Transaction, record: GameRecord) -> int | None:
        """For a challenge game, the rules version its first attempt was dealt under: everyone plays the same deal,
        even the day a newer version of the rules ships. None for any other game, or a challenge's first attempt."""
        if not record.challenge:
            return None
        first = await self._one_on(
            db,
            "SELECT rules FROM games WHERE challenge = ? AND game = ? AND id <> ? "
            "AND status IN ('active', 'finished') ORDER BY id LIMIT 1",
            (record.challenge, record.game, record.id),
        )
        return None if first is None else int(first["rules"])

    async def create_challenge(
        self,
        *,
        kind: str,
        key: str,
        guild_id: int | None,
        channel_id: int | None,
        user_id: int,
        name: str,
        language: str | None = None,
        game: str = DEFAULT_GAME,
        settings: Mapping[str, Any] | None = None,
    ) -> tuple[int, bool]:
        """A solo game on the challenge's seed and side (another game: its challenge's `settings`), not yet started;
        returns (game id, rated).

        Only a user's first attempt at a game's challenge is rated; it counts from the moment it is created.
        """
        game_id = await self.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=user_id,
            host_name=name,
            players=1,
            side=CHALLENGE_SIDES[kind],
            solo=True,
            turn_timer=None,
            challenge=f"{kind}:{key}",
            language=language,
            game=game,
            settings=settings,
        )
        async with self._tx() as db:
            earlier = found(
                await self._one(
                    "SELECT COUNT(*) AS n FROM challenge_attempts WHERE user_id = ? AND game = ? AND kind = ? "
                    "AND key = ? AND rated = 1",
                    (user_id, game, kind, key),
                )
            )
            rated = earlier["n"] == 0
            await self._run(
                db,
                "INSERT INTO challenge_attempts (game_id, game, kind, key, user_id, guild_id, rated, started_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, game, kind, key, user_id, guild_id, int(rated), self._clock()),
            )
        return game_id, rated

    def challenge_seed(self, challenge: str) -> int:
        """The seed every player gets for this challenge."""
        kind, key = challenge.split(":", 1)
        return challenge_seed(kind, key, self._challenge_secret)

    async def cancel_game(self, game_id: int) -> GameRecord:
        """End a lobby or a game without results."""
        async with self._game_lock(game_id), self._tx() as db:
            record = await self.get_game(game_id)
            if record.status in ("finished", "cancelled"):
                raise StoreRefusal("ended")
            await self._run(
                db,
                "UPDATE games SET status = 'cancelled', version = version + 1, updated_at = ? WHERE id = ?",
                (self._clock(), game_id),
            )
            await self._run(db, "DELETE FROM timers WHERE game_id = ?", (game_id,))
        self._forget(game_id)
        return await self.get_game(game_id)

    # ------------------------------------------------------------------ games held in memory

    def _forget(self, game_id: int) -> None:
        """Hold the game no longer: its next load reads it from the database."""
        self._matches.pop(game_id, None)

    def held_version(self, game_id: int) -> int | None:
        """The version of the game as this process last saved or loaded it, if it is held in memory (no read)."""
        held = self._matches.get(game_id)
        return None if held is None else held.version

    async def _waiting_users(self, game_id: int) -> tuple[int, ...]:
        """The people (user ids) a game waits for, the caller holding its lock: every person at a seat the game waits
        for (`MatchStore._match_waiting_users`); computer players are left out."""
        if await self._one("SELECT 1 FROM games WHERE id = ?", (game_id,)) is None:
            return ()
        return await self._match_waiting_users(game_id)

    async def _broken(self, game_id: int, exc: Exception) -> BrokenGame:
        """A game whose log no longer replays (`exc` says why): marked broken, unless the store is read-only; the
        error to raise."""
        reason = f"its log no longer replays: {exc}"
        log.error("game %d is broken: %s", game_id, reason)
        if not self.readonly:
            async with self._tx() as db:
                await self._run(
                    db,
                    "UPDATE games SET status = 'broken', broken_reason = ?, updated_at = ? WHERE id = ?",
                    (reason, self._clock(), game_id),
                )
        return BrokenGame(game_id, reason)

    async def _mend_snapshot(self, game_id: int, packed: bool, rebuilt: str, stored: str | None) -> None:
        """Write the snapshot the log rebuilt where the stored one disagrees (a finished game keeps none: its packed
        log is replayed instead)."""
        if not packed and rebuilt != stored and not self.readonly:
            log.warning("game %d: snapshot disagreed with the log and was rebuilt", game_id)
            async with self._tx() as db:
                await self._run(db, "UPDATE games SET snapshot = ? WHERE id = ?", (rebuilt, game_id))

    async def _action_rows(self, game_id: int) -> list[tuple[int, str, str, str, float, int]]:
        """(seq, player, action, source, created_at, flags) of every action of a game whose log is not packed."""
        rows = await self._all(
            "SELECT seq, player, action, source, created_at, flags FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [tuple(r) for r in rows]

    async def _log_rows(self, game_id: int) -> list[tuple[int, str, str, str, float, int]]:
        """(seq, player, action, source, created_at, flags) of every action, packed or not."""
        row = await self._one("SELECT log, created_at FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(f"there is no game {game_id}")
        if row["log"] is not None:
            return unpack_log(row["log"], row["created_at"])
        return await self._action_rows(game_id)

    # ------------------------------------------------------------------ seats during play

    async def update_seat(
        self,
        game_id: int,
        name: str,
        *,
        ai: bool | None = None,
        expired: int | None = None,
        resigned: bool | None = None,
    ) -> None:
        """Change a seat: hand it to the AI, count expired turns, mark a resignation."""
        sets, params = [], []
        for column, value in (("ai", ai), ("expired", expired), ("resigned", resigned)):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(int(value))
        if not sets:
            return
        async with self._game_lock(game_id), self._tx() as db:
            count = await self._run(
                db, f"UPDATE seats SET {', '.join(sets)} WHERE game_id = ? AND name = ?", (*params, game_id, name)
            )
            if count != 1:
                raise StoreRefusal("not_seated", name=name, game_id=game_id)
            # No version bump: the prompt is unchanged, so buttons already sent stay valid.

    # ------------------------------------------------------------------ results

    async def results(self, game_id: int) -> list[Result]:
        """A finished game's results, winner first."""
        rows = await self._all("SELECT * FROM results WHERE game_id = ? ORDER BY rank", (game_id,))
        return [_result(r) for r in rows]

    async def results_in_guild(self, guild_id: int, *, solo: bool | None = None) -> list[Result]:
        """Every result of finished games played in a guild, oldest first (only solo or only multiplayer ones)."""
        solo_filter = "" if solo is None else f" AND g.solo = {int(solo)}"
        rows = await self._all(
            "SELECT r.* FROM results r JOIN games g ON g.id = r.game_id WHERE g.guild_id = ?"
            f"{solo_filter} ORDER BY r.finished_at, r.game_id, r.rank",
            (guild_id,),
        )
        return [_result(r) for r in rows]

    async def results_for_user(self, user_id: int) -> list[Result]:
        """Every result of this user, oldest first."""
        rows = await self._all("SELECT * FROM results WHERE user_id = ? ORDER BY finished_at, game_id", (user_id,))
        return [_result(r) for r in rows]

    # ------------------------------------------------------------------ timers

    async def set_timer(self, game_id: int, kind: str, due_at: float, version: int) -> None:
        """Create or move a timer of this kind for the game."""
        async with self._tx() as db:
            await self._run(
                db,
                "INSERT INTO timers (game_id, kind, due_at, version) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, kind) DO UPDATE SET due_at = excluded.due_at, version = excluded.version",
                (game_id, kind, due_at, version),
            )

    async def clear_timers(self, game_id: int, kinds: Sequence[str] | None = None) -> None:
        """Remove the game's timers (all, or these kinds)."""
        async with self._tx() as db:
            if kinds is None:
                await self._run(db, "DELETE FROM timers WHERE game_id = ?", (game_id,))
            else:
                marks = ",".join("?" * len(kinds))
                await self._run(db, f"DELETE FROM timers WHERE game_id = ? AND kind IN ({marks})", (game_id, *kinds))

    async def clear_timer(self, game_id: int, kind: str, version: int) -> None:
        """Remove this timer only if it is still the one set for `version` (a newer turn's timer stays)."""
        async with self._tx() as db:
            await self._run(
                db, "DELETE FROM timers WHERE game_id = ? AND kind = ? AND version = ?", (game_id, kind, version)
            )

    @staticmethod
    def _in_shards(shards: tuple[int, Sequence[int]] | None, guild: str) -> tuple[str, tuple[Any, ...]]:
        """SQL keeping only rows whose guild column is in these Discord shards: (guild id >> 22) % shard count."""
        if shards is None:
            return "", ()
        count, ids = shards
        marks = ",".join("?" * len(ids))
        return f" AND ((COALESCE({guild}, 0) >> 22) % ?) IN ({marks})", (count, *ids)

    @classmethod
    def _shard_filter(cls, shards: tuple[int, Sequence[int]] | None) -> tuple[str, tuple[Any, ...]]:
        """SQL limiting timers to the games of these Discord shards."""
        if shards is None:
            return "", ()
        where, params = cls._in_shards(shards, "guild_id")
        return f" AND t.game_id IN (SELECT id FROM games WHERE 1 = 1{where})", params

    async def due_timers(self, now: float, shards: tuple[int, Sequence[int]] | None = None) -> list[Timer]:
        """Timers due at or before `now`, earliest first (only of games in these shards' guilds, if given)."""
        where, params = self._shard_filter(shards)
        rows = await self._all(
            f"SELECT t.* FROM timers t WHERE t.due_at <= ?{where} ORDER BY t.due_at, t.game_id, t.kind",
            (now, *params),
        )
        return [Timer(r["game_id"], r["kind"], r["due_at"], r["version"]) for r in rows]

    async def next_timer(self, shards: tuple[int, Sequence[int]] | None = None) -> Timer | None:
        """The earliest timer, if any (of games in these shards' guilds, if given)."""
        where, params = self._shard_filter(shards)
        r = await self._one(f"SELECT t.* FROM timers t WHERE 1 = 1{where} ORDER BY t.due_at LIMIT 1", params)
        return None if r is None else Timer(r["game_id"], r["kind"], r["due_at"], r["version"])

    async def timers(self, game_id: int) -> list[Timer]:
        """The game's timers, earliest first."""
        rows = await self._all("SELECT * FROM timers WHERE game_id = ? ORDER BY due_at", (game_id,))
        return [Timer(r["game_id"], r["kind"], r["due_at"], r["version"]) for r in rows]

    # ------------------------------------------------------------------ what the thread shows

    async def turn_posts(self, game_id: int) -> TurnPosts:
        """How far the game's thread is posted (nothing yet for a game never shown)."""
        r = await self._one("SELECT * FROM turn_posts WHERE game_id = ?", (game_id,))
        if r is None:
            return TurnPosts(game_id)
        return TurnPosts(game_id, r["recorded_seq"], r["shown_version"], r["turn_key"], r["turn_version"])

    async def thread_posts(self, game_id: int) -> ThreadPosts:
        """What the game's thread shows, in one read: how far it is posted, its live prompt, whether a run of
        refusals is under way."""
        r = await self._one("SELECT * FROM turn_posts WHERE game_id = ?", (game_id,))
        posts = TurnPosts(game_id)
        if r is not None:
            posts = TurnPosts(game_id, r["recorded_seq"], r["shown_version"], r["turn_key"], r["turn_version"])
        messages = {
            m["kind"]: (m["channel_id"], m["message_id"])
            for m in await self._all(
                "SELECT kind, channel_id, message_id FROM messages WHERE game_id = ? AND kind IN ('prompt', 'lobby')",
                (game_id,),
            )
        }
        return ThreadPosts(
            posts, messages.get("prompt"), r is not None and r["refused_since"] is not None, messages.get("lobby")
        )

    async def set_turn_posts(self, posts: TurnPosts, *, prompt: tuple[int, int] | None = None) -> None:
        """How far the thread is posted (and, if given, where its new live prompt is: channel id, message id).
        Without an fsync of its own: on power loss a post is made again."""
        async with self._tx(durable=False) as db:
            if prompt is not None:
                await self._run(
                    db,
                    "INSERT INTO messages (game_id, kind, channel_id, message_id) VALUES (?, 'prompt', ?, ?) "
                    "ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id, "
                    "message_id = excluded.message_id",
                    (posts.game_id, *prompt),
                )
            await self._run(
                db,
                "INSERT INTO turn_posts (game_id, recorded_seq, shown_version, turn_key, turn_version) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET recorded_seq = excluded.recorded_seq, "
                "shown_version = excluded.shown_version, turn_key = excluded.turn_key, "
                "turn_version = excluded.turn_version",
                (posts.game_id, posts.recorded_seq, posts.shown_version, posts.turn_key, posts.turn_version),
            )

    async def matches_to_resume(self, shards: tuple[int, Sequence[int]] | None = None) -> list[int]:
        """Games at the platform's table that a stopped bot may have left midway (only games in these shards'
        guilds, if given): those whose thread does not show their current version (a move saved, its post never
        made), and every game under way with an AI seat (its turn may have been cut short between two decisions)."""
        where, params = self._in_shards(shards, "g.guild_id")
        rows = await self._all(
            "SELECT g.id FROM games g LEFT JOIN turn_posts p ON p.game_id = g.id "
            "WHERE g.log_seats = 1 AND g.status IN ('active', 'finished') "
            "AND (p.game_id IS NULL OR p.shown_version < g.version OR (g.status = 'active' AND EXISTS "
            f"(SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.ai = 1))){where} ORDER BY g.id",
            params,
        )
        return [r["id"] for r in rows]

    # ------------------------------------------------------------------ whether Discord lets the bot post

    async def reach(self, game_id: int) -> GameReach | None:
        """The game's current run of refusals, or None while its posts go through."""
        r = await self._one("SELECT * FROM turn_posts WHERE game_id = ? AND refused_since IS NOT NULL", (game_id,))
        return None if r is None else _reach(r)

    async def set_reach(self, reach: GameReach) -> None:
        """Record the game's run of refusals (how far its thread is posted stays as it is)."""
        async with self._tx() as db:
            await self._run(
                db,
                "INSERT INTO turn_posts (game_id, refused_since, refusals, refusal_status, refusal_code, "
                "unreachable_at, told_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
                "refused_since = excluded.refused_since, refusals = excluded.refusals, "
                "refusal_status = excluded.refusal_status, refusal_code = excluded.refusal_code, "
                "unreachable_at = excluded.unreachable_at, told_at = excluded.told_at",
                (
                    reach.game_id,
                    reach.since,
                    reach.refusals,
                    reach.status,
                    reach.code,
                    reach.unreachable_at,
                    reach.told_at,
                ),
            )

    async def clear_reach(self, game_id: int) -> GameReach | None:
        """End the game's run of refusals (its posts go through again); returns the run that ended, if any."""
        ended = await self.reach(game_id)
        if ended is None:
            return None
        async with self._tx() as db:
            await self._run(
                db,
                "UPDATE turn_posts SET refused_since = NULL, refusals = 0, refusal_status = NULL, "
                "refusal_code = NULL, unreachable_at = NULL, told_at = NULL WHERE game_id = ?",
                (game_id,),
            )
        return ended

    async def reaches(self, guild_id: int | None = None) -> list[GameReach]:
        """Every run of refusals of a game in progress (of one server, if given), oldest first."""
        where = " AND g.guild_id = ?" if guild_id is not None else ""
        rows = await self._all(
            "SELECT p.* FROM turn_posts p JOIN games g ON g.id = p.game_id "
            f"WHERE p.refused_since IS NOT NULL AND g.status = 'active'{where} ORDER BY p.refused_since, p.game_id",
            (guild_id,) if guild_id is not None else (),
        )
        return [_reach(r) for r in rows]

    async def set_channel(self, game_id: int, channel_id: int) -> None:
        """The channel a game is shown in (its thread is opened there)."""
        async with self._tx() as db:
            await self._run(db, "UPDATE games SET channel_id = ? WHERE id = ?", (channel_id, game_id))

    async def count_games(self) -> dict[str, int]:
        """How many games are in each state (lobby, active, finished, cancelled, broken)."""
        rows = await self._all("SELECT status, COUNT(*) AS n FROM games GROUP BY status")
        return {r["status"]: int(r["n"]) for r in rows}

    # ------------------------------------------------------------------ message ids and settings

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember a Discord message the game will edit later.

        Known only once posted, after the move's commit; written without an fsync of its own, as a lost id (power
        loss only) just means posting the prompt afresh.
        """
        async with self._tx(durable=False) as db:
            await self._run(
                db,
                "INSERT INTO messages (game_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id, "
                "message_id = excluded.message_id",
                (game_id, kind, channel_id, message_id),
            )

    async def get_message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """(channel id, message id) of a remembered message."""
        r = await self._one(
            "SELECT channel_id, message_id FROM messages WHERE game_id = ? AND kind = ?", (game_id, kind)
        )
        return None if r is None else (r["channel_id"], r["message_id"])

    async def guild_setting(self, guild_id: int, key: str, default: str | None = None) -> str | None:
        """One per-guild setting."""
        r = await self._one("SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
        return default if r is None else r["value"]

    async def set_guild_setting(self, guild_id: int, key: str, value: str | None) -> None:
        """Set (or with None, remove) a per-guild setting."""
        async with self._tx() as db:
            if value is None:
                await self._run(db, "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
            else:
                await self._run(
                    db,
                    "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?) "
                    "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
                    (guild_id, key, value),
                )

    async def user_setting(self, user_id: int, key: str, default: str | None = None) -> str | None:
        """One per-user setting."""
        r = await self._one("SELECT value FROM user_settings WHERE user_id = ? AND key = ?", (user_id, key))
        return default if r is None else r["value"]

    async def set_user_setting(self, user_id: int, key: str, value: str | None) -> None:
        """Set (or with None, remove) a per-user setting."""
        async with self._tx() as db:
            await self._put_setting(db, user_id, key, value)

    async def meta(self, key: str) -> str | None:
        """A fact about this installation, e.g. the hash of the last synced command set."""
        r = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if r is None else r["value"]

    async def set_meta(self, key: str, value: str) -> None:
        """Record a fact about this installation."""
        async with self._tx() as db:
            await self._run(
                db,
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    async def started_games(self) -> int:
        """How many games have been dealt (any status)."""
        (count,) = found(await self._one(f"SELECT COUNT(*) FROM games WHERE {_STARTED}"))
        return int(count)

    # ------------------------------------------------------------------ maintenance

    async def integrity(self) -> list[str]:
        """The database's own check of its storage (damaged pages, broken indexes); empty when it is sound."""
        return await self.database.integrity()

    async def verify(self) -> list[tuple[int, str]]:
        """Replay every started game from its log; (game id, problem) for each one whose snapshot or events disagree.

        Game id 0 stands for the file itself: damaged pages are reported, not raised, and so are away periods
        that end before they begin, last longer than 14 days or overlap, digests, muted games or quiet hours that do
        not read, time banks that are out of bounds and opponents' choices that are not sound; a timer that cannot be
        carried out is reported against its game.
        """
        problems: list[tuple[int, str]] = [(0, f"database damaged: {p}") for p in await self.integrity()]
        try:
            games = await self._all(
                f"SELECT id, status, {_SEED}, rules, side, solo, snapshot, broken_reason, moves, log, created_at, "
                f"game, settings, players, log_seats, dealt_named FROM games WHERE {_STARTED} ORDER BY id"
            )
        except self.database.error as exc:
            return [*problems, (0, f"the games table cannot be read: {exc}")]
        try:
            problems += [(0, f"away periods: {problem}") for problem in await self.verify_aways()]
        except self.database.error as exc:
            problems.append((0, f"the away periods cannot be read: {exc}"))
        try:
            problems += [(0, f"digests and muted games: {problem}") for problem in await self.verify_notices()]
        except self.database.error as exc:
            problems.append((0, f"the digests cannot be read: {exc}"))
        try:
            problems += [(0, f"quiet hours: {problem}") for problem in await self.verify_quiet()]
        except self.database.error as exc:
            problems.append((0, f"the quiet hours cannot be read: {exc}"))
        try:
            problems += [(0, f"time banks: {problem}") for problem in await self.verify_clocks()]
        except self.database.error as exc:
            problems.append((0, f"the time banks cannot be read: {exc}"))
        try:
            problems += await self._verify_timers()
        except self.database.error as exc:
            problems.append((0, f"the timers cannot be read: {exc}"))
        for g in games:
            if g["status"] == "broken":
                problems.append((g["id"], f"marked broken: {g['broken_reason']}"))
                continue
            try:
                # A game whose log names its players is replayed by its seating (`MatchStore._seating`).
                problem = await self._verify_match(g)
            except Exception as exc:  # damaged pages can surface as any error: report it, check the rest
                problem = f"cannot be read: {type(exc).__name__}: {exc}"
            if problem:
                problems.append((g["id"], problem))
        return problems

    async def _verify_timers(self) -> list[tuple[int, str]]:
        """(game id, problem) for each stored timer that cannot be carried out: of a kind nothing fires, due at a
        time that is not a number, or set for a version the game never reached."""
        problems = []
        rows = await self._all(
            "SELECT t.game_id, t.kind, t.due_at, t.version, g.version AS now_at FROM timers t "
            "JOIN games g ON g.id = t.game_id ORDER BY t.game_id, t.kind"
        )
        for r in rows:
            if r["kind"] not in TIMER_KINDS:
                problems.append((r["game_id"], f"a timer of an unknown kind {r['kind']!r}"))
            if not (isinstance(r["due_at"], (int, float)) and math.isfinite(r["due_at"])):
                problems.append((r["game_id"], f"the {r['kind']} timer is due at {r['due_at']!r}, not a time"))
            if r["version"] > r["now_at"]:
                problems.append(
                    (r["game_id"], f"the {r['kind']} timer is set for version {r['version']}, past the game's")
                )
        return problems

    async def compact(self) -> int:
        """Pack the logs of finished games stored before packing existed; returns how many were packed."""
        rows = await self._all("SELECT id FROM games WHERE status = 'finished' AND log IS NULL ORDER BY id")
        for row in rows:
            async with self._game_lock(row["id"]), self._tx() as db:
                info = found(await self._one("SELECT created_at, log FROM games WHERE id = ?", (row["id"],)))
                if info["log"] is not None:
                    continue
                actions = await self._action_rows(row["id"])
                await self._run(
                    db,
                    "UPDATE games SET log = ?, snapshot = NULL WHERE id = ?",
                    (pack_log(actions, info["created_at"]), row["id"]),
                )
                await self._run(db, "DELETE FROM actions WHERE game_id = ?", (row["id"],))
            self._forget(row["id"])
        return len(rows)

    async def backup(self, dest: str | Path) -> None:
        """A consistent copy of the whole database at `dest`, safe while the bot runs."""
        await self.database.backup(dest)


def _reach(r: Row) -> GameReach:
    return GameReach(
        r["game_id"],
        r["refused_since"],
        r["refusals"],
        r["refusal_status"] or 0,
        r["refusal_code"] or 0,
        r["unreachable_at"],
        r["told_at"],
    )


def _result(r: Row) -> Result:
    return Result(
        r["game_id"],
        r["seat"],
        r["name"],
        r["user_id"],
        bool(r["ai"]),
        bool(r["resigned"]),
        r["rank"],
        r["total"],
        json.loads(r["details"]),
        r["finished_at"],
    )

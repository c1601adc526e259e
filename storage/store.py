"""The store: games as (rules version, options, seed, seats, append-only action log), snapshots as a cache.

It runs its SQL on a `Database` (`database.py`): a SQLite file or a PostgreSQL server, as `open_store` picks.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
import time
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, overload

from games.kokeshi.engine import AUTOMA, RULES_VERSIONS, Event, Game, IllegalAction, new_game
from kit.locks import KeyedLocks

from .away import QUIET, TURN_TIMERS, AwayStore
from .clock import ClockStore
from .community import CommunityStore, found
from .database import Database, Row, Transaction
from .logs import ENDS_TURN, REVEALS, pack_log, unpack_log
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
    StaleVersion,
    StoreRefusal,
    ThreadPosts,
    Timer,
    TurnFacts,
    TurnPosts,
    UndoRefused,
)

log = logging.getLogger(__name__)

# A person's settings that decide how their turn pings them (`Store.turn_facts`).
PING_SETTINGS = ("notify", "language", QUIET, MUTED, DIGEST)
NAME_LIMIT = 32
# Games held in memory, the most recently used; each holds its log with the events (≈ 250 KiB at the end of a
# 4-player game, with its kept states): a game evicted is replayed once when next loaded.
_CACHE_SIZE = 256
# States kept in memory per cached game: right after its last few finished turns (what its thread shows next: the
# turns since the player to move last played, and the turns not yet recorded).
_STATES_KEPT = 12
# An action whose events include one of these ends a turn: undo never reaches back past it.
_TURN_BOUNDARIES = frozenset({"turn_ended", "setup_done", "game_over"})
# The seed is kept as decimal text (128-bit seeds); games dealt before migration 0004 have only the INTEGER column.
_SEED = "COALESCE(seed_text, CAST(seed AS TEXT)) AS seed"
_STARTED = "(seed_text IS NOT NULL OR seed IS NOT NULL)"
_FAR = 2**31 - 1  # past any action number; fits the 32-bit INTEGER of either backend
_GAME_COLUMNS = (
    f"id, guild_id, channel_id, thread_id, host_id, status, players, side, solo, turn_timer, {_SEED}, version, "
    "moves, broken_reason, created_at, updated_at, finished_at, challenge, language, game, settings, log_seats"
)


# The records of Kokeshi's own path through the store: its log names players and holds the engine's events.
@dataclass(frozen=True, slots=True)
class LoggedAction:
    """One action of a game's log, with the events it caused."""

    seq: int
    player: str
    action: str
    source: str
    created_at: float
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Applied:
    """One action saved, with what the store computed on the way, so that nobody has to read or replay it again:
    the game's record after the commit, the engine state (a private copy) and version, the action's events, the
    game's whole log, the states right after its latest finished turns (by the seq of the action that ended each;
    the current one under its own seq; read-only, shared with the store), and the results of a game it ended."""

    record: GameRecord
    game: Game
    version: int
    events: tuple[Event, ...]
    # True when the commit also set the timers of the turn it leaves the game in (none for an AI seat or an end).
    timers_set: bool
    # The earliest of the timers that commit set, if it set any.
    first_timer: float | None = None
    log: tuple[LoggedAction, ...] = ()
    states: Mapping[int, Game] = field(default_factory=dict)
    results: tuple[Result, ...] = ()
    # When the action began a person's turn: what its prompt says of the people at the table (`TurnFacts`).
    facts: TurnFacts | None = None


def clean_name(name: str, taken: Iterable[str] = ()) -> str:
    """A player name the engine accepts: trimmed, at most 32 characters, unique among `taken`."""
    base = " ".join(str(name).split())[:NAME_LIMIT] or "Player"
    if base == AUTOMA:
        base = "Automa player"
    taken = set(taken)
    candidate, n = base, 2
    while candidate in taken:
        suffix = f" ({n})"
        candidate = base[: NAME_LIMIT - len(suffix)] + suffix
        n += 1
    return candidate


def flags_of(events: Sequence[Event]) -> int:
    """The `actions.flags` bits of an action that caused these events."""
    flags = ENDS_TURN if any(e.kind in _TURN_BOUNDARIES for e in events) else 0
    return flags | (REVEALS if any(e.reveals for e in events) else 0)


# What a timer row can be: a turn's reminders and deadline, or a thread to post again.
TIMER_KINDS = (*TURN_TIMERS, "repost")


@dataclass(slots=True)
class _Kept:
    """A game held in memory: its engine state at a version, every action of its log with the events it caused, and
    the states right after its latest finished turns, so that neither its log nor those states need a replay."""

    version: int
    game: Game
    entries: list[LoggedAction] = field(default_factory=list)
    states: dict[int, Game] = field(default_factory=dict)

    def add(self, entry: LoggedAction, after: Game) -> None:
        self.entries.append(entry)
        if flags_of(entry.events) & ENDS_TURN:
            self.states[entry.seq] = after.clone()
            while len(self.states) > _STATES_KEPT:
                del self.states[min(self.states)]


Play = Callable[[Game, str, str], Sequence[Event]]


def _engine_play(game: Game, player: str, action: str) -> Sequence[Event]:
    return game.apply(player, action)


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
        self._cache: OrderedDict[int, _Kept] = OrderedDict()
        self._init_matches()  # contract games held in memory (`MatchStore`)

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
        contract: bool | None = None,
    ) -> int:
        """A new lobby with the host in seat 0 and `ai_seats` AI players; returns the game id. `language` is the
        locale its thread speaks ("pt_BR"; None: English); `ai_level` the AI seats' level, kept on their seats;
        `game` the key of the game played, `settings` the lobby's other settings (JSON-safe values).

        A contract game (`contract`; by default every game but the default game, which also has its own path) is
        played through `start_match`/`play_match` (`games.get(game)`), its log by seat number: `players` is one of
        its player counts (1 is solo), and its settings are checked and completed by the game (`bad_settings`,
        `unknown_game`). A setting the games table also keeps in a column (`side`) is written there too, so the
        columns read the same whichever path plays the game."""
        if contract is None:
            contract = game != DEFAULT_GAME
        if solo:
            players, ai_seats = 1, 0
        if contract:
            counts = contract_module(game).players
            if players not in counts:
                raise StoreRefusal("bad_players")
            solo = players == 1
            settings = lobby_settings(game, settings)
            side = str(settings.get("side", side))
        elif not 1 <= players <= 4 or (not solo and players < 2):
            raise StoreRefusal("bad_players")
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
                        json.dumps(dict(settings or {}), sort_keys=True, separators=(",", ":")),
                        # The default game's own path logs its players by name; the contract's, by seat number.
                        int(contract),
                    ),
                )
            )
            game_id = int(row[0])
            names = [clean_name(host_name)]
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
            final = clean_name(name, [s.name for s in game.seats])
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

    async def start_game(self, game_id: int, seed: int) -> tuple[Game, int]:
        """Deal the game for the seated players; returns the new engine game and the game version."""
        async with self._game_lock(game_id), self._tx() as db:
            record = await self.get_game(game_id)
            if not record.named_log:
                raise StoreRefusal("other_game", game_id=game_id, game=record.game)
            if record.status != "lobby":
                raise StoreRefusal("not_lobby")
            if not record.solo and len(record.seats) < 2:
                raise StoreRefusal("too_few")
            names = [s.name for s in record.seats]
            rules = await self._challenge_rules(db, record)
            kept = {"rules": rules} if rules in RULES_VERSIONS else {}  # otherwise the current rules
            game = new_game(names, seed=seed, side=record.side, solo=record.solo, **kept)
            version = record.version + 1
            await self._run(
                db,
                "UPDATE games SET status = 'active', seed = NULL, seed_text = ?, rules = ?, players = ?, version = ?, "
                "moves = 0, snapshot = ?, updated_at = ?, dealt_named = 1 WHERE id = ?",
                (str(seed), game.rules, len(names), version, game.to_json(), self._clock(), game_id),
            )
        self._remember(game_id, _Kept(version, game, [], {0: game.clone()}))
        return game.clone(), version

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
        contract: bool | None = None,
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
            contract=contract,
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

    # ------------------------------------------------------------------ engine state

    def _forget(self, game_id: int) -> None:
        """Hold the game no longer, on either path: its next load reads it from the database."""
        self._cache.pop(game_id, None)
        self._matches.pop(game_id, None)

    def _remember(self, game_id: int, kept: _Kept) -> None:
        self._cache[game_id] = kept
        self._cache.move_to_end(game_id)
        while len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)

    def held_version(self, game_id: int) -> int | None:
        """The version of the game as this process last saved or loaded it, if it is held in memory (no read)."""
        # A Kokeshi game read through the contract too is held twice: the later version is the one last seen.
        versions = [kept.version for kept in (self._cache.get(game_id), self._matches.get(game_id)) if kept is not None]
        return max(versions, default=None)

    @overload
    async def load_game(self, game_id: int) -> tuple[Game, int]: ...

    @overload
    async def load_game(self, game_id: int, *, record: Literal[True]) -> tuple[Game | None, int, GameRecord]: ...

    async def load_game(
        self, game_id: int, *, record: bool = False
    ) -> tuple[Game, int] | tuple[Game | None, int, GameRecord]:
        """The game's engine state (a private copy) and its version; with `record`, its record as well, read at the
        same moment (the state is None then unless the game is being played)."""
        async with self._game_lock(game_id):
            if record:
                found_record = await self.get_game(game_id)
                if found_record.status != "active":
                    return None, found_record.version, found_record
            kept = await self._load(game_id)
        if record:
            return kept.game.clone(), kept.version, found_record
        return kept.game.clone(), kept.version

    async def _waiting_users(self, game_id: int) -> tuple[int, ...]:
        """The people (user ids) a game waits for, the caller holding its lock: Kokeshi's player to move, or every
        person at a seat another game waits for (`MatchStore._match_waiting_users`); computer players are left
        out."""
        row = await self._one("SELECT game, log_seats FROM games WHERE id = ?", (game_id,))
        if row is None:
            return ()
        if row["game"] != DEFAULT_GAME or row["log_seats"]:
            return await self._match_waiting_users(game_id)
        prompt = (await self._load(game_id)).game.prompt
        if prompt is None:
            return ()
        seat = await self._one("SELECT user_id, ai FROM seats WHERE game_id = ? AND name = ?", (game_id, prompt.player))
        return () if seat is None or seat["ai"] or seat["user_id"] is None else (int(seat["user_id"]),)

    async def _load(self, game_id: int) -> _Kept:
        """The cached game, or the game rebuilt from its log; the snapshot is checked and repaired."""
        row = await self._one(
            f"SELECT status, {_SEED}, rules, side, solo, version, broken_reason, game, log_seats "
            "FROM games WHERE id = ?",
            (game_id,),
        )
        if row is None:
            raise GameNotFound(f"there is no game {game_id}")
        _kokeshi_only(game_id, row)
        if row["status"] == "broken":
            raise BrokenGame(game_id, row["broken_reason"] or "unknown")
        if row["seed"] is None:
            raise StoreRefusal("not_started")
        cached = self._cache.get(game_id)
        if cached is not None and cached.version == row["version"]:
            self._cache.move_to_end(game_id)
            return cached
        row = found(
            await self._one(
                f"SELECT status, {_SEED}, rules, side, solo, version, snapshot, log, created_at "
                "FROM games WHERE id = ?",
                (game_id,),
            )
        )
        names = [
            r["name"] for r in await self._all("SELECT name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        ]
        packed = row["log"] is not None
        rows = unpack_log(row["log"], row["created_at"]) if packed else await self._action_rows(game_id)
        try:
            kept = _rebuilt(names, row, rows)
        except (IllegalAction, ValueError) as exc:
            raise await self._broken(game_id, exc) from None
        await self._mend_snapshot(game_id, packed, kept.game.to_json(), row["snapshot"])
        kept.version = row["version"]
        self._remember(game_id, kept)
        return kept

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

    async def _action_rows(self, game_id: int, upto: int = _FAR) -> list[tuple[int, str, str, str, float, int]]:
        rows = await self._all(
            "SELECT seq, player, action, source, created_at, flags FROM actions WHERE game_id = ? AND seq <= ? "
            "ORDER BY seq",
            (game_id, upto),
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

    @overload
    async def apply(
        self,
        game_id: int,
        expected_version: int,
        player: str,
        action: str,
        *,
        source: str = ...,
        timers: Sequence[tuple[str, float]] | None = ...,
        play: Play = ...,
        details: Literal[False] = ...,
    ) -> list[Event]: ...

    @overload
    async def apply(
        self,
        game_id: int,
        expected_version: int,
        player: str,
        action: str,
        *,
        source: str = ...,
        timers: Sequence[tuple[str, float]] | None = ...,
        play: Play = ...,
        details: Literal[True],
    ) -> Applied: ...

    async def apply(
        self,
        game_id: int,
        expected_version: int,
        player: str,
        action: str,
        *,
        source: str = "player",
        timers: Sequence[tuple[str, float]] | None = None,
        play: Play = _engine_play,
        details: bool = False,
    ) -> list[Event] | Applied:
        """Apply one action atomically: check the version, run the engine, append to the log, commit.

        With `timers` ((kind, due at) pairs), a move that ends a turn also replaces the game's timers in the same
        commit: with these, set for the new version, when the next player is a person; with none otherwise.
        Raises StaleVersion if the game moved on, IllegalAction if the engine refuses; nothing changes then.

        `play` carries the action out on the game (the engine's own `apply` by default); it raises IllegalAction to
        refuse and must then leave the game unchanged. Returns the action's events, or with `details` all the store
        computed on the way (`Applied`): the record after the commit, the new state and version, whether the new
        turn's timers were set, the log and the latest turns' states it holds, the results of a game it ended.
        """
        applied = await self._move(game_id, expected_version, player, action, source, timers, play)
        return applied if details else list(applied.events)

    async def _move(
        self,
        game_id: int,
        expected_version: int,
        player: str,
        action: str,
        source: str,
        timers: Sequence[tuple[str, float]] | None,
        play: Play,
    ) -> Applied:
        async with self._game_lock(game_id):
            kept = await self._load(game_id)
            version, game = kept.version, kept.game
            if version != expected_version:
                raise StaleVersion(game_id, expected_version, version)
            record = await self.get_game(game_id)
            if record.status != "active":
                raise StoreRefusal("not_active")
            # Until the commit succeeds the cached game may hold an unsaved move: take it out of the cache.
            self._cache.pop(game_id, None)
            try:
                events = list(play(game, player, action))
            except IllegalAction:
                self._remember(game_id, kept)  # the engine left it unchanged
                raise
            now = self._clock()
            seq = game.version
            first_timer: float | None = None
            async with self._tx() as db:
                # `log_seats = 0`: a game moved meanwhile to a log by seat number (`to_seat_log`, which keeps its
                # version) is no longer this path's to write.
                count = await self._run(
                    db,
                    "UPDATE games SET version = version + 1, moves = ?, snapshot = ?, updated_at = ? "
                    "WHERE id = ? AND version = ? AND log_seats = 0",
                    (seq, game.to_json(), now, game_id, version),
                )
                if count != 1:
                    current = found(await self._one("SELECT version FROM games WHERE id = ?", (game_id,)))
                    raise StaleVersion(game_id, expected_version, current["version"])
                flags = flags_of(events)
                await self._run(
                    db,
                    "INSERT INTO actions (game_id, seq, player, action, source, created_at, flags) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, seq, player, action, source, now, flags),
                )
                if game.is_over:
                    await self._finish(db, game_id, game, now)
                elif flags & ENDS_TURN:
                    if source == "timeout":
                        # The expired turn counts in the commit of the move that ends it: a crash between the two
                        # would lose it, and with it the opponents' choice after the third in a row.
                        await self._run(
                            db,
                            "UPDATE seats SET expired = expired + 1 WHERE game_id = ? AND name = ?",
                            (game_id, player),
                        )
                    if timers is not None:
                        await self.clock_charge(db, game_id, player)  # a bank clock: the turn's time comes off
                        prompt = game.prompt
                        assert prompt is not None  # the game is not over
                        first_timer = await self._replace_timers(db, game_id, version + 1, prompt.player, timers)
            kept.version = version + 1
            kept.add(LoggedAction(seq, player, action, source, now, tuple(events)), game)
            results: list[Result] = []
            facts: TurnFacts | None = None
            mover = record.seat_named(game.prompt.player) if game.prompt is not None else None
            if flags & ENDS_TURN and mover is not None and mover.user_id is not None and not mover.ai:
                facts = await self.turn_facts(record, mover.name)
            if game.is_over:
                # The log is now kept packed, its times to the millisecond: the entries say what a read would.
                created = record.created_at
                kept.entries = [
                    replace(e, created_at=created + round((e.created_at - created) * 1000) / 1000) for e in kept.entries
                ]
                results = await self.results(game_id)
            self._remember(game_id, kept)
            after = await self.get_game(game_id)
            held = len(kept.entries) == game.version
            return Applied(
                after,
                game.clone(),
                version + 1,
                tuple(events),
                timers_set=game.is_over or (timers is not None and bool(flags & ENDS_TURN)),
                first_timer=first_timer,
                log=tuple(kept.entries) if held else (),
                states={**kept.states, seq: kept.states.get(seq) or game.clone()} if held else {},
                results=tuple(results),
                facts=facts,
            )

    async def _replace_timers(
        self, db: Transaction, game_id: int, version: int, player: str, timers: Sequence[tuple[str, float]]
    ) -> float | None:
        """The game's timers replaced by these, as the player's away period, bank and quiet hours move them (none
        for an AI seat); the earliest of those set, None when none were."""
        await self._run(db, "DELETE FROM timers WHERE game_id = ?", (game_id,))
        seat = await self._one("SELECT ai, user_id FROM seats WHERE game_id = ? AND name = ?", (game_id, player))
        if seat is None or seat["ai"] or not timers:
            return None
        # A player who is away gets the turn's whole time after they are back; quiet hours keep the deadline.
        timers = await self.player_timers(
            db, seat["user_id"], await self.clock_turn(db, game_id, seat["user_id"], timers)
        )
        if not timers:
            return None
        await self._run_many(
            db,
            "INSERT INTO timers (game_id, kind, due_at, version) VALUES (?, ?, ?, ?)",
            [(game_id, kind, due_at, version) for kind, due_at in timers],
        )
        return min(due_at for _kind, due_at in timers)

    async def set_turn_timers(
        self, game_id: int, version: int, timers: Sequence[tuple[str, float]], *, user_id: int | None = None
    ) -> bool:
        """Replace the game's timers with these, set for `version`, in one commit; False if they already were.
        Those of a turn of `user_id` are moved by the player's away period and quiet hours (`player_timers`)."""
        current = await self.timers(game_id)
        if (
            current
            and all(t.version == version for t in current)
            and {t.kind for t in current} == {k for k, _ in timers}
        ):
            return False
        async with self._tx() as db:
            await self._run(db, "DELETE FROM timers WHERE game_id = ?", (game_id,))
            await self._run_many(
                db,
                "INSERT INTO timers (game_id, kind, due_at, version) VALUES (?, ?, ?, ?)",
                [
                    (game_id, kind, due_at, version)
                    for kind, due_at in await self.player_timers(
                        db, user_id, await self.clock_turn(db, game_id, user_id, timers)
                    )
                ],
            )
        return True

    async def _finish(self, db: Transaction, game_id: int, game: Game, now: float) -> None:
        await self.database.lock_shared_totals(db)
        seats = {
            r["name"]: r
            for r in await self._all(
                "SELECT name, seat, user_id, ai, resigned FROM seats WHERE game_id = ?", (game_id,)
            )
        }
        ranking = game.ranking()
        # A resignation ranks last, whatever the score.
        ranking = [n for n in ranking if not (n in seats and seats[n]["resigned"])] + [
            n for n in ranking if n in seats and seats[n]["resigned"]
        ]
        scores = game.scores()
        rows = []
        for rank, name in enumerate(ranking, start=1):
            s = scores[name]
            seat = seats.get(name)
            rows.append(
                (
                    game_id,
                    seat["seat"] if seat else len(seats),
                    name,
                    seat["user_id"] if seat else None,
                    int(seat["ai"]) if seat else 1,
                    int(seat["resigned"]) if seat else 0,
                    rank,
                    s.total,
                    score_details(s.to_dict()),
                    now,
                )
            )
        await self._run_many(
            db,
            "INSERT INTO results (game_id, seat, name, user_id, ai, resigned, rank, total, details, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        await self._run(db, "UPDATE games SET status = 'finished', finished_at = ? WHERE id = ?", (now, game_id))
        await self._run(db, "DELETE FROM timers WHERE game_id = ?", (game_id,))
        info = found(
            await self._one("SELECT guild_id, solo, challenge, created_at, game FROM games WHERE id = ?", (game_id,))
        )
        if not info["solo"]:
            await self._rate_finished(db, game_id, info["guild_id"], now, info["game"])
        if info["challenge"]:
            await self._finish_attempt(db, game_id, now)
        else:
            await self._add_totals(db, info["guild_id"], bool(info["solo"]), rows, info["game"])
        # The log is packed into the game's row: a finished game then takes a few KB, not one row per action.
        actions = await self._action_rows(game_id)
        # A person's own choices count towards their favourite; a timed-out seat's or the AI's do not.
        chosen = [
            (seats[player]["user_id"], action)
            for _, player, action, source, _, _ in actions
            if source == "player" and player in seats
        ]
        await self._add_favourites(db, info["guild_id"], chosen, info["game"])
        await self._run(
            db,
            "UPDATE games SET log = ?, snapshot = NULL WHERE id = ?",
            (pack_log(actions, info["created_at"]), game_id),
        )
        await self._run(db, "DELETE FROM actions WHERE game_id = ?", (game_id,))

    async def undo(self, game_id: int, player: str) -> tuple[Game, int]:
        """Take back `player`'s last action of their current turn, if it revealed nothing; returns the new state."""
        async with self._game_lock(game_id):
            kept = await self._load(game_id)
            version, game = kept.version, kept.game
            prompt = game.prompt
            if prompt is None:
                raise UndoRefused("undo_over")
            if prompt.player != player:
                raise UndoRefused("undo_not_your_turn", player=prompt.player)
            last = await self._one(
                "SELECT seq, player, source, flags FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                (game_id,),
            )
            if last is None or last["player"] != player:
                raise UndoRefused("undo_nothing")
            if last["source"] != "player":
                raise UndoRefused("undo_timed_out")
            if last["flags"] & ENDS_TURN:
                raise UndoRefused("undo_nothing")
            if last["flags"] & REVEALS:
                raise UndoRefused("undo_drew")
            seq = last["seq"]
            previous = await self._replay(game_id, upto=seq - 1)
            self._cache.pop(game_id, None)
            async with self._tx() as db:
                # Version-checked like apply: a move committed meanwhile (by any process) makes this undo stale.
                count = await self._run(
                    db,
                    "UPDATE games SET version = version + 1, moves = moves - 1, snapshot = ?, updated_at = ? "
                    "WHERE id = ? AND version = ? AND moves = ? AND log_seats = 0",
                    (previous.to_json(), self._clock(), game_id, version, seq),
                )
                if count != 1:
                    current = found(await self._one("SELECT version FROM games WHERE id = ?", (game_id,)))
                    raise StaleVersion(game_id, version, current["version"])
                await self._run(db, "DELETE FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq))
            # The move taken back ended no turn: the kept log loses its last entry, the kept states stay.
            entries = kept.entries[:-1] if kept.entries and kept.entries[-1].seq == seq else []
            states = kept.states if entries or seq == 1 else {}
            self._remember(game_id, _Kept(version + 1, previous, entries, states))
        return previous.clone(), version + 1

    async def _replay(self, game_id: int, upto: int | None = None) -> Game:
        """The game rebuilt from its stored log (up to action `upto`)."""
        row = found(await self._one(f"SELECT {_SEED}, rules, side, solo FROM games WHERE id = ?", (game_id,)))
        names = [
            r["name"] for r in await self._all("SELECT name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        ]
        rows = await self._action_rows(game_id, _FAR if upto is None else upto)
        return _replayed(names, row, rows)

    async def _kept(self, game_id: int) -> _Kept | None:
        """The game as held in memory, its whole log included, loading it if need be; None when it cannot be
        loaded (not started, broken, gone) or its log is not held."""
        try:
            async with self._game_lock(game_id):
                kept = await self._load(game_id)
        except (GameNotFound, BrokenGame, StoreRefusal):
            return None
        return kept if len(kept.entries) == kept.game.version else None

    async def log(self, game_id: int, since: int = 0) -> list[LoggedAction]:
        """The game's actions after `since`, each with the events a replay gives it (up to where it replays)."""
        kept = await self._kept(game_id)
        if kept is not None:
            return kept.entries[bisect_right([e.seq for e in kept.entries], since) :]
        row = await self._one(f"SELECT {_SEED}, rules, side, solo, game, log_seats FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(f"there is no game {game_id}")
        _kokeshi_only(game_id, row)
        if row["seed"] is None:
            return []
        names = [
            r["name"] for r in await self._all("SELECT name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        ]
        game = _dealt(names, row)
        found = []
        for seq, player, action, source, created_at, _ in await self._log_rows(game_id):
            try:
                events = game.apply(player, action)
            except IllegalAction:
                break
            if seq > since:
                found.append(LoggedAction(seq, player, action, source, created_at, tuple(events)))
        return found

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

    async def turn_facts(self, record: GameRecord, player: str) -> TurnFacts:
        """What the prompt of `player`'s turn says of the people at the table, and how it pings them (`TurnFacts`)."""
        seat = record.seat_named(player)
        settings: dict[str, str] = {}
        if seat is not None and seat.user_id is not None and not seat.ai:
            settings = (await self._ping_settings([seat.user_id]))[seat.user_id]
        people = [s.user_id for s in record.seats if s.user_id is not None and not s.ai]
        return TurnFacts(
            settings=settings,
            aways=await self.aways(people) if people else {},
            bank_left=await self.bank_left(record.id, player) if seat is not None and not seat.ai else None,
        )

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

    async def states_after(self, game_id: int, seqs: Iterable[int]) -> dict[int, Game]:
        """The game as it stood right after each of these actions, 0 meaning before any (replayed once, unless the
        game is held in memory with these states: the current one, or right after one of its last finished turns)."""
        wanted = set(seqs)
        kept = await self._kept(game_id)
        if kept is not None:
            held = {**kept.states, kept.game.version: kept.game}
            if wanted <= held.keys():
                return {seq: held[seq].clone() for seq in wanted}
        row = await self._one(f"SELECT {_SEED}, rules, side, solo, game, log_seats FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(f"there is no game {game_id}")
        _kokeshi_only(game_id, row)
        names = [
            r["name"] for r in await self._all("SELECT name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        ]
        game = _dealt(names, row)
        found: dict[int, Game] = {0: game.clone()} if 0 in wanted else {}
        for seq, player, action, *_ in await self._log_rows(game_id):
            if not wanted - found.keys():
                break
            game.apply(player, action)
            if seq in wanted:
                found[seq] = game.clone()
        return found

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
                # A game of Kokeshi's own path is checked on its path, then read through the contract: the same
                # moves to the same end, whichever path reads it.
                problem = await self._verify_one(g) if g["game"] == DEFAULT_GAME and not g["log_seats"] else None
                problem = problem or await self._verify_match(g)
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

    async def _verify_one(self, g: Row) -> str | None:
        """What is wrong with a started Kokeshi game, or None."""
        names = [
            r["name"] for r in await self._all("SELECT name FROM seats WHERE game_id = ? ORDER BY seat", (g["id"],))
        ]
        packed = g["log"] is not None
        rows = unpack_log(g["log"], g["created_at"]) if packed else await self._action_rows(g["id"])
        if [r[0] for r in rows] != list(range(1, len(rows) + 1)) or len(rows) != g["moves"]:
            return "the action log has gaps or disagrees with the move count"
        if packed and g["status"] != "finished":
            return "the log is packed but the game is not finished"
        try:
            game = _dealt(names, g)
            for seq, player, action, _, _, flags in rows:
                events = game.apply(player, action)
                if not packed and flags != flags_of(events):
                    return f"what is stored about move {seq} differs from a replay"
        except (IllegalAction, ValueError) as exc:
            return f"the log no longer replays: {exc}"
        if not packed and game.to_json() != g["snapshot"]:
            return "the snapshot differs from a replay of the log"
        if (g["status"] == "finished") != game.is_over:
            return "the status disagrees with the replayed game"
        if g["status"] == "finished":
            stored = {
                r["name"]: {**json.loads(r["details"]), "total": r["total"]}
                for r in await self._all("SELECT name, total, details FROM results WHERE game_id = ?", (g["id"],))
            }
            if stored != {name: score.to_dict() for name, score in game.scores().items()}:
                return "the stored results differ from a replay"
        return None

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
            self._cache.pop(row["id"], None)
        return len(rows)

    async def backup(self, dest: str | Path) -> None:
        """A consistent copy of the whole database at `dest`, safe while the bot runs."""
        await self.database.backup(dest)


def _kokeshi_only(game_id: int, row: Row) -> None:
    """Refuse (`other_game`) a game this path does not play: another game, or the default game dealt through the
    contract (its log by seat number); contract games are loaded with `load_match`."""
    if row["game"] != DEFAULT_GAME or row["log_seats"]:
        raise StoreRefusal("other_game", game_id=game_id, game=row["game"])


def _dealt(names: Sequence[str], row: Row) -> Game:
    """The stored game as dealt, from its row's seed, side and solo flag: every replay starts here."""
    return new_game(names, seed=int(row["seed"]), side=row["side"], solo=bool(row["solo"]), rules=row["rules"])


def _rebuilt(names: Sequence[str], row: Row, rows: Sequence[tuple[Any, ...]]) -> _Kept:
    """The stored game dealt and replayed through these log rows, its log and latest turns' states kept."""
    game = _dealt(names, row)
    kept = _Kept(-1, game, [], {0: game.clone()})
    for seq, player, action, source, created_at, *_ in rows:
        events = game.apply(player, action)
        kept.add(LoggedAction(seq, player, action, source, created_at, tuple(events)), game)
    return kept


def _replayed(names: Sequence[str], row: Row, rows: Sequence[tuple[Any, ...]]) -> Game:
    """The stored game dealt and replayed through these log rows."""
    game = _dealt(names, row)
    for _, player, action, *_ in rows:
        game.apply(player, action)
    return game


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


def score_details(items: Mapping[str, int]) -> str:
    """A seat's score items, its total aside, as the JSON kept in `results.details`."""
    return json.dumps({k: v for k, v in items.items() if k != "total"}, separators=(",", ":"))

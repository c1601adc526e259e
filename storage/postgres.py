"""The PostgreSQL store (asyncpg): the SQLite store's SQL run through a dialect layer, for sharded processes."""

from __future__ import annotations

import functools
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from .records import StoreError
from .store import _IN_TX, MIGRATIONS_PG, Store, migrations

log = logging.getLogger(__name__)

# Held while migrating, so that shard processes starting together migrate once; and around totals shared between
# games (see `_lock_shared_totals`). Any two numbers this database uses for nothing else.
_MIGRATION_LOCK = 0x6B6F6B65
_TOTALS_LOCK = 0x6B6F6B66
_POOL_SIZE = 8


@functools.lru_cache(maxsize=512)
def to_pg(sql: str) -> str:
    """The statement with SQLite's `?` placeholders numbered the PostgreSQL way ($1, $2, …), outside quotes."""
    parts = re.split(r"('(?:[^']|'')*')", sql)
    n = 0
    for i in range(0, len(parts), 2):
        pieces = parts[i].split("?")
        out = [pieces[0]]
        for piece in pieces[1:]:
            n += 1
            out.append(f"${n}{piece}")
        parts[i] = "".join(out)
    return "".join(parts)


def redact(url: str) -> str:
    """The URL without its password, fit for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


async def _keep_session(db: asyncpg.Connection) -> None:
    """A connection goes back to the pool as it is: the store sets nothing on a session (only SET LOCAL), so the
    default reset's extra round trip at every release buys nothing."""


def _count(status: str) -> int:
    """The row count of a command status such as 'UPDATE 1' or 'INSERT 0 3'."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PgStore(Store):
    """The same store over PostgreSQL: a pool of connections, transactions one at a time per process.

    Several processes may share the database: a move's UPDATE is conditional on the version it was made against,
    so of two processes racing on one game the second waits for the first's row lock, then updates nothing and
    answers StaleVersion.
    """

    _GREATEST = "GREATEST"
    _LEAST = "LEAST"
    _DB_ERROR = asyncpg.PostgresError
    _READ_HELD_GAMES_ON_WRITER = False

    def __init__(
        self,
        pool: asyncpg.Pool,
        url: str,
        clock: Callable[[], float],
        *,
        readonly: bool = False,
        challenge_secret: str | None = None,
    ) -> None:
        super().__init__(None, redact(url), clock, readonly=readonly, challenge_secret=challenge_secret)  # type: ignore[arg-type]
        self._pool = pool

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        clock: Callable[[], float] = time.time,
        readonly: bool = False,
        challenge_secret: str | None = None,
        pool_size: int = _POOL_SIZE,
    ) -> PgStore:
        """Connect to the database at `url`, migrating it unless `readonly`; StoreError says clearly what is wrong."""
        settings = {"default_transaction_read_only": "on"} if readonly else {}
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                server_settings=settings,
                command_timeout=60,
                reset=_keep_session,
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            raise StoreError(
                f"Cannot connect to the database {redact(url)}: {exc}. Check DATABASE_URL and that the server runs."
            ) from None
        store = cls(pool, url, clock, readonly=readonly, challenge_secret=challenge_secret)
        try:
            await store._prepare()
        except BaseException:
            await pool.close()
            raise
        log.debug("database %s open (pool of up to %d connections)", store.path, pool_size)
        return store

    async def _prepare(self) -> None:
        steps = migrations(MIGRATIONS_PG)
        if self.readonly:
            current = await self.schema_version()
            if current != len(steps):
                raise StoreError(
                    f"The database {self.path} has schema version {current}, but this code expects {len(steps)}. "
                    "Start the matching version of the bot on it once first."
                )
            await self._load_secret()
            return
        async with self._pool.acquire() as db:
            await db.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
            try:
                await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                current = await db.fetchval("SELECT MAX(version) FROM schema_version") or 0
                if current > len(steps):
                    raise StoreError(
                        f"The database {self.path} has schema version {current}, newer than this code knows "
                        f"({len(steps)}): it was written by a newer version of the bot. Upgrade the bot."
                    )
                for number, sql in steps[current:]:
                    async with db.transaction():
                        await db.execute(sql)
                        await db.execute("DELETE FROM schema_version")
                        await db.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
                    log.info("database %s migrated to schema %d", self.path, number)
            finally:
                await db.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
        await self._load_secret()

    async def close(self) -> None:
        """Close the pool; the store cannot be used afterwards."""
        await self._pool.close()

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        async with self._pool.acquire() as db:
            exists = await db.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
            return (await db.fetchval("SELECT MAX(version) FROM schema_version") or 0) if exists else 0

    # ------------------------------------------------------------------ transactions and statements

    @asynccontextmanager
    async def _tx(self, *, durable: bool = True) -> AsyncIterator[asyncpg.Connection]:
        """One write transaction at a time in this process, on a pooled connection; reads inside it see its changes.

        `durable=False` commits without waiting for the WAL flush (still atomic); only for rows that can be rebuilt.
        """
        async with self._write_lock, self._pool.acquire() as db, db.transaction():
            if not durable:
                await db.execute("SET LOCAL synchronous_commit = off")
            token = _IN_TX.set((self, db))
            try:
                yield db
            finally:
                _IN_TX.reset(token)

    def _tx_conn(self) -> asyncpg.Connection | None:
        current = _IN_TX.get()
        return current[1] if current is not None and current[0] is self else None

    async def _run(self, db: asyncpg.Connection, sql: str, params: Sequence[Any] = ()) -> int:
        return _count(await db.execute(to_pg(sql), *params))

    async def _run_many(self, db: asyncpg.Connection, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await db.executemany(to_pg(sql), rows)

    async def _one_on(self, db: asyncpg.Connection, sql: str, params: Sequence[Any] = ()) -> asyncpg.Record | None:
        return await db.fetchrow(to_pg(sql), *params)

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> asyncpg.Record | None:
        return await (self._tx_conn() or self._pool).fetchrow(to_pg(sql), *params)

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[asyncpg.Record]:
        return await (self._tx_conn() or self._pool).fetch(to_pg(sql), *params)

    async def _lock_shared_totals(self, db: asyncpg.Connection) -> None:
        # Two processes finishing games of the same players would update the same totals rows in different orders
        # and could deadlock; finishes are rare next to moves, so they take turns.
        await db.execute("SELECT pg_advisory_xact_lock($1)", _TOTALS_LOCK)

    # ------------------------------------------------------------------ maintenance

    async def integrity(self) -> list[str]:
        """The server keeps its own pages sound; here only that the database answers."""
        try:
            await self._pool.fetchval("SELECT 1")
        except (asyncpg.PostgresError, OSError) as exc:
            return [f"the database cannot be read: {exc}"]
        return []

    async def backup(self, dest: str | Path) -> None:
        """PostgreSQL databases are backed up with its own tools."""
        raise StoreError("Back up a PostgreSQL database with pg_dump (see the README), not with this command.")


# Parents before children, so that every foreign key finds its row.
COPIED_TABLES = (
    "games",
    "seats",
    "actions",
    "results",
    "timers",
    "messages",
    "turn_posts",
    "guild_settings",
    "user_settings",
    "meta",
    "ratings",
    "rating_changes",
    "challenge_attempts",
    "daily_posts",
    "player_totals",
    "board_counts",
    "kokeshi_counts",
)
_COPY_BATCH = 5000


async def copy_sqlite(path: str, url: str) -> dict[str, int]:
    """Copy every row of the SQLite database at `path` into the empty PostgreSQL database at `url`, in one commit.

    Returns the rows copied per table. The source must have the current schema (open it once with the bot first);
    the target is migrated first and must hold no games.
    """
    source = await Store.open(path, readonly=True)  # checks that it exists and has the current schema
    await source.close()
    target = await PgStore.connect(url)
    try:
        if await target._one("SELECT 1 FROM games LIMIT 1"):
            raise StoreError(f"The database {target.path} already holds games: copy only into an empty database.")
        with sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True) as db:
            present = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            unknown = present - set(COPIED_TABLES) - {"sqlite_sequence"}
            if unknown:
                raise StoreError(f"The database {path} has tables this command does not know: {sorted(unknown)}.")
            counts = {}
            async with target._pool.acquire() as pg, pg.transaction():
                await pg.execute("DELETE FROM meta")  # the new database's own secret gives way to the copied one
                for table in COPIED_TABLES:
                    counts[table] = await _copy_table(db, pg, table)
                await pg.execute(
                    "SELECT setval(pg_get_serial_sequence('games', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM games"
                )
    finally:
        await target.close()
    return counts


async def _copy_table(db: sqlite3.Connection, pg: asyncpg.Connection, table: str) -> int:
    columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
    cursor = db.execute(f"SELECT {', '.join(columns)} FROM {table}")
    copied = 0
    while rows := cursor.fetchmany(_COPY_BATCH):
        await pg.copy_records_to_table(table, records=rows, columns=columns)
        copied += len(rows)
    return copied

"""The SQLite database (aiosqlite): a file with a write connection and, in WAL mode, a read connection beside it."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .database import CLOSE_WAIT, Row, Transaction, migrations
from .records import StoreError

log = logging.getLogger(__name__)


class _NoStatements(logging.Filter):
    """aiosqlite logs every statement with its parameters at DEBUG: seeds, snapshots, the bag. None of it leaves."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno > logging.DEBUG


logging.getLogger("aiosqlite").addFilter(_NoStatements())

# The write connection, while the current task is in a write transaction or reads where it writes (per database);
# every other read uses the read connection.
_ON_WRITER: contextvars.ContextVar[SqliteDatabase | None] = contextvars.ContextVar(
    "kokeshi_sqlite_writer", default=None
)


async def _run(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> int:
    """Execute one statement, closing its cursor on the connection's own thread; returns the row count."""
    async with db.execute(sql, params) as cursor:
        return cursor.rowcount


async def _one_on(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
    async with db.execute(sql, params) as cursor:
        row: sqlite3.Row | None = await cursor.fetchone()
        return row


class SqliteTransaction:
    """Statements on the write connection, inside the transaction `SqliteDatabase.transaction` opened."""

    __slots__ = ("connection",)

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the rows it changed."""
        return await _run(self.connection, sql, params)

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        async with self.connection.executemany(sql, rows):
            pass

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query (or of an INSERT … RETURNING)."""
        return await _one_on(self.connection, sql, params)


class SqliteDatabase:
    """A SQLite file: writes one transaction at a time on the write connection, reads on the read connection.

    In WAL mode reads never wait behind a write transaction. Open it with `await SqliteDatabase.open(path)`.
    """

    error: type[Exception] = sqlite3.DatabaseError

    def __init__(self, writer: aiosqlite.Connection, path: str, *, readonly: bool = False) -> None:
        self.writer = writer
        self.reader = writer  # a connection of its own once the database is ready
        self.name = path
        self.readonly = readonly
        self._write_lock = asyncio.Lock()
        self._tx = SqliteTransaction(writer)

    @classmethod
    async def open(cls, path: str, *, readonly: bool = False) -> SqliteDatabase:
        """Open (creating or migrating) the SQLite database at `path`; StoreError says clearly what is wrong.

        `readonly` opens an existing database without writing to it, and checks that its schema is current.
        """
        if readonly:
            if not Path(path).exists():
                raise StoreError(f"There is no database at {path}.")
        elif path != ":memory:":
            folder = Path(path).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    f"Cannot create the folder {folder} for the database {path}: {exc.strerror}. "
                    "Set DATABASE_PATH to a writable location."
                ) from None
        try:
            if readonly:
                target = f"{Path(path).resolve().as_uri()}?mode=ro"
                folder = Path(path).resolve().parent
                if not Path(f"{path}-wal").exists() and not (os.access(path, os.W_OK) and os.access(folder, os.W_OK)):
                    # Nobody can write here (as far as we can tell) and there is no WAL to read: SQLite need not
                    # create its shared-memory file, which it could not do in a read-only place.
                    target += "&immutable=1"
                db = await aiosqlite.connect(target, isolation_level=None, timeout=2.0, uri=True)
            else:
                db = await aiosqlite.connect(path, isolation_level=None, timeout=2.0)
        except sqlite3.Error as exc:
            raise StoreError(f"Cannot open the database {path}: {exc}. Check the path and its permissions.") from None
        db.row_factory = sqlite3.Row
        database = cls(db, path, readonly=readonly)
        try:
            await database.migrate()
        except BaseException:
            await db.close()
            raise
        if not readonly and path != ":memory:":
            # Reads go through their own connection: in WAL mode they never wait behind a write transaction.
            try:
                reader = await aiosqlite.connect(path, isolation_level=None, timeout=2.0)
            except BaseException as exc:
                await db.close()
                if isinstance(exc, sqlite3.Error):
                    raise StoreError(explain(path, exc)) from None
                raise
            try:
                reader.row_factory = sqlite3.Row
                await _run(reader, "PRAGMA busy_timeout = 2000")
                await _run(reader, "PRAGMA query_only = 1")
            except BaseException as exc:
                # Neither connection may outlive a failed open: their threads would keep the process alive.
                await reader.close()
                await db.close()
                if isinstance(exc, sqlite3.Error):
                    raise StoreError(explain(path, exc)) from None
                raise
            database.reader = reader
        return database

    async def migrate(self) -> None:
        """Apply the migrations the file lacks (in WAL mode, with foreign keys on); read-only, check it lacks none."""
        try:
            await self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(explain(self.name, exc)) from None

    async def _migrate(self) -> None:
        db = self.writer
        await _run(db, "PRAGMA busy_timeout = 2000")
        if self.readonly:
            current = await self.schema_version()
            if current != len(migrations()):
                raise StoreError(
                    f"The database {self.name} has schema version {current}, but this code expects "
                    f"{len(migrations())}. Open it once with the matching version of the bot (read-write) first."
                )
            return
        mode = _value(await _one_on(db, "PRAGMA journal_mode = WAL"))
        await _run(db, "PRAGMA synchronous = FULL")
        await _run(db, "PRAGMA foreign_keys = ON")
        current = await self.schema_version()
        steps = migrations()
        if current > len(steps):
            raise StoreError(
                f"The database {self.name} has schema version {current}, newer than this code knows "
                f"({len(steps)}): it was written by a newer version of the bot. Upgrade the bot, or point "
                "DATABASE_PATH at a backup made for this version."
            )
        for number, sql in steps[current:]:
            # executescript commits first; the migration and its version number then commit together.
            await db.executescript(f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
            log.info("database %s migrated to schema %d", self.name, number)
        if self.name != ":memory:" and str(mode).lower() != "wal":
            log.warning("database %s could not switch to WAL mode (%s)", self.name, mode)
        # Fail now, not on the first move, if another process holds the write lock.
        await _run(db, "BEGIN IMMEDIATE")
        await _run(db, "COMMIT")

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        return int(_value(await _one_on(self.writer, "PRAGMA user_version")))

    async def close(self) -> None:
        """Close the connections once a write transaction under way has committed (waiting at most
        `CLOSE_WAIT` seconds); the database cannot be used afterwards."""
        try:
            await asyncio.wait_for(self._write_lock.acquire(), CLOSE_WAIT)
        except TimeoutError:
            log.warning("database %s closed with a write still under way after %.0f s", self.name, CLOSE_WAIT)
            held = False
        else:
            held = True
        try:
            try:
                if self.reader is not self.writer:
                    await self.reader.close()
            finally:
                # Even when the read connection failed to close: each connection's thread keeps the process alive.
                await self.writer.close()
        finally:
            if held:
                self._write_lock.release()

    # ------------------------------------------------------------------ statements

    @asynccontextmanager
    async def transaction(self, *, durable: bool = True) -> AsyncIterator[SqliteTransaction]:
        """One write transaction at a time on the write connection; reads inside it see its changes.

        `durable=False` commits without an fsync of its own (still atomic, and safe from a killed process); the
        next durable commit makes it durable too. Only for rows that can be rebuilt, like a message id.
        """
        db = self.writer
        async with self._write_lock:
            if not durable:
                await _run(db, "PRAGMA synchronous = NORMAL")
            try:
                await _run(db, "BEGIN IMMEDIATE")
                token = _ON_WRITER.set(self)
                try:
                    yield self._tx
                except BaseException:
                    await _run(db, "ROLLBACK")
                    raise
                else:
                    await _run(db, "COMMIT")
                finally:
                    _ON_WRITER.reset(token)
            finally:
                if not durable:
                    await _run(db, "PRAGMA synchronous = FULL")

    @contextmanager
    def reads_on_writer(self) -> Iterator[None]:
        """This task's reads go to the write connection: its game's rows change only under its lock, and a move
        never queues behind a long leaderboard read on the read connection."""
        token = _ON_WRITER.set(self)
        try:
            yield
        finally:
            _ON_WRITER.reset(token)

    def _conn(self) -> aiosqlite.Connection:
        """The write connection inside this task's transaction, else the read connection."""
        return self.writer if _ON_WRITER.get() is self else self.reader

    # A read runs to its end in one call on the connection's thread. Were its cursor left open across an await,
    # the other tasks' reads on the shared read connection would join its read transaction, and under a steady
    # stream of reads that snapshot could outlive many commits: a game just created would not be found.
    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, read to its end in one call."""
        rows = await self._conn().execute_fetchall(sql, params)
        row: sqlite3.Row | None = next(iter(rows), None)
        return row

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query, read to its end in one call."""
        return list(await self._conn().execute_fetchall(sql, params))

    async def lock_shared_totals(self, tx: Transaction) -> None:
        """Nothing to do: SQLite's write lock already serialises every write transaction."""

    # ------------------------------------------------------------------ dialect

    def floor(self, expression: str) -> str:
        """SQL for the largest integer not above `expression` (SQLite's CAST truncates towards zero)."""
        return f"(CAST({expression} AS INTEGER) - ({expression} < CAST({expression} AS INTEGER)))"

    # ------------------------------------------------------------------ maintenance

    async def integrity(self) -> list[str]:
        """SQLite's own check of the file (damaged pages, broken indexes); empty when the file is sound."""
        try:
            rows = await self.fetch_all("PRAGMA quick_check")
        except sqlite3.DatabaseError as exc:
            return [f"the file cannot be read: {exc}"]
        found = [str(r[0]) for r in rows]
        return [] if found == ["ok"] else found

    async def backup(self, dest: str | Path) -> None:
        """A consistent copy of the whole database at `dest`, safe while the bot runs."""
        await asyncio.to_thread(backup_file, self.name, str(dest))


def _value(row: sqlite3.Row | None) -> Any:
    """The single value of a PRAGMA's row."""
    if row is None:
        raise LookupError("the database gave no row where there always is one")
    return row[0]


def backup_file(src: str, dest: str) -> None:
    """Copy a live database with SQLite's online backup API."""
    if not Path(src).exists():
        raise StoreError(f"There is no database at {src}.")
    Path(dest).parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"file:{src}?mode=ro", uri=True, timeout=5.0)
    try:
        target = sqlite3.connect(dest)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()


def sqlite_in_use(path: str | Path) -> bool:
    """Whether another connection (a running bot, most likely) has this SQLite database open.

    The store keeps its databases in WAL mode, where every connection that has read the file holds a shared lock
    on it until it closes; a connection in exclusive locking mode cannot read past that lock.
    """
    if not Path(path).is_file():
        return False
    db = sqlite3.connect(str(path), timeout=0, isolation_level=None)
    try:
        db.execute("PRAGMA locking_mode = EXCLUSIVE")
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            return True
        raise
    finally:
        db.close()
    return False


def explain(path: str, exc: sqlite3.Error) -> str:
    """What to tell the person running the bot about an error SQLite raised while opening `path`."""
    text = str(exc)
    if "not a database" in text or "malformed" in text:
        return (
            f"{path} is not a SQLite database, or it is damaged ({text}). Point DATABASE_PATH at the right file, "
            "or move this one away and restore a backup made with `python -m storage backup`."
        )
    if "locked" in text or "busy" in text:
        return (
            f"The database {path} is locked by another process ({text}). Is another copy of the bot running? "
            "Stop it, or give this one its own DATABASE_PATH."
        )
    if "readonly" in text or "unable to open" in text or "permission" in text.lower():
        return f"The database {path} cannot be written ({text}). Check the file's permissions or DATABASE_PATH."
    return f"The database {path} cannot be used: {text}."

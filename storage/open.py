"""Opening the store: the database a setting names (a SQLite file or a postgresql:// URL), migrated, in a `Store`."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from .database import CONNECT_TIMEOUT, Database, redact
from .records import StoreError
from .sqlite import SqliteDatabase, explain
from .store import Store


def is_url(target: str | Path) -> bool:
    """Whether a database setting names a PostgreSQL server (postgresql://…) rather than a SQLite file."""
    return str(target).startswith(("postgresql://", "postgres://"))


def describe(target: str | Path) -> str:
    """Which database a setting names, without secrets: for the start-up log and the maintenance commands."""
    if is_url(target):
        return f"PostgreSQL {redact(target)}"
    return f"SQLite file {Path(target).resolve() if str(target) != ':memory:' else target}"


async def open_database(
    target: str | Path,
    *,
    readonly: bool = False,
    connect_timeout: float = CONNECT_TIMEOUT,
    application_name: str = "kokeshi",
) -> Database:
    """Open (creating or migrating) the database a setting names; StoreError says clearly what is wrong."""
    if is_url(target):
        from .postgres import PostgresDatabase  # asyncpg is loaded only by those who use it

        return await PostgresDatabase.connect(
            str(target), readonly=readonly, timeout=connect_timeout, application_name=application_name
        )
    return await SqliteDatabase.open(str(target), readonly=readonly)


async def open_store(
    target: str | Path,
    *,
    clock: Callable[[], float] = time.time,
    readonly: bool = False,
    challenge_secret: str | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    application_name: str = "kokeshi",
) -> Store:
    """Open (creating or migrating) the store at `target`; StoreError says clearly what is wrong.

    `target` is a SQLite file, or a postgresql:// URL. `readonly` opens an existing database without writing to it
    (for `verify`); `challenge_secret` overrides the secret kept in the database from which challenge seeds are
    derived. PostgreSQL only: a server that has not answered within `connect_timeout` seconds is given up on;
    `application_name` tells the bot's sessions (`kokeshi`) from the maintenance commands' on the server.
    """
    database = await open_database(
        target, readonly=readonly, connect_timeout=connect_timeout, application_name=application_name
    )
    store = Store(database, clock, challenge_secret=challenge_secret)
    try:
        await store.load_secret()
    except sqlite3.DatabaseError as exc:
        await database.close()
        raise StoreError(explain(database.name, exc)) from None
    except BaseException:
        await database.close()
        raise
    return store

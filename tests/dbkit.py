"""Both backends for the tests: one throwaway PostgreSQL server per session, a fresh database (or file) per test."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
import threading
from collections.abc import Sequence
from typing import Any

import asyncpg
import pytest

from storage import is_url, open_store
from storage.postgres import to_pg
from tests.pgserver import PgServer

# The PostgreSQL one is marked, so that `-m "not postgresql"` (make check) leaves the server out.
BACKENDS = ("sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql))
_TEMPLATE = "kokeshi_template"
_numbers = itertools.count(1)


def _in_thread(work) -> Any:
    """Run a coroutine function to completion on a loop of its own (the test's loop may be running)."""
    found: list = []

    def run() -> None:
        try:
            found.append(("ok", asyncio.run(work())))
        except BaseException as exc:  # handed back to the caller
            found.append(("error", exc))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    kind, value = found[0]
    if kind == "error":
        raise value
    return value


@pytest.fixture(scope="session")
def pg_server():
    """One PostgreSQL server for the whole run, with a migrated template database to copy per test."""
    server = PgServer().start()
    try:
        server.psql(f"CREATE DATABASE {_TEMPLATE}")

        async def migrate() -> None:
            await (await open_store(server.url(_TEMPLATE))).close()

        _in_thread(migrate)
        yield server
    finally:
        server.stop()


def fresh_pg_database(server: PgServer, *, migrated: bool = True) -> str:
    """The URL of a new database on the server: a copy of the migrated template, or empty."""
    name = f"test_{next(_numbers)}"
    server.psql(f"CREATE DATABASE {name}" + (f" TEMPLATE {_TEMPLATE}" if migrated else ""))
    return server.url(name)


@pytest.fixture(params=BACKENDS)
def database(request, tmp_path) -> str:
    """Where a store lives, once per backend: a SQLite file, or a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        return str(tmp_path / "kokeshi.sqlite3")
    return fresh_pg_database(request.getfixturevalue("pg_server"))


def sql(database: str, statement: str, params: Sequence[Any] = ()) -> list[tuple]:
    """Run one statement on the database behind the store's back (to damage or inspect it); returns its rows."""
    if not is_url(database):
        with sqlite3.connect(database) as db:
            return [tuple(r) for r in db.execute(statement, params).fetchall()]

    async def run() -> list[tuple]:
        db = await asyncpg.connect(database)
        try:
            return [tuple(r) for r in await db.fetch(to_pg(statement), *params)]
        finally:
            await db.close()

    return _in_thread(run)

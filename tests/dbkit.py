"""Both backends for the tests: one throwaway PostgreSQL server per session, a fresh database (or file) per test."""

from __future__ import annotations

import asyncio
import gc
import itertools
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import aiosqlite
import asyncpg
import pytest
from aiosqlite.core import _connection_worker_thread

from storage import Store, is_url, migrations, open_store
from storage.postgres import pg_migrations, to_pg
from tests.pgserver import PgServer


class Clock:
    """A hand-driven clock for a store: `now` moves when a test moves it, and by `tick` at each reading (0: never
    by itself)."""

    def __init__(self, now: float = 1_000_000.0, tick: float = 0.0) -> None:
        self.now = now
        self.tick = tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


async def decide(store: Store, game_id: int, rng: random.Random, **kwargs: Any) -> bool:
    """A random decision of the seat a game waits for, saved as the platform's table saves one (`play_match`, with
    `kwargs`: its source, its timers); False, and nothing saved, once the game is over."""
    match, version, _record = await store.load_match(game_id)
    if match.is_over:
        return False
    seat = match.waiting()[0]
    await store.play_match(game_id, version, seat, rng.choice(match.legal_actions(seat)), **kwargs)
    return True


async def play_out(store: Store, game_id: int, seed: int = 1) -> None:
    """Random decisions until the game is over, each as `decide` makes it (the game is loaded once: each save
    returns the match after it)."""
    rng = random.Random(seed)
    match, version, _record = await store.load_match(game_id)
    while not match.is_over:
        seat = match.waiting()[0]
        played = await store.play_match(game_id, version, seat, rng.choice(match.legal_actions(seat)))
        match, version = played.match, played.record.version


# The PostgreSQL one is marked, so that `-m "not postgresql"` (make check) leaves the server out.
BACKENDS = ("sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql))
_TEMPLATE = "kokeshi_template"
_numbers = itertools.count(1)
# aiosqlite names each connection's thread after the function it runs.
_SQLITE_THREAD = f"({_connection_worker_thread.__name__})"


def sqlite_threads() -> set[threading.Thread]:
    """The threads of the aiosqlite connections open in this process (one per connection, until it is closed)."""
    return {t for t in threading.enumerate() if t.name.endswith(_SQLITE_THREAD) and t.is_alive()}


def still_running(threads: set[threading.Thread], wait: float = 2.0) -> set[threading.Thread]:
    """Those of `threads` still running after up to `wait` seconds (a closed connection's thread ends soon after)."""
    deadline = time.monotonic() + wait
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    return {t for t in threads if t.is_alive()}


def stop_connections(threads: set[threading.Thread]) -> None:
    """Close the aiosqlite connections behind `threads` from outside their event loop, so that a run that found
    them left open still ends (the test that left them has failed already)."""
    for found in gc.get_objects():
        if isinstance(found, aiosqlite.Connection) and found._thread in threads:
            found.stop()  # closes the connection on its own thread, which then ends


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


def on_backends(
    shapes: Sequence[Any], name: Callable[[Any], str], postgresql: Sequence[int], quick: Sequence[int] = ()
) -> list[Any]:
    """Parameters (database, shape) for `indirect=["database"]`: every shape on SQLite (those not `quick` marked
    slow, out of `make check`), the `postgresql` ones on PostgreSQL too: the store's own tests run every write on
    both backends, so a game-sized test needs only a game in progress and a finished one there."""
    return [
        *(
            pytest.param("sqlite", shape, marks=() if i in quick else pytest.mark.slow, id=f"sqlite-{name(shape)}")
            for i, shape in enumerate(shapes)
        ),
        *(
            pytest.param("postgresql", shapes[i], marks=pytest.mark.postgresql, id=f"postgresql-{name(shapes[i])}")
            for i in postgresql
        ),
    ]


@pytest.fixture(params=BACKENDS)
def database(request, tmp_path) -> str:
    """Where a store lives, once per backend: a SQLite file, or a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        return str(tmp_path / "kokeshi.sqlite3")
    return fresh_pg_database(request.getfixturevalue("pg_server"))


@pytest.fixture(params=BACKENDS)
def empty(request, tmp_path) -> str:
    """An empty database on each backend, not yet migrated (a migration's tests build an older schema in it)."""
    if request.param == "sqlite":
        return str(tmp_path / "old.sqlite3")
    return fresh_pg_database(request.getfixturevalue("pg_server"), migrated=False)


def build_at(database: str, schema: int, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
    """Bring an empty database to `schema` (the first migrations), then run these statements, as the bot of that
    schema wrote them."""
    if not is_url(database):
        db = sqlite3.connect(database)
        for number, script in migrations()[:schema]:
            db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
        for statement, params in statements:
            db.execute(statement, params)
        db.commit()
        db.close()
        return

    async def run() -> None:
        db = await asyncpg.connect(database)
        try:
            async with db.transaction():
                for _, script in pg_migrations()[:schema]:
                    await db.execute(script)
                await db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                await db.execute("INSERT INTO schema_version (version) VALUES ($1)", schema)
                for statement, params in statements:
                    await db.execute(to_pg(statement), *params)
        finally:
            await db.close()

    _in_thread(run)


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

"""Both backends for the tests: one throwaway PostgreSQL server per session, a fresh database (or file) per test."""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
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

from games.kokeshi.engine import RandomPolicy, new_game
from storage import Store, is_url, migrations, open_store
from storage.logs import ENDS_TURN, REVEALS, pack_log
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


# The events that ended a turn in a log written by name: undo never reached back past one of them.
_TURN_BOUNDARIES = frozenset({"turn_ended", "setup_done", "game_over"})


def named_log_flags(events: Sequence[Any]) -> int:
    """The `actions.flags` bits older versions wrote for a Kokeshi action that caused these engine events."""
    flags = ENDS_TURN if any(e.kind in _TURN_BOUNDARIES for e in events) else 0
    return flags | (REVEALS if any(e.reveals for e in events) else 0)


def named_log_game(
    database: str,
    names: Sequence[str],
    *,
    seed: int,
    side: str = "basic",
    rules: int | None = None,
    moves: int | None = 0,
    policy: int = 1,
    ai: Sequence[str] = (),
    ai_level: str | None = None,
    resigned: dict[str, int] | None = None,
    dealt: bool = True,
    players: int | None = None,
    users: Sequence[int] | None = None,
    guild_id: int = 1,
    channel_id: int = 10,
    language: str | None = None,
    challenge: str | None = None,
    created_at: float = 1_000_000.0,
) -> int:
    """A game of Kokeshi as older versions of the bot wrote it, its log naming its players (`log_seats` 0), written
    straight into the database; returns its id. Seat i is `names[i]`, its user `users[i]` (by default 100 + i; none
    for a name in `ai`, an AI seat at `ai_level`), in `guild_id`'s `channel_id`, its thread speaking `language`.

    Dealt with the players' names under `rules` (None: the current ones) on `seed`, then `moves` random decisions
    of `RandomPolicy(policy)` (None: to the end): the `actions` rows with their flags and the snapshot of a game in
    progress, or the results, packed log and status of a finished one. `resigned` (name: the decisions made before
    they left): from then on the AI decides for that seat, which ranks last. Without `dealt`, a lobby for `players`
    (by default as many as `names`). A `challenge` ("daily:<key>") is the first player's rated attempt at it."""
    resigned = resigned or {}
    users = users or [100 + i for i in range(len(names))]
    seats = [
        (i, name, None if name in ai else users[i], int(name in ai or name in resigned), int(name in resigned))
        for i, name in enumerate(names)
    ]
    solo = (players or len(names)) == 1
    statements: list[tuple[str, Sequence[Any]]] = [
        (
            "INSERT INTO seats (game_id, seat, name, user_id, ai, resigned, ai_level) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (*seat, ai_level if seat[1] in ai else None),
        )
        for seat in seats
    ]
    where = {
        "guild_id": guild_id,
        "channel_id": channel_id,
        "host_id": users[0],
        "language": language,
        "challenge": challenge,
    }
    if challenge is not None:
        kind, key = challenge.split(":", 1)
        statements.append(
            (
                "INSERT INTO challenge_attempts (game_id, game, kind, key, user_id, guild_id, rated, started_at) "
                "VALUES (?, 'kokeshi', ?, ?, ?, ?, 1, ?)",
                (kind, key, users[0], guild_id, created_at),
            )
        )
    if not dealt:
        joined = len([name for name in names[1:] if name not in ai])  # each person who joined moved it on
        lobby = {
            "status": "lobby",
            "players": players or len(names),
            "side": side,
            "solo": int(solo),
            "version": joined,
        }
        return _write_game(database, where | lobby, created_at, statements)
    game = new_game(list(names), seed=seed, side=side, solo=solo, **({} if rules is None else {"rules": rules}))
    choose = RandomPolicy(policy)
    log: list[tuple[int, str, str, str, float, int]] = []
    while game.prompt is not None and (moves is None or len(log) < moves):
        player, action = game.prompt.player, choose.choose(game)
        left = player in resigned and len(log) >= resigned[player]
        flags = named_log_flags(game.apply(player, action))
        source = "ai" if player in ai or left else "player"
        log.append((len(log) + 1, player, action, source, created_at + len(log) + 1, flags))
    columns: dict[str, Any] = {
        "status": "active",
        "players": len(names),
        "side": side,
        "solo": int(solo),
        "seed_text": str(seed),
        "rules": game.rules,
        "version": len(names) + len(log),
        "moves": len(log),
        "snapshot": game.to_json(),
        "dealt_named": 1,
    }
    if not game.is_over:
        logged = (
            "INSERT INTO actions (game_id, seq, player, action, source, created_at, flags) VALUES (?, ?, ?, ?, ?, ?, ?)"
        )
        statements += [(logged, row) for row in log]
        return _write_game(database, where | columns, created_at, statements)
    finished = created_at + len(log) + 1
    # Ranked as the game ranks them, a resignation after every other; an opponent without a seat (the automa)
    # numbered past the seats.
    ranking = [n for n in game.ranking() if n not in resigned] + [n for n in game.ranking() if n in resigned]
    by_name = {seat[1]: seat for seat in seats}
    scores = game.scores()
    for rank, name in enumerate(ranking, start=1):
        seat = by_name.get(name, (len(seats), name, None, 1, 0))
        score = scores[name].to_dict()
        details = json.dumps({k: v for k, v in score.items() if k != "total"}, separators=(",", ":"))
        statements.append(
            (
                "INSERT INTO results (game_id, seat, name, user_id, ai, resigned, rank, total, details, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*seat, rank, score["total"], details, finished),
            )
        )
    columns |= {
        "status": "finished",
        "snapshot": None,
        "log": pack_log(log, created_at),
        "finished_at": finished,
    }
    return _write_game(database, where | columns, created_at, statements)


def _write_game(
    database: str, columns: dict[str, Any], created_at: float, statements: Sequence[tuple[str, Sequence[Any]]]
) -> int:
    """Insert a Kokeshi game's row with these columns, then run `statements` for it in the same transaction, the
    game's id before each one's parameters; returns the id."""
    row = {
        "turn_timer": None,
        "created_at": created_at,
        "updated_at": created_at,
        "game": "kokeshi",
        "settings": "{}",
        "log_seats": 0,
        **columns,
    }
    insert = f"INSERT INTO games ({', '.join(row)}) VALUES ({', '.join('?' * len(row))}) RETURNING id"
    if not is_url(database):
        with sqlite3.connect(database) as db:
            game_id = int(db.execute(insert, list(row.values())).fetchone()[0])
            for statement, params in statements:
                db.execute(statement, [game_id, *params])
        return game_id

    async def run() -> int:
        db = await asyncpg.connect(database)
        try:
            async with db.transaction():
                game_id = int(await db.fetchval(to_pg(insert), *row.values()))
                for statement, params in statements:
                    await db.execute(to_pg(statement), game_id, *params)
            return game_id
        finally:
            await db.close()

    return _in_thread(run)


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

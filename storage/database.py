"""What the store needs of a database: the `Database` protocol its SQLite and PostgreSQL backends implement.

The store writes one SQL for both: `?` placeholders, `INSERT … ON CONFLICT … DO UPDATE`, `RETURNING`, and SQLite's
schema in `migrations/`. A backend runs that SQL its own way (PostgreSQL numbers the placeholders and translates
the schema) and says, through this protocol, the little that still differs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

from .records import StoreError

MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATIONS_PG = Path(__file__).with_name("migrations_pg")
# Seconds: how long a PostgreSQL server may take to accept a connection, and how long closing waits for a commit.
CONNECT_TIMEOUT = 15.0
CLOSE_WAIT = 10.0


class Row(Protocol):
    """A row read: its values by column name or position, in column order (sqlite3.Row, asyncpg.Record)."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


class Transaction(Protocol):
    """Statements inside one write transaction; what it reads includes what it has written."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the rows it changed."""
        ...

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        ...

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query (or of an INSERT … RETURNING)."""
        ...


class Database(Protocol):
    """One open database, SQLite or PostgreSQL, as the store uses it."""

    @property
    def name(self) -> str:
        """The database as messages and logs name it: a file path, or a URL without its password."""
        ...

    @property
    def readonly(self) -> bool:
        """Opened only to be read (`verify`): nothing is written, migrations included."""
        ...

    @property
    def error(self) -> type[Exception]:
        """The error the database raises when it cannot answer a statement (a damaged file, a broken query)."""
        ...

    # ---------------------------------------------------------------- statements

    def transaction(self, *, durable: bool = True) -> AbstractAsyncContextManager[Transaction]:
        """One write transaction at a time in this process, committed at the end of the block, rolled back on error.

        While it is open, this task's reads (`fetch_one`, `fetch_all`) see its changes. `durable=False` commits
        without waiting for the disk (still atomic): only for rows that can be rebuilt, like a message id.
        """
        ...

    def reads_on_writer(self) -> AbstractContextManager[None]:
        """Within it, this task reads where it writes, when the backend reads elsewhere otherwise (SQLite's read
        connection): for a game whose lock the task holds, so that a move never queues behind a long read."""
        ...

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, read to its end in one call (no cursor outlives it)."""
        ...

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query, read to its end in one call."""
        ...

    async def lock_shared_totals(self, tx: Transaction) -> None:
        """Serialise the transactions that add to totals shared between games, until `tx` ends."""
        ...

    # ---------------------------------------------------------------- dialect

    def floor(self, expression: str) -> str:
        """SQL for the largest integer not above `expression`."""
        ...

    # ---------------------------------------------------------------- schema and maintenance

    async def migrate(self) -> None:
        """Apply the migrations the database lacks; opened read-only, check that it lacks none."""
        ...

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        ...

    async def integrity(self) -> list[str]:
        """What is wrong with the database's own storage (damaged pages, broken indexes); empty when it is sound."""
        ...

    async def backup(self, dest: str | Path) -> None:
        """A consistent copy of the whole database at `dest`, safe while the bot runs (or StoreError saying how)."""
        ...

    async def close(self) -> None:
        """Close once a write transaction under way has committed (waiting at most `CLOSE_WAIT` seconds)."""
        ...


def migrations(folder: Path = MIGRATIONS) -> list[tuple[int, str]]:
    """The numbered schema migrations, in order: (number, SQL); SQLite's unless another folder is named."""
    found = []
    for path in sorted(folder.glob("*.sql")):
        found.append((int(path.name.split("_", 1)[0]), path.read_text(encoding="utf-8")))
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise StoreError(f"migration files must be numbered 0001, 0002, … without gaps; found {numbers}")
    return found


_QUERY_SECRET = re.compile(r"(?i)([?&][^=&#]*password=)[^&#]*")


def redact(target: str | Path) -> str:
    """A database setting fit for messages and logs: a URL's password, in its address or its query, masked (any
    scheme: a mistyped one is echoed back too)."""
    text = str(target)
    scheme, found, rest = text.partition("://")
    if not found:
        return text
    cut = min((i for i in (rest.find("/"), rest.find("?"), rest.find("#")) if i >= 0), default=len(rest))
    netloc, tail = rest[:cut], rest[cut:]
    userinfo, at, host = netloc.rpartition("@")
    if at and ":" in userinfo:
        netloc = f"{userinfo.split(':', 1)[0]}:***@{host}"
    return f"{scheme}://{netloc}" + _QUERY_SECRET.sub(r"\g<1>***", tail)

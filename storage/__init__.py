"""The store for games on SQLite (aiosqlite) or PostgreSQL (asyncpg): the action log is the truth, snapshots a cache."""

from .community import BOARDS, BoardRow, Stats, scope_of
from .database import MIGRATIONS_PG, Database, Row, Transaction, migrations, redact
from .open import describe, is_url, open_store
from .ratings import PROVISIONAL_GAMES, Rating, challenge_key, challenge_seed, streak
from .records import (
    REFUSALS,
    Applied,
    BrokenGame,
    GameNotFound,
    GameReach,
    GameRecord,
    GameStateError,
    LoggedAction,
    Result,
    Seat,
    StaleVersion,
    StoreError,
    StoreRefusal,
    ThreadPosts,
    Timer,
    TurnPosts,
    UndoRefused,
)
from .sqlite import backup_file
from .store import Store, ai_level_key, clean_name

__all__ = [
    "BOARDS",
    "REFUSALS",
    "MIGRATIONS_PG",
    "PROVISIONAL_GAMES",
    "BoardRow",
    "Database",
    "Rating",
    "Row",
    "Stats",
    "ai_level_key",
    "challenge_key",
    "challenge_seed",
    "scope_of",
    "streak",
    "Applied",
    "BrokenGame",
    "GameNotFound",
    "GameReach",
    "GameRecord",
    "GameStateError",
    "LoggedAction",
    "Result",
    "Seat",
    "StaleVersion",
    "Store",
    "StoreError",
    "StoreRefusal",
    "Timer",
    "ThreadPosts",
    "Transaction",
    "TurnPosts",
    "UndoRefused",
    "backup_file",
    "clean_name",
    "describe",
    "is_url",
    "migrations",
    "open_store",
    "redact",
]

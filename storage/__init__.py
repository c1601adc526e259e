"""The store for games on SQLite (aiosqlite) or PostgreSQL (asyncpg): the action log is the truth, snapshots a cache."""

from .community import BOARDS, BoardRow, Endings, Stats, scope_of
from .database import MIGRATIONS_PG, Database, Row, Transaction, migrations, redact
from .open import describe, is_url, open_store
from .ratings import PROVISIONAL_GAMES, Rating, challenge_key, challenge_seed, streak
from .records import (
    DEFAULT_GAME,
    REFUSALS,
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
    Timer,
    TurnPosts,
    UndoRefused,
)
from .sqlite import backup_file
from .store import Store, clean_name

__all__ = [
    "BOARDS",
    "DEFAULT_GAME",
    "REFUSALS",
    "MIGRATIONS_PG",
    "PROVISIONAL_GAMES",
    "BoardRow",
    "Endings",
    "Database",
    "Rating",
    "Row",
    "Stats",
    "challenge_key",
    "challenge_seed",
    "scope_of",
    "streak",
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

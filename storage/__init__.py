"""The store for games on SQLite (aiosqlite) or PostgreSQL (asyncpg): the action log is the truth, snapshots a cache."""

from .community import BOARDS, BoardRow, Stats, scope_of
from .ratings import PROVISIONAL_GAMES, Rating, challenge_key, challenge_seed, streak
from .records import (
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
    Timer,
    TurnPosts,
    UndoRefused,
)
from .store import MIGRATIONS_PG, Store, ai_level_key, backup_file, clean_name, is_url, migrations

__all__ = [
    "BOARDS",
    "MIGRATIONS_PG",
    "PROVISIONAL_GAMES",
    "BoardRow",
    "Rating",
    "Stats",
    "ai_level_key",
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
    "Timer",
    "TurnPosts",
    "UndoRefused",
    "backup_file",
    "clean_name",
    "is_url",
    "migrations",
]

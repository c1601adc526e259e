"""SQLite store for games, built on aiosqlite: the action log is the truth, snapshots are a cache."""

from .records import (
    BrokenGame,
    GameNotFound,
    GameRecord,
    GameStateError,
    LoggedAction,
    Result,
    Seat,
    StaleVersion,
    StoreError,
    Timer,
    UndoRefused,
)
from .store import Store, backup_file, clean_name, migrations

__all__ = [
    "BrokenGame",
    "GameNotFound",
    "GameRecord",
    "GameStateError",
    "LoggedAction",
    "Result",
    "Seat",
    "StaleVersion",
    "Store",
    "StoreError",
    "Timer",
    "UndoRefused",
    "backup_file",
    "clean_name",
    "migrations",
]

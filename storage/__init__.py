"""SQLite store for games, built on aiosqlite."""

"""Shared fixtures: a bot on a fresh database, a simulated server to play in, and both storage backends."""

from tests.botkit import db_path, simcord_bot, world
from tests.dbkit import database, pg_server

__all__ = ["database", "db_path", "pg_server", "simcord_bot", "world"]

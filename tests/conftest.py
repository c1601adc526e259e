"""Shared fixtures: a bot on a fresh database, and a simulated server to play in."""

from tests.botkit import db_path, simcord_bot, world

__all__ = ["db_path", "simcord_bot", "world"]

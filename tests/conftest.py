"""Shared fixtures: a bot on a fresh database, a simulated server to play in, and both storage backends."""

import pytest

from tests.botkit import db_path, simcord_bot, world
from tests.dbkit import database, pg_server

__all__ = ["database", "db_path", "pg_server", "simcord_bot", "world"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that asks for the PostgreSQL server itself is a `postgresql` test, as the backend's params are."""
    for item in items:
        if "pg_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgresql)

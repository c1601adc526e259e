"""Shared fixtures: a bot on a fresh database, a simulated server to play in, and both storage backends."""

import sys
import threading

import pytest

import games
from tests.botkit import db_path, simcord_bot, world
from tests.dbkit import database, empty, pg_server, sqlite_threads, still_running, stop_connections
from tests.games import tiny

__all__ = ["bids", "database", "db_path", "empty", "pg_server", "simcord_bot", "world"]


@pytest.fixture
def bids():
    """Bids, the contract suite's tiny game (simultaneous secret bids), registered for the test; left registered
    if it already was."""
    was = "bids" in tuple(games.keys())
    games.register(tiny.MODULE)
    yield tiny.MODULE
    if not was:
        games.unregister("bids")


_threads_before = pytest.StashKey[set[threading.Thread]]()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that asks for the PostgreSQL server itself is a `postgresql` test, as the backend's params are."""
    for item in items:
        if "pg_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgresql)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Under `--dist loadgroup`, a test marked with an `xdist_group` carries its group in its id, which is how
    xdist keeps the group on one worker: a pytest and xdist that no longer agree on it would spread a browser
    module's tests over both workers (a sandbox and a browser each) without a word."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    lost = [i.nodeid for i in session.items if i.get_closest_marker("xdist_group") and "@" not in i.nodeid]
    if lost:
        why = f"--dist loadgroup does not group {lost[0]} (pytest {pytest.__version__}): see requirements-dev.txt"
        print(f"error: {why}", file=sys.__stderr__, flush=True)
        raise pytest.UsageError(why)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item):
    item.stash[_threads_before] = sqlite_threads()
    return (yield)


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """A test (its fixtures included) closes every SQLite connection it opens: aiosqlite runs each on a thread of
    its own, not a daemon, and one left open keeps the test process from ever exiting."""
    result = yield
    left = still_running(sqlite_threads() - item.stash.get(_threads_before, set()))
    if left:
        stop_connections(left)
        raise AssertionError(
            f"{item.nodeid} left {len(left)} SQLite connection(s) open (a store or a bot never closed): close "
            "them (`await store.close()`, `await bot.close()`, `botkit.restart` for a restart); left open, they "
            "keep the process from exiting"
        )
    return result

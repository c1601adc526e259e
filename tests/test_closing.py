"""Closing a store or a bot ends every SQLite connection it opened: none is left to keep the process alive."""

from bot import create_bot
from storage import StoreError, open_store
from tests.dbkit import sql, sqlite_threads, still_running


async def test_a_store_has_a_thread_per_connection_and_closing_it_ends_both(tmp_path) -> None:
    before = sqlite_threads()
    store = await open_store(str(tmp_path / "k.sqlite3"))
    opened = sqlite_threads() - before
    assert len(opened) == 2  # the write connection and the read connection
    await store.close()
    assert still_running(opened) == set()
    await store.close()  # a second close is harmless


async def test_a_read_only_store_closes_its_one_connection(tmp_path) -> None:
    path = str(tmp_path / "k.sqlite3")
    await (await open_store(path)).close()
    before = sqlite_threads()
    store = await open_store(path, readonly=True)
    opened = sqlite_threads() - before
    assert len(opened) == 1
    await store.close()
    assert still_running(opened) == set()


async def test_a_store_that_fails_to_open_leaves_no_connection_open(tmp_path) -> None:
    path = str(tmp_path / "k.sqlite3")
    await (await open_store(path)).close()
    sql(path, "PRAGMA user_version = 999")  # written by a newer version of the bot
    before = sqlite_threads()
    try:
        await open_store(path)
    except StoreError as exc:
        assert "newer" in str(exc)
    else:
        raise AssertionError("a database from a newer version opened")
    assert still_running(sqlite_threads() - before) == set()


async def test_closing_a_bot_closes_its_store(tmp_path) -> None:
    before = sqlite_threads()
    bot = create_bot(str(tmp_path / "k.sqlite3"))
    await bot.open_store()
    opened = sqlite_threads() - before
    assert len(opened) == 2
    await bot.close()
    assert still_running(opened) == set()

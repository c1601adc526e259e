"""Maintenance: `python -m storage verify|compact|seat-log [database]`, `backup <src> <dest>` and `copy <sqlite> <url>`.

A database is a SQLite file or a postgresql:// URL; without one, DATABASE_URL or else DATABASE_PATH is used.
Nothing these commands print names a password.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
from urllib.parse import parse_qsl, unquote, urlsplit

import asyncpg

from .database import CONNECT_TIMEOUT, redact
from .open import is_url, open_store
from .records import BrokenGame, GameNotFound, StaleVersion, StoreError
from .sqlite import backup_file, sqlite_in_use

DEFAULT_PATH = "data/kokeshi.sqlite3"


def _default() -> str:
    return os.environ.get("DATABASE_URL", "").strip() or os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_PATH


def _timeout() -> float:
    """Seconds a PostgreSQL server has to accept the connection: CONNECT_TIMEOUT, as for the bot."""
    try:
        value = float(os.environ.get("CONNECT_TIMEOUT", "").strip() or CONNECT_TIMEOUT)
    except ValueError:
        return CONNECT_TIMEOUT
    return value if value > 0 else CONNECT_TIMEOUT


async def _verify(path: str) -> int:
    store = await open_store(path, readonly=True, connect_timeout=_timeout(), application_name="kokeshi-storage")
    try:
        problems = await store.verify()
        try:
            count = await store.started_games()
        except sqlite3.DatabaseError:
            count = len({g for g, _ in problems if g})
    finally:
        await store.close()
    for game_id, problem in problems:
        print(f"game {game_id}: {problem}" if game_id else problem)
    print(f"{count} games checked, {len(problems)} with problems")
    return 1 if problems else 0


async def _compact(path: str) -> int:
    store = await open_store(path, connect_timeout=_timeout(), application_name="kokeshi-storage")
    try:
        packed = await store.compact()
    finally:
        await store.close()
    print(f"packed the logs of {packed} finished games")
    return 0


async def _seat_log(path: str, game: int | None) -> int:
    store = await open_store(path, connect_timeout=_timeout(), application_name="kokeshi-storage")
    moved, refused = 0, 0
    try:
        for game_id in await store.named_log_games() if game is None else [game]:
            try:
                if await store.to_seat_log(game_id):
                    moved += 1
                else:
                    print(f"game {game_id} already names its seats by number: nothing to move")
            except GameNotFound:
                print(f"There is no game {game_id}.", file=sys.stderr)
                return 2
            except (BrokenGame, StaleVersion) as exc:
                refused += 1
                print(f"game {game_id}: not moved: {exc.reason if isinstance(exc, BrokenGame) else exc}")
    finally:
        await store.close()
    games = "game" if moved == 1 else "games"
    print(f"moved the logs of {moved} {games} to seat numbers" + (f", {refused} refused" if refused else ""))
    return 1 if refused else 0


async def _copy(path: str, url: str, *, replace: bool, while_running: bool) -> int:
    from .postgres import copy_sqlite

    counts = await copy_sqlite(path, url, replace=replace, while_running=while_running, connect_timeout=_timeout())
    print(f"copied {counts['games']} games ({sum(counts.values())} rows) from {path} to {redact(url)}; verifying")
    return await _verify(url)


def _backup(src: str, dest: str) -> int:
    for target in (src, dest):
        if is_url(target):
            raise StoreError(
                f"{redact(target)} is a PostgreSQL database: back it up with pg_dump and restore it with pg_restore "
                "into a new database (see the README), not with this command."
            )
    if os.path.exists(dest) and sqlite_in_use(dest):
        raise StoreError(
            f"The database {dest} is open in another process (a running bot?): writing a backup over it would take "
            "its games back in time under the bot's feet. Stop the bot first, or back up to a new file."
        )
    backup_file(src, dest)
    print(f"backed up {src} to {dest}")
    return 0


def _passwords(*targets: str) -> set[str]:
    """The passwords written in these database URLs (in the address or the query), to keep out of any message."""
    found = set()
    for target in targets:
        if "://" not in target:
            continue
        parts = urlsplit(target)
        found.add(parts.password or "")
        found.update(value for key, value in parse_qsl(parts.query) if "password" in key.lower())
    found |= {unquote(p) for p in found}
    return {p for p in found if p}


def _clean(text: str, secrets: set[str]) -> str:
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def _failure(exc: BaseException, target: str) -> tuple[str, int]:
    """What to say about an error the database raised, and the exit status."""
    name = redact(target)
    if isinstance(exc, StoreError):
        return str(exc), 2
    if isinstance(exc, TimeoutError):
        return (
            f"The database {name} stopped answering (a statement got no reply in time): check that its server runs "
            "and can be reached from here, then run the command again.",
            2,
        )
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        detail = getattr(exc, "detail", None) or str(exc)
        return (
            f"The database {name} already holds rows this command conflicts with ({detail}). Copy only into an "
            "empty database, or start a failed copy over with --replace.",
            2,
        )
    if isinstance(exc, asyncpg.PostgresError):
        return f"The database {name} refused the command: {exc}", 1
    if isinstance(exc, sqlite3.DatabaseError):
        text = str(exc)
        if "malformed" in text or "not a database" in text:
            return f"The database {name} is damaged: {text}", 1
        return f"The database {name} cannot be used: {text}", 1
    return f"The database {name} cannot be reached: {exc or type(exc).__name__}", 2


def main(argv: list[str] | None = None) -> int:
    """Run one maintenance command; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m storage", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="replay every game from its log and report disagreements")
    verify.add_argument("path", nargs="?", default=_default())
    compact = commands.add_parser("compact", help="pack the logs of finished games written by older versions")
    compact.add_argument("path", nargs="?", default=_default())
    seat_log = commands.add_parser(
        "seat-log",
        help="move the games whose log names their players (stored by older versions) to a log by seat number, for "
        "the platform (/games) to play on; run it with the bot stopped",
    )
    seat_log.add_argument("path", nargs="?", default=_default())
    seat_log.add_argument("--game", type=int, metavar="N", help="move only game N (default: every one)")
    backup = commands.add_parser(
        "backup", help="copy a SQLite database consistently, even while the bot runs (never over a running one)"
    )
    backup.add_argument("src")
    backup.add_argument("dest")
    copy = commands.add_parser("copy", help="copy a SQLite database into an empty PostgreSQL one, then verify it")
    copy.add_argument("src", help="the SQLite file (stop the bot that uses it first)")
    copy.add_argument("url", help="postgresql://user:password@host:port/database")
    copy.add_argument(
        "--replace",
        action="store_true",
        help="delete everything in the PostgreSQL database first: to start a failed copy over",
    )
    copy.add_argument(
        "--while-running",
        action="store_true",
        help="copy even while a bot has the SQLite file open (a consistent snapshot, for a rehearsal)",
    )
    args = parser.parse_args(argv)
    targets = [t for t in (getattr(args, name, None) for name in ("path", "src", "dest", "url")) if t]
    secrets = _passwords(*targets, os.environ.get("DATABASE_URL", ""))
    target = getattr(args, "url", None) or getattr(args, "path", None) or args.src
    try:
        if args.command in ("verify", "compact", "seat-log"):
            if not is_url(args.path) and not os.path.exists(args.path):
                print(f"There is no database at {args.path}.", file=sys.stderr)
                return 2
            if args.command == "seat-log":
                return asyncio.run(_seat_log(args.path, args.game))
            return asyncio.run((_verify if args.command == "verify" else _compact)(args.path))
        if args.command == "copy":
            if not is_url(args.url):
                print(f"{redact(args.url)} is not a postgresql:// URL.", file=sys.stderr)
                return 2
            return asyncio.run(_copy(args.src, args.url, replace=args.replace, while_running=args.while_running))
        return _backup(args.src, args.dest)
    except (StoreError, TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError, sqlite3.Error) as exc:
        message, status = _failure(exc, target)
        print(_clean(message, secrets), file=sys.stderr)
        return status


if __name__ == "__main__":
    sys.exit(main())

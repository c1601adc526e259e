"""Maintenance: `python -m storage verify|compact [database]`, `backup <src> <dest>` and `copy <sqlite> <url>`.

A database is a SQLite file or a postgresql:// URL; without one, DATABASE_URL or else DATABASE_PATH is used.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys

import asyncpg

from .records import StoreError
from .store import Store, backup_file, is_url

DEFAULT_PATH = "data/kokeshi.sqlite3"


def _default() -> str:
    return os.environ.get("DATABASE_URL", "").strip() or os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_PATH


async def _verify(path: str) -> int:
    store = await Store.open(path, readonly=True)
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
    store = await Store.open(path)
    try:
        packed = await store.compact()
    finally:
        await store.close()
    print(f"packed the logs of {packed} finished games")
    return 0


async def _copy(path: str, url: str) -> int:
    from .postgres import copy_sqlite, redact

    counts = await copy_sqlite(path, url)
    print(f"copied {counts['games']} games ({sum(counts.values())} rows) from {path} to {redact(url)}; verifying")
    return await _verify(url)


def main(argv: list[str] | None = None) -> int:
    """Run one maintenance command; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m storage", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="replay every game from its log and report disagreements")
    verify.add_argument("path", nargs="?", default=_default())
    compact = commands.add_parser("compact", help="pack the logs of finished games written by older versions")
    compact.add_argument("path", nargs="?", default=_default())
    backup = commands.add_parser("backup", help="copy a SQLite database consistently, even while the bot runs")
    backup.add_argument("src")
    backup.add_argument("dest")
    copy = commands.add_parser("copy", help="copy a SQLite database into an empty PostgreSQL one, then verify it")
    copy.add_argument("src", help="the SQLite file")
    copy.add_argument("url", help="postgresql://user:password@host:port/database")
    args = parser.parse_args(argv)
    try:
        if args.command in ("verify", "compact"):
            if not is_url(args.path) and not os.path.exists(args.path):
                print(f"There is no database at {args.path}.", file=sys.stderr)
                return 2
            return asyncio.run((_verify if args.command == "verify" else _compact)(args.path))
        if args.command == "copy":
            if not is_url(args.url):
                print(f"{args.url} is not a postgresql:// URL.", file=sys.stderr)
                return 2
            return asyncio.run(_copy(args.src, args.url))
        backup_file(args.src, args.dest)
        print(f"backed up {args.src} to {args.dest}")
        return 0
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 2
    except (sqlite3.DatabaseError, asyncpg.PostgresError) as exc:
        print(f"The database {getattr(args, 'path', args.command)} is damaged: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

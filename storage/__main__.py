"""Maintenance commands: `python -m storage verify|compact [path]` and `python -m storage backup <src> <dest>`."""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys

from .records import StoreError
from .store import Store, backup_file

DEFAULT_PATH = "data/kokeshi.sqlite3"


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


def main(argv: list[str] | None = None) -> int:
    """Run one maintenance command; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m storage", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="replay every game from its log and report disagreements")
    verify.add_argument("path", nargs="?", default=os.environ.get("DATABASE_PATH", DEFAULT_PATH))
    compact = commands.add_parser("compact", help="pack the logs of finished games written by older versions")
    compact.add_argument("path", nargs="?", default=os.environ.get("DATABASE_PATH", DEFAULT_PATH))
    backup = commands.add_parser("backup", help="copy a database consistently, even while the bot runs")
    backup.add_argument("src")
    backup.add_argument("dest")
    args = parser.parse_args(argv)
    try:
        if args.command == "verify":
            if not os.path.exists(args.path):
                print(f"There is no database at {args.path}.", file=sys.stderr)
                return 2
            return asyncio.run(_verify(args.path))
        if args.command == "compact":
            if not os.path.exists(args.path):
                print(f"There is no database at {args.path}.", file=sys.stderr)
                return 2
            return asyncio.run(_compact(args.path))
        backup_file(args.src, args.dest)
        print(f"backed up {args.src} to {args.dest}")
        return 0
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 2
    except sqlite3.DatabaseError as exc:
        print(f"The database {getattr(args, 'path', args.command)} is damaged: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

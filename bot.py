"""Entry point: settings, the bot, and `python bot.py [run|sync|sandbox]`."""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

import discord
from discord.ext import commands
from dotenv import load_dotenv

import i18n
from cogs.community import Community, PageButton
from cogs.components import DYNAMIC_ITEMS
from cogs.tables import Tables, now
from cogs.translator import CatalogTranslator
from storage import Store, StoreError

log = logging.getLogger("kokeshi")

EXTENSIONS = ("cogs.kokeshi", "cogs.timers")
DEFAULT_DATABASE = "data/kokeshi.sqlite3"


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from the environment (or `.env`)."""

    token: str | None
    database_path: str
    log_level: str
    dev_guild_id: int | None
    sandbox_port: int
    challenge_secret: str | None = None
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None

    @classmethod
    def from_env(cls) -> Settings:
        load_dotenv()
        shard_count, shard_ids = _shards(os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", ""))
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        port = os.environ.get("SANDBOX_PORT", "").strip()
        try:
            dev_guild_id = int(guild) if guild else None
            sandbox_port = int(port) if port else 8765
        except ValueError as exc:
            raise SystemExit(f"Bad setting: {exc}. DEV_GUILD_ID and SANDBOX_PORT must be numbers.") from None
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            # DATABASE_URL (postgresql://…) selects PostgreSQL; otherwise the SQLite file at DATABASE_PATH.
            database_path=os.environ.get("DATABASE_URL", "").strip()
            or os.environ.get("DATABASE_PATH", "").strip()
            or DEFAULT_DATABASE,
            log_level=(os.environ.get("LOG_LEVEL", "").strip() or "INFO").upper(),
            dev_guild_id=dev_guild_id,
            sandbox_port=sandbox_port,
            challenge_secret=os.environ.get("CHALLENGE_SECRET", "").strip() or None,
            shard_count=shard_count,
            shard_ids=shard_ids,
        )


def _shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS ("0,1"): how many shards the bot has, and which this process runs."""
    try:
        count = int(count_text) if count_text.strip() else None
        ids = tuple(int(part) for part in ids_text.split(",") if part.strip()) or None
    except ValueError:
        raise SystemExit(
            "Bad setting: SHARD_COUNT must be a number and SHARD_IDS numbers separated by commas."
        ) from None
    if ids is not None and count is None:
        raise SystemExit("Bad setting: SHARD_IDS needs SHARD_COUNT, the number of shards of the whole bot.")
    if count is not None and (count < 1 or any(not 0 <= i < count for i in ids or ())):
        raise SystemExit(f"Bad setting: shard ids run from 0 to SHARD_COUNT - 1 ({(count or 1) - 1}).")
    return count, ids


class KokeshiBot(commands.Bot):
    """The Kokeshi bot: the store, the tables, the cogs and persistent buttons."""

    def __init__(
        self,
        db_path: str,
        *,
        dev_guild_id: int | None = None,
        sync: str = "auto",
        challenge_secret: str | None = None,
        **options,
    ) -> None:
        # Guilds only: channels and threads. No member list, no message content.
        intents = discord.Intents.none()
        intents.guilds = True
        # Nothing a message says pings anyone unless the send names the users it means to ping: a nickname like
        # "@everyone" or a role mention is just text.
        quiet = discord.AllowedMentions(everyone=False, roles=False, users=False, replied_user=False)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=quiet,
            **options,
        )
        self.db_path = db_path
        self.dev_guild_id = dev_guild_id
        self.sync_mode = sync
        self.challenge_secret = challenge_secret
        self.store: Store
        self.tables = Tables(self)
        self.community = Community(self)
        self.sandbox = False

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.db_path, clock=now, challenge_secret=self.challenge_secret)
        self.add_dynamic_items(*DYNAMIC_ITEMS, PageButton)
        await self.tree.set_translator(CatalogTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.sync_mode == "always" or (self.sync_mode == "auto" and await self.commands_changed()):
            await self.sync_commands()

    def command_hash(self) -> str:
        """A fingerprint of the slash commands, to sync only when they changed."""
        payload = [c.to_dict(self.tree) for c in self.tree.get_commands()]
        text = json.dumps(
            {"guild": self.dev_guild_id, "commands": payload, "catalogs": i18n.fingerprint()},
            sort_keys=True,
            default=str,
        )
        return hashlib.sha256(text.encode()).hexdigest()

    async def commands_changed(self) -> bool:
        return await self.store.meta("command_hash") != self.command_hash()

    async def sync_commands(self) -> None:
        """Register the slash commands with Discord (instantly in DEV_GUILD_ID, else globally)."""
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        await self.store.set_meta("command_hash", self.command_hash())
        log.info("synced %d slash commands", len(synced))

    @property
    def timer_shards(self) -> tuple[int, tuple[int, ...]] | None:
        """(shard count, this process's shard ids) when it runs only some shards: it fires only their timers."""
        count, ids = getattr(self, "shard_count", None), getattr(self, "shard_ids", None)
        if not count or ids is None or set(ids) == set(range(count)):
            return None
        return count, tuple(ids)

    def wake_timers(self) -> None:
        """Tell the timer loop that the earliest timer may have changed."""
        cog = self.get_cog("Timers")
        if cog is not None:
            cog.poke()

    async def on_ready(self) -> None:
        if not self.sandbox:
            log.info("ready as %s in %d servers", self.user, len(self.guilds))

    def channel_link(self, channel_id: int, label: str) -> str:
        """How a message points at a channel or thread: a mention Discord makes clickable (the sandbox
        replaces this with a link that switches its page)."""
        return f"<#{channel_id}>"

    def follow_channel(self, channel_id: int) -> None:
        """Show this channel to the person at the keyboard: nothing on Discord, the sandbox's page moves."""

    async def close(self) -> None:
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


class ShardedKokeshiBot(KokeshiBot, commands.AutoShardedBot):
    """The bot as one of several processes, each connecting only its shards (SHARD_COUNT, SHARD_IDS)."""


def create_bot(
    db_path: str,
    *,
    dev_guild_id: int | None = None,
    sync: str = "auto",
    challenge_secret: str | None = None,
    shard_count: int | None = None,
    shard_ids: tuple[int, ...] | None = None,
) -> KokeshiBot:
    """Build the bot without connecting; tests and the sandbox start it themselves."""
    if shard_count is None:
        return KokeshiBot(db_path, dev_guild_id=dev_guild_id, sync=sync, challenge_secret=challenge_secret)
    return ShardedKokeshiBot(
        db_path,
        dev_guild_id=dev_guild_id,
        sync=sync,
        challenge_secret=challenge_secret,
        shard_count=shard_count,
        shard_ids=list(shard_ids) if shard_ids is not None else None,
    )


async def run_sandbox(settings: Settings, *, ready: Callable[[str], None] | None = None) -> None:
    """The real bot inside SimCord's local preview: a server, #kokeshi and four players, in a browser."""
    try:
        import sandbox
    except ImportError:
        raise SystemExit("The sandbox needs the dev requirements: run `make sandbox`.") from None
    sandbox.quiet_discord_logging()
    bot = create_bot(settings.database_path, sync="always", challenge_secret=settings.challenge_secret)
    bot.sandbox = True
    try:
        await sandbox.run(bot, port=settings.sandbox_port, ready=ready, database=settings.database_path)
    finally:
        # The simulated Discord never closes the bot itself; the store's thread would keep the process alive.
        await bot.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bot.py", description="Kokeshi for Discord")
    parser.add_argument(
        "command",
        nargs="?",
        default="run",
        choices=("run", "sync", "sandbox"),
        help="run (default): connect, or start the sandbox without DISCORD_TOKEN; sync: register the slash "
        "commands and exit; sandbox: the local sandbox",
    )
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        if args.command == "sandbox" or (args.command == "run" and not settings.token):
            if args.command == "run":
                print("No DISCORD_TOKEN set: starting the local sandbox instead.", flush=True)
            asyncio.run(run_sandbox(settings))
            return 0
        if not settings.token:
            print("Set DISCORD_TOKEN (in .env or the environment) to sync commands with Discord.", file=sys.stderr)
            return 2
        bot = create_bot(
            settings.database_path,
            dev_guild_id=settings.dev_guild_id,
            sync="never",
            challenge_secret=settings.challenge_secret,
        )
        if args.command == "sync":
            return asyncio.run(_sync_only(bot, settings.token))
        bot = create_bot(
            settings.database_path,
            dev_guild_id=settings.dev_guild_id,
            challenge_secret=settings.challenge_secret,
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,
        )
        bot.run(settings.token, log_handler=None)
        return 0
    except StoreError as exc:
        print(f"Cannot start: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


async def _sync_only(bot: KokeshiBot, token: str) -> int:
    async with bot:
        await bot.login(token)  # runs setup_hook: the store opens and the cogs load, without syncing
        await bot.sync_commands()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Entry point: settings, the bot, and `python bot.py [run|connect|sync|sandbox] [--shard-ids IDS]`."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import importlib.util
import json
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import parse_qsl, urlsplit

import aiohttp
import discord
from discord.ext import commands
from dotenv import load_dotenv

import i18n
from cogs.answering import AnswerFirstTree
from cogs.clock import CLOCK_ITEMS
from cogs.common import now
from cogs.community import Community, PageButton
from cogs.components import DYNAMIC_ITEMS
from cogs.match_items import ITEMS as MATCH_ITEMS
from cogs.matches import Matches
from cogs.metrics import Metrics
from cogs.rematch import REMATCH_ITEMS
from cogs.replay import REPLAY_ITEMS, Replays
from cogs.share import SHARE_ITEMS, Shares
from cogs.tables import Tables
from cogs.translator import CatalogTranslator
from cogs.wiring import WiredClient
from storage import Store, StoreError, describe, is_url, open_store, redact

if TYPE_CHECKING:
    from cogs.timers import Timers

log = logging.getLogger("kokeshi")

EXTENSIONS = ("cogs.kokeshi", "cogs.games", "cogs.timers", "cogs.watch")
DEFAULT_DATABASE = "data/kokeshi.sqlite3"
# Exit statuses (from sysexits.h) that tell a supervisor whether starting again can help.
EXIT_CONFIG = 78  # a setting or the token must be changed first: systemd's RestartPreventExitStatus names it
EXIT_UNAVAILABLE = 69  # Discord or the database cannot be reached now: a later start may work
DEFAULT_CONNECT_TIMEOUT = 15.0  # seconds Discord and the database have to answer at start-up
# Seconds a stopping bot gives the clicks, commands and timers under way to finish, inside Docker's default 10 s.
STOP_GRACE = 8.0
# discord.py's names for the tasks that run one interaction or event handler.
_WORK_TASKS = ("CommandTree-invoker", "discord-ui-", "discord.py: ")
_PRIVILEGED = {"members": "Server Members", "presences": "Presence", "message_content": "Message Content"}


class SettingError(SystemExit):
    """A setting the bot cannot run with; the message names it and what to write instead."""


class StartError(Exception):
    """Start-up failed for a reason an admin can act on: one line saying what and what to do, and an exit status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from the environment (or `.env`), and the command line's shard ids."""

    token: str | None
    database_path: str
    log_level: str
    dev_guild_id: int | None
    sandbox_port: int
    challenge_secret: str | None = None
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    metrics_port: int | None = None

    def __repr__(self) -> str:  # the token and the database password stay out of any log or traceback
        return f"Settings(database={describe(self.database_path)!r}, shards={shards_text(self)!r})"

    @classmethod
    def from_env(cls, *, shard_ids: str | None = None) -> Settings:
        """The settings; `shard_ids` (from `--shard-ids`) takes precedence over SHARD_IDS wherever that was set."""
        load_dotenv()  # never overrides a variable already set in the environment
        ids_text, source = (shard_ids, "--shard-ids") if shard_ids is not None else (env("SHARD_IDS"), "SHARD_IDS")
        shard_count, ids = _shards(env("SHARD_COUNT"), ids_text, source)
        guild, port, timeout = env("DEV_GUILD_ID"), env("SANDBOX_PORT"), env("CONNECT_TIMEOUT")
        metrics = env("METRICS_PORT")
        try:
            dev_guild_id = int(guild) if guild else None
            sandbox_port = int(port) if port else 8765
            metrics_port = int(metrics) if metrics else None
        except ValueError as exc:
            raise SettingError(
                f"Bad setting: {exc}. DEV_GUILD_ID, SANDBOX_PORT and METRICS_PORT must be numbers."
            ) from None
        try:
            connect_timeout = float(timeout) if timeout else DEFAULT_CONNECT_TIMEOUT
            if not connect_timeout > 0:
                raise ValueError
        except ValueError:
            raise SettingError(
                f"Bad setting: CONNECT_TIMEOUT must be a number of seconds above 0, not {timeout!r}."
            ) from None
        url = env("DATABASE_URL")
        if url and not is_url(url):
            raise SettingError(
                f"Bad setting: DATABASE_URL must be a postgresql:// URL, not {redact(url)!r} (for a SQLite file, "
                "set DATABASE_PATH instead)."
            )
        return cls(
            token=env("DISCORD_TOKEN") or None,
            # DATABASE_URL (postgresql://…) selects PostgreSQL; otherwise the SQLite file at DATABASE_PATH.
            database_path=url or env("DATABASE_PATH") or DEFAULT_DATABASE,
            log_level=(env("LOG_LEVEL") or "INFO").upper(),
            dev_guild_id=dev_guild_id,
            sandbox_port=sandbox_port,
            challenge_secret=env("CHALLENGE_SECRET") or None,
            shard_count=shard_count,
            shard_ids=ids,
            connect_timeout=connect_timeout,
            metrics_port=metrics_port,
        )

    def secrets(self) -> set[str]:
        """The token, the challenge secret and the database password: never in anything the bot prints."""
        found = {self.token or "", self.challenge_secret or ""}
        if "://" in self.database_path:
            parts = urlsplit(self.database_path)
            found.add(parts.password or "")
            found.update(v for k, v in parse_qsl(parts.query) if "password" in k.lower())
        return {s for s in found if len(s) >= 3}


def env(name: str) -> str:
    """A setting from the environment, trimmed ("" when unset)."""
    return os.environ.get(name, "").strip()


def parse_shard_ids(text: str) -> tuple[int, ...] | None:
    """Shard ids written as numbers and ranges separated by commas ("0-3", "0,2", "4-7,9"), sorted; None if empty.

    Raises ValueError for anything else.
    """
    ids: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        first, dash, last = part.partition("-")
        if dash:
            low, high = int(first), int(last)
            if high < low:
                raise ValueError(part)
            ids.update(range(low, high + 1))
        else:
            ids.add(int(part))
    return tuple(sorted(ids)) or None


def ranges_text(ids: tuple[int, ...]) -> str:
    """Shard ids as `parse_shard_ids` reads them, runs written as ranges: (0, 1, 2, 5) -> "0-2,5"."""
    runs: list[list[int]] = []
    for i in sorted(ids):
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def shards_text(settings: Settings) -> str:
    """Which shards a process runs, for the start-up log."""
    if settings.shard_count is None:
        return "one gateway connection (no SHARD_COUNT)"
    if settings.shard_ids is None:
        return f"all {settings.shard_count} shards"
    return f"shards {ranges_text(settings.shard_ids)} of {settings.shard_count}"


def _shards(count_text: str, ids_text: str, source: str = "SHARD_IDS") -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and the shard ids ("0-1", "0,1"): how many shards the bot has, and which this process runs."""
    if "\\x2" in ids_text:
        raise SettingError(
            f"Bad setting: {source} {ids_text!r} came through systemd's escaping. Name the instance by a range "
            "without commas, e.g. kokeshi@0-1 for shards 0 to 1, and pass it with %i."
        )
    try:
        count = int(count_text) if count_text.strip() else None
    except ValueError:
        raise SettingError(f"Bad setting: SHARD_COUNT must be a number, not {count_text!r}.") from None
    try:
        ids = parse_shard_ids(ids_text)
    except ValueError:
        raise SettingError(
            f"Bad setting: {source} must be shard numbers and ranges separated by commas, e.g. 0-1 or 0,2 "
            f"(not {ids_text!r})."
        ) from None
    if ids is not None and count is None:
        raise SettingError(f"Bad setting: {source} needs SHARD_COUNT, the number of shards of the whole bot.")
    if count is not None and (count < 1 or any(not 0 <= i < count for i in ids or ())):
        raise SettingError(f"Bad setting: shard ids run from 0 to SHARD_COUNT - 1 ({(count or 1) - 1}).")
    return count, ids


class KokeshiBot(WiredClient):
    """The Kokeshi bot: the store, the tables, the cogs and persistent buttons."""

    def __init__(
        self,
        db_path: str,
        *,
        dev_guild_id: int | None = None,
        sync: str = "auto",
        challenge_secret: str | None = None,
        metrics_port: int | None = None,
        **options,
    ) -> None:
        # This bot has no voice: discord.py's warnings about missing voice libraries do not apply to it.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
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
            # Every slash command is acknowledged before its callback runs (see cogs/answering.py).
            tree_cls=AnswerFirstTree,
            **options,
        )
        self.db_path = db_path
        self.dev_guild_id = dev_guild_id
        self.sync_mode = sync
        self.challenge_secret = challenge_secret
        # Prometheus metrics, served on this port when it is set (0: any free port).
        self.metrics = Metrics()
        self.metrics_port = metrics_port
        self.store: Store
        self.tables = Tables(self)
        self.community = Community(self)
        self.replays = Replays(self)
        self.shares = Shares(self)
        self.matches = Matches(self, self.tables, self.community, self.tables.reach, self.tables.clocks)
        self.sandbox = False
        self._store_closed = False

    async def open_store(self, connect_timeout: float = DEFAULT_CONNECT_TIMEOUT) -> None:
        """Open (and migrate) the database, unless it is open already; StoreError says what is wrong."""
        if getattr(self, "store", None) is None:
            self.store = await open_store(
                self.db_path, clock=now, challenge_secret=self.challenge_secret, connect_timeout=connect_timeout
            )

    async def setup_hook(self) -> None:
        await self.open_store()
        self.add_dynamic_items(
            *DYNAMIC_ITEMS, PageButton, *REPLAY_ITEMS, *REMATCH_ITEMS, *SHARE_ITEMS, *CLOCK_ITEMS, *MATCH_ITEMS
        )
        await self.tree.set_translator(CatalogTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.sync_mode == "always" or (self.sync_mode == "auto" and await self.commands_changed()):
            await self.sync_commands()
        self.metrics.watch_ai(lambda: self.tables.thinker.pending)
        self.metrics.watch_store(self._store_figures)
        if self.metrics_port is not None:
            try:
                self.metrics_port = self.metrics.serve(self.metrics_port)
            except OSError as exc:
                raise StartError(
                    f"Cannot serve metrics on METRICS_PORT {self.metrics_port}: {exc.strerror or exc}. Choose a free "
                    "port, or leave METRICS_PORT empty for no metrics.",
                    EXIT_CONFIG,
                ) from None
            log.info("serving metrics on port %d (/metrics)", self.metrics_port)

    async def _store_figures(self) -> tuple[dict[str, int], int]:
        """Games by state, and games in progress marked unreachable (for the metrics)."""
        unreachable = sum(1 for reach in await self.store.reaches() if reach.unreachable_at is not None)
        return await self.store.count_games(), unreachable

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

    def wake_timers(self, due_at: float | None = None) -> None:
        """Tell the timer loop that the earliest timer may have changed (`due_at`: the earliest just set, if known)."""
        cog = self.get_cog("Timers")
        if cog is not None:
            # The extension's own module object (load_extension imports it afresh), so no isinstance check.
            cast("Timers", cog).poke(due_at)

    async def on_ready(self) -> None:
        if not self.sandbox:
            log.info("ready as %s in %d servers", self.user, len(self.guilds))

    async def finish_work(self, grace: float = STOP_GRACE) -> None:
        """Let the clicks, commands and timers under way finish, for at most `grace` seconds, while Discord can
        still be answered: a move being played is committed and confirmed rather than cut off."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        me = asyncio.current_task()
        while True:
            busy = [
                t for t in asyncio.all_tasks() if t is not me and not t.done() and t.get_name().startswith(_WORK_TASKS)
            ]
            timers = self.get_cog("Timers")
            task = getattr(timers, "task", None)
            if task is not None and not task.done() and self.is_ready() and not getattr(timers, "sleeping", True):
                busy.append(task)  # firing a due timer: a deadline's move, a reminder
            left = deadline - loop.time()
            if not busy:
                return
            if left <= 0:
                log.warning("stopping with %d tasks still under way after %.0f s", len(busy), grace)
                return
            await asyncio.sleep(min(0.05, left))

    async def close(self) -> None:
        """Stop: the work under way finishes first, then the connection to Discord closes, then the database (after
        the commit in progress, if any)."""
        try:
            if not self.is_closed():
                await self.finish_work()
            self.metrics.close()
            await super().close()
        finally:
            # Whatever failed above, the database closes: its connections' threads would keep the process alive.
            store = getattr(self, "store", None)
            if store is not None and not self._store_closed:
                self._store_closed = True
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
    metrics_port: int | None = None,
) -> KokeshiBot:
    """Build the bot without connecting; tests and the sandbox start it themselves."""
    if shard_count is None:
        return KokeshiBot(
            db_path,
            dev_guild_id=dev_guild_id,
            sync=sync,
            challenge_secret=challenge_secret,
            metrics_port=metrics_port,
        )
    return ShardedKokeshiBot(
        db_path,
        dev_guild_id=dev_guild_id,
        sync=sync,
        challenge_secret=challenge_secret,
        metrics_port=metrics_port,
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


async def serve(bot: KokeshiBot, settings: Settings, *, sync_only: bool = False) -> None:
    """Open the database, log in, and stay connected until SIGTERM or SIGINT (with `sync_only`: register the slash
    commands instead, and return). A failure an admin must act on raises StartError."""
    log.info("starting: database %s; %s", describe(settings.database_path), shards_text(settings))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        async with bot:
            await bot.open_store(settings.connect_timeout)  # a migration under way is never cut short
            if stop.is_set() or not await _unless_stopped(_login(bot, settings), stop):
                log.info("stopped before start-up finished")
                return
            if sync_only:
                await bot.sync_commands()
                return
            gateway = asyncio.create_task(bot.connect(), name="kokeshi-gateway")
            stopped = asyncio.create_task(stop.wait(), name="kokeshi-stop")
            await asyncio.wait({gateway, stopped}, return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if not gateway.done():
                log.info("stopping: finishing the work under way (at most %.0f s)", STOP_GRACE)
                await bot.close()
                try:
                    await asyncio.wait_for(gateway, 5.0)
                except (TimeoutError, discord.DiscordException, OSError):
                    gateway.cancel()
                log.info("stopped")
                return
            error = gateway.exception()
            if error is not None:
                failure = _gateway_failure(bot, error)
                if failure is error:
                    raise error
                raise failure from None
    except StoreError as exc:
        raise StartError(str(exc), EXIT_UNAVAILABLE) from None


async def _unless_stopped(work: Coroutine[Any, Any, None], stop: asyncio.Event) -> bool:
    """Run `work` unless `stop` is set first (then it is cancelled); whether it ran to its end."""
    task = asyncio.ensure_future(work)
    stopped = asyncio.create_task(stop.wait())
    await asyncio.wait({task, stopped}, return_when=asyncio.FIRST_COMPLETED)
    stopped.cancel()
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return False
    task.result()
    return True


async def _login(bot: KokeshiBot, settings: Settings) -> None:
    """Log in (Discord checks the token; the cogs load and the commands sync) within CONNECT_TIMEOUT."""
    timeout = settings.connect_timeout
    try:
        await asyncio.wait_for(bot.login(settings.token or ""), timeout)
    except discord.LoginFailure:
        raise StartError(_TOKEN_REFUSED, EXIT_CONFIG) from None
    except TimeoutError:
        raise StartError(
            f"Discord did not answer within {timeout:g} s (CONNECT_TIMEOUT). Check this machine's internet "
            "connection, DNS and any proxy or firewall, then start the bot again.",
            EXIT_UNAVAILABLE,
        ) from None
    except (aiohttp.ClientError, OSError) as exc:
        raise StartError(_unreachable(exc), EXIT_UNAVAILABLE) from None
    except discord.Forbidden as exc:
        where = f" in the server DEV_GUILD_ID={bot.dev_guild_id}" if bot.dev_guild_id else ""
        raise StartError(
            f"Discord refused to register the slash commands{where} ({exc.status} {exc.text}). Invite the bot with "
            "the bot and applications.commands scopes" + (", or clear DEV_GUILD_ID." if where else "."),
            EXIT_CONFIG,
        ) from None
    except discord.HTTPException as exc:
        raise StartError(
            f"Discord answered the start-up with an error ({exc.status} {exc.text or 'no reason given'}). It may be "
            "having an outage (https://discordstatus.com): start the bot again later.",
            EXIT_UNAVAILABLE,
        ) from None


_TOKEN_REFUSED = (
    "Discord refused the token (401 Unauthorized). Copy the bot's token again from the Developer Portal (your "
    "application, Bot, Reset Token) into DISCORD_TOKEN."
)


def _unreachable(exc: BaseException) -> str:
    """The line for an address that could not be reached: the host, and whether the name or the connection failed."""
    dns_error = getattr(aiohttp, "ClientConnectorDNSError", ())
    if isinstance(exc, aiohttp.ClientConnectorError):
        cause = exc.os_error
        if isinstance(exc, dns_error) or isinstance(cause, socket.gaierror):
            reason = getattr(cause, "strerror", None) or str(cause) or "no answer"
            return (
                f"Discord cannot be reached: the name {exc.host} cannot be resolved ({reason}). Check this "
                "machine's DNS and internet connection, then start the bot again."
            )
        errno = getattr(cause, "errno", None)
        reason = os.strerror(errno) if errno else str(cause) or type(cause).__name__
        return (
            f"Discord cannot be reached: the connection to {exc.host}:{exc.port} failed ({reason}). Check this "
            "machine's internet connection and any proxy or firewall, then start the bot again."
        )
    return (
        f"Discord cannot be reached ({exc or type(exc).__name__}). Check this machine's internet connection and any "
        "proxy or firewall, then start the bot again."
    )


def _gateway_failure(bot: KokeshiBot, exc: BaseException) -> BaseException:
    """A StartError for what ended the gateway connection, or the exception itself if nobody can act on it."""
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        asked = [label for name, label in _PRIVILEGED.items() if getattr(bot.intents, name)]
        which = f" ({', '.join(asked)})" if asked else ""
        return StartError(
            f"Discord refused the privileged gateway intents this bot asks for{which}: enable them for the "
            "application in the Developer Portal (your application, Bot, Privileged Gateway Intents), then start "
            "the bot again.",
            EXIT_CONFIG,
        )
    if isinstance(exc, discord.ConnectionClosed):
        if exc.code == 4004:
            return StartError(_TOKEN_REFUSED, EXIT_CONFIG)
        if exc.code == 4011:
            return StartError(
                "Discord requires this bot to be sharded (it is in too many servers for one connection): set "
                "SHARD_COUNT (see Shards in the README) and start it again.",
                EXIT_CONFIG,
            )
        if exc.code in (4010, 4012, 4013, 4014):
            return StartError(
                f"Discord closed the gateway ({exc.code}: {exc.reason or 'refused'}): check SHARD_COUNT and the "
                "shard ids, and the application's settings in the Developer Portal.",
                EXIT_CONFIG,
            )
        return StartError(
            f"Discord closed the gateway ({exc.code}: {exc.reason or 'no reason given'}); start the bot again.",
            EXIT_UNAVAILABLE,
        )
    if isinstance(exc, discord.GatewayNotFound):
        return StartError(
            "Discord's gateway cannot be found: Discord may be having an outage (https://discordstatus.com). "
            "Start the bot again later.",
            EXIT_UNAVAILABLE,
        )
    if isinstance(exc, aiohttp.ClientError | OSError):
        return StartError(_unreachable(exc), EXIT_UNAVAILABLE)
    return exc


def _clean(text: str, secrets: set[str]) -> str:
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def _sandbox(settings: Settings, *, announce: bool) -> int:
    """`run` without a token, or `sandbox`: the local sandbox, if this installation has its dev packages."""
    if importlib.util.find_spec("simcord") is None:
        print(
            "Cannot start: DISCORD_TOKEN is not set, and the local sandbox needs the dev requirements (simcord), "
            "which are not installed here. Set DISCORD_TOKEN to connect to Discord, or run `make sandbox`.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    if announce:
        print("No DISCORD_TOKEN set: starting the local sandbox instead.", flush=True)
    try:
        asyncio.run(run_sandbox(settings))
    except StoreError as exc:
        print(f"Cannot start: {_clean(str(exc), settings.secrets())}", file=sys.stderr)
        return EXIT_UNAVAILABLE
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bot.py", description="Kokeshi for Discord")
    parser.add_argument(
        "command",
        nargs="?",
        default="run",
        choices=("run", "connect", "sync", "sandbox"),
        help="run (default): connect, or start the sandbox without DISCORD_TOKEN; connect: connect to Discord, "
        "never the sandbox (for deployments); sync: register the slash commands and exit; sandbox: the local sandbox",
    )
    parser.add_argument(
        "--shard-ids",
        metavar="IDS",
        help="the shards this process runs, e.g. 0-1 or 0,2; takes precedence over SHARD_IDS (needs SHARD_COUNT)",
    )
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env(shard_ids=args.shard_ids)
    except SettingError as exc:
        print(exc, file=sys.stderr)
        return EXIT_CONFIG
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "sandbox" or (args.command == "run" and not settings.token):
        return _sandbox(settings, announce=args.command == "run")
    if not settings.token:
        print(
            "Cannot start: DISCORD_TOKEN is not set. Put the bot's token in DISCORD_TOKEN (in .env or the "
            "environment); `python bot.py sandbox` plays locally without one.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    sync_only = args.command == "sync"
    bot = create_bot(
        settings.database_path,
        dev_guild_id=settings.dev_guild_id,
        sync="never" if sync_only else "auto",
        challenge_secret=settings.challenge_secret,
        shard_count=None if sync_only else settings.shard_count,
        shard_ids=None if sync_only else settings.shard_ids,
        metrics_port=None if sync_only else settings.metrics_port,
    )
    try:
        asyncio.run(serve(bot, settings, sync_only=sync_only))
    except StartError as exc:
        print(f"Cannot start: {_clean(str(exc), settings.secrets())}", file=sys.stderr)
        return exc.status
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

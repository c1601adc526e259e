"""The local sandbox: the real bot against SimCord's simulated Discord, played in a browser."""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import html
import io
import json
import logging
import re
import secrets
import signal
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
from PIL import Image, ImageDraw

from sandbox_world import Founding, SavedWorld, found, world_folder, write_all

log = logging.getLogger("kokeshi.sandbox")

PLAYERS = ("Aiko", "Botan", "Chiyo", "Daichi")
HOME_CHANNEL = "kokeshi"
BOT_NAME = "Kokeshi"
WELCOME = (
    "**Welcome to the Kokeshi sandbox!** This is a simulated Discord server with four players: switch between "
    "them with *Viewing as* at the top of the page.\n"
    "• Type `/kokeshi new` to open a table, then join it as another player and press **Start**.\n"
    "• `/kokeshi solo` plays alone against the automa; `/kokeshi daily` and `/kokeshi weekly` are today's "
    "and this week's challenges.\n"
    "• `/games new` opens a table of another game: pick it in the `game` option (add `ai:1` to play against "
    "the AI at once).\n"
    "• Every game has its own thread: the page follows the game you start, **‹ #kokeshi** above a thread leads "
    "back here, and the links in `/kokeshi status` take you to any of your games. `/kokeshi help` lists every "
    "command.\n"
    "• Stop the sandbox (Ctrl+C) and start it again whenever you like: your games, their threads and your stats "
    "are kept."
)
CLOCK_STEP = 1.0
SETTLE_SECONDS = 60.0
SCRIPT_PATH = Path(__file__).with_name("sandbox.js")
DIGEST = re.compile(r"[0-9a-f]{64}")


def avatar_png(size: int = 256) -> bytes:
    """The bot's avatar: a kokeshi doll's head on a round wooden background."""
    from games.kokeshi.pictures.icons import kokeshi_head

    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    ImageDraw.Draw(img).ellipse((0, 0, size - 1, size - 1), fill=(236, 205, 160, 255), outline=(120, 72, 40, 255))
    head = kokeshi_head("Princess", int(size * 0.78))
    img.alpha_composite(head, ((size - head.width) // 2, (size - head.height) // 2))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def check_picture(blob: bytes, media_time: float | None) -> Any:
    """A still PNG, as the bot draws them, is shown as it is once its chunks check out: the preview would decode
    it and encode it again, at its default compression, which took most of the sandbox's time in a long game.
    Anything else goes through the preview's own check."""
    from simcord.preview._media import MAX_DIMENSION, MAX_PIXELS, MediaInfo, _process_media

    if blob.startswith(b"\x89PNG\r\n\x1a\n") and b"acTL" not in blob[:4096]:
        try:
            with Image.open(io.BytesIO(blob)) as picture:
                picture.verify()  # every chunk's checksum, without decoding the pixels
            with Image.open(io.BytesIO(blob)) as picture:
                size, mode, turned = picture.size, picture.mode, picture.getexif().get(0x0112, 1)
        except Exception:  # a broken picture gets the preview's own verdict
            return _process_media(blob, media_time)
        width, height = size
        fits = 0 < width <= MAX_DIMENSION and 0 < height <= MAX_DIMENSION and width * height <= MAX_PIXELS
        if mode in ("L", "RGB", "RGBA") and turned == 1 and fits:
            return MediaInfo("PNG", width, height, 1, width * height * 4, blob, "image/png", capture=blob, poster=blob)
    return _process_media(blob, media_time)


def picture_checker(keep: int = 256) -> Any:
    """SimCord's media check for the preview, done once per picture.

    The preview checks every picture in a fresh process each time a page needs it, and a page needs them all
    again whenever "Viewing as" changes: with a thread of turn pictures, every switch of player cost seconds
    per picture. The sandbox shows only the bot's own pictures, so each distinct picture is checked once, in a
    worker thread, and the result is kept by its content's hash.
    """
    from simcord.preview._media import MediaWorker

    class PictureChecker(MediaWorker):
        def __init__(self) -> None:
            super().__init__()
            self.known: OrderedDict[tuple[str, float | None], Any] = OrderedDict()
            self.checks = 0

        async def _decode(self, key: str, blob: bytes, media_time: float | None) -> Any:
            self.checks += 1
            return await asyncio.to_thread(check_picture, blob, media_time)

        async def validate(self, key: str, blob: bytes, *, media_time: float | None = None) -> Any:
            # The preview names a picture by its content's SHA-256 already; anything else is hashed here.
            digest = key if DIGEST.fullmatch(key) else hashlib.sha256(blob).hexdigest()
            content = (digest, media_time)
            info = self.known.get(content)
            if info is None:
                info = await super().validate(key, blob, media_time=media_time)
                self.known[content] = info
                while len(self.known) > keep:
                    self.known.popitem(last=False)
            else:
                self.known.move_to_end(content)
            return info

    return PictureChecker()


class SandboxPage:
    """The browser page of the sandbox, which follows one channel or thread at a time, and its clock.

    SimCord's preview shows one channel; a game lives in a thread. This switches every open page to another
    channel in place (the same address keeps working) and keeps pages opened by a reload on the newest message
    instead of the one the session opened on. It reaches into the preview's page records, which the pinned
    SimCord version defines; the browser tests cover every path here.

    The clock never takes SimCord's driver lock: a click that arrives while the driver holds it is refused,
    and the page then says "Action outcome uncertain". It moves the simulated clock, wakes the bot's timer
    loop when a stored timer is due, and republishes the pages when the bot posted on its own.
    """

    def __init__(self, env: Any, preview: Any, channel: Any, bot: Any, *, saved: SavedWorld | None = None) -> None:
        self.env = env
        self.saved = saved
        self.preview = preview
        self.home = channel
        self.bot = bot
        self.current_id: int = channel.id
        self.pending: list[int] = []
        # How much the bot had sent when the pages were last published: anything sent since is not shown yet.
        self.shown_requests = len(env.http_requests)
        publish = preview._publish

        def publish_and_note(page: Any, **options: Any) -> None:
            self.shown_requests = len(env.http_requests)
            publish(page, **options)

        preview._publish = publish_and_note

    # ------------------------------------------------------------------ following channels

    def channel_handle(self, channel_id: int) -> Any | None:
        if channel_id == self.home.id:
            return self.home
        return next((t for t in self.home.threads if t.id == channel_id), None)

    def follow(self, channel_id: int) -> bool:
        """Show this channel or thread on every page, at the next tick when a click is being handled."""
        if self.channel_handle(channel_id) is None:
            return False
        self.pending.append(channel_id)
        if self.idle:
            self.apply_pending()
        return True

    @property
    def idle(self) -> bool:
        return self.preview._active_action is None

    def apply_pending(self) -> None:
        while self.pending:
            handle = self.channel_handle(self.pending.pop(0))
            if handle is not None:
                self._switch(handle)

    def _switch(self, handle: Any) -> None:
        preview = self.preview
        preview.channel = handle
        self.current_id = handle.id
        if self.saved is not None:
            self.saved.follow_page(handle.id)
        for page in tuple(preview._pages.values()):
            page.channel_id = handle.id
            page.generation += 1
            page.navigation_query = ""
            page.navigation_cursor = None
            page.candidate_queries.clear()
            page.modal = None
            page.modal_handle = None
            preview._clear_page_assets(page)
            self._to_newest(page)
            preview._publish(page, reason="navigation")

    def _to_newest(self, page: Any) -> None:
        """Focus the newest message and keep the page's window open-ended, so what comes next shows too."""
        page.target_id = self.preview._initial_target(page.viewer, page.channel_id)
        if page.layout == "channel":
            page.window_end_id = None

    def republish(self) -> None:
        """Show what the bot sent since the pages were last published: what it posted on its own (a reminder,
        a time-out, an AI turn), or the end of an answer that came after its click was published."""
        self.preview._advance_presentation_time()
        for page in tuple(self.preview._pages.values()):
            self.preview._publish(page, reason="refresh")

    # ------------------------------------------------------------------ the clock

    async def tick(self, seconds: float) -> None:
        self.env.backend.advance_clock(seconds)
        upcoming = await self.bot.store.next_timer()
        if upcoming is not None and upcoming.due_at <= self.env.now().timestamp():
            self.bot.wake_timers()
        if self.idle:
            self.apply_pending()
            python = self.preview._python
            if python is not None:
                self._to_newest(python)
            # Only when the bot sent something since: publishing a page again for nothing would make the
            # page's next click stale ("Action was not completed").
            if len(self.env.http_requests) != self.shown_requests:
                self.republish()
        await self.save()

    async def save(self, *, everything: bool = False) -> None:
        """Write what changed in the world since the last save (everything, and drop unused pictures, when the
        sandbox stops)."""
        if self.saved is None:
            return
        writes, removals = self.saved.changes(everything=everything)
        if everything:
            removals += self.saved.prune()
        if writes or removals:
            await asyncio.to_thread(write_all, writes, removals)

    async def run_clock(self) -> None:
        """Move the simulated clock with the wall clock. Never dies silently: a failure is logged and the
        clock goes on."""
        last = time.monotonic()
        while True:
            await asyncio.sleep(CLOCK_STEP)
            current = time.monotonic()
            try:
                await self.tick(current - last)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the sandbox clock failed; it goes on")
            last = current


class PagePlaces:
    """The bot's `Places` in the sandbox: a channel or thread is pointed at by a link that moves the page there (the
    page has no mentions to click), and a game the person opens is shown on their page at once."""

    def __init__(self, door: FrontDoor) -> None:
        self.door = door

    def link(self, channel_id: int, label: str) -> str:
        return f"[{label}]({self.door.channel_url(channel_id)})"

    def follow(self, channel_id: int) -> None:
        if self.door.page is not None:
            self.door.page.follow(channel_id)


class FrontDoor:
    """The address `make run` prints. It serves SimCord's page under this address with one script of the
    sandbox's own added (`sandbox.js`), and its /channel/<id> links switch every open page to that channel or
    thread.

    The address stays the same from one start to the next (its key is kept with the saved world), so a page left
    open reconnects after a restart. Everything but the page itself, the script and the sandbox's own paths is
    passed to the preview's own server unchanged, as the preview's own address would receive it: the preview still
    checks every request's capability. Only a new page's viewer is filled in, from the cookie the script keeps, so
    a reload keeps the person the page was viewing as.
    """

    SCRIPT = "/kokeshi-sandbox.js"
    VIEWER_COOKIE = "kokeshi-viewer"
    # Headers that belong to one connection, not to the request or answer passed along.
    HOP = frozenset(
        ("host", "origin", "referer", "connection", "keep-alive", "content-length", "transfer-encoding", "te")
        + ("accept-encoding", "upgrade", "proxy-connection")
    )

    def __init__(self, page: SandboxPage | None, host: str, port: int, key: str | None = None) -> None:
        self.page = page
        self.host = host
        self.port = port
        self.key = key or secrets.token_urlsafe(16)
        self.runner: Any = None
        self.client: Any = None

    @property
    def live(self) -> SandboxPage:
        """The page being served: set before the proxy serves anything."""
        assert self.page is not None
        return self.page

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/{self.key}/"

    def channel_url(self, channel_id: int) -> str:
        return f"{self.url}channel/{channel_id}"

    @property
    def page_address(self) -> str:
        """Where the page lives, with the preview's capability in the fragment (never sent to a server)."""
        return f"/{self.key}/play#{self.live.preview.capability}"

    async def start(self) -> None:
        import aiohttp
        from aiohttp import web

        async def index(request: web.Request) -> web.StreamResponse:
            self._check(request, web)
            raise web.HTTPFound(self.page_address)

        async def play(request: web.Request) -> web.StreamResponse:
            self._check(request, web)
            status, headers, payload = await self._pass("GET", "/", request.headers, b"")
            if status == 200:
                home = self.live.home
                tag = (
                    f'<script type="module" src="{self.SCRIPT}" data-home="{home.id}" '
                    f'data-home-name="{html.escape(home.name or "")}"></script>'
                )
                payload = payload.replace(b"</body>", tag.encode() + b"</body>", 1)
            return web.Response(status=status, body=payload, headers=headers)

        def wanted(request: web.Request) -> int:
            self._check(request, web)
            try:
                channel_id = int(request.match_info["channel_id"])
            except ValueError:
                raise web.HTTPNotFound(text="No such channel in the sandbox.") from None
            if not self.live.follow(channel_id):
                raise web.HTTPNotFound(text="No such channel in the sandbox.")
            return channel_id

        async def channel(request: web.Request) -> web.StreamResponse:
            wanted(request)
            raise web.HTTPFound(self.page_address)

        async def follow(request: web.Request) -> web.StreamResponse:
            wanted(request)
            return web.Response(status=204)

        async def script(request: web.Request) -> web.StreamResponse:
            return web.Response(
                body=SCRIPT_PATH.read_bytes(),
                content_type="application/javascript",
                headers={"Cache-Control": "no-store"},
            )

        self.client = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None), auto_decompress=False)
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/{key}/", index)
        app.router.add_get("/{key}/play", play)
        app.router.add_get("/{key}/channel/{channel_id}", channel)
        app.router.add_post("/{key}/follow/{channel_id}", follow)
        app.router.add_get(self.SCRIPT, script)
        app.router.add_route("*", "/{tail:.*}", self.forward)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await self.client.close()
            raise SystemExit(
                f"The sandbox cannot listen on {self.host}:{self.port} ({exc.strerror}). "
                "Set SANDBOX_PORT to a free port."
            ) from None

    async def forward(self, request: Any) -> Any:
        """Pass a request to the preview's server as if sent to it."""
        from aiohttp import web

        body = await request.read()
        if request.method == "POST" and request.path == "/api/pages":
            body = self._with_viewer(body, request.cookies.get(self.VIEWER_COOKIE))
        status, headers, payload = await self._pass(request.method, str(request.rel_url), request.headers, body)
        return web.Response(status=status, body=payload, headers=headers)

    async def _pass(self, method: str, target: str, incoming: Any, body: bytes) -> tuple[int, dict[str, str], bytes]:
        origin = self.live.preview._origin
        headers = {name: value for name, value in incoming.items() if name.lower() not in self.HOP}
        headers["Host"] = origin.removeprefix("http://")
        if "Origin" in incoming:
            headers["Origin"] = origin
        async with self.client.request(
            method, origin + target, headers=headers, data=body if body else None, allow_redirects=False
        ) as upstream:
            payload = await upstream.read()
            answer = {name: value for name, value in upstream.headers.items() if name.lower() not in self.HOP}
        return upstream.status, answer, payload

    def _with_viewer(self, body: bytes, cookie: str | None) -> bytes:
        """A new page opens as the viewer its tab last chose (kept in a cookie by the script), when that is one of
        the sandbox's players; otherwise as the preview chooses."""
        if not cookie or not cookie.isdigit():
            return body
        if int(cookie) not in {viewer.id for viewer in self.live.preview.viewers}:
            return body
        try:
            request = json.loads(body or b"{}")
        except ValueError:
            return body
        if not isinstance(request, dict) or request.get("viewer_id") is not None:
            return body
        return json.dumps({**request, "viewer_id": cookie}).encode()

    def _check(self, request: Any, web: Any) -> None:
        if request.match_info.get("key") != self.key:
            raise web.HTTPNotFound(text="Open the address the sandbox printed.")

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
        if self.client is not None:
            await self.client.close()


async def run(bot: Any, *, port: int, ready: Callable[[str], None] | None = None, database: str | None = None) -> None:
    """Start the sandbox around `bot` and serve it until Ctrl+C, SIGTERM or the page's End session.

    With `database` (the bot's DATABASE_PATH or URL), the simulated server keeps its ids and its channel, threads,
    messages and pictures are kept beside the database, so a restart finds the world as it was left.
    """
    import simcord

    # A generous settle time: on a busy machine a turn with pictures may take a while to answer.
    env = simcord.Env(bot, settle_timeout=SETTLE_SECONDS)
    # The world is made before the bot connects, so the bot finds its server, channel and threads at once.
    founding = found(env, server="Kokeshi Sandbox", channel=HOME_CHANNEL, players=PLAYERS)
    folder = world_folder(database) if database else None
    saved = await SavedWorld.open(folder, database) if folder is not None and database else None
    restored = saved.restore(env, founding.channel) if saved is not None else 0
    # SimCord's clock starts on 1 January 2026; the sandbox lives today, so daily challenges are real.
    behind = (datetime.now(UTC) - env.now()).total_seconds()
    if behind > 0:
        env.backend.advance_clock(behind)
    # The address is known before the bot connects, so whatever it posts at once (a game it catches up on) links
    # through it too.
    door = FrontDoor(None, "127.0.0.1", port, key=saved.key if saved is not None else None)
    bot.places = PagePlaces(door)
    await env.start()
    try:
        with env.time_context():
            await _serve(env, bot, founding, saved, door, ready=ready, restored=restored)
    finally:
        await env.shutdown()
    print("Sandbox stopped.", flush=True)


async def _serve(
    env: Any,
    bot: Any,
    founding: Founding,
    saved: SavedWorld | None,
    door: FrontDoor,
    *,
    ready: Callable[[str], None] | None,
    restored: int,
) -> None:
    from simcord.backend.cdn import CDN_BASE

    channel, players = founding.channel, founding.players
    await bot.user.edit(username=BOT_NAME)
    avatar_key = "kokeshi"
    env.backend.bot_user.avatar = avatar_key
    avatar_url = f"{CDN_BASE}/avatars/{env.backend.bot_user.id}/{avatar_key}.png"
    if not env.backend.messages.get(channel.id):
        await bot.get_channel(channel.id).send(WELCOME)
    if saved is not None:
        await show_lost_prompts(bot, saved, founding.guild.id)
    async with env.preview(
        channel,
        viewers=players,
        layout="channel",
        port=0,
        assets={avatar_url: ("kokeshi.png", avatar_png())},
    ) as preview:
        preview._media_worker = picture_checker()
        page = SandboxPage(env, preview, channel, bot, saved=saved)
        if saved is not None and saved.page_id is not None:
            page.follow(saved.page_id)
        door.page = page
        await door.start()
        try:
            # A clean context: the clock is the sandbox's own work, never the bot's.
            clock = asyncio.create_task(page.run_clock(), context=contextvars.Context())
            if saved is not None and restored:
                threads = len(saved.thread_ids())
                counted = f"{restored} message{'s' * (restored != 1)}, {threads} thread{'s' * (threads != 1)}"
                print(f"The sandbox's world is back as it was left ({counted}), kept in {saved.folder}/", flush=True)
            elif saved is not None:
                print(f"The sandbox's world is new; it is kept in {saved.folder}/ for the next start.", flush=True)
            print(f"Kokeshi sandbox running: open {door.url}", flush=True)
            if ready is not None:
                ready(door.url)
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, stop.set)
            closed = asyncio.create_task(preview.wait_closed())
            stopped = asyncio.create_task(stop.wait())
            await asyncio.wait({closed, stopped}, return_when=asyncio.FIRST_COMPLETED)
            for task in (clock, closed, stopped):
                task.cancel()
            await asyncio.gather(clock, return_exceptions=True)
        finally:
            await door.close()
            await page.save(everything=True)


async def show_lost_prompts(bot: Any, saved: SavedWorld, guild_id: int) -> None:
    """Post again the live prompt of each game of the sandbox's server that the saved world lacks (it was saved
    just before a crash): the game goes on from the same turn."""
    for record in await bot.store.active_games():
        if record.guild_id != guild_id:
            continue
        found_at = await bot.store.get_message(record.id, "prompt")
        if found_at is None or saved.present(*found_at):
            continue
        log.info("game %d: its prompt is not in the saved world; posting it again", record.id)
        await bot.matches.show_lost(record.id)


def quiet_discord_logging() -> None:
    """Warnings that do not apply to this bot (it has no voice) or to the simulated connection."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False

    class _NotTheSimulatorsProbe(logging.Filter):
        # SimCord builds a throwaway client without intents to learn discord.py's internals.
        def filter(self, record: logging.LogRecord) -> bool:
            return "Guilds intent seems to be disabled" not in record.getMessage()

    logging.getLogger("discord.state").addFilter(_NotTheSimulatorsProbe())
    logging.getLogger("discord.client").setLevel(logging.WARNING)

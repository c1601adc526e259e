"""A stand-in for Discord on 127.0.0.1, for tests that start `python bot.py` as a process of its own.

`FakeDiscord` answers the few requests a start-up makes (the token check, the application, the gateway, the command
sync) and runs a gateway that says hello, then either sends READY or closes with a code. `bot_env` gives the
environment that points the process's discord.py at it: a `sitecustomize` module on PYTHONPATH, loaded by the
interpreter before bot.py, so the command under test is exactly `python bot.py …`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import sys
from pathlib import Path

from aiohttp import WSMsgType, web

ROOT = Path(__file__).resolve().parent.parent
APP_ID = "1000000000000000001"
BOT_USER = {
    "id": APP_ID,
    "username": "Kokeshi",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "bot": True,
}
OWNER = {"id": "42", "username": "admin", "discriminator": "0", "global_name": None, "avatar": None}

# Loaded by the interpreter at start-up (PYTHONPATH): points discord.py at the fake, or makes one name's DNS look-up
# fail as if the resolver were down, without any packet leaving the machine.
SITECUSTOMIZE = """
import os
import socket

_base = os.environ.get("KOKESHI_TEST_DISCORD")
if _base:
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = _base + "/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(_base.replace("http", "ws", 1) + "/gateway")

_unresolvable = os.environ.get("KOKESHI_TEST_NO_DNS")
if _unresolvable:
    _getaddrinfo = socket.getaddrinfo

    def _no_dns(host, *args, **kwargs):
        if host == _unresolvable:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return _getaddrinfo(host, *args, **kwargs)

    socket.getaddrinfo = _no_dns
"""


def _json(data: object, status: int = 200) -> web.Response:
    # discord.py reads a body as JSON only when its content type is exactly application/json (no charset).
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


class FakeDiscord:
    """Discord's REST API and gateway, as far as a start-up goes.

    `token_ok=False` answers the token check with 401; `close_code` closes the gateway with that code after IDENTIFY
    (4014: privileged intents), else it sends READY.
    """

    def __init__(self, *, token_ok: bool = True, close_code: int | None = None) -> None:
        self.token_ok = token_ok
        self.close_code = close_code
        self.requests: list[str] = []
        self.identified: list[dict] = []
        self.port = 0
        self._runner: web.AppRunner | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> FakeDiscord:
        app = web.Application()
        app.router.add_get("/gateway", self.gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        self.requests.append(f"{request.method} {path}")
        if not self.token_ok:
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        if path == "/users/@me":
            return _json(BOT_USER)
        if path == "/oauth2/applications/@me":
            return _json(
                {
                    "id": APP_ID,
                    "name": "Kokeshi",
                    "description": "",
                    "icon": None,
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": OWNER,
                    "verify_key": "0" * 64,
                    "team": None,
                    "flags": 0,
                }
            )
        if path in ("/gateway", "/gateway/bot"):
            limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
            return _json(
                {"url": self.base.replace("http", "ws", 1) + "/gateway", "shards": 1, **{"session_start_limit": limit}}
            )
        if request.method == "PUT" and path.endswith("/commands"):
            return _json([])
        return _json({"message": "Unknown", "code": 0}, status=404)

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        sequence = 0
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            payload = json.loads(message.data)
            if payload["op"] == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif payload["op"] == 2:
                self.identified.append(payload["d"])
                if self.close_code is not None:
                    await ws.close(code=self.close_code, message=b"refused")
                    break
                sequence += 1
                ready = {
                    "v": 10,
                    "user": BOT_USER,
                    "guilds": [],
                    "session_id": "fake-session",
                    "resume_gateway_url": self.base.replace("http", "ws", 1) + "/gateway",
                    "application": {"id": APP_ID, "flags": 0},
                }
                if "shard" in payload["d"]:
                    ready["shard"] = payload["d"]["shard"]
                await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": sequence, "d": ready}))
        return ws


class SilentServer:
    """A TCP server on 127.0.0.1 that accepts connections and never answers: a host that hangs."""

    def __init__(self) -> None:
        self.port = 0
        self._server: asyncio.AbstractServer | None = None
        self._writers: list[asyncio.StreamWriter] = []

    async def __aenter__(self) -> SilentServer:
        async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self._writers.append(writer)
            with contextlib.suppress(ConnectionError):
                await reader.read()

        self._server = await asyncio.start_server(hold, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc) -> None:
        for writer in self._writers:
            writer.close()
        if self._server is not None:
            self._server.close()


def closed_port() -> int:
    """A port on 127.0.0.1 that nobody listens on: connecting to it is refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bot_env(folder: Path, discord_base: str | None = None, **settings: str) -> dict[str, str]:
    """The environment for `python bot.py` under test: every setting the bot reads given explicitly (so no `.env`
    can add one), discord.py pointed at `discord_base`, and `settings` on top."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KOKESHI_TEST_", "PYTHON"))}
    env.update(
        PYTHONPATH=str(folder),
        PYTHONUNBUFFERED="1",
        DISCORD_TOKEN="",
        DATABASE_PATH=str(folder / "kokeshi.sqlite3"),
        DATABASE_URL="",
        LOG_LEVEL="INFO",
        DEV_GUILD_ID="",
        SANDBOX_PORT="0",
        CHALLENGE_SECRET="",
        SHARD_COUNT="",
        SHARD_IDS="",
        CONNECT_TIMEOUT="",
    )
    if discord_base is not None:
        env["KOKESHI_TEST_DISCORD"] = discord_base
    env.update(settings)
    return env


async def run_bot(
    env: dict[str, str], *args: str, timeout: float = 60.0, cwd: Path = ROOT, python: str = sys.executable
) -> tuple[int, str, str]:
    """Run `python bot.py ARGS` to its end: (exit status, stdout, stderr)."""
    process = await asyncio.create_subprocess_exec(
        python,
        "bot.py",
        *args,
        cwd=cwd,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    return process.returncode, out.decode(), err.decode()


def last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""

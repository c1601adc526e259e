"""`python bot.py` started as an admin starts it: every failure ends with one line saying what to do, and a status.

Each test runs the bot as a process of its own against a stand-in for Discord on 127.0.0.1 (`tests/fakediscord.py`).
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import sys
import time

import pytest

from tests.fakediscord import ROOT, FakeDiscord, SilentServer, bot_env, closed_port, last_line, run_bot
from tests.pgserver import free_port

TOKEN = "MTAw.fake.token-for-tests"
CONFIG, UNAVAILABLE = 78, 69


def assert_one_line_end(status: int, err: str, expected_status: int, expected: str) -> None:
    assert (status, last_line(err)) == (expected_status, expected), err
    assert "Traceback" not in err and "Error:" not in err.replace(expected, "")
    # discord.py's voice warnings (PyNaCl, davey) do not apply to a bot without voice.
    assert "voice will NOT be supported" not in err and "WARNING" not in err, err
    assert TOKEN not in err


def startup_line(err: str) -> str:
    return next(line.split(" kokeshi: ", 1)[1] for line in err.splitlines() if " kokeshi: starting:" in line)


@pytest.mark.slow
async def test_a_refused_token_ends_with_one_line_saying_where_to_get_a_new_one(tmp_path):
    async with FakeDiscord(token_ok=False) as discord:
        status, _, err = await run_bot(bot_env(tmp_path, discord.base, DISCORD_TOKEN=TOKEN), "connect")
    assert_one_line_end(
        status,
        err,
        CONFIG,
        "Cannot start: Discord refused the token (401 Unauthorized). Copy the bot's token again from the Developer "
        "Portal (your application, Bot, Reset Token) into DISCORD_TOKEN.",
    )
    assert discord.requests == ["GET /users/@me"]


@pytest.mark.slow
async def test_a_discord_that_refuses_the_connection_ends_with_one_line(tmp_path):
    port = closed_port()
    env = bot_env(tmp_path, f"http://127.0.0.1:{port}", DISCORD_TOKEN=TOKEN)
    status, _, err = await run_bot(env, "connect")
    assert_one_line_end(
        status,
        err,
        UNAVAILABLE,
        f"Cannot start: Discord cannot be reached: the connection to 127.0.0.1:{port} failed (Connection refused). "
        "Check this machine's internet connection and any proxy or firewall, then start the bot again.",
    )


@pytest.mark.slow
async def test_a_discord_whose_name_does_not_resolve_ends_with_one_line(tmp_path):
    # The look-up fails inside the process, as with no DNS: nothing leaves the machine.
    env = bot_env(tmp_path, "http://discord.test", DISCORD_TOKEN=TOKEN, KOKESHI_TEST_NO_DNS="discord.test")
    status, _, err = await run_bot(env, "connect")
    assert_one_line_end(
        status,
        err,
        UNAVAILABLE,
        "Cannot start: Discord cannot be reached: the name discord.test cannot be resolved (Name or service not "
        "known). Check this machine's DNS and internet connection, then start the bot again.",
    )


@pytest.mark.slow
async def test_a_discord_that_never_answers_is_given_up_after_connect_timeout(tmp_path):
    async with SilentServer() as silent:
        env = bot_env(tmp_path, f"http://127.0.0.1:{silent.port}", DISCORD_TOKEN=TOKEN, CONNECT_TIMEOUT="1.5")
        started = time.monotonic()
        status, _, err = await run_bot(env, "connect")
        took = time.monotonic() - started
    assert_one_line_end(
        status,
        err,
        UNAVAILABLE,
        "Cannot start: Discord did not answer within 1.5 s (CONNECT_TIMEOUT). Check this machine's internet "
        "connection, DNS and any proxy or firewall, then start the bot again.",
    )
    assert took < 30, took


@pytest.mark.slow
async def test_a_missing_privileged_intent_ends_with_one_line_naming_the_portal_setting(tmp_path):
    async with FakeDiscord(close_code=4014) as discord:
        status, _, err = await run_bot(bot_env(tmp_path, discord.base, DISCORD_TOKEN=TOKEN), "connect")
    assert_one_line_end(
        status,
        err,
        CONFIG,
        "Cannot start: Discord refused the privileged gateway intents this bot asks for: enable them for the "
        "application in the Developer Portal (your application, Bot, Privileged Gateway Intents), then start the bot "
        "again.",
    )
    assert discord.identified and discord.identified[0]["intents"] == 1  # guilds only


@pytest.mark.slow
async def test_a_database_that_cannot_be_opened_or_migrated_ends_with_one_line_before_discord_is_asked(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as db:
        db.execute("PRAGMA user_version = 999")
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database at all " * 200)
    cases = [
        (
            str(blocker / "kokeshi.sqlite3"),
            f"Cannot start: Cannot create the folder {blocker} for the database {blocker / 'kokeshi.sqlite3'}: File "
            "exists. Set DATABASE_PATH to a writable location.",
        ),
        (str(newer), f"Cannot start: The database {newer} has schema version 999, newer than this code knows"),
        (str(garbage), f"Cannot start: {garbage} is not a SQLite database, or it is damaged"),
    ]
    async with FakeDiscord() as discord:
        for path, start in cases:
            status, _, err = await run_bot(
                bot_env(tmp_path / "env", discord.base, DISCORD_TOKEN=TOKEN, DATABASE_PATH=path), "connect"
            )
            assert status == UNAVAILABLE and last_line(err).startswith(start), err
            assert last_line(err).endswith(("location.", "for this version.", "made with `python -m storage backup`."))
            assert "Traceback" not in err and len(last_line(err)) < 400
    assert discord.requests == []  # the database is opened first: nothing was asked of Discord


@pytest.mark.slow
async def test_a_postgresql_server_that_refuses_or_never_answers_ends_with_a_reason_and_no_password(tmp_path):
    refused = f"postgresql://kokeshi:hunter2secret@127.0.0.1:{free_port()}/kokeshi"
    async with SilentServer() as silent:
        silent_url = f"postgresql://kokeshi:hunter2secret@127.0.0.1:{silent.port}/kokeshi?password=hunter2secret"
        env = bot_env(tmp_path, "http://127.0.0.1:9", DISCORD_TOKEN=TOKEN, CONNECT_TIMEOUT="1", DATABASE_URL=silent_url)
        started = time.monotonic()
        status, out, err = await run_bot(env, "connect")
        took = time.monotonic() - started
    assert status == UNAVAILABLE and took < 20, err
    assert last_line(err) == (
        f"Cannot start: Cannot connect to the database postgresql://kokeshi:***@127.0.0.1:{silent.port}/kokeshi"
        "?password=***: the server did not answer within 1 s. Check DATABASE_URL's host and port, that the server "
        "runs and that no firewall holds the connection."
    )
    env = bot_env(tmp_path, "http://127.0.0.1:9", DISCORD_TOKEN=TOKEN, DATABASE_URL=refused)
    status, out2, err2 = await run_bot(env, "connect")
    assert status == UNAVAILABLE and "Connect call failed" in last_line(err2), err2
    for text in (out, err, out2, err2):
        assert "hunter2secret" not in text
    assert startup_line(err).startswith(
        f"starting: database PostgreSQL postgresql://kokeshi:***@127.0.0.1:{silent.port}"
    )


@pytest.mark.slow
async def test_an_unset_token_in_a_deployment_is_refused_in_one_line_instead_of_starting_the_sandbox(tmp_path):
    status, out, err = await run_bot(bot_env(tmp_path), "connect")
    assert_one_line_end(
        status,
        err,
        CONFIG,
        "Cannot start: DISCORD_TOKEN is not set. Put the bot's token in DISCORD_TOKEN (in .env or the environment); "
        "`python bot.py sandbox` plays locally without one.",
    )
    assert "sandbox" not in out


@pytest.mark.parametrize(
    ("settings", "args", "says"),
    [
        ({"SHARD_COUNT": "4"}, ("--shard-ids", "0\\x2c1"), "came through systemd's escaping"),
        ({"SHARD_COUNT": "4"}, ("--shard-ids", "0,4"), "shard ids run from 0 to SHARD_COUNT - 1 (3)"),
        ({}, ("--shard-ids", "0-1"), "--shard-ids needs SHARD_COUNT"),
        ({"CONNECT_TIMEOUT": "soon"}, (), "CONNECT_TIMEOUT must be a number of seconds above 0"),
    ],
)
@pytest.mark.slow
async def test_a_bad_setting_is_refused_in_one_line_with_the_status_that_stops_restart_loops(
    tmp_path, settings, args, says
):
    status, _, err = await run_bot(bot_env(tmp_path, DISCORD_TOKEN=TOKEN, **settings), "connect", *args)
    assert status == CONFIG and says in last_line(err) and last_line(err).startswith("Bad setting:"), err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.slow
async def test_the_start_up_log_names_the_database_and_the_shards_and_sigterm_stops_the_bot_cleanly(tmp_path):
    """SHARD_IDS in the environment (as a shared .env or EnvironmentFile= would set it) gives way to --shard-ids."""
    async with FakeDiscord() as discord:
        env = bot_env(tmp_path, discord.base, DISCORD_TOKEN=TOKEN, SHARD_COUNT="4", SHARD_IDS="0-3")
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "bot.py",
            "connect",
            "--shard-ids",
            "2-3",
            cwd=ROOT,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        lines: list[str] = []
        while not any("ready as Kokeshi" in line for line in lines):
            line = await asyncio.wait_for(process.stderr.readline(), 60)
            assert line, "".join(lines)
            lines.append(line.decode())
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        _, rest = await asyncio.wait_for(process.communicate(), 30)
        took = time.monotonic() - started
    err = "".join(lines) + rest.decode()
    assert process.returncode == 0 and took < 8, err
    assert startup_line(err) == f"starting: database SQLite file {tmp_path / 'kokeshi.sqlite3'}; shards 2-3 of 4"
    assert [d["shard"] for d in discord.identified] == [[2, 4], [3, 4]]
    assert "stopping: finishing the work under way" in err and err.rstrip().endswith("kokeshi: stopped")
    assert "Traceback" not in err and "WARNING" not in err


def test_main_builds_one_bot_for_connect_and_one_unsharded_bot_for_sync(monkeypatch, tmp_path):
    import bot

    built: list[dict] = []
    served: list[bool] = []

    def create(path, **options):
        built.append(options)
        return object()

    async def serve(made, settings, *, sync_only=False):
        served.append(sync_only)

    monkeypatch.setattr(bot, "create_bot", create)
    monkeypatch.setattr(bot, "serve", serve)
    for name, value in {**bot_env(tmp_path), "DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "4"}.items():
        monkeypatch.setenv(name, value)
    assert bot.main(["connect", "--shard-ids", "0-1"]) == 0
    assert bot.main(["sync"]) == 0
    assert served == [False, True] and len(built) == 2
    assert (built[0]["shard_count"], built[0]["shard_ids"], built[0]["sync"]) == (4, (0, 1), "auto")
    assert (built[1]["shard_count"], built[1]["shard_ids"], built[1]["sync"]) == (None, None, "never")


@pytest.mark.slow
async def test_sigterm_while_discord_is_slow_to_answer_stops_the_start_up_at_once(tmp_path):
    async with SilentServer() as silent:
        env = bot_env(tmp_path, f"http://127.0.0.1:{silent.port}", DISCORD_TOKEN=TOKEN, CONNECT_TIMEOUT="60")
        process = await asyncio.create_subprocess_exec(
            sys.executable, "bot.py", "connect", cwd=ROOT, env=env, stderr=asyncio.subprocess.PIPE
        )
        lines: list[str] = []
        while not any("logging in" in line for line in lines):
            line = await asyncio.wait_for(process.stderr.readline(), 60)
            assert line, "".join(lines)
            lines.append(line.decode())
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        _, rest = await asyncio.wait_for(process.communicate(), 30)
        took = time.monotonic() - started
    err = "".join(lines) + rest.decode()
    assert process.returncode == 0 and took < 8, err
    assert last_line(err).endswith("kokeshi: stopped before start-up finished") and "Traceback" not in err

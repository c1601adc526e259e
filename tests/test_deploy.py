"""The deployment files in deploy/ start, as far as this machine can run them.

- systemd: `systemd-analyze verify` on both units, in a throwaway root holding the paths they name;
- compose: `docker-compose config` (the real Compose, which validates without a Docker engine) and the structure;
- Dockerfile: hadolint, its parse by BuildKit's own parser (`dockerfile`), and a rehearsal of its build: every step is
  run in a throwaway root (the virtualenv, the install, the compiled catalogs, the copies), and the app it builds is
  started with only the runtime packages, as the image would start it.
"""

from __future__ import annotations

import asyncio
import fnmatch
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import dockerfile
import pytest
import yaml

from bot import parse_shard_ids
from tests.fakediscord import FakeDiscord, bot_env, last_line, run_bot

pytestmark = pytest.mark.xdist_group("deploy")

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
DOCKERFILE = DEPLOY / "Dockerfile"
# The deployment guide: its systemd instance names and its PostgreSQL restore are run as written.
GUIDE = ROOT / "docs" / "deploying.md"
COMPOSE = DEPLOY / "compose.yaml"
UNITS = DEPLOY / "systemd"
TOKEN = "MTAw.fake.token-for-tests"


def run(*command: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=600, **kwargs)


# ---------------------------------------------------------------- systemd


def unit_root(tmp_path: Path) -> Path:
    """A root for `systemd-analyze verify --root`: the host's own units, ours, and the paths ours name."""
    root = tmp_path / "root"
    shutil.copytree(Path("/usr/lib/systemd/system"), root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    for unit in UNITS.glob("*.service"):
        shutil.copy(unit, root / "etc/systemd/system" / unit.name)
    python = root / "opt/kokeshi/.venv/bin/python"
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\n")
    python.chmod(0o755)
    (root / "opt/kokeshi/data").mkdir()
    return root


def guide_instances() -> list[str]:
    text = GUIDE.read_text(encoding="utf-8")
    return sorted(set(re.findall(r"kokeshi@[\w.:\\-]+(?=[\s`.,)])", text)) - {"kokeshi@.service"})


def test_the_systemd_units_pass_systemd_analyze_verify_with_the_instance_names_the_guide_uses(tmp_path):
    instances = guide_instances()
    assert {"kokeshi@0-1", "kokeshi@2-3"} <= set(instances), instances
    root = unit_root(tmp_path)
    done = run("systemd-analyze", "verify", f"--root={root}", "kokeshi.service", *(f"{i}.service" for i in instances))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_systemd_refuses_a_comma_in_an_instance_name_which_is_why_the_units_take_ranges(tmp_path):
    done = run("systemd-analyze", "verify", f"--root={unit_root(tmp_path)}", "kokeshi@0,1.service")
    assert done.returncode != 0 and "Invalid argument" in done.stderr
    # systemd-escape would turn it into a name whose %i the bot refuses with a line saying what to do instead.
    escaped = run("systemd-escape", "--template=kokeshi@.service", "0,1").stdout.strip()
    assert escaped == "kokeshi@0\\x2c1.service"


def unit_settings(path: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def test_the_template_gives_each_process_its_shards_on_the_command_line_where_no_environment_reaches():
    settings = unit_settings(UNITS / "kokeshi@.service")
    (start,) = settings["ExecStart"]
    assert start.endswith("bot.py connect --shard-ids %i")  # %i: the raw instance; %I would turn 0-1 into 0/1
    for key in ("Environment", "EnvironmentFile", "PassEnvironment"):
        assert not any("SHARD" in v for v in settings.get(key, [])), key
    # What the instance names of the deployment guide hand the bot are the shards they say.
    shards = {name: parse_shard_ids(name.split("@", 1)[1]) for name in guide_instances()}
    assert shards["kokeshi@0-1"] == (0, 1) and shards["kokeshi@2-3"] == (2, 3)
    # A per-process setting in a file every process shares can only do harm.
    assert not re.search(r"^\s*SHARD_IDS\s*=", (ROOT / ".env.example").read_text(encoding="utf-8"), re.M)
    for unit in UNITS.glob("*.service"):
        values = unit_settings(unit)
        assert values["RestartPreventExitStatus"] == ["78"] and values["KillMode"] == ["mixed"]
        assert values["User"] == ["kokeshi"] and values["ExecStart"][0].split()[1:3] == ["bot.py", "connect"]


# ---------------------------------------------------------------- compose


def compose_config(tmp_path: Path, **variables: str) -> subprocess.CompletedProcess:
    env_file = tmp_path / "compose.env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in variables.items()))
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "POSTGRES_PASSWORD", "CHALLENGE_SECRET")}
    return run("docker-compose", "-f", str(COMPOSE), "--env-file", str(env_file), "config", env=clean)


def test_the_compose_file_is_valid_and_every_bot_waits_for_the_database_restarts_and_runs_its_own_shards(tmp_path):
    done = compose_config(tmp_path, DISCORD_TOKEN=TOKEN, POSTGRES_PASSWORD="pw42")
    assert done.returncode == 0, done.stderr
    config = yaml.safe_load(done.stdout)
    services = config["services"]
    db = services["db"]
    assert db["healthcheck"]["test"][0] == "CMD" and "pg_isready" in db["healthcheck"]["test"]
    bots = {name: s for name, s in services.items() if "build" in s}
    assert len(bots) >= 2
    covered: list[int] = []
    for name, service in services.items():
        assert service["restart"] in ("unless-stopped", "always", "on-failure"), name
        for other in service.get("depends_on", {}):
            assert other in services, (name, other)
    for name, service in bots.items():
        assert Path(service["build"]["context"]) == ROOT
        assert (ROOT / service["build"]["dockerfile"]) == DOCKERFILE
        assert service["depends_on"] == {"db": {"condition": "service_healthy"}}, name
        command = service["command"]
        assert isinstance(command, list) and command[:3] == ["python", "bot.py", "connect"], name  # exec form
        assert command[3] == "--shard-ids" and name == f"shards-{command[4]}", name
        covered.extend(parse_shard_ids(command[4]))
        environment = service["environment"]
        assert "SHARD_IDS" not in environment and environment["DISCORD_TOKEN"] == TOKEN
        assert environment["DATABASE_URL"] == "postgresql://kokeshi:pw42@db:5432/kokeshi"
        assert service["stop_grace_period"] == "30s"
    count = {int(s["environment"]["SHARD_COUNT"]) for s in bots.values()}
    assert len(count) == 1 and sorted(covered) == list(range(count.pop())), covered


def test_compose_refuses_to_start_without_a_token_or_a_database_password_in_one_line(tmp_path):
    for missing in ("DISCORD_TOKEN", "POSTGRES_PASSWORD"):
        given = {"DISCORD_TOKEN": TOKEN, "POSTGRES_PASSWORD": "pw42", missing: ""}
        done = compose_config(tmp_path, **given)
        assert done.returncode != 0 and done.stderr.rstrip().endswith(f"set {missing} in .env"), done.stderr


# ---------------------------------------------------------------- Dockerfile


def test_hadolint_finds_nothing_in_the_dockerfile():
    done = run(str(Path(sys.executable).parent / "hadolint"), str(DOCKERFILE))
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether .dockerignore keeps `path` out of the build context (its last matching line wins)."""
    keep = True
    for pattern in patterns:
        negated = pattern.startswith("!")
        pattern = pattern.lstrip("!").rstrip("/")
        if fnmatch.fnmatch(path, pattern) or fnmatch.fnmatch(path, pattern + "/*") or pattern == "*":
            keep = negated
    return not keep


def test_the_dockerfile_copies_files_that_exist_runs_as_a_user_and_starts_in_exec_form():
    commands = dockerfile.parse_file(str(DOCKERFILE))
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    copied = [c for c in commands if c.cmd == "COPY" and not any(f.startswith("--from") for f in c.flags)]
    assert copied
    for command in copied:
        for source in command.value[:-1]:
            assert (ROOT / source).exists(), source
            assert not ignored(source.rstrip("/"), patterns), f"{source} is left out by .dockerignore"
    final = commands[max(i for i, c in enumerate(commands) if c.cmd == "FROM") :]
    users = [c.value[0] for c in final if c.cmd == "USER"]
    assert users and users[-1].split(":")[0] not in ("0", "root")
    (cmd,) = [c for c in commands if c.cmd == "CMD"]
    assert cmd.json and list(cmd.value) == ["python", "bot.py", "connect"]  # exec form: SIGTERM reaches Python
    assert all(c.json for c in commands if c.cmd == "ENTRYPOINT")
    assert not [c for c in final if c.cmd == "RUN" and "pip install" in c.value[0]]  # installed once, at build
    (python,) = [c.value[0] for c in commands if c.cmd == "ARG" and c.value[0].startswith("PYTHON=")]
    assert python.startswith(f"PYTHON={sys.version_info.major}.{sys.version_info.minor}-")  # rehearsed on the same


# Each part of a RUN either runs in the rehearsal as written, or needs the image itself (root, its user).
REHEARSED = ("python", '"$VIRTUAL_ENV/bin/pip"', '"$VIRTUAL_ENV/bin/pybabel"', "mkdir")
IMAGE_ONLY = ("useradd", "chown")
CONTAINER_DIRS = ("/app", "/opt")


@dataclass
class Image:
    root: Path
    app: Path
    python: Path
    env: dict[str, str]
    ran: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def rehearse(root: Path) -> Image:
    """Carry out deploy/Dockerfile's steps under `root` (container paths mapped inside it)."""
    host_bin = root / "host-bin"
    host_bin.mkdir(parents=True)
    (host_bin / "python").symlink_to(sys._base_executable)  # the interpreter itself, none of the dev packages
    host_path = f"{host_bin}:{os.environ['PATH']}"

    def inside(path: str) -> Path:
        assert path.startswith(CONTAINER_DIRS), path
        return root / path.lstrip("/")

    def expand(value: str, env: dict[str, str]) -> str:
        value = re.sub(
            r"\$\{?(\w+)\}?", lambda m: env.get(m.group(1), host_path if m.group(1) == "PATH" else ""), value
        )
        return ":".join(str(inside(p)) if p.startswith(CONTAINER_DIRS) else p for p in value.split(":"))

    image = Image(root, root / "app", root / "opt/kokeshi/bin/python", {})
    env: dict[str, str] = {}
    workdir = root
    for command in dockerfile.parse_file(str(DOCKERFILE)):
        if command.cmd == "FROM":
            env, workdir = {"PATH": host_path, "HOME": str(root)}, root
        elif command.cmd == "ENV":
            pairs = command.value
            for key, value in zip(pairs[::2], pairs[1::2], strict=True):
                env[key] = expand(value, env)
        elif command.cmd == "WORKDIR":
            workdir = inside(command.value[0])
            workdir.mkdir(parents=True, exist_ok=True)
        elif command.cmd == "COPY":
            *sources, dest = command.value
            from_stage = any(f.startswith("--from") for f in command.flags)
            target = workdir / dest if not dest.startswith("/") else inside(dest)
            for source in sources:
                origin = inside(source) if from_stage else ROOT / source
                if origin.resolve() == target.resolve():
                    continue  # one root serves every stage: the same path is already there
                if origin.is_dir():
                    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo")
                    shutil.copytree(origin, target, dirs_exist_ok=True, ignore=skip)
                else:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(origin, target if not dest.endswith("/") else target / origin.name)
        elif command.cmd == "RUN":
            for part in (p.strip() for p in command.value[0].split("&&")):
                word = shlex.split(part)[0] if not part.startswith('"') else part.split()[0]
                if word in IMAGE_ONLY:
                    image.skipped.append(part)
                    continue
                assert word in REHEARSED, f"a build step this rehearsal does not know: {part}"
                steps = {k: v for k, v in env.items() if k != "PIP_NO_CACHE_DIR"}  # the cache only saves time here
                done = subprocess.run(
                    ["sh", "-c", part], cwd=workdir, env=steps, capture_output=True, text=True, timeout=900
                )
                assert done.returncode == 0, f"{part}\n{done.stdout}\n{done.stderr}"
                image.ran.append(part)
    image.env = env
    return image


@pytest.fixture(scope="module")
def image(tmp_path_factory) -> Image:
    return rehearse(tmp_path_factory.mktemp("image"))


@pytest.mark.slow
def test_the_image_build_installs_the_runtime_packages_compiles_the_catalogs_and_copies_the_app(image):
    assert any("pip" in step and "install -r requirements.txt" in step for step in image.ran)
    assert sorted(p.relative_to(image.app).as_posix() for p in (image.app / "locales").glob("*/LC_MESSAGES/*.mo"))
    assert image.skipped == [
        "useradd --system --user-group --uid 10001 --home-dir /app --no-create-home --shell /usr/sbin/nologin kokeshi",
        "chown kokeshi:kokeshi data",
    ]
    listed = run(str(image.python), "-m", "pip", "list", "--format=freeze").stdout.lower()
    assert "discord.py" in listed and "simcord" not in listed and "pytest" not in listed
    # Every module of the packages the image copies imports with the runtime packages alone.
    code = (
        "import importlib, pathlib; "
        "[importlib.import_module('.'.join(p.with_suffix('').parts)) "
        "for d in ('cogs', 'games', 'i18n', 'render', 'service', 'storage') "
        "for p in pathlib.Path(d).rglob('*.py') "
        "if p.name != '__main__.py']"
    )
    done = run(str(image.python), "-c", code, cwd=image.app, env=image.env)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
async def test_the_image_refuses_to_start_without_a_token_instead_of_falling_into_the_sandbox(image, tmp_path):
    env = {**bot_env(tmp_path), "PATH": image.env["PATH"], "DATABASE_PATH": image.env["DATABASE_PATH"]}
    status, out, err = await run_bot(env, "connect", cwd=image.app, python=str(image.python))
    expected = (
        "Cannot start: DISCORD_TOKEN is not set. Put the bot's token in DISCORD_TOKEN (in .env or the "
        "environment); `python bot.py sandbox` plays locally without one."
    )
    assert (status, out, last_line(err)) == (78, "", expected)
    # The default command too: without the dev packages there is no sandbox to fall into.
    status, out, err = await run_bot(env, cwd=image.app, python=str(image.python))
    assert status == 78 and "No DISCORD_TOKEN set" not in out and "Traceback" not in err
    assert last_line(err).startswith("Cannot start: DISCORD_TOKEN is not set, and the local sandbox needs the dev")


@pytest.mark.slow
async def test_the_built_image_connects_logs_its_database_and_shards_and_stops_on_sigterm_with_status_0(
    image, tmp_path
):
    async with FakeDiscord() as discord:
        env = {**bot_env(tmp_path, discord.base, DISCORD_TOKEN=TOKEN, SHARD_COUNT="2"), "PATH": image.env["PATH"]}
        env["DATABASE_PATH"] = image.env["DATABASE_PATH"]
        process = await asyncio.create_subprocess_exec(
            str(image.python),
            "bot.py",
            "connect",
            "--shard-ids",
            "1",
            cwd=image.app,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        lines: list[str] = []
        while not any("ready as Kokeshi" in line for line in lines):
            line = await asyncio.wait_for(process.stderr.readline(), 60)
            assert line, "".join(lines)
            lines.append(line.decode())
        process.send_signal(signal.SIGTERM)
        _, rest = await asyncio.wait_for(process.communicate(), 15)
    err = "".join(lines) + rest.decode()
    assert process.returncode == 0, err
    assert f"starting: database SQLite file {image.app / 'data/kokeshi.sqlite3'}; shards 1 of 2" in err
    assert "compiled in memory" not in err  # the image brought its compiled catalogs
    assert "WARNING" not in err and "Traceback" not in err


@pytest.mark.slow
async def test_a_shared_env_file_never_overrides_the_shards_given_on_the_command_line_or_in_the_environment(
    image, tmp_path
):
    """python-dotenv fills in only what is unset; --shard-ids beats both (systemd's EnvironmentFile= would not)."""
    async with FakeDiscord(token_ok=False) as discord:
        (image.app / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nSHARD_COUNT=4\nSHARD_IDS=0-3\nDATABASE_PATH=\n")
        try:
            base = {k: v for k, v in bot_env(tmp_path, discord.base).items()}
            for name in ("DISCORD_TOKEN", "SHARD_COUNT", "SHARD_IDS", "DATABASE_PATH"):
                del base[name]
            base.update(PATH=image.env["PATH"], DATABASE_PATH=str(tmp_path / "db.sqlite3"))
            seen = []
            for extra_env, args in (({}, ("--shard-ids", "2-3")), ({"SHARD_IDS": "1"}, ()), ({}, ())):
                status, _, err = await run_bot(
                    {**base, **extra_env}, "connect", *args, cwd=image.app, python=str(image.python)
                )
                assert status == 78 and "refused the token" in last_line(err)  # the token came from .env
                seen.append(next(line for line in err.splitlines() if "starting:" in line).rsplit("; ", 1)[1])
        finally:
            (image.app / ".env").unlink()
    assert seen == ["shards 2-3 of 4", "shards 1 of 4", "shards 0-3 of 4"]


# ---------------------------------------------------------------- restoring PostgreSQL


def guide_restore_lines() -> list[str]:
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index("**PostgreSQL.** Back up with `pg_dump`")
    block = re.search(r"```sh\n(.*?)```", text[start:], re.S)
    return [line for line in block.group(1).splitlines() if line.strip()]


async def test_the_guides_postgresql_restore_runs_as_written_and_never_writes_to_the_live_database(pg_server, tmp_path):
    from storage import open_store
    from tests.pgserver import pg_bin
    from tests.test_storage import play_moves, started

    dump = tmp_path / "kokeshi.dump"
    lines = [
        line.replace("db-host", f"127.0.0.1:{pg_server.port}")
        .replace("python -m storage", f"{sys.executable} -m storage")
        .replace("kokeshi-2026-11-23.dump", str(dump))
        for line in guide_restore_lines()
    ]
    assert [line.split()[0] for line in lines] == ["pg_dump", "psql", "pg_restore", sys.executable, "psql"]
    env = {**os.environ, "PATH": f"{pg_bin()}:{os.environ['PATH']}", "DATABASE_URL": ""}

    def step(line: str) -> subprocess.CompletedProcess:
        return subprocess.run(["sh", "-c", line], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)

    pg_server.psql("CREATE DATABASE kokeshi")
    live = pg_server.url("kokeshi")
    bot = await open_store(live)
    try:
        backed_up = [await started(bot, seed=s) for s in range(3)]
        await play_moves(bot, backed_up[0], 6)
        assert step(lines[0]).returncode == 0  # pg_dump, while the bot runs
        later = await started(bot, seed=9)  # the bot goes on after the backup
        await play_moves(bot, backed_up[0], 3)
        live_log = await bot.match_decisions(backed_up[0])
        for line in lines[1:4]:  # a new database, the restore into it, and verify: all while the bot runs
            done = step(line)
            assert done.returncode == 0, done.stderr
        assert "3 games checked, 0 with problems" in done.stdout
        assert await bot.match_decisions(backed_up[0]) == live_log and (await bot.get_game(later)).status == "active"
        switched = step(lines[4])
        assert switched.returncode != 0 and "is being accessed by other users" in switched.stderr
    finally:
        await bot.close()  # every bot stopped: now the switch goes through
    try:
        switched = step(lines[4])
        assert switched.returncode == 0, switched.stderr
        restored = await open_store(live)
        try:
            assert [g.id for g in await restored.active_games()] == backed_up
            assert len(await restored.match_decisions(backed_up[0])) == 6
            assert await restored.create_game(guild_id=1, channel_id=1, host_id=1, host_name="Di", players=2) == 4
        finally:
            await restored.close()
    finally:
        for name in ("kokeshi", "kokeshi_before_restore", "kokeshi_restored"):
            pg_server.psql(f"DROP DATABASE IF EXISTS {name}")

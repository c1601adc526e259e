"""A throwaway PostgreSQL server for tests and benches: initdb + pg_ctl in a temp dir, on a free loopback port."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

PREFIX = "kokeshi-pg-"
OWNER = "owner.pid"  # the process that started the server: once it is gone, the server is an orphan
# initdb refuses to run as root: as root the server runs as one of these users, in a folder they own.
_SERVER_USERS = ("postgres", "nobody")


def pg_bin() -> Path:
    """The folder of Debian's PostgreSQL programs (the newest installed version)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if not found:
        raise RuntimeError("PostgreSQL is missing: install Debian's postgresql package (apt-get install postgresql)")
    return Path(found[-1]).parent


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """One PostgreSQL server of its own; `url(name)` addresses one of its databases. Use as a context manager."""

    def __init__(self, *, durable: bool = False, settings: dict[str, str] | None = None) -> None:
        self.durable = durable
        self.settings = settings or {}
        self.port = 0
        self.folder: Path | None = None
        self._user: str | None = None

    def _command(self, *args: str) -> list[str]:
        return ["runuser", "-u", self._user, "--", *args] if self._user else list(args)

    def start(self) -> PgServer:
        """initdb and start the server; raises RuntimeError with the server's own words if it cannot."""
        bin_dir = pg_bin()
        reap_orphans()
        self.folder = Path(tempfile.mkdtemp(prefix=PREFIX))
        (self.folder / OWNER).write_text(str(os.getpid()))
        if os.geteuid() == 0:
            self._user = next(u for u in _SERVER_USERS if _has_user(u))
            entry = pwd.getpwnam(self._user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        data = self.folder / "data"
        self._check(
            self._command(
                str(bin_dir / "initdb"), "-D", str(data), "-U", "kokeshi", "--auth=trust", "-E", "UTF8", "--no-sync"
            )
        )
        self.port = free_port()
        options = {
            "port": str(self.port),
            "listen_addresses": "127.0.0.1",
            "unix_socket_directories": "",
            "max_connections": "200",
            **({} if self.durable else {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}),
            **self.settings,
        }
        flags = " ".join(f"-c {k}={v}" if v else f"-c {k}=''" for k, v in options.items())
        log = str(self.folder / "server.log")
        self._check(self._command(str(bin_dir / "pg_ctl"), "-D", str(data), "-l", log, "-o", flags, "-w", "start"))
        return self

    def _check(self, command: list[str]) -> None:
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder)
        if done.returncode != 0:
            log = self.folder / "server.log"
            extra = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(command[:4])} failed: {done.stdout}{done.stderr}{extra}")

    def url(self, database: str = "postgres") -> str:
        """The URL of one database of this server."""
        return f"postgresql://kokeshi@127.0.0.1:{self.port}/{database}"

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run SQL with psql (no Python driver needed); returns its unaligned output."""
        done = subprocess.run(
            [str(pg_bin() / "psql"), "-XqAt", "-v", "ON_ERROR_STOP=1", "-d", self.url(database), "-c", sql],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(done.stderr)
        return done.stdout.strip()

    def stop(self) -> None:
        """Stop the server and delete its folder."""
        if self.folder is None:
            return
        _stop_folder(self.folder, self._command)
        self.folder = None

    def __enter__(self) -> PgServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _stop_folder(folder: Path, command: Callable[..., list[str]]) -> None:
    data = folder / "data"
    if (data / "postmaster.pid").exists():
        subprocess.run(
            command(str(pg_bin() / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"),
            capture_output=True,
        )
    shutil.rmtree(folder, ignore_errors=True)


def reap_orphans() -> list[Path]:
    """Stop the servers whose test run was killed before it could stop them (their owner process is gone)."""
    reaped = []
    for folder in Path(tempfile.gettempdir()).glob(PREFIX + "*"):
        try:
            owner = int((folder / OWNER).read_text())
        except (OSError, ValueError):
            continue
        if _alive(owner):
            continue
        user = pwd.getpwuid(folder.stat().st_uid).pw_name if os.geteuid() == 0 else None
        _stop_folder(folder, lambda *args, user=user: ["runuser", "-u", user, "--", *args] if user else list(args))
        reaped.append(folder)
    return reaped


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True

"""The tests' throwaway PostgreSQL: a server left behind by a killed test run is stopped by the next run."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pgserver import reap_orphans

pytestmark = pytest.mark.postgresql

ROOT = Path(__file__).resolve().parent.parent


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_a_server_whose_run_was_killed_is_stopped_and_removed_by_the_next_run():
    started = (
        "from tests.pgserver import PgServer\n"
        "server = PgServer().start()\n"
        "print(server.folder, server.port, flush=True)\n"
        "import time; time.sleep(600)\n"
    )
    run = subprocess.Popen([sys.executable, "-c", started], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        folder, port = run.stdout.readline().split()
    finally:
        run.kill()  # as a SIGKILLed pytest: nothing of its own stops the server
        run.wait()
    assert listening(int(port)) and Path(folder).exists()
    assert Path(folder) in reap_orphans()
    assert not listening(int(port)) and not Path(folder).exists()
    assert Path(folder) not in reap_orphans()

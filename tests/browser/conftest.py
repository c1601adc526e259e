"""One sandbox, started as `make run` starts it, and one Chromium for a module of browser tests.

Module-scoped: Playwright's synchronous API keeps an event loop running while it is open, and the asyncio tests
that follow need the thread to themselves.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.browser.pagekit import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, Sandbox, watch_actions


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The screenshots and logs of this run, every browser module's together: emptied once, at the start of the
    run (the first worker of it to come here; another worker of the same run keeps what is there)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")
    stamp = ARTIFACTS / ".run"
    if not run or not stamp.is_file() or stamp.read_text() != run:
        shutil.rmtree(ARTIFACTS, ignore_errors=True)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)  # another worker may make it first (a picture of its own)
        stamp.write_text(run)
    return ARTIFACTS


@pytest.fixture(scope="module")
def sandbox(request, tmp_path_factory, artifacts) -> Sandbox:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package.", pytrace=False)
    running = Sandbox.start(tmp_path_factory.mktemp("sandbox") / "kokeshi.sqlite3")
    yield running
    rest = running.stop()
    # What the sandbox printed, kept with the screenshots for whoever reads a failure.
    log = artifacts / f"sandbox-output-{request.module.__name__.rpartition('.')[2]}.log"
    log.write_text("\n".join(running.output) + "\n" + rest + "\n")
    assert "Sandbox stopped." in rest, rest


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser, sandbox):
    """A fresh browser window for each test, as a person opening the printed address."""
    fresh = browser.new_context(viewport={"width": 1280, "height": 900})
    watch_actions(fresh)
    yield fresh
    fresh.close()

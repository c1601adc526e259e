"""Sandbox benchmark: a whole 2-player game played in Chromium through the page; click to the bot's answer shown."""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from bench.common import percentile  # noqa: E402
from tests.browser.pagekit import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    Sandbox,
    command,
    controls,
    is_over,
    play_step,
    signature,
    view_as,
    wait_for_change,
)


def play(seed: int, limit: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        sandbox = Sandbox.start(Path(folder) / "bench.sqlite3")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(sandbox.url)
                expect(page.locator("#viewer-picker")).to_be_visible()
                view_as(page, "Aiko")
                command(page, "kokeshi new", players=2)
                view_as(page, "Botan")
                before = signature(page)
                page.locator("#channel-message-list").get_by_role("button", name="Join").last.click()
                wait_for_change(page, before)
                view_as(page, "Aiko")
                page.locator("#channel-message-list").get_by_role("button", name="Start").last.click()
                expect(page.locator("#channel-name")).to_have_text(re.compile(r"Kokeshi #\d+"), timeout=15_000)
                expect(controls(page).first).to_be_visible(timeout=15_000)
                rng = random.Random(seed)
                latencies = []
                while not is_over(page) and len(latencies) < limit:
                    latencies.append(play_step(page, rng))
                browser.close()
                return latencies
        finally:
            sandbox.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="only the first 40 decisions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.monotonic()
    latencies = play(args.seed, 40 if args.quick else 10_000)
    ms = [x * 1000 for x in latencies]
    print(f"sandbox page, 2 players, {len(ms)} decisions in {time.monotonic() - started:.0f} s")
    print(
        f"click -> bot's answer shown in the page: p50 {percentile(ms, 0.5):.0f} ms, p90 {percentile(ms, 0.9):.0f} ms"
    )


if __name__ == "__main__":
    main()

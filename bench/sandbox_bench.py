"""Sandbox benchmark: a whole 2-player game played in Chromium through the page; click to the bot's answer shown."""

from __future__ import annotations

import argparse
import random
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
    is_over,
    play_step,
    start_two_player_game,
    swallowed,
    watch_actions,
)


def play(seed: int, limit: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        sandbox = Sandbox.start(Path(folder) / "bench.sqlite3")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                watch_actions(page.context)
                page.goto(sandbox.url)
                expect(page.locator("#viewer-picker")).to_be_visible()
                start_two_player_game(page, "Aiko", "Botan")
                rng = random.Random(seed)
                latencies = []
                while not is_over(page) and len(latencies) < limit:
                    latencies.append(play_step(page, rng))
                print(f"clicks or picks the page took without sending them (made again): {swallowed(page)}")
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

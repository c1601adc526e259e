"""Sandbox benchmark: whole 2-player games played in Chromium through the page: click to the bot's answer shown, and
switching "Viewing as" as the thread grows; with --before REV, that version's sandbox side by side in the same run."""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Error as PlaywrightError  # noqa: E402
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
    to_act,
    view_as,
    watch_actions,
)

# Who watches while the players play: a switch to them and back redraws the whole thread twice.
WATCHER = "Chiyo"


@dataclass
class Run:
    """One sandbox (this tree's, or an earlier version's) and its page."""

    name: str
    sandbox: Sandbox
    page: object = None
    rng: random.Random = field(default_factory=random.Random)
    latencies: list[float] = field(default_factory=list)
    # decisions, messages, pictures, seconds to ready, seconds to the current turn shown (None: not shown)
    switches: list[tuple[int, int, int, float, float | None]] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return is_over(self.page)


def version_tree(revision: str, folder: Path) -> Path:
    """The repository as it was at `revision`, unpacked in `folder`, sharing this tree's virtualenv."""
    archive = subprocess.run(["git", "archive", revision], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    os.symlink((ROOT / ".venv").resolve(), folder / ".venv")
    return folder


def switched(page, name: str) -> tuple[float, float | None]:
    """Switch "Viewing as" to `name`: seconds until the page is ready again, and until it shows the current turn
    (the newest buttons in view; None if it has not within 20 s of being ready)."""
    started = time.monotonic()
    page.locator("#viewer-picker").select_option(label=name)
    page.wait_for_function(
        """(name) => {
            const chosen = document.querySelector('#viewer-picker option:checked');
            return chosen && chosen.textContent.trim() === name
                && document.querySelector('#preview-app').getAttribute('aria-busy') === 'false'
                && document.querySelector('#channel-message-list article.channel-message') !== null;
        }""",
        arg=name,
        timeout=120_000,
    )
    ready = time.monotonic() - started
    try:
        page.wait_for_function(
            """() => {
                const live = [...document.querySelectorAll('#channel-message-list .component-row')].pop();
                if (!live) return false;
                const view = document.getElementById('channel-timeline').getBoundingClientRect();
                const box = live.getBoundingClientRect();
                return box.bottom > view.top && box.top < view.bottom;
            }""",
            timeout=20_000,
        )
    except PlaywrightError:
        return ready, None
    return ready, time.monotonic() - started


def measure_switches(run: Run) -> None:
    page = run.page
    player = to_act(page)
    if player is None:
        return
    view_as(page, player)
    counts = page.evaluate(
        """() => [document.querySelectorAll('#channel-message-list article.channel-message').length,
                  document.querySelectorAll('#channel-message-list img.attachment-image').length]"""
    )
    for name in (WATCHER, player):
        ready, shown = switched(page, name)
        run.switches.append((len(run.latencies), counts[0], counts[1], ready, shown))


def report(runs: list[Run], started: float) -> None:
    print(f"sandbox page, 2 players, in {time.monotonic() - started:.0f} s, load average {os.getloadavg()[0]:.1f}")
    for run in runs:
        ms = [x * 1000 for x in run.latencies]
        print(
            f"  {run.name}: {len(ms)} decisions; click -> bot's answer shown in the page: "
            f"p50 {percentile(ms, 0.5):.0f} ms, p90 {percentile(ms, 0.9):.0f} ms; "
            f"clicks the page took without sending them (made again): {swallowed(run.page)}"
        )
    print(f'  switching "Viewing as" (to {WATCHER} and back): ms until the page is ready / shows the current turn')
    print("    decisions  messages  pictures  " + "  ".join(f"{run.name:>17}" for run in runs))
    for at in sorted({s[0] for run in runs for s in run.switches}):
        cells, shown = [], None
        for run in runs:
            rows = [s for s in run.switches if s[0] == at]
            if not rows:
                cells.append(f"{'-':>17}")
                continue
            shown = shown or rows[0][1:3]
            ready = statistics.median(r[3] for r in rows) * 1000
            turns = [r[4] for r in rows if r[4] is not None]
            turn = f"{statistics.median(turns) * 1000:.0f}" if len(turns) == len(rows) else "lost"
            cells.append(f"{ready:>8.0f} / {turn:>6}")
        messages, pictures = shown or (0, 0)
        print(f"    {at:9d}  {messages:8d}  {pictures:8d}  " + "  ".join(cells))
    for run in runs:
        ready = [s[3] * 1000 for s in run.switches]
        lost = sum(s[4] is None for s in run.switches)
        if ready:
            print(
                f"  {run.name}: {len(ready)} switches, ready p50 {percentile(ready, 0.5):.0f} ms, "
                f"p90 {percentile(ready, 0.9):.0f} ms; current turn not shown within 20 s: {lost}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="only the first 40 decisions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=25, help='time "Viewing as" switches every this many decisions')
    parser.add_argument(
        "--before", metavar="REV", help="also run this git revision's sandbox, side by side, decision by decision"
    )
    args = parser.parse_args()
    limit = 40 if args.quick else 10_000
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        trees = [("now", ROOT)]
        if args.before:
            trees.insert(0, ("before", version_tree(args.before, Path(folder) / "before")))
        runs = [Run(name, Sandbox.start(Path(folder) / f"{name}.sqlite3", root=tree)) for name, tree in trees]
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for run in runs:
                    run.page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
                    watch_actions(run.page.context)
                    run.page.goto(run.sandbox.url)
                    expect(run.page.locator("#viewer-picker")).to_be_visible()
                    start_two_player_game(run.page, "Aiko", "Botan")
                    run.rng = random.Random(args.seed)
                step = 0
                while any(not run.over for run in runs) and step < limit:
                    # Decision by decision, each version in turn (which goes first alternates): both share the
                    # machine's load alike.
                    order = runs if step % 2 == 0 else runs[::-1]
                    for run in order:
                        if not run.over:
                            run.latencies.append(play_step(run.page, run.rng))
                    step += 1
                    if step % args.every == 0:
                        for run in order:
                            if not run.over:
                                measure_switches(run)
                report(runs, started)
                browser.close()
        finally:
            for run in runs:
                run.sandbox.stop()


if __name__ == "__main__":
    main()

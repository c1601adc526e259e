"""Computer players: an arena of 2-player and solo games with 95 % intervals, and decision time per level.

Arena: each pairing plays seed pairs with the seats swapped, so each policy sits first as often as second on the
same deal. Solo: the policy against the automa on both sides of the happiness board. Games run in a process pool
(one worker per core). Decision times are measured separately, pinned to one core, on positions taken from
greedy games, as the CPU time of each decision (process time), so other work sharing the machine does not count.

A spec is a level (`easy`, `normal`, `hard`), `greedy` (the baseline `GreedyPolicy`), or a search with its own
settings for tuning, e.g. `search:budget=8000,horizon=2,win_bonus=5`, or a level as the code was at a git
revision, e.g. `hard@0bd6a5f`, to time today's code against an older one in the same run.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
import types
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import percentile, pin_to_one_core  # noqa: E402
from games.kokeshi.engine import GreedyPolicy, new_game, policy  # noqa: E402
from games.kokeshi.engine.ai import SearchPolicy  # noqa: E402

NAMES = ("east", "west")
SOLO = "solo"
PAIRS = [("hard", "normal"), ("normal", "easy")]
SOLO_LEVELS = ["easy", "normal", "hard"]
SIDES = ("basic", "advanced")
RESULTS = ROOT / "bench" / "results" / "arena.jsonl"


@functools.cache
def baseline(ref: str) -> types.ModuleType:
    """Kokeshi's `ai.py` as it was at git revision `ref`, loaded beside today's engine (to compare the two)."""
    path = "games/kokeshi/engine/ai.py"
    found = subprocess.run(["git", "cat-file", "-e", f"{ref}:{path}"], cwd=ROOT, capture_output=True, check=False)
    if found.returncode != 0:
        path = "engine/ai.py"  # where the rules lived before they moved under games/
    source = subprocess.run(
        ["git", "show", f"{ref}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    name = f"games.kokeshi.engine._ai_at_{ref.replace('-', '_').replace('~', '_')}"
    module = types.ModuleType(name)
    module.__package__ = "games.kokeshi.engine"
    sys.modules[name] = module
    exec(compile(source, f"{ref}:{path}", "exec"), module.__dict__)  # noqa: S102 - our own file at a revision
    return module


def make(spec: str, seed: int):
    """A policy from its spec (see the module docstring)."""
    if "@" in spec:
        level, ref = spec.split("@", 1)
        return baseline(ref).policy(level, seed=seed)
    if spec == "greedy":
        return GreedyPolicy(seed)
    if spec.startswith("search:"):
        settings: dict = {}
        for item in filter(None, spec.split(":", 1)[1].split(",")):
            key, value = item.split("=")
            if value == "none":
                settings[key] = None
            else:
                settings[key] = float(value) if key in ("win_bonus", "stop_z", "tolerance") else int(value)
        return SearchPolicy(seed, level=spec, **settings)
    return policy(spec, seed=seed)


def duel(a: str, b: str, seed: int, swap: bool) -> float:
    """One 2-player game of spec `a` against spec `b`; 1.0 if `a` wins, else 0.0 (the rules break every tie)."""
    side = SIDES[seed % 2]
    game = new_game(list(NAMES), seed=seed, side=side)
    seat_a, seat_b = (NAMES[1], NAMES[0]) if swap else NAMES
    players = {seat_a: make(a, seed), seat_b: make(b, seed + 1)}
    while not game.is_over:
        player = game.prompt.player
        game.apply(player, players[player].choose(game))
    return 1.0 if game.ranking()[0] == seat_a else 0.0


def solo(spec: str, seed: int, side: str) -> float:
    """One solo game of `spec` against the automa; 1.0 for a win (a tied total is a loss)."""
    game = new_game([SOLO], seed=seed, side=side, solo=True)
    player = make(spec, seed)
    while not game.is_over:
        game.apply(SOLO, player.choose(game))
    return 1.0 if game.ranking()[0] == SOLO else 0.0


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 % with the default z)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def row(label: str, results: list[float]) -> str:
    """A table row: games, win rate and its interval."""
    n = len(results)
    wins = sum(results)
    low, high = wilson(wins, n)
    return f"| {label} | {n} | {wins / n:.1%} | {low:.1%} – {high:.1%} |"


def code_mark() -> str:
    """A fingerprint of the computer players' code, so results of older settings are not mixed with new ones."""
    digest = hashlib.blake2b(digest_size=6)
    for name in ("games/kokeshi/engine/ai.py", "games/kokeshi/engine/policies.py"):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def plan(pairs: list[tuple[str, str]], solos: list[str], games: int, first_seed: int) -> list[dict]:
    """Every game to play, in order: each cheap row (no `hard`) first, then the others interleaved game by game."""
    rows: list[list[dict]] = []
    for a, b in pairs:
        rows.append(
            [{"kind": "duel", "a": a, "b": b, "seed": first_seed + i // 2, "swap": i % 2 == 1} for i in range(games)]
        )
    for spec in solos:
        for side in SIDES:
            rows.append([{"kind": "solo", "a": spec, "side": side, "seed": first_seed + i} for i in range(games)])
    cheap = [r for r in rows if "hard" not in (r[0]["a"], r[0].get("b"))]
    dear = [r for r in rows if r not in cheap]
    ordered = [task for r in cheap for task in r]
    for i in range(games):
        ordered.extend(r[i] for r in dear)
    return ordered


def key(task: dict) -> tuple:
    """What identifies one game of the arena (a result file holds each at most once per code mark)."""
    return (task["kind"], task["a"], task.get("b"), task.get("side"), task["seed"], task.get("swap"))


def play(task: dict) -> dict:
    """Play one game of the plan; the task with its result (`win` for the first spec) and its wall time."""
    started = time.perf_counter()
    if task["kind"] == "duel":
        win = duel(task["a"], task["b"], task["seed"], task["swap"])
    else:
        win = solo(task["a"], task["seed"], task["side"])
    return {**task, "win": win, "seconds": round(time.perf_counter() - started, 1)}


def load(results: Path, mark: str | None) -> list[dict]:
    """The results recorded so far (of code `mark` only, unless None); a torn last line is ignored."""
    if not results.exists():
        return []
    out = []
    for line in results.read_text().splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if mark is None or record.get("code") == mark:
            out.append(record)
    return out


def label(record: dict) -> str:
    """The table row a result belongs to."""
    if record["kind"] == "duel":
        return f"{record['a']} vs {record['b']}"
    return f"{record['a']} solo, {record['side']}"


def report(records: list[dict]) -> None:
    """Print the arena table from recorded results, one row per pairing or solo side."""
    rows: dict[str, list[float]] = {}
    for record in records:
        rows.setdefault(label(record), []).append(record["win"])
    print("| pairing (first wins) or solo side | games | win rate | 95 % interval (Wilson) |")
    print("|---|---|---|---|")
    for name in sorted(rows, key=lambda n: ("solo" in n, n)):
        print(row(name, rows[name]))
    print()


def arena(tasks: list[dict], workers: int, results: Path) -> None:
    """Play the tasks not yet in `results`, appending each finished game as a JSON line, then print the table."""
    mark = code_mark()
    done = {key(r) for r in load(results, mark)}
    todo = [t for t in tasks if key(t) not in done]
    print(f"arena: {len(tasks) - len(todo)} of {len(tasks)} games already in {results}, code {mark}", flush=True)
    results.parent.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play, task) for task in todo]
        for future in as_completed(futures):
            record = {**future.result(), "code": mark}
            with results.open("a") as out:
                out.write(json.dumps(record, sort_keys=True) + "\n")
    wanted = {key(t) for t in tasks}
    report([r for r in load(results, mark) if key(r) in wanted])


def positions(count: int, seed: int) -> list:
    """`count` positions spread over greedy 2-player and solo games, each with at least two options."""
    out = []
    i = 0
    while len(out) < count:
        lone = i % 3 == 2
        game = new_game([SOLO] if lone else list(NAMES), seed=seed + i, side=SIDES[i % 2], solo=lone)
        baseline = GreedyPolicy(seed + i)
        step = 0
        while not game.is_over and len(out) < count:
            if step % 23 == i % 23:
                out.append(game.clone())
            game.apply(game.prompt.player, baseline.choose(game))
            step += 1
        i += 1
    return out


def timing(levels: list[str], count: int) -> None:
    """Decision time per spec on the same positions, pinned to one core, and how often each agrees with the first."""
    pinned = pin_to_one_core()
    sample = positions(count, 9000)
    print(f"Decision time per level: CPU time of `choose` ({count} positions from greedy games, {pinned}):")
    print()
    print(f"| level | decisions | p50 | p95 | max | same choice as {levels[0]} |")
    print("|---|---|---|---|---|---|")
    first: list[str] = []
    for level in levels:
        player = make(level, 1)
        times = []
        choices = []
        for game in sample:
            start = time.process_time()
            choices.append(player.choose(game))
            times.append(time.process_time() - start)
        first = first or choices
        same = sum(a == b for a, b in zip(first, choices, strict=True))
        print(
            f"| {level} | {len(times)} | {percentile(times, 0.5) * 1e3:.1f} ms | "
            f"{percentile(times, 0.95) * 1e3:.1f} ms | {max(times) * 1e3:.1f} ms | {same}/{len(choices)} |",
            flush=True,
        )
    print()


def main() -> None:
    """Run the arena and the timing, and print both tables."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a short smoke run with the cheap levels only")
    parser.add_argument(
        "--games",
        type=int,
        help="games per pairing and per solo side (default 10; quick: 2); games already recorded are not replayed",
    )
    parser.add_argument("--pair", action="append", help="a pairing A/B to play instead of the default ones")
    parser.add_argument("--solo", action="append", help="a spec to play solo instead of the default ones")
    parser.add_argument("--no-solo", action="store_true", help="skip the solo games")
    parser.add_argument("--no-arena", action="store_true", help="only measure decision time")
    parser.add_argument("--no-timing", action="store_true", help="only play the arena")
    parser.add_argument("--report", action="store_true", help="only print the arena table of the recorded results")
    parser.add_argument(
        "--results",
        type=Path,
        help=f"JSON lines of finished games, appended as they end (default {RESULTS.relative_to(ROOT)}; "
        "quick: a scratch file)",
    )
    parser.add_argument("--code", help="with --report: the code mark of the results to count (default: today's code)")
    parser.add_argument("--positions", type=int, help="positions timed per level (default 60; quick: 5)")
    parser.add_argument("--levels", help="comma-separated specs to time (default: the levels)")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)")
    args = parser.parse_args()
    games = args.games or (2 if args.quick else 10)
    pairs = [tuple(p.split("/")) for p in args.pair] if args.pair else ([("normal", "easy")] if args.quick else PAIRS)
    solos = [] if args.no_solo else (args.solo or (["easy"] if args.quick else SOLO_LEVELS))
    results = args.results or (Path(tempfile.mkdtemp()) / "quick.jsonl" if args.quick else RESULTS)
    if args.report:
        report(load(results, args.code or code_mark()))
        return
    arena_note = "" if args.no_arena else f", {args.workers} worker(s), {games} games per row"
    print(f"Kokeshi AI bench: Python {platform.python_version()}{arena_note}")
    print()
    started = time.perf_counter()
    if not args.no_arena:
        arena(plan(pairs, solos, games, args.seed), args.workers, results)
    if not args.no_timing:
        if args.levels:
            levels = args.levels.split(";") if ";" in args.levels else args.levels.split(",")
        else:
            levels = ["easy", "normal"] if args.quick else ["easy", "normal", "hard"]
        timing(levels, args.positions or (5 if args.quick else 60))
    print(f"wall time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()

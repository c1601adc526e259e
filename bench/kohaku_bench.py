"""Kōhaku: engine speed, picture speed, decision time per level, and an arena of the levels and of Danny's levels.

Speeds are CPU time of this process (pinned to one core), so other work sharing the machine does not count.
Engine: seeded random 4-player games, decisions/s counting `legal_actions` + `apply` only. Pictures: the phone
turn picture and the table picture of views from random games, draw + encode, after one warm-up pass (tile sprites
are cached per size). Decision time: `choose` on positions from greedy games of every size.

Arena (resumable: each finished game is appended to a JSON-lines file and never replayed): 2-player duels with
the seats swapped on each deal, and solo games of each level against Danny, scored at his three levels.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import percentile, pin_to_one_core  # noqa: E402
from games.kohaku import deal, pictures  # noqa: E402
from games.kohaku.ai import Policy  # noqa: E402
from render import encode  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "kohaku_arena.jsonl"
PAIRS = [("normal", "easy"), ("hard", "normal")]
SOLO_LEVELS = ["easy", "normal", "hard"]
NAMES = ["Aiko", "Botan", "Chiyo", "Daiki"]
GOAL_ENGINE = 50_000
GOAL_PHONE_MS = 15.0
GOAL_TABLE_MS = 25.0


# ---------------------------------------------------------------------- speeds


def engine(seconds: float) -> None:
    """Decisions per second of CPU time in random 4-player games (`legal_actions` + `apply`)."""
    clock = time.process_time_ns
    spent = decisions = games = 0
    applies: list[int] = []
    seed = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or games < 3:
        m = deal(4, seed=seed)
        rng = random.Random(seed)
        while not m.is_over:
            t0 = clock()
            legal = m.legal_actions()
            t1 = clock()
            action = legal[rng.randrange(len(legal))]
            t2 = clock()
            m.apply(m.current, action)
            t3 = clock()
            spent += (t1 - t0) + (t3 - t2)
            applies.append(t3 - t2)
            decisions += 1
        games += 1
        seed += 1
    rate = decisions / (spent / 1e9)
    print(
        f"| engine: decisions/s, one core, random 4-player games (`legal_actions` + `apply`) | ≥ {GOAL_ENGINE:,} | "
        f"{rate:,.0f} ({games} games, {decisions / games:.0f} decisions each; apply p50 "
        f"{percentile(applies, 0.5) / 1e3:.1f} µs, p99 {percentile(applies, 0.99) / 1e3:.1f} µs) |"
    )


def _views(count: int) -> list[tuple[dict, list]]:
    out: list[tuple[dict, list]] = []
    i = 0
    while len(out) < count:
        seats = 1 + i % 4
        m = deal(seats, seed=700 + i, goals=seats == 3)
        rng = random.Random(i)
        events: list = []
        step = 0
        while not m.is_over and len(out) < count:
            seat = m.waiting()[0]
            if step % 4 == i % 4:
                out.append((m.view(seat), [e.to_dict() for e in events]))
            events = m.apply(seat, rng.choice(m.legal_actions(seat)))
            step += 1
        i += 1
    return out


def picture_speed(count: int) -> None:
    """Draw + encode CPU time of the turn and table pictures, median and p95, after a warm-up pass."""
    sample = _views(count)
    for view, events in sample:
        pictures.draw_turn(view, NAMES, events=events)
        pictures.draw_table(view, NAMES, events)
    rows = []
    for name, draw, goal in (
        ("phone turn picture", lambda v, e: pictures.draw_turn(v, NAMES, events=e), GOAL_PHONE_MS),
        ("table picture", lambda v, e: pictures.draw_table(v, NAMES, e), GOAL_TABLE_MS),
    ):
        times, sizes = [], []
        for view, events in sample:
            t0 = time.process_time()
            data = encode(draw(view, events))
            times.append((time.process_time() - t0) * 1e3)
            sizes.append(len(data))
        rows.append(
            f"| {name}: draw + encode, median (p95), {len(sample)} views of 1-4 seats | ≤ {goal:.0f} ms | "
            f"{statistics.median(times):.1f} ms ({percentile(times, 0.95):.1f} ms), "
            f"{statistics.median(sizes) / 1024:.0f} KiB |"
        )
    print("\n".join(rows))


def _positions(count: int, seed: int) -> list:
    out = []
    i = 0
    while len(out) < count:
        seats = 1 + i % 4
        m = deal(seats, seed=seed + i)
        greedy = Policy("easy", i)
        step = 0
        while not m.is_over and len(out) < count:
            seat = m.waiting()[0]
            if step % 7 == i % 7:
                out.append(m.clone())
            m.apply(seat, greedy.choose(m, seat))
            step += 1
        i += 1
    return out


def decision_time(levels: list[str], count: int) -> None:
    """CPU time of `choose` per level on the same positions."""
    sample = _positions(count, 9000)
    print("| level | decisions | p50 | p95 | max |  (CPU time of `choose`, positions from greedy games of 1-4 seats)")
    print("|---|---|---|---|---|")
    for level in levels:
        player = Policy(level, 1)
        times = []
        for m in sample:
            t0 = time.process_time()
            player.choose(m, m.waiting()[0])
            times.append(time.process_time() - t0)
        print(
            f"| {level} | {len(times)} | {percentile(times, 0.5) * 1e3:.1f} ms | "
            f"{percentile(times, 0.95) * 1e3:.1f} ms | {max(times) * 1e3:.1f} ms |",
            flush=True,
        )


def goal_values(games: int) -> None:
    """What each goal card would score, on average, on the final ponds of `normal` games that play no goal card,
    `games` deals of each of 2, 3 and 4 players: the estimates `ai.GOAL_VALUE` holds."""
    from games.kohaku.data import GOALS
    from games.kohaku.scoring import goal_points

    values: dict[str, list[int]] = {g: [] for g in GOALS}
    for deal_seed in range(games):
        for seats in (2, 3, 4):
            m = deal(seats, seed=deal_seed * 10 + seats)
            players = [Policy("normal", deal_seed * 10 + s) for s in range(seats)]
            while not m.is_over:
                seat = m.current
                m.apply(seat, players[seat].choose(m, seat))
            for pond in m.ponds:
                for g in GOALS:
                    values[g].append(goal_points(pond, g))
    print(f"| goal card | mean points on {sum(len(v) for v in values.values()) // len(GOALS)} final ponds |")
    print("|---|---|")
    for g, v in values.items():
        print(f"| {g} | {statistics.mean(v):.1f} |")


# ---------------------------------------------------------------------- the arena


def code_mark() -> str:
    """A digest of the code and data a game's result depends on, so older results are not mixed in."""
    digest = hashlib.blake2b(digest_size=6)
    for name in ("ai.py", "rules.py", "scoring.py", "plans.py", "components.toml"):
        digest.update((ROOT / "games" / "kohaku" / name).read_bytes())
    return digest.hexdigest()


def duel(a: str, b: str, seed: int, swap: bool) -> dict:
    """A 2-player game of level `a` against level `b`; `win` 1 if `a` wins alone, 0.5 for a shared win."""
    m = deal(2, seed=seed)
    seat_a = 1 if swap else 0
    players = {seat_a: Policy(a, seed), 1 - seat_a: Policy(b, seed + 1)}
    while not m.is_over:
        seat = m.current
        m.apply(seat, players[seat].choose(m, seat))
    out = m.outcome()
    assert out is not None
    if out.places[seat_a] == 1:
        win = 1.0 if out.places.count(1) == 1 else 0.5
    else:
        win = 0.0
    return {"win": win, "score_a": out.scores[seat_a]["total"], "score_b": out.scores[1 - seat_a]["total"]}


def solo(level: str, seed: int) -> dict:
    """A solo game of `level` against Danny: the player's score, Danny's three totals, which are beaten."""
    m = deal(1, seed=seed)
    player = Policy(level, seed)
    while not m.is_over:
        m.apply(0, player.choose(m, 0))
    out = m.outcome()
    assert out is not None and out.danny is not None and out.beaten is not None
    return {"score": out.scores[0]["total"], "danny": out.danny, "beaten": out.beaten, "turns": m.turns[0]}


def plan(pairs: list[tuple[str, str]], solos: list[str], games: int, solo_games: int, first: int) -> list[dict]:
    """Every game to play, cheap rows first, the rows with `hard` interleaved game by game after them."""
    rows = [
        [{"kind": "duel", "a": a, "b": b, "seed": first + i // 2, "swap": i % 2 == 1} for i in range(games)]
        for a, b in pairs
    ]
    rows += [[{"kind": "solo", "a": level, "seed": first + i} for i in range(solo_games)] for level in solos]
    cheap = [r for r in rows if r and "hard" not in (r[0]["a"], r[0].get("b"))]
    dear = [r for r in rows if r and r not in cheap]
    ordered = [t for r in cheap for t in r]
    for i in range(max((len(r) for r in dear), default=0)):
        ordered.extend(r[i] for r in dear if i < len(r))
    return ordered


def key(task: dict) -> tuple:
    """What identifies one game of the arena."""
    return (task["kind"], task["a"], task.get("b"), task["seed"], task.get("swap"))


def play(task: dict) -> dict:
    """Play one task; the task with its result and its CPU time."""
    started = time.process_time()
    result = (
        duel(task["a"], task["b"], task["seed"], task["swap"])
        if task["kind"] == "duel"
        else solo(task["a"], task["seed"])
    )
    return {**task, **result, "cpu": round(time.process_time() - started, 2)}


def load(results: Path, mark: str) -> list[dict]:
    """The results recorded so far for code `mark`; a torn last line is ignored."""
    if not results.exists():
        return []
    out = []
    for line in results.read_text().splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if record.get("code") == mark:
            out.append(record)
    return out


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 %)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def report(records: list[dict]) -> None:
    """The arena tables from recorded results."""
    duels: dict[tuple[str, str], list[dict]] = {}
    solos: dict[str, list[dict]] = {}
    for r in records:
        if r["kind"] == "duel":
            duels.setdefault((r["a"], r["b"]), []).append(r)
        else:
            solos.setdefault(r["a"], []).append(r)
    print("| 2-player duel (first wins) | games | win rate | 95 % interval (Wilson) | mean score, first – second |")
    print("|---|---|---|---|---|")
    for (a, b), rows in sorted(duels.items()):
        wins = sum(r["win"] for r in rows)
        low, high = wilson(wins, len(rows))
        mean_a = statistics.mean(r["score_a"] for r in rows)
        mean_b = statistics.mean(r["score_b"] for r in rows)
        rate = f"{wins / len(rows):.1%} | {low:.1%} – {high:.1%}"
        print(f"| {a} vs {b} | {len(rows)} | {rate} | {mean_a:.1f} – {mean_b:.1f} |")
    print()
    heads = "| solo player | games | mean score | Danny easy / medium / hard (mean) | beats easy | beats medium |"
    print(heads + " beats hard |")
    print("|---|---|---|---|---|---|---|")
    for level in SOLO_LEVELS:
        rows = solos.get(level)
        if not rows:
            continue
        n = len(rows)
        danny = [statistics.mean(r["danny"][lv] for r in rows) for lv in ("easy", "medium", "hard")]
        cells = []
        for lv in ("easy", "medium", "hard"):
            wins = sum(r["beaten"][lv] for r in rows)
            low, high = wilson(wins, n)
            cells.append(f"{wins / n:.0%} ({low:.0%} – {high:.0%})")
        print(
            f"| {level} | {n} | {statistics.mean(r['score'] for r in rows):.1f} | "
            f"{danny[0]:.1f} / {danny[1]:.1f} / {danny[2]:.1f} | {' | '.join(cells)} |"
        )
    print()


def arena(tasks: list[dict], workers: int, results: Path) -> None:
    """Play the tasks not yet recorded, appending each finished game as a JSON line, then print the tables."""
    mark = code_mark()
    done = {key(r) for r in load(results, mark)}
    todo = [t for t in tasks if key(t) not in done]
    print(f"arena: {len(tasks) - len(todo)} of {len(tasks)} games already in {results}, code {mark}", flush=True)
    results.parent.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for future in as_completed([pool.submit(play, t) for t in todo]):
            with results.open("a") as out:
                out.write(json.dumps({**future.result(), "code": mark}, sort_keys=True) + "\n")
    wanted = {key(t) for t in tasks}
    report([r for r in load(results, mark) if key(r) in wanted])


def main() -> None:
    """Run the chosen parts and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a short smoke run of every part")
    parser.add_argument("--no-speed", action="store_true", help="skip the engine and picture speeds")
    parser.add_argument("--no-timing", action="store_true", help="skip the decision times")
    parser.add_argument("--no-arena", action="store_true", help="skip the arena")
    parser.add_argument("--report", action="store_true", help="only print the arena tables of recorded results")
    parser.add_argument("--games", type=int, default=200, help="games per duel pairing (default 200)")
    parser.add_argument("--hard-games", type=int, default=60, help="games of each row with `hard` (default 60)")
    parser.add_argument("--solo-games", type=int, default=100, help="solo games per level (default 100)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default 2)")
    parser.add_argument("--results", type=Path, help=f"JSON lines of results (default {RESULTS.relative_to(ROOT)})")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument(
        "--goals", type=int, default=0, help="measure goal card values over this many deals of 2, 3 and 4 players"
    )
    args = parser.parse_args()
    results = args.results or (Path(tempfile.mkdtemp()) / "quick.jsonl" if args.quick else RESULTS)
    if args.report:
        report(load(results, code_mark()))
        return
    print(f"Kōhaku bench: Python {platform.python_version()}")
    started = time.perf_counter()
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if not (args.no_speed and args.no_timing):
        print(pin_to_one_core())
    if not args.no_speed:
        engine(0.5 if args.quick else 6.0)
        picture_speed(12 if args.quick else 120)
    if not args.no_timing:
        decision_time(["easy", "normal"] if args.quick else ["easy", "normal", "hard"], 6 if args.quick else 60)
    if cores is not None:
        os.sched_setaffinity(0, cores)  # the arena's workers may use every core again
    if args.goals:
        goal_values(args.goals)
    if not args.no_arena:
        if args.quick:
            tasks = plan([("normal", "easy")], ["easy"], 2, 2, args.seed)
        else:
            tasks = plan([("normal", "easy")], ["easy", "normal"], args.games, args.solo_games, args.seed)
            tasks += plan([("hard", "normal")], ["hard"], args.hard_games, args.hard_games, args.seed)
        arena(tasks, args.workers, results)
    print(f"wall time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()

"""Honest games with the end against stalling on and off: the computer levels on the same deals, resumable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import CURRENT_RULES, new_game, policy  # noqa: E402

SIDES = ("basic", "advanced")
TABLES = ("solo/basic", "solo/advanced", "2p", "3p", "4p")
NAMES = ("ana", "bo", "cy", "di")
RESULTS = ROOT / "bench" / "results" / "guard_honest.jsonl"
# Turn marks, as the engine keeps them: an offer tile, a recognition, a disc step, a top pass.
MARKS = (("tile_bought", 1), ("quality_bought", 2), ("red_line_crossed", 2), ("disc_moved", 4), ("top_passed", 8))
DECISIONS = 40_000  # a game longer than this is cut and recorded as such


def deal(table: str, seed: int, rules: int, guard: str):
    """The game of a table and seed: solo against the automa, or 2–4 players on the side the seed picks."""
    mode, _, side = table.partition("/")
    if mode == "solo":
        game = new_game(["ana"], seed=seed, side=side, solo=True, rules=rules)
    else:
        count = int(mode[0])
        game = new_game(list(NAMES[:count]), seed=seed, side=SIDES[seed % 2], rules=rules)
    if guard == "off":
        game.guard = "off"
    elif guard != "on":
        definition, budget, scope = guard.split(":")
        game.guard = (definition, int(budget), scope)
    return game


def play(job: dict) -> dict:
    """One game of `job` (table, level, seed, guard, rules): every seat but the automa played by the level."""
    t0 = time.process_time()
    game = deal(job["table"], job["seed"], job["rules"], job["guard"])
    humans = [n for n in game.names if n != "automa"]
    players = {name: policy(job["level"], seed=job["seed"] * 10 + i) for i, name in enumerate(humans)}
    turns: list[list[int]] = []  # [seat, marks] for every play turn, in order
    marks = 0
    trigger = None  # (round, turns played) when the end was triggered
    decisions = 0
    while game.prompt is not None and decisions < DECISIONS:
        player = game.prompt.player
        seat = game.current
        setup = game.round == 0
        events = game.apply(player, players[player].choose(game))
        decisions += 1
        for e in events:
            if e.player == player:
                for kind, bit in MARKS:
                    if e.kind == kind:
                        marks |= bit
            if e.kind == "end_triggered" and trigger is None:
                trigger = [game.round, sum(game.turns)]
            if e.kind in ("turn_ended", "game_over") and not setup:
                turns.append([seat, marks])
                marks = 0
    scores = game.scores()
    return {
        **job,
        "players": game.names,
        "scores": {n: s.total for n, s in scores.items()},
        "ranking": game.ranking(),
        "turns": {n: game.turns[i] for i, n in enumerate(game.names)},
        "reason": game.end_reason if game.is_over else "cut",
        "trigger": trigger,
        "round": game.round,
        "bag": len(game.bag),
        "recognitions": {n: game.recognitions[i] for i, n in enumerate(game.names)},
        "marks": turns,
        "cpu": round(time.process_time() - t0, 1),
    }


def key(record: dict) -> tuple:
    """What identifies one game (a result file holds each at most once)."""
    return (record["table"], record["level"], record["seed"], record["guard"], record["rules"])


def load(path: Path) -> list[dict]:
    """Every recorded game; a torn last line is ignored."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def plan(tables, level: str, seeds: range, guards, rules: int) -> list[dict]:
    """Deal by deal, each table and guard in turn, so a partial run is balanced."""
    return [
        {"table": t, "level": level, "seed": s, "guard": g, "rules": rules}
        for s in seeds
        for t in tables
        for g in guards
    ]


def run(jobs: list[dict], workers: int, path: Path) -> None:
    """Play the jobs not yet in `path`, appending each finished game as a JSON line."""
    done = {key(r) for r in load(path)}
    todo = [j for j in jobs if key(j) not in done]
    print(f"{len(jobs) - len(todo)} of {len(jobs)} games already in {path}", flush=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play, j) for j in todo]
        for future in as_completed(futures):
            record = {**future.result(), "commit": commit.strip()}
            with path.open("a") as out:
                out.write(json.dumps(record, sort_keys=True) + "\n")
            print(
                f"{record['table']} {record['level']} {record['seed']} {record['guard']}: {record['reason']} "
                f"{record['cpu']} s",
                flush=True,
            )


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", default=",".join(TABLES))
    parser.add_argument("--level", default="normal")
    parser.add_argument("--seeds", type=int, default=60)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--guards", default="off,on")
    parser.add_argument("--rules", type=int, default=CURRENT_RULES)
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args()
    run(
        plan(
            args.tables.split(","),
            args.level,
            range(args.first, args.first + args.seeds),
            args.guards.split(","),
            args.rules,
        ),
        args.workers,
        args.results,
    )

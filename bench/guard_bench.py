"""The end guard against stalling: stall-seeking players against an honest player, over many deals.

The honest player is a computer level (`--honest`: `easy`, the greedy player, by default; `normal` searches and
buys less eagerly). Each adversary plays some of its turns as *stall turns*: at every decision of such a turn it
takes the best option (by the greedy `heuristic`) among those that buy nothing, so its kokeshi climb and pass the
top without draining the bag. The other turns it plays as the level `--base` (`easy` by default).

- `pure`: every turn a stall turn.
- `every2` (alternate climb and buy), `every3`, `every4`: one honest turn in k, the rest stall turns.
- `edge`: a stall turn whenever one, played out on a copy, does not trigger the end; else an honest turn.
- `cheap`: as `edge`, but a turn it must buy in takes a quality tile when it can (it draws nothing from the bag).
- `search`: knows the guard by simulating it: at the start of each turn it plays out the rest of the game
  (on copies with its own draws) after a stall turn and after an honest turn, each continued by the honest
  player and by `edge`, and plays the turn whose best continuation scored most for it (the margin in 2-player
  games).

Starts: `dealt` (a normal deal, setup included) and `ready`, the stall-ready board: every seat gets seven
climbing tiles of one colour on its kokeshi's track (pink on the Princess track: a track climbed for ever
without buying). Solo games against the automa on both sides of the happiness board; 2-player games put the
adversary against the honest player, and the honest player against itself for the baseline.

Each table gives, per player, the mean score and its difference from the honest player on the same deals with a
95 % interval (paired by deal), and the mean number of turns the player played against the honest one's on the
same deals (a stall drags a game out only where that difference is positive), and `buys`, the mean number of
its turns in which it took a tile from the offer.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import CURRENT_RULES, Game, new_game, policy  # noqa: E402
from engine.ai import _greedy_action  # noqa: E402
from engine.data import COLORS, KOKESHI  # noqa: E402
from engine.policies import heuristic  # noqa: E402
from tests.positions import ready, set_track, tile  # noqa: E402

PURCHASES = ("tile_bought", "quality_bought")
STALL_TRACK = ["plus1", "plus4", "left", "right", "double", "any_animal", "buy_any"]
ADVERSARIES = ("pure", "every2", "every3", "every4", "edge", "cheap", "search")
HONEST = "honest"
SIDES = ("basic", "advanced")
TABLES = ("solo/basic", "solo/advanced", "2p/basic")


# ---------------------------------------------------------------------- turn kinds


def _buys(trial: Game, events: list, seat: int) -> bool:
    """The action just tried on `trial` bought something, or left the player a purchase to make."""
    name = trial.names[seat]
    if any(e.kind in PURCHASES and e.player == name for e in events):
        return True
    prompt = trial.prompt
    return prompt is not None and prompt.kind == "buy" and prompt.player == name


def stall_action(game: Game, seed: int) -> str | None:
    """The best option that buys nothing (by `heuristic`), or None when every option buys."""
    prompt = game.prompt
    seat = game.current
    base = game.determinized(seed)
    best, best_value = None, float("-inf")
    for option in prompt.options:
        trial = base.clone()
        events = trial.apply(prompt.player, option.id)
        if _buys(trial, events, seat):
            continue
        value = heuristic(trial, prompt.player)
        if value > best_value:
            best, best_value = option.id, value
    return best


def cheap_action(game: Game) -> str | None:
    """At a purchase, a quality tile (it draws nothing from the bag), else None."""
    if game.prompt.kind != "buy":
        return None
    return next((o.id for o in game.prompt.options if o.id.startswith("quality:")), None)


class Adversary:
    """One of the stall-seeking players (see the module docstring); `honest` plays every turn honestly."""

    def __init__(self, kind: str, seed: int, level: str = "easy") -> None:
        self.kind = kind
        self.seed = seed
        self.honest = policy(level, seed=seed)
        self._turn: tuple[int, int] | None = None  # (seat, turns) of the turn the mode was chosen for
        self._stall = False
        self._rng = random.Random(seed)

    def _plan(self, game: Game) -> bool:
        seat = game.current
        turn = game.turns[seat]
        kind = self.kind
        if kind == HONEST:
            return False
        if kind == "pure":
            return True
        if kind.startswith("every"):
            k = int(kind[5:])
            return turn % k != k - 1
        if kind in ("edge", "cheap"):
            return not _stall_turn_ends(game, self._rng.getrandbits(64))
        if kind == "search":
            return _search_stall(game, self._rng)
        raise ValueError(kind)

    def choose(self, game: Game) -> str:
        """An action id for the player the game waits for."""
        key = (game.current, game.turns[game.current])
        if key != self._turn:
            self._turn = key
            self._stall = self._plan(game)
        if self._stall:
            action = stall_action(game, self._rng.getrandbits(64))
            if action is not None:
                return action
        if self.kind == "cheap":
            action = cheap_action(game)
            if action is not None:
                return action
        return self.honest.choose(game)


# ---------------------------------------------------------------------- simulation helpers (on copies)


def _fast_turn(game: Game, seat: int, stall: bool, rng: random.Random) -> None:
    """Play `seat`'s current turn on a copy: a stall turn or a greedy one."""
    turn = game.turns[seat]
    while not game.is_over and game.current == seat and game.turns[seat] == turn:
        action = stall_action(game, rng.getrandbits(64)) if stall else None
        if action is None:
            action, _ = _greedy_action(game, rng)
        game.apply(game.prompt.player, action)


def _stall_turn_ends(game: Game, seed: int) -> bool:
    """A stall turn now would trigger the end (played out on a copy with its own draws)."""
    trial = game.determinized(seed)
    before = trial.end_reason
    _fast_turn(trial, trial.current, True, random.Random(seed))
    return before is None and trial.end_reason is not None


def _roll_out(game: Game, seat: int, continuation: str, rng: random.Random) -> float:
    """Play a copy to the end: `seat` by `continuation` (honest or edge), everyone else greedy; the seat's value."""
    while not game.is_over:
        p = game.current
        if p == seat and continuation == "edge" and game.prompt.kind == "advance":
            stall = not _stall_turn_ends(game, rng.getrandbits(64))
            _fast_turn(game, p, stall, rng)
            continue
        action, _ = _greedy_action(game, rng)
        game.apply(game.prompt.player, action)
    scores = game.scores()
    own = scores[game.names[seat]].total
    if game.solo:
        return own
    return own - max(s.total for n, s in scores.items() if n != game.names[seat])


def _search_stall(game: Game, rng: random.Random, samples: int = 2) -> bool:
    """Whether a stall turn now leads to the better end, by play-outs that run the real end guard."""
    seat = game.current
    best: dict[bool, float] = {}
    for _ in range(samples):
        seed = rng.getrandbits(64)
        for stall in (False, True):
            for continuation in (HONEST, "edge"):
                trial = game.determinized(seed)
                sub = random.Random(seed)
                _fast_turn(trial, seat, stall, sub)
                value = _roll_out(trial, seat, continuation, sub)
                key = (stall, continuation)
                best[key] = best.get(key, 0.0) + value
    stall_best = max(best[(True, c)] for c in (HONEST, "edge"))
    honest_best = max(best[(False, c)] for c in (HONEST, "edge"))
    return stall_best > honest_best


# ---------------------------------------------------------------------- games


def give_stall_track(game: Game, seat: int) -> None:
    """The stall-ready board: seat n gets the seven climbing tiles of colour n on the track of that colour's kokeshi
    (the pink Princess track for the first seat), that kokeshi at home."""
    set_track(game, seat, KOKESHI[seat], [tile(COLORS[seat], t) for t in STALL_TRACK])
    game.kokeshi[seat][seat] = 0


def start(mode: str, start_kind: str, side: str, seed: int, rules: int) -> Game:
    """A new game: solo or 2-player, dealt normally or from the stall-ready board."""
    solo = mode == "solo"
    count = 1 if solo else 2
    if start_kind == "ready":
        game = ready(count, seed=seed, side=side, solo=solo, rules=rules)
        for seat in range(game.humans):
            give_stall_track(game, seat)
        return game
    names = ["ana"] if solo else ["ana", "bo"]
    return new_game(names, seed=seed, side=side, solo=solo, rules=rules)


def play(job: tuple) -> dict:
    """One game: the adversary in the seat of the first name, the honest player in the other; its figures.

    `job` is (mode, start, side, seed, kind, rules, honest level, base level); the honest row plays the honest
    level in every seat.
    """
    mode, start_kind, side, seed, kind, rules, honest, base = job
    t0 = time.process_time()
    game = start(mode, start_kind, side, seed, rules)
    names = [n for n in game.names if n != "automa"]
    adversary = "ana"
    players: dict[str, Callable] = {adversary: Adversary(kind, seed, honest if kind == HONEST else base)}
    for i, name in enumerate(names):
        if name != adversary:
            players[name] = Adversary(HONEST, seed + 1 + i, honest)
    decisions = 0
    bought: set[int] = set()  # the adversary's turns in which it took a tile from the offer
    seat = game.names.index(adversary)
    while game.prompt is not None:
        player = game.prompt.player
        turn = game.turns[seat]
        events = game.apply(player, players[player].choose(game))
        if any(e.kind == "tile_bought" and e.player == adversary for e in events):
            bought.add(turn)
        decisions += 1
        if decisions > 50_000:
            raise RuntimeError(f"no end: {job}")
    scores = game.scores()
    own = scores[adversary].total
    other = max((s.total for n, s in scores.items() if n != adversary), default=0)
    return {
        "job": job,
        "score": own,
        "other": other,
        "win": game.ranking()[0] == adversary,
        "turns": game.turns[seat],
        "tops": game.in_play[seat],
        "reason": game.end_reason,
        "buys": len(bought),
        "cpu": round(time.process_time() - t0, 2),
    }


def jobs(
    seeds: int,
    search_seeds: int,
    rules: int,
    kinds: tuple[str, ...],
    starts: tuple[str, ...] = ("dealt", "ready"),
    *,
    honest: str = "easy",
    base: str = "easy",
    tables: tuple[str, ...] = TABLES,
    first: int = 0,
    baseline: bool = True,
) -> list[tuple]:
    """Every game of the bench: deals `first` to `first + seeds - 1` of every table of `tables` (mode/side); the
    honest player's own games unless `baseline` is false (they are the same whatever the adversaries)."""
    out = []
    for mode, side in (t.split("/") for t in tables):
        for start_kind in starts:
            for kind in (HONEST, *kinds) if baseline else kinds:
                n = search_seeds if kind == "search" else seeds
                job = (mode, start_kind, side)
                out.extend((*job, seed, kind, rules, honest, base) for seed in range(first, first + n))
    return out


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95 % interval (normal approximation; 0 for fewer than 2 values)."""
    mean = statistics.mean(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def label(job: tuple) -> str:
    """The player's name in the tables: the adversary, `@level` when its honest turns are not `easy`'s."""
    kind, base = job[4], job[7]
    return kind if kind == HONEST or base == "easy" else f"{kind}@{base}"


def report(results: list[dict], kinds: tuple[str, ...]) -> None:
    """One table per (mode, start, side): each adversary against the honest player on the same deals."""
    groups: dict[tuple, dict[str, list[dict]]] = {}
    labels = [HONEST]
    for r in results:
        mode, start_kind, side, _seed, kind, *_ = r["job"]
        kind = label(r["job"])
        if kind not in labels:
            labels.append(kind)
        groups.setdefault((mode, start_kind, side), {}).setdefault(kind, []).append(r)
    order = [k for k in (HONEST, *kinds) if k in labels] + [k for k in labels if k not in (HONEST, *kinds)]
    for (mode, start_kind, side), by_kind in groups.items():
        print(f"\n{mode}, {start_kind} start, {side} side")
        header = f"{'player':<8} {'games':>5} {'mean':>6} {'honest':>7} {'diff ± 95 %':>13} {'opp':>5} {'max':>5} "
        header += f"{'win%':>5} {'turns':>7} {'turns diff':>12} {'buys':>5}"
        print(header + "  end reasons")
        honest = {r["job"][3]: r for r in by_kind.get(HONEST, [])}
        for kind in order:
            # Paired by deal with the honest player: itself for the honest row, the honest seat in 2-player games.
            rows = [r for r in by_kind.get(kind, []) if r["job"][3] in honest]
            if not rows:
                continue
            mean = statistics.mean(r["score"] for r in rows)
            base = statistics.mean(honest[r["job"][3]]["score"] for r in rows)
            diff, half = interval([r["score"] - honest[r["job"][3]]["score"] for r in rows])
            turns = [r["turns"] for r in rows]
            tdiff, thalf = interval([r["turns"] - honest[r["job"][3]]["turns"] for r in rows])
            reasons: dict[str, int] = {}
            for r in rows:
                reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
            wins = sum(r["win"] for r in rows) / len(rows)
            print(
                f"{kind:<8} {len(rows):>5} {mean:>6.1f} {base:>7.1f} {f'{diff:+.1f} ± {half:.1f}':>13} "
                f"{statistics.mean(r['other'] for r in rows):>5.1f} "
                f"{max(r['score'] for r in rows):>5} {wins:>5.0%} {statistics.mean(turns):>4.1f}/{max(turns):<2} "
                f"{f'{tdiff:+.1f} ± {thalf:.1f}':>12} {statistics.mean(r.get('buys', -1) for r in rows):>5.1f}  "
                + " ".join(f"{k}:{v}" for k, v in sorted(reasons.items()))
            )


def main() -> None:
    """Run the games in a process pool and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=200, help="deals per table for every adversary but search")
    parser.add_argument("--search-seeds", type=int, default=20, help="deals per table for the search adversary")
    parser.add_argument("--rules", type=int, default=CURRENT_RULES, help="rules version to play under")
    parser.add_argument("--only", default=",".join(ADVERSARIES), help="comma-separated adversaries")
    parser.add_argument("--starts", default="dealt,ready", help="comma-separated starts: dealt, ready")
    parser.add_argument("--tables", default=",".join(TABLES), help="comma-separated mode/side: solo/basic, 2p/basic")
    parser.add_argument("--honest", default="easy", help="the honest player's level: easy, normal or hard")
    parser.add_argument("--base", default="easy", help="the level the adversaries play their honest turns with")
    parser.add_argument("--no-baseline", action="store_true", help="skip the honest player's games (see --load)")
    parser.add_argument("--first", type=int, default=0, help="the first deal (seed)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--log", type=Path, help="append each game's figures to this file (JSON lines) as it ends")
    parser.add_argument("--load", type=Path, action="append", default=[], help="report on logged games instead")
    parser.add_argument("--quick", action="store_true", help="a short run (3 deals, 1 search deal)")
    args = parser.parse_args()
    if args.quick:
        args.seeds, args.search_seeds = 3, 1
    kinds = tuple(k for k in args.only.split(",") if k)
    if args.load:
        results = [json.loads(line) for path in args.load for line in path.read_text().splitlines() if line]
        print(f"{len(results)} logged games")
        report(results, ADVERSARIES)
        return
    starts = tuple(k for k in args.starts.split(",") if k)
    tables = tuple(k for k in args.tables.split(",") if k)
    todo = jobs(
        args.seeds,
        args.search_seeds,
        args.rules,
        kinds,
        starts,
        honest=args.honest,
        base=args.base,
        tables=tables,
        first=args.first,
        baseline=not args.no_baseline,
    )
    print(
        f"Stall-seeking players (honest turns: `{args.base}`) against the honest `{args.honest}` player, "
        f"rules version {args.rules}: {len(todo)} games"
    )
    t0 = time.perf_counter()
    results = []
    log = args.log.open("a") if args.log else None
    with ProcessPoolExecutor(args.workers) as pool:
        for r in pool.map(play, todo, chunksize=1 if args.honest != "easy" else 4):
            results.append(r)
            if log:
                log.write(json.dumps(r) + "\n")
                log.flush()
    if log:
        log.close()
    report(results, kinds)
    print(f"\n{time.perf_counter() - t0:.0f} s with {args.workers} workers")


if __name__ == "__main__":
    main()

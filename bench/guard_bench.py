"""The end against stalling, measured: honest games with it on and off, and stall-seeking players against honest ones.

Every command is resumable: each finished game is appended as a JSON line to the command's results file under
`bench/results/`, and a game already recorded there is not played again (`--report` only prints the tables). Games
run in a process pool (`--workers`, two by default); run long ones under `nice -n 19`.

`honest`: a computer level (`--level`: `normal`, or `hard` against the automa) on the same deals with the end against
stalling on and off (`Game.stall_limit = None`). Tables: solo against the automa on the basic and advanced sides,
and 2, 3 and 4 players, every seat played by the level (side by the deal: basic for even seeds, advanced for odd).
Per table: the share of games the guard ended, and the mean turns per player and score per seat with it on and off,
with the paired difference (by deal) and its 95 % interval.

`screen`: from the guard-off games of `honest` (each records what every turn did), how often each candidate
counting and limit would have ended an honest game before its own end: the measurement rules version 4 was chosen
by. Countings: `offer` (rules 3: a turn without a tile from the offer), `v1` (and without a recognition), `v2` (a
kokeshi passed the top, with no tile from the offer and no recognition: rules 4), `v3` (as `v2`, and no disc step);
limits per player (`player`) or for the table (`table`, the limit times the players).

`stall`: stall-seeking players against an honest player (`--honest`, `normal` by default). Each adversary plays
some of its turns as *stall turns*: at every decision of such a turn it takes the best option (by the greedy
`heuristic`) among those that take no tile from the offer and no quality tile, so its kokeshi climb and pass the
top without draining the bag. The other turns it plays as the level `--base` (`easy` by default).

- `pure`: every turn a stall turn.
- `every2` (alternate climb and buy), `every3`, `every4`: one honest turn in k, the rest stall turns.
- `edge`: a stall turn whenever one, played out on a copy, does not trigger the end; else an honest turn.
- `cheap`: as `edge`, but a turn it must buy in takes a quality tile when it can (it draws nothing from the bag).
- `search`: plays out the rest of the game (on copies with its own draws) after a stall turn and after an honest
  turn, each continued by the honest player and by `edge`, and plays the turn whose best continuation scored most
  for it (the margin in 2-player games).
- `pure+`, `every2+`, …, `search+`: the same, fitted to the counting of rules 4: a stall turn takes a recognition
  (a quality tile, a red line) whenever it can and a disc step whenever it can, as the counting of rules 3 counted
  such turns idle and that of rules 4 does not.

Starts: `dealt` (a normal deal, setup included) and `ready`, the stall-ready board: every seat gets seven climbing
tiles of one colour on its kokeshi's track (pink on the Princess track: a track climbed for ever without buying).
Solo games against the automa on both sides; 2-player games put the adversary against the honest player, and the
honest player against itself for the baseline. Per player: the mean score and its difference from the honest
player on the same deals with a 95 % interval (paired by deal), the turns it played against the honest player's,
`buys` (its turns with a tile from the offer) and `idle` (its idle turns under the rules played).

With no command: `honest` (normal and hard) and `stall` at the sizes docs/guard.md reports; with their results recorded
there is nothing left to play and it prints the tables.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.kokeshi.engine import CURRENT_RULES, Game, ai, new_game, policy  # noqa: E402
from games.kokeshi.engine.ai import _greedy_action  # noqa: E402
from games.kokeshi.engine.data import COLORS, IDLE_LIMIT, KOKESHI  # noqa: E402
from games.kokeshi.engine.policies import heuristic  # noqa: E402
from tests.positions import ready, set_track, tile  # noqa: E402

RESULTS = ROOT / "bench" / "results"
HONEST_RESULTS = RESULTS / "guard_honest.jsonl"
STALL_RESULTS = RESULTS / "guard_stall.jsonl"
SIDES = ("basic", "advanced")
NAMES = ("ana", "bo", "cy", "di")
# A game is cut, and recorded as such, after this many decisions or once a player has played this many turns: only
# an endless stall gets there (with the guard off, the `normal` level once passed the top 240 turns in a row).
DECISIONS = 40_000
TURNS = 200

# ---------------------------------------------------------------------- the same luck with the guard on and off


def _decision_rng(seed: int, game: Game) -> random.Random:
    """`engine.ai._decision_rng` keyed by the public view without its idle count (None with the guard off)."""
    public = json.dumps({k: v for k, v in game.view().items() if k != "idle"}, sort_keys=True, separators=(",", ":"))
    digest = hashlib.blake2b(f"{seed}\n{public}".encode(), digest_size=16).digest()
    return random.Random(int.from_bytes(digest, "big"))


def same_luck() -> None:
    """Make the computer players of this process draw their samples as if the view had no idle count, so that a
    deal played with the guard on and off is played on the same luck: the two games differ only once the guard
    changes a decision (through the players' look-ahead, which simulates it) or ends the game. Only the random
    stream changes, not how the players play."""
    ai._decision_rng = _decision_rng


# ---------------------------------------------------------------------- what a turn did

OFFER, RECOGNITION, DISC, TOP = 1, 2, 4, 8
MARKS = {"tile_bought": OFFER, "quality_bought": RECOGNITION, "red_line_crossed": RECOGNITION, "disc_moved": DISC}
MARKS["top_passed"] = TOP


def marks_of(events: Iterable, name: str) -> int:
    """What `name` did in these events, as OFFER | RECOGNITION | DISC | TOP bits."""
    bits = 0
    for e in events:
        if e.player == name:
            bits |= MARKS.get(e.kind, 0)
    return bits


# ---------------------------------------------------------------------- honest games, the guard on and off

HONEST_TABLES = ("solo/basic", "solo/advanced", "2p", "3p", "4p")
HARD_TABLES = ("solo/basic", "solo/advanced")


def deal(table: str, seed: int, rules: int, guard: str) -> Game:
    """The game of a table and deal: solo against the automa, or 2–4 players on the side the deal picks. `guard`:
    `on` (the rules' own), `off`, or a number: that limit instead of the rules' own."""
    mode, _, side = table.partition("/")
    if mode == "solo":
        game = new_game(["ana"], seed=seed, side=side, solo=True, rules=rules)
    else:
        game = new_game(list(NAMES[: int(mode[0])]), seed=seed, side=SIDES[seed % 2], rules=rules)
    if guard == "off":
        game.stall_limit = None
    elif guard != "on":
        game.stall_limit = int(guard)
    return game


class _Played:
    """One game being played, with what every turn did and when the end was triggered."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.turns: list[list[int]] = []  # [seat, marks] of every play turn, in order
        self.marks = 0
        self.trigger: list[int] | None = None  # [round, turns played] when the end was triggered
        self.decisions = 0

    @property
    def going(self) -> bool:
        game = self.game
        return game.prompt is not None and self.decisions < DECISIONS and max(game.turns) < TURNS

    def apply(self, action: str) -> None:
        game = self.game
        player, seat, setup = game.prompt.player, game.current, game.round == 0
        events = game.apply(player, action)
        self.decisions += 1
        self.marks |= marks_of(events, player)
        for e in events:
            if e.kind == "end_triggered" and self.trigger is None:
                self.trigger = [game.round, sum(game.turns)]
            if e.kind in ("turn_ended", "game_over") and not setup:
                self.turns.append([seat, self.marks])
                self.marks = 0

    def record(self, job: dict, guard: str, cpu: float) -> dict:
        game = self.game
        return {
            **job,
            "guard": guard,
            "players": game.names,
            "scores": {n: s.total for n, s in game.scores().items()},
            "ranking": game.ranking(),
            "turns": {n: game.turns[i] for i, n in enumerate(game.names)},
            "reason": game.end_reason if game.is_over else "cut",
            "trigger": self.trigger,
            "round": game.round,
            "bag": len(game.bag),
            "recognitions": {n: game.recognitions[i] for i, n in enumerate(game.names)},
            "marks": self.turns,
            "cpu": round(cpu, 1),
        }


def _players(game: Game, job: dict) -> dict:
    humans = [n for n in game.names if n != "automa"]
    return {name: policy(job["level"], seed=job["seed"] * 10 + i) for i, name in enumerate(humans)}


def play_honest(job: dict) -> list[dict]:
    """One deal: every seat but the automa played by the level, with the guard as the job says; `pair` plays it
    with the guard on and off. Each game's figures and what every turn did.

    A pair is played in step while no count is within the level's look-ahead of the limit: there the players'
    simulations cannot reach the limit, and with the same luck (`same_luck`) both games take the same decision, so
    it is computed once. From the first decision where a count is that close, each game is played on its own (the
    `hard` level looks to the end of the game, so its pairs are played apart from the start)."""
    t0 = time.process_time()
    guards = ("on", "off") if job["guard"] == "pair" else (job["guard"],)
    games = [_Played(deal(job["table"], job["seed"], job["rules"], g)) for g in guards]
    players = _players(games[0].game, job)
    horizon = ai.SETTINGS.get(job["level"], {}).get("horizon")
    if len(games) == 2 and horizon is not None:
        on, off = games
        while on.going and off.going:
            game = on.game
            if max(game.idles) > game.stall_limit - horizon - 1 or on.trigger != off.trigger:
                break
            action = players[game.prompt.player].choose(game)
            on.apply(action)
            off.apply(action)
    shared = time.process_time() - t0
    out = []
    for guard, played in zip(guards, games, strict=True):
        start = time.process_time()
        players = _players(played.game, job)
        while played.going:
            played.apply(players[played.game.prompt.player].choose(played.game))
        out.append(played.record(job, guard, shared + time.process_time() - start))
    return out


def honest_keys(job: dict) -> list[tuple]:
    guards = ("on", "off") if job["guard"] == "pair" else (job["guard"],)
    return [(job["table"], job["level"], job["seed"], g, job["rules"]) for g in guards]


def honest_jobs(tables: Iterable[str], level: str, seeds: range, guards: Iterable[str], rules: int) -> list[dict]:
    """Deal by deal, each table and guard in turn, so that a partial run stays paired and balanced."""
    return [
        {"table": t, "level": level, "seed": s, "guard": g, "rules": rules}
        for s in seeds
        for t in tables
        for g in guards
    ]


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95 % interval (normal approximation; 0 for fewer than 2 values)."""
    mean = statistics.mean(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def _seat_mean(record: dict) -> float:
    return statistics.mean(v for n, v in record["scores"].items() if n != "automa")


def _turns_mean(record: dict) -> float:
    return statistics.mean(v for n, v in record["turns"].items() if n != "automa")


def longest_idle_run(record: dict) -> int:
    """The most idle turns (rules 4's counting) one seat played in a row in this game."""
    runs: dict[int, int] = defaultdict(int)
    best = 0
    for seat, marks in record["marks"]:
        runs[seat] = runs[seat] + 1 if COUNTINGS["v2"](marks) else 0
        best = max(best, runs[seat])
    return best


def honest_report(records: list[dict]) -> None:
    """Per table and level: games the guard ended, turns and scores with it on and off, paired by deal; then the
    same difference without the deals whose guard-off game became an endless stall (a seat passing the top
    without buying more than twice the limit's turns in a row), and every deal the guard ended."""
    games: dict[tuple, dict[str, dict[int, dict]]] = defaultdict(lambda: defaultdict(dict))
    for r in records:
        games[(r["rules"], r["level"], r["table"])][r["guard"]][r["seed"]] = r
    print(
        "| rules, level, table | deals | ended by the guard | turns per player, on / off (max) | "
        "score per seat, on / off | on − off ± 95 % | without endless stalls (deals) | winner changed |"
    )
    print("|---|---|---|---|---|---|---|---|")
    ended_deals = []
    for (rules, level, table), by_guard in sorted(
        games.items(), key=lambda kv: (kv[0][0], kv[0][1] != "normal", HONEST_TABLES.index(kv[0][2]))
    ):
        on, off = by_guard.get("on", {}), by_guard.get("off", {})
        seeds = sorted(set(on) & set(off))
        if not seeds:
            continue
        ended = [s for s in seeds if on[s]["reason"] == "stall"]
        ended_deals += [(level, table, on[s], off[s]) for s in ended]
        cut = sum(off[s]["reason"] == "cut" for s in seeds)
        t_on = [_turns_mean(on[s]) for s in seeds]
        t_off = [_turns_mean(off[s]) for s in seeds]
        s_on = [_seat_mean(on[s]) for s in seeds]
        s_off = [_seat_mean(off[s]) for s in seeds]
        diff, half = interval([a - b for a, b in zip(s_on, s_off, strict=True)])
        limit = IDLE_LIMIT if rules >= 4 else 0
        kept = [s for s in seeds if longest_idle_run(off[s]) <= 2 * limit]
        kdiff, khalf = interval([_seat_mean(on[s]) - _seat_mean(off[s]) for s in kept])
        flips = sum(on[s]["ranking"][0] != off[s]["ranking"][0] for s in seeds)
        note = f" ({cut} cut at {TURNS} turns)" if cut else ""
        print(
            f"| {rules}, {level}, {table} | {len(seeds)} | {len(ended)} ({len(ended) / len(seeds):.0%}) | "
            f"{statistics.mean(t_on):.1f} / {statistics.mean(t_off):.1f} ({max(t_on):.0f} / {max(t_off):.0f}) | "
            f"{statistics.mean(s_on):.1f} / {statistics.mean(s_off):.1f} | {diff:+.1f} ± {half:.1f} | "
            f"{kdiff:+.1f} ± {khalf:.1f} ({len(kept)}) | {flips}{note} |"
        )
    print()
    if ended_deals:
        print(
            "Deals the guard ended: score per seat on / off, turns per player on / off, the guard-off game's longest "
            "run of idle turns in a row"
        )
        for level, table, a, b in ended_deals:
            print(
                f"- {level} {table}, deal {a['seed']}: {_seat_mean(a):.0f} / {_seat_mean(b):.0f} points, "
                f"{_turns_mean(a):.0f} / {_turns_mean(b):.0f} turns, {longest_idle_run(b)} in a row"
            )
        print()


# ---------------------------------------------------------------------- screening candidate countings

COUNTINGS: dict[str, Callable[[int], bool]] = {
    "offer": lambda m: not m & OFFER,
    "v1": lambda m: not m & (OFFER | RECOGNITION),
    "v2": lambda m: bool(m & TOP) and not m & (OFFER | RECOGNITION),
    "v3": lambda m: bool(m & TOP) and not m & (OFFER | RECOGNITION | DISC),
}


def fires(record: dict, counting: str, limit: int, scope: str) -> int | None:
    """The turn (from 0) at whose end the candidate would have triggered the end of this guard-off game before
    the game's own end was triggered, or None."""
    humans = sum(n != "automa" for n in record["players"])
    own = record["trigger"][1] if record["trigger"] else math.inf
    counts: dict[int, int] = defaultdict(int)
    idle = COUNTINGS[counting]
    for i, (seat, marks) in enumerate(record["marks"]):
        if i >= own:
            return None
        if idle(marks):
            counts[seat] += 1
            if counts[seat] >= limit if scope == "player" else sum(counts.values()) >= limit * humans:
                return i
    return None


def screen_report(records: list[dict], limits: tuple[int, ...] = (8, 12, 16, 20, 24, 28)) -> None:
    """For each candidate, the guard-off honest games it would have ended, per table."""
    tables: dict[tuple, list[dict]] = defaultdict(list)
    for r in records:
        if r["guard"] == "off" and r["reason"] != "cut":
            tables[(r["level"], r["table"])].append(r)
    keys = sorted(tables, key=lambda k: (k[0] != "normal", HONEST_TABLES.index(k[1])))
    print("| counting, limit, per | " + " | ".join(f"{lv} {t} ({len(tables[lv, t])})" for lv, t in keys) + " |")
    print("|---|" + "---|" * len(keys))
    for counting in COUNTINGS:
        for scope in ("table", "player"):
            for limit in limits:
                cells = []
                for k in keys:
                    n = sum(fires(r, counting, limit, scope) is not None for r in tables[k])
                    cells.append(f"{n / len(tables[k]):.0%}")
                print(f"| {counting}, {limit}, {scope} | " + " | ".join(cells) + " |")
    print()
    print(
        "Idle turns of the busiest seat before the game's own end (v2 counting), per table: median, 90th, 95th "
        "percentile, max"
    )
    for k in keys:
        counts = []
        for r in tables[k]:
            own = r["trigger"][1] if r["trigger"] else math.inf
            per: dict[int, int] = defaultdict(int)
            for i, (seat, marks) in enumerate(r["marks"]):
                if i < own and COUNTINGS["v2"](marks):
                    per[seat] += 1
            counts.append(max(per.values(), default=0))
        counts.sort()
        q = [counts[min(len(counts) - 1, math.ceil(p * len(counts)) - 1)] for p in (0.5, 0.9, 0.95)]
        print(f"- {k[0]} {k[1]}: {q[0]}, {q[1]}, {q[2]}, {counts[-1]}")
    print()


# ---------------------------------------------------------------------- stall-seeking players

ADVERSARIES = ("pure", "every2", "every3", "every4", "edge", "cheap", "search")
PLUS = tuple(f"{k}+" for k in ADVERSARIES)
HONEST = "honest"
STALL_TABLES = ("solo/basic", "solo/advanced", "2p/basic")


def stall_action(game: Game, seed: int, plus: bool = False) -> str | None:
    """The best option (by `heuristic`) that takes no tile from the offer, or None when every option does.

    Without `plus` it also takes no quality tile and leaves no purchase to make. With `plus` a quality tile is
    allowed, and an option that gains a recognition (or leaves a purchase a quality tile can answer) comes first,
    then one that steps a disc."""
    prompt = game.prompt
    name = prompt.player
    base = game.determinized(seed)
    best, best_value = None, -math.inf
    for option in prompt.options:
        trial = base.clone()
        events = trial.apply(name, option.id)
        marks = marks_of(events, name)
        if marks & OFFER:
            continue
        pending = trial.prompt is not None and trial.prompt.kind == "buy" and trial.prompt.player == name
        quality = pending and any(o.id.startswith("quality:") for o in trial.prompt.options)
        if not plus and (pending or any(e.kind == "quality_bought" and e.player == name for e in events)):
            continue
        if plus and pending and not quality:
            continue
        value = heuristic(trial, name)
        if plus:
            value += 1000 * (bool(marks & RECOGNITION) or quality) + 100 * bool(marks & DISC)
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
        self.kind = kind.rstrip("+")
        self.plus = kind.endswith("+")
        self.seed = seed
        self.honest = policy(level, seed=seed)
        self._turn: tuple[int, int] | None = None  # (seat, turns) of the turn the mode was chosen for
        self._stall = False
        self._rng = random.Random(seed)

    def _plan(self, game: Game) -> bool:
        kind = self.kind
        if kind == HONEST:
            return False
        if kind == "pure":
            return True
        if kind.startswith("every"):
            k = int(kind[5:])
            return game.turns[game.current] % k != k - 1
        if kind in ("edge", "cheap"):
            return not _stall_turn_ends(game, self._rng.getrandbits(64), self.plus)
        if kind == "search":
            return _search_stall(game, self._rng, self.plus)
        raise ValueError(kind)

    def choose(self, game: Game) -> str:
        """An action id for the player the game waits for."""
        key = (game.current, game.turns[game.current])
        if key != self._turn:
            self._turn = key
            self._stall = self._plan(game)
        if self._stall:
            action = stall_action(game, self._rng.getrandbits(64), self.plus)
            if action is not None:
                return action
        if self.kind == "cheap":
            action = cheap_action(game)
            if action is not None:
                return action
        return self.honest.choose(game)


def _fast_turn(game: Game, seat: int, stall: bool, rng: random.Random, plus: bool) -> None:
    """Play `seat`'s current turn on a copy: a stall turn or a greedy one."""
    turn = game.turns[seat]
    while not game.is_over and game.current == seat and game.turns[seat] == turn:
        action = stall_action(game, rng.getrandbits(64), plus) if stall else None
        if action is None:
            action, _ = _greedy_action(game, rng)
        game.apply(game.prompt.player, action)


def _stall_turn_ends(game: Game, seed: int, plus: bool) -> bool:
    """A stall turn now would trigger the end (played out on a copy with its own draws)."""
    trial = game.determinized(seed)
    before = trial.end_reason
    _fast_turn(trial, trial.current, True, random.Random(seed), plus)
    return before is None and trial.end_reason is not None


def _roll_out(game: Game, seat: int, continuation: str, rng: random.Random, plus: bool) -> float:
    """Play a copy to the end: `seat` by `continuation` (honest or edge), everyone else greedy; the seat's value."""
    while not game.is_over:
        p = game.current
        if p == seat and continuation == "edge" and game.prompt.kind == "advance":
            stall = not _stall_turn_ends(game, rng.getrandbits(64), plus)
            _fast_turn(game, p, stall, rng, plus)
            continue
        action, _ = _greedy_action(game, rng)
        game.apply(game.prompt.player, action)
    scores = game.scores()
    own = scores[game.names[seat]].total
    if game.solo:
        return own
    return own - max(s.total for n, s in scores.items() if n != game.names[seat])


def _search_stall(game: Game, rng: random.Random, plus: bool, samples: int = 2) -> bool:
    """Whether a stall turn now leads to the better end, by play-outs that run the real end guard."""
    seat = game.current
    best: dict[tuple[bool, str], float] = {}
    for _ in range(samples):
        seed = rng.getrandbits(64)
        for stall in (False, True):
            for continuation in (HONEST, "edge"):
                trial = game.determinized(seed)
                sub = random.Random(seed)
                _fast_turn(trial, seat, stall, sub, plus)
                value = _roll_out(trial, seat, continuation, sub, plus)
                best[(stall, continuation)] = best.get((stall, continuation), 0.0) + value
    stall_best = max(best[(True, c)] for c in (HONEST, "edge"))
    honest_best = max(best[(False, c)] for c in (HONEST, "edge"))
    return stall_best > honest_best


def give_stall_track(game: Game, seat: int) -> None:
    """The stall-ready board: seat n gets the seven climbing tiles of colour n on the track of that colour's kokeshi
    (the pink Princess track for the first seat), that kokeshi at home."""
    track = ["plus1", "plus4", "left", "right", "double", "any_animal", "buy_any"]
    set_track(game, seat, KOKESHI[seat], [tile(COLORS[seat], t) for t in track])
    game.kokeshi[seat][seat] = 0


def start(mode: str, start_kind: str, side: str, seed: int, rules: int, limit: int | None = None) -> Game:
    """A new game: solo or 2-player, dealt normally or from the stall-ready board; `limit`: an idle-turn limit
    instead of the rules' own (rules 4 on)."""
    solo = mode == "solo"
    count = 1 if solo else 2
    if start_kind == "ready":
        game = ready(count, seed=seed, side=side, solo=solo, rules=rules)
        for seat in range(game.humans):
            give_stall_track(game, seat)
    else:
        game = new_game(["ana"] if solo else ["ana", "bo"], seed=seed, side=side, solo=solo, rules=rules)
    if limit is not None:
        game.stall_limit = limit
    return game


def play_stall(job: dict) -> list[dict]:
    """One game: the adversary in the first seat's name (`ana`), the honest player in the other; its figures. The
    honest row plays the honest level in every seat."""
    t0 = time.process_time()
    game = start(job["mode"], job["start"], job["side"], job["seed"], job["rules"], job.get("limit"))
    kind, seed = job["kind"], job["seed"]
    names = [n for n in game.names if n != "automa"]
    adversary = "ana"
    players: dict[str, Adversary] = {adversary: Adversary(kind, seed, job["honest"] if kind == HONEST else job["base"])}
    for i, name in enumerate(names):
        if name != adversary:
            players[name] = Adversary(HONEST, seed + 1 + i, job["honest"])
    seat = game.names.index(adversary)
    decisions = 0
    bought: set[int] = set()  # the adversary's turns in which it took a tile from the offer
    while game.prompt is not None and decisions < DECISIONS and max(game.turns) < TURNS:
        player = game.prompt.player
        turn = game.turns[seat]
        events = game.apply(player, players[player].choose(game))
        if marks_of(events, adversary) & OFFER:
            bought.add(turn)
        decisions += 1
    scores = game.scores()
    return [
        {
            **job,
            "score": scores[adversary].total,
            "other": max((s.total for n, s in scores.items() if n != adversary), default=0),
            "win": game.ranking()[0] == adversary,
            "turns": game.turns[seat],
            "tops": game.in_play[seat],
            "reason": game.end_reason if game.is_over else "cut",
            "buys": len(bought),
            "idle": game.idles[seat] if game.rules >= 4 else game.idle,
            "cpu": round(time.process_time() - t0, 1),
        }
    ]


def stall_keys(record: dict) -> list[tuple]:
    keys = ("mode", "start", "side", "seed", "kind", "rules", "honest", "base")
    return [(*(record[k] for k in keys), record.get("limit"))]


def stall_jobs(
    seeds: int,
    search_seeds: int,
    rules: int,
    kinds: Iterable[str],
    starts: Iterable[str],
    tables: Iterable[str],
    honest: str,
    base: str,
    first: int = 0,
    limit: int | None = None,
) -> list[dict]:
    """Deal by deal: the honest baseline and every adversary of every table and start."""
    out = []
    kinds = tuple(kinds)
    for seed in range(first, first + max(seeds, search_seeds)):
        for mode, side in (t.split("/") for t in tables):
            for start_kind in starts:
                for kind in (HONEST, *kinds):
                    if seed - first >= (search_seeds if kind.startswith("search") else seeds):
                        continue
                    job = {"mode": mode, "start": start_kind, "side": side, "seed": seed, "kind": kind}
                    job |= {"rules": rules, "honest": honest, "base": "-" if kind == HONEST else base}
                    if limit is not None:
                        job["limit"] = limit
                    out.append(job)
    return out


def label(record: dict) -> str:
    """The player's name in the tables: the adversary, `@level` when its honest turns are not `easy`'s."""
    kind, base = record["kind"], record["base"]
    return kind if kind == HONEST or base == "easy" else f"{kind}@{base}"


def stall_report(records: list[dict]) -> None:
    """One table per (rules, honest level, mode, start, side): each adversary against the honest player."""
    groups: dict[tuple, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        groups[(r["rules"], r.get("limit") or 0, r["honest"], r["mode"], r["start"], r["side"])][label(r)].append(r)
    order = [HONEST, *(k for pair in zip(ADVERSARIES, PLUS, strict=True) for k in pair)]
    for (rules, limit, level, mode, start_kind, side), by_kind in sorted(groups.items()):
        at = f", idle-turn limit {limit}" if limit else ""
        print(f"\nrules {rules}{at}, honest {level}: {mode}, {start_kind} start, {side} side")
        print(
            "| player | games | mean | honest | diff ± 95 % | max | win | turns (max) | turns diff ± 95 % | buys | "
            "idle | end reasons |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        honest = {r["seed"]: r for r in by_kind.get(HONEST, [])}
        names = sorted(by_kind, key=lambda k: (order.index(k.split("@")[0]) if k.split("@")[0] in order else 99, k))
        for kind in names:
            rows = [r for r in by_kind[kind] if r["seed"] in honest]
            if not rows:
                continue
            diff, half = interval([r["score"] - honest[r["seed"]]["score"] for r in rows])
            tdiff, thalf = interval([r["turns"] - honest[r["seed"]]["turns"] for r in rows])
            reasons: dict[str, int] = defaultdict(int)
            for r in rows:
                reasons[r["reason"]] += 1
            print(
                f"| {kind} | {len(rows)} | {statistics.mean(r['score'] for r in rows):.1f} | "
                f"{statistics.mean(honest[r['seed']]['score'] for r in rows):.1f} | {diff:+.1f} ± {half:.1f} | "
                f"{max(r['score'] for r in rows)} | {sum(r['win'] for r in rows) / len(rows):.0%} | "
                f"{statistics.mean(r['turns'] for r in rows):.1f} ({max(r['turns'] for r in rows)}) | "
                f"{tdiff:+.1f} ± {thalf:.1f} | {statistics.mean(r['buys'] for r in rows):.1f} | "
                f"{statistics.mean(r['idle'] for r in rows):.1f} | "
                + " ".join(f"{k}:{v}" for k, v in sorted(reasons.items()))
                + " |"
            )


# ---------------------------------------------------------------------- running


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


def run(jobs: list[dict], play: Callable[[dict], list[dict]], keys: Callable[[dict], list], path: Path, workers: int):
    """Play the jobs not yet in `path`, appending each finished game as a JSON line (a job may give several)."""
    done = {tuple(k) for r in load(path) for k in keys(r)}
    todo = [j for j in jobs if not set(keys(j)) <= done]
    print(f"{len(jobs) - len(todo)} of {len(jobs)} jobs already in {path.relative_to(ROOT)}", flush=True)
    if not todo:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers, initializer=same_luck) as pool:
        futures = [pool.submit(play, j) for j in todo]
        for n, future in enumerate(as_completed(futures), start=1):
            with path.open("a") as out:
                for record in future.result():
                    out.write(json.dumps({**record, "commit": head.stdout.strip()}, sort_keys=True) + "\n")
            if n % 10 == 0 or n == len(todo):
                print(f"  {n}/{len(todo)} jobs, {time.perf_counter() - started:.0f} s", flush=True)


def main() -> None:
    """Parse the command line, play what is missing and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", choices=("honest", "screen", "stall"))
    parser.add_argument("--seeds", type=int, help="deals per table (honest: 60, 20 for hard; stall: 60)")
    parser.add_argument("--first", type=int, default=0, help="the first deal (seed)")
    parser.add_argument("--rules", type=int, default=CURRENT_RULES, help="rules version to play under")
    parser.add_argument("--tables", help="comma-separated tables (honest: solo/basic,solo/advanced,2p,3p,4p)")
    parser.add_argument("--level", default="normal", help="honest: the level playing every seat")
    parser.add_argument(
        "--guards", default="pair", help="honest: pair (on and off), on, off, or a limit to try instead of the rules'"
    )
    parser.add_argument("--honest", default="normal", help="stall: the honest player's level")
    parser.add_argument("--base", default="easy", help="stall: the level of the adversaries' honest turns")
    parser.add_argument("--only", default=",".join(k for pair in zip(ADVERSARIES, PLUS, strict=True) for k in pair))
    parser.add_argument("--starts", default="dealt,ready", help="stall: comma-separated starts: dealt, ready")
    parser.add_argument("--limit", type=int, help="stall: an idle-turn limit instead of the rules' own (rules 4 on)")
    parser.add_argument("--search-seeds", type=int, default=20, help="stall: deals per table for search, search+")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--results", type=Path, help="the results file (JSON lines)")
    parser.add_argument("--report", action="store_true", help="only print the tables of the recorded games")
    args = parser.parse_args()
    commands = [args.command] if args.command else ["honest", "stall"]
    for command in commands:
        if command in ("honest", "screen"):
            path = args.results or HONEST_RESULTS
            if command == "honest" and not args.report:
                levels = [args.level] if args.command else ["normal", "hard"]
                for level in levels:
                    default = HARD_TABLES if level == "hard" else HONEST_TABLES
                    tables = args.tables.split(",") if args.tables else default
                    seeds = range(args.first, args.first + (args.seeds or (20 if level == "hard" else 60)))
                    jobs = honest_jobs(tables, level, seeds, args.guards.split(","), args.rules)
                    run(jobs, play_honest, honest_keys, path, args.workers)
            (honest_report if command == "honest" else screen_report)(load(path))
        else:
            path = args.results or STALL_RESULTS
            if not args.report:
                jobs = stall_jobs(
                    args.seeds or 60,
                    args.search_seeds,
                    args.rules,
                    [k for k in args.only.split(",") if k],
                    args.starts.split(","),
                    args.tables.split(",") if args.tables else STALL_TABLES,
                    args.honest,
                    args.base,
                    args.first,
                    args.limit,
                )
                run(jobs, play_stall, stall_keys, path, args.workers)
            stall_report(load(path))


if __name__ == "__main__":
    main()

"""Computer players at three levels, fair by construction: they simulate only copies with their own hidden draws.

A policy never reads the game's seed or draw counter. Every decision starts from `Game.determinized`, a copy
whose bag draws come from a generator seeded by the policy itself, so the choice depends only on what a player
at the table can see (the whole state but the order of the bag) and on the policy's seed.

- `easy`: the one-ply greedy player: the best immediate result by `heuristic`.
- `normal`, `hard`: sequential halving over the legal actions. Each action is tried on sampled futures (a fresh
  bag order per sample, shared by every action in that round so they are compared on the same luck) and played
  on by fast greedy players; an action's value is the mean margin over the best opponent at the end of the
  look-ahead (three own turns for `normal`, the end of the game for `hard`). Budgets count simulated moves, not
  seconds, so a decision is reproducible on any machine.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from dataclasses import dataclass
from typing import Any

from .data import (
    ADJACENCY_PENALTY,
    ANIMAL_POINTS,
    IS_QUALITY,
    LEAD_BONUS,
    QUALITY_POINTS,
    TILE_COLOR,
    TILE_LEVEL,
    TRACK_SCORE,
)
from .game import Game
from .policies import _RESERVE_VALUE

LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True, slots=True)
class Hint:
    """A chosen action and its expected gain in points over the average other legal action.

    Points as `heuristic` counts them at the end of the level's look-ahead: one move for `easy`; for the search
    levels, the mean margin over the best opponent (the final margin for `hard`).
    """

    action: str
    gain: float


def _decision_rng(seed: int, game: Game) -> random.Random:
    """A generator that depends only on the policy seed and the public state, never on the hidden seed."""
    public = json.dumps(game.view(), sort_keys=True, separators=(",", ":"))
    digest = hashlib.blake2b(f"{seed}\n{public}".encode(), digest_size=16).digest()
    return random.Random(int.from_bytes(digest, "big"))


def _track_points(height: int) -> int:
    for need, points in TRACK_SCORE:
        if height >= need:
            return points
    return 0


def _adjacent_pairs(tracks: list[list[int]]) -> int:
    """Pairs of touching tiles of one colour on a workshop board, as `Game._adjacent_pairs` counts them.

    The same count in one pass over each track's colours: the search spends most of its time scoring, and the
    engine's general version looks every colour up twice.
    """
    colours = [[TILE_COLOR[t] for t in track] for track in tracks]
    pairs = 0
    last = len(colours) - 1
    for k, column in enumerate(colours):
        below = k  # a track's base (height 0) has the colour of its kokeshi
        right = colours[k + 1] if k < last else ()
        reach = len(right)
        for height, colour in enumerate(column):
            pairs += colour == below
            below = colour
            if height < reach and right[height] == colour:
                pairs += 1
    return pairs


def _total(game: Game, p: int, leaders: list[int]) -> int:
    """`game._score(p, leaders).total`, computed faster (kept equal by tests on many positions)."""
    tracks = game.tracks[p]
    total = game.in_play[p] + sum(_track_points(len(t)) for t in tracks)
    total += sum(QUALITY_POINTS[TILE_LEVEL[t] - 1] for track in tracks for t in track if IS_QUALITY[t])
    table = ANIMAL_POINTS[game.side]
    total += sum(table[a][pos] for a, pos in enumerate(game.discs[p]))
    total += LEAD_BONUS * leaders.count(p)
    if not (game.solo and p == 1):
        total -= ADJACENCY_PENALTY * _adjacent_pairs(tracks)
    return total


def _values(game: Game) -> list[float]:
    """`heuristic` for every seat, in seat order, from one scoring pass."""
    leaders = game._leaders()
    return [_total(game, p, leaders) + _RESERVE_VALUE * len(game.reserve[p]) for p in range(len(game.names))]


def _margin(game: Game, seat: int, win_bonus: float) -> float:
    """How far `seat` is ahead of its best opponent; a finished game adds `win_bonus` for a win."""
    values = _values(game)
    best_other = max(v for p, v in enumerate(values) if p != seat)
    margin = values[seat] - best_other
    if win_bonus and game.is_over:
        margin += win_bonus if game.ranking()[0] == game.names[seat] else -win_bonus
    return margin


def _greedy_action(game: Game, rng: random.Random) -> tuple[str, int]:
    """The one-ply greedy choice on `game` (already a determinized copy) and the moves it simulated."""
    prompt = game.prompt
    assert prompt is not None, "the game is over"
    player = prompt.player
    seat = game.current
    best: list[str] = []
    best_value = float("-inf")
    for option in prompt.options:
        trial = game.clone()
        trial.apply(player, option.id)
        # `heuristic` for this seat alone: scoring every seat would double the cost of a rollout.
        value = _total(trial, seat, trial._leaders()) + _RESERVE_VALUE * len(trial.reserve[seat])
        if value > best_value:
            best, best_value = [option.id], value
        elif value == best_value:
            best.append(option.id)
    action = best[0] if len(best) == 1 else best[rng.randrange(len(best))]
    return action, len(prompt.options)


def _random_action(game: Game, rng: random.Random) -> tuple[str, int]:
    """A uniformly random choice and its cost in simulated moves (none besides the move itself)."""
    prompt = game.prompt
    assert prompt is not None, "the game is over"
    options = prompt.options
    return options[rng.randrange(len(options))].id, 0


def _roll(game: Game, seat: int, stop_turn: int | None, rng: random.Random, greedy: bool = True) -> int:
    """Play on for every seat until the game ends or `seat` has completed `stop_turn` turns; returns the moves."""
    spent = 0
    pick = _greedy_action if greedy else _random_action
    while not game.is_over:
        if stop_turn is not None and game.turns[seat] >= stop_turn:
            break
        action, cost = pick(game, rng)
        game.apply(game.names[game.current], action)  # the prompt's player: the game is not over
        spent += cost + 1
    return spent


class _Policy:
    """Shared by the levels: `choose` is the action of `explain`."""

    level = ""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def explain(self, game: Game) -> Hint:
        """The action this policy takes for the player to move, and its expected gain in points."""
        raise NotImplementedError

    def choose(self, game: Game) -> str:
        """An action id for the player the game is waiting for."""
        return self.explain(game).action

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.level} seed={self.seed}>"


def _options(game: Game) -> list[str]:
    prompt = game.prompt
    if prompt is None:
        raise ValueError("the game is over")
    return [o.id for o in prompt.options]


class EasyPolicy(_Policy):
    """The greedy one-ply player, fair: each action is tried on a copy with the policy's own draws."""

    level = "easy"

    def explain(self, game: Game) -> Hint:
        """The best immediate result by `heuristic`; gain = its edge over the mean of the others."""
        options = _options(game)
        if len(options) == 1:
            return Hint(options[0], 0.0)
        rng = _decision_rng(self.seed, game)
        base = game.determinized(rng.getrandbits(64))
        player = game.names[game.current]  # the prompt's player: it has options
        seat = game.names.index(player)
        values = []
        for action in options:
            trial = base.clone()
            trial.apply(player, action)
            values.append(_total(trial, seat, trial._leaders()) + _RESERVE_VALUE * len(trial.reserve[seat]))
        top = max(values)
        best = [a for a, v in zip(options, values, strict=True) if v == top]
        action = best[0] if len(best) == 1 else best[rng.randrange(len(best))]
        others = [v for a, v in zip(options, values, strict=True) if a != action]
        return Hint(action, top - sum(others) / len(others))


class SearchPolicy(_Policy):
    """Sequential halving over the legal actions with determinized greedy look-ahead.

    `budget`: simulated moves per decision (about 35 µs each on this project's reference machine).
    `horizon`: the look-ahead in the player's own turns (`None`: to the end of the game).
    `win_bonus`: points added to a sampled finished game's margin for a win (subtracted for a loss).
    `greedy`: play-outs by the greedy player (1) or uniformly random moves (0, cheaper and much weaker).
    `stop_z`: stop early once no other surviving action is more than `tolerance` points better than the leader on
    the same sampled futures, by `stop_z` standard errors of the paired difference, after at least `min_rounds`
    rounds (0: never stop early).
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        budget: int = 40_000,
        horizon: int | None = None,
        win_bonus: float = 0.0,
        greedy: int = 1,
        stop_z: float = 0.0,
        tolerance: float = 0.0,
        min_rounds: int = 6,
        level: str = "custom",
    ) -> None:
        super().__init__(seed)
        if budget < 1:
            raise ValueError("budget must be at least 1")
        if horizon is not None and horizon < 1:
            raise ValueError("horizon must be at least 1 turn, or None")
        self.budget = budget
        self.horizon = horizon
        self.win_bonus = win_bonus
        self.greedy = bool(greedy)
        self.stop_z = stop_z
        self.tolerance = tolerance
        self.min_rounds = min_rounds
        self.level = level

    def explain(self, game: Game) -> Hint:
        """The action with the best mean sampled margin; gain = its edge over the mean of the others."""
        options = _options(game)
        if len(options) == 1:
            return Hint(options[0], 0.0)
        rng = _decision_rng(self.seed, game)
        player = game.names[game.current]  # the prompt's player: it has options
        seat = game.names.index(player)
        stop = None if self.horizon is None else game.turns[seat] + self.horizon
        totals = dict.fromkeys(options, 0.0)
        counts = dict.fromkeys(options, 0)
        alive = list(options)
        phases = max(1, math.ceil(math.log2(len(alive))))
        samples: dict[str, list[float]] = {a: [] for a in options}
        spent = 0
        settled = False
        for phase in range(phases):
            share = (self.budget - spent) / (phases - phase)
            used = 0
            while True:
                base = game.determinized(rng.getrandbits(64))
                roll_seed = rng.getrandbits(64)
                for action in alive:
                    trial = base.clone()
                    trial.apply(player, action)
                    used += 1 + _roll(trial, seat, stop, random.Random(roll_seed), self.greedy)
                    value = _margin(trial, seat, self.win_bonus)
                    totals[action] += value
                    counts[action] += 1
                    samples[action].append(value)
                if self.stop_z and self._settled(alive, samples):
                    settled = True
                    break
                if used >= share:
                    break
            spent += used
            if settled or spent >= self.budget:
                break  # a wide first round may use it all: the survivors so far are compared as they stand
            if phase < phases - 1:
                alive.sort(key=lambda a: (-totals[a] / counts[a], options.index(a)))
                alive = alive[: math.ceil(len(alive) / 2)]
        means = {a: totals[a] / counts[a] for a in options}
        action = max(alive, key=lambda a: (means[a], -options.index(a)))
        others = [means[a] for a in options if a != action]
        return Hint(action, means[action] - sum(others) / len(others))

    def _settled(self, alive: list[str], samples: dict[str, list[float]]) -> bool:
        """Whether no other survivor is likely more than `tolerance` better than the leader on the same futures.

        Survivors have been tried on every sampled future since the start, so their samples pair up by index.
        """
        if len(alive) < 2:
            return True
        rounds = len(samples[alive[0]])
        if rounds < self.min_rounds:
            return False
        leader = max(alive, key=lambda a: sum(samples[a]))
        lead = samples[leader]
        for other in alive:
            if other == leader:
                continue
            diffs = [x - y for x, y in zip(lead, samples[other], strict=True)]
            mean = sum(diffs) / rounds
            spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (rounds - 1))
            if mean - self.stop_z * spread / math.sqrt(rounds) <= -self.tolerance:
                return False
        return True


# Per level: simulated-move budget, look-ahead in own turns, win bonus. Chosen by measuring in bench/ai_bench.py.
SETTINGS: dict[str, dict[str, Any]] = {
    "normal": {"budget": 3_000, "horizon": 3, "win_bonus": 0.0},
    "hard": {"budget": 40_000, "horizon": None, "win_bonus": 0.0},
}


def policy(level: str, *, seed: int = 0, budget: int | None = None) -> _Policy:
    """A computer player of `level` (`easy`, `normal` or `hard`) with its own seed.

    `budget` replaces the level's simulated-move budget (tests use small ones); `easy` has none.
    """
    if level == "easy":
        return EasyPolicy(seed)
    if level in SETTINGS:
        settings = dict(SETTINGS[level])
        if budget is not None:
            settings["budget"] = budget
        return SearchPolicy(seed, level=level, **settings)
    raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")


__all__ = ["LEVELS", "SETTINGS", "EasyPolicy", "Hint", "SearchPolicy", "policy"]

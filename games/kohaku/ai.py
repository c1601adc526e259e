"""Computer players at three levels, fair by construction: they decide on a copy with every hidden thing redrawn.

Every decision starts from `Match.determinized(seat, s)`, where `s` is a digest of the policy's seed and of what
the seat sees (`view(seat)`): which unseen koi tiles are still in the stack, the future draws and the other
players' goal cards are all redrawn, so a choice cannot depend on anything hidden. The levels plan a whole turn
(which pair, where each tile goes) and answer the prompt in front of them with that plan's next step.

- `easy`: the most points at once (ties broken at random): a greedy player.
- `normal`: points at once plus the pond's promise: each feature's open sides and what the koi beside them can
  still bring, weighed by how many turns are left.
- `hard`: `normal`'s ranking, then its best four plans are played on over twelve sampled refills, the opponents
  answering greedily and this seat playing `normal`'s next turn, and judged by the pond after that turn less what
  the opponents scored.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass

from .data import (
    BABY_KOI,
    BUTTERFLIES,
    COLOURS_OF,
    DRAGONFLIES,
    FLOWER,
    FLOWER_FOUR,
    FROG,
    GOALS,
    IS_KOI,
    KIND_OF,
    ROCKS,
    STATUE,
    STATUE_POINTS,
    TWO_FLOWERS,
)
from .model import GOAL, PLACE, TAKE, ZONE
from .plans import plans
from .rules import BOARD_PAIRS, KOI_SPACE, Match, place_id, zones
from .scoring import STEPS, Pond, gain, goal_points
from .scoring import total as total_score

LEVELS = ("easy", "normal", "hard")

# What a goal card scores on average on the final ponds of `normal` games that play no goal card (12 deals each
# of 2, 3 and 4 players: `bench/kohaku_bench.py --goals 12`); the choice of card goes by these.
GOAL_VALUE = {
    "rarest_colour": 10.1,
    "dragonflies": 10.3,
    "statues": 6.4,
    "no_baby_koi": 12.0,
    "no_dragonflies": 11.8,
    "flowers": 3.0,
    "frogs_and_turtles": 2.2,
    "shelter": 0.2,
}


@dataclass(frozen=True, slots=True)
class Hint:
    """A chosen action and its expected gain in points over the average other legal action."""

    action: str
    gain: float


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's settings: how much the pond's promise counts, by the turns left."""

    promise: float = 0.7  # weight of the promise with many turns left
    half: float = 3.0  # turns left at which the weight is half of `promise`
    match: float = 0.5  # chance a later koi has a wanted colour (the player chooses among six)
    critters: float = 1.2  # baby koi or dragonflies a later koi brings
    open_value: float = 0.35  # per open feature side of a koi: what it offers a later feature
    denial: float = 1.0  # weight of the best turn the pair leaves to the next player


def _decision_seed(seed: int, match: Match, seat: int) -> int:
    """A seed that depends only on the policy's seed and what `seat` sees, never on hidden information."""
    public = json.dumps(match.view(seat), sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.blake2b(f"{seed}\n{public}".encode(), digest_size=8).digest(), "big")


def _open(pond: Pond, c: int) -> int:
    return sum(1 for s in STEPS if c + s not in pond)


def feature_promise(pond: Pond, c: int, tile: int, w: Weights) -> float:
    """What the feature at `c` may still score from the koi that can still come beside it."""
    kind = KIND_OF[tile]
    near = [pond[c + s] for s in STEPS if c + s in pond]
    free = 4 - len(near)
    if not free and kind != BUTTERFLIES:
        return 0.0
    if kind == FLOWER:
        have = sum(1 for k in near if COLOURS_OF[k] & COLOURS_OF[tile])
        value = 2.0 * w.match * free
        if have + free == 4:
            value += (FLOWER_FOUR - 8) * w.match**free
        return value
    if kind == TWO_FLOWERS:
        return free * (2.0 * min(1.0, w.match * 1.5) + 0.2)
    if kind in (ROCKS, FROG):
        return free * w.critters * 0.8
    if kind == STATUE:
        n = len(near)
        return (STATUE_POINTS[4] - STATUE_POINTS[n]) * w.match ** (free * 0.5)
    if kind == BUTTERFLIES:
        return 2.0 * w.match * 1.5
    return 0.0


def koi_promise(pond: Pond, c: int, tile: int, w: Weights) -> float:
    """What the koi at `c` offers the features that may still come beside it."""
    free = _open(pond, c)
    if not free:
        return 0.0
    colours = bin(COLOURS_OF[tile]).count("1")
    return free * w.open_value * (1.0 + 0.5 * colours + 0.35 * (BABY_KOI[tile] + DRAGONFLIES[tile]))


def _term(pond: Pond, c: int, w: Weights) -> float:
    tile = pond[c]
    return koi_promise(pond, c, tile, w) if IS_KOI[tile] else feature_promise(pond, c, tile, w)


def promise(pond: Pond, w: Weights) -> float:
    """The whole pond's promise (the sum of every tile's)."""
    return sum(_term(pond, c, w) for c in pond)


def promise_change(pond: Pond, adds: dict[int, int], w: Weights) -> float:
    """How the pond's promise changes when `adds` (cell -> tile) are placed: only nearby tiles change."""
    touched = {c + s for c in adds for s in STEPS if c + s in pond}
    before = sum(_term(pond, c, w) for c in touched)
    pond.update(adds)
    try:
        after = sum(_term(pond, c, w) for c in touched | set(adds))
    finally:
        for c in adds:
            del pond[c]
    return after - before


def _weight(turns_left: int, w: Weights) -> float:
    return w.promise * turns_left / (turns_left + w.half)


@dataclass(frozen=True, slots=True)
class Plan:
    """A whole turn: the pair taken (board spaces, lower first), the koi's cell and the feature's cell."""

    pair: tuple[int, int]
    koi_at: int
    feature_at: int
    value: float


def _turns_left(match: Match, seat: int) -> int:
    """The seat's own turns after the current one, from the tiles left (an estimate in solo games)."""
    stack = len(match.koi_stack)
    if match.solo:
        return max(0, stack // 2)
    ahead = (seat - match.current) % match.seats
    return max(0, (stack - ahead) // match.seats)


class Policy:
    """A computer player of one level with its own seed. `choose` and `explain` take the match and the seat."""

    def __init__(self, level: str, seed: int = 0, weights: Weights | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        self.level = level
        self.seed = seed
        self.weights = weights or Weights()

    def __repr__(self) -> str:
        return f"<Kōhaku {self.level} player seed={self.seed}>"

    def choose(self, match: Match, seat: int | None = None) -> str:
        """An action id for `seat` (default: the first seat the match waits for)."""
        return self.explain(match, seat).action

    def explain(self, match: Match, seat: int | None = None) -> Hint:
        """The action this player takes and its expected edge, in points, over the average other option."""
        waiting = match.waiting()
        if not waiting:
            raise ValueError("the game is over")
        seat = waiting[0] if seat is None else seat
        if seat not in waiting:
            raise ValueError(f"seat {seat} has nothing to decide")
        legal = match.legal_actions(seat)
        if len(legal) == 1:
            return Hint(legal[0], 0.0)
        seed = _decision_seed(self.seed, match, seat)
        rng = random.Random(seed)
        game = match.determinized(seat, seed)
        kind = game._kind()
        if kind == GOAL:
            return self._goal(game, seat, legal, rng)
        if kind == TAKE:
            return self._take(game, seat, legal, rng)
        return self._place(game, seat, kind, legal, rng)

    # ---------------------------------------------------------------- goal cards

    def _goal(self, game: Match, seat: int, legal: list[str], rng: random.Random) -> Hint:
        cards = [GOALS[g] for g in game.goal_hands[seat]]
        if self.level == "easy":
            pick = rng.randrange(len(cards))
            return Hint(legal[pick], 0.0)
        values = [GOAL_VALUE[c] for c in cards]
        best = max(range(len(cards)), key=lambda i: (values[i], -i))
        others = [v for i, v in enumerate(values) if i != best]
        return Hint(legal[best], values[best] - sum(others) / len(others))

    # ---------------------------------------------------------------- whole turns

    def plans(self, game: Match, seat: int, pairs: list[tuple[int, int]]) -> list[Plan]:
        """Every plan for the given board pairs, valued by this level's evaluation, best first (stable order)."""
        pond = game.ponds[seat]
        w = self.weights
        left = _turns_left(game, seat)
        weight = 0.0 if self.level == "easy" else _weight(left, w)
        out: list[Plan] = []
        cache: dict[tuple[int, int], float] = {}

        def alone(c: int, tile: int) -> float:
            key = (c, tile)
            if key not in cache:
                cache[key] = promise_change(pond, {c: tile}, w)
            return cache[key]

        for pair in pairs:
            a, b = pair
            koi, feature = (game.board[a], game.board[b]) if KOI_SPACE[a] else (game.board[b], game.board[a])
            if not pond:
                out.append(Plan(pair, 0, 1, float(Match._first_gain(koi, feature))))
                continue
            for k, f, points in plans(pond, game.frontier[seat], koi, feature):
                value = float(points)
                if weight:
                    if f - k in STEPS:
                        change = promise_change(pond, {k: koi, f: feature}, w)
                    else:
                        change = alone(k, koi) + alone(f, feature)
                    value += weight * change
                out.append(Plan(pair, k, f, value))
        out.sort(key=lambda p: -p.value)
        if self.level != "easy" and game.goals and game.goal_kept[seat] >= 0 and pond:
            # The goal card counts in the evaluation of the best plans (it is slow to score for every one).
            goal = GOALS[game.goal_kept[seat]]
            now = goal_points(pond, goal)
            head = []
            for plan in out[:40]:
                koi, feature = self._tiles(game, plan.pair)
                pond[plan.koi_at], pond[plan.feature_at] = koi, feature
                change = goal_points(pond, goal) - now
                del pond[plan.koi_at], pond[plan.feature_at]
                head.append(Plan(plan.pair, plan.koi_at, plan.feature_at, plan.value + change))
            out = sorted(head, key=lambda p: -p.value) + out[40:]
        return out

    @staticmethod
    def _tiles(game: Match, pair: tuple[int, int]) -> tuple[int, int]:
        a, b = pair
        return (game.board[a], game.board[b]) if KOI_SPACE[a] else (game.board[b], game.board[a])

    def _pick(self, ranked: list[Plan], rng: random.Random) -> Plan:
        top = ranked[0].value
        best = [p for p in ranked if p.value >= top - 1e-9]
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    def _take(self, game: Match, seat: int, legal: list[str], rng: random.Random) -> Hint:
        pairs = list(BOARD_PAIRS)
        ranked = self.plans(game, seat, pairs)
        if self.weights.denial and not game.solo and self.level != "easy":
            ranked = self._deny(game, seat, ranked)
        if self.level == "hard":
            ranked = self._look_ahead(game, seat, ranked, rng)
        plan = self._pick(ranked, rng)
        best_by_pair: dict[tuple[int, int], float] = {}
        for p in ranked:
            best_by_pair.setdefault(p.pair, p.value)
        others = [v for pair, v in best_by_pair.items() if pair != plan.pair]
        action = f"t:{plan.pair[0] + 1}-{plan.pair[1] + 1}"
        assert action in legal
        edge = plan.value - sum(others) / len(others) if others else 0.0
        return Hint(action, edge)

    def _place(self, game: Match, seat: int, kind: str, legal: list[str], rng: random.Random) -> Hint:
        pond = game.ponds[seat]
        w = self.weights
        weight = 0.0 if self.level == "easy" else _weight(_turns_left(game, seat), w)
        koi, feature = game._hand_tiles()
        options: dict[str, float] = {}
        if len(game.hand) == 2:
            for k, f, points in plans(pond, game.frontier[seat], koi, feature):
                value = points + (weight * promise_change(pond, {k: koi, f: feature}, w) if weight else 0.0)
                first = k if k in game.frontier[seat] else f
                action = place_id(first)
                options[action] = max(options.get(action, float("-inf")), value)
        else:
            tile = game.hand[0]
            for c in game._candidates():
                value = gain(pond, c, tile) + (weight * promise_change(pond, {c: tile}, w) if weight else 0.0)
                options[place_id(c)] = value
        if kind == ZONE:
            groups = zones(game._candidates())
            scores = []
            for g in groups:
                ids = [place_id(c) for c in g]
                scores.append(max((options[i] for i in ids if i in options), default=float("-inf")))
            top = max(scores)
            pick = [i for i, s in enumerate(scores) if s >= top - 1e-9]
            index = pick[rng.randrange(len(pick))] if len(pick) > 1 else pick[0]
            others = [s for i, s in enumerate(scores) if i != index and s != float("-inf")]
            return Hint(f"z:{index}", top - (sum(others) / len(others) if others else top))
        assert kind == PLACE
        allowed = [a for a in legal if a in options]
        top = max(options[a] for a in allowed)
        best = [a for a in allowed if options[a] >= top - 1e-9]
        action = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
        others = [options[a] for a in allowed if a != action]
        return Hint(action, top - sum(others) / len(others) if others else 0.0)

    def _deny(self, game: Match, seat: int, ranked: list[Plan]) -> list[Plan]:
        """Lower each plan by what the next player could best score at once from the tiles it leaves."""
        nxt = (seat + 1) % game.seats
        greedy = Policy("easy", 0)
        theirs: dict[tuple[int, int], float] = {}
        for plan in greedy.plans(game, nxt, list(BOARD_PAIRS)):
            theirs.setdefault(plan.pair, plan.value)
        out = []
        for plan in ranked:
            taken = set(plan.pair)
            left = max((v for pair, v in theirs.items() if not taken & set(pair)), default=0.0)
            out.append(Plan(plan.pair, plan.koi_at, plan.feature_at, plan.value - self.weights.denial * left))
        out.sort(key=lambda p: -p.value)
        return out

    # ---------------------------------------------------------------- hard: sampled look-ahead

    def _look_ahead(self, game: Match, seat: int, ranked: list[Plan], rng: random.Random) -> list[Plan]:
        """Re-rank the best distinct plans by playing a round on over sampled refills: the opponents answer
        greedily, then this seat plays its best next turn; a plan is worth the pond's score and promise after
        that turn, less what the opponents scored meanwhile."""
        if _turns_left(game, seat) == 0:
            return ranked
        heads: list[Plan] = []
        seen: set[tuple[tuple[int, int], int, int]] = set()
        for plan in ranked:
            key = (plan.pair, plan.koi_at, plan.feature_at)
            if key not in seen:
                seen.add(key)
                heads.append(plan)
            if len(heads) == HARD_PLANS:
                break
        greedy = Policy("easy", 0)
        normal = Policy("normal", 0, self.weights)
        samples = [rng.getrandbits(64) for _ in range(HARD_SAMPLES)]
        rescored = []
        for plan in heads:
            total = 0.0
            for sample in samples:
                trial = game.determinized(seat, sample)
                _play_whole(trial, seat, plan)
                sub = random.Random(sample)
                others = 0
                while not trial.is_over and trial.current != seat:
                    opponent = trial.current
                    before = total_score(trial.ponds[opponent])
                    _play_whole(trial, opponent, greedy._pick(greedy.plans(trial, opponent, list(BOARD_PAIRS)), sub))
                    others += total_score(trial.ponds[opponent]) - before
                if not trial.is_over:
                    _play_whole(trial, seat, normal._pick(normal.plans(trial, seat, list(BOARD_PAIRS)), sub))
                pond = trial.ponds[seat]
                left = _turns_left(trial, seat) if not trial.is_over else 0
                total += total_score(pond) + _weight(left, self.weights) * promise(pond, self.weights) - others
            rescored.append(Plan(plan.pair, plan.koi_at, plan.feature_at, total / len(samples)))
        rescored.sort(key=lambda p: -p.value)
        floor = rescored[-1].value - 1.0
        return rescored + [
            Plan(p.pair, p.koi_at, p.feature_at, floor - i)
            for i, p in enumerate(ranked)
            if (p.pair, p.koi_at, p.feature_at) not in seen
        ]


# Chosen by measuring against `normal` (bench/kohaku_bench.py): 6 plans x 6 samples was no stronger than
# `normal`; fewer plans on more sampled refills are.
HARD_PLANS = 4
HARD_SAMPLES = 12


def _play_plan(game: Match, seat: int, plan: Plan) -> None:
    """Place the hand as `plan` says (after the pair was taken), koi first when it touches the pond."""
    while game.phase == "place" and game.current == seat and game.hand:
        if game._kind() == ZONE:
            target = plan.koi_at if plan.koi_at in game.frontier[seat] else plan.feature_at
            groups = zones(game._candidates())
            game.apply(seat, f"z:{next(i for i, g in enumerate(groups) if target in g)}")
            continue
        legal = game.legal_actions(seat)
        for c in (plan.koi_at, plan.feature_at):
            if place_id(c) in legal:
                game.apply(seat, place_id(c))
                break
        else:
            raise RuntimeError("a plan's cell is not legal")


def _play_whole(game: Match, seat: int, plan: Plan) -> None:
    game.apply(seat, f"t:{plan.pair[0] + 1}-{plan.pair[1] + 1}")
    _play_plan(game, seat, plan)


def policy(level: str, *, seed: int = 0) -> Policy:
    """A computer player of `level` (`easy`, `normal` or `hard`) with its own seed."""
    return Policy(level, seed)


__all__ = ["LEVELS", "Hint", "Plan", "Policy", "Weights", "policy"]

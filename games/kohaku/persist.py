"""Loading a saved Kōhaku match: every field checked, so that bad input fails with a message, never a broken match."""

from __future__ import annotations

import json
from typing import Any

from . import rng
from .data import FEATURES, GOALS, IS_KOI, N_SPACES, RULES_VERSIONS, TILE_BY_ID, TILES, koi_in_box
from .rules import _PHASES, GOALS_PHASE, OVER, PLACE_PHASE, TAKE_PHASE, Match
from .scoring import STEPS, Pond, cell, koi_cell

_EMPTY = -1
_KEYS = {
    "format",
    "rules",
    "seats",
    "goals",
    "seed",
    "counter",
    "koi_stack",
    "feature_stack",
    "box",
    "board",
    "ponds",
    "turns",
    "turn_no",
    "current",
    "phase",
    "hand",
    "placed",
    "zone",
    "goal_hands",
    "goal_kept",
    "goal_box",
    "danny",
    "end_reason",
    "version",
}
_REASONS = (None, "koi_stack_empty", "feature_stack_empty")


class _Bad(Exception):
    pass


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise _Bad(message)


def _int(value: Any, name: str, low: int | None = None, high: int | None = None) -> int:
    _need(isinstance(value, int) and not isinstance(value, bool), f"{name} must be an integer")
    _need(low is None or value >= low, f"{name} must be at least {low}")
    _need(high is None or value <= high, f"{name} must be at most {high}")
    return int(value)


def _list(value: Any, name: str, length: int | None = None) -> list[Any]:
    _need(isinstance(value, list), f"{name} must be a list")
    _need(length is None or len(value) == length, f"{name} must have {length} entries")
    return list(value)


class _Tiles:
    """Maps tile ids to indices and checks that every tile is in one place at most."""

    def __init__(self) -> None:
        self.seen: set[int] = set()

    def one(self, value: Any, name: str) -> int:
        _need(isinstance(value, str) and value in TILE_BY_ID, f"{name}: unknown tile {value!r}")
        tile = TILE_BY_ID[str(value)]
        _need(tile not in self.seen, f"{name}: tile {value} is in two places")
        self.seen.add(tile)
        return tile

    def many(self, value: Any, name: str) -> list[int]:
        return [self.one(v, f"{name}[{i}]") for i, v in enumerate(_list(value, name))]


def _goal(value: Any, name: str) -> int:
    _need(isinstance(value, str) and value in GOALS, f"{name}: unknown goal card {value!r}")
    return GOALS.index(str(value))


def _pond(value: Any, name: str, tiles: _Tiles) -> Pond:
    pond: Pond = {}
    for i, item in enumerate(_list(value, name)):
        entry = _list(item, f"{name}[{i}]", 3)
        x = _int(entry[0], f"{name}[{i}].x", -100, 100)
        y = _int(entry[1], f"{name}[{i}].y", -100, 100)
        c = cell(x, y)
        _need(c not in pond, f"{name}: two tiles at ({x}, {y})")
        tile = tiles.one(entry[2], f"{name}[{i}]")
        _need(IS_KOI[tile] == koi_cell(c), f"{name}: {TILES[tile].id} at ({x}, {y}) breaks the alternation")
        pond[c] = tile
    if pond:
        # Every pond grows from its first tile, so it is connected.
        start = next(iter(pond))
        reached, todo = {start}, [start]
        while todo:
            c = todo.pop()
            for step in STEPS:
                if c + step in pond and c + step not in reached:
                    reached.add(c + step)
                    todo.append(c + step)
        _need(len(reached) == len(pond), f"{name}: the pond is not in one piece")
    return pond


def load_match(text: str) -> Match:
    """Rebuild a match saved by `Match.to_json`; malformed or inconsistent input raises ValueError saying why."""
    try:
        data = json.loads(text)
    except (TypeError, json.JSONDecodeError) as err:
        raise ValueError(f"not a saved match: {err}") from None
    try:
        return _load(data)
    except _Bad as err:
        raise ValueError(f"bad saved match: {err}") from None


def _load(data: Any) -> Match:
    _need(isinstance(data, dict), "the state must be an object")
    _need(set(data) == _KEYS, f"the state must have exactly the keys {sorted(_KEYS)}")
    _need(data["format"] == 1, "unknown format")
    rules = _int(data["rules"], "rules")
    _need(rules in RULES_VERSIONS, f"unknown rules version {rules}")
    seats = _int(data["seats"], "seats", 1, 4)
    goals = data["goals"]
    _need(isinstance(goals, bool) and not (goals and seats == 1), "goals must be a boolean (false in solo)")
    seed = _int(data["seed"], "seed")
    m = Match._blank(seats, seed, goals, rules)
    m.counter = _int(data["counter"], "counter", 0)
    tiles = _Tiles()
    m.koi_stack = tiles.many(data["koi_stack"], "koi_stack")
    m.feature_stack = tiles.many(data["feature_stack"], "feature_stack")
    m.box = tiles.many(data["box"], "box")
    _need(all(IS_KOI[t] for t in m.koi_stack + m.box), "the koi stack and the box hold koi tiles only")
    _need(not any(IS_KOI[t] for t in m.feature_stack), "the feature stack holds feature tiles only")
    _need(m.koi_stack == sorted(m.koi_stack) and m.feature_stack == sorted(m.feature_stack), "stacks are sorted")
    _need(m.box == sorted(m.box), "the box is sorted")
    board = _list(data["board"], "board", N_SPACES)
    m.board = [_EMPTY if v is None else tiles.one(v, f"board[{i}]") for i, v in enumerate(board)]
    from .data import KOI_SPACE

    for s, t in enumerate(m.board):
        _need(t == _EMPTY or IS_KOI[t] == KOI_SPACE[s], f"board[{s}] holds the wrong kind of tile")
    m.ponds = [_pond(p, f"ponds[{i}]", tiles) for i, p in enumerate(_list(data["ponds"], "ponds", seats))]
    m.frontier = []
    for pond in m.ponds:
        m.frontier.append({c + step for c in pond for step in STEPS if c + step not in pond})
    m.hand = tiles.many(data["hand"], "hand")
    _need(len(m.hand) <= 2 and len({IS_KOI[t] for t in m.hand}) == len(m.hand), "a hand is one koi and one feature")
    m.danny = tiles.many(data["danny"], "danny")
    _need(seats == 1 or not m.danny, "Danny plays solo games only")
    eligible = set(koi_in_box(seats, rules)) | set(FEATURES)
    _need(tiles.seen == eligible, "the tiles in play are not those the number of players uses")
    m.turns = [_int(v, f"turns[{i}]", 0) for i, v in enumerate(_list(data["turns"], "turns", seats))]
    m.turn_no = _int(data["turn_no"], "turn_no", 0)
    m.current = _int(data["current"], "current", 0, seats - 1)
    phase = data["phase"]
    _need(phase in _PHASES, f"unknown phase {phase!r}")
    m.phase = str(phase)
    placed = _list(data["placed"], "placed")
    m.placed = []
    for i, v in enumerate(placed):
        pair = _list(v, f"placed[{i}]", 2)
        c = cell(_int(pair[0], f"placed[{i}].x", -100, 100), _int(pair[1], f"placed[{i}].y", -100, 100))
        _need(c in m.ponds[m.current], f"placed[{i}] is not a tile of the current pond")
        m.placed.append(c)
    m.zone = _int(data["zone"], "zone", -1, 9)
    _need((m.phase == PLACE_PHASE) == bool(m.hand), "tiles are in hand exactly while placing")
    _need(m.phase == PLACE_PHASE or (m.zone == _EMPTY and not m.placed), "nothing is being placed")
    _need(m.phase not in (TAKE_PHASE, GOALS_PHASE) or _EMPTY not in m.board, "the board is full between turns")
    if goals:
        hands = _list(data["goal_hands"], "goal_hands", seats)
        m.goal_hands = [
            [_goal(g, f"goal_hands[{s}]") for g in _list(h, f"goal_hands[{s}]", 2)] for s, h in enumerate(hands)
        ]
        kept = _list(data["goal_kept"], "goal_kept", seats)
        m.goal_kept = [_EMPTY if g is None else _goal(g, f"goal_kept[{s}]") for s, g in enumerate(kept)]
        for s in range(seats):
            _need(m.goal_kept[s] == _EMPTY or m.goal_kept[s] in m.goal_hands[s], f"seat {s} kept a card not dealt")
        m.goal_box = [_goal(g, "goal_box") for g in _list(data["goal_box"], "goal_box")]
        every = [g for h in m.goal_hands for g in h] + m.goal_box
        _need(sorted(every) == list(range(len(GOALS))), "every goal card is dealt or in the box, once")
        _need((m.phase == GOALS_PHASE) == (_EMPTY in m.goal_kept), "goal cards are chosen before the first turn")
    else:
        _need(data["goal_hands"] == [] and data["goal_kept"] == [] and data["goal_box"] == [], "no goal cards")
        _need(m.phase != GOALS_PHASE, "no goal cards to choose")
    reason = data["end_reason"]
    _need(reason in _REASONS and (reason is None) == (m.phase != OVER), "end_reason is set exactly when over")
    m.end_reason = reason if reason is None else str(reason)
    m.version = _int(data["version"], "version", 0)
    m._key = rng.key(seed)
    return m

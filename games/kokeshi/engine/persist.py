"""Loading a saved game: every field checked, so that bad input fails with a message, never a broken game."""

from __future__ import annotations

import json
from typing import Any

from .data import (
    ANIMALS,
    BONUS_SLOTS,
    HEIGHTS,
    MAX_POSITION,
    N_TRACKS,
    OFFER_SIZE,
    QUALITY_LEVELS,
    QUALITY_TILE,
    RULES_VERSIONS,
    SIDES,
    TILE_BY_ID,
    TILES,
)
from .game import AUTOMA, FORMAT, PROMPT_KINDS, Game

_EMPTY = -1


class _Bad(Exception):
    pass


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise _Bad(message)


def _int(value: Any, name: str, low: int | None = None, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _Bad(f"{name} must be an integer")
    _need(low is None or value >= low, f"{name} must be at least {low}")
    _need(high is None or value <= high, f"{name} must be at most {high}")
    return value


def _list(value: Any, name: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise _Bad(f"{name} must be a list")
    _need(length is None or len(value) == length, f"{name} must have {length} entries")
    return value


def _ints(value: Any, name: str, length: int, low: int, high: int) -> list[int]:
    return [_int(v, f"{name}[{i}]", low, high) for i, v in enumerate(_list(value, name, length))]


class _Tiles:
    """Maps tile ids to indices and checks that every tile is somewhere exactly once."""

    def __init__(self) -> None:
        self.seen: set[int] = set()

    def one(self, value: Any, where: str) -> int:
        _need(isinstance(value, str) and value in TILE_BY_ID, f"{where}: unknown tile {value!r}")
        index = TILE_BY_ID[value]
        _need(index not in self.seen, f"{where}: tile {value} appears twice")
        self.seen.add(index)
        return index

    def maybe(self, value: Any, where: str) -> int:
        return _EMPTY if value is None else self.one(value, where)

    def many(self, value: Any, where: str) -> list[int]:
        return [self.one(v, where) for v in _list(value, where)]


def load_game(text: str) -> Game:
    """Rebuild a game saved by `Game.to_json`; malformed input raises ValueError saying what is wrong."""
    try:
        data = json.loads(text)
    except (TypeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not a saved Kokeshi game: invalid JSON ({exc})") from None
    try:
        return _load(data)
    except _Bad as exc:
        raise ValueError(f"not a valid saved Kokeshi game: {exc}") from None
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        # A shape the checks above did not foresee: still a clear ValueError, never a half-built game.
        raise ValueError(f"not a valid saved Kokeshi game: {type(exc).__name__}: {exc}") from None


def _load(data: Any) -> Game:
    _need(isinstance(data, dict), "the top level must be an object")
    _need(data.get("format") == FORMAT, f"format must be {FORMAT}")
    # Rules version 1 saves have no "rules" key (their form predates it); later versions always have one.
    rules = data.get("rules", 1)
    _need(
        type(rules) is int and rules in RULES_VERSIONS and ("rules" in data) == (rules != 1),
        f"rules must be one of {', '.join(map(str, RULES_VERSIONS[1:]))}, or absent for version 1",
    )
    side = data.get("side")
    _need(side in SIDES, f"side must be one of {', '.join(SIDES)}")
    solo = data.get("solo")
    _need(isinstance(solo, bool), "solo must be true or false")
    seating = _list(data.get("seating"), "seating")
    _need(all(isinstance(n, str) and n for n in seating), "seating must hold player names")
    names = _list(data.get("players"), "players")
    _need(all(isinstance(n, str) and n for n in names), "players must hold names")
    if solo:
        _need(
            len(seating) == 1 and names == [seating[0], AUTOMA],
            "a solo game seats one player and the automa",
        )
    else:
        _need(
            2 <= len(names) <= 4 and sorted(names) == sorted(seating),
            "players must be the seated names",
        )
    n = len(names)
    g = Game._blank(seating, _int(data.get("seed"), "seed"), side, solo, rules)
    if rules in (2, 3):
        bought = data.get("bought")
        _need(isinstance(bought, bool), "bought must be true or false")
        g.bought = bought
        g.idle = _int(data.get("idle"), "idle", 0, 10**6)
    else:
        _need("idle" not in data and "bought" not in data, f"a rules version {rules} save has no table idle count")
    g._set_seats(list(names))
    g.humans = 1 if solo else n
    if rules >= 4:
        g.idles = _ints(data.get("idles"), "idles", n, 0, 10**6)
        _need(not solo or g.idles[1] == 0, "the automa has no idle turns")
        g.marks = _int(data.get("marks"), "marks", 0, 7)
    else:
        _need("idles" not in data and "marks" not in data, f"a rules version {rules} save has no idle turns per seat")
    g.counter = _int(data.get("counter"), "counter", 0)
    g.stamp = _int(data.get("stamp"), "stamp", 0)
    g.version = _int(data.get("version"), "version", 0)
    g.round = _int(data.get("round"), "round", 0)
    g.current = _int(data.get("current"), "current", 0, g.humans - 1)
    g.final_round = _int(data.get("final_round"), "final_round", 0)
    g.end_reason = data.get("end_reason")
    _need(
        g.end_reason in (None, "recognitions", "bag", "stall"),
        "end_reason must be null, recognitions, bag or stall",
    )
    over = data.get("over")
    _need(isinstance(over, bool), "over must be true or false")
    g.over = over

    tiles = _Tiles()
    tracks = _list(data.get("tracks"), "tracks", n)
    for p in range(n):
        for k, track in enumerate(_list(tracks[p], f"tracks[{p}]", N_TRACKS)):
            placed = tiles.many(track, f"tracks[{p}][{k}]")
            _need(len(placed) <= HEIGHTS, f"tracks[{p}][{k}] holds more than {HEIGHTS} tiles")
            g.tracks[p][k] = placed
    g.kokeshi = [
        _ints(v, f"kokeshi[{p}]", N_TRACKS, 0, HEIGHTS) for p, v in enumerate(_list(data.get("kokeshi"), "kokeshi", n))
    ]
    g.discs = [
        _ints(v, f"discs[{p}]", len(ANIMALS), 0, MAX_POSITION)
        for p, v in enumerate(_list(data.get("discs"), "discs", n))
    ]
    g.arrived = [
        _ints(v, f"arrived[{p}]", len(ANIMALS), 0, g.stamp)
        for p, v in enumerate(_list(data.get("arrived"), "arrived", n))
    ]
    g.in_play = _ints(data.get("in_play"), "in_play", n, 0, 10**6)
    g.recognitions = _ints(data.get("recognitions"), "recognitions", n, 0, 64)
    g.turns = _ints(data.get("turns"), "turns", n, 0, 10**6)
    reserves = _list(data.get("reserve"), "reserve", n)
    for p in range(n):
        for entry in _list(reserves[p], f"reserve[{p}]"):
            _need(
                isinstance(entry, list) and len(entry) == 2,
                f"reserve[{p}] entries are [tile, track]",
            )
            tile = tiles.one(entry[0], f"reserve[{p}]")
            g.reserve[p].append((tile, _int(entry[1], f"reserve[{p}] track", -1, N_TRACKS - 1)))
    g.offer = [tiles.maybe(v, "offer") for v in _list(data.get("offer"), "offer", OFFER_SIZE)]
    g.bag = tiles.many(data.get("bag"), "bag")
    _need(g.bag == sorted(g.bag), "the bag must be kept sorted")
    g.slots = [tiles.maybe(v, "slots") for v in _list(data.get("slots"), "slots", len(BONUS_SLOTS))]
    g.discard = tiles.many(data.get("discard"), "discard")
    supply = _list(data.get("quality_supply"), "quality_supply", N_TRACKS)
    g.quality_supply = []
    for k in range(N_TRACKS):
        levels = [_int(v, f"quality_supply[{k}]", 1, len(QUALITY_LEVELS)) for v in _list(supply[k], "quality_supply")]
        for level in levels:
            tiles.one(TILES[QUALITY_TILE[k][level - 1]].id, f"quality_supply[{k}]")
        g.quality_supply.append(levels)
    g.quality_taken = _ints(data.get("quality_taken"), "quality_taken", N_TRACKS, 0, n)
    missing = [t.id for t in TILES if t.index not in tiles.seen]
    _need(not missing, f"tiles missing: {', '.join(missing[:5])}")

    g.queue = []
    for item in _list(data.get("queue"), "queue"):
        _need(
            isinstance(item, list) and bool(item) and item[0] in ("res", "atom"),
            f"bad queue item {item!r}",
        )
        if item[0] == "res":
            _need(len(item) == 2, f"bad queue item {item!r}")
            g.queue.append(["res", _int(item[1], "queue kokeshi", 0, N_TRACKS - 1)])
        else:
            _need(len(item) == 4, f"bad queue item {item!r}")
            g.queue.append(
                [
                    "atom",
                    _int(item[1], "queue op", 0, 8),
                    _int(item[2], "queue arg", 0, 4),
                    _int(item[3], "queue track", 0, N_TRACKS - 1),
                ]
            )

    decision = data.get("decision")
    if over:
        _need(decision is None, "a finished game has no decision")
        g.decision = None
        return g
    _need(
        isinstance(decision, list) and bool(decision) and decision[0] in PROMPT_KINDS,
        "decision is missing or unknown",
    )
    kind = decision[0]
    if kind == "effect":
        _need(len(decision) == 3 and isinstance(decision[1], str) and decision[1] in TILE_BY_ID, "bad effect decision")
        decision = [
            "effect",
            TILE_BY_ID[decision[1]],
            _int(decision[2], "decision track", 0, N_TRACKS - 1),
        ]
    elif kind == "kokeshi":
        _need(len(decision) == 3, "bad kokeshi decision")
        decision = [
            "kokeshi",
            _int(decision[1], "decision op", 0, 8),
            _int(decision[2], "decision track", 0, N_TRACKS - 1),
        ]
    elif kind == "buy":
        _need(len(decision) == 4, "bad buy decision")
        decision = [
            "buy",
            _int(decision[1], "buy target", -1, N_TRACKS - 1),
            _int(decision[2], "buy track", 0, N_TRACKS - 1),
            _int(decision[3], "buy quality flag", 0, 1 if rules == 1 else HEIGHTS),
        ]
    else:
        _need(len(decision) == 1, f"bad {kind} decision")
        decision = [kind]
    options = g._compute_options(decision)
    _need(len(options) > 1, f"the saved {kind} decision has no real choice")
    g.decision = decision
    g._options = options
    return g

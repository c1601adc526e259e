"""The Kokeshi rules: game state, the decision dispatcher and the cascade queue.

A game is (rules version, options, seed, actions). `apply` is the only way to change it. Pending work lives in a
data-only queue: sub-steps of the active tile go to its front, the activation of a newly reached space to its back,
which is the rulebook's cascade discipline (a tile finishes all its effects before the tile reached through it acts).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from . import rng
from .data import (
    ADJACENCY_PENALTY,
    ADV,
    ANIMAL,
    ANIMAL_ANY,
    ANIMAL_POINTS,
    ANIMALS,
    ANY,
    ANY2,
    BONUS_FILL,
    BONUS_SLOTS,
    BUY_ANY,
    BUY_HERE,
    COLORS,
    CURRENT_RULES,
    END_RECOGNITIONS,
    HEIGHTS,
    IDLE_LIMIT,
    IDLE_ROUNDS,
    IDLE_TURNS,
    IS_QUALITY,
    KOKESHI,
    LEAD_BONUS,
    LEFT,
    LEVEL_THRESHOLDS,
    MAX_POSITION,
    N_TRACKS,
    NORMAL_TILES,
    OFFER_SIZE,
    QUALITY_LEVELS,
    QUALITY_POINTS,
    QUALITY_TILE,
    RED_LINE,
    RIGHT,
    RULES_VERSIONS,
    SIDES,
    SLOTS_AT,
    SOLO_QUALITY_LEVELS,
    STARTING_PER_PLAYER,
    STARTING_TILES,
    TILE_ANIMAL,
    TILE_COLOR,
    TILE_LEVEL,
    TILES,
    TILESETS,
    TOP_POINTS,
    TRACK_SCORE,
    TileSpec,
    tile_view,
)
from .model import Event, IllegalAction, Option, Prompt, Score
from .options import ADVANCE, ANIMAL_CHOICE, EFFECT, EFFECT_VOID, KOKESHI_CHOICE, MARKETS, PLACES, QUALITY, said
from .views import idle_warning

AUTOMA = "automa"
FORMAT = 1
_EMPTY = -1
_SIDE = -1  # reserve target of a tile that may go on any track
# What the current turn did, for the idle-turn end of rules 4: took a tile from the offer, gained a recognition,
# passed the top.
MARK_OFFER, MARK_RECOGNITION, MARK_TOP = 1, 2, 4

# Prompt kinds.
SETUP, ADVANCE_KIND, EFFECT_KIND, KOKESHI_KIND, ANIMAL_KIND, BUY_KIND, PLACE_KIND = (
    "setup",
    "advance",
    "effect",
    "kokeshi",
    "animal",
    "buy",
    "place",
)
# Every kind of decision a prompt may ask, in the order of the engine's README.
PROMPT_KINDS = (SETUP, ADVANCE_KIND, EFFECT_KIND, KOKESHI_KIND, ANIMAL_KIND, BUY_KIND, PLACE_KIND)


def _track_points(height: int) -> int:
    for need, points in TRACK_SCORE:
        if height >= need:
            return points
    return 0


class Game:
    """One game of Kokeshi. Build it with `new_game`, `replay` or `load_game`."""

    # The state, each field declared once. `__slots__` is these names; `clone` copies each as its type says: a list
    # nested n deep is copied n levels down, anything else is immutable and shared. `to_json` stores every field
    # but those derived from others (`tiles`, `key`, `humans`, `stall_limit`, `_options`); a test holds it to that.
    rules: int
    tiles: tuple[TileSpec, ...]  # the tiles of this rules version
    key: bytes  # the draw generator's key, derived from the seed (rules 2 on)
    idle: int
    idles: list[int]
    marks: int
    stall_limit: int | None
    bought: bool
    seating: list[str]  # the players as they sat down
    names: list[str]  # the seats in turn order, the automa last in solo
    seed: int
    side: str
    solo: bool
    humans: int
    tracks: list[list[list[int]]]  # [seat][kokeshi] -> tile indices, bottom first
    kokeshi: list[list[int]]  # [seat][kokeshi] -> height, 0 at home
    discs: list[list[int]]  # [seat][animal] -> position
    arrived: list[list[int]]  # [seat][animal] -> `stamp` when the disc got there
    in_play: list[int]
    recognitions: list[int]
    reserve: list[list[tuple[int, int]]]  # [seat] -> (tile, track or _SIDE) waiting to be placed
    turns: list[int]
    offer: list[int]  # tile or _EMPTY per slot
    bag: list[int]  # kept sorted
    quality_supply: list[list[int]]  # [kokeshi] -> levels left
    quality_taken: list[int]
    slots: list[int]  # bonus slot -> tile or _EMPTY
    discard: list[int]
    current: int
    round: int
    end_reason: str | None
    final_round: int
    over: bool
    counter: int  # draws made
    stamp: int
    version: int  # actions applied
    queue: list[list[Any]]  # pending work: ["res", kokeshi] or ["atom", op, arg, track]
    decision: list[Any] | None  # [kind, *arguments] of the open decision
    _options: tuple[Option, ...]  # its options, derived from it
    __slots__ = tuple(__annotations__)

    # ------------------------------------------------------------------ construction

    @classmethod
    def _blank(cls, seating: Sequence[str], seed: int, side: str, solo: bool, rules: int = 1) -> Game:
        g = cls.__new__(cls)
        g.rules = rules
        g.tiles = TILESETS[rules]
        # The table's idle count: rules 2, +1 per turn without a purchase and -1 per turn with one; rules 3, +1 per
        # turn that takes no tile from the offer, never down.
        g.idle = 0
        g.bought = False  # the current player bought a tile this turn (rules 3: a tile from the offer)
        # Rules 4 on: each seat's idle turns, what the current turn did (MARK_* bits) and the limit per player.
        g.idles = []
        g.marks = 0
        g.stall_limit = IDLE_LIMIT if rules >= 4 else None
        g.seating = list(seating)
        g.reseed(seed)
        g.side = side
        g.solo = solo
        g.names = []
        g.humans = 0
        g.tracks = []
        g.kokeshi = []
        g.discs = []
        g.arrived = []
        g.in_play = []
        g.recognitions = []
        g.reserve = []
        g.turns = []
        g.offer = [_EMPTY] * OFFER_SIZE
        g.bag = []
        g.quality_supply = [list(QUALITY_LEVELS) for _ in range(N_TRACKS)]
        g.quality_taken = [0] * N_TRACKS
        g.slots = [_EMPTY] * len(BONUS_SLOTS)
        g.discard = []
        g.current = 0
        g.round = 0
        g.end_reason = None
        g.final_round = 0
        g.over = False
        g.counter = 0
        g.stamp = 0
        g.version = 0
        g.queue = []
        g.decision = None
        g._options = ()
        return g

    def _set_seats(self, names: list[str]) -> None:
        n = len(names)
        self.names = names
        self.tracks = [[[] for _ in range(N_TRACKS)] for _ in range(n)]
        self.kokeshi = [[0] * N_TRACKS for _ in range(n)]
        self.discs = [[0] * len(ANIMALS) for _ in range(n)]
        self.arrived = [[0] * len(ANIMALS) for _ in range(n)]
        self.in_play = [0] * n
        self.recognitions = [0] * n
        self.reserve = [[] for _ in range(n)]
        self.turns = [0] * n
        self.idles = [0] * n

    def _rand(self, n: int) -> int:
        if self.rules == 1:
            value = rng.draw(self.seed, self.counter, n)
        else:
            value = rng.draw_keyed(self.key, self.counter, n)
        self.counter += 1
        return value

    def _take(self, pool: list[int]) -> int:
        return pool.pop(self._rand(len(pool)))

    # ------------------------------------------------------------------ public API

    @property
    def prompt(self) -> Prompt | None:
        """The decision the game waits for, or None once it is over."""
        if self.decision is None:
            return None
        return Prompt(self.names[self.current], self.decision[0], self._options)

    def legal_actions(self) -> list[str]:
        """The ids of the prompt's options (empty once the game is over)."""
        return [o.id for o in self._options]

    @property
    def is_over(self) -> bool:
        """True once the final round has been played."""
        return self.over

    @property
    def players(self) -> list[str]:
        """Every seat in turn order (the automa last in solo games)."""
        return list(self.names)

    @property
    def round_number(self) -> int:
        """0 during setup, then 1, 2, … for each round of turns."""
        return self.round

    def apply(self, player: str, action: str) -> list[Event]:
        """Carry out one decision of `player`; returns the events it caused, automatic steps included."""
        legal = [o.id for o in self._options]
        if player not in self.names:
            raise IllegalAction("unknown_player", legal, player=player)
        if self.over:
            raise IllegalAction("game_over", [])
        current = self.names[self.current]
        if player != current:
            raise IllegalAction("not_your_turn", legal, player=player, current=current)
        for option in self._options:
            if option.id == action:
                break
        else:
            raise IllegalAction("illegal", legal, action=action)
        events: list[Event] = []
        decision = self.decision
        assert decision is not None  # an option was found, so a decision is open
        self.version += 1
        self.decision = None
        self._options = ()
        self._choose(option, decision, events)
        self._run(events)
        return events

    # ------------------------------------------------------------------ dispatcher

    def _ev(self, events: list[Event], kind: str, seat: int, reveals: bool = False, **data: Any) -> None:
        events.append(Event(kind, self.names[seat], data, reveals))

    def _run(self, events: list[Event]) -> None:
        """Run queued work until a decision with several options is needed or the game ends."""
        queue = self.queue
        while True:
            if queue:
                item = queue.pop(0)
                if item[0] == "res":
                    self._resolve(item[1], events)
                else:
                    self._atom(item[1], item[2], item[3], events)
                if self.decision is not None:
                    return
                continue
            if self.reserve[self.current]:
                self._drop_unplaceable(events)
                if self.reserve[self.current] and self._ask([SETUP if self.round == 0 else PLACE_KIND], events):
                    return
                continue
            self._end_turn(events)
            if self.over:
                return
            if self.round == 0:
                continue  # the next player's setup
            self._ask([ADVANCE_KIND], events)
            return

    def _ask(self, decision: list[Any], events: list[Event]) -> bool:
        """Open a decision. Returns True when the player must answer; answers a forced one at once."""
        options = self._compute_options(decision)
        if len(options) > 1:
            self.decision = decision
            self._options = options
            return True
        if options:
            self._ev(events, "auto_choice", self.current, choice=options[0].id, words=options[0].words)
            self._choose(options[0], decision, events)
        elif decision[0] in (PLACE_KIND, SETUP):
            # Unreachable by the purchase rules; discarding keeps the turn from stalling if that ever changes.
            for tile, _ in self.reserve[self.current]:
                self.discard.append(tile)
                self._ev(events, "tile_discarded", self.current, tile=TILES[tile].id, reason="no_legal_space")
            self.reserve[self.current].clear()
        else:
            self._ev(events, "effect_skipped", self.current, **self._skip_reason(decision))
        return False

    def _skip_reason(self, decision: list[Any]) -> dict[str, Any]:
        """Why a decision has no option: a `reason` code and the values it names."""
        kind = decision[0]
        if kind == BUY_KIND:
            if all(t == _EMPTY for t in self.offer):
                return {"reason": "offer_empty"}
            if decision[1] == _SIDE:
                return {"reason": "every_track_full"}
            return {"reason": "track_full", "kokeshi": KOKESHI[decision[1]]}
        if kind == ANIMAL_KIND:
            return {"reason": "every_disc_at_end"}
        if kind == KOKESHI_KIND:
            return {"reason": "no_track_on_side"}
        return {"reason": "nothing_to_do"}

    def _compute_options(self, decision: list[Any]) -> tuple[Option, ...]:
        kind = decision[0]
        p = self.current
        if kind == ADVANCE_KIND:
            return ADVANCE
        if kind == EFFECT_KIND:
            tile, track = decision[1], decision[2]
            atoms = self.tiles[tile].atoms
            if self.rules == 1:
                return tuple(EFFECT[(side, atom)] for side, atom in enumerate(atoms) if not self._void(atom, track))
            # "resolva apenas 1 de seus efeitos à sua escolha": a side that does nothing may still be chosen.
            return tuple(
                (EFFECT_VOID if self._void(atom, track) else EFFECT)[(side, atom)] for side, atom in enumerate(atoms)
            )
        if kind == KOKESHI_KIND:
            op, track = decision[1], decision[2]
            if op == LEFT:
                ks = range(track)
            elif op == RIGHT:
                ks = range(track + 1, N_TRACKS)
            else:
                ks = range(N_TRACKS)
            row = KOKESHI_CHOICE[1 if op == ANY2 else 0]
            return tuple(row[k] for k in ks)
        if kind == ANIMAL_KIND:
            discs = self.discs[p]
            return tuple(ANIMAL_CHOICE[a] for a in range(len(ANIMALS)) if discs[a] < MAX_POSITION)
        if kind == BUY_KIND:
            return self._buy_options(decision[1], decision[3])
        if kind == PLACE_KIND:
            return self._place_options()
        if kind == SETUP:
            used = [k for k in range(N_TRACKS) if self.tracks[p][k]]
            place = PLACES[self.rules]
            return tuple(place[tile][k] for tile, _ in self.reserve[p] for k in range(N_TRACKS) if k not in used)
        raise ValueError(f"unknown decision {decision!r}")

    def _room(self, p: int, track: int) -> int:
        """Free spaces of a track, counting the tiles already reserved for it this turn."""
        used = len(self.tracks[p][track])
        for _, t in self.reserve[p]:
            if t == track:
                used += 1
        return HEIGHTS - used

    def _void(self, atom: tuple[int, int], track: int) -> bool:
        op, arg = atom
        if op == LEFT:
            return track == 0
        if op == RIGHT:
            return track == N_TRACKS - 1
        if op == ANIMAL_ANY:
            return all(d >= MAX_POSITION for d in self.discs[self.current])
        if op == ANIMAL:
            return self.discs[self.current][arg] >= MAX_POSITION
        if op == BUY_ANY:
            return all(t == _EMPTY for t in self.offer) or (self.rules >= 2 and self._side_room(self.current) <= 0)
        if op == BUY_HERE:
            return all(t == _EMPTY for t in self.offer) or self._room(self.current, track) <= 0
        return False

    def _buy_options(self, target: int, quality_allowed: int) -> tuple[Option, ...]:
        """Purchase options. `quality_allowed`: 0 for none; else (rules 1) 1, or (rules 2 on) the height of the
        empty space the kokeshi landed on."""
        p = self.current
        if target != _SIDE and self._room(p, target) <= 0:
            return ()
        if target == _SIDE and self.rules >= 2 and self._side_room(p) <= 0:
            return ()  # "ignore esse efeito e não compre"
        market = MARKETS[self.rules]
        options = [market[slot][tile] for slot, tile in enumerate(self.offer) if tile != _EMPTY]
        if quality_allowed and not self._has_quality(p, target):
            # Where the tile lands if placed after the tiles already reserved for this track this turn.
            lowest = HEIGHTS - self._room(p, target) + 1
            if self.rules >= 2:
                # "se estiver no nível mínimo exigido": the height of the empty space reached decides; the tile
                # must still go at or above its threshold once the track's reserved tiles are placed.
                lowest = min(lowest, quality_allowed)
            allowed = SOLO_QUALITY_LEVELS if self.solo else QUALITY_LEVELS
            for level in self.quality_supply[target]:
                if level in allowed and LEVEL_THRESHOLDS[level - 1] <= lowest:
                    options.append(QUALITY[target][level - 1])
        return tuple(options)

    def _has_quality(self, p: int, track: int) -> bool:
        if any(IS_QUALITY[t] for t in self.tracks[p][track]):
            return True
        return any(IS_QUALITY[t] and k == track for t, k in self.reserve[p])

    def _side_tracks(self, p: int) -> list[int]:
        """Tracks a side-reserve tile may go on: those with room once their own reserved tiles are placed."""
        pending = [len(t) for t in self.tracks[p]]
        for _, k in self.reserve[p]:
            if k != _SIDE:
                pending[k] += 1
        return [k for k in range(N_TRACKS) if pending[k] < HEIGHTS]

    def _side_room(self, p: int) -> int:
        """Spaces left for side-reserve tiles: free spaces after every reserved tile is placed."""
        pending = [len(t) for t in self.tracks[p]]
        for _, k in self.reserve[p]:
            if k != _SIDE:
                pending[k] += 1
        sides = sum(1 for _, k in self.reserve[p] if k == _SIDE)
        return sum(max(0, HEIGHTS - n) for n in pending) - sides

    def _place_options(self) -> tuple[Option, ...]:
        p = self.current
        side_tracks = self._side_tracks(p)
        place = PLACES[self.rules]
        options: list[Option] = []
        for tile, k in self.reserve[p]:
            if k == _SIDE:
                options.extend(place[tile][t] for t in side_tracks)
            elif not IS_QUALITY[tile] or len(self.tracks[p][k]) + 1 >= LEVEL_THRESHOLDS[TILE_LEVEL[tile] - 1]:
                options.append(place[tile][k])
        return tuple(options)

    def _drop_unplaceable(self, events: list[Event]) -> None:
        """A side-reserve tile that fits on no track is discarded."""
        p = self.current
        if self.round == 0 or self._side_tracks(p):
            return
        for entry in [e for e in self.reserve[p] if e[1] == _SIDE]:
            self.reserve[p].remove(entry)
            self.discard.append(entry[0])
            self._ev(events, "tile_discarded", p, tile=TILES[entry[0]].id, reason="no_room")

    # ------------------------------------------------------------------ answering decisions

    def _choose(self, option: Option, decision: list[Any], events: list[Event]) -> None:
        code = option.code
        kind = code[0]
        p = self.current
        if kind == "advance":
            self._move(p, code[1], 1, events)
        elif kind == "effect":
            _, tile, track = decision
            op, arg = self.tiles[tile].atoms[code[1]]
            self._ev(events, "effect_chosen", p, tile=TILES[tile].id, side=code[1])
            self.queue.insert(0, ["atom", op, arg, track])
        elif kind == "kokeshi":
            op = decision[1]
            self._move(p, code[1], 2 if op == ANY2 else 1, events)
        elif kind == "animal":
            self._disc(p, code[1], events)
        elif kind == "market":
            _, target, activated, _ = decision
            self._buy_market(p, code[1], target, activated, events)
        elif kind == "quality":
            self._buy_quality(p, decision[1], code[1], events)
        elif kind == "place":
            self._place(p, code[1], code[2], events)

    def _resolve(self, k: int, events: list[Event]) -> None:
        """Resolve the space kokeshi `k` of the current player now stands on."""
        p = self.current
        height = self.kokeshi[p][k]
        track = self.tracks[p][k]
        if height > len(track):
            self.kokeshi[p][k] = 0
            self._ev(events, "kokeshi_home", p, kokeshi=KOKESHI[k], height=height, reason="empty_space")
            self._ask([BUY_KIND, k, k, 1 if self.rules == 1 else height], events)
            return
        tile = track[height - 1]
        spec = self.tiles[tile]
        if spec.kind == "quality":
            self._ev(events, "quality_step", p, kokeshi=KOKESHI[k], tile=spec.id, height=height)
            self._move(p, k, 1, events)
            return
        self._ev(events, "tile_activated", p, kokeshi=KOKESHI[k], tile=spec.id, height=height)
        if spec.mode == "/":
            self._ask([EFFECT_KIND, tile, k], events)
        else:
            self.queue[0:0] = [["atom", op, arg, k] for op, arg in spec.atoms]

    def _atom(self, op: int, arg: int, track: int, events: list[Event]) -> None:
        """Carry out one effect side of a tile sitting on `track`."""
        p = self.current
        if op == ADV:
            self._move(p, arg, 1, events)
        elif op in (LEFT, RIGHT, ANY, ANY2):
            self._ask([KOKESHI_KIND, op, track], events)
        elif op == ANIMAL_ANY:
            self._ask([ANIMAL_KIND], events)
        elif op == ANIMAL:
            if self.discs[p][arg] < MAX_POSITION:
                self._disc(p, arg, events)
            else:
                self._ev(events, "effect_skipped", p, reason="disc_at_end", animal=ANIMALS[arg])
        elif op == BUY_ANY:
            self._ask([BUY_KIND, _SIDE, track, 0], events)
        elif op == BUY_HERE:
            self._ask([BUY_KIND, track, track, 0], events)

    # ------------------------------------------------------------------ rule steps

    def _move(self, p: int, k: int, steps: int, events: list[Event]) -> None:
        start = self.kokeshi[p][k]
        target = start + steps
        if target > HEIGHTS:
            self.marks |= MARK_TOP
            self.kokeshi[p][k] = 0
            self.in_play[p] += TOP_POINTS
            self._ev(events, "top_passed", p, kokeshi=KOKESHI[k], height=start, points=TOP_POINTS)
            return
        self.kokeshi[p][k] = target
        self._ev(events, "kokeshi_moved", p, kokeshi=KOKESHI[k], start=start, to=target)
        self.queue.append(["res", k])

    def _disc(self, p: int, a: int, events: list[Event]) -> None:
        position = self.discs[p][a] + 1
        if p == self.current and position == RED_LINE:
            self.marks |= MARK_RECOGNITION
        self.discs[p][a] = position
        self.stamp += 1
        self.arrived[p][a] = self.stamp
        self._ev(events, "disc_moved", p, animal=ANIMALS[a], to=position)
        if position == RED_LINE:
            self.recognitions[p] += 1
            self._ev(events, "red_line_crossed", p, animal=ANIMALS[a], recognitions=self.recognitions[p])
            self._check_end(p, events)
        for slot in SLOTS_AT.get((a, position), ()):
            tile = self.slots[slot]
            if tile == _EMPTY:
                continue
            self.slots[slot] = _EMPTY
            self._ev(events, "bonus_taken", p, tile=TILES[tile].id, slot=BONUS_SLOTS[slot].id)
            if self.solo and p == 1:
                self._automa_add(TILE_COLOR[tile], tile, events)
            else:
                self.reserve[p].append((tile, _SIDE))

    def _buy_market(self, p: int, slot: int, target: int, activated: int, events: list[Event]) -> None:
        tile = self.offer[slot]
        self.bought = True
        self.marks |= MARK_OFFER
        self.offer[slot] = _EMPTY
        self.reserve[p].append((tile, target))
        self._ev(
            events,
            "tile_bought",
            p,
            tile=TILES[tile].id,
            slot=slot,
            track=None if target == _SIDE else KOKESHI[target],
        )
        if self.bag:
            drawn = self._take(self.bag)
            self.offer[slot] = drawn
            self._ev(events, "tile_drawn", p, True, tile=TILES[drawn].id, slot=slot)
        else:
            self._ev(events, "bag_empty", p)
            self._trigger_end("bag", p, events)
        if self.solo:
            if TILE_ANIMAL[tile] >= 0 and self.discs[1][TILE_ANIMAL[tile]] < MAX_POSITION:
                self._disc(1, TILE_ANIMAL[tile], events)
            self._automa_draw(activated, events)

    def _buy_quality(self, p: int, k: int, level: int, events: list[Event]) -> None:
        tile = QUALITY_TILE[k][level - 1]
        self.quality_supply[k].remove(level)
        self.quality_taken[k] += 1
        self.reserve[p].append((tile, k))
        self.recognitions[p] += 1
        self.marks |= MARK_RECOGNITION
        # Rules 3 on: only a tile from the offer keeps the idle count from growing (a quality tile draws nothing).
        self.bought = self.bought or self.rules == 2
        self._ev(events, "quality_bought", p, tile=TILES[tile].id, kokeshi=KOKESHI[k], level=level)
        self._quality_competition(k, p, events)
        self._check_end(p, events)
        # Rules 2 on: "Sempre que você comprar uma nova peça" is an offer tile, never a quality tile.
        if self.solo and self.rules == 1:
            self._automa_draw(k, events)

    def _quality_competition(self, k: int, p: int, events: list[Event]) -> None:
        """Per kokeshi, the last player misses out: the rest go once all but one seat took one."""
        if self.quality_taken[k] >= len(self.names) - 1 and self.quality_supply[k]:
            gone = [TILES[QUALITY_TILE[k][lv - 1]].id for lv in self.quality_supply[k]]
            self.discard.extend(QUALITY_TILE[k][lv - 1] for lv in self.quality_supply[k])
            self.quality_supply[k] = []
            self._ev(events, "quality_discarded", p, kokeshi=KOKESHI[k], tiles=gone)

    def _automa_draw(self, k: int, events: list[Event]) -> None:
        """Solo: the automa gets a tile on the track the player activated to buy."""
        a = 1
        track = self.tracks[a][k]
        if len(track) >= HEIGHTS:
            self._ev(events, "effect_skipped", a, reason="automa_track_full", kokeshi=KOKESHI[k])
            return
        lowest = len(track) + 1
        if not any(IS_QUALITY[t] for t in track):
            fitting = [lv for lv in self.quality_supply[k] if LEVEL_THRESHOLDS[lv - 1] <= lowest]
            if fitting:
                level = max(fitting)
                tile = QUALITY_TILE[k][level - 1]
                self.quality_supply[k].remove(level)
                self.quality_taken[k] += 1
                track.append(tile)
                self.recognitions[a] += 1
                self._ev(
                    events,
                    "automa_quality",
                    a,
                    tile=TILES[tile].id,
                    kokeshi=KOKESHI[k],
                    height=lowest,
                )
                self._quality_competition(k, a, events)
                self._check_end(a, events)
                return
        if not self.bag:
            self._ev(events, "effect_skipped", a, reason="bag_empty")
            return
        tile = self._take(self.bag)
        track.append(tile)
        self._ev(events, "automa_tile", a, True, tile=TILES[tile].id, kokeshi=KOKESHI[k], height=lowest)
        animal = TILE_ANIMAL[tile]
        if animal >= 0 and self.discs[a][animal] < MAX_POSITION:
            self._disc(a, animal, events)

    def _automa_add(self, k: int, tile: int, events: list[Event]) -> None:
        track = self.tracks[1][k]
        if len(track) < HEIGHTS:
            track.append(tile)
            self._ev(
                events,
                "tile_placed",
                1,
                tile=TILES[tile].id,
                kokeshi=KOKESHI[k],
                height=len(track),
                pairs=0,
            )
        else:
            self.discard.append(tile)
            self._ev(
                events,
                "tile_discarded",
                1,
                tile=TILES[tile].id,
                reason="automa_track_full",
            )

    def _place(self, p: int, tile: int, k: int, events: list[Event]) -> None:
        reserve = self.reserve[p]
        for i, (t, _) in enumerate(reserve):
            if t == tile:
                del reserve[i]
                break
        track = self.tracks[p][k]
        track.append(tile)
        height = len(track)
        pairs = self._pairs_at(p, k, height)
        self._ev(
            events,
            "tile_placed",
            p,
            tile=TILES[tile].id,
            kokeshi=KOKESHI[k],
            height=height,
            pairs=pairs,
        )

    def _color_at(self, p: int, k: int, height: int) -> int:
        if height == 0:
            return k
        track = self.tracks[p][k]
        return TILE_COLOR[track[height - 1]] if height <= len(track) else -1

    def _pairs_at(self, p: int, k: int, height: int) -> int:
        color = self._color_at(p, k, height)
        pairs = int(self._color_at(p, k, height - 1) == color)
        if k > 0:
            pairs += self._color_at(p, k - 1, height) == color
        if k < N_TRACKS - 1:
            pairs += self._color_at(p, k + 1, height) == color
        return pairs

    def _check_end(self, p: int, events: list[Event]) -> None:
        if self.recognitions[p] >= END_RECOGNITIONS[min(len(self.names), 4)]:
            self._trigger_end("recognitions", p, events)

    def _trigger_end(self, reason: str, p: int, events: list[Event], **extra: Any) -> None:
        if self.end_reason is not None:
            return
        self.end_reason = reason
        self.final_round = self.round + 1
        self._ev(events, "end_triggered", p, reason=reason, final_round=self.final_round, **extra)

    def _end_turn(self, events: list[Event]) -> None:
        p = self.current
        last = p == self.humans - 1
        if self.round == 0:
            self.current = 0 if last else p + 1
            if last:
                self.round = 1
            self._ev(events, "setup_done", p, next=self.names[self.current])
            return
        self.turns[p] += 1
        if self.rules == 2:
            # The idle-round end (components.toml [end] idle_rounds): not in the rulebook, a guard against stalling.
            self.idle = max(0, self.idle - 1) if self.bought else self.idle + 1
            self.bought = False
            if self.idle >= IDLE_ROUNDS * self.humans:
                self._trigger_end("stall", p, events)
        elif self.rules == 3:
            # The idle-turn end (components.toml [end] idle_turns): not in the rulebook, a guard against stalling.
            self.idle += not self.bought
            self.bought = False
            if self.idle >= IDLE_TURNS * self.humans:
                self._trigger_end("stall", p, events, turns=self.idle)
        elif self.rules >= 4:
            self._count_idle(p, events)
        self.marks = 0
        self.bought = False
        if last:
            if self.end_reason is not None and self.round >= self.final_round:
                self.over = True
                self._ev(events, "game_over", p, ranking=self.ranking())
                return
            self.round += 1
            self.current = 0
        else:
            self.current = p + 1
        self._ev(events, "turn_ended", p, next=self.names[self.current], round=self.round)

    def _count_idle(self, p: int, events: list[Event]) -> None:
        """Rules 4 on, the idle-turn end (components.toml [end] idle_limit): not in the rulebook, a guard against
        stalling. A turn in which a kokeshi of the player passed the top, and they took no tile from the offer and
        gained no recognition, is one of their idle turns; at the limit the end is triggered."""
        marks = self.marks
        if self.stall_limit is None or self.end_reason is not None:
            return  # no guard, or the end is already coming
        if not marks & MARK_TOP or marks & (MARK_OFFER | MARK_RECOGNITION):
            return
        self.idles[p] += 1
        count, limit = self.idles[p], self.stall_limit
        self._ev(events, "idle_turn", p, count=count, limit=limit)
        if count >= limit:
            self._trigger_end("stall", p, events, turns=count, limit=limit)

    # ------------------------------------------------------------------ scoring

    def _adjacent_pairs(self, p: int) -> int:
        pairs = 0
        for k in range(N_TRACKS):
            for height in range(1, len(self.tracks[p][k]) + 1):
                color = self._color_at(p, k, height)
                pairs += self._color_at(p, k, height - 1) == color
                if k < N_TRACKS - 1:
                    pairs += self._color_at(p, k + 1, height) == color
        return pairs

    def _leaders(self) -> list[int]:
        """Seat ahead of everyone on each animal track, or -1 when nobody left the start."""
        leaders = []
        for a in range(len(ANIMALS)):
            best, key = -1, None
            for p in range(len(self.names)):
                position = self.discs[p][a]
                if position == 0:
                    continue
                candidate = (position, -self.arrived[p][a])
                if key is None or candidate > key:
                    best, key = p, candidate
            leaders.append(best)
        return leaders

    def _score(self, p: int, leaders: list[int]) -> Score:
        tracks = sum(_track_points(len(t)) for t in self.tracks[p])
        quality = sum(QUALITY_POINTS[TILE_LEVEL[t] - 1] for track in self.tracks[p] for t in track if IS_QUALITY[t])
        table = ANIMAL_POINTS[self.side]
        animals = sum(table[a][pos] for a, pos in enumerate(self.discs[p]))
        leads = LEAD_BONUS * leaders.count(p)
        automa = self.solo and p == 1
        adjacency = 0 if automa else -ADJACENCY_PENALTY * self._adjacent_pairs(p)
        total = self.in_play[p] + tracks + quality + animals + leads + adjacency
        return Score(self.in_play[p], tracks, quality, animals, leads, adjacency, total)

    def scores(self) -> dict[str, Score]:
        """Every seat's score as it would count if the game ended now."""
        leaders = self._leaders()
        return {name: self._score(p, leaders) for p, name in enumerate(self.names)}

    def ranking(self) -> list[str]:
        """Seats best first: total, then animal points, then the sum of the kokeshi's heights, then latest in turn
        order; in solo too, where the automa sits last.

        Rules version 1: the second tie-break is track points, and in solo a tied total ranks the automa first.
        """
        scores = self.scores()

        def key(p: int) -> tuple[int, ...]:
            s = scores[self.names[p]]
            if self.rules == 1:
                if self.solo:
                    return (s.total, p)
                return (s.total, s.animals, s.tracks, p)
            # "a maior soma dos níveis das kokeshi no tabuleiro de oficina do artesão"
            return (s.total, s.animals, sum(self.kokeshi[p]), p)

        return [self.names[p] for p in sorted(range(len(self.names)), key=key, reverse=True)]

    # ------------------------------------------------------------------ views and persistence

    def view(self) -> dict[str, Any]:
        """JSON-safe public state; documented in engine/README.md."""
        scores = self.scores()
        leaders = self._leaders()
        prompt = self.prompt
        players = []
        for p, name in enumerate(self.names):
            players.append(
                {
                    "name": name,
                    "automa": self.solo and p == 1,
                    "in_play": self.in_play[p],
                    "recognitions": self.recognitions[p],
                    "turns": self.turns[p],
                    "tracks": {
                        KOKESHI[k]: [tile_view(t, self.rules) for t in self.tracks[p][k]] for k in range(N_TRACKS)
                    },
                    "kokeshi": {KOKESHI[k]: self.kokeshi[p][k] for k in range(N_TRACKS)},
                    "animals": {ANIMALS[a]: self.discs[p][a] for a in range(len(ANIMALS))},
                    "arrival": {ANIMALS[a]: self.arrived[p][a] for a in range(len(ANIMALS))},
                    "leads": [ANIMALS[a] for a, seat in enumerate(leaders) if seat == p],
                    "reserve": [
                        {**tile_view(t, self.rules), "track": None if k == _SIDE else KOKESHI[k]}
                        for t, k in self.reserve[p]
                    ],
                    "adjacent_pairs": 0 if self.solo and p == 1 else self._adjacent_pairs(p),
                    "score": scores[name].to_dict(),
                }
            )
        return {
            "version": self.version,
            "rules": self.rules,
            "side": self.side,
            "solo": self.solo,
            "phase": "over" if self.over else ("setup" if self.round == 0 else "play"),
            "round": self.round,
            "end_triggered": self.end_reason is not None,
            "end_reason": self.end_reason,
            "final_round": self.final_round or None,
            "current": None if self.over else self.names[self.current],
            "bag": len(self.bag),
            "offer": [None if t == _EMPTY else tile_view(t, self.rules) for t in self.offer],
            "quality_supply": {KOKESHI[k]: list(self.quality_supply[k]) for k in range(N_TRACKS)},
            "bonus_slots": [
                {
                    "id": slot.id,
                    "animals": [ANIMALS[a] for a in slot.animals],
                    "position": slot.position,
                    "tile": None if self.slots[i] == _EMPTY else tile_view(self.slots[i], self.rules),
                }
                for i, slot in enumerate(BONUS_SLOTS)
            ],
            "discarded": len(self.discard),
            "idle": self._idle_view(),
            "players": players,
            "prompt": None
            if prompt is None
            else {
                "player": prompt.player,
                "kind": prompt.kind,
                "options": [{"id": o.id, "words": said(o)} for o in prompt.options],
            },
        }

    def _idle_view(self) -> dict[str, Any] | None:
        """The end against stalling as players see it: the limit, and each player's count (`shared`: one count
        for the whole table, rules 2 and 3); None without one (rules 1)."""
        humans = self.names[: self.humans]
        if self.rules >= 4:
            if self.stall_limit is None:
                return None
            counts = {name: self.idles[p] for p, name in enumerate(humans)}
            return {"limit": self.stall_limit, "counts": counts, "shared": False}
        if self.rules == 1:
            return None
        limit = (IDLE_ROUNDS if self.rules == 2 else IDLE_TURNS) * self.humans
        return {"limit": limit, "counts": dict.fromkeys(humans, self.idle), "shared": True}

    def _state(self) -> dict[str, Any]:
        def ids(tiles: list[int]) -> list[str]:
            return [TILES[t].id for t in tiles]

        decision = self.decision
        if decision is not None and decision[0] == EFFECT_KIND:
            decision = [EFFECT_KIND, TILES[decision[1]].id, decision[2]]
        state = {
            "format": FORMAT,
            "seating": self.seating,
            "seed": self.seed,
            "side": self.side,
            "solo": self.solo,
            "players": self.names,
            "counter": self.counter,
            "stamp": self.stamp,
            "version": self.version,
            "round": self.round,
            "current": self.current,
            "final_round": self.final_round,
            "end_reason": self.end_reason,
            "over": self.over,
            "tracks": [[ids(track) for track in tracks] for tracks in self.tracks],
            "kokeshi": self.kokeshi,
            "discs": self.discs,
            "arrived": self.arrived,
            "in_play": self.in_play,
            "recognitions": self.recognitions,
            "turns": self.turns,
            "reserve": [[[TILES[t].id, k] for t, k in r] for r in self.reserve],
            "offer": [None if t == _EMPTY else TILES[t].id for t in self.offer],
            "bag": ids(self.bag),
            "quality_supply": self.quality_supply,
            "quality_taken": self.quality_taken,
            "slots": [None if t == _EMPTY else TILES[t].id for t in self.slots],
            "discard": ids(self.discard),
            "queue": self.queue,
            "decision": decision,
        }
        if self.rules in (2, 3):
            state.update(rules=self.rules, idle=self.idle, bought=self.bought)
        elif self.rules >= 4:
            state.update(rules=self.rules, idles=self.idles, marks=self.marks)
        # Rules version 1 saves keep their exact old form: no key for the version, none for the idle count.
        return state

    def to_json(self) -> str:
        """The whole state as canonical JSON; `engine.load_game` gives an equal game."""
        return json.dumps(self._state(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]  # equal games may differ later: a game is not hashable

    def __repr__(self) -> str:
        state = "over" if self.over else f"round {self.round}, {self.names[self.current]} to play"
        return f"<Game {', '.join(self.names)}: {state}>"

    def clone(self) -> Game:
        """An independent copy, cheap enough for one-ply lookahead."""
        return _copy(self)

    def reseed(self, seed: int) -> None:
        """Draw from now on as the game with this seed would (its generator key follows the seed)."""
        self.seed = seed
        self.key = rng.key(seed) if self.rules >= 2 else b""

    def determinized(self, seed: int) -> Game:
        """A copy whose future draws come from `seed` instead of the game's own: what a fair search simulates."""
        g = self.clone()
        g.reseed(seed)
        g.counter = 0
        return g


def _copier(cls: type[Game]) -> Callable[[Game], Game]:
    """The function copying a game field by field, written from the declared fields (as dataclasses write their
    methods): straight-line code is what keeps `clone`, the look-ahead's hot path, fast."""

    def copy_of(value: str, annotation: str, level: int = 1) -> str:
        if annotation.endswith(" | None") and annotation.startswith("list["):
            return f"None if {value} is None else {copy_of(value, annotation.removesuffix(' | None'), level)}"
        if not annotation.startswith("list["):
            if annotation.startswith(("dict[", "set[", "list")):
                raise TypeError(f"Game state: {annotation} is neither a list nor immutable")
            return value  # immutable: shared
        inner = annotation[len("list[") : -1]
        if not inner.startswith("list["):
            return f"list({value})"
        item = f"x{level}"
        return f"[{copy_of(item, inner, level + 1)} for {item} in {value}]"

    lines = [f"    g.{name} = {copy_of(f'game.{name}', kind)}" for name, kind in cls.__annotations__.items()]
    source = "def copy(game):\n    g = new(cls)\n" + "\n".join(lines) + "\n    return g\n"
    namespace: dict[str, Any] = {"cls": cls, "new": object.__new__}
    exec(source, namespace)
    copy: Callable[[Game], Game] = namespace["copy"]
    return copy


_copy = _copier(Game)


def new_game(
    players: Sequence[str], *, seed: int, side: str = "basic", solo: bool = False, rules: int = CURRENT_RULES
) -> Game:
    """Set up a game: 2–4 player names, or exactly one with `solo=True` (against the automa).

    `rules` is the rules version (`engine.RULES_VERSIONS`); new games take the current one, a stored game the
    version it was dealt under.
    """
    names = [str(p) for p in players]
    if rules not in RULES_VERSIONS or isinstance(rules, bool):
        raise ValueError(f"rules must be one of {', '.join(map(str, RULES_VERSIONS))}, not {rules!r}")
    if side not in SIDES:
        raise ValueError(f"side must be one of {', '.join(SIDES)}, not {side!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    if solo:
        if len(names) != 1:
            raise ValueError("a solo game has exactly one player")
    elif not 2 <= len(names) <= 4:
        raise ValueError("a game has 2 to 4 players")
    if len(set(names)) != len(names) or any(not n for n in names):
        raise ValueError("player names must be distinct and not empty")
    if AUTOMA in names:
        raise ValueError(f"{AUTOMA!r} is the solo opponent's name and cannot be a player's")
    g = Game._blank(names, seed, side, solo, rules)
    if solo:
        order = [names[0], AUTOMA]
        g.humans = 1
    else:
        first = g._rand(len(names))
        order = names[first:] + names[:first]
        g.humans = len(order)
    g._set_seats(order)
    starting = list(STARTING_TILES)
    for p in range(len(order)):
        for _ in range(STARTING_PER_PLAYER):
            tile = g._take(starting)
            if solo and p == 1:
                g.tracks[1][TILE_COLOR[tile]].append(tile)
            else:
                g.reserve[p].append((tile, _SIDE))
    for slot in BONUS_FILL[len(order)]:
        g.slots[slot] = g._take(starting)
    g.discard.extend(starting)  # empty with the printed player counts
    g.bag = sorted(NORMAL_TILES)
    for slot in range(OFFER_SIZE):
        g.offer[slot] = g._take(g.bag)
    g._ask([SETUP], [])
    return g


def replay(
    players: Sequence[str],
    *,
    seed: int,
    side: str = "basic",
    solo: bool = False,
    actions: Sequence[tuple[str, str]] = (),
    rules: int = CURRENT_RULES,
) -> Game:
    """The game reached by applying `actions` ((player, action) pairs) to a new game of that rules version."""
    game = new_game(players, seed=seed, side=side, solo=solo, rules=rules)
    for player, action in actions:
        game.apply(player, action)
    return game


__all__ = ["AUTOMA", "COLORS", "CURRENT_RULES", "RULES_VERSIONS", "Game", "idle_warning", "new_game", "replay"]

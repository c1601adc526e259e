"""The Kōhaku rules: dealing, the turn (take two tiles, place them, refill the board), Danny's turns, the end.

A match is (rules version, options, seed, actions): `deal` sets it up from the seed alone and `apply` is the only
way to change it. Every random step draws an index into a sorted pool with the match's own counter-based
generator, so nothing hidden has an order to leak. The rules speak in codes: prompts carry option codes and
events carry data; `games.kohaku.words` turns them into sentences.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from . import rng
from .data import (
    BOARD_PAIRS,
    CENTRE_FEATURE,
    CENTRE_KOI,
    COIN,
    COLOURS_OF,
    CURRENT_RULES,
    DANNY_EASY_FEATURE,
    DANNY_EASY_KOI,
    DANNY_HARD_COIN,
    DANNY_HARD_FLOWER,
    DANNY_MEDIUM_FEATURE,
    FEATURES,
    FLOWER,
    GOALS,
    GOALS_PER_PLAYER,
    IS_KOI,
    KIND_OF,
    KOI_SPACE,
    N_SPACES,
    REMOVED,
    RULES_VERSIONS,
    TILE_BY_ID,
    TILES,
    koi_in_box,
)
from .model import GOAL, PLACE, TAKE, ZONE, Event, IllegalAction, Option, Outcome, Prompt
from .plans import best_gain
from .scoring import ORIGIN, STEPS, WIDTH, Pond, cell, coins, details, gain, goal_points, koi_cell, xy

FORMAT = 1
EMPTY = -1
DANNY = -1  # the seat number events use for Danny, the solo opponent
MAX_OPTIONS = 25  # a select menu's limit: larger choices are split into zones first
MAX_SEATS = 4

# Phases.
GOALS_PHASE, TAKE_PHASE, PLACE_PHASE, OVER = "goals", "take", "place", "over"
_PHASES = (GOALS_PHASE, TAKE_PHASE, PLACE_PHASE, OVER)

# Action ids: "g:<goal>", "t:<space>-<space>" (spaces 1-12), "z:<zone>", "p:<x>:<y>".
_TAKE_IDS: tuple[str, ...] = tuple(f"t:{a + 1}-{b + 1}" for a, b in BOARD_PAIRS)
_TAKE_BY_ID: dict[str, tuple[int, int]] = dict(zip(_TAKE_IDS, BOARD_PAIRS, strict=True))
_PLACE_IDS: dict[int, str] = {}


def place_id(c: int) -> str:
    """The action id of putting a tile on cell `c`."""
    found = _PLACE_IDS.get(c)
    if found is None:
        x, y = xy(c)
        found = _PLACE_IDS[c] = f"p:{x}:{y}"
    return found


def _parse_place(action: str) -> int | None:
    parts = action.split(":")
    if len(parts) != 3:
        return None
    try:
        x, y = int(parts[1]), int(parts[2])
    except ValueError:
        return None
    if not (-100 <= x <= 100 and -100 <= y <= 100) or place_id(cell(x, y)) != action:
        return None
    return cell(x, y)


def zones(candidates: Sequence[int]) -> list[list[int]]:
    """Sorted candidate cells in groups of at most MAX_OPTIONS: whole rows of the pond, consecutive, as few
    groups as that allows; a row with more places than a menu holds is cut in two."""
    if len(candidates) <= MAX_OPTIONS:
        return [list(candidates)]
    rows: list[list[int]] = []
    for c in candidates:
        if rows and rows[-1][0] // WIDTH == c // WIDTH:
            rows[-1].append(c)
        else:
            rows.append([c])
    pieces: list[list[int]] = []
    for row in rows:
        while len(row) > MAX_OPTIONS:
            half = (len(row) + 1) // 2
            pieces.append(row[:half])
            row = row[half:]
        pieces.append(row)
    out: list[list[int]] = []
    for piece in pieces:
        if out and len(out[-1]) + len(piece) <= MAX_OPTIONS and out[-1][-1] // WIDTH != piece[0] // WIDTH:
            out[-1].extend(piece)
        else:
            out.append(list(piece))
    return out


def tile_view(tile: int) -> dict[str, Any]:
    """A tile as views, events and pictures show it."""
    t = TILES[tile]
    out: dict[str, Any] = {"id": t.id, "kind": t.kind_name, "colours": list(t.colour_names)}
    if t.koi:
        out.update(baby_koi=t.baby_koi, dragonflies=t.dragonflies, coin=t.coin)
    return out


def danny_scores(tiles: Iterable[int]) -> dict[str, int]:
    """Danny's total at each level from the tiles he won (the text's three levels, each adding to the one before)."""
    koi = features = coin = flowers = 0
    for t in tiles:
        if IS_KOI[t]:
            koi += 1
            coin += COIN[t]
        else:
            features += 1
            flowers += KIND_OF[t] == FLOWER
    easy = DANNY_EASY_KOI * koi + DANNY_EASY_FEATURE * features
    medium = easy + DANNY_MEDIUM_FEATURE * features
    hard = medium + DANNY_HARD_COIN * coin + DANNY_HARD_FLOWER * flowers
    return {"easy": easy, "medium": medium, "hard": hard}


class Match:
    """One game of Kōhaku for 1-4 seats (1 = solo against Danny). Build it with `deal`, `replay` or `load_match`.

    Seats are numbered 0..n-1; turns pass to the next number ("clockwise"). Every public method is pure in the
    sense that only `apply` changes the match.
    """

    __slots__ = (
        "rules",
        "seats",
        "goals",
        "seed",
        "counter",
        "_key",
        "koi_stack",
        "feature_stack",
        "box",
        "board",
        "ponds",
        "frontier",
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
    )

    rules: int
    seats: int
    goals: bool
    seed: int
    counter: int
    _key: bytes
    koi_stack: list[int]
    feature_stack: list[int]
    box: list[int]
    board: list[int]
    ponds: list[Pond]
    frontier: list[set[int]]
    turns: list[int]
    turn_no: int
    current: int
    phase: str
    hand: list[int]
    placed: list[int]
    zone: int
    goal_hands: list[list[int]]
    goal_kept: list[int]
    goal_box: list[int]
    danny: list[int]
    end_reason: str | None
    version: int

    # ------------------------------------------------------------------ set-up

    @classmethod
    def _blank(cls, seats: int, seed: int, goals: bool, rules: int) -> Match:
        m = cls.__new__(cls)
        m.rules = rules
        m.seats = seats
        m.goals = goals
        m.reseed(seed)
        m.counter = 0
        m.koi_stack = []
        m.feature_stack = []
        m.box = []
        m.board = [EMPTY] * N_SPACES
        m.ponds = [{} for _ in range(seats)]
        m.frontier = [set() for _ in range(seats)]
        m.turns = [0] * seats
        m.turn_no = 0
        m.current = 0
        m.phase = TAKE_PHASE
        m.hand = []
        m.placed = []
        m.zone = -1
        m.goal_hands = [[] for _ in range(seats)] if goals else []
        m.goal_kept = [EMPTY] * seats if goals else []
        m.goal_box = []
        m.danny = []
        m.end_reason = None
        m.version = 0
        return m

    def reseed(self, seed: int) -> None:
        """Draw from now on as a match with this seed would."""
        self.seed = seed
        self._key = rng.key(seed)

    def _take(self, pool: list[int]) -> int:
        index = rng.draw(self._key, self.counter, len(pool))
        self.counter += 1
        return pool.pop(index)

    # ------------------------------------------------------------------ reading the match

    @property
    def solo(self) -> bool:
        """A game of one player against Danny."""
        return self.seats == 1

    @property
    def is_over(self) -> bool:
        """True once the board could not be refilled."""
        return self.phase == OVER

    @property
    def options(self) -> dict[str, Any]:
        """The options the match was dealt with (what `deal` takes besides the seed)."""
        return {"seats": self.seats, "goals": self.goals, "rules": self.rules}

    def waiting(self) -> tuple[int, ...]:
        """The seats the match waits for: several while goal cards are chosen, else the one to play."""
        if self.phase == OVER:
            return ()
        if self.phase == GOALS_PHASE:
            return tuple(s for s in range(self.seats) if self.goal_kept[s] == EMPTY)
        return (self.current,)

    def turn_key(self) -> str:
        """Changes exactly when a new turn starts (or the goal choice ends, or the game): for "your turn" notices."""
        if self.phase == OVER:
            return "over"
        if self.phase == GOALS_PHASE:
            return "goals"
        return f"t{self.turn_no}:{self.current}"

    def _candidates(self) -> list[int]:
        frontier = self.frontier[self.current]
        if len(self.hand) == 2:
            return sorted(frontier)
        want = IS_KOI[self.hand[0]]
        return sorted(c for c in frontier if koi_cell(c) == want)

    def _kind(self) -> str:
        if self.phase == PLACE_PHASE and self.zone == EMPTY and len(self._candidates()) > MAX_OPTIONS:
            return ZONE
        return {GOALS_PHASE: GOAL, TAKE_PHASE: TAKE, PLACE_PHASE: PLACE}[self.phase]

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """The action ids `seat` may send now (default: the seat to play); empty when it has nothing to decide."""
        if seat is None:
            waiting = self.waiting()
            if not waiting:
                return []
            seat = waiting[0]
        if seat not in self.waiting():
            return []
        if self.phase == GOALS_PHASE:
            return [f"g:{GOALS[g]}" for g in self.goal_hands[seat]]
        if self.phase == TAKE_PHASE:
            return list(_TAKE_IDS)
        candidates = self._candidates()
        if self.zone != EMPTY:
            return [place_id(c) for c in zones(candidates)[self.zone]]
        if len(candidates) > MAX_OPTIONS:
            return [f"z:{i}" for i in range(len(zones(candidates)))]
        return [place_id(c) for c in candidates]

    def prompts(self) -> tuple[Prompt, ...]:
        """Every decision the match waits for, with labelled-by-code options (several only for goal cards)."""
        return tuple(self._prompt(seat) for seat in self.waiting())

    @property
    def prompt(self) -> Prompt | None:
        """The first decision the match waits for, or None once over."""
        waiting = self.waiting()
        return self._prompt(waiting[0]) if waiting else None

    def _prompt(self, seat: int) -> Prompt:
        kind = self._kind()
        ids = self.legal_actions(seat)
        if kind == GOAL:
            pond = self.ponds[seat]
            options = tuple(
                Option(i, ("goal", GOALS[g], goal_points(pond, GOALS[g])))
                for i, g in zip(ids, self.goal_hands[seat], strict=True)
            )
        elif kind == TAKE:
            options = tuple(self._take_option(i) for i in ids)
        elif kind == ZONE:
            groups = zones(self._candidates())
            options = tuple(Option(i, ("zone", xy(g[0]), xy(g[-1]), len(g))) for i, g in zip(ids, groups, strict=True))
        else:
            pond = self.ponds[seat]
            koi, feature = self._hand_tiles()
            placing = []
            for i in ids:
                c = _parse_place(i)
                assert c is not None
                tile = koi if koi_cell(c) else feature
                x, y = xy(c)
                placing.append(Option(i, ("place", x, y, TILES[tile].id, gain(pond, c, tile))))
            options = tuple(placing)
        return Prompt(seat, kind, options)

    def _hand_tiles(self) -> tuple[int, int]:
        koi = next((t for t in self.hand if IS_KOI[t]), EMPTY)
        feature = next((t for t in self.hand if not IS_KOI[t]), EMPTY)
        return koi, feature

    def _take_option(self, action: str) -> Option:
        a, b = _TAKE_BY_ID[action]
        koi, feature = (self.board[a], self.board[b]) if KOI_SPACE[a] else (self.board[b], self.board[a])
        pond = self.ponds[self.current]
        if pond:
            best = best_gain(pond, self.frontier[self.current], koi, feature)
        else:
            best = self._first_gain(koi, feature)
        return Option(action, ("take", a, b, TILES[koi].id, TILES[feature].id, best))

    @staticmethod
    def _first_gain(koi: int, feature: int) -> int:
        pond: Pond = {ORIGIN: koi}
        return gain({}, ORIGIN, koi) + gain(pond, ORIGIN + 1, feature)

    # ------------------------------------------------------------------ playing

    def apply(self, seat: int, action: str) -> list[Event]:
        """Carry out one decision of `seat` and every automatic step after it; returns the events, in order.

        Raises IllegalAction (the match unchanged) for an unknown seat, a finished match, a seat that is not
        awaited, or an action that is not legal now.
        """
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.seats:
            raise IllegalAction("unknown_seat")
        if self.phase == OVER:
            raise IllegalAction("game_over")
        if seat not in self.waiting():
            raise IllegalAction("not_your_turn")
        events: list[Event] = []
        if self.phase == GOALS_PHASE:
            choice = next((g for g in self.goal_hands[seat] if action == f"g:{GOALS[g]}"), EMPTY)
            if choice == EMPTY:
                raise IllegalAction("illegal", self.legal_actions(seat))
            self.version += 1
            self.goal_kept[seat] = choice
            events.append(Event("goal_kept", seat, {}))
            if not self.waiting():
                self.phase = TAKE_PHASE
                events.append(Event("turn_started", self.current, {"turn": self.turn_no}))
            return events
        if self.phase == TAKE_PHASE:
            pair = _TAKE_BY_ID.get(action)
            if pair is None:
                raise IllegalAction("illegal", self.legal_actions(seat))
            self.version += 1
            self._take_pair(pair, events)
        elif self.zone == EMPTY and action.startswith("z:"):
            groups = zones(self._candidates())
            index = int(action[2:]) if action[2:].isdigit() and action == f"z:{int(action[2:])}" else -1
            if len(groups) < 2 or not 0 <= index < len(groups):
                raise IllegalAction("illegal", self.legal_actions(seat))
            self.version += 1
            self.zone = index
            events.append(Event("zone_chosen", seat, {"zone": index}))
            if len(groups[index]) == 1:
                self._place(groups[index][0], True, events)  # a group of one place: nothing left to choose
                self._continue(events)
            return events
        else:
            c = _parse_place(action)
            if c is None or not self._may_place(c):
                raise IllegalAction("illegal", self.legal_actions(seat))
            self.version += 1
            self._place(c, False, events)
        self._continue(events)
        return events

    def _may_place(self, c: int) -> bool:
        """Whether `place_id(c)` is among the current options (without listing them)."""
        frontier = self.frontier[self.current]
        if c not in frontier:
            return False
        if len(self.hand) == 1 and koi_cell(c) != IS_KOI[self.hand[0]]:
            return False
        if self.zone != EMPTY:
            return c in zones(self._candidates())[self.zone]
        return len(frontier) <= MAX_OPTIONS or len(self._candidates()) <= MAX_OPTIONS

    def _take_pair(self, pair: tuple[int, int], events: list[Event]) -> None:
        a, b = pair
        koi_space, feature_space = (a, b) if KOI_SPACE[a] else (b, a)
        koi, feature = self.board[koi_space], self.board[feature_space]
        self.board[koi_space] = self.board[feature_space] = EMPTY
        self.hand = [koi, feature]
        self.placed = []
        self.zone = EMPTY
        self.phase = PLACE_PHASE
        events.append(
            Event(
                "took",
                self.current,
                {"spaces": [koi_space, feature_space], "koi": TILES[koi].id, "feature": TILES[feature].id},
            )
        )
        if not self.ponds[self.current]:
            # The first two tiles must touch: every such start is the same pond turned or mirrored, and scores
            # the same, so the koi goes at the origin and the feature to its right.
            self._place(ORIGIN, True, events)
            self._place(ORIGIN + 1, True, events)

    def _place(self, c: int, forced: bool, events: list[Event]) -> None:
        p = self.current
        pond = self.ponds[p]
        koi, feature = self._hand_tiles()
        tile = koi if koi_cell(c) else feature
        points = gain(pond, c, tile)
        pond[c] = tile
        self.hand.remove(tile)
        self.placed.append(c)
        self.zone = EMPTY
        frontier = self.frontier[p]
        frontier.discard(c)
        for step in STEPS:
            n = c + step
            if n not in pond:
                frontier.add(n)
        x, y = xy(c)
        events.append(Event("placed", p, {"tile": TILES[tile].id, "x": x, "y": y, "gain": points, "forced": forced}))

    def _continue(self, events: list[Event]) -> None:
        """Run automatic steps until a seat must decide: forced placements, the refill, Danny, the next turn."""
        while self.phase == PLACE_PHASE:
            if self.hand:
                candidates = self._candidates()
                if len(candidates) == 1:
                    self._place(candidates[0], True, events)
                    continue
                return
            self._end_turn(events)

    def _end_turn(self, events: list[Event]) -> None:
        p = self.current
        self.turns[p] += 1
        self.turn_no += 1
        self.phase = TAKE_PHASE
        self.placed = []
        if not self._refill_centre(events):
            self._finish(events)
            return
        if self.solo:
            events.append(Event("turn_ended", p, {"next": DANNY}))
            if not self._danny_turn(events):
                self._finish(events)
                return
            self.turn_no += 1
            events.append(Event("turn_ended", DANNY, {"next": p}))
        else:
            self.current = (p + 1) % self.seats
            events.append(Event("turn_ended", p, {"next": self.current}))
        events.append(Event("turn_started", self.current, {"turn": self.turn_no}))

    def _draw_to(self, space: int, events: list[Event]) -> bool:
        stack = self.koi_stack if KOI_SPACE[space] else self.feature_stack
        if not stack:
            self.end_reason = "koi_stack_empty" if KOI_SPACE[space] else "feature_stack_empty"
            return False
        tile = self._take(stack)
        self.board[space] = tile
        events.append(Event("drawn", EMPTY, {"space": space, "tile": tile_view(tile)}, True))
        return True

    def _refill_centre(self, events: list[Event]) -> bool:
        """Step III of a turn: move the middle tiles out to the empty spaces, then draw new ones onto the middle."""
        if not self.koi_stack or not self.feature_stack:
            self.end_reason = "koi_stack_empty" if not self.koi_stack else "feature_stack_empty"
            return False
        board = self.board
        for centre, koi in ((CENTRE_KOI, True), (CENTRE_FEATURE, False)):
            if board[centre] != EMPTY:
                to = next(s for s in range(N_SPACES) if board[s] == EMPTY and KOI_SPACE[s] == koi)
                board[to], board[centre] = board[centre], EMPTY
                events.append(Event("moved", EMPTY, {"tile": TILES[board[to]].id, "from": centre, "to": to}))
        return self._draw_to(CENTRE_KOI, events) and self._draw_to(CENTRE_FEATURE, events)

    def _danny_turn(self, events: list[Event]) -> bool:
        """Danny's turn (solo): reveal a koi tile and take the board's koi of the same colours; if there were none,
        reveal a feature tile and take the board's features of the same kind; then refill every empty space."""
        board = self.board
        matched = False
        if self.koi_stack:
            revealed = self._take(self.koi_stack)
            colours = COLOURS_OF[revealed]
            spaces = [
                s for s in range(N_SPACES) if KOI_SPACE[s] and board[s] != EMPTY and COLOURS_OF[board[s]] == colours
            ]
            matched = bool(spaces)
            self._danny_takes(revealed, spaces, events)
        else:
            events.append(Event("danny_nothing", DANNY, {"stack": "koi"}))
        if not matched:
            if self.feature_stack:
                revealed = self._take(self.feature_stack)
                kind = KIND_OF[revealed]
                spaces = [
                    s for s in range(N_SPACES) if not KOI_SPACE[s] and board[s] != EMPTY and KIND_OF[board[s]] == kind
                ]
                self._danny_takes(revealed, spaces, events)
            else:
                events.append(Event("danny_nothing", DANNY, {"stack": "feature"}))
        # Refilled from the top row, left to right; the middle tiles are not moved on Danny's turn.
        return all(self._draw_to(s, events) for s in range(N_SPACES) if board[s] == EMPTY)

    def _danny_takes(self, revealed: int, spaces: list[int], events: list[Event]) -> None:
        taken = [self.board[s] for s in spaces]
        for s in spaces:
            self.board[s] = EMPTY
        self.danny.append(revealed)
        self.danny.extend(taken)
        events.append(Event("danny_revealed", DANNY, {"tile": tile_view(revealed)}, True))
        data = {"tiles": [TILES[t].id for t in taken], "spaces": spaces, "matched": bool(taken)}
        events.append(Event("danny_took", DANNY, data))

    def _finish(self, events: list[Event]) -> None:
        self.phase = OVER
        self.hand = []
        self.zone = EMPTY
        outcome = self.outcome()
        assert outcome is not None
        data: dict[str, Any] = {"reason": self.end_reason, "outcome": outcome.to_dict()}
        if self.goals:
            data["goals"] = [GOALS[g] for g in self.goal_kept]
        events.append(Event("game_over", EMPTY, data))

    # ------------------------------------------------------------------ scores and the outcome

    def goal_of(self, seat: int) -> str | None:
        """The goal card `seat` kept, or None (no goal cards, or not chosen yet)."""
        if not self.goals or self.goal_kept[seat] == EMPTY:
            return None
        return GOALS[self.goal_kept[seat]]

    def score(self, seat: int, with_goal: bool = True) -> dict[str, int]:
        """`seat`'s score details as if the game ended now (`model.SCORE_KEYS`)."""
        return details(self.ponds[seat], self.goal_of(seat) if with_goal else None)

    def danny_scores(self) -> dict[str, int]:
        """Danny's total at each level so far (solo)."""
        return danny_scores(self.danny)

    def outcome(self) -> Outcome | None:
        """How the match ended: places with shared ties, score details, tie-break coins; None while playing."""
        if self.phase != OVER:
            return None
        scores = tuple(self.score(s) for s in range(self.seats))
        tie = tuple(coins(self.ponds[s]) for s in range(self.seats))
        keys = [(scores[s]["total"], tie[s]) for s in range(self.seats)]
        places = tuple(1 + sum(1 for other in keys if other > keys[s]) for s in range(self.seats))
        if not self.solo:
            return Outcome(places, scores, tie)
        danny = self.danny_scores()
        mine = scores[0]["total"]
        return Outcome(places, scores, tie, danny, {level: mine > points for level, points in danny.items()})

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may see, as a JSON-safe dict (None: a spectator). Hidden: the stacks' and the box's
        contents, the seed, and other seats' goal cards until the end."""
        over = self.phase == OVER
        waiting = self.waiting()
        ponds = []
        for s, pond in enumerate(self.ponds):
            own = seat == s or over
            ponds.append(
                {
                    "tiles": [[*xy(c), tile_view(t)] for c, t in sorted(pond.items())],
                    "score": self.score(s, with_goal=own),
                    "coins": coins(pond),
                    "turns": self.turns[s],
                }
            )
        out: dict[str, Any] = {
            "game": "kohaku",
            "rules": self.rules,
            "version": self.version,
            "seats": self.seats,
            "solo": self.solo,
            "goals": self.goals,
            "phase": self.phase,
            "current": None if over or self.phase == GOALS_PHASE else self.current,
            "waiting": list(waiting),
            "turn": self.turn_no,
            "turn_key": self.turn_key(),
            "board": [None if t == EMPTY else tile_view(t) for t in self.board],
            "koi_stack": len(self.koi_stack),
            "feature_stack": len(self.feature_stack),
            "box": len(self.box),
            "ponds": ponds,
            "hand": [tile_view(t) for t in self.hand],
            "placed": [list(xy(c)) for c in self.placed],
            "end_reason": self.end_reason,
            "prompt": None,
        }
        if self.goals:
            out["goal_cards"] = {
                "mine": [GOALS[g] for g in self.goal_hands[seat]] if seat is not None else [],
                "kept": [
                    GOALS[g] if g != EMPTY and (over or s == seat) else None for s, g in enumerate(self.goal_kept)
                ],
                "chosen": [g != EMPTY for g in self.goal_kept],
            }
        if self.solo:
            out["danny"] = {"tiles": [tile_view(t) for t in self.danny], "scores": self.danny_scores()}
        if seat is not None and seat in waiting:
            prompt = self._prompt(seat)
            out["prompt"] = {
                "seat": seat,
                "kind": prompt.kind,
                "options": [{"id": o.id, "code": _jsonable(o.code)} for o in prompt.options],
            }
        outcome = self.outcome()
        out["outcome"] = outcome.to_dict() if outcome else None
        return out

    # ------------------------------------------------------------------ saving, copying, fairness

    def _state(self) -> dict[str, Any]:
        def ids(tiles: Iterable[int]) -> list[str]:
            return [TILES[t].id for t in tiles]

        return {
            "format": FORMAT,
            "rules": self.rules,
            "seats": self.seats,
            "goals": self.goals,
            "seed": self.seed,
            "counter": self.counter,
            "koi_stack": ids(self.koi_stack),
            "feature_stack": ids(self.feature_stack),
            "box": ids(self.box),
            "board": [None if t == EMPTY else TILES[t].id for t in self.board],
            "ponds": [[[*xy(c), TILES[t].id] for c, t in sorted(p.items())] for p in self.ponds],
            "turns": self.turns,
            "turn_no": self.turn_no,
            "current": self.current,
            "phase": self.phase,
            "hand": ids(self.hand),
            "placed": [list(xy(c)) for c in self.placed],
            "zone": self.zone,
            "goal_hands": [[GOALS[g] for g in h] for h in self.goal_hands],
            "goal_kept": [None if g == EMPTY else GOALS[g] for g in self.goal_kept],
            "goal_box": [GOALS[g] for g in self.goal_box],
            "danny": ids(self.danny),
            "end_reason": self.end_reason,
            "version": self.version,
        }

    def to_json(self) -> str:
        """The whole state as canonical JSON, seed included: keep it private. `load_match` gives an equal match."""
        return json.dumps(self._state(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Match) and self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]  # a mutable state is not hashable

    def __repr__(self) -> str:
        state = "over" if self.phase == OVER else f"turn {self.turn_no}, seat {self.current}, {self.phase}"
        return f"<Kōhaku match, {self.seats} seat(s): {state}>"

    def clone(self) -> Match:
        """An independent copy, cheap enough for look-ahead."""
        m = Match.__new__(Match)
        m.rules = self.rules
        m.seats = self.seats
        m.goals = self.goals
        m.seed = self.seed
        m._key = self._key
        m.counter = self.counter
        m.koi_stack = list(self.koi_stack)
        m.feature_stack = list(self.feature_stack)
        m.box = list(self.box)
        m.board = list(self.board)
        m.ponds = [dict(p) for p in self.ponds]
        m.frontier = [set(f) for f in self.frontier]
        m.turns = list(self.turns)
        m.turn_no = self.turn_no
        m.current = self.current
        m.phase = self.phase
        m.hand = list(self.hand)
        m.placed = list(self.placed)
        m.zone = self.zone
        m.goal_hands = [list(h) for h in self.goal_hands]
        m.goal_kept = list(self.goal_kept)
        m.goal_box = list(self.goal_box)
        m.danny = list(self.danny)
        m.end_reason = self.end_reason
        m.version = self.version
        return m

    def determinized(self, seat: int | None, seed: int) -> Match:
        """A copy in which everything `seat` cannot see is redrawn from `seed`: which unseen koi tiles are in the
        stack and which in the box, the future draws, and the other seats' goal cards. It depends only on what
        `seat` sees and on `seed`, so a decision made on it cannot use hidden information."""
        m = self.clone()
        m.reseed(seed)
        m.counter = 0
        unseen = sorted(self.koi_stack + self.box)
        m.box = sorted(m._take(unseen) for _ in range(len(self.box)))
        m.koi_stack = unseen
        if self.goals:
            known = set(self.goal_hands[seat]) if seat is not None else set()
            pool = sorted(g for g in range(len(GOALS)) if g not in known)
            for s in range(self.seats):
                if s == seat:
                    continue
                m.goal_hands[s] = sorted(m._take(pool) for _ in range(len(self.goal_hands[s])))
                if self.goal_kept[s] != EMPTY:
                    m.goal_kept[s] = m.goal_hands[s][0]
            m.goal_box = pool
        return m


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def deal(seats: int, *, seed: int, goals: bool = False, rules: int = CURRENT_RULES) -> Match:
    """Set up a match: `seats` 1-4 (1 = solo against Danny), the seed of all its chance, the goal-card option
    (2-4 seats only) and the rules version (new matches take the current one, stored ones their own)."""
    if not isinstance(seats, int) or isinstance(seats, bool) or not 1 <= seats <= MAX_SEATS:
        raise ValueError(f"seats must be 1 to {MAX_SEATS}, not {seats!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    if not isinstance(rules, int) or isinstance(rules, bool) or rules not in RULES_VERSIONS:
        raise ValueError(f"rules must be one of {', '.join(map(str, RULES_VERSIONS))}, not {rules!r}")
    if not isinstance(goals, bool):
        raise ValueError(f"goals must be true or false, not {goals!r}")
    if goals and seats == 1:
        raise ValueError("goal cards are dealt to players only: not in a solo game")
    m = Match._blank(seats, seed, goals, rules)
    eligible = koi_in_box(seats, rules)
    m.box = sorted(m._take(eligible) for _ in range(REMOVED[seats]))
    m.koi_stack = eligible
    m.feature_stack = sorted(FEATURES)
    for space in range(N_SPACES):
        m.board[space] = m._take(m.koi_stack if KOI_SPACE[space] else m.feature_stack)
    m.current = 0 if seats == 1 else m._take(list(range(seats)))
    if goals:
        pool = list(range(len(GOALS)))
        for s in range(seats):
            m.goal_hands[s] = sorted(m._take(pool) for _ in range(GOALS_PER_PLAYER))
        m.goal_box = pool
        m.phase = GOALS_PHASE
    return m


def replay(
    seats: int,
    *,
    seed: int,
    actions: Sequence[tuple[int, str]] = (),
    goals: bool = False,
    rules: int = CURRENT_RULES,
) -> Match:
    """The match reached by applying `actions` ((seat, action id) pairs) to a new deal."""
    match = deal(seats, seed=seed, goals=goals, rules=rules)
    for seat, action in actions:
        match.apply(seat, action)
    return match


def tile_index(tile_id: str) -> int:
    """The index of a tile id ("k01"-"k58", "f01"-"f62"); KeyError for an unknown id."""
    return TILE_BY_ID[tile_id]


__all__ = [
    "CURRENT_RULES",
    "DANNY",
    "MAX_OPTIONS",
    "RULES_VERSIONS",
    "Match",
    "danny_scores",
    "deal",
    "place_id",
    "replay",
    "tile_index",
    "tile_view",
    "zones",
]

"""What one option of the current prompt will do, as data: where a kokeshi lands, what is bought and where it goes,
discs, placements, pairs, recognitions, leads and points, up to the next decision or the first random draw.

The rules themselves answer: the option is carried out on a sealed copy of the game whose generator refuses to
draw, so the preview is exactly what `apply` would do up to that point and nothing past it. Whatever follows a
draw (the tile that refills the offer, the automa's tile in solo) is only named as "a draw follows" (`draw`),
never guessed. Words for an outcome live in `games.kokeshi.vocab`; pictures read the same data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .data import (
    ANIMAL_POINTS,
    ANIMALS,
    ANY2,
    END_RECOGNITIONS,
    HEIGHTS,
    KOKESHI,
    N_TRACKS,
    RED_LINE,
    TILE_BY_ID,
    TILE_COLOR,
)
from .game import Game
from .model import Event, IllegalAction

# Where a move ends: an empty space (home, then a purchase), a tile (its effects), a quality tile (one more step)
# or past the top (home and points).
EMPTY, TILE, QUALITY, TOP = "empty", "tile", "quality", "top"
# What a draw from the bag would decide: the tile refilling the offer, or the automa's tile (solo).
OFFER_DRAW, AUTOMA_DRAW = "offer", "automa"
_TURN_ENDS = frozenset({"turn_ended", "setup_done", "game_over"})
# The engine's reasons for a purchase that cannot happen (`Game._skip_reason`): on one track, or on none.
_NO_PURCHASE = frozenset({"offer_empty", "every_track_full"})
_SCORE_KEYS = ("in_play", "tracks", "quality", "animals", "leads", "adjacency")


class _DrawReached(Exception):
    """The sealed copy was about to draw from the bag: the preview ends there."""


class _Sealed(Game):
    """A copy of a game that stops before any random draw."""

    __slots__ = ()

    def _rand(self, n: int) -> int:
        raise _DrawReached


@dataclass(frozen=True, slots=True)
class Landing:
    """One move of a kokeshi: the height it left and the space it reached (`to` is HEIGHTS + 1 past the top)."""

    kokeshi: str
    start: int
    to: int
    space: str  # EMPTY, TILE, QUALITY or TOP
    tile: str | None = None  # the tile on that space (TILE, QUALITY)
    steps: int = 1  # 2 for "any kokeshi two spaces" (only the second space counts)


@dataclass(frozen=True, slots=True)
class Purchase:
    """A purchase: made by the option (`tile` set), or the one the option leads to (`tile` None: still to choose).

    `track` is a kokeshi id, or None for the side reserve (any track, chosen when placing); `height` the space the
    tile takes on its track once placed after the tiles already reserved there (None for the side reserve);
    `pairs` the same-colour pairs it makes there with tiles already on the board (a bought tile of known colour);
    `quality` the levels of quality tile also offered; `skipped` the engine's reason code when nothing can be
    bought (`track_full` names `track`).
    """

    track: str | None
    height: int | None
    tile: str | None = None
    quality: tuple[int, ...] = ()
    pairs: int = 0
    skipped: str | None = None


@dataclass(frozen=True, slots=True)
class DiscStep:
    """A disc moving one space on an animal track, with the values printed on the board for both spaces."""

    player: str
    animal: str
    start: int
    to: int
    value_start: int
    value_to: int
    red_line: bool = False  # crossing it: a recognition
    bonus: str | None = None  # the bonus tile collected on arrival


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile going on a workshop track (the player's, or the automa's in solo)."""

    player: str
    tile: str
    track: str
    height: int
    pairs: int = 0


@dataclass(frozen=True, slots=True)
class LeadChange:
    """Who is ahead on an animal track before and after (None: nobody has left the start)."""

    animal: str
    before: str | None
    after: str | None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What choosing `action` does at once, for `player` who decides it."""

    action: str
    kind: str
    player: str
    rules: int = 3  # the rules version of the game (tiles read as that version has them)
    landings: tuple[Landing, ...] = ()
    purchases: tuple[Purchase, ...] = ()
    discs: tuple[DiscStep, ...] = ()
    placements: tuple[Placement, ...] = ()
    leads: tuple[LeadChange, ...] = ()
    recognitions: int = 0  # gained by the player
    recognitions_total: int = 0
    recognitions_goal: int = 5  # recognitions that trigger the end in this game
    points: int = 0  # the player's score change, as if the game ended right after
    items: tuple[tuple[str, int], ...] = ()  # score items that change, with their change
    # The engine's reasons for effects that do nothing: each an `effect_skipped` event's data, as sorted pairs.
    skipped: tuple[tuple[tuple[str, str], ...], ...] = ()
    draw: str | None = None  # OFFER_DRAW or AUTOMA_DRAW: a random draw comes next, and the preview stops there
    next: str | None = None  # the next decision of this turn (a prompt kind), None when the turn ends or a draw comes
    next_options: tuple[str, ...] = ()  # its option ids
    ends_turn: bool = False
    end: str | None = None  # the end of the game is triggered (its reason)
    events: tuple[str, ...] = field(default=(), compare=False)  # the event kinds seen, in order (for tests)

    @property
    def landing(self) -> Landing | None:
        """The first move: where the chosen kokeshi arrives."""
        return self.landings[0] if self.landings else None

    @property
    def path(self) -> tuple[Landing, ...]:
        """The chosen kokeshi's way: its first move and the quality steps that carry it on."""
        if not self.landings:
            return ()
        path = [self.landings[0]]
        for step in self.landings[1:]:
            last = path[-1]
            if last.space != QUALITY or step.kokeshi != last.kokeshi or step.start != last.to:
                break
            path.append(step)
        return tuple(path)

    @property
    def final(self) -> Landing | None:
        """Where the chosen kokeshi's way ends (the landing itself when it is not a quality tile)."""
        path = self.path
        return path[-1] if path else None

    @property
    def pending(self) -> Purchase | None:
        """The purchase to choose next, if the option leads to one."""
        return next((p for p in self.purchases if p.tile is None and p.skipped is None), None)

    def leads_won(self) -> tuple[str, ...]:
        """Animal tracks the player takes the lead on."""
        return tuple(c.animal for c in self.leads if c.after == self.player)

    def leads_lost(self) -> tuple[str, ...]:
        """Animal tracks the player stops leading."""
        return tuple(c.animal for c in self.leads if c.before == self.player)


def preview(game: Game, action: str) -> Outcome:
    """What `action`, one of the current prompt's option ids, does at once. Raises IllegalAction otherwise."""
    prompt = game.prompt
    if prompt is None:
        raise IllegalAction("game_over", [])
    option = next((o for o in prompt.options if o.id == action), None)
    if option is None:
        legal = [o.id for o in prompt.options]
        raise IllegalAction("illegal", legal, action=action)
    seat = game.current
    sealed = game.clone()
    sealed.__class__ = _Sealed
    events: list[Event] = []
    decision = sealed.decision
    assert decision is not None  # the game has a prompt
    sealed.version += 1
    sealed.decision = None
    sealed._options = ()
    drawn = False
    try:
        sealed._choose(option, decision, events)
        sealed._run(events)
    except _DrawReached:
        drawn = True
    return _outcome(game, sealed, seat, prompt.kind, action, events, drawn)


def preview_all(game: Game) -> dict[str, Outcome]:
    """The outcome of every option of the current prompt, by action id (empty once the game is over)."""
    prompt = game.prompt
    if prompt is None:
        return {}
    return {o.id: preview(game, o.id) for o in prompt.options}


# ---------------------------------------------------------------- reading the sealed copy


def _space(game: Game, seat: int, k: int, height: int) -> tuple[str, str | None]:
    """What lies at `height` of a track (tracks change only when tiles are placed, at the end of a turn)."""
    if height > HEIGHTS:
        return TOP, None
    track = game.tracks[seat][k]
    if height > len(track):
        return EMPTY, None
    tile = game.tiles[track[height - 1]]
    return (QUALITY if tile.kind == "quality" else TILE), tile.id


def _reserved_height(game: Game, seat: int, tile: int, track: int) -> int:
    """The height a reserved tile takes if the tiles reserved before it for the same track go first."""
    before = 0
    for t, k in game.reserve[seat]:
        if k != track:
            continue
        before += 1
        if t == tile:
            break
    return len(game.tracks[seat][track]) + before


def _pairs_if_placed(game: Game, seat: int, tile: int, track: int, height: int) -> int:
    """Same-colour pairs a tile would make at `height` of `track` with the tiles on the board now."""
    if game.solo and seat == 1:
        return 0
    color = TILE_COLOR[tile]
    pairs = 0
    below = height - 1
    if below == 0:
        pairs += color == track
    elif below <= len(game.tracks[seat][track]):
        pairs += TILE_COLOR[game.tracks[seat][track][below - 1]] == color
    for k in (track - 1, track + 1):
        if 0 <= k < N_TRACKS and height <= len(game.tracks[seat][k]):
            pairs += TILE_COLOR[game.tracks[seat][k][height - 1]] == color
    return pairs


def _outcome(before: Game, after: Game, seat: int, kind: str, action: str, events: list[Event], drawn: bool) -> Outcome:
    player = before.names[seat]
    seen: list[Event] = []
    ended = False
    for event in events:
        seen.append(event)
        if event.kind in _TURN_ENDS:
            ended = True
            break
    landings: list[Landing] = []
    purchases: list[Purchase] = []
    discs: list[DiscStep] = []
    placements: list[Placement] = []
    skipped: list[tuple[tuple[str, str], ...]] = []
    end = None
    values = ANIMAL_POINTS[before.side]
    two_steps = action.startswith("kokeshi:") and before.decision is not None and before.decision[1] == ANY2
    for event in seen:
        d = event.data
        who = before.names.index(event.player) if event.player in before.names else seat
        if event.kind == "kokeshi_moved":
            k = KOKESHI.index(d["kokeshi"])
            space, tile = _space(before, who, k, d["to"])
            steps = d["to"] - d["start"]
            landings.append(Landing(d["kokeshi"], d["start"], d["to"], space, tile, steps))
        elif event.kind == "top_passed":
            start = d["height"]
            steps = 2 if two_steps and not landings else 1
            landings.append(Landing(d["kokeshi"], start, HEIGHTS + 1, TOP, None, steps))
        elif event.kind == "tile_bought":
            index = TILE_BY_ID[d["tile"]]
            if d["track"] is None:
                purchases.append(Purchase(None, None, d["tile"]))
            else:
                k = KOKESHI.index(d["track"])
                height = _reserved_height(after, who, index, k)
                pairs = _pairs_if_placed(before, who, index, k, height)
                purchases.append(Purchase(d["track"], height, d["tile"], pairs=pairs))
        elif event.kind == "quality_bought":
            index = TILE_BY_ID[d["tile"]]
            k = KOKESHI.index(d["kokeshi"])
            height = _reserved_height(after, who, index, k)
            pairs = _pairs_if_placed(before, who, index, k, height)
            purchases.append(Purchase(d["kokeshi"], height, d["tile"], quality=(d["level"],), pairs=pairs))
        elif event.kind == "disc_moved":
            a = ANIMALS.index(d["animal"])
            to = d["to"]
            discs.append(
                DiscStep(event.player, d["animal"], to - 1, to, values[a][to - 1], values[a][to], to == RED_LINE)
            )
        elif event.kind == "bonus_taken":
            if discs:
                last = discs[-1]
                discs[-1] = DiscStep(
                    last.player,
                    last.animal,
                    last.start,
                    last.to,
                    last.value_start,
                    last.value_to,
                    last.red_line,
                    d["tile"],
                )
        elif event.kind in ("tile_placed", "automa_quality"):
            placements.append(Placement(event.player, d["tile"], d["kokeshi"], d["height"], d.get("pairs", 0)))
        elif event.kind == "effect_skipped" and event.player == player:
            skipped.append(tuple(sorted(d.items())))
        elif event.kind == "end_triggered":
            end = d["reason"]
    next_kind = None
    next_options: tuple[str, ...] = ()
    if not ended and not drawn and after.decision is not None and after.current == seat:
        next_kind = after.decision[0]
        next_options = tuple(o.id for o in after._options)
        if next_kind == "buy":
            _, target, _activated, _allowed = after.decision
            quality = tuple(int(o.split(":")[1]) for o in next_options if o.startswith("quality:"))
            if target < 0:
                purchases.append(Purchase(None, None, quality=quality))
            else:
                height = HEIGHTS - after._room(seat, target) + 1
                purchases.append(Purchase(KOKESHI[target], height, quality=quality))
    # A purchase the rules skip (a full track, an empty offer) is named where the buy would have been.
    for facts in skipped:
        why = dict(facts)
        if why["reason"] == "track_full":
            purchases.append(Purchase(why["kokeshi"], None, skipped=why["reason"]))
        elif why["reason"] in _NO_PURCHASE:
            purchases.append(Purchase(None, None, skipped=why["reason"]))
    draw = None
    if drawn:
        draw = OFFER_DRAW if seen and seen[-1].kind == "tile_bought" else AUTOMA_DRAW
    old, new = before.scores()[player], after.scores()[player]
    items = tuple(
        (key, getattr(new, key) - getattr(old, key)) for key in _SCORE_KEYS if getattr(new, key) != getattr(old, key)
    )
    leaders_before, leaders_after = before._leaders(), after._leaders()
    leads = tuple(
        LeadChange(
            ANIMALS[a],
            None if b < 0 else before.names[b],
            None if c < 0 else before.names[c],
        )
        for a, (b, c) in enumerate(zip(leaders_before, leaders_after, strict=True))
        if b != c
    )
    return Outcome(
        action=action,
        kind=kind,
        player=player,
        rules=before.rules,
        landings=tuple(landings),
        purchases=tuple(purchases),
        discs=tuple(discs),
        placements=tuple(placements),
        leads=leads,
        recognitions=after.recognitions[seat] - before.recognitions[seat],
        recognitions_total=after.recognitions[seat],
        recognitions_goal=END_RECOGNITIONS[min(len(before.names), 4)],
        points=new.total - old.total,
        items=items,
        skipped=tuple(skipped),
        draw=draw,
        next=next_kind,
        next_options=next_options,
        ends_turn=ended,
        end=end,
        events=tuple(e.kind for e in seen),
    )


__all__ = [
    "AUTOMA_DRAW",
    "EMPTY",
    "OFFER_DRAW",
    "QUALITY",
    "TILE",
    "TOP",
    "DiscStep",
    "Landing",
    "LeadChange",
    "Outcome",
    "Placement",
    "Purchase",
    "preview",
    "preview_all",
]

"""Building exact game positions for rule tests, without breaking tile conservation."""

from __future__ import annotations

from games.kokeshi.engine import CURRENT_RULES, Event, Game, new_game
from games.kokeshi.engine.data import COLORS, KOKESHI, QUALITY_TILE, TILE_BY_ID, TILES
from games.kokeshi.engine.options import ADVANCE

NAMES = ("ana", "bo", "cy", "di")


def tile_ids(color: str, type_: str) -> list[str]:
    """Ids of every tile of this colour and type, e.g. ("pink", "plus3")."""
    c = COLORS.index(color)
    return [t.id for t in TILES if t.color == c and t.type == type_]


def tile(color: str, type_: str, nth: int = 0) -> str:
    """The id of one tile of this colour and type."""
    return tile_ids(color, type_)[nth]


def quality(kokeshi: str, level: int) -> str:
    """The id of a quality tile."""
    return TILES[QUALITY_TILE[KOKESHI.index(kokeshi)][level - 1]].id


def detach(g: Game, tile_id: str) -> int:
    """Remove a tile from wherever it is and return its index."""
    index = TILE_BY_ID[tile_id]
    spec = TILES[index]
    if spec.kind == "quality" and spec.level in g.quality_supply[spec.color]:
        g.quality_supply[spec.color].remove(spec.level)
        return index
    for pool in (g.bag, g.discard):
        if index in pool:
            pool.remove(index)
            return index
    for i, t in enumerate(g.offer):
        if t == index:
            g.offer[i] = -1
            return index
    for i, t in enumerate(g.slots):
        if t == index:
            g.slots[i] = -1
            return index
    for reserve in g.reserve:
        for entry in reserve:
            if entry[0] == index:
                reserve.remove(entry)
                return index
    for tracks in g.tracks:
        for track in tracks:
            if index in track:
                track.remove(index)
                return index
    raise AssertionError(f"tile {tile_id} is nowhere")


def filler(g: Game, count: int, avoid_color: str | None = None) -> list[str]:
    """Ids of `count` normal tiles still in the bag, of colours other than `avoid_color`."""
    avoid = COLORS.index(avoid_color) if avoid_color else -1
    found = [TILES[t].id for t in g.bag if TILES[t].color != avoid and TILES[t].kind == "normal"]
    return found[:count]


def set_track(g: Game, seat: int, kokeshi: str, ids: list[str]) -> None:
    """Make a workshop track hold exactly these tiles, bottom to top."""
    k = KOKESHI.index(kokeshi)
    for t in g.tracks[seat][k]:
        (g.bag if TILES[t].kind == "normal" else g.discard).append(t)
    g.tracks[seat][k] = []
    g.bag.sort()
    g.tracks[seat][k] = [detach(g, i) for i in ids]


def set_offer(g: Game, ids: list[str | None]) -> None:
    """Put these tiles (None = empty slot) in the offer; displaced tiles return to the bag."""
    for t in g.offer:
        if t != -1:
            g.bag.append(t)
    g.offer = [-1] * len(g.offer)
    g.bag.sort()
    g.offer = [-1 if i is None else detach(g, i) for i in ids]


def empty_bag(g: Game) -> None:
    """Move every tile of the bag to the discard pile."""
    g.discard.extend(g.bag)
    g.bag.clear()


def ready(
    players: int = 2, *, seed: int = 0, side: str = "basic", solo: bool = False, rules: int = CURRENT_RULES
) -> Game:
    """A game past setup with empty workshop boards, waiting for the first player to advance a kokeshi."""
    g = new_game(NAMES[:players], seed=seed, side=side, solo=solo, rules=rules)
    for p in range(g.humans):
        for t, _ in g.reserve[p]:
            g.discard.append(t)
        g.reserve[p].clear()
    g.round = 1
    g.current = 0
    g.decision = ["advance"]
    g._options = ADVANCE
    return g


def play(g: Game, *actions: str) -> list[Event]:
    """Apply actions for whoever is prompted; returns all their events."""
    events: list[Event] = []
    for action in actions:
        events.extend(g.apply(g.prompt.player, action))
    return events


def kinds(events: list[Event]) -> list[str]:
    """The event kinds, in order."""
    return [e.kind for e in events]


def option_ids(g: Game) -> list[str]:
    """The ids the current prompt offers."""
    return g.legal_actions()


def conserved(g: Game) -> bool:
    """Every one of the 75 tiles is in exactly one place."""
    seen = list(g.bag) + [t for t in g.offer if t != -1] + [t for t in g.slots if t != -1] + list(g.discard)
    seen += [t for tracks in g.tracks for track in tracks for t in track]
    seen += [t for reserve in g.reserve for t, _ in reserve]
    seen += [QUALITY_TILE[k][lv - 1] for k, levels in enumerate(g.quality_supply) for lv in levels]
    return sorted(seen) == list(range(len(TILES)))

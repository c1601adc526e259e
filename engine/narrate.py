"""Plain-English sentences for engine events, used by logs and the bot's turn narration."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import ANIMAL_NAMES, ANIMALS, IDLE_ROUNDS, KOKESHI, KOKESHI_NAMES, TILE_BY_ID, TILES

if TYPE_CHECKING:
    from .model import Event


def _k(name: str) -> str:
    return KOKESHI_NAMES[KOKESHI.index(name)]


def _a(name: str) -> str:
    return ANIMAL_NAMES[ANIMALS.index(name)]


def _tile(tile_id: str) -> str:
    return TILES[TILE_BY_ID[tile_id]].name


def describe(event: Event) -> str:
    """One sentence for `event`, naming the seat that acted."""
    d = event.data
    who = event.player
    kind = event.kind
    if kind == "kokeshi_moved":
        return f"{who}'s {_k(d['kokeshi'])} moves from height {d['start']} to {d['to']}."
    if kind == "kokeshi_home":
        return f"{who}'s {_k(d['kokeshi'])} finds an empty space and goes home."
    if kind == "top_passed":
        return f"{who}'s {_k(d['kokeshi'])} passes the top, goes home and scores {d['points']} points."
    if kind == "quality_step":
        return f"{who}'s {_k(d['kokeshi'])} lands on a quality tile and moves up once more."
    if kind == "tile_activated":
        return f"{who}'s {_k(d['kokeshi'])} activates the {_tile(d['tile'])} tile."
    if kind == "effect_chosen":
        return f"{who} chooses: {d['label']}."
    if kind == "auto_choice":
        return f"{who}: only one choice — {d['label']}."
    if kind == "effect_skipped":
        return f"{who}: an effect is skipped because {d['reason']}."
    if kind == "tile_bought":
        where = f"the {_k(d['track'])} track" if d["track"] else "any track"
        return f"{who} buys the {_tile(d['tile'])} tile for {where}."
    if kind == "tile_drawn":
        return f"The {_tile(d['tile'])} tile is drawn from the bag into the offer."
    if kind == "bag_empty":
        return "The bag is empty: the offer cannot be refilled."
    if kind == "quality_bought":
        return f"{who} takes the level {d['level']} {_k(d['kokeshi'])} quality tile: a recognition."
    if kind == "quality_discarded":
        return f"The remaining {_k(d['kokeshi'])} quality tiles leave the game."
    if kind == "automa_quality":
        return f"The automa receives a {_k(d['kokeshi'])} quality tile at height {d['height']}: a recognition."
    if kind == "automa_tile":
        return f"The automa draws the {_tile(d['tile'])} tile for its {_k(d['kokeshi'])} track."
    if kind == "disc_moved":
        return f"{who}'s {_a(d['animal'])} disc advances to {d['to']}."
    if kind == "red_line_crossed":
        return f"{who} crosses the red line on the {_a(d['animal'])} track: a recognition ({d['recognitions']})."
    if kind == "bonus_taken":
        return f"{who} collects the bonus {_tile(d['tile'])} tile."
    if kind == "tile_placed":
        penalty = f" ({d['pairs']} same-colour pair{'s' if d['pairs'] != 1 else ''})" if d["pairs"] else ""
        where = f"the {_k(d['kokeshi'])} track at height {d['height']}"
        return f"{who} places the {_tile(d['tile'])} tile on {where}{penalty}."
    if kind == "tile_discarded":
        return f"The {_tile(d['tile'])} tile is discarded: {d['reason']}."
    if kind == "end_triggered":
        why = {
            "recognitions": "a player has enough recognitions",
            "bag": "the bag ran out",
            "stall": f"too many turns went by without a purchase, {IDLE_ROUNDS} rounds' worth",
        }.get(d["reason"], d["reason"])
        return f"The end is triggered ({why}): round {d['final_round']} is the last."
    if kind == "setup_done":
        return f"{who} has placed their starting tiles; {d['next']} is next."
    if kind == "turn_ended":
        return f"{who}'s turn ends; {d['next']} is next."
    if kind == "game_over":
        return f"The game is over. Winner: {d['ranking'][0]}."
    return f"{who}: {kind}."

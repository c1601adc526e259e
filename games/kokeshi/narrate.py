"""Sentences for engine events in the current language, for logs and the turn narration; words from `vocab`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from games.kokeshi.engine.data import ANIMAL_POINTS, ANIMALS, IDLE_ROUNDS, KOKESHI, TILE_BY_ID, TILES
from i18n import _, ngettext

from . import vocab

if TYPE_CHECKING:
    from games.kokeshi.engine.model import Event


_k = vocab.kokeshi
_a = vocab.animal


def _tile(tile_id: str) -> str:
    return vocab.tile(tile_id)


def choice_words(d: Mapping[str, Any]) -> str:
    """A choice's words, rebuilt from its ids where they say enough, else from the option's `words` the event
    carries (a code and its values)."""
    try:
        if "tile" in d and "side" in d:
            return vocab.effect_choice(TILES[TILE_BY_ID[d["tile"]]].atoms[int(d["side"])])
        kind, _, rest = str(d.get("choice", "")).partition(":")
        if kind == "place":
            tile, track = rest.split(":")
            if tile in TILE_BY_ID and track in KOKESHI:
                return vocab.place(tile, track)
    except (KeyError, IndexError, ValueError):
        pass
    return vocab.label_of(d["words"]) if d.get("words") else str(d.get("choice", ""))


def describe(event: Event, side: str | None = None) -> str:
    """One sentence for `event`, naming the seat that acted; with the board `side`, a disc is told by the value
    printed where it stands."""
    text = _describe(event, side)
    # The automa's name is a common noun ("automa", "jogador fictício"): a sentence still starts with a capital.
    if event.player == vocab.AUTOMA_SEAT and text[:1].islower():
        text = text[:1].upper() + text[1:]
    return text


def _describe(event: Event, side: str | None) -> str:
    d = event.data
    who = vocab.seat_name(event.player)
    kind = event.kind
    if kind == "kokeshi_moved":
        return _("{who}'s {kokeshi} moves from height {start} to {to}.").format(
            who=who, kokeshi=_k(d["kokeshi"]), start=d["start"], to=d["to"]
        )
    if kind == "kokeshi_home":
        return _("{who}'s {kokeshi} finds an empty space and goes home.").format(who=who, kokeshi=_k(d["kokeshi"]))
    if kind == "top_passed":
        return _("{who}'s {kokeshi} passes the top, goes home and scores {points} points.").format(
            who=who, kokeshi=_k(d["kokeshi"]), points=d["points"]
        )
    if kind == "quality_step":
        return _("{who}'s {kokeshi} lands on a quality tile and moves up once more.").format(
            who=who, kokeshi=_k(d["kokeshi"])
        )
    if kind == "tile_activated":
        return _("{who}'s {kokeshi} activates its tile ({tile}).").format(
            who=who, kokeshi=_k(d["kokeshi"]), tile=_tile(d["tile"])
        )
    if kind == "effect_chosen":
        return _("{who} chooses: {choice}.").format(who=who, choice=choice_words(d))
    if kind == "auto_choice":
        return _("{who}: only one choice — {choice}.").format(who=who, choice=choice_words(d))
    if kind == "effect_skipped":
        return _("{who}: an effect is skipped because {reason}.").format(who=who, reason=vocab.reason(d))
    if kind == "tile_bought":
        if d["track"]:
            return _("{who} buys a tile ({tile}) for the {kokeshi} track.").format(
                who=who, tile=_tile(d["tile"]), kokeshi=_k(d["track"])
            )
        return _("{who} buys a tile ({tile}) for any track.").format(who=who, tile=_tile(d["tile"]))
    if kind == "tile_drawn":
        return _("A tile ({tile}) is drawn from the bag into the offer.").format(tile=_tile(d["tile"]))
    if kind == "bag_empty":
        return _("The bag is empty: the offer cannot be refilled.")
    if kind == "quality_bought":
        return _("{who} takes the level {level} {kokeshi} quality tile: a recognition.").format(
            who=who, level=d["level"], kokeshi=_k(d["kokeshi"])
        )
    if kind == "quality_discarded":
        return _("The remaining {kokeshi} quality tiles leave the game.").format(kokeshi=_k(d["kokeshi"]))
    if kind == "automa_quality":
        return _("The automa receives a {kokeshi} quality tile at height {height}: a recognition.").format(
            kokeshi=_k(d["kokeshi"]), height=d["height"]
        )
    if kind == "automa_tile":
        return _("The automa draws a tile ({tile}) for its {kokeshi} track.").format(
            tile=_tile(d["tile"]), kokeshi=_k(d["kokeshi"])
        )
    if kind == "disc_moved":
        to = d["to"]
        if side in ANIMAL_POINTS:
            to = ANIMAL_POINTS[side][ANIMALS.index(d["animal"])][int(to)]
        return _("{who}'s {animal} disc advances to {to}.").format(who=who, animal=_a(d["animal"]), to=to)
    if kind == "red_line_crossed":
        return _("{who} crosses the red line on the {animal} track: a recognition ({count}).").format(
            who=who, animal=_a(d["animal"]), count=d["recognitions"]
        )
    if kind == "bonus_taken":
        return _("{who} collects a bonus tile ({tile}).").format(who=who, tile=_tile(d["tile"]))
    if kind == "tile_placed":
        values = {"who": who, "tile": _tile(d["tile"]), "kokeshi": _k(d["kokeshi"]), "height": d["height"]}
        if d["pairs"]:
            return ngettext(
                "{who} places a tile ({tile}) on the {kokeshi} track at height {height} ({pairs} same-colour pair).",
                "{who} places a tile ({tile}) on the {kokeshi} track at height {height} ({pairs} same-colour pairs).",
                d["pairs"],
            ).format(pairs=d["pairs"], **values)
        return _("{who} places a tile ({tile}) on the {kokeshi} track at height {height}.").format(**values)
    if kind == "tile_discarded":
        return _("A tile ({tile}) is discarded: {reason}.").format(tile=_tile(d["tile"]), reason=vocab.reason(d))
    if kind == "end_triggered":
        return describe_end(d, who)
    if kind == "idle_turn":
        return _(
            "That was an idle turn for {who} ({count} of {limit}): a kokeshi passed the top, with no tile taken "
            "from the offer and no recognition gained."
        ).format(who=who, count=d["count"], limit=d["limit"])
    if kind == "setup_done":
        return _("{who} has placed their starting tiles; {next} is next.").format(
            who=who, next=vocab.seat_name(d["next"])
        )
    if kind == "turn_ended":
        return _("{who}'s turn ends; {next} is next.").format(who=who, next=vocab.seat_name(d["next"]))
    if kind == "game_over":
        return _("The game is over. Winner: {winner}.").format(winner=vocab.seat_name(d["ranking"][0]))
    return _("{who}: {kind}.").format(who=who, kind=kind)


def describe_end(d: Mapping[str, Any], who: str) -> str:
    """Why the end is triggered (`who` triggered it) and which round is the last, as a sentence."""
    if d["reason"] == "recognitions":
        return _("The end is triggered (a player has enough recognitions): round {round} is the last.").format(
            round=d["final_round"]
        )
    if d["reason"] == "stall" and "limit" in d:
        return _(
            "The end is triggered: {who} has played {turns} idle turns, the limit (turns in which a kokeshi "
            "passed the top, with no tile taken from the offer and no recognition gained). Round {round} is the "
            "last."
        ).format(who=who, turns=d["turns"], round=d["final_round"])
    if d["reason"] == "stall" and "turns" in d:
        return _(
            "The end is triggered: the table has played {turns} turns without taking a tile from the offer, "
            "counted over the whole game (not in a row), the limit. Round {round} is the last."
        ).format(turns=d["turns"], round=d["final_round"])
    if d["reason"] == "stall":
        return _(
            "The end is triggered ({rounds} rounds' worth of turns went by without a purchase): "
            "round {round} is the last."
        ).format(rounds=IDLE_ROUNDS, round=d["final_round"])
    return _("The end is triggered (the bag ran out): round {round} is the last.").format(round=d["final_round"])

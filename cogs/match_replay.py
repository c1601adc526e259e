"""Replays of finished contract games (any game but Kokeshi): turn by turn, from the stored log, through the contract.

A turn is the decisions up to the one that ended it (`Match.turn_key` changed, or the match ended): a round of
simultaneous bids is one turn. Each step shows the game's narration of the turn and the table as anyone saw it
after the turn, the turn's events marked: the views come from a replay of the log from the deal in the store, and
only public ones leave it. The viewer's buttons are every game's (`cogs.replay_items`); `cogs.replay` calls here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

import discord

import games
from games.base import GameModule
from i18n import _, format_number
from storage import GameRecord, MatchDecision, Store

from . import common
from .matches import places_text, seat_names
from .since import fit, story


def split_turns(decisions: Sequence[MatchDecision]) -> list[list[MatchDecision]]:
    """The decisions grouped by turn, each turn ending with the decision that ended it (a turn still being played
    comes last)."""
    turns: list[list[MatchDecision]] = []
    current: list[MatchDecision] = []
    for decision in decisions:
        current.append(decision)
        if decision.ends_turn:
            turns.append(current)
            current = []
    if current:
        turns.append(current)
    return turns


def deciders(turn: Sequence[MatchDecision], names: Sequence[str]) -> str:
    """Who decided in a turn, in the order they first did: "aiko, botan"."""
    seats = list(dict.fromkeys(d.seat for d in turn))
    return ", ".join(names[s] if 0 <= s < len(names) else "?" for s in seats)


@dataclass(frozen=True)
class MatchPage:
    """One turn of a contract game's replay as the viewer shows it: the text, the picture, the turn shown and how
    many there are, and who played each turn (for the menu)."""

    content: str
    file: discord.File
    number: int
    count: int
    whose: tuple[str, ...]


async def page(store: Store, record: GameRecord, number: int) -> MatchPage:
    """Turn `number` (kept between the first and the last) of a finished contract game."""
    try:
        module: GameModule = games.get(record.game)
    except KeyError:
        raise common.UserError(_("This bot does not know that game.")) from None
    turns = split_turns(await store.match_decisions(record.id))
    names = seat_names(record)
    if not turns:
        raise common.UserError(_("This game has no turns to replay."))
    number = min(max(number, 1), len(turns))
    turn = turns[number - 1]
    last = turn[-1].seq
    view = (await store.match_views(record.id, [last]))[last]
    events = [e for d in turn for e in d.events]
    # The picture is the table once the turn is over: the game's own header there already names the next turn.
    head = _("🎬 **Replay of {game} #{number}** · turn {turn} of {count}, and the table after it").format(
        game=module.name, number=record.id, turn=format_number(number), count=format_number(len(turns))
    )
    tail = []
    if number == len(turns):
        match, _version, _record = await store.load_match(record.id)
        tail.append(places_text(module, record, match.standing()))
    picture = await asyncio.to_thread(module.table_picture, view, names, events)
    alt = _("The {game} table after turn {turn} of {count}, played by {players}.").format(
        game=module.name, turn=format_number(number), count=format_number(len(turns)), players=deciders(turn, names)
    )
    file = common.picture(picture, f"{record.game}-{record.id}-replay-{number}.png", alt)
    whose = tuple(deciders(t, names) for t in turns)
    return MatchPage(fit(head, story(module, turn, names), tail), file, number, len(turns), whose)


__all__ = ["MatchPage", "deciders", "page", "split_turns"]

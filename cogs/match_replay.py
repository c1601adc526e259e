"""Replays of finished contract games (any game but Kokeshi): turn by turn, from the stored log, through the contract.

A turn is the decisions up to the one that ended it (`Match.turn_key` changed, or the match ended): a round of
simultaneous bids is one turn. Each step shows the game's narration of the turn and the table as anyone saw it
after the turn, the turn's events marked: the views come from a replay of the log from the deal in the store, and
only public ones leave it. The whole game animated is cut the same way, a frame per turn, each the game's own table
picture (`film`), and drawn by the replays off the event loop. The viewer's buttons are every game's
(`cogs.replay_items`); `cogs.replay` calls here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

import games
from games.base import Event, GameModule, Turn
from i18n import _, format_number
from storage import GameRecord, MatchDecision, Store

from . import common
from .match_turns import heading
from .matches import places_text, seat_names
from .since import fit, story
from .speech import escaped


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


async def _turns(store: Store, record: GameRecord) -> tuple[GameModule, list[list[MatchDecision]], list[str]]:
    """The game's module, its turns and its players' names, or a refusal in words."""
    try:
        module: GameModule = games.get(record.game)
    except KeyError:
        raise common.UserError(_("This bot does not know that game.")) from None
    turns = split_turns(await store.match_decisions(record.id))
    if not turns:
        raise common.UserError(_("This game has no turns to replay."))
    return module, turns, seat_names(record)


async def page(store: Store, record: GameRecord, number: int) -> MatchPage:
    """Turn `number` (kept between the first and the last) of a finished contract game."""
    module, turns, names = await _turns(store, record)
    number = min(max(number, 1), len(turns))
    turn = turns[number - 1]
    last = turn[-1].seq
    first = turns[number - 2][-1].seq if number > 1 else 0
    views = await store.match_views(record.id, [first, last])
    view = views[last]
    events = [e for d in turn for e in d.events]
    # Told as the thread told it: the game's record of the turn (heading, then its lines), else its narration.
    worded = Turn(turn[0].seat, tuple(events), views[first], view)
    said = escaped(names)
    record_head = heading(module, worded, said)
    lines = module.turn_lines(worded, said)
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
    if record_head:
        head = f"{head}\n{record_head}"
    told = lines if lines is not None else story(module, turn, names)
    return MatchPage(fit(head, told, tail), file, number, len(turns), whose)


@dataclass(frozen=True)
class MatchFilm:
    """What a finished contract game's animation is drawn from: the game, its title, and for every turn the
    arguments of the game's table picture (the public view after it, the names, its events) and the turn's caption.
    Nothing of it is secret: views are a spectator's, events are what the thread told."""

    module: GameModule
    title: str
    steps: tuple[tuple[dict[str, Any], tuple[str, ...], tuple[Event, ...]], ...]
    captions: tuple[str, ...]


async def film(store: Store, record: GameRecord) -> MatchFilm:
    """Every turn of a finished contract game as its animation shows it, captioned in the current language."""
    module, turns, names = await _turns(store, record)
    views = await store.match_views(record.id, [turn[-1].seq for turn in turns])
    count = format_number(len(turns))
    steps = tuple((views[turn[-1].seq], tuple(names), tuple(e for d in turn for e in d.events)) for turn in turns)
    captions = tuple(
        _("after turn {turn} of {count}").format(turn=format_number(n), count=count) for n in range(1, len(turns) + 1)
    )
    return MatchFilm(module, f"{module.name} #{record.id}", steps, captions)


__all__ = ["MatchFilm", "MatchPage", "deciders", "film", "page", "split_turns"]

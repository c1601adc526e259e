"""Kokeshi's finished turns in its own words, for both tables: a record's heading and picture, a round's summary.

Pure words and pictures over public views (`Game.view()` dicts, seats under the names the table shows) and a
turn's events (the engine's, or their dicts): `/kokeshi`'s thread (`cogs.narration`, `cogs.posting`) and the
platform's table (`games.kokeshi.module`) both call these, so a turn reads the same at either table. What a table
adds around them (bullets, escaping a name's formatting, Discord's limits) stays with the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from i18n import _
from render import encode

from . import story, vocab
from .pictures.replay import ReplayTurn, draw_turn_record

# The turn so far above a live prompt's question: room left for the ping and the since lines.
SO_FAR_CHARS = 1200
# A turn's record stays well inside a Discord message (2,000 characters), and one turn of a round's summary short.
MAX_STORY_CHARS = 1700
MAX_LINE_CHARS = 300


def round_of(view: Mapping[str, Any]) -> int:
    """The round a view is in: 0 during the setup."""
    return int(view.get("round") or 0)


def record_head(player: str, before: Mapping[str, Any], after: Mapping[str, Any], label: str | None = None) -> str:
    """A record's heading: who (`label`, in bold; by default the player's name), the round the turn was played in,
    the points it won and the score items they came from."""
    return story.record_head(
        player, vocab.round_name(round_of(before)), before, after, label=label or vocab.seat_name(player)
    )


def record_story(
    events: Iterable[Any], before: Mapping[str, Any], after: Mapping[str, Any], games_log: bool = False
) -> list[str]:
    """A record's lines: the whole story of the turn, one line a move (`story.turn_story`), within a message; a
    story too long for one points to the log of its table (`games_log`: the platform's)."""
    return story.turn_story(list(events), before, after, limit=MAX_STORY_CHARS, games_log=games_log)


def turn_summary(
    player: str,
    events: Iterable[Any],
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    limit: int = MAX_LINE_CHARS,
    games_log: bool = False,
) -> str:
    """The same turn in one line, for a round's summary: "Aiko +7 → 31: …" (the caller cuts it at `limit`, once a
    name's formatting is escaped; a turn too long for it points to its table's log, `games_log`: the platform's)."""
    change, total, _items = story.score_change(player, before, after)
    head = _("{player} {gained} → {total}").format(
        player=vocab.seat_name(player), gained=vocab.signed(change) if change < 0 else f"+{change}", total=total
    )
    lines = story.turn_story(list(events), before, after, limit=limit, games_log=games_log)
    return f"{head}: {'; '.join(lines)}" if lines else head


def round_heading(number: int) -> str:
    """The heading of a round's summary in a game only the AI plays."""
    return _("**{round}** · the AI plays every seat").format(round=vocab.round_name(number))


def record_picture(player: str, before: Mapping[str, Any], after: Mapping[str, Any], events: Sequence[Any]) -> bytes:
    """The picture of a turn's record (PNG): the board of `player`, who just played, for a phone, the turn's changes
    marked and every player's points for the turn (a replay draws the same picture)."""
    told = tuple(e if isinstance(e, Mapping) else e.to_dict() for e in events)
    return encode(draw_turn_record(ReplayTurn(player, before, after, told)))


def since_lines(me: str, turns: Sequence[story.Turn]) -> list[str]:
    """For a new turn's ping: one line per other player since `me`'s last turn, then who is near the end."""
    return story.since_lines(me, turns)


__all__ = [
    "MAX_LINE_CHARS",
    "MAX_STORY_CHARS",
    "record_head",
    "record_picture",
    "record_story",
    "round_heading",
    "round_of",
    "since_lines",
    "turn_summary",
]


def record_alt(player: str) -> str:
    """A turn record's picture in words, for a screen reader, in the current language (after the game's name and
    number, which each table puts first)."""
    return _("{player}'s workshop after their turn, what the turn changed marked, and the scores.").format(
        player=vocab.seat_name(player)
    )


def decision_alt(player: str, kind: str) -> str:
    """A decision's picture in words, for a screen reader, in the current language (after the game's name and
    number)."""
    return _(
        "{player}'s decision: {question}. Where each choice leads is marked on the workshop, with the offer, the "
        "happiness board and the scores."
    ).format(player=vocab.seat_name(player), question=vocab.question(kind).lower())

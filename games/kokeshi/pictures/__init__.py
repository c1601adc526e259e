"""Kokeshi's pictures, drawn with Pillow from the engine's view and encoded as the platform encodes every picture."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from i18n import current
from render import encode

from .phone import draw_table_phone, draw_turn
from .rules import draw_rules_phone
from .scenes import TableLayout, draw_table
from .sheets import draw_board, draw_final, draw_glossary

__all__ = [
    "TableLayout",
    "board",
    "draw_board",
    "draw_final",
    "draw_glossary",
    "draw_rules_phone",
    "draw_table",
    "draw_table_phone",
    "draw_turn",
    "final",
    "glossary",
    "rules_phone",
    "table",
    "table_phone",
    "turn",
]


def table(view: Mapping[str, Any], events: Sequence[Any] = (), focus: str | None = None) -> bytes:
    """The turn picture: the focused (default: next to act) player's workshop large, the others small, the
    happiness board, the offer, the bag, the scores and the round; `events` of the last turn are highlighted.
    `events` are engine Events or their `to_dict()` form."""
    return encode(draw_table(view, events, focus))


def turn(
    view: Mapping[str, Any],
    prompt: Any = None,
    player: str | None = None,
    events: Sequence[Any] = (),
    outcomes: Mapping[str, Any] | None = None,
) -> bytes:
    """The phone picture of one decision (900 px wide, portrait, no text under 28 px): whose turn and the question,
    then what the decision is about first and everything it depends on: the deciding player's workshop with the
    quality tiles left, the numbered offer and the bag, the happiness board, every score and recognition count.
    `prompt` is an engine Prompt or the view's prompt dict (default: the view's); `player` whose workshop to show
    (default: the one deciding); `events` since the last picture (engine Events or their dicts) mark the tile an
    effect choice is about; `outcomes` (`engine.preview.preview_all`) mark where each choice leads: each kokeshi's
    landing, the space a tile goes to and the pairs it makes, each disc's next space."""
    return encode(draw_turn(view, prompt, player, events, outcomes))


def table_phone(
    view: Mapping[str, Any],
    events: Sequence[Any] = (),
    focus: str | None = None,
    *,
    others: bool = False,
    title: str | None = None,
    gains: Mapping[str, int] | None = None,
) -> bytes:
    """The table for a phone (900 px wide, no text under 28 px): the focused player's workshop (default: the one
    who just played) with what `events` changed marked, the happiness board, the offer, the scores with the turn's
    `gains`; with `others`, every other player's workshop too, tiles drawn in full."""
    return encode(draw_table_phone(view, events, focus, others, title, gains))


def board(view: Mapping[str, Any], player: str) -> bytes:
    """One player's workshop board, large, with their score and discs. Raises ValueError for an unknown name."""
    return encode(draw_board(view, player))


def final(view: Mapping[str, Any], scores: Mapping[str, Any], ranking: Sequence[str]) -> bytes:
    """The end-of-game picture: the ranking with each score item, the happiness board and every workshop.
    `scores` maps names to engine Scores or their dicts; `ranking` lists names best first."""
    return encode(draw_final(view, scores, ranking))


def glossary() -> bytes:
    """Every tile type with what it does, and the marks used on the boards, in the current language."""
    return _glossary_png(current())


@lru_cache(maxsize=4)
def _glossary_png(locale: str) -> bytes:
    return encode(draw_glossary())


def rules_phone() -> list[bytes]:
    """The rules for a phone as pages, each 900 px wide, portrait and no taller than a phone screen's shape, with no
    text under 28 px: a turn, every tile type, the marks of the pictures, scoring and the end, in the current
    language."""
    return list(_rules_png(current()))


@lru_cache(maxsize=4)
def _rules_png(locale: str) -> tuple[bytes, ...]:
    return tuple(encode(page) for page in draw_rules_phone())

"""Short turn narrations for Discord messages, built from the engine's events."""

from __future__ import annotations

from collections.abc import Iterable

from engine import Event

# Steps a player does not need to read about after every turn; the full log still has them.
_QUIET = frozenset({"turn_ended", "setup_done", "tile_drawn", "effect_chosen"})
MAX_LINES = 12


def narrate(events: Iterable[Event], *, limit: int = MAX_LINES) -> str:
    """A few lines saying what happened, the acting player's name in bold."""
    lines: list[str] = []
    for event in events:
        if event.kind in _QUIET:
            continue
        text = event.text
        if event.player and text.startswith(event.player):
            text = f"**{_escape(event.player)}**{text[len(event.player) :]}"
        lines.append(f"• {text}")
    if len(lines) > limit:
        hidden = len(lines) - limit + 1
        lines = [*lines[: limit - 1], f"• …and {hidden} more steps (`/kokeshi log` shows them all)"]
    return "\n".join(lines)


def _escape(text: str) -> str:
    """Keep Discord markdown in player names from changing the message's formatting."""
    for ch in ("\\", "*", "_", "~", "`", "|", ">"):
        text = text.replace(ch, f"\\{ch}")
    return text


escape = _escape

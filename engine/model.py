"""Public value types of the engine: prompts, options, events, scores and the rule error."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class IllegalAction(ValueError):
    """A player's input the rules refuse; the game is unchanged.

    `code` is one of `not_your_turn`, `illegal`, `game_over`, `unknown_player`; `legal` lists the ids that
    would have been accepted from the player whose turn it is.
    """

    def __init__(self, code: str, message: str, legal: list[str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.legal = list(legal or [])


@dataclass(frozen=True, slots=True)
class Option:
    """One answer to a prompt: a stable action id and a label a button can show."""

    id: str
    label: str
    code: tuple[Any, ...] = field(default=(), compare=False, repr=False)
    # How `vocab.label` words the label again in the current language: a vocab function's name and its arguments.
    words: tuple[Any, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Prompt:
    """The decision the game is waiting for: who decides, what kind of decision, and the options."""

    player: str
    kind: str
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, in order. `reveals` marks an event that showed a random draw."""

    kind: str
    player: str
    data: dict[str, Any]
    reveals: bool = False

    @property
    def text(self) -> str:
        """One plain-English sentence narrating the event."""
        from .narrate import describe

        return describe(self)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form, for logs and storage."""
        return {
            "kind": self.kind,
            "player": self.player,
            "data": dict(self.data),
            "reveals": self.reveals,
        }


@dataclass(frozen=True, slots=True)
class Score:
    """A seat's score, item by item as the rulebook counts it; `adjacency` is 0 or negative."""

    in_play: int
    tracks: int
    quality: int
    animals: int
    leads: int
    adjacency: int
    total: int

    def to_dict(self) -> dict[str, int]:
        """JSON-safe form."""
        return {
            "in_play": self.in_play,
            "tracks": self.tracks,
            "quality": self.quality,
            "animals": self.animals,
            "leads": self.leads,
            "adjacency": self.adjacency,
            "total": self.total,
        }

"""Kōhaku's value types: prompts, options, events, score details, the outcome and the rule error.

The rules speak in codes with parameters: an option's `code` and an event's `data` say what happens, and the
words module turns them into sentences in the reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Prompt kinds.
GOAL = "goal"  # choose the goal card to keep (goal-card games, all seats at once, secretly)
TAKE = "take"  # choose two adjacent tiles on the board
ZONE = "zone"  # the places to put a tile are too many for one menu: choose a group of them first
PLACE = "place"  # choose where a tile goes in your pond
KINDS: tuple[str, ...] = (GOAL, TAKE, ZONE, PLACE)


class IllegalAction(ValueError):
    """An input the rules refuse; the match is unchanged.

    `code` is one of `unknown_seat`, `game_over`, `not_your_turn`, `illegal`; `legal` lists the ids this seat
    could have sent (empty when it has nothing to decide). The message is for logs, never shown to players.
    """

    def __init__(self, code: str, legal: list[str] | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.legal = list(legal or [])


@dataclass(frozen=True, slots=True)
class Option:
    """One answer to a prompt: a short stable action id and the code a label is worded from.

    `code` by kind: `("goal", card, points_now)`; `("take", space_a, space_b, koi_tile, feature_tile, best)` where
    `best` is the most the pair could add to the pond score this turn; `("zone", first_cell, last_cell, count)`;
    `("place", x, y, tile, gain)` where `gain` is what the pond score changes by at once. Spaces are 0-11,
    cells are (x, y) pond coordinates, tiles are tile ids.
    """

    id: str
    code: tuple[Any, ...] = field(compare=False)


@dataclass(frozen=True, slots=True)
class Prompt:
    """A decision the match waits for: which seat decides, the kind of decision, and the options (2 or more)."""

    seat: int
    kind: str
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, in order. `seat` is who it is about (-1: nobody, e.g. Danny or the board);
    `reveals` marks an event that showed a random draw (an undo must never cross it)."""

    kind: str
    seat: int
    data: dict[str, Any]
    reveals: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form, for logs and storage."""
        return {"kind": self.kind, "seat": self.seat, "data": dict(self.data), "reveals": self.reveals}


# Score detail keys, in the order a score sheet lists them.
SCORE_KEYS: tuple[str, ...] = (
    "flower",
    "two_flowers",
    "rocks",
    "statue",
    "butterflies",
    "frog",
    "turtle",
    "coins",
    "goal",
    "total",
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished match ended.

    `places[i]` is the 1-based place of seat i (tied seats share a place: the text shares the victory);
    `scores[i]` seat i's score details (SCORE_KEYS); `coins[i]` the tie-break count. Solo: `danny` holds Danny's
    totals per level and `beaten[level]` whether the player scored more than him at that level.
    """

    places: tuple[int, ...]
    scores: tuple[dict[str, int], ...]
    coins: tuple[int, ...]
    danny: dict[str, int] | None = None
    beaten: dict[str, bool] | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats in first place (solo: the player if Danny is beaten at the hard level, else none)."""
        if self.beaten is not None:
            return (0,) if self.beaten["hard"] else ()
        return tuple(s for s, p in enumerate(self.places) if p == 1)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        out: dict[str, Any] = {
            "places": list(self.places),
            "scores": [dict(s) for s in self.scores],
            "coins": list(self.coins),
        }
        if self.danny is not None:
            out["danny"] = dict(self.danny)
            out["beaten"] = dict(self.beaten or {})
        return out

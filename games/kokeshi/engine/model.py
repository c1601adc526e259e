"""Public value types of the engine: prompts, options, events, scores and the rule error; codes, never words."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The codes of `IllegalAction`, in the order `Game.apply` checks them.
REFUSALS: tuple[str, ...] = ("unknown_player", "game_over", "not_your_turn", "illegal")

# Why an effect does nothing (`effect_skipped`), a tile leaves the game (`tile_discarded`) or a kokeshi goes home
# (`kokeshi_home`): an event's `reason`, with the values it names beside it in the event's data (`kokeshi`,
# `animal`). `automa_track_full` names its kokeshi when an effect is skipped, not when a tile is discarded.
REASONS: tuple[str, ...] = (
    "offer_empty",  # nothing to buy: the offer is empty
    "every_track_full",  # a tile for any track, and no track has room
    "track_full",  # kokeshi: a tile for that track, and it is full
    "every_disc_at_end",  # every disc of the player is at the end of its animal track
    "disc_at_end",  # animal: that disc is at the end of its track
    "no_track_on_side",  # no track to the left or right of the tile
    "nothing_to_do",  # any other decision with no option
    "no_legal_space",  # a reserved tile that fits nowhere
    "no_room",  # a side-reserve tile no track has room for
    "bag_empty",  # the automa draws from an empty bag
    "automa_track_full",  # (kokeshi): the automa's track is full
    "empty_space",  # a kokeshi reached an empty space and goes home
)

# Why the end is triggered (`end_triggered`'s `reason`; `Game.end_reason`).
END_REASONS: tuple[str, ...] = ("recognitions", "bag", "stall")


class IllegalAction(ValueError):
    """A player's input the rules refuse; the game is unchanged.

    `code` is one of `REFUSALS`, `params` its values (names and ids, never words): `unknown_player` (`player`),
    `game_over`, `not_your_turn` (`player`, `current`), `illegal` (`action`). `legal` lists the ids that would have
    been accepted from the player whose turn it is. The words for it are the game's (`games.kokeshi.vocab`); the
    exception's own text is the code and its values, for logs.
    """

    def __init__(self, code: str, legal: list[str] | None = None, **params: str) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params
        self.legal = list(legal or [])

    def __str__(self) -> str:
        values = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return f"{self.code} ({values})" if values else self.code


@dataclass(frozen=True, slots=True)
class Option:
    """One answer to a prompt: a stable action id, and what it is as a code with its values (`words`)."""

    id: str
    # What the option is, for the words of a button: a code (a `games.kokeshi.vocab` label's name) and its values.
    words: tuple[Any, ...] = field(default=(), compare=False)
    code: tuple[Any, ...] = field(default=(), compare=False, repr=False)


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

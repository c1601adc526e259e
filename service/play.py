"""One decision, start to end: the seat's action checked against the match's version and rules, applied, and told
back as an `Outcome` (the events, whether a new turn began, the new version, who must decide now)."""

from __future__ import annotations

from dataclasses import dataclass

import games
from games.base import Event, Match, Refusal, Standing

# A Refused's codes: the match's own refusals, and those of the service.
UNKNOWN_GAME = "unknown_game"  # no game has this key, or the match is another game's
STALE = "stale"  # the decision was made on an older version of the match (a button from before)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one accepted decision did: everything a presenter needs, so that it never asks the service again.

    `events` in order (codes with parameters; `GameModule.narrate` words them); `turn_changed` when a new turn began
    (the match's turn key changed: time to notify whoever plays next); `version`, the match's new version (buttons
    carry it); `waiting`, the seats that must decide now; `standing`, set once the match is over.
    """

    game: str
    events: tuple[Event, ...]
    turn_changed: bool
    version: int
    waiting: tuple[int, ...]
    standing: Standing | None


class Refused(Exception):
    """A decision not taken; the match is unchanged. `code` is `unknown_game`, `stale` or one of
    `games.base.REFUSALS`; `legal` the actions the seat may send now (to offer them again)."""

    def __init__(self, code: str, legal: tuple[str, ...] = ()) -> None:
        super().__init__(code)
        self.code = code
        self.legal = legal


def play(game_key: str, match: Match, version: int, seat: int, action: str) -> Outcome:
    """Carry out `seat`'s `action` on `match`, made when the match was at `version`. The match is changed in place
    (its owner saves it); a refusal raises `Refused` and changes nothing."""
    try:
        games.get(game_key)
    except KeyError:
        raise Refused(UNKNOWN_GAME) from None
    if match.game != game_key:
        raise Refused(UNKNOWN_GAME)
    if version != match.version:
        raise Refused(STALE, tuple(match.legal_actions(seat)))
    before = match.turn_key()
    try:
        events = match.apply(seat, action)
    except Refusal as err:
        raise Refused(err.code, err.legal) from None
    return Outcome(
        game=game_key,
        events=tuple(events),
        turn_changed=match.turn_key() != before,
        version=match.version,
        waiting=match.waiting(),
        standing=match.standing() if match.is_over else None,
    )
